// ccrc - what ccrc::cct and ccrc::profile share: a call_tree whose metric columns grow with it.
#pragma once

#include <ccrc/tree/call_tree.hpp>

#include <algorithm>
#include <cstddef>
#include <span>
#include <string_view>
#include <utility>

namespace ccrc::detail {

// CRTP base. Derived provides reserve_columns(n) (may throw), grow_columns(n) (no throw once
// reserved: appends zeros up to n), shrink_columns() (noexcept, a request),
// columns_capacity() (the smallest column's) and columns_bytes().
template <class Derived>
class columns_base {
 public:
  /// The structure, for the algorithms: `ccrc::inclusive(t.tree(), t.column<"time">())`.
  [[nodiscard]] const call_tree& tree() const noexcept { return tree_; }

  [[nodiscard]] std::size_t size() const noexcept { return tree_.size(); }
  [[nodiscard]] const symbol_table& symbols() const noexcept { return tree_.symbols(); }
  [[nodiscard]] symbol_table& symbols() noexcept { return tree_.symbols(); }
  frame_id intern(std::string_view name) { return tree_.intern(name); }

  [[nodiscard]] node_id find_child(node_id parent, frame_id f) const noexcept {
    return tree_.find_child(parent, f);
  }

  /// call_tree::find_or_add_child; a new node starts with every metric at zero.
  node_id find_or_add_child(node_id parent, frame_id f) {
    if (derived().columns_capacity() <= size())  // doubling: amortised O(1), and reserve() holds
      derived().reserve_columns(std::max<std::size_t>(16, 2 * size()));
    node_id c = tree_.find_or_add_child(parent, f);
    derived().grow_columns(size());
    return c;
  }

  /// find_or_add_child reporting failure as null_node: for the profiling hot path.
  node_id try_find_or_add_child(node_id parent, frame_id f) noexcept {
    return detail::try_find_or_add_child(*this, parent, f);
  }

  /// The node reached from the root by `frames`, created as needed (metrics untouched).
  node_id add_path(std::span<const frame_id> frames) { return detail::add_path(*this, frames); }

  /// Reserves room for `nodes` nodes in the structure and every column.
  void reserve(std::size_t nodes) {
    tree_.reserve(nodes);
    derived().reserve_columns(nodes);
  }

  /// call_tree::shrink_to_fit, and the metric columns' spare capacity released too: a tree
  /// that is done growing keeps 16 bytes a node plus its metrics.
  void shrink_to_fit() noexcept {
    tree_.shrink_to_fit();
    derived().shrink_columns();
  }

  /// call_tree::build_child_index: the index shrink_to_fit released, back before many lookups.
  void build_child_index() { tree_.build_child_index(); }

  /// Heap bytes held: structure, symbols and metric columns.
  [[nodiscard]] std::size_t memory_bytes() const noexcept {
    return tree_.memory_bytes() + derived().columns_bytes();
  }

 protected:
  columns_base() = default;
  explicit columns_base(call_tree&& t) noexcept : tree_(std::move(t)) {}

  call_tree tree_;

 private:
  Derived& derived() noexcept { return static_cast<Derived&>(*this); }
  const Derived& derived() const noexcept { return static_cast<const Derived&>(*this); }
};

}  // namespace ccrc::detail
