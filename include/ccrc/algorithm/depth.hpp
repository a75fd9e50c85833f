// ccrc - depths of the nodes of a call tree.
#pragma once

#include <ccrc/tree/call_tree.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace ccrc {

/// The depth of every node (edges from the root: a top-level frame has depth 1). One forward
/// sweep, parents before children: O(n), no recursion.
[[nodiscard]] inline std::vector<std::uint32_t> depths(const call_tree& t) {
  std::vector<std::uint32_t> d(t.size());
  const node_id* parent = t.parents().data();
  for (std::size_t n = 1; n < d.size(); ++n) d[n] = d[parent[n]] + 1;
  return d;
}

/// The height of every node: the number of edges on the longest path from it down to a leaf
/// (a leaf has height 0, the root the tree's maximum depth). One reverse sweep, children
/// before parents: O(n), no recursion. A ring chart reads it to size its rings without
/// walking the view (see ccrc::ring_options::heights).
[[nodiscard]] inline std::vector<std::uint32_t> heights(const call_tree& t) {
  std::vector<std::uint32_t> h(t.size());
  const node_id* parent = t.parents().data();
  for (std::size_t n = h.size(); n-- > 1;) h[parent[n]] = std::max(h[parent[n]], h[n] + 1);
  return h;
}

/// The largest depth of any node (0 for a tree with only its root). O(n).
[[nodiscard]] inline std::uint32_t max_depth(const call_tree& t) {
  std::vector<std::uint32_t> d = depths(t);
  return *std::max_element(d.begin(), d.end());
}

}  // namespace ccrc
