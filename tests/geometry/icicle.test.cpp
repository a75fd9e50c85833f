#include <ccrc/algorithm/depth.hpp>
#include <ccrc/algorithm/inclusive.hpp>
#include <ccrc/geometry/icicle.hpp>
#include <ccrc/geometry/ring_chart.hpp>
#include <ccrc/geometry/ring_index.hpp>

#include "support/chain.hpp"
#include "support/figure1.hpp"
#include "support/random.hpp"
#include "support/rings.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numbers>
#include <set>
#include <utility>

using ccrc::icicle_kind;
using doctest::Approx;

namespace {

template <class Layout>
concept has_row = requires(Layout&& l) { std::forward<Layout>(l).row(0); };

// Figure 1 on a chart 3238 px wide, one pixel per bytecode, with rows of 100 px.
struct figure1_icicle : test::figure1_view {
  ccrc::icicle_layout chart(ccrc::icicle_options o = {.width = 3238, .height = 600, .min_width_px = 0}) const {
    return ccrc::icicle_chart(view, ag, o);
  }
};

double width(const ccrc::icicle_segment& s) { return s.x1 - s.x0; }

// The x-span of a segment as [x0, x1).
std::pair<double, double> span(const ccrc::icicle_segment& s) { return {s.x0, s.x1}; }

}  // namespace

TEST_CASE("Figure 1 as an icicle: one pixel per bytecode, largest callee first, main's self share at the right") {
  figure1_icicle f;
  ccrc::icicle_layout chart = f.chart();
  test::check_invariants(f.p.tree(), chart);
  CHECK(chart.segments.size() == 18);
  CHECK(chart.count(icicle_kind::line) == 0);
  REQUIRE(chart.rows() == 5);
  CHECK(chart.row_height() == 100);
  auto s = test::by_path(f.p.tree(), chart);
  const ccrc::icicle_segment& main = chart.segments[0];
  CHECK(ccrc::path_string(f.p.tree(), main.node) == "main");
  CHECK(main.kind == icicle_kind::root);
  CHECK(span(main) == std::pair<double, double>{0, 3238});
  CHECK(main.y0 == 0);
  CHECK(main.y1 == 100);
  // The exact spans: each box's x0 is the sum of the values of its elder siblings and of its
  // callers' elder siblings; its width its ag (bytecodes).
  const std::map<std::string, std::pair<double, double>> expected = {
      {"main;f", {0, 890}},        {"main;h", {890, 1682}},         {"main;g", {1682, 2172}},
      {"main;f;g", {0, 490}},      {"main;f;h", {490, 710}},        {"main;h;i", {890, 1250}},
      {"main;g;g", {1682, 1882}},  {"main;g;h", {1882, 1992}},      {"main;f;g;g", {0, 200}},
      {"main;f;g;h", {200, 310}},  {"main;f;h;i", {490, 590}},      {"main;g;g;h", {1682, 1792}},
      {"main;g;h;i", {1882, 1932}}, {"main;f;g;g;h", {0, 110}},     {"main;f;g;h;i", {200, 250}},
      {"main;g;g;h;i", {1682, 1732}}, {"main;f;g;g;h;i", {0, 50}}};
  for (const auto& [path_text, x] : expected) {
    const std::string& path = path_text;  // clang 14 cannot capture a structured binding
    CAPTURE(path);
    REQUIRE(s.count(path) == 1);
    CHECK(s[path].kind == icicle_kind::box);
    CHECK(s[path].x0 == Approx(x.first));
    CHECK(s[path].x1 == Approx(x.second));
    double row = static_cast<double>(s[path].depth);
    CHECK(s[path].y0 == Approx(100 * row));
    CHECK(s[path].y1 == Approx(100 * row + 100));
  }
  CHECK(s["main;f;g;g;h;i"].depth == 5);
  CHECK(s["main;f;g;g;h;i"].y1 == 600);
  CHECK(chart.edges == std::vector<double>{0, 100, 200, 300, 400, 500, 600});
}

