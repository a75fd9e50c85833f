// ccrc - size statistics of a call tree or a view: nodes, maximum depth, distinct methods.
#pragma once

#include <ccrc/tree/view.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ccrc {

/// The statistics of the papers' Table I.
struct tree_statistics {
  std::size_t nodes = 0;        ///< calling contexts (the synthetic root is not one)
  std::uint32_t max_depth = 0;  ///< a top-level frame has depth 1
  std::size_t methods = 0;      ///< distinct methods among the counted nodes
};

/// Statistics of the calling contexts of `v`. The synthetic root (node 0) is not counted and
/// has depth 0; a view rooted at another node counts that node, at depth 1. O(nodes of v).
///
///     auto s = ccrc::statistics(ccrc::tree_view(p.tree()));  // Figure 1: 18 nodes, depth 6, 5 methods
[[nodiscard]] inline tree_statistics statistics(const tree_view& v) {
  const call_tree& t = v.tree();
  std::vector<char> seen(t.symbols().method_count(), 0);
  tree_statistics s;
  std::uint32_t offset = v.root() == root_node ? 0 : 1;
  auto count = [&](node_id n, std::uint32_t level) {
    if (n == root_node) return;
    ++s.nodes;
    s.max_depth = std::max(s.max_depth, level + offset);
    char& m = seen[t.method(n)];
    s.methods += m == 0;
    m = 1;
  };
  if (v.root() == root_node && v.max_depth() == unlimited_depth) {
    // The whole tree: a sweep over the ids beats walking the links.
    std::vector<std::uint32_t> depth(t.size());
    for (node_id n = 1; n < t.size(); ++n) count(n, depth[n] = depth[t.parent(n)] + 1);
  } else {
    preorder(v, count);
  }
  return s;
}

/// statistics of the whole tree.
[[nodiscard]] inline tree_statistics statistics(const call_tree& t) { return statistics(tree_view(t)); }

}  // namespace ccrc
