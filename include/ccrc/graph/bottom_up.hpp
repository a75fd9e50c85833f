// ccrc - the bottom-up (inverted) tree grown on demand: each function with the cost spent in it,
// under it the callers that cost came through, under those theirs, without building the
// inverted tree (whose size is the sum of the depths of the contexts it inverts).
#pragma once

#include <ccrc/concepts.hpp>
#include <ccrc/config.hpp>
#include <ccrc/tree/call_tree.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <ranges>
#include <vector>

namespace ccrc {

/// A node of the bottom-up tree: a chain of functions from one where cost is spent (the
/// chain's first, a root of the bottom-up tree) out through its callers (the chain's last is
/// `function`), standing for the calling contexts of the first function whose callers, read
/// outwards, begin with the rest of the chain. For each such context: the context itself (whose
/// self value the node adds up) and its ancestor at the chain's last function.
struct bottom_up_node {
  method_id function = root_method;  ///< the chain's last function
  std::uint32_t depth = 0;           ///< callers in the chain: 0 for a root
  std::vector<node_id> contexts;     ///< contexts of the chain's first function, ascending
  std::vector<node_id> at;           ///< at[i]: contexts[i]'s ancestor that ends the chain

  /// The node's value in a self column: its contexts' self values, summed. O(contexts).
  template <metric_column C>
  [[nodiscard]] double value(const C& self) const {
    const auto* values = std::ranges::data(self);
    double sum = 0;
    for (node_id n : contexts) sum += static_cast<double>(values[n]);
    return sum;
  }

  /// Whether the chain goes on: some context's ancestor has a caller other than the root. O(contexts).
  [[nodiscard]] bool has_callers(const call_tree& t) const noexcept {
    return std::any_of(at.begin(), at.end(), [&](node_id a) { return t.parent(a) != root_node; });
  }
};

/// The roots of the bottom-up tree: one node per function with calling contexts, holding all
/// of them (a function called recursively counts each context once: self values are
/// disjoint), in method id order. O(nodes + methods), 8 bytes per context.
///
///     auto roots = ccrc::bottom_up_roots(p.tree());
///     // Figure 1, bytecodes: i's value is 660, its callers (bottom_up_callers) h alone
[[nodiscard]] inline std::vector<bottom_up_node> bottom_up_roots(const call_tree& t) {
  std::vector<std::uint32_t> count(t.symbols().method_count(), 0);
  for (node_id n = 1; n < t.size(); ++n) ++count[t.method(n)];
  std::vector<bottom_up_node> out;
  std::vector<std::uint32_t> slot(count.size(), 0);
  for (method_id m{1}; m < count.size(); ++m) {
    if (count[m] == 0) continue;
    slot[m] = static_cast<std::uint32_t>(out.size());
    bottom_up_node& r = out.emplace_back();
    r.function = m;
    r.contexts.reserve(count[m]);
  }
  for (node_id n = 1; n < t.size(); ++n) out[slot[t.method(n)]].contexts.push_back(n);
  for (bottom_up_node& r : out) r.at = r.contexts;
  return out;
}

/// The callers of node `n`: one child per function that calls the chain's last one, holding
/// the contexts whose chain continues through it (a context whose ancestor is a top-level
/// frame ends at `n`), in method id order; contexts stay ascending. O(k log k) for the k
/// contexts of n.
[[nodiscard]] inline std::vector<bottom_up_node> bottom_up_callers(const call_tree& t, const bottom_up_node& n) {
  CCRC_ASSERT(n.contexts.size() == n.at.size(), "ccrc: a bottom-up node has an ancestor per context");
  std::vector<std::uint32_t> order;  // the contexts that go on, by their caller's method
  order.reserve(n.at.size());
  for (std::uint32_t i = 0; i < n.at.size(); ++i)
    if (t.parent(n.at[i]) != root_node) order.push_back(i);
  auto caller = [&](std::uint32_t i) { return t.method(t.parent(n.at[i])); };
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return caller(a) < caller(b); });
  std::vector<bottom_up_node> out;
  for (std::size_t k = 0; k < order.size(); ++k) {
    method_id m = caller(order[k]);
    if (out.empty() || out.back().function != m) {
      bottom_up_node& c = out.emplace_back();
      c.function = m;
      c.depth = n.depth + 1;
    }
    out.back().contexts.push_back(n.contexts[order[k]]);
    out.back().at.push_back(t.parent(n.at[order[k]]));
  }
  return out;
}

}  // namespace ccrc
