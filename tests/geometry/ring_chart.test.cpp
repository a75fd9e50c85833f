#include <ccrc/algorithm/depth.hpp>
#include <ccrc/algorithm/inclusive.hpp>
#include <ccrc/geometry/ring_chart.hpp>

#include "support/figure1.hpp"
#include "support/random.hpp"
#include "support/rings.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <map>
#include <set>
#include <utility>

using ccrc::segment_kind;
using doctest::Approx;

namespace {

template <class Layout>
concept has_ring = requires(Layout&& l) { std::forward<Layout>(l).ring(0); };

struct figure1_chart : test::figure1_view {
  ccrc::ring_layout chart(ccrc::ring_options o = {.outer_radius = 600, .min_arc_px = 0}) const {
    return ccrc::ring_chart(view, ag, o);
  }
};

double span(const ccrc::ring_segment& s) { return s.a1 - s.a0; }
double area(const ccrc::ring_segment& s) { return span(s) / 2 * (s.r1 * s.r1 - s.r0 * s.r0); }

// (path, ring) pairs of a chart.
std::set<std::pair<std::string, std::uint32_t>> path_set(const ccrc::call_tree& t, const ccrc::ring_layout& chart) {
  std::set<std::pair<std::string, std::uint32_t>> out;
  for (const auto& s : chart.segments) out.emplace(ccrc::path_string(t, s.node), s.depth);
  return out;
}

}  // namespace

TEST_CASE("ring_chart_view: a folded file of one program is centered on main") {
  figure1_chart f;
  const ccrc::call_tree& t = f.p.tree();
  ccrc::node_id main = ccrc::node_at_path(t, "main");
  CHECK(f.view.root() == main);
  CHECK(f.view.max_depth() == ccrc::unlimited_depth);
  // The depth limit keeps counting levels below the synthetic root: 3 levels = main + 2 rings.
  auto limited = ccrc::ring_chart_view(ccrc::tree_view(t, ccrc::root_node, 3), f.ag);
  CHECK(limited.root() == main);
  CHECK(limited.max_depth() == 2);
  // Depth 0 shows the synthetic root alone; a view rooted elsewhere is left as it is.
  CHECK(ccrc::ring_chart_view(ccrc::tree_view(t, ccrc::root_node, 0), f.ag).root() == ccrc::root_node);
  ccrc::node_id node_f = ccrc::node_at_path(t, "main;f");
  CHECK(ccrc::ring_chart_view(ccrc::tree_view(t, node_f), f.ag).root() == node_f);
  // The root has a value of its own: it is a context of its own, it stays in the center.
  std::vector<double> ag = f.ag;
  ag[ccrc::root_node] += 1;
  CHECK(ccrc::ring_chart_view(ccrc::tree_view(t), ag).root() == ccrc::root_node);
  // Two top-level frames: the synthetic root is the center.
  ccrc::profile two = test::stacks({{"main", 1}, {"thread", 2}});
  auto ag2 = ccrc::inclusive(two.tree(), two.column(0));
  CHECK(ccrc::ring_chart_view(ccrc::tree_view(two.tree()), ag2).root() == ccrc::root_node);
  // An empty profile: nothing to skip to.
  ccrc::profile empty;
  std::vector<double> zero(1, 0.0);
  CHECK(ccrc::ring_chart_view(ccrc::tree_view(empty.tree()), zero).root() == ccrc::root_node);
}

TEST_CASE("Figure 3(b), mode (2): f, g, h cover 890, 490 and 792 of 3238, in rings of constant width") {
  figure1_chart f;
  ccrc::ring_layout chart = f.chart();
  test::check_invariants(f.p.tree(), chart);
  auto s = test::by_path(f.p.tree(), chart);
  CHECK(chart.segments.size() == 18);
  CHECK(chart.count(segment_kind::line) == 0);
  // main is the full circle in the center.
  const auto& main = chart.segments[0];
  CHECK(main.node == ccrc::node_at_path(f.p.tree(), "main"));
  CHECK(main.a0 == 0);
  CHECK(main.a1 == Approx(test::two_pi));
  // Largest first, clockwise from twelve o'clock: f, h, g.
  CHECK(span(s["main;f"]) / test::two_pi == Approx(890.0 / 3238));
  CHECK(span(s["main;g"]) / test::two_pi == Approx(490.0 / 3238));
  CHECK(span(s["main;h"]) / test::two_pi == Approx(792.0 / 3238));
  CHECK(s["main;f"].a0 == 0);
  CHECK(s["main;h"].a0 == s["main;f"].a1);
  CHECK(s["main;g"].a0 == s["main;h"].a1);
  // About 67 % covered; the rest is main's self share.
  CHECK(s["main;g"].a1 / test::two_pi == Approx(2172.0 / 3238));
  CHECK(s["main;g"].a1 / test::two_pi == Approx(0.67).epsilon(0.01));
  // Deeper: main;f;g takes 490 / 890 of f's angle, main;h;i 360 / 792 of h's.
  CHECK(span(s["main;f;g"]) / span(s["main;f"]) == Approx(490.0 / 890));
  CHECK(span(s["main;h;i"]) / span(s["main;h"]) == Approx(360.0 / 792));
  // Five rings around main (main;f;g;g;h;i is 5 below it), each 100 px wide: 600 / 6.
  REQUIRE(chart.rings() == 5);
  for (std::size_t d = 0; d <= 5; ++d) CHECK(chart.radii[d] == Approx(100.0 * static_cast<double>(d + 1)));
  CHECK(chart.radii.back() == 600);
  CHECK(s["main;f;g;g;h;i"].depth == 5);
  CHECK(s["main;f;g;g;h;i"].r0 == Approx(500));
  CHECK(s["main;f;g;g;h;i"].r1 == 600);
}

