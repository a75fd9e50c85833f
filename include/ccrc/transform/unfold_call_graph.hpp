// ccrc - a call graph with costs on its edges unfolded into a calling context tree, by the
// proportional split (what callgrind and gprof profiles hold, turned into contexts).
#pragma once

#include <ccrc/config.hpp>
#include <ccrc/detail/prefetch.hpp>
#include <ccrc/error.hpp>
#include <ccrc/tree/call_tree.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ccrc {

/// A call graph with costs, the input of unfold_call_graph: `functions` functions (0 to
/// functions - 1) and `events` costs per cost entry (callgrind's events: Ir, Dr...), integers.
struct cost_call_graph {
  std::size_t functions = 0, events = 1;
  /// The call edges, `caller[i] -> callee[i]`, and the inclusive cost of those calls,
  /// `edge_cost[i * events + e]`; one caller -> callee pair may be given several times (its
  /// costs add up).
  std::vector<std::uint32_t> caller = {}, callee = {};
  std::vector<std::uint64_t> edge_cost = {};
  /// Self costs in parts (as a profile writes them, a block at a time): `self_cost[i *
  /// events + e]` belongs to function `self_function[i]`; a function's parts add up.
  std::vector<std::uint32_t> self_function = {};
  std::vector<std::uint64_t> self_cost = {};
};

/// Options of unfold_call_graph.
struct unfold_call_graph_options {
  /// At most this many contexts besides the root; more throws ccrc::capacity_error (a graph
  /// of n functions can unfold into 2^n contexts).
  std::size_t max_contexts = 10'000'000;
};

/// The calling context tree unfold_call_graph makes: context 0 is the root (parent
/// null_node, function `no_function`), every other context's parent precedes it.
struct unfolded_call_graph {
  static constexpr std::uint32_t no_function = ~std::uint32_t{0};
  std::vector<node_id> parent;
  std::vector<std::uint32_t> function;
  /// The self cost of context n, event e: `cost[n * events + e]`.
  std::vector<std::uint64_t> cost;
};

/// A cost sum above 2^53 (which a double cannot hold exactly): `part` is the index of the
/// self-cost part at which it was found, or `no_part` for the sum of a repeated edge.
struct cost_overflow : error {
  static constexpr std::size_t no_part = ~std::size_t{0};
  explicit cost_overflow(std::size_t at)
      : error("a cost sum above 2^53, which a double cannot hold exactly"), part(at) {}
  std::size_t part;
};

