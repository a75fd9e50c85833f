#include <ccrc/geometry/label.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <numbers>

namespace {

ccrc::ring_segment arc(double r0, double r1, double a0, double a1) {
  return {1, 1, 0, ccrc::segment_kind::arc, r0, r1, a0, a1};
}

}  // namespace

TEST_CASE("fit_label: along a wide arc, across a long narrow one, nowhere in a sliver") {
  // A quarter ring 100-140 px: a straight 12 px high label along it may be 2 sqrt(140^2 - 126^2)
  // = 122 px long before its outer corners leave the ring.
  ccrc::ring_segment wide = arc(100, 140, 0, std::numbers::pi / 2);
  CHECK(ccrc::fit_label(wide, 80, 12) == ccrc::label_fit::along);
  CHECK(ccrc::fits_along(wide, 120, 12));
  CHECK(!ccrc::fits_along(wide, 125, 12));
  CHECK(!ccrc::fits_along(wide, 80, 41));   // taller than the ring
  CHECK(ccrc::fits_across(wide, 30, 12));
  CHECK(!ccrc::fits_across(wide, 45, 12));  // longer than the ring is wide
  // A narrow deep segment, 100-300 px over 0.1 rad: 20 px wide at 200 px, 200 px deep.
  ccrc::ring_segment deep = arc(100, 300, 1, 1.1);
  CHECK(ccrc::fit_label(deep, 120, 10) == ccrc::label_fit::across);
  CHECK(!ccrc::fits_across(deep, 120, 30));  // the label is higher than the span is wide
  CHECK(ccrc::fit_label(arc(100, 101, 0, 0.001), 5, 5) == ccrc::label_fit::none);
}

TEST_CASE("fit_label: exact limits of a box along the arc") {
  // Box 2w x h at the middle radius 150 of a 100-200 ring: outer corners at hypot(150 + h/2, w).
  ccrc::ring_segment s = arc(100, 200, 0, std::numbers::pi);
  double h = 20, w_max = std::sqrt(200.0 * 200 - 160.0 * 160);  // 120: the outer corners touch r1
  CHECK(ccrc::fits_along(s, 2 * w_max - 0.01, h));
  CHECK(!ccrc::fits_along(s, 2 * w_max + 0.01, h));
  // The inner corners must stay within the span: half-width 50 at radius 140 needs 2 atan(50 / 140).
  ccrc::ring_segment narrow = arc(100, 200, 0, 2 * std::atan2(50, 140));
  CHECK(ccrc::fits_along(narrow, 99.99, h));
  CHECK(!ccrc::fits_along(narrow, 100.01, h));
}

TEST_CASE("fit_label: the centre disc is horizontal, lines fit nothing, nonsense sizes nothing") {
  ccrc::ring_segment center{0, 0, ccrc::no_segment, ccrc::segment_kind::center, 0, 50, 0, 2 * std::numbers::pi};
  CHECK(ccrc::fit_label(center, 80, 12) == ccrc::label_fit::along);
  CHECK(ccrc::fit_label(center, 101, 12) == ccrc::label_fit::none);
  ccrc::ring_segment line = arc(100, 300, 0, 1);
  line.kind = ccrc::segment_kind::line;
  CHECK(ccrc::fit_label(line, 1, 1) == ccrc::label_fit::none);
  CHECK(ccrc::fit_label(arc(100, 300, 0, 1), std::nan(""), 10) == ccrc::label_fit::none);
  CHECK(ccrc::fit_label(arc(100, 300, 0, 1), -5, 10) == ccrc::label_fit::none);
}
