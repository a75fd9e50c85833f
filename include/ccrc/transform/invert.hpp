// ccrc - the inverted (bottom-up) tree: call stacks read from the innermost frame outwards.
#pragma once

#include <ccrc/concepts.hpp>
#include <ccrc/algorithm/depth.hpp>
#include <ccrc/transform/transformed.hpp>
#include <ccrc/tree/view.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace ccrc {

/// The inverted tree, or "bottom-up" view: the top-level contexts are the methods where cost
/// was spent, their children the callers, and so on outwards. The stack of every input node
/// that has a non-zero metric (or is a leaf) is added reversed, and the node's metrics go to
/// the end of that reversed stack, so the aggregated value of an inverted context
/// (f, g, h...) is the self cost spent in f when called from g, called from h...: ag of a
/// top-level f is f's total self cost, its flat profile entry. Totals are kept (the root's
/// metrics stay on the root).
///
/// `max_depth` keeps only that many levels of callers (a node's metrics then go to the end of
/// its cut stack; aggregated values above the cut are unchanged): bottom-up views are read a
/// few levels deep. node_map is null_node for the nodes whose stacks were not added (inner
/// nodes with all metrics zero: they carry nothing).
/// O(sum over the added nodes of min(depth, max_depth)), expected: the inverted tree of a
/// chain of n distinct methods, each with a self value, has n(n+1)/2 nodes, so this is linear
/// in the output, not in the input. Iterative.
///
///     auto up = ccrc::invert(p);
///     // Figure 1: top-level i has ag(bytecodes) 660, its caller h below it 660, h;g 200, ...
template <buildable_tree Tree>
[[nodiscard]] transformed<Tree> invert(const Tree& in, std::uint32_t max_depth = unlimited_depth) {
  const call_tree& t = in.tree();
  std::vector<char> added(t.size(), 0);  // the nodes whose stacks are added
  for (node_id n = 1; n < t.size(); ++n) added[n] = !t.has_children(n);
  in.for_each_column([&](auto, auto column) {
    for (node_id n = 1; n < t.size(); ++n) added[n] |= column[n] != 0;
  });

  transformed<Tree> r{detail::empty_like(in), std::vector<node_id>(t.size(), null_node)};
  // The output has at most one node per step of the walks below: reserve that, within reason
  // (a sampling profile shares most of its inverted paths), to spare the copies of growth.
  std::size_t steps = 1;
  {
    std::vector<std::uint32_t> depth = depths(t);
    for (node_id n = 1; n < t.size(); ++n) steps += added[n] ? std::min(depth[n], max_depth) : 0;
  }
  r.output.reserve(std::min(steps, 4 * t.size()));
  r.node_map[root_node] = root_node;
  for (node_id n = 1; n < t.size(); ++n) {
    if (!added[n]) continue;
    node_id o = root_node;
    std::uint32_t level = 0;
    for (node_id a = n; a != root_node && level < max_depth; a = t.parent(a), ++level)
      o = r.output.find_or_add_child(o, t.frame(a));
    r.node_map[n] = o;
  }
  detail::add_through(r.output, in, r.node_map);
  return r;
}

}  // namespace ccrc