TEST_CASE("Figure 3(a), mode (1): the callees of main each cover exactly a third") {
  figure1_chart f;
  ccrc::ring_layout chart = f.chart({.sizing = ccrc::ring_sizing::equal, .outer_radius = 600, .min_arc_px = 0});
  test::check_invariants(f.p.tree(), chart);
  auto s = test::by_path(f.p.tree(), chart);
  for (const char* callee : {"main;f", "main;g", "main;h"}) CHECK(span(s[callee]) == Approx(test::two_pi / 3));
  CHECK(s["main;g"].a1 == chart.segments[0].a1);  // the last child ends where its parent does
  // Children surround their parent completely: f's two callees share its third.
  CHECK(span(s["main;f;g"]) == Approx(test::two_pi / 6));
  CHECK(span(s["main;f;h"]) == Approx(test::two_pi / 6));
  CHECK(span(s["main;h;i"]) == span(s["main;h"]));
  for (std::size_t d = 1; d <= chart.rings(); ++d)
    CHECK(chart.radii[d] - chart.radii[d - 1] == Approx(100));
}

TEST_CASE("Figure 3(c), mode (3): every ring has the same area, and equal ag(M) means equal area at any depth") {
  figure1_chart f;
  ccrc::ring_layout chart = f.chart({.sizing = ccrc::ring_sizing::area, .outer_radius = 600, .min_arc_px = 0});
  ccrc::ring_layout angles = f.chart();
  test::check_invariants(f.p.tree(), chart);
  auto s = test::by_path(f.p.tree(), chart);
  // K = π 600^2 / 6: the center is sized like a ring too.
  double k = std::numbers::pi * 600 * 600 / 6;
  CHECK(std::numbers::pi * chart.radii[0] * chart.radii[0] == Approx(k));
  for (std::size_t d = 1; d <= chart.rings(); ++d)
    CHECK(std::numbers::pi * (chart.radii[d] * chart.radii[d] - chart.radii[d - 1] * chart.radii[d - 1]) == Approx(k));
  CHECK(chart.radii.back() == 600);
  // main;g and main;f;g both have ag 490; main;g;h, main;g;g;h and main;f;g;g;h have 110.
  CHECK(area(s["main;g"]) == Approx(area(s["main;f;g"])));
  CHECK(area(s["main;g;h"]) == Approx(area(s["main;g;g;h"])));
  CHECK(area(s["main;g;h"]) == Approx(area(s["main;f;g;g;h"])));
  CHECK(area(s["main;g"]) == Approx(k * 490 / 3238));
  // The angles are mode (2)'s.
  for (std::size_t i = 0; i < chart.segments.size(); ++i) {
    CHECK(chart.segments[i].a0 == angles.segments[i].a0);
    CHECK(chart.segments[i].a1 == angles.segments[i].a1);
  }
}

TEST_CASE("Figure 4(a): subtree selection, f in the center") {
  figure1_chart f;
  const ccrc::call_tree& t = f.p.tree();
  ccrc::tree_view v(t, ccrc::node_at_path(t, "main;f"));
  ccrc::ring_layout chart = ccrc::ring_chart(v, f.ag, {.outer_radius = 300});
  test::check_invariants(t, chart);
  std::set<std::pair<std::string, std::uint32_t>> expected = {
      {"main;f", 0},     {"main;f;g", 1},     {"main;f;h", 1},       {"main;f;g;h", 2},       {"main;f;g;g", 2},
      {"main;f;h;i", 2}, {"main;f;g;h;i", 3}, {"main;f;g;g;h", 3},   {"main;f;g;g;h;i", 4}};
  CHECK(path_set(t, chart) == expected);
  CHECK(chart.rings() == 4);
  // ag is the complete tree's: f is the full circle, g takes 490 / 890 of it.
  auto s = test::by_path(t, chart);
  CHECK(span(s["main;f;g"]) / test::two_pi == Approx(490.0 / 890));
}

