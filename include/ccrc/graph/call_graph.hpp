// ccrc - the call graph G_t of a calling context tree, with recursion-safe self and total costs.
#pragma once

#include <ccrc/algorithm/inclusive.hpp>
#include <ccrc/concepts.hpp>
#include <ccrc/config.hpp>
#include <ccrc/detail/hash.hpp>
#include <ccrc/detail/prefetch.hpp>
#include <ccrc/error.hpp>
#include <ccrc/tree/profile.hpp>
#include <ccrc/tree/view.hpp>

#include <algorithm>
#include <cmath>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string_view>
#include <vector>

namespace ccrc {

/// An edge of a call_graph: an index into call_graph::edges().
using edge_id = std::uint32_t;

/// "No edge": the edge of the synthetic root, a failed find_edge.
inline constexpr edge_id null_edge = std::numeric_limits<edge_id>::max();

/// A call from one function to another: the calling contexts of `callee` whose parent is a
/// context of `caller`. A top-level call (a context directly under the synthetic root) has
/// caller root_method, which stands for "called at the top level" (gprof's <spontaneous>) and
/// is never a function of the graph.
struct call_edge {
  method_id caller;
  method_id callee;
  std::uint64_t contexts;  ///< number of calling contexts of the callee called from the caller
};

namespace detail {

// Open addressing from a (caller, callee) pair to its edge id, for the build only. The
// caller hashes a key once, may prefetch its slot, then looks it up.
class edge_table {
 public:
  static std::uint64_t key(method_id caller, method_id callee) noexcept {
    return (std::uint64_t{caller} << 32) | callee;
  }

  void prefetch(std::uint64_t hash) const noexcept { detail::prefetch(&slots_[hash & (slots_.size() - 1)]); }

  // The edge of `key` (hashed by mix64); a new key gets id `next`, and `added` is set.
  edge_id find_or_add(std::uint64_t key, std::uint64_t hash, edge_id next, bool& added) {
    if (2 * (size_ + 1) > slots_.size()) grow();
    std::size_t mask = slots_.size() - 1;
    for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
      slot& s = slots_[i];
      if (s.key == key) return s.edge;
      if (s.key == empty) {
        s = {key, next};
        ++size_;
        added = true;
        return next;
      }
    }
  }

 private:
  static constexpr std::uint64_t empty = ~std::uint64_t{0};  // no method id is 2^32 - 1
  struct slot {
    std::uint64_t key = empty;
    edge_id edge = null_edge;
  };

  void grow() {
    std::vector<slot> old(slots_.size() < 1024 ? 1024 : 2 * slots_.size());
    old.swap(slots_);
    std::size_t mask = slots_.size() - 1;
    for (const slot& s : old) {
      if (s.key == empty) continue;
      std::size_t i = mix64(s.key) & mask;
      while (slots_[i].key != empty) i = (i + 1) & mask;
      slots_[i] = s;
    }
  }

  std::vector<slot> slots_ = std::vector<slot>(1024);
  std::size_t size_ = 0;
};

// Counting sort of edge ids by caller (or callee), stable: the ids come out grouped by that
// endpoint, each group in the order of `order`. offsets[m]..offsets[m + 1] is method m's group.
inline void bucket_edges(std::size_t methods, std::span<const call_edge> edges, std::span<const edge_id> order,
                         bool by_caller, std::vector<edge_id>& offsets, std::vector<edge_id>& ids) {
  auto key = [&](edge_id e) { return by_caller ? edges[e].caller : edges[e].callee; };
  offsets.assign(methods + 1, 0);
  for (const call_edge& e : edges) ++offsets[(by_caller ? e.caller : e.callee) + 1];
  for (std::size_t m = 0; m < methods; ++m) offsets[m + 1] += offsets[m];
  ids.resize(edges.size());
  std::vector<edge_id> next(offsets.begin(), offsets.end() - 1);
  for (edge_id e : order) ids[next[key(e)]++] = e;
}

/// a < b for costs, with NaN below every number: the order used to rank functions and calls
/// and to choose masters, total even for doubles.
template <class T>
[[nodiscard]] constexpr bool cost_less(T a, T b) noexcept {
  if (a != a) return b == b;  // NaN != NaN
  return b == b && a < b;
}

/// For sorting by decreasing cost: -1 if a comes first (is larger), 1 if b does, 0 if neither.
template <class T>
[[nodiscard]] constexpr int larger_first(T a, T b) noexcept {
  return cost_less(b, a) ? -1 : cost_less(a, b) ? 1 : 0;
}

/// 100 * part / whole, and 0 where that is not a finite number (whole 0, NaN, infinities).
template <class T>
[[nodiscard]] inline double percent_of(T part, T whole) noexcept {
  double p = 100.0 * static_cast<double>(part) / static_cast<double>(whole);
  return std::isfinite(p) ? p : 0.0;
}

}  // namespace detail