TEST_CASE("an icicle with the root at the bottom is a flame graph: the same spans, rows upside down") {
  figure1_icicle f;
  ccrc::icicle_layout down = f.chart();
  ccrc::icicle_layout up = f.chart({.origin = {10, 20}, .width = 3238, .height = 600, .root_at_bottom = true,
                                    .min_width_px = 0});
  test::check_invariants(f.p.tree(), up);
  REQUIRE(up.segments.size() == down.segments.size());
  for (std::size_t i = 0; i < up.segments.size(); ++i) {
    const auto& a = up.segments[i];
    const auto& b = down.segments[i];
    CHECK(a.node == b.node);
    CHECK(a.x0 == Approx(b.x0 + 10));
    CHECK(a.x1 == Approx(b.x1 + 10));
    CHECK(a.y0 == Approx(20 + 500 - 100 * static_cast<double>(a.depth)));
    CHECK(a.y1 == Approx(a.y0 + 100));
  }
  CHECK(up.segments[0].y1 == 620);  // main's bar at the bottom
}

TEST_CASE("max_row_px: rows no higher than asked, stacked from the root's edge") {
  figure1_icicle f;
  ccrc::icicle_layout capped = f.chart({.origin = {0, 10}, .width = 3238, .height = 600, .max_row_px = 30,
                                        .min_width_px = 0});
  test::check_invariants(f.p.tree(), capped);
  CHECK(capped.edges == std::vector<double>{10, 40, 70, 100, 130, 160, 190});
  CHECK(capped.row_height() == 30);
  ccrc::icicle_layout flame = f.chart({.origin = {0, 10}, .width = 3238, .height = 600, .max_row_px = 30,
                                       .root_at_bottom = true, .min_width_px = 0});
  test::check_invariants(f.p.tree(), flame);
  CHECK(flame.edges == std::vector<double>{430, 460, 490, 520, 550, 580, 610});
  CHECK(flame.segments[0].y0 == 580);
  CHECK(flame.segments[0].y1 == 610);
  // A bound above the share, or none (0, NaN), leaves the rows filling the height.
  for (double bound : {200.0, 0.0, std::nan("")}) {
    ccrc::icicle_layout filled = f.chart({.width = 3238, .height = 600, .max_row_px = bound, .min_width_px = 0});
    CHECK(filled.edges == std::vector<double>{0, 100, 200, 300, 400, 500, 600});
  }
}

TEST_CASE("icicle sizing: equal thirds, and area laid out as angle") {
  figure1_icicle f;
  ccrc::icicle_layout equal = f.chart({.sizing = ccrc::ring_sizing::equal, .width = 900, .height = 600, .min_width_px = 0});
  test::check_invariants(f.p.tree(), equal);
  auto s = test::by_path(f.p.tree(), equal);
  for (const char* callee : {"main;f", "main;g", "main;h"}) CHECK(width(s[callee]) == Approx(300));
  CHECK(s["main;g"].x1 == 900);  // the last child ends where its parent does
  CHECK(width(s["main;f;g"]) == Approx(150));
  CHECK(width(s["main;h;i"]) == width(s["main;h"]));
  ccrc::icicle_layout area = f.chart({.sizing = ccrc::ring_sizing::area, .width = 3238, .height = 600, .min_width_px = 0});
  ccrc::icicle_layout angle = f.chart();
  REQUIRE(area.segments.size() == angle.segments.size());
  for (std::size_t i = 0; i < area.segments.size(); ++i) {
    CHECK(area.segments[i].x0 == angle.segments[i].x0);
    CHECK(area.segments[i].x1 == angle.segments[i].x1);
    CHECK(area.segments[i].y0 == angle.segments[i].y0);
  }
}

