// ccrc - what profilers ask of a call graph: top functions, callers and callees, the butterfly.
#pragma once

#include <ccrc/graph/call_graph.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace ccrc {

/// A function of a call graph with its costs in one metric.
template <metric_value T>
struct function_entry {
  method_id function;
  std::uint64_t contexts;  ///< its calling contexts
  T self;                  ///< c_i
  T total;                 ///< c_t
  double self_percent;     ///< 100 * self / tree_total (0 when that is not a finite number)
  double total_percent;    ///< 100 * total / tree_total (likewise)
};

/// A caller or a callee of a function, with the costs of the calls between them.
template <metric_value T>
struct call_entry {
  method_id function;      ///< the caller (root_method: called at the top level) or the callee
  edge_id edge;
  std::uint64_t contexts;  ///< the edge's calling contexts
  T self;                  ///< edge_self: the callee's self cost in these calls
  T total;                 ///< edge_total: the callee's total cost in these calls, recursion once
};

/// The butterfly of one function (gprof's call graph entry, pprof's peek, speedscope's
/// sandwich): its callers above, the function, its callees below.
template <metric_value T>
struct call_butterfly {
  std::vector<call_entry<T>> callers;
  function_entry<T> function;
  std::vector<call_entry<T>> callees;
};

/// What top_functions ranks by.
enum class rank_by { self, total };

/// Options of top_functions.
struct top_options {
  rank_by by = rank_by::total;
  std::size_t count = std::numeric_limits<std::size_t>::max();  ///< at most this many
  std::size_t metric = 0;
};

/// The costs of function f in one metric: its contexts, c_i, c_t and their shares of the
/// tree's total, as top_functions lists them. O(1).
///
///     auto h = ccrc::function_costs(g, *g.symbols().find_method("h"), 1);
///     // Figure 1, bytecodes: h.self == 792, h.total == 1452, h.contexts == 6
template <metric_value T>
[[nodiscard]] function_entry<T> function_costs(const call_graph<T>& g, method_id f, std::size_t metric = 0) {
  CCRC_ASSERT(g.contains(f), "ccrc: not a function of this call graph");
  T all = g.tree_total(metric);
  return {f, g.contexts(f), g.self(f, metric), g.total(f, metric), detail::percent_of(g.self(f, metric), all),
          detail::percent_of(g.total(f, metric), all)};
}

namespace detail {

// Larger total first, then larger self, then the name: a strict total order for one function.
template <metric_value T>
std::vector<call_entry<T>> ranked_calls(const call_graph<T>& g, std::span<const edge_id> edges, bool callers,
                                        std::size_t metric) {
  std::vector<call_entry<T>> out;
  out.reserve(edges.size());
  for (edge_id e : edges) {
    const call_edge& c = g.edge(e);
    out.push_back({callers ? c.caller : c.callee, e, c.contexts, g.edge_self(e, metric), g.edge_total(e, metric)});
  }
  std::sort(out.begin(), out.end(), [&](const call_entry<T>& a, const call_entry<T>& b) {
    if (int c = larger_first(a.total, b.total)) return c < 0;
    if (int c = larger_first(a.self, b.self)) return c < 0;
    return g.name(a.function) < g.name(b.function);
  });
  return out;
}

}  // namespace detail

/// The callers of f with the costs of their calls to f, largest edge_total first (then
/// edge_self, then name); a top-level call appears as the caller root_method. The entries'
/// self values add up to self(f). O(d log d) for d callers.
///
///     for (auto& c : ccrc::callers(g, f)) std::printf("%s %g\n", std::string(g.name(c.function)).c_str(), c.total);
template <metric_value T>
[[nodiscard]] std::vector<call_entry<T>> callers(const call_graph<T>& g, method_id f, std::size_t metric = 0) {
  CCRC_ASSERT(g.contains(f), "ccrc: not a function of this call graph");
  return detail::ranked_calls(g, g.in_edges(f), true, metric);
}

/// The callees of f with the costs of f's calls to them, ordered as callers(). O(d log d).
template <metric_value T>
[[nodiscard]] std::vector<call_entry<T>> callees(const call_graph<T>& g, method_id f, std::size_t metric = 0) {
  CCRC_ASSERT(g.contains(f), "ccrc: not a function of this call graph");
  return detail::ranked_calls(g, g.out_edges(f), false, metric);
}

/// The functions ranked by total (c_t) or self (c_i) cost, largest first, ties by the other
/// cost and then by name; at most options.count of them. O(V log V).
///
///     auto top = ccrc::top_functions(g, {.by = ccrc::rank_by::self, .count = 10});
///     // Figure 1, bytecodes: main 1066, h 792, i 660, g 540, f 180
template <metric_value T>
[[nodiscard]] std::vector<function_entry<T>> top_functions(const call_graph<T>& g, top_options options = {}) {
  std::vector<function_entry<T>> out;
  out.reserve(g.functions().size());
  for (method_id f : g.functions()) out.push_back(function_costs(g, f, options.metric));
  auto first = [&](const function_entry<T>& e) { return options.by == rank_by::total ? e.total : e.self; };
  auto second = [&](const function_entry<T>& e) { return options.by == rank_by::total ? e.self : e.total; };
  auto before = [&](const function_entry<T>& a, const function_entry<T>& b) {
    if (int c = detail::larger_first(first(a), first(b))) return c < 0;
    if (int c = detail::larger_first(second(a), second(b))) return c < 0;
    return g.name(a.function) < g.name(b.function);
  };
  std::size_t n = std::min(options.count, out.size());
  std::partial_sort(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(n), out.end(), before);
  out.resize(n);
  return out;
}

/// Every edge of the call graph, largest edge_total first, then larger edge_self, then by
/// the caller's name and the callee's: a strict order, the same on every run. Top-level calls
/// (caller root_method, whose name is "") are edges too; skip them for the calls between two
/// functions. O(E log E).
///
///     for (ccrc::edge_id e : ccrc::ranked_edges(g, 1))
///       std::printf("%s -> %s\n", std::string(g.name(g.edge(e).caller)).c_str(), std::string(g.name(g.edge(e).callee)).c_str());
template <metric_value T>
[[nodiscard]] std::vector<edge_id> ranked_edges(const call_graph<T>& g, std::size_t metric = 0) {
  std::vector<edge_id> out(g.edges().size());
  for (edge_id e = 0; e < out.size(); ++e) out[e] = e;
  std::sort(out.begin(), out.end(), [&](edge_id x, edge_id y) {
    if (int c = detail::larger_first(g.edge_total(x, metric), g.edge_total(y, metric))) return c < 0;
    if (int c = detail::larger_first(g.edge_self(x, metric), g.edge_self(y, metric))) return c < 0;
    const call_edge &a = g.edge(x), &b = g.edge(y);
    if (a.caller != b.caller) return g.name(a.caller) < g.name(b.caller);
    return g.name(a.callee) < g.name(b.callee);
  });
  return out;
}

/// The butterfly of f: callers(g, f), f's own costs, callees(g, f). O(d log d).
template <metric_value T>
[[nodiscard]] call_butterfly<T> butterfly(const call_graph<T>& g, method_id f, std::size_t metric = 0) {
  return {callers(g, f, metric), function_costs(g, f, metric), callees(g, f, metric)};
}

}  // namespace ccrc
