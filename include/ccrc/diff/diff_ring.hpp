// ccrc - the diff ring chart: the second run's ring chart, each segment with its class and H.
#pragma once

#include <ccrc/diff/diff.hpp>
#include <ccrc/geometry/color.hpp>
#include <ccrc/geometry/ring_chart.hpp>

#include <vector>

namespace ccrc {

/// What the diff says of one segment of a ring chart of the second run.
struct diff_ring_segment {
  diff_status status;  ///< never removed: the second run has no removed context
  double height;       ///< H of the segment's context
};

/// The color of a diff class, as Rizel's blueprint draws it: red where a context takes a
/// larger share in the second run (dark when its method was modified), green where a smaller
/// one, yellow where it is new, grey where removed; an unchanged context in neutral_color.
[[nodiscard]] constexpr rgb diff_color(diff_status s) noexcept {
  switch (s) {
    case diff_status::slower_modified: return {0xd6, 0x27, 0x28};
    case diff_status::slower: return {0xf4, 0xa3, 0xa3};
    case diff_status::faster_modified: return {0x2c, 0xa0, 0x2c};
    case diff_status::faster: return {0xa8, 0xdd, 0x9e};
    case diff_status::added: return {0xf2, 0xd6, 0x2e};
    case diff_status::removed: return {0xa6, 0xa6, 0xa6};
    case diff_status::unchanged: break;
  }
  return neutral_color;
}

/// The class and H of every segment of `chart`, a ring chart or an icicle laid out over the
/// second run's tree of `d` (`diff(first, second)`): a renderer colors the second run's chart by them, so
/// that the blueprint's story reads on the ring chart (red where a context's share grew,
/// green where it shrank, yellow where it is new). A line that stands for several thin
/// siblings takes its first context's. O(segments).
///
///     auto chart = ccrc::ring_chart(ccrc::ring_chart_view(ccrc::tree_view(second.tree()), ag), ag, o);
///     auto classes = ccrc::diff_ring(d, chart);  // classes[i] for chart.segments[i]
template <class Layout>
[[nodiscard]] std::vector<diff_ring_segment> diff_ring(const cct_diff& d, const Layout& chart) {
  std::vector<diff_ring_segment> out;
  out.reserve(chart.segments.size());
  for (const auto& s : chart.segments) {
    CCRC_ASSERT(s.node < d.matching.from_second.size(), "ccrc: the chart must be of the diff's second run");
    node_id n = d.matching.from_second[s.node];
    out.push_back({d.status[n], d.height[n]});
  }
  return out;
}

}  // namespace ccrc
