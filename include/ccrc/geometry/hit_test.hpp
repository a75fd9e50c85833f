// ccrc - hit testing a ring chart or an icicle: the segment, and so the calling context, under
// a point.
#pragma once

#include <ccrc/geometry/icicle.hpp>
#include <ccrc/geometry/ring_chart.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <numbers>
#include <optional>
#include <vector>

namespace ccrc {

namespace detail {

// The only segment of a level, segs[first, last) sorted by where their spans start, that can
// hold the point `at` along the level: the last one starting at or before it (segs.size() if
// none does). O(log(last - first)).
template <class Segment, class Start>
std::size_t last_starting_at(const std::vector<Segment>& segs, std::size_t first, std::size_t last, double at,
                             Start start) noexcept {
  auto begin = segs.begin() + static_cast<std::ptrdiff_t>(first), end = segs.begin() + static_cast<std::ptrdiff_t>(last);
  auto after = std::upper_bound(begin, end, at, [&](double x, const Segment& s) { return x < start(s); });
  return after == begin ? segs.size() : static_cast<std::size_t>(after - segs.begin()) - 1;
}

}  // namespace detail

/// The angle of the point (x, y) seen from the chart's center, in radians clockwise from
/// twelve o'clock, brought into [start_angle, start_angle + 2π): the range segment angles
/// use. O(1).
[[nodiscard]] inline double ring_angle(const ring_layout& chart, double x, double y) noexcept {
  constexpr double full_circle = 2 * std::numbers::pi;
  double turn = std::fmod(std::atan2(x - chart.center.x, chart.center.y - y) - chart.start_angle, full_circle);
  if (turn < 0) turn += full_circle;
  if (turn >= full_circle) turn = 0;
  return chart.start_angle + turn;
}

/// Whether segment s covers the point at radius r and angle a (an angle as ring_angle gives
/// it): r0 <= r < r1 and a0 <= a < a1, so neighbours never both claim a point and an empty
/// span covers nothing. O(1).
[[nodiscard]] constexpr bool covers(const ring_segment& s, double r, double a) noexcept {
  return s.r0 <= r && r < s.r1 && s.a0 <= a && a < s.a1;
}

/// The index in chart.segments of the segment under the point (x, y), pixels, or nullopt
/// (outside the chart, in the uncovered share of a parent, or not finite). The answer is the
/// one segment that covers() the point. O(log rings + log segments of the ring): a binary
/// search of the radii, then of the ring's start angles, which ring_chart emits sorted.
///
///     if (auto i = ccrc::hit_test(chart, mouse_x, mouse_y))
///       show(ccrc::tooltip(p, ag_columns, chart.segments[*i].node));  // geometry/tooltip.hpp
[[nodiscard]] inline std::optional<std::size_t> hit_test(const ring_layout& chart, double x, double y) noexcept {
  if (chart.radii.empty() || chart.ring_begin.size() < 2) return std::nullopt;
  double r = std::hypot(x - chart.center.x, y - chart.center.y);
  if (!std::isfinite(r)) return std::nullopt;
  // Ring d spans [radii[d - 1], radii[d]): d is the number of radii <= r.
  auto d = static_cast<std::size_t>(std::upper_bound(chart.radii.begin(), chart.radii.end(), r) - chart.radii.begin());
  if (d + 1 >= chart.ring_begin.size()) return std::nullopt;
  double a = ring_angle(chart, x, y);
  std::size_t i = detail::last_starting_at(chart.segments, chart.ring_begin[d], chart.ring_begin[d + 1], a,
                                           [](const ring_segment& s) { return s.a0; });
  if (i == chart.segments.size() || !covers(chart.segments[i], r, a)) return std::nullopt;
  return i;
}

/// Whether icicle segment s covers the point (x, y): x0 <= x < x1 and y0 <= y < y1, so
/// neighbours never both claim a point and an empty box covers nothing. O(1).
[[nodiscard]] constexpr bool covers(const icicle_segment& s, double x, double y) noexcept {
  return s.x0 <= x && x < s.x1 && s.y0 <= y && y < s.y1;
}

/// The index in chart.segments of the icicle segment under the point (x, y), pixels, or
/// nullopt (outside the chart, in the uncovered share of a parent, or not finite). The answer
/// is the one segment that covers() the point. O(log rows + log segments of the row): a
/// binary search of the rows' edges, then of the row's left edges, which icicle_chart emits
/// sorted.
///
///     if (auto i = ccrc::hit_test(icicle, mouse_x, mouse_y)) select(icicle.segments[*i].node);
[[nodiscard]] inline std::optional<std::size_t> hit_test(const icicle_layout& chart, double x, double y) noexcept {
  if (chart.edges.size() < 2 || chart.row_begin.size() < 2 || !std::isfinite(x) || !std::isfinite(y))
    return std::nullopt;
  // Band k from the top spans [edges[k], edges[k + 1]): k + 1 is the number of edges <= y.
  auto above = static_cast<std::size_t>(std::upper_bound(chart.edges.begin(), chart.edges.end(), y) - chart.edges.begin());
  if (above == 0 || above >= chart.edges.size()) return std::nullopt;
  std::size_t d = chart.root_at_bottom ? chart.rows() - (above - 1) : above - 1;
  std::size_t i = detail::last_starting_at(chart.segments, chart.row_begin[d], chart.row_begin[d + 1], x,
                                           [](const icicle_segment& s) { return s.x0; });
  if (i == chart.segments.size() || !covers(chart.segments[i], x, y)) return std::nullopt;
  return i;
}

}  // namespace ccrc