TEST_CASE("Figure 4(b): the depth limited to 3 levels, main in the center") {
  figure1_chart f;
  const ccrc::call_tree& t = f.p.tree();
  auto v = ccrc::ring_chart_view(ccrc::tree_view(t, ccrc::root_node, 3), f.ag);
  ccrc::ring_layout chart = ccrc::ring_chart(v, f.ag, {.outer_radius = 300});
  test::check_invariants(t, chart);
  std::set<std::pair<std::string, std::uint32_t>> expected = {
      {"main", 0},     {"main;f", 1},   {"main;g", 1},   {"main;h", 1},  {"main;f;g", 2},
      {"main;f;h", 2}, {"main;g;h", 2}, {"main;g;g", 2}, {"main;h;i", 2}};
  CHECK(path_set(t, chart) == expected);
  // Two rings fill the radius: the remaining layers get wider rings.
  REQUIRE(chart.rings() == 2);
  CHECK(chart.radii[0] == Approx(100));
  CHECK(chart.radii[1] == Approx(200));
  CHECK(chart.radii[2] == 300);
  // Aggregated values are not recomputed: main;f;g still covers 490 / 3238 of the circle.
  auto s = test::by_path(t, chart);
  CHECK(span(s["main;f;g"]) / test::two_pi == Approx(490.0 / 3238));
}

TEST_CASE("culling: a segment under the threshold becomes a line and none of its descendants appear") {
  figure1_chart f;
  const ccrc::call_tree& t = f.p.tree();
  // Ring 1 ends at 200 px: f's arc is 345 px, h's 307, g's 190; ring 2 ends at 300 px.
  ccrc::ring_layout chart = f.chart({.outer_radius = 600, .min_arc_px = 300, .fit_visible = false});
  test::check_invariants(t, chart);
  auto s = test::by_path(t, chart);
  CHECK(chart.segments.size() == 6);
  CHECK(s["main;f"].kind == segment_kind::arc);
  CHECK(s["main;h"].kind == segment_kind::arc);
  CHECK(s["main;g"].kind == segment_kind::line);
  CHECK(s["main;g"].contexts == 1);
  CHECK(s["main;h;i"].kind == segment_kind::line);
  // f's callees g (285 px) and h (128 px) are both too short: one line, 413 px, for the two.
  CHECK(s["main;f;g"].kind == segment_kind::line);
  CHECK(s["main;f;g"].contexts == 2);
  CHECK(s.count("main;f;h") == 0);
  CHECK(s["main;f;g"].a0 == s["main;f"].a0);
  CHECK(s["main;f;g"].a1 == Approx(s["main;f"].a0 + test::two_pi * 710 / 3238));
  CHECK(s.count("main;g;h") == 0);
  CHECK(s.count("main;f;g;h") == 0);
  // A line keeps its place and its span; the rings do not change with culling.
  CHECK(span(s["main;g"]) / test::two_pi == Approx(490.0 / 3238));
  CHECK(chart.rings() == 5);
  // Culling everything but the center: a threshold longer than any arc; one line for the three.
  ccrc::ring_layout none = f.chart({.outer_radius = 600, .min_arc_px = 1e9, .fit_visible = false});
  CHECK(none.segments.size() == 2);
  CHECK(none.segments[1].kind == segment_kind::line);
  CHECK(none.segments[1].contexts == 3);
  CHECK(none.segments[1].a1 == Approx(test::two_pi * 2172 / 3238));
}

TEST_CASE("fitting the rings: when culling empties the outer rings, the shown ones fill the radius") {
  figure1_chart f;
  const ccrc::call_tree& t = f.p.tree();
  // Five rings leave no arc beyond ring 1 at 300 px, three none in ring 3; two rings of 200 px
  // are the most whose outer ring holds an arc.
  ccrc::ring_layout chart = f.chart({.outer_radius = 600, .min_arc_px = 300});
  test::check_invariants(t, chart);
  REQUIRE(chart.rings() == 2);
  CHECK(chart.radii == std::vector<double>{200, 400, 600});
  auto s = test::by_path(t, chart);
  for (const char* arc : {"main;f", "main;g", "main;h", "main;f;g", "main;h;i"}) CHECK(s[arc].kind == segment_kind::arc);
  for (const char* line : {"main;f;h", "main;g;g"}) CHECK(s[line].kind == segment_kind::line);
  CHECK(s["main;g;g"].contexts == 2);  // 233 px, and main;g;h's 128 px
  CHECK(chart.ring(2).size() == 4);
  CHECK(chart.segments.size() == 8);
  // ring() is a view into the layout: refused on a temporary one, which would leave it dangling.
  static_assert(has_ring<const ccrc::ring_layout&>);
  static_assert(!has_ring<ccrc::ring_layout>);
  // Nothing visible at all: one ring of lines.
  ccrc::ring_layout none = f.chart({.outer_radius = 600, .min_arc_px = 1e9});
  CHECK(none.rings() == 1);
  CHECK(none.segments.size() == 2);
  // A fitted chart is the chart of the view cut at its rings.
  test::rng r{29};
  int fewer = 0;
  for (int round = 0; round < 30; ++round) {
    auto [p, ag] = test::random_input(r, 400, 12, 12);
    ccrc::tree_view v(p.tree());
    ccrc::ring_options o{.sizing = static_cast<ccrc::ring_sizing>(round % 3),
                         .outer_radius = 50 + 10.0 * r.below(30),
                         .center_radius = round % 2 == 0 ? -1.0 : 10.0,
                         .min_arc_px = 1.0 + r.below(5)};
    ccrc::ring_layout fitted = ccrc::ring_chart(v, ag, o);
    test::check_invariants(p.tree(), fitted);
    auto deepest_arc = [](const ccrc::ring_layout& c) {
      std::size_t d = 0;
      for (const auto& seg : c.segments)
        if (seg.kind != segment_kind::line) d = seg.depth;
      return d;
    };
    if (fitted.rings() > 1) CHECK(deepest_arc(fitted) == fitted.rings());  // the deepest ring holds an arc
    o.fit_visible = false;
    if (fitted.rings() < ccrc::heights(p.tree())[0]) {  // and with one more ring it would not
      auto more = ccrc::ring_chart(v.limit_depth(static_cast<std::uint32_t>(fitted.rings() + 1)), ag, o);
      CHECK(deepest_arc(more) < more.rings());
    }
    fewer += fitted.rings() < ccrc::heights(p.tree())[0];
    ccrc::ring_layout cut = ccrc::ring_chart(v.limit_depth(static_cast<std::uint32_t>(fitted.rings())), ag, o);
    CHECK(cut.radii == fitted.radii);
    REQUIRE(cut.segments.size() == fitted.segments.size());
    for (std::size_t i = 0; i < cut.segments.size(); ++i) {
      CHECK(cut.segments[i].node == fitted.segments[i].node);
      CHECK(cut.segments[i].kind == fitted.segments[i].kind);
      CHECK(cut.segments[i].a1 == fitted.segments[i].a1);
    }
  }
  CHECK(fewer >= 5);  // fitting did drop rings
}

