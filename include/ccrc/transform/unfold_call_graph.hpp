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
  constexpr std::uint64_t max_exact = std::uint64_t{1} << 53;
  constexpr std::size_t none = ~std::size_t{0};
  const std::size_t E = graph.events, F = graph.functions;

  // The edges grouped by caller, in the order given (a counting sort): slot s of
  // [first[f], first[f + 1]) holds a callee of f and the cost of those calls. 32-bit indexes,
  // as the depth-first search below meets each function at a random place of these arrays,
  // and halving them keeps more in cache.
  using index = std::uint32_t;
  const std::size_t M = graph.caller.size();
  std::vector<index> first(F + 1, 0), callee(M);
  std::vector<std::uint64_t> slot_cost(M * E);
  for (const std::uint32_t c : graph.caller) ++first[c + 1];
  for (std::size_t f = 0; f < F; ++f) first[f + 1] += first[f];
  {
    std::vector<index> fill(first.begin(), first.end() - 1);
    for (std::size_t i = 0; i < M; ++i) {
      const index s = fill[graph.caller[i]]++;
      callee[s] = graph.callee[i];
      std::copy_n(graph.edge_cost.begin() + static_cast<std::ptrdiff_t>(i * E), E,
                  slot_cost.begin() + static_cast<std::ptrdiff_t>(s * E));
    }
  }
  // The graph as given is no longer needed (swapped out: assigning {} would keep the memory).
  std::vector<std::uint32_t>().swap(graph.caller);
  std::vector<std::uint32_t>().swap(graph.callee);
  std::vector<std::uint64_t>().swap(graph.edge_cost);
  // The same caller -> callee pair in several slots: one slot, the others emptied into it
  // and marked cut (never followed).
  std::vector<bool> cut(M, false);
  {
    std::vector<index> seen_by(F, static_cast<index>(none)), kept(F, 0);
    for (index f = 0; f < F; ++f)
      for (index s = first[f]; s < first[f + 1]; ++s) {
        const index g = callee[s];
        if (seen_by[g] != f) {
          seen_by[g] = f;
          kept[g] = s;
          continue;
        }
        for (std::size_t e = 0; e < E; ++e) {
          std::uint64_t& into = slot_cost[kept[g] * E + e];
          const std::uint64_t v = slot_cost[s * E + e];
          if (v > max_exact - into) throw cost_overflow(cost_overflow::no_part);
          into += v;
        }
        cut[s] = true;
      }
  }
  std::vector<bool> called(F, false);  // by an edge not cut
  for (std::size_t s = 0; s < M; ++s)
    if (!cut[s]) called[callee[s]] = true;

  // Cycles cut: an iterative depth-first search, from the functions nobody calls, then from
  // any left, in order; an edge to a function on the search path (a recursive call, f -> f
  // included) is cut. The finishing order reversed is a topological order of the rest.
  std::vector<std::uint8_t> state(F, 0);  // 0 new, 1 on the path, 2 done
  std::vector<index> order;  // finishing order
  order.reserve(F);
  std::vector<std::pair<index, index>> stack;  // function, next slot
  auto search = [&](index start) {
    state[start] = 1;
    stack.emplace_back(start, first[start]);
    while (!stack.empty()) {
      auto& [f, s] = stack.back();
      if (s == first[f + 1]) {
        state[f] = 2;
        order.push_back(f);
        stack.pop_back();
        continue;
      }
      const index at = s++;
      if (cut[at]) continue;  // a pair merged into its first slot
      const index g = callee[at];
      if (state[g] == 1) cut[at] = true;
      else if (state[g] == 0) {
        state[g] = 1;
        stack.emplace_back(g, first[g]);
      }
    }
  };
  for (index f = 0; f < F; ++f)
    if (!called[f] && state[f] == 0) search(f);
  for (index f = 0; f < F; ++f)
    if (state[f] == 0) search(f);
  std::reverse(order.begin(), order.end());
  std::fill(called.begin(), called.end(), false);  // now by an edge the search kept
  for (std::size_t s = 0; s < M; ++s)
    if (!cut[s]) called[callee[s]] = true;

  // The tree as columns; each context's cost per event: its weight (the share of the cost
  // flowing into it) until its function is unfolded, then its self cost; each function's
  // contexts linked, head[f], then next[node].
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
    for (std::size_t e = 0; e < E; ++e) cost.push_back(std::min(weights[e], max_exact));
    next.push_back(head[f]);
    head[f] = n;
  };
  // The unfolding visits the functions in topological order, and each one's self cost and
  // kept out-edges: gathered into that order first, in plain loops whose cache misses overlap,
  // rather than met one at a time between the unfolding's dependent steps.
  std::vector<std::uint64_t> self_cost(F * E, 0), kept_cost;
  std::vector<index> kept_first(F + 1, 0), kept_callee;
  {
    std::vector<index> position(F);  // in `order`
    for (index i = 0; i < F; ++i) position[order[i]] = i;
    for (std::size_t b = 0; b < graph.self_function.size(); ++b)
      for (std::size_t e = 0; e < E; ++e) {
        std::uint64_t& into = self_cost[position[graph.self_function[b]] * E + e];
        const std::uint64_t v = graph.self_cost[b * E + e];
        if (v > max_exact - into) throw cost_overflow(b);
        into += v;
      }
    std::vector<std::uint32_t>().swap(graph.self_function);
    std::vector<std::uint64_t>().swap(graph.self_cost);
  }
  for (std::size_t i = 0; i < F; ++i) {
    const index f = order[i];
    // Its slots are at a random place: fetched a few functions ahead (where they start, then
    // what they hold), the loop does not wait for each in turn.
    if (i + 16 < F) detail::prefetch(&first[order[i + 16]]);
    if (i + 8 < F) {
      detail::prefetch(callee.data() + first[order[i + 8]]);  // at most one past the end
      detail::prefetch(slot_cost.data() + first[order[i + 8]] * E);
    }
    for (index s = first[f]; s < first[f + 1]; ++s)
      if (!cut[s]) {
        kept_callee.push_back(callee[s]);
        kept_cost.insert(kept_cost.end(), slot_cost.begin() + static_cast<std::ptrdiff_t>(s * E),
                         slot_cost.begin() + static_cast<std::ptrdiff_t>((s + 1) * E));
      }
    kept_first[i + 1] = static_cast<index>(kept_callee.size());
  }
  std::vector<index>().swap(first);
  std::vector<index>().swap(callee);
  std::vector<std::uint64_t>().swap(slot_cost);
  std::vector<bool>().swap(cut);
  auto any_cost = [E](const std::uint64_t* c) { return std::any_of(c, c + E, [](std::uint64_t v) { return v != 0; }); };
  auto total_of = [&](std::size_t i, std::vector<std::uint64_t>& t) {
    t.assign(self_cost.begin() + static_cast<std::ptrdiff_t>(i * E), self_cost.begin() + static_cast<std::ptrdiff_t>((i + 1) * E));
    for (std::size_t s = kept_first[i]; s < kept_first[i + 1]; ++s)
      for (std::size_t e = 0; e < E; ++e) {
        std::uint64_t v = kept_cost[s * E + e];
        t[e] = t[e] > ~std::uint64_t{0} - v ? ~std::uint64_t{0} : t[e] + v;
      }
    return any_cost(t.data());
  };

  std::vector<std::uint64_t> total(E), weights, share, amounts, sums(E);
  std::vector<node_id> contexts;
  std::vector<std::uint64_t> remainder;
  std::vector<std::size_t> rank;
  // Splits `amount` among the contexts in proportion to weights[c * E + we] (summing to
  // sum > 0), exactly: floors, then one more to the largest remainders (ties: list order).
  auto split = [&](std::uint64_t amount, std::size_t we, std::uint64_t sum) {
    std::size_t k = contexts.size();
    if (k == 1) return share.assign(1, amount);  // its weight is the sum: all of it, no division
    share.assign(k, 0);
    remainder.assign(k, 0);
    std::uint64_t given = 0;
    for (std::size_t c = 0; c < k; ++c) {
      detail::mul_div_result d = detail::mul_div(amount, weights[c * E + we], sum);
      share[c] = d.q;
      remainder[c] = d.r;
      given += d.q;
    }
    std::uint64_t left = amount - given;  // < k
    if (left == 0) return;
    for (std::size_t c = 0; c < k; ++c) share[c] += left / k;  // none: left < k
    left %= k;
    rank.resize(k);
    for (std::size_t c = 0; c < k; ++c) rank[c] = c;
    auto larger = [&](std::size_t a, std::size_t b) { return remainder[a] != remainder[b] ? remainder[a] > remainder[b] : a < b; };
    auto cut_at = rank.begin() + static_cast<std::ptrdiff_t>(left);
    std::nth_element(rank.begin(), cut_at, rank.end(), larger);
    for (auto it = rank.begin(); it != cut_at; ++it) ++share[*it];
  };

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
      for (std::size_t s = kept_first[i]; s < kept_first[i + 1]; ++s)
        if (const std::uint64_t* w = &kept_cost[s * E]; any_cost(w)) add_context(only, kept_callee[s], w);
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
    auto which = [&](std::size_t e) { return sums[e] != 0 ? e : fallback; };
    // Self cost.
    for (std::size_t e = 0; e < E; ++e) {
      std::uint64_t amount = self_cost[i * E + e];
      if (amount == 0) continue;
      split(amount, which(e), sums[which(e)]);
      for (std::size_t c = 0; c < k; ++c) cost[contexts[c] * E + e] = share[c];
    }
    // Each kept call edge: the callee's contexts under each of f's, weighted by their share.
    for (std::size_t s = kept_first[i]; s < kept_first[i + 1]; ++s) {
      amounts.assign(k * E, 0);
      for (std::size_t e = 0; e < E; ++e) {
        std::uint64_t amount = kept_cost[s * E + e];
        if (amount == 0) continue;
        split(amount, which(e), sums[which(e)]);
        for (std::size_t c = 0; c < k; ++c) amounts[c * E + e] = share[c];
      }
      for (std::size_t c = 0; c < k; ++c) {
        const std::uint64_t* w = &amounts[c * E];
        if (any_cost(w)) add_context(contexts[c], kept_callee[s], w);
      }
    }
  }
  return out;
}

}  // namespace ccrc
