// ccrc - subtree selection with a history, as the papers' ring chart viewer navigates.
#pragma once

#include <ccrc/config.hpp>
#include <ccrc/tree/view.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace ccrc {

/// The views a user has navigated through, the current one last (001, §4.1): clicking a
/// segment selects its node as the new center and keeps the previous view; clicking the
/// center goes back to the previous view; going back at the overall view does nothing. The
/// depth limit is one setting of the viewer (a field, the mouse wheel), kept across moves.
/// Views are two ids: aggregated metrics stay those of the complete tree. The tree must
/// outlive the history. Memory: one id per step.
///
///     ccrc::view_history h(t);  // the whole tree in the center
///     h.select(f);              // f in the center
///     h.select(f);              // the center again: back to the whole tree
///     h.back();                 // at the overall view: nothing happens
class view_history {
 public:
  /// A history at `overall`, the view going back ends at.
  explicit view_history(const tree_view& overall)
      : tree_(&overall.tree()), roots_{overall.root()}, max_depth_(overall.max_depth()) {}
  /// A history at the whole tree.
  explicit view_history(const call_tree& t) : view_history(tree_view(t)) {}

  [[nodiscard]] const call_tree& tree() const noexcept { return *tree_; }
  /// The view shown now.
  [[nodiscard]] tree_view current() const noexcept { return tree_view(*tree_, center(), max_depth_); }
  /// The root of the current view: the node in the center of the ring chart.
  [[nodiscard]] node_id center() const noexcept { return roots_.back(); }
  /// How many back() calls lead to the overall view.
  [[nodiscard]] std::size_t steps() const noexcept { return roots_.size() - 1; }
  /// The centers from the overall view's root to the current one.
  [[nodiscard]] std::span<const node_id> centers() const noexcept { return roots_; }

  /// Selects node n (any node of the tree, a search result say) as the new center, keeping
  /// the current view to go back to; selecting the current center goes back instead.
  /// Returns the view now shown. O(1) amortised.
  tree_view select(node_id n) {
    CCRC_ASSERT(n < tree_->size(), "ccrc: selected node is not a node of the tree");
    if (n == center())
      back();
    else
      roots_.push_back(n);
    return current();
  }

  /// Returns to the previous view; at the overall view does nothing and returns false.
  bool back() noexcept {
    if (roots_.size() == 1) return false;
    roots_.pop_back();
    return true;
  }

  /// Shows `levels` levels below the center, in this view and the ones going back reaches.
  void limit_depth(std::uint32_t levels) noexcept { max_depth_ = levels; }
  [[nodiscard]] std::uint32_t max_depth() const noexcept { return max_depth_; }

  /// Follows a transform of the tree (a ccrc::transformed's tree and node_map, from this
  /// history's tree): every center moves to the node its context went to, or, if the
  /// transform dropped it, to where its nearest kept caller went (the root if none); centers
  /// that became equal to the one before them are merged. O(steps x depth).
  void follow(const call_tree& to, std::span<const node_id> node_map) {
    CCRC_ASSERT(node_map.size() == tree_->size(), "ccrc: the node map must be of this history's tree");
    std::vector<node_id> moved;
    for (node_id n : roots_) {
      while (n != null_node && node_map[n] == null_node) n = tree_->parent(n);
      node_id m = n == null_node ? root_node : node_map[n];
      if (moved.empty() || moved.back() != m) moved.push_back(m);
    }
    tree_ = &to;
    roots_ = std::move(moved);
  }

 private:
  const call_tree* tree_;
  std::vector<node_id> roots_;  // never empty: roots_[0] is the overall view's root
  std::uint32_t max_depth_;
};

}  // namespace ccrc
