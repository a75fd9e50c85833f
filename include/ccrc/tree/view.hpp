// ccrc - views: a subtree of a call tree, cut at a depth, without copying anything.
#pragma once

#include <ccrc/config.hpp>
#include <ccrc/tree/call_tree.hpp>

#include <concepts>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace ccrc {

/// No depth limit.
inline constexpr std::uint32_t unlimited_depth = std::numeric_limits<std::uint32_t>::max();

/// The part of a call tree an analysis or a layout looks at: the subtree of root(), showing
/// max_depth() levels below it (the root is level 0). Two ids and a pointer: copying a view
/// copies nothing of the tree, and metrics are read from the complete tree's columns (the
/// papers' rule: selecting or cutting never recomputes ag(M)). The tree must outlive it.
///
///     ccrc::tree_view v(t);                       // the whole tree
///     auto f = v.subtree(node_of_f).limit_depth(3); // f and three levels of callees
class tree_view {
 public:
  explicit tree_view(const call_tree& t, node_id root = root_node,
                     std::uint32_t max_depth = unlimited_depth) noexcept
      : tree_(&t), root_(root), max_depth_(max_depth) {
    CCRC_ASSERT(root < t.size(), "ccrc: view root is not a node of the tree");
  }

  [[nodiscard]] const call_tree& tree() const noexcept { return *tree_; }
  [[nodiscard]] node_id root() const noexcept { return root_; }
  [[nodiscard]] std::uint32_t max_depth() const noexcept { return max_depth_; }

  /// The view rooted at n (a node of this view), keeping the depth limit.
  [[nodiscard]] tree_view subtree(node_id n) const noexcept { return tree_view(*tree_, n, max_depth_); }
  /// The same root, showing `levels` levels below it.
  [[nodiscard]] tree_view limit_depth(std::uint32_t levels) const noexcept {
    return tree_view(*tree_, root_, levels);
  }

  /// Level of n below root(), or unlimited_depth if n is not in the view. O(depth of n).
  [[nodiscard]] std::uint32_t level(node_id n) const noexcept {
    std::uint32_t d = 0;
    for (; n != root_; n = tree_->parent(n), ++d)
      if (n == null_node || d >= max_depth_) return unlimited_depth;
    return d;
  }
  [[nodiscard]] bool contains(node_id n) const noexcept { return level(n) != unlimited_depth; }

 private:
  const call_tree* tree_;
  node_id root_;
  std::uint32_t max_depth_;
};

/// Visits the nodes of `v` depth-first: enter(node, level) before the node's descendants and
/// leave(node, level) after them, level 0 for v.root(); siblings in creation order. If enter
/// returns bool, false skips the node's descendants (leave is still called). Iterative and
/// allocation-free: it walks the sibling and parent links, so a chain of millions of levels
/// needs no stack. O(nodes visited).
template <std::invocable<node_id, std::uint32_t> Enter, std::invocable<node_id, std::uint32_t> Leave>
void depth_first(const tree_view& v, Enter&& enter, Leave&& leave) {
  const call_tree& t = v.tree();
  node_id n = v.root();
  std::uint32_t level = 0;
  for (;;) {
    bool descend = true;
    if constexpr (std::is_same_v<std::invoke_result_t<Enter&, node_id, std::uint32_t>, bool>)
      descend = enter(n, level);
    else
      enter(n, level);
    if (descend && level < v.max_depth() && t.has_children(n)) {
      n = t.first_child(n);
      ++level;
      continue;
    }
    for (;;) {  // leave n, then climb until a node with a next sibling, stopping at the view root
      leave(n, level);
      if (n == v.root()) return;
      node_id s = t.next_sibling(n);
      if (s != null_node) {
        n = s;
        break;
      }
      n = t.parent(n);
      --level;
    }
  }
}

/// depth_first with nothing to do on leaving: f(node, level) in pre-order (a node before its
/// descendants). If f returns bool, false skips the node's descendants.
template <std::invocable<node_id, std::uint32_t> F>
void preorder(const tree_view& v, F&& f) {
  depth_first(v, f, [](node_id, std::uint32_t) noexcept {});
}

}  // namespace ccrc