TEST_CASE("culling merges adjacent thin siblings into one line per min_arc_px, so lines stay few") {
  // 1000 callees of 1 and one of 1000: the small ones cover half the circle, 1000 arcs of 0.5 px.
  ccrc::profile p = test::thin_callees();
  auto ag = ccrc::inclusive(p.tree(), p.column(0));
  auto v = ccrc::ring_chart_view(ccrc::tree_view(p.tree()), ag);
  // One ring, ending at 318.3 px: each small callee's arc is 2π 318.3 / 2001 = 0.9995 px there.
  ccrc::ring_layout chart = ccrc::ring_chart(v, ag, {.outer_radius = 318.3});
  test::check_invariants(p.tree(), chart);
  auto ring = chart.ring(1);
  CHECK(ring[0].kind == segment_kind::arc);
  CHECK(p.tree().name(ring[0].node) == "big");
  std::size_t contexts = 0;
  for (std::size_t k = 1; k < ring.size(); ++k) {
    CHECK(ring[k].kind == segment_kind::line);
    contexts += ring[k].contexts;
    if (k + 1 < ring.size()) CHECK(ring[k].contexts == 2);  // two of them make a pixel
  }
  CHECK(contexts == 1000);
  CHECK(ring.size() == 501);
  // The same with 10 px: 11 callees a line, 91 lines.
  chart = ccrc::ring_chart(v, ag, {.outer_radius = 318.3, .min_arc_px = 10});
  CHECK(chart.ring(1).size() == 92);
  CHECK(chart.ring(1)[1].contexts == 11);
}

TEST_CASE("culling agrees with the uncut chart on random trees") {
  test::rng r{11};
  for (int round = 0; round < 60; ++round) {
    auto [p, ag] = test::random_input(r, 300, 12, 9);
    ccrc::ring_options o = test::varied(round, {.center = {500, 400}, .outer_radius = 350, .min_arc_px = 0,
                                                .fit_visible = false});
    ccrc::tree_view v(p.tree(), ccrc::root_node, round % 4 == 0 ? 4 : ccrc::unlimited_depth);
    ccrc::ring_layout full = ccrc::ring_chart(v, ag, o);
    test::check_invariants(p.tree(), full);
    const double threshold = 1.0 + r.below(40), close = threshold * (1 + 1e-9);
    o.min_arc_px = threshold;
    ccrc::ring_layout cut = ccrc::ring_chart(v, ag, o);
    test::check_invariants(p.tree(), cut);
    // Uncut, every context is a segment of its own.
    std::map<ccrc::node_id, std::size_t> in_full;
    for (std::size_t i = 0; i < full.segments.size(); ++i) in_full[full.segments[i].node] = i;
    for (const auto& s : full.segments) CHECK(s.contexts == 1);
    // Cut: the children of every shown parent stand, in order, for all its children uncut.
    std::map<std::size_t, std::vector<ccrc::node_id>> covered;  // parent segment in cut -> members
    for (std::size_t i = 1; i < cut.segments.size(); ++i) {
      const auto& c = cut.segments[i];
      REQUIRE(in_full.count(c.node));
      std::size_t first = in_full[c.node], last = first + c.contexts - 1;
      REQUIRE(last < full.segments.size());
      const auto& f = full.segments[first];
      CHECK(f.depth == c.depth);
      CHECK(f.r0 == c.r0);
      CHECK(f.r1 == c.r1);
      CHECK(c.a0 == f.a0);
      CHECK(c.a1 == full.segments[last].a1);
      for (std::size_t k = first; k <= last; ++k) {
        CHECK(full.segments[k].parent == f.parent);
        covered[c.parent].push_back(full.segments[k].node);
      }
      double arc = c.r1 * (c.a1 - c.a0);
      if (c.kind == segment_kind::arc) {
        CHECK(c.contexts == 1);
        CHECK(arc * (1 + 1e-9) >= threshold);
      } else {
        for (std::size_t k = first; k <= last; ++k)
          CHECK(full.segments[k].r1 * (full.segments[k].a1 - full.segments[k].a0) < close);
        // A run ends as soon as it is long enough.
        if (c.contexts > 1) CHECK(c.r1 * (full.segments[last - 1].a1 - c.a0) < close);
        // Nothing below a line.
        for (const auto& d : cut.segments) CHECK(p.tree().parent(d.node) != c.node);
      }
    }
    for (const auto& [parent, members] : covered) {
      std::vector<ccrc::node_id> expected;
      std::size_t f = in_full[cut.segments[parent].node];
      for (const auto& s : full.segments)
        if (s.parent == f) expected.push_back(s.node);
      CHECK(members == expected);
    }
    // Every shown arc below the last ring has its children shown.
    for (std::size_t i = 0; i < cut.segments.size(); ++i) {
      const auto& c = cut.segments[i];
      if (c.kind != segment_kind::line && c.depth < cut.rings() && p.tree().has_children(c.node))
        CHECK(covered.count(i) == 1);
    }
  }
}