namespace detail {

/// floor(a * b / c) and (a * b) mod c, without overflow (c > 0).
struct mul_div_result {
  std::uint64_t q = 0, r = 0;
};

[[nodiscard]] constexpr mul_div_result mul_div(std::uint64_t a, std::uint64_t b, std::uint64_t c) noexcept {
  if (b == 0 || a <= ~std::uint64_t{0} / b) return {a * b / c, a * b % c};
  // The 128-bit product as hi:lo from 32-bit halves, then long division, bit by bit (rare).
  std::uint64_t a0 = a & 0xffffffffu, a1 = a >> 32, b0 = b & 0xffffffffu, b1 = b >> 32;
  std::uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  std::uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
  std::uint64_t lo = (p00 & 0xffffffffu) | (mid << 32);
  std::uint64_t hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
  std::uint64_t q = 0, r = 0;
  for (int i = 127; i >= 0; --i) {
    std::uint64_t bit = i >= 64 ? (hi >> (i - 64)) & 1 : (lo >> i) & 1;
    bool carry = (r >> 63) != 0;
    r = (r << 1) | bit;
    q <<= 1;  // the quotient fits 64 bits where it is used: b <= c, so a * b / c <= a
    if (carry || r >= c) {
      r -= c;
      q |= 1;
    }
  }
  return {q, r};
}


inline constexpr std::uint64_t max_exact_cost = std::uint64_t{1} << 53;

// The call edges grouped by caller, in the order given: slot s of [first[f], first[f + 1])
// holds a callee of f and the cost of those calls (`events` values). 32-bit indexes, as the
// depth-first search meets each function at a random place of these arrays, and halving them
// keeps more in cache. A slot `cut` is never followed: a repeated caller -> callee pair (its
// cost added to the pair's first slot), or, once cycles are cut, a recursive call.
struct caller_slots {
  using index = std::uint32_t;
  std::vector<index> first, callee;
  std::vector<std::uint64_t> cost;
  std::vector<bool> cut;
};

// Phase 1: the graph's edges into slots by caller (a counting sort), each pair once. The
// graph's edge columns are released.
inline caller_slots slots_by_caller(cost_call_graph& graph) {
  using index = caller_slots::index;
  const std::size_t E = graph.events, F = graph.functions, M = graph.caller.size();
  caller_slots out{std::vector<index>(F + 1, 0), std::vector<index>(M), std::vector<std::uint64_t>(M * E),
                   std::vector<bool>(M, false)};
  for (const std::uint32_t c : graph.caller) ++out.first[c + 1];
  for (std::size_t f = 0; f < F; ++f) out.first[f + 1] += out.first[f];
  {
    std::vector<index> fill(out.first.begin(), out.first.end() - 1);
    for (std::size_t i = 0; i < M; ++i) {
      const index s = fill[graph.caller[i]]++;
      out.callee[s] = graph.callee[i];
      std::copy_n(graph.edge_cost.begin() + static_cast<std::ptrdiff_t>(i * E), E,
                  out.cost.begin() + static_cast<std::ptrdiff_t>(s * E));
    }
  }
  // Swapped out: assigning {} would keep the memory.
  std::vector<std::uint32_t>().swap(graph.caller);
  std::vector<std::uint32_t>().swap(graph.callee);
  std::vector<std::uint64_t>().swap(graph.edge_cost);
  std::vector<index> seen_by(F, ~index{0}), kept(F, 0);
  for (index f = 0; f < F; ++f)
    for (index s = out.first[f]; s < out.first[f + 1]; ++s) {
      const index g = out.callee[s];
      if (seen_by[g] != f) {
        seen_by[g] = f;
        kept[g] = s;
        continue;
      }
      for (std::size_t e = 0; e < E; ++e) {
        std::uint64_t& into = out.cost[kept[g] * E + e];
        const std::uint64_t v = out.cost[s * E + e];
        if (v > max_exact_cost - into) throw cost_overflow(cost_overflow::no_part);
        into += v;
      }
      out.cut[s] = true;
    }
  return out;
}

// Whether each function is called by a slot not cut.
inline std::vector<bool> called_functions(const caller_slots& slots, std::size_t functions) {
  std::vector<bool> called(functions, false);
  for (std::size_t s = 0; s < slots.callee.size(); ++s)
    if (!slots.cut[s]) called[slots.callee[s]] = true;
  return called;
}

// Phase 2: cycles cut by an iterative depth-first search, from the functions nobody calls,
// then from any left, in order; a slot to a function on the search path (a recursive call,
// f -> f included) is cut. Returns the finishing order reversed: a topological order of what
// is left.
inline std::vector<caller_slots::index> cut_cycles(caller_slots& slots, std::size_t functions) {
  using index = caller_slots::index;
  const std::vector<bool> called = called_functions(slots, functions);
  std::vector<std::uint8_t> state(functions, 0);  // 0 new, 1 on the path, 2 done
  std::vector<index> order;                        // finishing order
  order.reserve(functions);
  std::vector<std::pair<index, index>> stack;  // function, next slot
  auto search = [&](index start) {
    state[start] = 1;
    stack.emplace_back(start, slots.first[start]);
    while (!stack.empty()) {
      auto& [f, s] = stack.back();
      if (s == slots.first[f + 1]) {
        state[f] = 2;
        order.push_back(f);
        stack.pop_back();
        continue;
      }
      const index at = s++;
      if (slots.cut[at]) continue;  // a pair merged into its first slot
      const index g = slots.callee[at];
      if (state[g] == 1) {
        slots.cut[at] = true;
      } else if (state[g] == 0) {
        state[g] = 1;
        stack.emplace_back(g, slots.first[g]);
      }
    }
  };
  for (index f = 0; f < functions; ++f)
    if (!called[f] && state[f] == 0) search(f);
  for (index f = 0; f < functions; ++f)
    if (state[f] == 0) search(f);
  std::reverse(order.begin(), order.end());
  return order;
}

// Each function's self cost and kept out-edges, in the topological order the unfolding
// visits them: function order[i]'s self cost at [i * events, (i + 1) * events), its edges
// [edge_first[i], edge_first[i + 1]) of edge_callee, their costs `events` each in edge_cost.
struct costs_in_order {
  std::vector<std::uint64_t> self_cost, edge_cost;
  std::vector<caller_slots::index> edge_first, edge_callee;
};

// Phase 3: the costs gathered into that order in plain loops whose cache misses overlap,
// rather than met one at a time between the unfolding's dependent steps. Releases the
// graph's self costs and the slots.
inline costs_in_order gather_in_order(cost_call_graph& graph, caller_slots&& slots,
                                      const std::vector<caller_slots::index>& order) {
  using index = caller_slots::index;
  const std::size_t E = graph.events, F = graph.functions;
  costs_in_order out{std::vector<std::uint64_t>(F * E, 0), {}, std::vector<index>(F + 1, 0), {}};
  {
    std::vector<index> position(F);  // in `order`
    for (index i = 0; i < F; ++i) position[order[i]] = i;
    for (std::size_t b = 0; b < graph.self_function.size(); ++b)
      for (std::size_t e = 0; e < E; ++e) {
        std::uint64_t& into = out.self_cost[position[graph.self_function[b]] * E + e];
        const std::uint64_t v = graph.self_cost[b * E + e];
        if (v > max_exact_cost - into) throw cost_overflow(b);
        into += v;
      }
    std::vector<std::uint32_t>().swap(graph.self_function);
    std::vector<std::uint64_t>().swap(graph.self_cost);
  }
  for (std::size_t i = 0; i < F; ++i) {
    const index f = order[i];
    // Its slots are at a random place: fetched a few functions ahead (where they start, then
    // what they hold), the loop does not wait for each in turn.
    if (i + 16 < F) prefetch(&slots.first[order[i + 16]]);
    if (i + 8 < F) {
      prefetch(slots.callee.data() + slots.first[order[i + 8]]);  // at most one past the end
      prefetch(slots.cost.data() + slots.first[order[i + 8]] * E);
    }
    for (index s = slots.first[f]; s < slots.first[f + 1]; ++s)
      if (!slots.cut[s]) {
        out.edge_callee.push_back(slots.callee[s]);
        out.edge_cost.insert(out.edge_cost.end(), slots.cost.begin() + static_cast<std::ptrdiff_t>(s * E),
                             slots.cost.begin() + static_cast<std::ptrdiff_t>((s + 1) * E));
      }
    out.edge_first[i + 1] = static_cast<index>(out.edge_callee.size());
  }
  slots = {};
  return out;
}

// Phase 4's arithmetic: an amount split among contexts in proportion to their weights,
// exactly in integers: floors, then one more to the largest remainders (ties: list order).
// Keeps its buffers from one split to the next.
class proportional_split {
 public:
  // The shares of `amount` for k contexts whose weights are weights[c * stride + at] and sum
  // to sum > 0. A view into the splitter, valid until the next call.
  const std::vector<std::uint64_t>& operator()(std::uint64_t amount, const std::uint64_t* weights, std::size_t k,
                                               std::size_t stride, std::size_t at, std::uint64_t sum) {
    if (k == 1) {  // its weight is the sum: all of it, no division
      share_.assign(1, amount);
      return share_;
    }
    share_.assign(k, 0);
    remainder_.assign(k, 0);
    std::uint64_t given = 0;
    for (std::size_t c = 0; c < k; ++c) {
      mul_div_result d = mul_div(amount, weights[c * stride + at], sum);
      share_[c] = d.q;
      remainder_[c] = d.r;
      given += d.q;
    }
    std::uint64_t left = amount - given;  // < k
    if (left == 0) return share_;
    for (std::size_t c = 0; c < k; ++c) share_[c] += left / k;  // none: left < k
    left %= k;
    rank_.resize(k);
    for (std::size_t c = 0; c < k; ++c) rank_[c] = c;
    auto larger = [&](std::size_t a, std::size_t b) {
      return remainder_[a] != remainder_[b] ? remainder_[a] > remainder_[b] : a < b;
    };
    auto cut_at = rank_.begin() + static_cast<std::ptrdiff_t>(left);
    std::nth_element(rank_.begin(), cut_at, rank_.end(), larger);
    for (auto it = rank_.begin(); it != cut_at; ++it) ++share_[*it];
    return share_;
  }

