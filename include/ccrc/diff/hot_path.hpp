// ccrc - the delta hot path: where a blueprint starts, following the largest variation.
#pragma once

#include <ccrc/diff/diff.hpp>

#include <cmath>
#include <vector>

namespace ccrc {

/// Rizel's delta hot path: from diff node `from` (default: the root), repeatedly the child
/// with the largest |H| (ties: the larger W, then the smaller diff node id), down to a leaf of
/// the diff tree. Returns the nodes below `from`, outermost first (empty if `from` is a leaf).
/// It is what a blueprint shows first. O(nodes on the path and their children).
///
///     auto path = ccrc::delta_hot_path(d);
///     // XML example: main, build(File), build(URL), build(InputSource), parse_proxy, new_method
[[nodiscard]] inline std::vector<node_id> delta_hot_path(const cct_diff& d, node_id from = root_node) {
  const call_tree& t = d.tree();
  std::vector<node_id> path;
  for (node_id n = from; t.has_children(n);) {
    node_id best = null_node;
    for (node_id c : t.children(n)) {
      if (best == null_node) {
        best = c;
        continue;
      }
      double hc = std::abs(d.height[c]), hb = std::abs(d.height[best]);
      if (hc > hb || (hc == hb && (d.width[c] > d.width[best] || (d.width[c] == d.width[best] && c < best))))
        best = c;
    }
    path.push_back(best);
    n = best;
  }
  return path;
}

}  // namespace ccrc