/// The call graph G_t of a calling context tree (Kaes, "Computing runtime attributed call
/// graphs"): one vertex per method ("function") that has a calling context, an edge g -> f
/// when a context of f is called from a context of g, and per metric
///
/// - self(f) = c_i(f): the sum of the self values of all contexts of f;
/// - total(f) = c_t(f): the sum of the aggregated values ag(M) of the contexts of f that have
///   no ancestor of method f (the paper's Min_E), so recursion, direct or mutual, is never
///   counted twice: c_t(f) <= tree_total();
/// - per edge g -> f, edge_self: the self values of the contexts of f whose parent is a
///   context of g, and edge_total: the ag(M) of those of them that have no ancestor that is
///   also a call g -> f (the same rule applied to the pair: it counts once per call path, at
///   its outermost occurrence).
///
/// Top-level contexts are calls from root_method: those edges make the costs add up (the
/// edge_self of f's incoming edges sum to self(f)) and mark the top-level functions.
/// Several metrics of one value type are computed at once; metric j is the j-th column given.
/// Functions are indexed by method_id (arrays sized by the symbol table's method count).
///
/// Built without recursion and without the seed's copied hash sets: a sweep over the node
/// ids finds every context's call (a hash lookup of (parent's method, method), prefetched a
/// few contexts ahead); one depth-first pass (ccrc::depth_first) marks the outermost contexts
/// with a per-method "on the current path" counter (0 on entering a context: it is the
/// outermost of its method) and, for the contexts inside a recursion only, a per-call one;
/// ag(M) is ccrc::inclusive's reverse sweep; a last sweep adds each context's self value to
/// its function and call, and its ag(M) to their totals where it is outermost. O(n) expected,
/// then O(methods + edges); while building, k values and 1 byte per context; the graph keeps
/// O(k (methods + edges)) and 4 bytes per context (node_edges()).
///
///     ccrc::call_graph g(p.tree(), p.column("bytecodes"));
///     ccrc::method_id g_ = *p.symbols().find_method("g");
///     // Figure 1: g.self(g_) == 540, g.total(g_) == 980 (not 1380: main;f;g;g is inside main;f;g)
///
/// The graph keeps a pointer to the tree's symbol table (for names): the tree must outlive it.
template <metric_value T>
class call_graph {
 public:
  using value_type = T;

  /// The call graph of `t` for several metrics at once: columns[j] holds one value per node.
  call_graph(const call_tree& t, std::span<const std::span<const T>> columns) { build(t, columns); }

  /// The call graph of `t` for one metric column (a std::vector, a span, cct::column<"x">()).
  template <metric_column C>
    requires std::same_as<column_value_t<C>, T>
  call_graph(const call_tree& t, const C& column) {
    std::span<const T> one(std::ranges::data(column), std::ranges::size(column));
    build(t, std::span<const std::span<const T>>(&one, 1));
  }

