// ccrc - the structure of a calling context tree: parents, frames and child lists.
#pragma once

#include <ccrc/config.hpp>
#include <ccrc/tree/child_index.hpp>
#include <ccrc/error.hpp>
#include <ccrc/ids.hpp>
#include <ccrc/tree/symbol_table.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

namespace ccrc {

namespace detail {

// Shared by call_tree and the trees with metric columns (columns_base), whose
// find_or_add_child also grows the columns.
template <class Tree>
node_id try_find_or_add_child(Tree& t, node_id parent, frame_id f) noexcept {
  try {
    return t.find_or_add_child(parent, f);
  } catch (...) {
    return null_node;
  }
}

template <class Tree>
node_id add_path(Tree& t, std::span<const frame_id> frames) {
  node_id n = root_node;
  for (frame_id f : frames) n = t.find_or_add_child(n, f);
  return n;
}

}  // namespace detail

/// The structure of a calling context tree, without metrics: node 0 is the root (frame
/// root_frame, not a calling context itself), every other node has a parent with a smaller id
/// and a frame that is unique among its siblings. Stored as parallel arrays of 4-byte ids
/// (16 bytes a node, plus a hash index of 4-byte slots for the children of nodes with over 8
/// children, which shrink_to_fit releases); children are kept in creation order.
///
/// Metrics live beside it in columns indexed by node_id (see ccrc::cct and ccrc::profile),
/// which is why algorithms take a call_tree and the column they read.
///
///     ccrc::call_tree t;
///     ccrc::node_id f = t.find_or_add_child(ccrc::root_node, t.intern("main"));
///     assert(t.parent(f) == ccrc::root_node && t.name(f) == "main" && t.size() == 2);
class call_tree {
 public:
  class child_range;

  call_tree() { append(null_node, root_frame); }

  /// Number of nodes, root included: valid ids are [0, size()).
  [[nodiscard]] std::size_t size() const noexcept { return parent_.size(); }

  [[nodiscard]] node_id parent(node_id n) const noexcept { return parent_[n]; }
  [[nodiscard]] frame_id frame(node_id n) const noexcept { return frame_[n]; }
  [[nodiscard]] method_id method(node_id n) const noexcept { return symbols_.method(frame_[n]); }
  /// Method name of node n ("" for the root).
  [[nodiscard]] std::string_view name(node_id n) const noexcept { return symbols_.name(frame_[n]); }

  /// The parent column: parents()[n] == parent(n), parents()[0] == null_node.
  [[nodiscard]] std::span<const node_id> parents() const noexcept { return parent_; }
  /// The frame column.
  [[nodiscard]] std::span<const frame_id> frames() const noexcept { return frame_; }

  [[nodiscard]] bool has_children(node_id n) const noexcept { return last_child_[n] != null_node; }
  /// Oldest child of n, or null_node.
  [[nodiscard]] node_id first_child(node_id n) const noexcept {
    node_id last = last_child_[n];
    return last == null_node ? null_node : next_sibling_[last];
  }
  /// Newest child of n, or null_node.
  [[nodiscard]] node_id last_child(node_id n) const noexcept { return last_child_[n]; }
  /// The sibling created after n, or null_node.
  [[nodiscard]] node_id next_sibling(node_id n) const noexcept {
    if (n == root_node || n == last_child_[parent_[n]]) return null_node;
    return next_sibling_[n];
  }
  /// The children of n in creation order: `for (ccrc::node_id c : t.children(n))`.
  [[nodiscard]] child_range children(node_id n) const noexcept;

  /// Number of edges from the root to n. O(depth).
  [[nodiscard]] std::uint32_t depth(node_id n) const noexcept {
    std::uint32_t d = 0;
    for (; n != root_node; n = parent_[n]) ++d;
    return d;
  }

  /// The call stack of n, outermost frame first, the root excluded. O(depth).
  [[nodiscard]] std::vector<frame_id> path(node_id n) const {
    std::vector<frame_id> frames;
    for (; n != root_node; n = parent_[n]) frames.push_back(frame_[n]);
    std::reverse(frames.begin(), frames.end());
    return frames;
  }

  /// The child of `parent` with frame `f`, or null_node. O(1) expected, no allocation; but
  /// O(children) for a parent with over 8 children while the tree has no child index (see
  /// shrink_to_fit; ccrc::child_lookup keeps many lookups O(1)).
  [[nodiscard]] node_id find_child(node_id parent, frame_id f) const noexcept {
    return find_child_with(index_, parent, f);
  }

