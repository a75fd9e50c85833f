// ccrc - many child lookups in a call tree that may have released its child index.
#pragma once

#include <ccrc/tree/call_tree.hpp>
#include <ccrc/tree/child_index.hpp>
#include <ccrc/ids.hpp>

namespace ccrc {

/// find_child at O(1) expected on a const call_tree, whether or not the tree holds its child
/// index: for an algorithm that looks up many children of a tree it may not change (the
/// matching of a diff, an intersection), where find_child on a tree without its index (see
/// call_tree::shrink_to_fit) scans the children of parents with over 8 of them. It borrows the
/// tree's index when there is one; otherwise it builds its own, O(n) (a walk of every child
/// list), 8 to 16 bytes per child of such a parent. The tree must outlive it, unchanged.
///
///     ccrc::child_lookup children(tree);  // tree: const ccrc::call_tree&, shrunk or not
///     ccrc::node_id c = children.find(parent, frame);  // == tree.find_child(parent, frame)
class child_lookup {
 public:
  explicit child_lookup(const call_tree& t) : tree_(&t) {
    if (!t.has_child_index()) t.index_wide_children(own_);
  }

  /// tree.find_child(parent, f), O(1) expected.
  [[nodiscard]] node_id find(node_id parent, frame_id f) const noexcept {
    return tree_->find_child_with(tree_->has_child_index() ? tree_->index_ : own_, parent, f);
  }

  /// Heap bytes of its own index (0 when it borrows the tree's).
  [[nodiscard]] std::size_t memory_bytes() const noexcept { return own_.memory_bytes(); }

 private:
  const call_tree* tree_;
  detail::child_index own_;
};

}  // namespace ccrc
