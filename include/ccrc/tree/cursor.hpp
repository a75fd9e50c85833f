// ccrc - building a CCT online from method entry and exit events.
#pragma once

#include <ccrc/concepts.hpp>
#include <ccrc/config.hpp>
#include <ccrc/ids.hpp>
#include <ccrc/tree/metric.hpp>

#include <cstdint>
#include <type_traits>
#include <utility>

namespace ccrc {

/// The current calling context of one thread, moved by enter(frame) and exit() as a profiler
/// sees method entries and exits. Once a context exists, enter() is a child lookup (the
/// newest child first, then at most 8 siblings or one hash probe): no allocation, and nothing
/// ever throws. (On a tree shrunk with shrink_to_fit, a lookup among more than 8 children
/// scans them until a new context brings the child index back: call build_child_index()
/// on such a tree before profiling into it again.)
///
/// If the tree cannot grow (out of memory, or 2^32-1 nodes), enter() stays on the current
/// node and counts the lost level: the metrics of the lost contexts land on their deepest
/// recorded caller, so inclusive totals stay right, and truncated() tells how often it
/// happened. exit() at the root (events that began before profiling did) is ignored and
/// counted by unbalanced_exits().
///
///     ccrc::cct<ccrc::metric<"calls">> t;
///     ccrc::cursor c(t);
///     c.enter(t.intern("main"));
///     c.add<"calls">(1);
///     c.exit();
template <context_tree Tree>
class cursor {
 public:
  explicit cursor(Tree& tree, node_id start = root_node) noexcept : tree_(&tree), node_(start) {}

  /// Enters the callee `f` of the current context.
  void enter(frame_id f) noexcept {
    if (enter_existing(f)) return;
    node_id c = tree_->try_find_or_add_child(node_, f);
    if (c != null_node) {
      node_ = c;
      return;
    }
    ++lost_;
    ++truncated_;
  }

  /// enter(f) when that allocates nothing: the callee's context exists already (or levels are
  /// being lost). Otherwise false, and nothing changes: enter(f) would create the context. A
  /// profiler that must not allocate on its hot path (where a memory allocator it profiles
  /// could call back into it) calls enter(f) only then. O(1), never allocates.
  [[nodiscard]] bool enter_existing(frame_id f) noexcept {
    if (lost_ != 0) {
      ++lost_;
      ++truncated_;
      return true;
    }
    node_id c = tree_->find_child(node_, f);
    if (c == null_node) return false;
    node_ = c;
    return true;
  }

  /// Enters `child`, a callee's context the caller knows already (a profiler that keeps the
  /// context each call site led to last): enter() without the lookup. Precondition: `child` is
  /// a child of node(), unless levels are being lost (then it counts as one more). O(1).
  ///
  ///     if (cached.parent == c.node()) c.enter_child(cached.child);
  ///     else c.enter(f);
  void enter_child(node_id child) noexcept {
    if (lost_ != 0) {
      ++lost_;
      ++truncated_;
      return;
    }
    CCRC_ASSERT(tree_->tree().parent(child) == node_, "ccrc: enter_child of a node that is not a child of the current one");
    node_ = child;
  }

  /// Returns to the caller of the current context.
  void exit() noexcept {
    if (lost_ != 0) {
      --lost_;
    } else if (node_ == root_node) {
      ++unbalanced_exits_;
    } else {
      node_ = tree_->tree().parent(node_);
    }
  }

  /// exit() to `caller`, the context the current one returns to, which the caller knows (a
  /// profiler's own stack of the calls open): exit() without the lookup of the parent.
  /// Precondition: `caller` is node()'s parent (ignored while levels are lost, or at the root).
  /// O(1).
  void exit_to(node_id caller) noexcept {
    if (lost_ != 0) {
      --lost_;
    } else if (node_ == root_node) {
      ++unbalanced_exits_;
    } else {
      CCRC_ASSERT(tree_->tree().parent(node_) == caller, "ccrc: exit_to a node that is not the current one's parent");
      node_ = caller;
    }
  }

  /// Adds v to the metric `Name` of the current context (for a ccrc::cct).
  template <fixed_string Name, class T = Tree>  // T: looked up only when add is used
  void add(std::remove_cvref_t<decltype(std::declval<T&>().template get<Name>(node_id{}))> v) noexcept {
    tree_->template get<Name>(node_) += v;
  }

  /// The current context (its deepest recorded caller while levels are lost).
  [[nodiscard]] node_id node() const noexcept { return node_; }
  [[nodiscard]] Tree& tree() const noexcept { return *tree_; }
  /// Number of enter() calls whose context was not recorded.
  [[nodiscard]] std::uint64_t truncated() const noexcept { return truncated_; }
  /// Number of exit() calls ignored at the root.
  [[nodiscard]] std::uint64_t unbalanced_exits() const noexcept { return unbalanced_exits_; }

 private:
  Tree* tree_;
  node_id node_;
  std::uint64_t lost_ = 0;
  std::uint64_t truncated_ = 0;
  std::uint64_t unbalanced_exits_ = 0;
};

}  // namespace ccrc