  /// The child of `parent` with frame `f`, created (as the newest child) if missing.
  /// O(1) expected, amortised; on a tree without its child index, the first call that needs
  /// it (a parent with 8 children or more) rebuilds it, O(n) once. Throws capacity_error past
  /// max_nodes, and std::bad_alloc; on a throw the tree is unchanged (its index may have been
  /// rebuilt).
  node_id find_or_add_child(node_id parent, frame_id f) {
    CCRC_ASSERT(parent < size(), "ccrc: parent is not a node of this tree");
    CCRC_ASSERT(f != root_frame && f < symbols_.frame_count(), "ccrc: not a frame of this tree");
    lookup_result r = lookup(parent, f);
    if (r.found != null_node) return r.found;
    if (r.children >= narrow_children && !indexed_) build_child_index();
    if (r.children > narrow_children) {
      node_id c = index_.find(parent, f, parent_.data(), frame_.data());
      if (c != null_node) return c;
    }
    return add_child(parent, f, r);
  }

  /// find_or_add_child that reports failure (allocation, capacity) as null_node instead of
  /// throwing: for the profiling hot path.
  node_id try_find_or_add_child(node_id parent, frame_id f) noexcept {
    return detail::try_find_or_add_child(*this, parent, f);
  }

  /// The node reached from the root by `frames` (outermost first), created as needed.
  node_id add_path(std::span<const frame_id> frames) { return detail::add_path(*this, frames); }

  /// The node reached from the root by `frames`, or null_node if it does not exist.
  [[nodiscard]] node_id find_path(std::span<const frame_id> frames) const noexcept {
    node_id n = root_node;
    for (frame_id f : frames) {
      n = find_child(n, f);
      if (n == null_node) break;
    }
    return n;
  }

  struct columns_result;

  /// The tree whose columns are `parents` and `frames`, children in id order: what a reader
  /// of a stored tree builds. Preconditions (check them first): parents[0] == null_node,
  /// frames[0] == root_frame, and for every other node parents[n] < n and frames[n] a frame
  /// of `symbols` other than root_frame. If a node repeats a sibling's frame, the result's
  /// `repeated` is the first such node and its tree must be discarded; otherwise null_node.
  /// The tree is a finished one, as shrink_to_fit leaves it: 16 bytes a node, no child index
  /// (built by the first find_or_add_child that needs it). O(n): one pass over the columns
  /// and a walk of the child lists of parents with over 8 children, several times faster
  /// than n calls to find_or_add_child.
  [[nodiscard]] static columns_result from_columns(symbol_table symbols, std::vector<node_id> parents,
                                                   std::vector<frame_id> frames);

  [[nodiscard]] const symbol_table& symbols() const noexcept { return symbols_; }
  [[nodiscard]] symbol_table& symbols() noexcept { return symbols_; }
  /// symbols().intern(name): the site-less frame of a method name.
  frame_id intern(std::string_view name) { return symbols_.intern(name); }

  /// Reserves room for `nodes` nodes in total, so that building up to that size allocates
  /// only in the child index.
  void reserve(std::size_t nodes) {
    parent_.reserve(nodes);
    frame_.reserve(nodes);
    last_child_.reserve(nodes);
    next_sibling_.reserve(nodes);
  }

  /// For a tree that is done growing (read, generated, built and kept): releases the
  /// columns' spare capacity and the child index, leaving 16 bytes a node and the symbols.
  /// Every lookup stays right, and only lookups among the children of a parent with over 8
  /// children change: find_child scans them, O(children), until the index is back; the first
  /// find_or_add_child that needs it rebuilds it (O(n), once, as a rehash would), and so does
  /// build_child_index. O(n) for the copies into exact-size columns; if memory is too short
  /// for them, the columns keep their capacity (like std::vector's, a request).
  ///
  ///     ccrc::profile p = build();
  ///     p.shrink_to_fit();  // ccrc::profile and ccrc::cct release their metric columns' spare too
  void shrink_to_fit() noexcept;

  /// Whether the tree holds its child index: false after shrink_to_fit (or from_columns) on a
  /// tree with a parent of over 8 children, until the index is rebuilt.
  [[nodiscard]] bool has_child_index() const noexcept { return indexed_; }

  /// Rebuilds the child index that shrink_to_fit released, before many find_child calls on
  /// wide parents. O(n) (a walk of every child list); 8 to 16 bytes per child of a parent
  /// with over 8 children. Throws std::bad_alloc, the tree unchanged.
  void build_child_index() {
    if (indexed_) return;
    detail::child_index index;
    index_wide_children(index);
    index_ = std::move(index);
    indexed_ = true;
  }

  /// Heap bytes held by the structure (capacity included), the child index and the symbol table.
  [[nodiscard]] std::size_t memory_bytes() const noexcept {
    return (parent_.capacity() + frame_.capacity() + last_child_.capacity() +
            next_sibling_.capacity()) * sizeof(node_id) +
           index_.memory_bytes() + symbols_.memory_bytes();
  }