TEST_CASE("child order: by value (default), by name, or as inserted") {
  ccrc::profile p = test::stacks({{"main;b", 2}, {"main;a", 1}, {"main;c", 3}, {"main;d", 2}});
  auto ag = ccrc::inclusive(p.tree(), p.column(0));
  auto v = ccrc::ring_chart_view(ccrc::tree_view(p.tree()), ag);
  auto order = [&](ccrc::child_order o) {
    std::string names;
    ccrc::ring_layout chart = ccrc::ring_chart(v, ag, {.order = o});
    for (const auto& s : chart.ring(1)) names += p.tree().name(s.node);
    return names;
  };
  CHECK(order(ccrc::child_order::value) == "cbda");  // b and d tie: in creation order
  CHECK(order(ccrc::child_order::name) == "abcd");
  CHECK(order(ccrc::child_order::insertion) == "bacd");
}

TEST_CASE("padding separates siblings and leaves an only child its parent's span") {
  figure1_chart f;
  ccrc::ring_layout chart = f.chart({.sizing = ccrc::ring_sizing::equal, .outer_radius = 600, .min_arc_px = 0,
                                     .padding_px = 10});
  test::check_invariants(f.p.tree(), chart);
  auto s = test::by_path(f.p.tree(), chart);
  double gap = 10.0 / 200;  // ring 1 ends at 200 px
  CHECK(s["main;f"].a0 == 0);
  CHECK(s["main;f"].a1 == Approx(test::two_pi / 3 - gap / 2));
  CHECK(s["main;h"].a0 == Approx(test::two_pi / 3 + gap / 2));
  CHECK(s["main;g"].a1 == Approx(test::two_pi));
  CHECK(s["main;h"].a0 - s["main;f"].a1 == Approx(gap));
  CHECK(s["main;h;i"].a0 == s["main;h"].a0);
  CHECK(s["main;h;i"].a1 == s["main;h"].a1);
  // Gaps wider than the siblings: they vanish into lines.
  ccrc::ring_layout wide = f.chart({.sizing = ccrc::ring_sizing::equal, .outer_radius = 600, .padding_px = 1e6});
  test::check_invariants(f.p.tree(), wide);
  CHECK(wide.ring(1).size() == 3);
  for (const auto& seg : wide.ring(1)) CHECK(seg.kind == segment_kind::line);
}

TEST_CASE("start angle, center position and center radius") {
  figure1_chart f;
  ccrc::ring_layout base = f.chart();
  ccrc::ring_layout turned = f.chart({.center = {720, 450}, .outer_radius = 600, .center_radius = 40,
                                      .start_angle = 1.5, .min_arc_px = 0});
  test::check_invariants(f.p.tree(), turned);
  REQUIRE(turned.segments.size() == base.segments.size());
  for (std::size_t i = 0; i < base.segments.size(); ++i) {
    CHECK(turned.segments[i].a0 == Approx(base.segments[i].a0 + 1.5));
    CHECK(turned.segments[i].a1 == Approx(base.segments[i].a1 + 1.5));
  }
  CHECK(turned.center.x == 720);
  CHECK(turned.radii[0] == 40);
  CHECK(turned.radii[1] == Approx(40 + 560.0 / 5));
  auto p = ccrc::ring_point(turned, 100, 0);
  CHECK(p.x == Approx(720));
  CHECK(p.y == Approx(350));  // twelve o'clock is up
  p = ccrc::ring_point(turned, 100, std::numbers::pi / 2);
  CHECK(p.x == Approx(820));  // a quarter turn clockwise: three o'clock
  CHECK(p.y == Approx(450));
  auto canvas = ccrc::on_canvas(1440, 900, {.sizing = ccrc::ring_sizing::area});
  CHECK(canvas.center.x == 720);
  CHECK(canvas.center.y == 450);
  CHECK(canvas.outer_radius == 450);
  CHECK(canvas.sizing == ccrc::ring_sizing::area);
}