TEST_CASE("icicle culling: a box narrower than min_width_px becomes a line, its callees left out") {
  figure1_icicle f;
  const ccrc::call_tree& t = f.p.tree();
  // 1000 px wide: f 274.9 px, h 244.6, g 151.3; f's callees g 151.3 and h 67.9, h's i 111.2.
  ccrc::icicle_layout chart = f.chart({.width = 1000, .height = 600, .min_width_px = 200, .fit_visible = false});
  test::check_invariants(t, chart);
  auto s = test::by_path(t, chart);
  CHECK(chart.segments.size() == 6);
  CHECK(s["main;f"].kind == icicle_kind::box);
  CHECK(s["main;h"].kind == icicle_kind::box);
  CHECK(s["main;g"].kind == icicle_kind::line);
  CHECK(s["main;g"].contexts == 1);
  CHECK(s["main;h;i"].kind == icicle_kind::line);
  // f's callees together are 219.3 px: one line for the two.
  CHECK(s["main;f;g"].kind == icicle_kind::line);
  CHECK(s["main;f;g"].contexts == 2);
  CHECK(s.count("main;f;h") == 0);
  CHECK(s["main;f;g"].x1 == Approx(1000.0 * 710 / 3238));
  CHECK(chart.rows() == 5);
  // Fitted: no box below row 1, so one row of 300 px, the lines of row 2 gone with it.
  ccrc::icicle_layout fitted = f.chart({.width = 1000, .height = 600, .min_width_px = 200});
  test::check_invariants(t, fitted);
  CHECK(fitted.rows() == 1);
  CHECK(fitted.segments.size() == 4);
  CHECK(fitted.edges == std::vector<double>{0, 300, 600});
  // Nothing wide enough: one row of one line for main's three callees.
  ccrc::icicle_layout none = f.chart({.width = 1000, .height = 600, .min_width_px = 1e9});
  CHECK(none.rows() == 1);
  REQUIRE(none.segments.size() == 2);
  CHECK(none.segments[1].kind == icicle_kind::line);
  CHECK(none.segments[1].contexts == 3);
  CHECK(none.segments[1].x1 == Approx(1000.0 * 2172 / 3238));
  // row() is a view into the layout: refused on a temporary one.
  static_assert(has_row<const ccrc::icicle_layout&>);
  static_assert(!has_row<ccrc::icicle_layout>);
}

TEST_CASE("icicle culling merges adjacent narrow siblings into one line per min_width_px") {
  // 1000 callees of 1 and one of 1000 on 1999 px: each small callee is 0.9995 px wide.
  ccrc::profile p = test::thin_callees();
  auto ag = ccrc::inclusive(p.tree(), p.column(0));
  auto v = ccrc::ring_chart_view(ccrc::tree_view(p.tree()), ag);
  ccrc::icicle_layout chart = ccrc::icicle_chart(v, ag, {.width = 1999, .height = 40});
  test::check_invariants(p.tree(), chart);
  auto row = chart.row(1);
  CHECK(row[0].kind == icicle_kind::box);
  CHECK(p.tree().name(row[0].node) == "big");
  std::size_t contexts = 0;
  for (std::size_t k = 1; k < row.size(); ++k) {
    CHECK(row[k].kind == icicle_kind::line);
    contexts += row[k].contexts;
    if (k + 1 < row.size()) CHECK(row[k].contexts == 2);  // two of them make a pixel
  }
  CHECK(contexts == 1000);
  CHECK(row.size() == 501);
  // 10 px: 11 callees a line, 91 lines.
  chart = ccrc::icicle_chart(v, ag, {.width = 1999, .height = 40, .min_width_px = 10});
  CHECK(chart.row(1).size() == 92);
  CHECK(chart.row(1)[1].contexts == 11);
}