 private:
  friend class child_lookup;

  // A parent with more children than this is "wide": its children are found through index_.
  static constexpr int narrow_children = 8;

  struct lookup_result {
    node_id found;
    int children;  // when not found: the parent's child count, or narrow_children + 1 if wide
    node_id rest;  // for a wide parent: the first sibling not looked at
  };

  // The newest child first (building in call order hits it), then the rest of a narrow
  // parent's list; a wide one's is left to the caller.
  lookup_result lookup(node_id parent, frame_id f) const noexcept {
    node_id last = last_child_[parent];
    if (last == null_node) return {null_node, 0, null_node};
    node_id c = last;
    for (int i = 1; i <= narrow_children; ++i) {
      if (frame_[c] == f) return {c, i, null_node};
      c = next_sibling_[c];
      if (c == last) return {null_node, i, null_node};
    }
    return {null_node, narrow_children + 1, c};
  }

  // find_child, through `index` when the tree has none of its own (child_lookup's).
  node_id find_child_with(const detail::child_index& index, node_id parent, frame_id f) const noexcept {
    lookup_result r = lookup(parent, f);
    if (r.children <= narrow_children) return r.found;
    if (indexed_ || &index != &index_) return index.find(parent, f, parent_.data(), frame_.data());
    for (node_id c = r.rest, last = last_child_[parent]; c != last; c = next_sibling_[c])
      if (frame_[c] == f) return c;
    return null_node;
  }

  // Puts every child of every wide parent in `index` (empty): a walk of each child list.
  void index_wide_children(detail::child_index& index) const {
    std::size_t wide_children = 0;
    for_each_wide_parent([&](node_id, std::size_t children) { wide_children += children; });
    if (wide_children == 0) return;
    index.reserve_more(wide_children, parent_.data(), frame_.data());
    for_each_wide_parent([&](node_id last, std::size_t) {
      node_id c = last;
      do {
        c = next_sibling_[c];
        index.insert(c, parent_.data(), frame_.data());
      } while (c != last);
    });
  }

  // Calls f(its newest child, its child count) for each parent with over narrow_children.
  template <class F>
  void for_each_wide_parent(F f) const {
    for (std::size_t p = 0; p < size(); ++p) {
      const node_id last = last_child_[p];
      if (last == null_node) continue;
      node_id c = last;
      std::size_t k = 0;
      do {
        c = next_sibling_[c];
        ++k;
      } while (c != last && k <= narrow_children);
      if (c != last) {  // wide: count the rest
        do {
          c = next_sibling_[c];
          ++k;
        } while (c != last);
      }
      if (k > narrow_children) f(last, k);
    }
  }

  // Room for nodes in all four columns (they may differ after shrink_to_fit).
  [[nodiscard]] std::size_t capacity() const noexcept {
    return std::min({parent_.capacity(), frame_.capacity(), last_child_.capacity(), next_sibling_.capacity()});
  }

  node_id add_child(node_id parent, frame_id f, lookup_result r) {
    if (r.children >= narrow_children)
      index_.reserve_more(r.children == narrow_children ? narrow_children + 1 : 1, parent_.data(),
                          frame_.data());
    node_id c = append(parent, f);
    if (r.children == narrow_children) {  // the parent just became wide: index all children
      for (node_id s = c;;) {
        index_.insert(s, parent_.data(), frame_.data());
        s = next_sibling_[s];
        if (s == c) break;
      }
    } else if (r.children > narrow_children) {
      index_.insert(c, parent_.data(), frame_.data());
    }
    return c;
  }

  // Appends a node as the newest child of `parent` (null_node: the root). Strong guarantee:
  // every allocation happens before the first column changes.
  node_id append(node_id parent, frame_id f) {
    if (size() >= max_nodes) throw capacity_error("a call tree holds at most 2^32-1 nodes");
    if (size() == capacity()) reserve(std::max<std::size_t>(16, 2 * size()));
    auto c = static_cast<node_id>(size());
    parent_.push_back(parent);
    frame_.push_back(f);
    last_child_.push_back(null_node);
    if (parent == null_node) {
      next_sibling_.push_back(null_node);
      return c;
    }
    // Circular sibling list anchored at the newest child: O(1) append in creation order.
    node_id last = last_child_[parent];
    if (last == null_node) {
      next_sibling_.push_back(c);
    } else {
      next_sibling_.push_back(next_sibling_[last]);
      next_sibling_[last] = c;
    }
    last_child_[parent] = c;
    return c;
  }