TEST_CASE("ring_radii: constant width or constant area, ending at the outer radius") {
  auto equal = ccrc::ring_radii(ccrc::ring_sizing::angle, 450, 50, 4);
  CHECK(equal == std::vector<double>{50, 150, 250, 350, 450});
  auto area = ccrc::ring_radii(ccrc::ring_sizing::area, 450, 50, 4);
  for (std::size_t i = 0; i < area.size(); ++i)
    CHECK(area[i] * area[i] == Approx(2500 + static_cast<double>(i) * (450.0 * 450 - 2500) / 4));
  CHECK(ccrc::ring_radii(ccrc::ring_sizing::equal, 300, -1, 2) == std::vector<double>{100, 200, 300});
  CHECK(ccrc::ring_radii(ccrc::ring_sizing::area, 300, -1, 0) == std::vector<double>{300});
  CHECK(ccrc::ring_radii(ccrc::ring_sizing::angle, 300, 500, 2) == std::vector<double>{300, 300, 300});
  CHECK(ccrc::ring_radii(ccrc::ring_sizing::angle, std::nan(""), std::nan(""), 2) == std::vector<double>{0, 0, 0});
}

TEST_CASE("heights: the same chart as walking the view") {
  figure1_chart f;
  auto h = ccrc::heights(f.p.tree());
  for (std::uint32_t depth : {0u, 1u, 2u, 3u, 7u, ccrc::unlimited_depth}) {
    auto v = ccrc::ring_chart_view(ccrc::tree_view(f.p.tree(), ccrc::root_node, depth), f.ag);
    auto walked = ccrc::ring_chart(v, f.ag, {.outer_radius = 300});
    auto read = ccrc::ring_chart(v, f.ag, {.outer_radius = 300, .heights = h});
    CHECK(walked.radii == read.radii);
    CHECK(walked.segments.size() == read.segments.size());
  }
}

TEST_CASE("zero, negative, NaN and infinite values: no NaN or infinity in any segment") {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  test::rng r{5};
  const double odd[] = {0, -7, nan, inf, -inf, 3, 1e300, 1e-300, 12};
  for (int round = 0; round < 30; ++round) {
    ccrc::profile p = test::profile_of(test::random_samples(r, 200, 8, 7, 1), 1);
    std::vector<double> values(p.size());
    for (auto& x : values) x = odd[r.below(9)];
    // Aggregated as they come (NaN and inf spread up), or arbitrary columns that do not add up.
    std::vector<double> ag = round % 2 == 0 ? ccrc::inclusive(p.tree(), values) : values;
    for (auto sizing : {ccrc::ring_sizing::equal, ccrc::ring_sizing::angle, ccrc::ring_sizing::area}) {
      ccrc::ring_layout chart = ccrc::ring_chart(ccrc::tree_view(p.tree()), ag,
                                                 {.sizing = sizing, .outer_radius = 400, .min_arc_px = 0});
      test::check_invariants(p.tree(), chart);
      // A child's span never exceeds its weight's share; worthless children get empty spans.
      for (const auto& s : chart.segments) {
        if (s.kind == segment_kind::center || sizing == ccrc::ring_sizing::equal) continue;
        double x = ag[s.node];
        if (!(std::isfinite(x) && x > 0) && s.contexts == 1) {
          CHECK(s.a0 == s.a1);
          CHECK(s.kind == segment_kind::line);
        }
      }
    }
  }
  // All zero: the center is whole, every callee an empty line at the start.
  figure1_chart f;
  std::vector<double> zero(f.p.size(), 0.0);
  ccrc::ring_layout chart = ccrc::ring_chart(f.view, zero, {.outer_radius = 300});
  test::check_invariants(f.p.tree(), chart);
  CHECK(chart.segments.size() == 2);
  CHECK(chart.segments[1].kind == segment_kind::line);
  CHECK(chart.segments[1].contexts == 3);
  CHECK(chart.segments[1].a0 == 0);
  CHECK(chart.segments[1].a1 == 0);
  // Without culling, one empty line each.
  chart = ccrc::ring_chart(f.view, zero, {.outer_radius = 300, .min_arc_px = 0});
  CHECK(chart.segments.size() == 4);
  CHECK(chart.count(segment_kind::line) == 3);
  // Options that are not numbers fall back to safe values.
  ccrc::ring_layout odd_options = ccrc::ring_chart(
      f.view, f.ag, {.center = {nan, inf}, .outer_radius = nan, .center_radius = inf, .start_angle = -inf,
                     .min_arc_px = nan, .padding_px = inf});
  test::check_invariants(f.p.tree(), odd_options);
  CHECK(odd_options.radii.back() == 0);
  CHECK(odd_options.center.x == 0);
  CHECK(odd_options.start_angle == 0);
}