TEST_CASE("the icicle's x-partition is the ring chart's angle partition, scaled") {
  // With every ring's radius the outer radius R, an arc's length is R times its angle: what a
  // box's width is on a chart 2πR wide. The one partition then culls, pads and fits alike.
  test::rng r{47};
  std::size_t lines = 0, boxes = 0, folded = 0;
  for (int round = 0; round < 90; ++round) {
    auto [p, ag] = test::random_input(r, 300, 12, 10);
    const double radius = 50 + 10.0 * r.below(30), start = round % 5 == 0 ? -1.25 : 0.0;
    const double min_px = round % 3 == 0 ? 0.0 : 1.0 + r.below(20), padding = round % 4 == 0 ? 1.5 : 0.0;
    const bool fit = round % 2 == 0;
    const double chains = round % 3 == 1 ? 0.6 : 0.0;  // folding chains of callees holding 60 %
    ccrc::ring_options ro = test::varied(round, {.outer_radius = radius, .center_radius = radius, .start_angle = start,
                                                 .min_arc_px = min_px, .padding_px = padding, .fit_visible = fit,
                                                 .chain_share = chains});
    const double w = 2 * std::numbers::pi * radius;
    ccrc::icicle_options io{.sizing = ro.sizing, .order = ro.order, .origin = {7, 3}, .width = w, .height = 500,
                            .min_width_px = min_px, .padding_px = padding, .fit_visible = fit, .chain_share = chains};
    ccrc::tree_view v(p.tree(), ccrc::root_node, round % 7 == 0 ? 4 : ccrc::unlimited_depth);
    ccrc::ring_layout ring = ccrc::ring_chart(v, ag, ro);
    ccrc::icicle_layout icicle = ccrc::icicle_chart(v, ag, io);
    test::check_invariants(p.tree(), icicle);
    CHECK(icicle.rows() == ring.rings());
    REQUIRE(icicle.segments.size() == ring.segments.size());
    CHECK(icicle.row_begin == ring.ring_begin);
    for (std::size_t i = 0; i < ring.segments.size(); ++i) {
      const ccrc::ring_segment& a = ring.segments[i];
      const ccrc::icicle_segment& b = icicle.segments[i];
      CHECK(b.node == a.node);
      CHECK(b.depth == a.depth);
      CHECK(b.parent == a.parent);
      CHECK(b.contexts == a.contexts);
      CHECK(b.last == a.last);
      folded += a.kind != ccrc::segment_kind::line && a.contexts > 1;
      CHECK(static_cast<int>(b.kind) == static_cast<int>(a.kind));  // root, box, line: center, arc, line
      CHECK(b.x0 - 7 == Approx((a.a0 - start) * radius).epsilon(1e-9).scale(w));
      CHECK(b.x1 - 7 == Approx((a.a1 - start) * radius).epsilon(1e-9).scale(w));
      lines += b.kind == icicle_kind::line;
      boxes += b.kind == icicle_kind::box;
    }
  }
  MESSAGE(boxes << " boxes, " << lines << " lines, " << folded << " chains compared");
  CHECK(lines > 500);  // culling was exercised
  CHECK(folded > 20);  // and chains
}

TEST_CASE("icicle culling agrees with the uncut icicle on random trees") {
  test::rng r{13};
  for (int round = 0; round < 45; ++round) {
    auto [p, ag] = test::random_input(r, 300, 12, 9);
    ccrc::ring_options varied = test::varied(round, {});
    ccrc::icicle_options o{.sizing = varied.sizing, .order = varied.order, .width = 1200, .height = 400,
                           .min_width_px = 0, .fit_visible = false};
    ccrc::tree_view v(p.tree());
    ccrc::icicle_layout full = ccrc::icicle_chart(v, ag, o);
    const double threshold = 1.0 + r.below(40), close = threshold * (1 + 1e-9);
    o.min_width_px = threshold;
    ccrc::icicle_layout cut = ccrc::icicle_chart(v, ag, o);
    test::check_invariants(p.tree(), cut);
    std::map<ccrc::node_id, std::size_t> in_full;
    for (std::size_t i = 0; i < full.segments.size(); ++i) in_full[full.segments[i].node] = i;
    for (std::size_t i = 1; i < cut.segments.size(); ++i) {
      const auto& c = cut.segments[i];
      REQUIRE(in_full.count(c.node));
      std::size_t first = in_full[c.node], last = first + c.contexts - 1;
      REQUIRE(last < full.segments.size());
      CHECK(c.x0 == full.segments[first].x0);
      CHECK(c.x1 == full.segments[last].x1);
      CHECK(c.y0 == full.segments[first].y0);
      if (c.kind == icicle_kind::box) {
        CHECK(width(c) * (1 + 1e-9) >= threshold);
      } else {
        for (std::size_t k = first; k <= last; ++k) CHECK(width(full.segments[k]) < close);
        if (c.contexts > 1) CHECK(full.segments[last - 1].x1 - c.x0 < close);  // a run ends once long enough
      }
    }
  }
}

