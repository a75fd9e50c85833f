// ccrc - whether a label fits in a ring segment, and which way round.
#pragma once

#include <ccrc/geometry/ring_chart.hpp>

#include <cmath>
#include <cstdint>

namespace ccrc {

/// How a label can be written inside a segment.
enum class label_fit : std::uint8_t {
  none,    ///< it does not fit
  along,   ///< along the arc (tangentially); in the centre disc: horizontally
  across,  ///< across the rings (radially, along the segment's middle ray)
};

/// Whether a straight label box of `width` x `height` pixels, written along the arc and
/// centred on the segment's middle (radius (r0 + r1) / 2, angle (a0 + a1) / 2), lies inside the
/// segment: its inner edge outside r0, its outer corners inside r1, its inner corners within
/// the span. In the centre disc: a horizontal box centred on the centre. A line fits
/// nothing. O(1).
[[nodiscard]] inline bool fits_along(const ring_segment& s, double width, double height) noexcept {
  if (!(width >= 0 && height >= 0) || s.kind == segment_kind::line) return false;
  if (s.kind == segment_kind::center) return std::hypot(width / 2, height / 2) <= s.r1;
  double mid = (s.r0 + s.r1) / 2, inner = mid - height / 2;
  return inner >= s.r0 && inner > 0 && std::hypot(mid + height / 2, width / 2) <= s.r1 &&
         2 * std::atan2(width / 2, inner) <= s.a1 - s.a0;
}

/// Whether the same box written across the rings (its width along the segment's middle ray,
/// centred at the middle radius) lies inside the segment. In the centre disc: as fits_along.
/// A line fits nothing. O(1).
[[nodiscard]] inline bool fits_across(const ring_segment& s, double width, double height) noexcept {
  return fits_along(s, height, width);  // the centre's test is symmetric in width and height
}

/// How a width x height label fits in a segment: along the arc if it can (easiest to read),
/// else across the rings, else not at all.
///
///     if (ccrc::fit_label(seg, 7.0 * name.size(), 12) != ccrc::label_fit::none) draw(name);
[[nodiscard]] inline label_fit fit_label(const ring_segment& s, double width, double height) noexcept {
  if (fits_along(s, width, height)) return label_fit::along;
  if (fits_across(s, width, height)) return label_fit::across;
  return label_fit::none;
}

}  // namespace ccrc