  /// The call graph of a profile for all its metrics, in the profile's order.
  explicit call_graph(const profile& p)
    requires std::same_as<T, double>
  {
    std::vector<std::span<const double>> columns;
    for (std::size_t j = 0; j < p.metric_count(); ++j) columns.push_back(p.column(j));
    build(p.tree(), columns);
  }

  /// Number of metrics.
  [[nodiscard]] std::size_t metric_count() const noexcept { return k_; }
  /// The symbol table of the tree: method names.
  [[nodiscard]] const symbol_table& symbols() const noexcept { return *symbols_; }
  /// The name of method f ("" for root_method).
  [[nodiscard]] std::string_view name(method_id f) const noexcept { return symbols_->method_name(f); }

  /// Size of the per-function arrays: method ids are [0, method_count()).
  [[nodiscard]] std::size_t method_count() const noexcept { return contexts_.size(); }
  /// The functions: methods with at least one calling context, by increasing method id.
  [[nodiscard]] std::span<const method_id> functions() const noexcept { return functions_; }
  /// Whether method f is a function of the graph.
  [[nodiscard]] bool contains(method_id f) const noexcept {
    return f != root_method && f < method_count() && contexts_[f] != 0;
  }
  /// Number of calling contexts of f.
  [[nodiscard]] std::uint64_t contexts(method_id f) const noexcept { return contexts_[f]; }
  /// c_i(f): the self values of all contexts of f.
  [[nodiscard]] T self(method_id f, std::size_t metric = 0) const noexcept { return values_[f * 2 * k_ + metric]; }
  /// c_t(f): the aggregated values of the outermost contexts of f.
  [[nodiscard]] T total(method_id f, std::size_t metric = 0) const noexcept {
    return values_[f * 2 * k_ + k_ + metric];
  }
  /// Whether f has a context directly under the synthetic root.
  [[nodiscard]] bool is_top_level(method_id f) const noexcept {
    auto in = in_edges(f);
    return !in.empty() && edges_[in.front()].caller == root_method;
  }

  /// ag(M) of the root: the sum of every self value of the tree (functions' self values plus
  /// root_self()).
  [[nodiscard]] T tree_total(std::size_t metric = 0) const noexcept { return tree_total_[metric]; }
  /// The synthetic root's own value (usually 0): the part of tree_total() no function has.
  [[nodiscard]] T root_self(std::size_t metric = 0) const noexcept { return root_self_[metric]; }

  /// The edges, top-level calls included, in order of their first context's node id.
  [[nodiscard]] std::span<const call_edge> edges() const noexcept { return edges_; }
  /// Number of edges, top-level calls included: edge ids are [0, edge_count()).
  [[nodiscard]] std::size_t edge_count() const noexcept { return edges_.size(); }
  /// Caller, callee and context count of edge e.
  [[nodiscard]] const call_edge& edge(edge_id e) const noexcept { return edges_[e]; }
  /// The self values of the callee's contexts in the calls of edge e (they add up to self(f)
  /// over the edges into f).
  [[nodiscard]] T edge_self(edge_id e, std::size_t metric = 0) const noexcept {
    return edge_values_[e * 2 * k_ + metric];
  }
  /// The aggregated values of the outermost calls of edge e on each path: the callee's
  /// total cost in these calls, recursion once (at most total(callee) and total(caller)).
  [[nodiscard]] T edge_total(edge_id e, std::size_t metric = 0) const noexcept {
    return edge_values_[e * 2 * k_ + k_ + metric];
  }