TEST_CASE("a fitted icicle is the icicle of the view cut at its rows") {
  test::rng r{31};
  int fewer = 0;
  for (int round = 0; round < 30; ++round) {
    auto [p, ag] = test::random_input(r, 400, 12, 12);
    ccrc::tree_view v(p.tree());
    ccrc::icicle_options o{.width = 100 + 20.0 * r.below(30), .height = 300, .min_width_px = 1.0 + r.below(8)};
    ccrc::icicle_layout fitted = ccrc::icicle_chart(v, ag, o);
    test::check_invariants(p.tree(), fitted);
    std::uint32_t height = ccrc::heights(p.tree())[0];
    fewer += fitted.rows() < height;
    o.fit_visible = false;
    ccrc::icicle_layout cut = ccrc::icicle_chart(v.limit_depth(static_cast<std::uint32_t>(fitted.rows())), ag, o);
    CHECK(cut.edges == fitted.edges);
    REQUIRE(cut.segments.size() == fitted.segments.size());
    for (std::size_t i = 0; i < cut.segments.size(); ++i) {
      CHECK(cut.segments[i].node == fitted.segments[i].node);
      CHECK(cut.segments[i].kind == fitted.segments[i].kind);
      CHECK(cut.segments[i].x1 == fitted.segments[i].x1);
      CHECK(cut.segments[i].y1 == fitted.segments[i].y1);
    }
    // The deepest row holds a box, unless there is only one.
    if (fitted.rows() > 1) {
      auto row = fitted.row(fitted.rows());
      CHECK(std::any_of(row.begin(), row.end(), [](const auto& s) { return s.kind == icicle_kind::box; }));
    }
  }
  CHECK(fewer >= 5);
}

TEST_CASE("icicle: child order, padding, and the same chart with an index or heights") {
  ccrc::profile p = test::stacks({{"main;b", 2}, {"main;a", 1}, {"main;c", 3}, {"main;d", 2}});
  auto ag = ccrc::inclusive(p.tree(), p.column(0));
  auto v = ccrc::ring_chart_view(ccrc::tree_view(p.tree()), ag);
  auto order = [&](ccrc::child_order o) {
    std::string names;
    ccrc::icicle_layout chart = ccrc::icicle_chart(v, ag, {.order = o});
    for (const auto& s : chart.row(1)) names += p.tree().name(s.node);
    return names;
  };
  CHECK(order(ccrc::child_order::value) == "cbda");
  CHECK(order(ccrc::child_order::name) == "abcd");
  CHECK(order(ccrc::child_order::insertion) == "bacd");

  figure1_icicle f;
  ccrc::icicle_layout padded = f.chart({.sizing = ccrc::ring_sizing::equal, .width = 900, .height = 600,
                                        .min_width_px = 0, .padding_px = 10});
  test::check_invariants(f.p.tree(), padded);
  auto s = test::by_path(f.p.tree(), padded);
  CHECK(s["main;f"].x0 == 0);
  CHECK(s["main;f"].x1 == Approx(295));
  CHECK(s["main;h"].x0 == Approx(305));
  CHECK(s["main;g"].x1 == 900);
  CHECK(span(s["main;h;i"]) == span(s["main;h"]));  // an only child keeps its parent's span

  ccrc::ring_index index(f.p.tree(), f.ag);
  auto h = ccrc::heights(f.p.tree());
  for (double min_px : {0.0, 1.0, 40.0, 300.0}) {
    ccrc::icicle_layout plain = f.chart({.width = 1000, .height = 500, .min_width_px = min_px});
    ccrc::icicle_layout indexed = f.chart({.width = 1000, .height = 500, .min_width_px = min_px, .index = &index});
    ccrc::icicle_layout read = f.chart({.width = 1000, .height = 500, .min_width_px = min_px, .heights = h});
    for (const auto* other : {&indexed, &read}) {
      REQUIRE(other->segments.size() == plain.segments.size());
      CHECK(other->edges == plain.edges);
      for (std::size_t i = 0; i < plain.segments.size(); ++i) {
        CHECK(other->segments[i].node == plain.segments[i].node);
        CHECK(other->segments[i].x1 == plain.segments[i].x1);
        CHECK(other->segments[i].contexts == plain.segments[i].contexts);
      }
    }
  }
}