 private:
  std::vector<std::uint64_t> share_, remainder_;
  std::vector<std::size_t> rank_;
};

}  // namespace detail

/// Unfolds a call graph with costs into a calling context tree:
///
/// 1. a caller -> callee pair given several times is one edge, its costs added;
/// 2. cycles are cut: a depth-first search from the functions nobody calls, then from any
///    left, in function order, each function's edges in the order given; an edge to a
///    function on the search path (recursion, f -> f included) is cut, its cost dropped;
/// 3. in a topological order of what is left, each function gets its contexts: under the
///    root if no kept edge calls it, or if its callers gave it no cost (its weight then its
///    self cost plus its out-edges' costs); under each context of a caller the edge's cost
///    split as below, where that share is not 0;
/// 4. the proportional split: a function's self cost and each out-edge's cost are shared
///    among its contexts in proportion to the contexts' weights (the cost that flowed into
///    each, per event; an event no context has weight in splits by the first that has one;
///    all weights 0: all to the first context), exactly in integers: floors, then one more to
///    the largest remainders (ties: the earlier context). A function of one context takes
///    every cost whole.
///
/// A context's cost is then its share of its function's self cost: per event, the contexts'
/// costs add up to the self costs exactly (no cost is made or lost; an edge cost only routes
/// it). Weights are capped at 2^53; over 2^11 contexts of one function whose weights
/// overflow 64 bits split by weights shifted 32 bits right.
///
/// Throws cost_overflow for a repeated edge or a function's self cost summing above 2^53,
/// capacity_error for more than options.max_contexts contexts. O(functions + edges + self
/// parts + contexts x (events + log contexts of a function)); no recursion.
///
///     ccrc::cost_call_graph g{.functions = 3, .events = 1,
///         .caller = {0, 1}, .callee = {1, 2}, .edge_cost = {10, 4},
///         .self_function = {0, 1, 2}, .self_cost = {1, 6, 4}};
///     ccrc::unfolded_call_graph t = ccrc::unfold_call_graph(std::move(g));
///     // contexts 0 -> 1 -> 2, self costs 1, 6, 4
[[nodiscard]] inline unfolded_call_graph unfold_call_graph(cost_call_graph graph,
                                                           const unfold_call_graph_options& options = {}) {
  const std::size_t E = graph.events, F = graph.functions;
  detail::caller_slots slots = detail::slots_by_caller(graph);
  const std::vector<detail::caller_slots::index> order = detail::cut_cycles(slots, F);
  const std::vector<bool> called = detail::called_functions(slots, F);  // by an edge the search kept
  const detail::costs_in_order in_order = detail::gather_in_order(graph, std::move(slots), order);

  // Phase 4, the unfolding. The tree as columns; each context's cost per event: its weight
  // (the share of the cost flowing into it) until its function is unfolded, then its self
  // cost; each function's contexts linked, head[f], then next[node].
  constexpr node_id no_node = ~node_id{0};
  unfolded_call_graph out;
  std::vector<node_id>& parents = out.parent;
  std::vector<std::uint32_t>& functions = out.function;
  std::vector<std::uint64_t>& cost = out.cost;
  parents.assign(1, null_node);
  functions.assign(1, unfolded_call_graph::no_function);
  cost.assign(E, 0);
  std::vector<node_id> next{no_node}, head(F, no_node);
  auto add_context = [&](node_id parent, std::size_t f, const std::uint64_t* weights) {
    if (parents.size() >= options.max_contexts + 1)
      throw capacity_error("the call graph unfolds into more than " + std::to_string(options.max_contexts) +
                           " calling contexts");
    const auto n = static_cast<node_id>(parents.size());
    parents.push_back(parent);
    functions.push_back(static_cast<std::uint32_t>(f));
    for (std::size_t e = 0; e < E; ++e) cost.push_back(std::min(weights[e], detail::max_exact_cost));
    next.push_back(head[f]);
    head[f] = n;
  };
  const std::vector<std::uint64_t>& self_cost = in_order.self_cost;
  const std::vector<std::uint64_t>& edge_cost = in_order.edge_cost;
  auto any_cost = [E](const std::uint64_t* c) { return std::any_of(c, c + E, [](std::uint64_t v) { return v != 0; }); };
  // The whole cost of the i-th function of the order: its self cost and its edges' costs.
  auto total_of = [&](std::size_t i, std::vector<std::uint64_t>& t) {
    t.assign(self_cost.begin() + static_cast<std::ptrdiff_t>(i * E), self_cost.begin() + static_cast<std::ptrdiff_t>((i + 1) * E));
    for (std::size_t s = in_order.edge_first[i]; s < in_order.edge_first[i + 1]; ++s)
      for (std::size_t e = 0; e < E; ++e) {
        std::uint64_t v = edge_cost[s * E + e];
        t[e] = t[e] > ~std::uint64_t{0} - v ? ~std::uint64_t{0} : t[e] + v;
      }
    return any_cost(t.data());
  };

  std::vector<std::uint64_t> total(E), weights, amounts, sums(E);
  std::vector<node_id> contexts;
  detail::proportional_split split;
  for (std::size_t i = 0; i < F; ++i) {
    const std::size_t f = order[i];
    if (!called[f] || head[f] == no_node) {
      // A root (no kept caller), or a function its callers gave no cost: under the root,
      // with its whole cost as weight.
      if (!total_of(i, total)) continue;
      add_context(root_node, f, total.data());
    }
    if (const node_id only = head[f]; next[only] == no_node) {
      // One context (in a call tree, every function): it takes every cost whole, as the
      // splits below would give it, without them.
      std::copy_n(self_cost.begin() + static_cast<std::ptrdiff_t>(i * E), E, cost.begin() + static_cast<std::ptrdiff_t>(only * E));
      for (std::size_t s = in_order.edge_first[i]; s < in_order.edge_first[i + 1]; ++s)
        if (const std::uint64_t* w = &edge_cost[s * E]; any_cost(w)) add_context(only, in_order.edge_callee[s], w);
      continue;
    }
    contexts.clear();
    for (node_id n = head[f]; n != no_node; n = next[n]) contexts.push_back(n);
    std::reverse(contexts.begin(), contexts.end());  // creation order
    std::size_t k = contexts.size();
    weights.resize(k * E);
    for (std::size_t e = 0; e < E; ++e) {
      bool overflow = false;
      sums[e] = 0;
      for (std::size_t c = 0; c < k; ++c) {
        std::uint64_t w = cost[contexts[c] * E + e];  // <= 2^53
        weights[c * E + e] = w;
        overflow = overflow || sums[e] > ~std::uint64_t{0} - w;
        sums[e] += w;
        cost[contexts[c] * E + e] = 0;
      }
      if (overflow) {  // over 2^11 contexts of weight near 2^53: coarser weights, same split rule
        sums[e] = 0;
        for (std::size_t c = 0; c < k; ++c) sums[e] += weights[c * E + e] >>= 32;
      }
    }
    // An event no context carries weight in splits by the first event one does.
    std::size_t fallback = 0;
    while (fallback < E && sums[fallback] == 0) ++fallback;
    if (fallback == E) {  // every weight zero: all to the first context
      for (std::size_t e = 0; e < E; ++e) weights[e] = sums[e] = 1;
      fallback = 0;
    }
    auto share_of = [&](std::uint64_t amount, std::size_t e) -> const std::vector<std::uint64_t>& {
      const std::size_t by = sums[e] != 0 ? e : fallback;
      return split(amount, weights.data(), k, E, by, sums[by]);
    };
    // Self cost.
    for (std::size_t e = 0; e < E; ++e) {
      std::uint64_t amount = self_cost[i * E + e];
      if (amount == 0) continue;
      const std::vector<std::uint64_t>& share = share_of(amount, e);
      for (std::size_t c = 0; c < k; ++c) cost[contexts[c] * E + e] = share[c];
    }
    // Each kept call edge: the callee's contexts under each of f's, weighted by their share.
    for (std::size_t s = in_order.edge_first[i]; s < in_order.edge_first[i + 1]; ++s) {
      amounts.assign(k * E, 0);
      for (std::size_t e = 0; e < E; ++e) {
        std::uint64_t amount = edge_cost[s * E + e];
        if (amount == 0) continue;
        const std::vector<std::uint64_t>& share = share_of(amount, e);
        for (std::size_t c = 0; c < k; ++c) amounts[c * E + e] = share[c];
      }
      for (std::size_t c = 0; c < k; ++c) {
        const std::uint64_t* w = &amounts[c * E];
        if (any_cost(w)) add_context(contexts[c], in_order.edge_callee[s], w);
      }
    }
  }
  return out;
}

}  // namespace ccrc