TEST_CASE("a single-node tree and an empty view: the center alone") {
  ccrc::call_tree t;
  std::vector<double> ag{5};
  ccrc::ring_layout chart = ccrc::ring_chart(ccrc::tree_view(t), ag, {.outer_radius = 50});
  test::check_invariants(t, chart);
  CHECK(chart.segments.size() == 1);
  CHECK(chart.rings() == 0);
  CHECK(chart.radii == std::vector<double>{50});
  CHECK(chart.segments[0].r1 == 50);
  CHECK(chart.ring(1).empty());

  figure1_chart f;
  chart = ccrc::ring_chart(ccrc::tree_view(f.p.tree(), ccrc::root_node, 0), f.ag, {.outer_radius = 50});
  test::check_invariants(f.p.tree(), chart);
  CHECK(chart.segments.size() == 1);
  CHECK(chart.segments[0].node == ccrc::root_node);
  chart = ccrc::ring_chart(ccrc::tree_view(f.p.tree(), ccrc::node_at_path(f.p.tree(), "main;h;i")), f.ag);
  CHECK(chart.segments.size() == 1);
  CHECK(chart.rings() == 0);
}

TEST_CASE("a 1,000,000-deep chain: no recursion in the layout or the height walk") {
  ccrc::call_tree t;
  ccrc::frame_id f = t.intern("f");
  ccrc::node_id n = ccrc::root_node;
  for (int i = 0; i < 1'000'000; ++i) n = t.find_or_add_child(n, f);
  std::vector<double> ag(t.size(), 1.0);  // the leaf's value, aggregated all the way up
  // Uncut: every context is a full-circle ring.
  ccrc::ring_layout chart = ccrc::ring_chart(ccrc::tree_view(t), ag, {.outer_radius = 1000, .min_arc_px = 0});
  CHECK(chart.rings() == 1'000'000);
  CHECK(chart.segments.size() == 1'000'001);
  CHECK(chart.segments.back().node == n);
  CHECK(chart.segments.back().r1 == 1000);
  CHECK(chart.segments.back().a1 - chart.segments.back().a0 == Approx(test::two_pi));
  // Culled: rings are 0.001 px wide, so the first ones are too short to see...
  chart = ccrc::ring_chart(ccrc::tree_view(t), ag,
                           {.outer_radius = 1000, .heights = ccrc::heights(t), .fit_visible = false});
  CHECK(chart.segments.size() == 2);
  CHECK(chart.segments[1].kind == segment_kind::line);
  // ... and fitted, as many rings as leave ring 1 a full pixel round: 2π 2000 / (n + 1) >= 1,
  // n = 12565 (found by bisection over a million).
  chart = ccrc::ring_chart(ccrc::tree_view(t), ag, {.outer_radius = 1000});
  CHECK(chart.rings() == 12565);
  CHECK(chart.segments.size() == 12566);
  CHECK(chart.count(segment_kind::line) == 0);
  CHECK(chart.segments.back().r1 == 1000);
}

TEST_CASE("chains: a run of levels that one callee holds is one segment, its last context's callees the next ring") {
  // main: a 4, d 4. a -> b -> c, each the only callee and all of its caller; c: x 3, y 1.
  ccrc::profile p = test::stacks({{"main;a;b;c;x", 3}, {"main;a;b;c;y", 1}, {"main;d", 4}});
  const ccrc::call_tree& t = p.tree();
  auto ag = ccrc::inclusive(t, p.column(0));
  ccrc::tree_view v = ccrc::ring_chart_view(ccrc::tree_view(t), ag);
  ccrc::ring_layout levels = ccrc::ring_chart(v, ag, {.outer_radius = 300, .min_arc_px = 0});
  CHECK(levels.rings() == 4);  // a, b, c, then x and y: a ring per level
  ccrc::ring_layout chart = ccrc::ring_chart(v, ag, {.outer_radius = 300, .min_arc_px = 0, .chain_share = 0.99});
  REQUIRE(chart.rings() == 2);
  REQUIRE(chart.segments.size() == 5);  // main; a..c and d; x and y
  const auto& center = chart.segments[0];
  CHECK(center.contexts == 1);  // two callees with a value: no chain
  CHECK(center.last == center.node);
  const auto& a = chart.segments[1];
  CHECK(ccrc::path_string(t, a.node) == "main;a");
  CHECK(ccrc::path_string(t, a.last) == "main;a;b;c");
  CHECK(a.contexts == 3);
  CHECK(a.depth == 1);
  CHECK(a.a1 - a.a0 == Approx(std::numbers::pi));  // a's value: half of main's
  const auto& d = chart.segments[2];
  CHECK(ccrc::path_string(t, d.node) == "main;d");
  CHECK(d.contexts == 1);
  CHECK(d.last == d.node);
  // The next ring holds c's callees, parted by their share of a's (the chain's) value.
  const auto& x = chart.segments[3];
  CHECK(ccrc::path_string(t, x.node) == "main;a;b;c;x");
  CHECK(x.depth == 2);
  CHECK(x.parent == 1);
  CHECK(x.a0 == Approx(a.a0));
  CHECK(x.a1 - x.a0 == Approx(std::numbers::pi * 3 / 4));
  CHECK(chart.segments[4].a1 == Approx(a.a1));
  // Cut after one ring, the chain's last context has callees beyond the edge; d has none.
  ccrc::ring_layout cut = ccrc::ring_chart(ccrc::tree_view(t, v.root(), 1), ag, {.outer_radius = 300, .chain_share = 0.99});
  REQUIRE(cut.rings() == 1);
  CHECK(ccrc::beyond_edge(cut, t, cut.segments[1]));
  CHECK(!ccrc::beyond_edge(cut, t, cut.segments[2]));
  // A share of 0 (the default), or outside (0, 1], folds nothing.
  CHECK(ccrc::ring_chart(v, ag, {.outer_radius = 300, .chain_share = 1.5}).rings() == 4);
  CHECK(ccrc::ring_chart(v, ag, {.outer_radius = 300, .chain_share = -1}).rings() == 4);
}