TEST_CASE("icicle: zero, negative, NaN and infinite values and options: no NaN or infinity anywhere") {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  test::rng r{7};
  const double odd[] = {0, -7, nan, inf, -inf, 3, 1e300, 1e-300, 12};
  for (int round = 0; round < 30; ++round) {
    ccrc::profile p = test::profile_of(test::random_samples(r, 200, 8, 7, 1), 1);
    std::vector<double> values(p.size());
    for (auto& x : values) x = odd[r.below(9)];
    std::vector<double> ag = round % 2 == 0 ? ccrc::inclusive(p.tree(), values) : values;
    for (auto sizing : {ccrc::ring_sizing::equal, ccrc::ring_sizing::angle}) {
      ccrc::icicle_layout chart =
          ccrc::icicle_chart(ccrc::tree_view(p.tree()), ag, {.sizing = sizing, .width = 800, .height = 300, .min_width_px = 0});
      test::check_invariants(p.tree(), chart);
      for (const auto& s : chart.segments) {
        if (s.kind == icicle_kind::root || sizing == ccrc::ring_sizing::equal) continue;
        double x = ag[s.node];
        if (!(std::isfinite(x) && x > 0) && s.contexts == 1) {
          CHECK(s.x0 == s.x1);
          CHECK(s.kind == icicle_kind::line);
        }
      }
    }
  }
  figure1_icicle f;
  ccrc::icicle_layout odd_options = ccrc::icicle_chart(
      f.view, f.ag, {.origin = {nan, -inf}, .width = inf, .height = -5, .min_width_px = nan, .padding_px = nan});
  test::check_invariants(f.p.tree(), odd_options);
  CHECK(odd_options.x0 == 0);
  CHECK(odd_options.x1 == 0);
  CHECK(odd_options.edges.back() == 0);
}

TEST_CASE("icicle: a single node, and a view cut to its root, is the root's bar alone") {
  ccrc::call_tree t;
  std::vector<double> ag{5};
  ccrc::icicle_layout chart = ccrc::icicle_chart(ccrc::tree_view(t), ag, {.width = 50, .height = 20});
  test::check_invariants(t, chart);
  CHECK(chart.segments.size() == 1);
  CHECK(chart.rows() == 0);
  CHECK(chart.edges == std::vector<double>{0, 20});
  CHECK(chart.row(1).empty());
  figure1_icicle f;
  chart = ccrc::icicle_chart(ccrc::tree_view(f.p.tree(), ccrc::root_node, 0), f.ag);
  CHECK(chart.segments.size() == 1);
  CHECK(chart.segments[0].node == ccrc::root_node);
}

TEST_CASE("icicle beyond_edge: the last row's boxes whose contexts have callees") {
  figure1_icicle f;
  auto v = ccrc::ring_chart_view(ccrc::tree_view(f.p.tree(), ccrc::root_node, 3), f.ag);  // main and two rows
  ccrc::icicle_layout chart = ccrc::icicle_chart(v, f.ag, {.width = 3238, .height = 300});
  REQUIRE(chart.rows() == 2);
  std::set<std::string> beyond;
  for (const auto& s : chart.segments)
    if (ccrc::beyond_edge(chart, f.p.tree(), s)) beyond.insert(ccrc::path_string(f.p.tree(), s.node));
  CHECK(beyond == std::set<std::string>{"main;f;g", "main;f;h", "main;g;g", "main;g;h"});  // main;h;i is a leaf
}

TEST_CASE("icicle of a 1,000,000-deep chain: no recursion, every row a box") {
  test::calls_cct chain = test::call_chain(1'000'000, {"f"});
  const ccrc::call_tree& t = chain.tree();
  ccrc::node_id n = static_cast<ccrc::node_id>(t.size() - 1);  // the leaf
  std::vector<double> ag(t.size(), 1.0);
  ccrc::icicle_layout chart = ccrc::icicle_chart(ccrc::tree_view(t), ag, {.width = 1000, .height = 1000});
  CHECK(chart.rows() == 1'000'000);
  REQUIRE(chart.segments.size() == 1'000'001);
  CHECK(chart.count(icicle_kind::box) == 1'000'000);
  CHECK(chart.segments.back().node == n);
  CHECK(chart.segments.back().x1 == 1000);
  CHECK(chart.segments.back().y1 == 1000);
  CHECK(chart.segments.back().y0 == Approx(1000 - 1000.0 / 1'000'001));
  // Cut at 100 levels, with heights: the same first rows, taller.
  chart = ccrc::icicle_chart(ccrc::tree_view(t, ccrc::root_node, 100), ag,
                             {.width = 1000, .height = 1010, .root_at_bottom = true, .heights = ccrc::heights(t)});
  CHECK(chart.rows() == 100);
  CHECK(chart.segments.back().y0 == 0);
  CHECK(chart.segments.back().y1 == Approx(10));
}
