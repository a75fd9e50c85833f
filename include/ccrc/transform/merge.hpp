// ccrc - merging one calling context tree into another.
#pragma once

#include <ccrc/transform/transformed.hpp>
#include <ccrc/tree/cct.hpp>
#include <ccrc/tree/profile.hpp>

#include <cstddef>
#include <type_traits>
#include <vector>

namespace ccrc {

namespace detail {

// The structure of a tree with metrics (a profile, a cct), or a bare call_tree itself.
template <class Tree>
const call_tree& structure_of(const Tree& t) noexcept {
  if constexpr (std::is_same_v<Tree, call_tree>)
    return t;
  else
    return t.tree();
}

// Creates in `into` every context of `from`; returns the node mapping. One pass in id order:
// parent(n) < n, so a node's parent is always mapped before it.
//
// Runs of one program number their contexts in much the same order, so the node after the
// last one mapped is tried first: a read of the next entries of two columns, where a lookup
// is a miss in a hash index bigger than the caches. A child is unique per (parent, frame), so
// the guess, when it holds, is the node the lookup would find.
template <class Into>
std::vector<node_id> merge_structure(Into& into, const call_tree& from) {
  const call_tree& t = structure_of(into);
  CCRC_ASSERT(&t != &from, "ccrc: cannot merge a tree into itself");
  const symbol_table& syms = from.symbols();
  std::vector<frame_id> frame_map(syms.frame_count());
  for (frame_id f{1}; f < frame_map.size(); ++f)
    frame_map[f] = into.symbols().intern(syms.name(f), syms.site(f));
  std::vector<node_id> node_map(from.size());
  node_map[root_node] = root_node;
  for (node_id n = 1, guess = root_node + 1; n < from.size(); ++n) {
    const node_id parent = node_map[from.parent(n)];
    const frame_id f = frame_map[from.frame(n)];
    const bool same = guess < t.size() && t.frame(guess) == f && t.parent(guess) == parent;
    node_map[n] = same ? guess : into.find_or_add_child(parent, f);
    guess = node_map[n] + 1;
  }
  return node_map;
}

}  // namespace detail

/// Adds every calling context of `from` to `into`: a context both have gets the sum of the
/// metrics, a context only `from` has is created (as the newest child of its parent). How
/// per-thread trees, or several runs, become one. Returns the node of `into` for each node of
/// `from`. O(size of from), expected.
///
///     ccrc::merge(total, thread_tree);  // total now holds thread_tree's contexts too
template <metric_spec... Metrics>
std::vector<node_id> merge(cct<Metrics...>& into, const cct<Metrics...>& from) {
  std::vector<node_id> map = detail::merge_structure(into, from.tree());
  detail::add_through(into, from, map);
  return map;
}

/// merge for profiles: metrics are matched by name; a metric only `from` has is added to
/// `into` (zero on its existing nodes). Names are not units: `time_us` and `time_ns` become
/// two columns; ccrc::unit_disagreement on the result finds such a pair.
inline std::vector<node_id> merge(profile& into, const profile& from) {
  std::vector<node_id> map = detail::merge_structure(into, from.tree());
  for (std::size_t i = 0; i < from.metric_count(); ++i) {
    auto found = into.find_metric(from.metric_name(i));
    std::size_t column = found ? *found : into.add_metric(std::string(from.metric_name(i)));
    detail::add_column_through(into.column(column), from.column(i), map);
  }
  return map;
}

}  // namespace ccrc