TEST_CASE("chains end where a context keeps a visible share of its own, or has a second callee with a value") {
  auto rings = [](const ccrc::profile& p) {
    auto ag = ccrc::inclusive(p.tree(), p.column(0));
    return ccrc::ring_chart(ccrc::ring_chart_view(ccrc::tree_view(p.tree()), ag), ag,
                            {.outer_radius = 300, .min_arc_px = 0, .chain_share = 0.99});
  };
  // b keeps 2 % of its value: a..b is a chain, c its own ring (98 % < 99 %).
  ccrc::profile self = test::stacks({{"main;a;b", 2}, {"main;a;b;c;x", 49}, {"main;a;b;c;y", 49}, {"main;d", 100}});
  ccrc::ring_layout chart = rings(self);
  CHECK(ccrc::path_string(self.tree(), chart.segments[1].last) == "main;a;b");
  CHECK(chart.rings() == 3);  // a..b, c, x and y
  // 1 % of its own is still a chain: 99 % is held by the callee.
  ccrc::profile one = test::stacks({{"main;a;b", 1}, {"main;a;b;c;x", 50}, {"main;a;b;c;y", 49}, {"main;d", 100}});
  CHECK(ccrc::path_string(one.tree(), rings(one).segments[1].last) == "main;a;b;c");
  // A second callee with a value, however small, ends it; one with none does not, and is not
  // drawn (it has nothing to show).
  ccrc::profile second = test::stacks({{"main;a;b;z", 0.001}, {"main;a;b;c;x", 50}, {"main;a;b;c;y", 50}, {"main;d", 100}});
  CHECK(ccrc::path_string(second.tree(), rings(second).segments[1].last) == "main;a;b");
  ccrc::profile empty = test::stacks({{"main;a;b;z", 0}, {"main;a;b;c;x", 50}, {"main;a;b;c;y", 50}, {"main;d", 100}});
  chart = rings(empty);
  CHECK(ccrc::path_string(empty.tree(), chart.segments[1].last) == "main;a;b;c");
  for (const auto& s : chart.segments) CHECK(ccrc::path_string(empty.tree(), s.node) != "main;a;b;z");
  // The same chart with an index (callees sorted, O(1) a step) and with equal sizing's angles.
  auto ag = ccrc::inclusive(empty.tree(), empty.column(0));
  ccrc::ring_index index(empty.tree(), ag);
  ccrc::tree_view v = ccrc::ring_chart_view(ccrc::tree_view(empty.tree()), ag);
  ccrc::ring_layout indexed = ccrc::ring_chart(v, ag, {.outer_radius = 300, .min_arc_px = 0, .index = &index, .chain_share = 0.99});
  REQUIRE(indexed.segments.size() == chart.segments.size());
  for (std::size_t i = 0; i < chart.segments.size(); ++i) {
    CHECK(indexed.segments[i].node == chart.segments[i].node);
    CHECK(indexed.segments[i].last == chart.segments[i].last);
    CHECK(indexed.segments[i].a1 == chart.segments[i].a1);
  }
}

TEST_CASE("chains: a chain of a million levels is folded without recursion, at the center too") {
  ccrc::call_tree t;
  ccrc::frame_id f = t.intern("f");
  ccrc::node_id n = ccrc::root_node;
  for (int i = 0; i < 1'000'000; ++i) n = t.find_or_add_child(n, f);
  ccrc::node_id x = t.find_or_add_child(n, t.intern("x")), y = t.find_or_add_child(n, t.intern("y"));
  std::vector<double> self(t.size(), 0.0);
  self[x] = 3;
  self[y] = 1;
  auto ag = ccrc::inclusive(t, self);
  ccrc::ring_layout chart =
      ccrc::ring_chart(ccrc::tree_view(t), ag, {.outer_radius = 300, .heights = ccrc::heights(t), .chain_share = 0.99});
  REQUIRE(chart.rings() == 1);
  CHECK(chart.segments[0].node == ccrc::root_node);
  CHECK(chart.segments[0].last == n);
  CHECK(chart.segments[0].contexts == 1'000'001);  // the root and a million f's
  REQUIRE(chart.segments.size() == 3);
  CHECK(chart.segments[1].node == x);
}