  std::vector<node_id> parent_;
  std::vector<frame_id> frame_;
  std::vector<node_id> last_child_;
  std::vector<node_id> next_sibling_;  // circular: the newest child's points to the oldest
  detail::child_index index_;
  bool indexed_ = true;  // index_ holds every child of every wide parent
  symbol_table symbols_;
};

/// A forward range over the children of one node, in creation order.
class call_tree::child_range {
 public:
  class iterator {
   public:
    using value_type = node_id;
    using difference_type = std::ptrdiff_t;
    using iterator_category = std::forward_iterator_tag;

    iterator() = default;
    iterator(const call_tree* t, node_id n) noexcept : tree_(t), node_(n) {}
    node_id operator*() const noexcept { return node_; }
    iterator& operator++() noexcept {
      node_ = tree_->next_sibling(node_);
      return *this;
    }
    iterator operator++(int) noexcept {
      iterator old = *this;
      ++*this;
      return old;
    }
    bool operator==(const iterator& o) const noexcept { return node_ == o.node_; }

   private:
    const call_tree* tree_ = nullptr;
    node_id node_ = null_node;
  };

  child_range(const call_tree* t, node_id n) noexcept : tree_(t), node_(n) {}
  [[nodiscard]] iterator begin() const noexcept { return {tree_, tree_->first_child(node_)}; }
  [[nodiscard]] iterator end() const noexcept { return {tree_, null_node}; }
  [[nodiscard]] bool empty() const noexcept { return !tree_->has_children(node_); }

 private:
  const call_tree* tree_;
  node_id node_;
};

inline call_tree::child_range call_tree::children(node_id n) const noexcept { return {this, n}; }

/// What call_tree::from_columns builds: the tree, and the first node that repeats a sibling's
/// frame (null_node if none; otherwise the tree is incomplete and must be discarded).
struct call_tree::columns_result {
  call_tree tree;
  node_id repeated = null_node;
};

inline call_tree::columns_result call_tree::from_columns(symbol_table symbols, std::vector<node_id> parents,
                                                         std::vector<frame_id> frames) {
  CCRC_ASSERT(!parents.empty() && parents.size() == frames.size() && parents[0] == null_node,
              "ccrc: from_columns needs a root and one frame per node");
  call_tree t;
  t.symbols_ = std::move(symbols);
  const std::size_t n = parents.size();
  t.parent_ = std::move(parents);
  t.frame_ = std::move(frames);
  t.last_child_ = std::vector<node_id>(n, null_node);  // not assign(): exact capacity
  t.next_sibling_ = std::vector<node_id>(n, null_node);
  // The lists find_or_add_child would make, in id order. A repeated frame is looked for among
  // the newest 8 siblings as each node is linked (they are in the cache then); the older
  // children of a parent with more are checked after, one walk of its list.
  node_id repeated = null_node;
  std::vector<node_id> wide;  // the parents given a 9th child
  for (node_id c = 1; c < n && repeated == null_node; ++c) {
    node_id p = t.parent_[c], last = t.last_child_[p];
    if (last != null_node) {
      const frame_id f = t.frame_[c];
      node_id s = last;
      int k = 0;
      do {
        if (t.frame_[s] == f) repeated = c;
        s = t.next_sibling_[s];
        ++k;
      } while (s != last && k < narrow_children);
      if (s == last && k == narrow_children) wide.push_back(p);
    }
    t.next_sibling_[c] = last == null_node ? c : t.next_sibling_[last];
    if (last != null_node) t.next_sibling_[last] = c;
    t.last_child_[p] = c;
  }
  if (!wide.empty()) {  // each list oldest first: its first repeat is its smallest
    std::vector<node_id> seen(t.symbols_.frame_count(), null_node);
    for (node_id p : wide) {
      const node_id last = t.last_child_[p];
      for (node_id c = last;;) {
        c = t.next_sibling_[c];
        if (seen[t.frame_[c]] == p) {
          repeated = std::min(repeated, c);
          break;
        }
        seen[t.frame_[c]] = p;
        if (c == last) break;
      }
    }
  }
  t.indexed_ = wide.empty() && repeated == null_node;  // after a repeat: scan, wide or not
  return {std::move(t), repeated};
}

inline void call_tree::shrink_to_fit() noexcept {
  indexed_ = indexed_ && index_.size() == 0;  // an empty index is whole: no parent is wide
  index_.release();
  try {
    parent_.shrink_to_fit();
    frame_.shrink_to_fit();
    last_child_.shrink_to_fit();
    next_sibling_.shrink_to_fit();
  } catch (...) {  // a request, as std::vector's: short of memory, the capacity stays
  }
}

}  // namespace ccrc