  /// The edges from f (f = root_method: the top-level calls), in edge id order.
  [[nodiscard]] std::span<const edge_id> out_edges(method_id f) const noexcept {
    return std::span(out_ids_).subspan(out_offsets_[f], out_offsets_[f + 1] - out_offsets_[f]);
  }
  /// The edges to f, by increasing caller id: a top-level call comes first.
  [[nodiscard]] std::span<const edge_id> in_edges(method_id f) const noexcept {
    return std::span(in_ids_).subspan(in_offsets_[f], in_offsets_[f + 1] - in_offsets_[f]);
  }
  /// The edge caller -> callee, or null_edge. O(out-degree of caller).
  [[nodiscard]] edge_id find_edge(method_id caller, method_id callee) const noexcept {
    if (caller >= method_count()) return null_edge;
    for (edge_id e : out_edges(caller))
      if (edges_[e].callee == callee) return e;
    return null_edge;
  }

  /// The edge of each calling context (its parent's method -> its method), null_edge for the
  /// root: maps a selected context to the call graph.
  [[nodiscard]] std::span<const edge_id> node_edges() const noexcept { return node_edge_; }

 private:
  void build(const call_tree& t, std::span<const std::span<const T>> columns) {
    k_ = columns.size();
    CCRC_ASSERT(k_ > 0, "ccrc: a call graph needs at least one metric column");
    for (auto c : columns) CCRC_ASSERT(c.size() == t.size(), "ccrc: the column must have one value per node");
    symbols_ = &t.symbols();
    std::size_t methods = t.symbols().method_count();
    contexts_.assign(methods, 0);
    values_.assign(methods * 2 * k_, T{});
    node_edge_.assign(t.size(), null_edge);
    root_self_.resize(k_);
    for (std::size_t j = 0; j < k_; ++j) root_self_[j] = columns[j][root_node];

    find_calls(t);
    std::vector<std::uint8_t> outermost = outermost_flags(t);

    // Costs: a sweep over the ids, every addition independent of the others. The edge record
    // of the context `ahead` ids further is prefetched (edges are many, and scattered).
    std::vector<std::vector<T>> ag;
    for (auto c : columns) ag.push_back(inclusive(t, c));
    constexpr std::size_t ahead = 16;
    std::size_t n_nodes = t.size();
    for (std::size_t n = 1; n < n_nodes; ++n) {
      if (n + ahead < n_nodes) {
        edge_id next = node_edge_[n + ahead];
        detail::prefetch(&edge_values_[next * 2 * k_]);
        detail::prefetch(&edges_[next]);
      }
      method_id m = t.method(static_cast<node_id>(n));
      edge_id e = node_edge_[n];
      std::uint8_t flags = outermost[n];
      ++contexts_[m];
      ++edges_[e].contexts;
      T* fs = &values_[m * 2 * k_];
      T* es = &edge_values_[e * 2 * k_];
      for (std::size_t j = 0; j < k_; ++j) {
        T v = columns[j][n];
        fs[j] += v;
        es[j] += v;
        if (flags & outermost_method) fs[k_ + j] += ag[j][n];
        if (flags & outermost_call) es[k_ + j] += ag[j][n];
      }
    }
    for (std::size_t j = 0; j < k_; ++j) tree_total_.push_back(ag[j][root_node]);

    for (method_id m{1}; m < methods; ++m)
      if (contexts_[m] != 0) functions_.push_back(m);
    // Two stable counting sorts: out-edges in edge id order, in-edges by caller id (so that
    // a top-level call, from method 0, comes first).
    std::vector<edge_id> order(edges_.size());
    for (edge_id e = 0; e < order.size(); ++e) order[e] = e;
    detail::bucket_edges(methods, edges_, order, true, out_offsets_, out_ids_);
    detail::bucket_edges(methods, edges_, out_ids_, false, in_offsets_, in_ids_);
  }

  static constexpr std::uint8_t outermost_method = 1, outermost_call = 2;

