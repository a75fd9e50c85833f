// ccrc - the contexts of a diff ranked by the variation of their share.
#pragma once

#include <ccrc/diff/diff.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

namespace ccrc {

/// The contexts of a diff (diff nodes, the root excluded) by decreasing |H|, ties by diff
/// node id; at most `limit` of them. With the delta hot path, the starting points a user is
/// shown: the tallest boxes of the blueprint. O(n log limit).
///
///     auto top = ccrc::rank_by_height(d, 10);
///     // XML example: new_method (H = +0.367), then parse (H = -0.323)
[[nodiscard]] inline std::vector<node_id> rank_by_height(const cct_diff& d,
                                                         std::size_t limit = std::numeric_limits<std::size_t>::max()) {
  std::vector<node_id> nodes(d.tree().size() > 0 ? d.tree().size() - 1 : 0);
  for (std::size_t i = 0; i < nodes.size(); ++i) nodes[i] = static_cast<node_id>(i + 1);
  auto taller = [&](node_id a, node_id b) {
    double ha = std::abs(d.height[a]), hb = std::abs(d.height[b]);
    return ha != hb ? ha > hb : a < b;
  };
  if (limit < nodes.size()) {
    std::partial_sort(nodes.begin(), nodes.begin() + static_cast<std::ptrdiff_t>(limit), nodes.end(), taller);
    nodes.resize(limit);
  } else {
    std::sort(nodes.begin(), nodes.end(), taller);
  }
  return nodes;
}

}  // namespace ccrc
