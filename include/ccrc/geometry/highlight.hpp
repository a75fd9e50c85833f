// ccrc - highlighting a set of calling contexts (a search result) in a ring chart.
#pragma once

#include <ccrc/geometry/ring_chart.hpp>

#include <algorithm>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace ccrc {

/// How a segment relates to a set of highlighted calling contexts.
enum class highlight_state : std::uint8_t {
  none,            ///< neither it nor any of its descendants is highlighted
  match,           ///< its calling context is highlighted
  contains_match,  ///< a descendant is: draw it so that the match, perhaps culled into a line or
                   ///< cut by the depth limit, can be found
};

/// The highlight state of every segment of `chart` (laid out from a view of `t`) for the
/// calling contexts `matches`: `match` for a segment whose node is one of them,
/// `contains_match` for a segment with one among its descendants in the tree (shown or not),
/// `none` otherwise. Matches outside the chart's view change nothing; duplicates are fine.
/// O(s log s + m d log s) for s segments and m matches at most d levels below the chart.
///
///     std::vector<ccrc::node_id> hits = search(p, "HashMap");  // any search
///     auto state = ccrc::highlight(chart, p.tree(), hits);     // one per segment
[[nodiscard]] inline std::vector<highlight_state> highlight(const ring_layout& chart, const call_tree& t,
                                                            std::span<const node_id> matches) {
  const std::vector<ring_segment>& segs = chart.segments;
  std::vector<std::pair<node_id, std::uint32_t>> index;  // (node, segment), sorted by node
  index.reserve(segs.size());
  for (std::size_t i = 0; i < segs.size(); ++i) index.emplace_back(segs[i].node, static_cast<std::uint32_t>(i));
  std::sort(index.begin(), index.end());
  auto segment_of = [&](node_id n) {
    auto it = std::lower_bound(index.begin(), index.end(), std::pair<node_id, std::uint32_t>(n, 0));
    return it != index.end() && it->first == n ? it->second : no_segment;
  };
  std::vector<highlight_state> state(segs.size(), highlight_state::none);
  for (node_id m : matches) {
    CCRC_ASSERT(m < t.size(), "ccrc: a match is not a node of the tree");
    // The nearest shown context at or above m; m itself may be culled or below the depth limit.
    std::uint32_t i = segment_of(m);
    node_id n = m;
    while (i == no_segment && n != root_node) i = segment_of(n = t.parent(n));
    if (i == no_segment) continue;  // not in the view
    if (n == m) {
      state[i] = highlight_state::match;
      i = segs[i].parent;
    }
    // Every marked segment has its ancestors marked already: stop at the first one.
    for (; i != no_segment && state[i] == highlight_state::none; i = segs[i].parent)
      state[i] = highlight_state::contains_match;
  }
  return state;
}

}  // namespace ccrc