  // Per context, whether it is the outermost of its method on its path (no ancestor of the
  // same method: Kaes's Min_E) and the outermost of its call (no ancestor that is a call from
  // the same caller to the same callee). One depth-first pass: a context is the outermost of
  // its method iff the method's on-path counter is 0 when it is entered. A call g -> f can
  // repeat on a path only where f does, so the calls are counted on the path only for the
  // contexts that are not the outermost of their method (recursion, usually rare), and the
  // outermost one's call is kept per method: common contexts touch per-method arrays only.
  std::vector<std::uint8_t> outermost_flags(const call_tree& t) const {
    std::vector<std::uint8_t> flags(t.size(), 0);
    std::size_t methods = method_count();
    std::vector<std::uint32_t> on_path(methods, 0);  // contexts of each method on the path
    std::vector<edge_id> outer_call(methods, null_edge);  // the call of its outermost one
    std::vector<std::uint32_t> inner_on_path(edges_.size(), 0);  // the other contexts, per call
    // The method is read from the edge (few edges, cached) rather than from the node's frame:
    // one node-indexed array fewer to miss in on a tree too big for the caches.
    auto enter = [&](node_id n, std::uint32_t) {
      if (n == root_node) return;
      edge_id e = node_edge_[n];
      method_id m = edges_[e].callee;
      if (on_path[m]++ == 0) {
        outer_call[m] = e;
        flags[n] = outermost_method | outermost_call;
      } else {
        if (outer_call[m] != e && inner_on_path[e] == 0) flags[n] = outermost_call;
        ++inner_on_path[e];
      }
    };
    auto leave = [&](node_id n, std::uint32_t) {
      if (n == root_node) return;
      edge_id e = node_edge_[n];
      if (--on_path[edges_[e].callee] != 0) --inner_on_path[e];
    };
    depth_first(tree_view(t), enter, leave);
    return flags;
  }

  // node_edge_ and edges_: the call of every context, (parent's method, method), found by a
  // sweep over the ids. The slot of the context `ahead` ids further is prefetched, so that
  // when the graph has many edges their cache misses overlap instead of queueing.
  void find_calls(const call_tree& t) {
    constexpr std::size_t ahead = 16;
    std::uint64_t keys[ahead], hashes[ahead];
    auto key_of = [&](node_id n) { return detail::edge_table::key(t.method(t.parent(n)), t.method(n)); };
    detail::edge_table table;
    std::size_t n_nodes = t.size();
    for (std::size_t n = 1; n < n_nodes && n <= ahead; ++n) {
      keys[n % ahead] = key_of(static_cast<node_id>(n));
      hashes[n % ahead] = detail::mix64(keys[n % ahead]);
    }
    for (std::size_t n = 1; n < n_nodes; ++n) {
      std::uint64_t key = keys[n % ahead], hash = hashes[n % ahead];
      if (n + ahead < n_nodes) {
        keys[n % ahead] = key_of(static_cast<node_id>(n + ahead));
        hashes[n % ahead] = detail::mix64(keys[n % ahead]);
        table.prefetch(hashes[n % ahead]);
      }
      bool added = false;
      edge_id e = table.find_or_add(key, hash, static_cast<edge_id>(edges_.size()), added);
      if (added) {
        if (edges_.size() == null_edge) throw capacity_error("a call graph holds at most 2^32-1 edges");
        edges_.push_back({static_cast<method_id>(key >> 32), static_cast<method_id>(key), 0});
      }
      node_edge_[n] = e;
    }
    edge_values_.assign(edges_.size() * 2 * k_, T{});
  }

  std::size_t k_ = 0;
  const symbol_table* symbols_ = nullptr;
  std::vector<std::uint64_t> contexts_;  // per method
  std::vector<T> values_;                // per method: k self values, then k totals
  std::vector<method_id> functions_;
  std::vector<call_edge> edges_;
  std::vector<T> edge_values_;           // per edge: k self values, then k totals
  std::vector<edge_id> out_offsets_, out_ids_, in_offsets_, in_ids_;
  std::vector<edge_id> node_edge_;
  std::vector<T> tree_total_, root_self_;
};

template <metric_column C>
call_graph(const call_tree&, const C&) -> call_graph<column_value_t<C>>;
call_graph(const profile&) -> call_graph<double>;

}  // namespace ccrc
