// ccrc - the nodes of a tree in depth-first preorder: every subtree a range of positions.
#pragma once

#include <ccrc/error.hpp>
#include <ccrc/tree/call_tree.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace ccrc {

/// The nodes of a tree in depth-first preorder (children in id order, as t.children lists
/// them), so that the subtree of n is the range of positions [position(n), end(n)): "is m
/// below n" and "does any of these contexts lie below n" become comparisons and counts instead
/// of walks up the tree. Built once per tree, in two sweeps over the ids (parents come before
/// their children, so neither sweep needs a stack); 12 bytes a node.
///
///     ccrc::preorder_index order(p.tree());
///     bool below = order.contains(n, m);       // m is n or one of its descendants
///     for (ccrc::node_id d : order.subtree(n)) ...;  // n, then every descendant, depth first
class preorder_index {
 public:
  explicit preorder_index(const call_tree& t) : range_(t.size(), {0, 1}), order_(t.size()) {
    // Subtree sizes (in end), children before parents; then each node takes the next free
    // position of its parent's range, its elder siblings' subtrees before it.
    for (node_id n = static_cast<node_id>(t.size()); n-- > 1;) range_[t.parent(n)].end += range_[n].end;
    std::vector<std::uint32_t> next(t.size(), 1);  // the next free position in n's range
    for (node_id n = 1; n < t.size(); ++n) {
      node_id p = t.parent(n);
      range_[n].position = next[p];
      next[p] += range_[n].end;
      next[n] = range_[n].position + 1;
    }
    for (node_id n = 0; n < t.size(); ++n) {
      range_[n].end += range_[n].position;
      order_[range_[n].position] = n;
    }
  }

  /// Number of nodes: the size of the tree indexed.
  [[nodiscard]] std::size_t size() const noexcept { return order_.size(); }
  /// n's position in preorder: 0 for the root.
  [[nodiscard]] std::uint32_t position(node_id n) const noexcept { return range_[n].position; }
  /// One past the last position of n's subtree: n and its descendants are the positions
  /// [position(n), end(n)).
  [[nodiscard]] std::uint32_t end(node_id n) const noexcept { return range_[n].end; }
  /// The node at a position.
  [[nodiscard]] node_id at(std::uint32_t position) const noexcept { return order_[position]; }
  /// Whether m is n or a descendant of n. O(1).
  [[nodiscard]] bool contains(node_id n, node_id m) const noexcept {
    return range_[n].position <= range_[m].position && range_[m].position < range_[n].end;
  }
  /// n and its descendants, in preorder.
  [[nodiscard]] std::span<const node_id> subtree(node_id n) const noexcept {
    CCRC_ASSERT(n < size(), "ccrc: not a node of the indexed tree");
    return std::span(order_).subspan(range_[n].position, range_[n].end - range_[n].position);
  }

 private:
  // A node's range side by side: whoever reads one end reads the other (one cache miss).
  struct range {
    std::uint32_t position, end;
  };
  std::vector<range> range_;    // by node
  std::vector<node_id> order_;  // by position
};

}  // namespace ccrc
