#include <ccrc/algorithm/inclusive.hpp>
#include <ccrc/geometry/hit_test.hpp>
#include <ccrc/tree/cct.hpp>

#include "support/figure1.hpp"
#include "support/random.hpp"
#include "support/rings.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <optional>

namespace {

// The reference: every segment tested in turn.
std::optional<std::size_t> brute_force(const ccrc::ring_layout& chart, double x, double y) {
  double r = std::hypot(x - chart.center.x, y - chart.center.y);
  double a = ccrc::ring_angle(chart, x, y);
  std::optional<std::size_t> found;
  for (std::size_t i = 0; i < chart.segments.size(); ++i) {
    if (!ccrc::covers(chart.segments[i], r, a)) continue;
    CHECK_MESSAGE(!found, "two segments cover one point");
    found = i;
  }
  return found;
}

}  // namespace

TEST_CASE("ring_angle: radians clockwise from twelve o'clock, from the start angle on") {
  ccrc::ring_layout chart;
  chart.center = {100, 100};
  CHECK(ccrc::ring_angle(chart, 100, 50) == 0);
  CHECK(ccrc::ring_angle(chart, 150, 100) == doctest::Approx(std::numbers::pi / 2));
  CHECK(ccrc::ring_angle(chart, 100, 150) == doctest::Approx(std::numbers::pi));
  CHECK(ccrc::ring_angle(chart, 50, 100) == doctest::Approx(3 * std::numbers::pi / 2));
  chart.start_angle = 1;
  CHECK(ccrc::ring_angle(chart, 100, 50) == doctest::Approx(2 * std::numbers::pi));
  CHECK(ccrc::ring_angle(chart, 150, 100) == doctest::Approx(std::numbers::pi / 2));
  chart.start_angle = -10;  // any start: the angle lands in [start, start + 2π)
  double a = ccrc::ring_angle(chart, 150, 100);
  CHECK(a >= -10);
  CHECK(a < -10 + test::two_pi);
  CHECK(std::remainder(a - std::numbers::pi / 2, test::two_pi) == doctest::Approx(0));
}

TEST_CASE("hit_test on Figure 1: main in the center, f right of twelve o'clock, main's self share empty") {
  ccrc::profile p = test::figure1();
  auto ag = ccrc::inclusive(p.tree(), p.column("bytecodes"));
  auto v = ccrc::ring_chart_view(ccrc::tree_view(p.tree()), ag);
  ccrc::ring_layout chart = ccrc::ring_chart(v, ag, ccrc::on_canvas(1200, 1200));
  auto node_under = [&](double r, double a) -> std::string {
    auto pt = ccrc::ring_point(chart, r, a);
    auto i = ccrc::hit_test(chart, pt.x, pt.y);
    return i ? ccrc::path_string(p.tree(), chart.segments[*i].node) : "-";
  };
  CHECK(node_under(0, 0) == "main");
  CHECK(node_under(99, 4) == "main");
  CHECK(node_under(150, 0.1) == "main;f");          // ring 1: 100-200 px
  CHECK(node_under(150, 2.0) == "main;h");          // f ends at 1.727 rad
  CHECK(node_under(250, 0.1) == "main;f;g");        // ring 2
  CHECK(node_under(550, 0.05) == "main;f;g;g;h;i"); // ring 5, the deepest
  CHECK(node_under(150, 5.0) == "-");               // main's self share: nothing
  CHECK(node_under(601, 0.1) == "-");               // outside
  CHECK(!ccrc::hit_test(chart, std::nan(""), 3));
  CHECK(!ccrc::hit_test(ccrc::ring_layout{}, 0, 0));
}

