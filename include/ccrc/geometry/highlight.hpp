// ccrc - highlighting a set of calling contexts (a search result) in a ring chart.
#pragma once

#include <ccrc/concepts.hpp>
#include <ccrc/geometry/ring_chart.hpp>

#include <algorithm>
#include <cstdint>
#include <ranges>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

namespace ccrc {

/// How a segment relates to a set of highlighted calling contexts.
enum class highlight_state : std::uint8_t {
  none,            ///< neither it nor any of its descendants is highlighted
  match,           ///< its calling context is highlighted (for a line standing for several
                   ///< siblings: one of them is)
  contains_match,  ///< a descendant is: draw it so that the match, perhaps culled into a line or
                   ///< cut by the depth limit, can be found
};

/// The highlight state of every segment of `chart` (laid out from a view of `t` with the
/// aggregated column `ag`) for the calling contexts `matches`: `match` for a segment standing
/// for one of them, `contains_match` for a segment with one among its descendants in the tree
/// (shown or not), `none` otherwise. Matches outside the chart's view change nothing;
/// duplicates are fine. O(s log s + m d log s) for s segments and m matches at most d levels
/// below the chart; with m >= max(n / 256, 64) for a tree of n nodes, at most
/// O(s log s + n log s), each hidden context walked once (and 4 bytes a node).
///
///     std::vector<ccrc::node_id> hits = search(p, "HashMap");  // any search
///     auto state = ccrc::highlight(chart, p.tree(), ag, hits);  // one per segment
template <metric_column C>
[[nodiscard]] std::vector<highlight_state> highlight(const ring_layout& chart, const call_tree& t, const C& ag,
                                                     std::span<const node_id> matches) {
  CCRC_ASSERT(std::ranges::size(ag) == t.size(), "ccrc: the column must have one value per node");
  const auto* values = std::ranges::data(ag);
  const std::vector<ring_segment>& segs = chart.segments;
  std::vector<std::pair<node_id, std::uint32_t>> index;  // (node, segment), sorted by node
  index.reserve(segs.size());
  for (std::size_t i = 0; i < segs.size(); ++i) index.emplace_back(segs[i].node, static_cast<std::uint32_t>(i));
  std::sort(index.begin(), index.end());
  auto segment_of = [&](node_id n) {
    auto it = std::lower_bound(index.begin(), index.end(), std::pair<node_id, std::uint32_t>(n, 0));
    return it != index.end() && it->first == n ? it->second : no_segment;
  };
  // Whether child a comes before child b in the chart's order (ring_chart's own order).
  auto before = [&](node_id a, node_id b) {
    switch (chart.order) {
      case child_order::value:
        return detail::heavier({detail::ring_weight(values[a]), a}, {detail::ring_weight(values[b]), b});
      case child_order::name: {
        std::string_view na = t.name(a), nb = t.name(b);
        return na != nb ? na < nb : a < b;
      }
      case child_order::insertion: break;
    }
    return a < b;
  };
  // The line of segs[p]'s children that merged child c, or no_segment (c is below the depth
  // limit). p's children are contiguous in their ring, in chart order, each line standing for
  // the siblings from its node up to the next segment's.
  auto merged_into = [&](std::uint32_t p, node_id c) -> std::uint32_t {
    std::size_t ring = segs[p].depth + 1;
    if (ring + 1 >= chart.ring_begin.size()) return no_segment;
    auto first = segs.begin() + static_cast<std::ptrdiff_t>(chart.ring_begin[ring]);
    auto last = segs.begin() + static_cast<std::ptrdiff_t>(chart.ring_begin[ring + 1]);
    auto by_parent = [](const ring_segment& s, std::uint32_t q) { return s.parent < q; };
    first = std::lower_bound(first, last, p, by_parent);
    last = std::lower_bound(first, last, p + 1, by_parent);
    auto after = std::upper_bound(first, last, c, [&](node_id x, const ring_segment& s) { return before(x, s.node); });
    if (after == first) return no_segment;
    --after;
    return after->kind == segment_kind::line && after->contexts > 1 ? static_cast<std::uint32_t>(after - segs.begin())
                                                                     : no_segment;
  };
  std::vector<highlight_state> state(segs.size(), highlight_state::none);
  // Below a shown context, a hidden one is reached from every match beneath it: with many
  // matches, remember for each hidden context walked the child of its nearest shown ancestor
  // (`outside`: none), so that no context is walked twice. O(n) to set up (a memset), worth
  // it once there is a match per 256 nodes (and 64 at least, so that small trees walk).
  constexpr node_id unknown = null_node - 1, outside = null_node;
  std::vector<node_id> memo;
  if (matches.size() >= std::max<std::size_t>(t.size() / 256, 64)) memo.assign(t.size(), unknown);
  std::vector<node_id> walked;
  for (node_id m : matches) {
    CCRC_ASSERT(m < t.size(), "ccrc: a match is not a node of the tree");
    // The nearest shown context n at or above m, and its child `below` on the path to m when
    // m itself is culled or below the depth limit.
    node_id n = m, below = null_node;
    std::uint32_t i = segment_of(m);
    if (i == no_segment) {
      walked.clear();
      for (node_id x = m;;) {  // x is hidden
        if (!memo.empty() && memo[x] != unknown) {
          below = memo[x];
          break;
        }
        walked.push_back(x);
        if (x == root_node) {
          below = outside;
          break;
        }
        if (segment_of(t.parent(x)) != no_segment) {
          below = x;
          break;
        }
        x = t.parent(x);
      }
      if (!memo.empty())
        for (node_id w : walked) memo[w] = below;
      if (below == outside) continue;  // not in the view
      i = segment_of(n = t.parent(below));
    }
    std::uint32_t up = i;           // where the contains_match walk starts
    if (n == m) {
      state[i] = highlight_state::match;
      up = segs[i].parent;
    } else if (segs[i].kind != segment_kind::line) {
      // n is shown and the child `below` is not: merged into a line with other siblings?
      std::uint32_t line = merged_into(i, below);
      if (line != no_segment) {
        if (below == m)
          state[line] = highlight_state::match;
        else if (state[line] == highlight_state::none)
          state[line] = highlight_state::contains_match;
      }
    }
    // Every marked segment has its ancestors marked already: stop at the first one.
    for (; up != no_segment && state[up] == highlight_state::none; up = segs[up].parent)
      state[up] = highlight_state::contains_match;
  }
  return state;
}

}  // namespace ccrc
