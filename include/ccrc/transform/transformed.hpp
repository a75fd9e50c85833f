// ccrc - what a transform returns: a new tree, and where each input node went.
#pragma once

#include <ccrc/concepts.hpp>
#include <ccrc/tree/cct.hpp>
#include <ccrc/tree/profile.hpp>

#include <cstddef>
#include <span>
#include <utility>
#include <vector>

namespace ccrc {

/// The result of a transform of a tree of type Tree (a ccrc::profile or ccrc::cct).
/// node_map[n] is the output node that received input node n's metrics, or null_node if the
/// transform dropped n: it carries a selection (a node, a search result) across the transform.
template <buildable_tree Tree>
struct transformed {
  Tree output;
  std::vector<node_id> node_map;
};

namespace detail {

/// A tree with the metrics of `in`, no node but the root and no frame.
template <buildable_tree Tree>
Tree with_metrics_of(const Tree& in) {
  if constexpr (std::is_same_v<Tree, profile>)
    return profile(in.metric_names());
  else
    return Tree{};
}

/// A tree with the metrics and the symbol table of `in` and no node but the root, so that
/// frame ids mean the same in both.
template <buildable_tree Tree>
Tree empty_like(const Tree& in) {
  Tree out = with_metrics_of(in);
  out.symbols() = in.symbols();
  return out;
}

/// A tree with the metrics of `in`, the structure `structure` (built beside it, with a copy of
/// in's symbol table) and every metric zero: transforms build the bare structure first, so
/// that no metric column grows node by node, then add the metrics with add_through.
template <buildable_tree Tree>
Tree with_structure(const Tree& in, call_tree&& structure) {
  if constexpr (std::is_same_v<Tree, profile>)
    return profile(std::move(structure), in.metric_names());
  else
    return Tree(std::move(structure));
}

/// dst[map[n]] += src[n] for every node n that map does not send to null_node.
template <class Dst, class Src>
void add_column_through(Dst dst, Src src, std::span<const node_id> map) {
  for (std::size_t n = 0; n < src.size(); ++n)
    if (map[n] != null_node) dst[map[n]] += src[n];
}

/// Adds every node's metrics of `in` to node map[n] of `out` (same metrics, in the same
/// order); nodes mapped to null_node are skipped. Column by column: O(n) sequential reads.
template <metric_spec... Metrics>
void add_through(cct<Metrics...>& out, const cct<Metrics...>& in, std::span<const node_id> map) {
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (add_column_through(out.template column<I>(), in.template column<I>(), map), ...);
  }(std::index_sequence_for<Metrics...>{});
}

inline void add_through(profile& out, const profile& in, std::span<const node_id> map) {
  for (std::size_t i = 0; i < in.metric_count(); ++i) add_column_through(out.column(i), in.column(i), map);
}

}  // namespace detail
}  // namespace ccrc