TEST_CASE("hit_test agrees with a brute-force point-in-segment test on random points") {
  test::rng r{23};
  std::size_t hits = 0, points = 0;
  for (int round = 0; round < 24; ++round) {
    auto [p, ag] = test::random_input(r, 400, 15, 10);
    ccrc::ring_options o{.center = {400, 300},
                         .outer_radius = 280,
                         .center_radius = round % 4 == 0 ? 0.0 : -1.0,
                         .start_angle = round % 5 == 0 ? -2.5 : 0.0,
                         .min_arc_px = round % 2 == 0 ? 0.0 : 3.0,
                         .padding_px = round % 6 == 0 ? 1.0 : 0.0};
    ccrc::ring_layout chart = ccrc::ring_chart(ccrc::tree_view(p.tree()), ag, test::varied(round, o));
    for (int k = 0; k < 500; ++k, ++points) {
      double x = 80 + 640 * r.uniform(), y = -20 + 640 * r.uniform();
      auto expected = brute_force(chart, x, y);
      auto got = ccrc::hit_test(chart, x, y);
      REQUIRE(got == expected);
      hits += got.has_value();
    }
    // Points exactly on boundaries: ring radii and segment start angles.
    for (const auto& s : chart.segments) {
      for (double rr : {s.r0, s.r1, (s.r0 + s.r1) / 2})
        for (double aa : {s.a0, s.a1, (s.a0 + s.a1) / 2}) {
          auto pt = ccrc::ring_point(chart, rr, aa);
          REQUIRE(ccrc::hit_test(chart, pt.x, pt.y) == brute_force(chart, pt.x, pt.y));
          ++points;
        }
      if (points > 40'000) break;
    }
  }
  MESSAGE(points << " points, " << hits << " random hits");
  CHECK(hits > 1000);  // the test exercised real hits, not only misses
}


namespace {

// The reference for icicles: every segment tested in turn.
std::optional<std::size_t> brute_force(const ccrc::icicle_layout& chart, double x, double y) {
  std::optional<std::size_t> found;
  for (std::size_t i = 0; i < chart.segments.size(); ++i) {
    if (!ccrc::covers(chart.segments[i], x, y)) continue;
    CHECK_MESSAGE(!found, "two segments cover one point");
    found = i;
  }
  return found;
}

}  // namespace

TEST_CASE("hit_test on Figure 1's icicle: main's bar on top, f at the left, main's self share empty") {
  ccrc::profile p = test::figure1();
  auto ag = ccrc::inclusive(p.tree(), p.column("bytecodes"));
  auto v = ccrc::ring_chart_view(ccrc::tree_view(p.tree()), ag);
  // One pixel per bytecode, rows of 100 px from y = 50.
  ccrc::icicle_layout chart = ccrc::icicle_chart(v, ag, {.origin = {0, 50}, .width = 3238, .height = 600});
  auto node_under = [&](double x, double y) -> std::string {
    auto i = ccrc::hit_test(chart, x, y);
    return i ? ccrc::path_string(p.tree(), chart.segments[*i].node) : "-";
  };
  CHECK(node_under(3000, 60) == "main");
  CHECK(node_under(0, 50) == "main");         // the top-left corner belongs to the bar
  CHECK(node_under(100, 150) == "main;f");     // row 1: 150-250
  CHECK(node_under(889.9, 150) == "main;f");   // f ends at 890 ...
  CHECK(node_under(890, 150) == "main;h");     // ... where h starts
  CHECK(node_under(2000, 249.9) == "main;g");
  CHECK(node_under(40, 600) == "main;f;g;g;h;i");  // row 5, the deepest
  CHECK(node_under(2500, 150) == "-");         // main's self share: nothing
  CHECK(node_under(100, 650) == "-");          // below the chart
  CHECK(node_under(100, 49) == "-");           // above it
  CHECK(node_under(3238, 60) == "-");          // right of it
  CHECK(!ccrc::hit_test(chart, std::nan(""), 100));
  CHECK(!ccrc::hit_test(ccrc::icicle_layout{}, 0, 0));
  // A flame graph: the same boxes, rows upside down.
  ccrc::icicle_layout flame = ccrc::icicle_chart(v, ag, {.origin = {0, 50}, .width = 3238, .height = 600, .root_at_bottom = true});
  auto i = ccrc::hit_test(flame, 40, 60);
  REQUIRE(i);
  CHECK(ccrc::path_string(p.tree(), flame.segments[*i].node) == "main;f;g;g;h;i");
  i = ccrc::hit_test(flame, 3000, 640);
  REQUIRE(i);
  CHECK(*i == 0);
}

TEST_CASE("hit_test on icicles agrees with a brute-force point-in-box test on random points") {
  test::rng r{53};
  std::size_t hits = 0, points = 0;
  for (int round = 0; round < 24; ++round) {
    auto [p, ag] = test::random_input(r, 400, 15, 10);
    ccrc::ring_options varied = test::varied(round, {});
    ccrc::icicle_options o{.sizing = varied.sizing,
                           .order = varied.order,
                           .origin = {40, 30},
                           .width = 700,
                           .height = 500,
                           .max_row_px = round % 4 < 2 ? 12.0 : std::numeric_limits<double>::infinity(),
                           .root_at_bottom = round % 2 == 1,
                           .min_width_px = round % 3 == 0 ? 0.0 : 3.0,
                           .padding_px = round % 6 == 0 ? 1.0 : 0.0};
    ccrc::icicle_layout chart = ccrc::icicle_chart(ccrc::tree_view(p.tree()), ag, o);
    for (int k = 0; k < 500; ++k, ++points) {
      double x = 20 + 740 * r.uniform(), y = 10 + 540 * r.uniform();
      auto expected = brute_force(chart, x, y);
      REQUIRE(ccrc::hit_test(chart, x, y) == expected);
      hits += expected.has_value();
    }
    // Points exactly on edges.
    for (const auto& s : chart.segments) {
      for (double x : {s.x0, s.x1, (s.x0 + s.x1) / 2})
        for (double y : {s.y0, s.y1, (s.y0 + s.y1) / 2}) {
          REQUIRE(ccrc::hit_test(chart, x, y) == brute_force(chart, x, y));
          ++points;
        }
      if (points > 40'000) break;
    }
  }
  MESSAGE(points << " points, " << hits << " random hits");
  CHECK(hits > 1000);
}
