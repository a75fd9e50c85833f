#include <ccrc/algorithm/depth.hpp>
#include <ccrc/algorithm/inclusive.hpp>
#include <ccrc/geometry/first_view.hpp>
#include <ccrc/geometry/ring_index.hpp>
#include <ccrc/io/folded.hpp>
#include <ccrc/tree/path.hpp>

#include "support/rings.hpp"

#include "support/figure1.hpp"
#include "support/random.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <sstream>
#include <limits>
#include <string>

namespace {

struct input {
  ccrc::profile p;
  std::vector<double> ag;
  explicit input(const std::string& text) : p(read(text)), ag(ccrc::inclusive(p.tree(), p.column(0))) {}
  static ccrc::profile read(const std::string& text) {
    std::istringstream in(text);
    return ccrc::read_folded(in);
  }
  [[nodiscard]] ccrc::first_view_ring first(ccrc::ring_options canvas = ccrc::on_canvas(1440, 900),
                                         ccrc::first_view_options o = {}) const {
    return ccrc::first_view(ccrc::tree_view(p.tree()), ag, canvas, o);
  }
  [[nodiscard]] std::string path(ccrc::node_id n) const { return ccrc::path_string(p.tree(), n); }
};

// A chain of `depth` frames below main, its value on the leaf.
std::string chain(int depth, int value) {
  std::string s = "main";
  for (int i = 0; i < depth; ++i) s += ";f" + std::to_string(i);
  return s + " " + std::to_string(value) + "\n";
}

}  // namespace

TEST_CASE("rings_that_fit: as many rings as stay min_ring_px thick") {
  // Equal and angle sizing: the center and n rings of R / (n + 1) each. R = 442: 35 rings of
  // 12.28 px; 36 would be 11.95.
  ccrc::ring_options angle{.outer_radius = 442};
  CHECK(ccrc::rings_that_fit(angle, 12) == 35);
  CHECK(ccrc::rings_that_fit({.sizing = ccrc::ring_sizing::equal, .outer_radius = 442}, 12) == 35);
  // A center of 100 px: (442 - 100) / n >= 12, 28 rings.
  CHECK(ccrc::rings_that_fit({.outer_radius = 442, .center_radius = 100}, 12) == 28);
  // Area sizing: the outermost ring is the thinnest, R (1 - sqrt(n / (n + 1))): 12.45 px with
  // 17 rings, 11.79 with 18.
  CHECK(ccrc::rings_that_fit({.sizing = ccrc::ring_sizing::area, .outer_radius = 442}, 12) == 17);
  // Never fewer than one; no bound asked, no bound given.
  CHECK(ccrc::rings_that_fit({.outer_radius = 5}, 12) == 1);
  CHECK(ccrc::rings_that_fit(angle, 0) == ccrc::unlimited_depth);
}

TEST_CASE("first_view: the trunk of single callees above the branching becomes a caption") {
  input in("main;run;work;a 5\nmain;run;work;b 5\n");
  ccrc::first_view_ring first = in.first();
  CHECK(in.path(first.view.root()) == "main;run;work");
  REQUIRE(first.trunk.size() == 2);
  CHECK(in.path(first.trunk[0]) == "main");
  CHECK(in.path(first.trunk[1]) == "main;run");
  // Asked not to, it starts where ring_chart_view does: main.
  CHECK(in.path(in.first(ccrc::on_canvas(1440, 900), {.skip_trunk = false}).view.root()) == "main");
}

TEST_CASE("first_view: a trunk context keeps a visible value of its own, or a second callee, out of the caption") {
  // run has a self value of 2 % of its own: the trunk ends there (99 % wanted).
  input self("main;run 2\nmain;run;work;a 49\nmain;run;work;b 49\n");
  CHECK(self.path(self.first().view.root()) == "main;run");
  // main's second callee has 1 % of its value: the trunk ends at main.
  input second("main;run;work;a 50\nmain;run;work;b 49\nmain;init 1\n");
  CHECK(second.path(second.first().view.root()) == "main");
  // A callee with nothing in it does not count.
  input empty("main;init 0\nmain;run;a 1\nmain;run;b 1\n");
  CHECK(empty.path(empty.first().view.root()) == "main;run");
  // Several top-level frames: the synthetic root branches, the chart starts there.
  input top("a;b 1\nc 1\n");
  CHECK(top.first().view.root() == ccrc::root_node);
  CHECK(top.first().trunk.empty());
}

TEST_CASE("first_view: as many rings as fit, cut where the rings' arcs stop covering 5 % of the circle") {
  // All the value at the end of a 100-deep chain: every ring is covered, so the canvas decides.
  // on_canvas(1440, 900): R = 450, 36 rings of 12.16 px. (Chains not folded: see below.)
  input deep(chain(100, 1) + chain(100, 1).replace(0, 4, "main;g"));
  ccrc::first_view_ring first = deep.first(ccrc::on_canvas(1440, 900), {.fold_chains = false});
  CHECK(deep.path(first.view.root()) == "main");
  CHECK(first.view.max_depth() == 36);
  CHECK(first.chain_share == 0);
  CHECK(first.drawn == 0);  // the value lies beyond the edge
  // 96 % at depth 1, 4 % at the end of a 50-deep chain: the chain's rings cover less than 5 %
  // of the circle, so only the rings that would be 20 px thick are shown (450 / 22: 21), the
  // chain marked beyond the edge; asked for no such floor, one ring.
  input spike("main;a 96\n" + chain(50, 4));
  CHECK(spike.first().view.max_depth() == 21);
  CHECK(spike.first(ccrc::on_canvas(1440, 900), {.comfortable_ring_px = 1000}).view.max_depth() == 1);
  // 4 % at the end of a 30-deep chain: the 20 px rings would be 21, so 21.
  input short_spike("main;a 96\n" + chain(30, 4));
  CHECK(short_spike.first().view.max_depth() == 21);
  // A 10-deep one: all of it, the view cut at its height.
  input shorter("main;a 96\n" + chain(10, 4));
  CHECK(shorter.first().view.max_depth() == 10);
  // 6 % in it: all 51 levels would cover 6 %, but the canvas holds 36.
  input kept("main;a 94\n" + chain(50, 6));
  CHECK(kept.first().view.max_depth() == 36);
  // Without fitting, the depth limit is the view's.
  CHECK(kept.first(ccrc::on_canvas(1440, 900), {.fit_depth = false}).view.max_depth() == ccrc::unlimited_depth);
}

TEST_CASE("first_view: the chart it hands back is the chart of its view, on random trees and canvases") {
  test::rng r(7);
  std::size_t handed = 0;
  for (int trial = 0; trial < 200; ++trial) {
    ccrc::profile p = test::profile_of(test::random_samples(r, 80, 8, 1 + r.below(60), 1), 1);
    std::vector<double> ag = ccrc::inclusive(p.tree(), p.column(0));
    double side = 60 + 1000 * r.uniform();
    ccrc::ring_options canvas = ccrc::on_canvas(side, side, {.sizing = static_cast<ccrc::ring_sizing>(r.below(3))});
    ccrc::first_view_ring first = ccrc::first_view(ccrc::tree_view(p.tree()), ag, canvas);
    if (!first.chart) continue;
    ++handed;
    canvas.chain_share = first.chain_share;
    ccrc::ring_layout again = ccrc::ring_chart(first.view, ag, canvas);
    REQUIRE(first.chart->rings() == again.rings());
    REQUIRE(first.chart->segments.size() == again.segments.size());
    for (std::size_t i = 0; i < again.segments.size(); ++i) {
      REQUIRE(first.chart->segments[i].node == again.segments[i].node);
      REQUIRE(first.chart->segments[i].a1 == again.segments[i].a1);
      REQUIRE(first.chart->segments[i].r1 == again.segments[i].r1);
      REQUIRE(first.chart->segments[i].kind == again.segments[i].kind);
    }
  }
  CHECK(handed > 50);
}

TEST_CASE("first_view of an icicle: the chart it hands back is the icicle of its view, on random trees and canvases") {
  // The chart of the cut view is the coverage chart's first rows placed again: every field of
  // every segment, the edges and the rows' starts must be what icicle_chart makes of the view.
  test::rng r(11);
  std::size_t handed = 0, cut = 0;
  for (int trial = 0; trial < 300; ++trial) {
    ccrc::profile p = test::profile_of(test::random_samples(r, 80, 8, 1 + r.below(60), 1), 1);
    std::vector<double> ag = ccrc::inclusive(p.tree(), p.column(0));
    ccrc::icicle_options canvas{.sizing = static_cast<ccrc::ring_sizing>(r.below(3)), .origin = {3, 5},
                                .width = 60 + 1000 * r.uniform(), .height = 40 + 1000 * r.uniform(),
                                .max_row_px = r.below(2) ? 30.0 : std::numeric_limits<double>::infinity(),
                                .root_at_bottom = r.below(2) == 1, .min_width_px = r.below(3) == 0 ? 0.0 : 1.0 + 4 * r.uniform(),
                                .fit_visible = r.below(4) != 0};
    ccrc::first_view_icicle first = ccrc::first_view(ccrc::tree_view(p.tree()), ag, canvas);
    if (!first.chart) continue;
    ++handed;
    canvas.chain_share = first.chain_share;
    ccrc::icicle_layout again = ccrc::icicle_chart(first.view, ag, canvas);
    if (again.rows() < ccrc::heights(p.tree())[first.view.root()]) ++cut;
    REQUIRE(first.chart->edges == again.edges);
    REQUIRE(first.chart->row_begin == again.row_begin);
    REQUIRE(first.chart->segments.size() == again.segments.size());
    REQUIRE(first.chart->segments == again.segments);
  }
  // Every laid-out first view hands its chart back, the cut ones included.
  CHECK(handed > 200);
  CHECK(cut > 50);
}

TEST_CASE("first_view: a view's own depth limit counts from its root, and the trunk uses it up") {
  input in("main;run;work;a 5\nmain;run;work;b 5\n");
  // Depth 3 below the synthetic root: main, run, work. The trunk takes main and run.
  ccrc::first_view_ring first = ccrc::first_view(ccrc::tree_view(in.p.tree(), ccrc::root_node, 3), in.ag, ccrc::on_canvas(1440, 900));
  CHECK(in.path(first.view.root()) == "main;run");
  CHECK(first.view.max_depth() == 1);
}

TEST_CASE("first_view: the same view with an index or heights as without; Figure 1 opens on main") {
  ccrc::profile p = test::figure1();
  auto ag = ccrc::inclusive(p.tree(), p.column("bytecodes"));
  ccrc::ring_index index(p.tree(), ag);
  auto heights = ccrc::heights(p.tree());
  ccrc::ring_options canvas = ccrc::on_canvas(1440, 900);
  auto plain = ccrc::first_view(ccrc::tree_view(p.tree()), ag, canvas);
  canvas.index = &index;
  auto indexed = ccrc::first_view(ccrc::tree_view(p.tree()), ag, canvas);
  canvas.index = nullptr;
  canvas.heights = heights;
  auto with_heights = ccrc::first_view(ccrc::tree_view(p.tree()), ag, canvas);
  CHECK(ccrc::path_string(p.tree(), plain.view.root()) == "main");
  CHECK(plain.trunk.empty());
  for (const auto& v : {indexed, with_heights}) {
    CHECK(v.view.root() == plain.view.root());
    CHECK(v.view.max_depth() == plain.view.max_depth());
  }
  // Figure 1's five rings, 75 px thick, shown whole (its fifth holds only 1.5 % of main); by area
  // on a 400 px canvas too, whose outermost ring is 16.7 px but whose rings would be 33 px at
  // equal widths.
  CHECK(ccrc::ring_chart(plain.view, ag, ccrc::on_canvas(1440, 900)).rings() == 5);
  ccrc::ring_options area = ccrc::on_canvas(400, 400, {.sizing = ccrc::ring_sizing::area});
  CHECK(ccrc::first_view(ccrc::tree_view(p.tree()), ag, area).view.max_depth() == 5);
}

TEST_CASE("first_view: a 1,000,000-deep trunk is walked without recursion") {
  ccrc::call_tree t;
  ccrc::frame_id f = t.intern("f");
  ccrc::node_id n = ccrc::root_node;
  for (int i = 0; i < 1'000'000; ++i) n = t.find_or_add_child(n, f);
  std::vector<double> ag(t.size(), 1.0);  // the leaf's value, aggregated all the way up
  ccrc::first_view_ring first = ccrc::first_view(ccrc::tree_view(t), ag, ccrc::on_canvas(1440, 900));
  CHECK(first.trunk.size() == 999'999);  // from the top frame to the leaf's caller
  CHECK(first.view.root() == n);
}

TEST_CASE("beyond_edge: the outermost ring's arcs whose contexts have callees") {
  input in("main;a;b 5\nmain;c 5\n");
  ccrc::tree_view view(in.p.tree(), ccrc::root_node, 2);  // main and one ring: a, c
  ccrc::ring_layout chart = ccrc::ring_chart(ccrc::ring_chart_view(view, in.ag), in.ag, ccrc::on_canvas(800, 800));
  REQUIRE(chart.rings() == 1);
  for (const ccrc::ring_segment& s : chart.segments)
    CHECK(ccrc::beyond_edge(chart, in.p.tree(), s) == (in.path(s.node) == "main;a"));
}

TEST_CASE("rows_that_fit: as many rows below the root as stay min_row_px high") {
  // 900 px: the root and 55 rows of 16.07 px; 56 would be 15.8.
  CHECK(ccrc::rows_that_fit({.height = 900}, 16) == 55);
  CHECK(ccrc::rows_that_fit({.height = 880}, 16) == 54);  // exactly 16 px each
  CHECK(ccrc::rows_that_fit({.height = 900}, 20) == 44);
  CHECK(ccrc::rows_that_fit({.height = 20}, 16) == 1);  // never fewer than one
  CHECK(ccrc::rows_that_fit({.height = std::nan("")}, 16) == 1);
  CHECK(ccrc::rows_that_fit({.height = 900}, 0) == ccrc::unlimited_depth);
}

TEST_CASE("first_view of an icicle: the same trunk, rows at least 16 px, cut where boxes stop covering 5 % of the width") {
  ccrc::icicle_options canvas{.width = 1440, .height = 900};
  input trunk("main;run;work;a 5\nmain;run;work;b 5\n");
  ccrc::first_view_icicle first = ccrc::first_view(ccrc::tree_view(trunk.p.tree()), trunk.ag, canvas);
  CHECK(trunk.path(first.view.root()) == "main;run;work");
  CHECK(first.trunk.size() == 2);
  // A 100-deep chain, every row covered: 55 rows of 16 px (chains not folded).
  input deep(chain(100, 1) + chain(100, 1).replace(0, 4, "main;g"));
  CHECK(ccrc::first_view(ccrc::tree_view(deep.p.tree()), deep.ag, canvas, {.fold_chains = false}).view.max_depth() == 55);
  // Folded, the two chains are one row of two boxes, every context's value drawn.
  ccrc::first_view_icicle folded = ccrc::first_view(ccrc::tree_view(deep.p.tree()), deep.ag, canvas);
  REQUIRE(folded.chart);
  CHECK(folded.chart->rows() == 1);
  CHECK(folded.chart->segments.size() == 3);
  CHECK(folded.drawn == 1);
  // 4 % at the end of a 50-deep chain: cut at the rows that would be 20 px high (44); asked
  // for no such floor, one row.
  input spike("main;a 96\n" + chain(50, 4));
  CHECK(ccrc::first_view(ccrc::tree_view(spike.p.tree()), spike.ag, canvas).view.max_depth() == 44);
  CHECK(ccrc::first_view(ccrc::tree_view(spike.p.tree()), spike.ag, canvas, {.comfortable_row_px = 1000})
            .view.max_depth() == 1);
  // 6 % in it: all 50 rows below main hold 6 % of the width.
  input kept("main;a 94\n" + chain(50, 6));
  CHECK(ccrc::first_view(ccrc::tree_view(kept.p.tree()), kept.ag, canvas).view.max_depth() == 50);
  // Figure 1 is shown whole (its fifth row holds 1.5 % of main, but 5 rows would be 150 px
  // high); 64 px hold 3 rows of 16 px, the third covering 17.6 %.
  ccrc::profile p = test::figure1();
  auto ag = ccrc::inclusive(p.tree(), p.column("bytecodes"));
  CHECK(ccrc::first_view(ccrc::tree_view(p.tree()), ag, canvas).view.max_depth() == 5);
  ccrc::icicle_options short_canvas{.width = 1440, .height = 64};
  CHECK(ccrc::first_view(ccrc::tree_view(p.tree()), ag, short_canvas).view.max_depth() == 3);
}

TEST_CASE("icicle beyond_edge after a first view: the boxes whose callees the cut leaves out") {
  input in("main;a;b;c 5\nmain;d 5\n");
  ccrc::icicle_options canvas{.width = 400, .height = 48};  // the root and two rows of 16 px
  ccrc::first_view_icicle first = ccrc::first_view(ccrc::tree_view(in.p.tree()), in.ag, canvas);
  ccrc::icicle_layout chart = ccrc::icicle_chart(first.view, in.ag, canvas);
  REQUIRE(chart.rows() == 2);
  for (const ccrc::icicle_segment& s : chart.segments)
    CHECK(ccrc::beyond_edge(chart, in.p.tree(), s) == (in.path(s.node) == "main;a;b"));
}

TEST_CASE("layout_of: the ring chart of ring options, the icicle of icicle options") {
  ccrc::profile p = test::figure1();
  auto ag = ccrc::inclusive(p.tree(), p.column("bytecodes"));
  ccrc::tree_view v = ccrc::ring_chart_view(ccrc::tree_view(p.tree()), ag);
  ccrc::ring_layout ring = ccrc::layout_of(v, ag, ccrc::on_canvas(1440, 900));
  ccrc::icicle_layout icicle = ccrc::layout_of(v, ag, ccrc::icicle_options{.width = 1440, .height = 900});
  // Figure 1 below main: 17 contexts in 5 levels, as either chart.
  CHECK(ring.segments.size() == 18);
  CHECK(ring.rings() == 5);
  CHECK(icicle.segments.size() == 18);
  CHECK(icicle.rows() == 5);
}

TEST_CASE("first_view folds chains when that draws more of the cost, and says how much it draws") {
  // main: f0..f99 and g;f0..f99, the value at the two ends. A ring per level draws none of it
  // (36 rings fit); folded, each chain is one segment of the first ring and all of it is drawn.
  input deep(chain(100, 1) + chain(100, 1).replace(0, 4, "main;g"));
  ccrc::first_view_ring first = deep.first();
  CHECK(first.chain_share == 0.99);
  CHECK(first.drawn == 1);
  REQUIRE(first.chart);
  REQUIRE(first.chart->rings() == 1);
  REQUIRE(first.chart->segments.size() == 3);
  const ccrc::ring_segment& f = first.chart->segments[1];
  CHECK(deep.path(f.node) == "main;f0");
  CHECK(f.contexts == 100);
  CHECK(deep.path(f.last) == "main;f0;f1;f2;f3;f4;f5;f6;f7;f8;f9;f10;f11;f12;f13;f14;f15;f16;f17;f18;f19;f20;f21;f22;f23;"
                             "f24;f25;f26;f27;f28;f29;f30;f31;f32;f33;f34;f35;f36;f37;f38;f39;f40;f41;f42;f43;f44;f45;f46;"
                             "f47;f48;f49;f50;f51;f52;f53;f54;f55;f56;f57;f58;f59;f60;f61;f62;f63;f64;f65;f66;f67;f68;f69;"
                             "f70;f71;f72;f73;f74;f75;f76;f77;f78;f79;f80;f81;f82;f83;f84;f85;f86;f87;f88;f89;f90;f91;f92;"
                             "f93;f94;f95;f96;f97;f98;f99");
  CHECK(first.chart->segments[2].contexts == 101);  // g and its 100 f's
  CHECK(ccrc::first_view_caption(*first.chart) == "2 runs of single callees (201 levels) shown as one ring each");
  // 96 % at depth 1: a ring per level draws it; nothing is folded.
  input spike("main;a 96\n" + chain(50, 4));
  ccrc::first_view_ring plain = spike.first();
  CHECK(plain.chain_share == 0);
  CHECK(plain.drawn == doctest::Approx(0.96));
  CHECK(ccrc::first_view_caption(*plain.chart).empty());
  // Asked not to fold, it does not; without fitting, no chart and nothing measured.
  CHECK(deep.first(ccrc::on_canvas(1440, 900), {.fold_chains = false}).chain_share == 0);
  CHECK(std::isnan(deep.first(ccrc::on_canvas(1440, 900), {.fit_depth = false}).drawn));
}

TEST_CASE("drawn_share: the own value of the contexts drawn as segments, over the center's") {
  // main 10, a 30 below it, b 60 below a: cut after one ring, main's and a's own are drawn.
  input in("main 10\nmain;a 30\nmain;a;b 60\n");
  ccrc::tree_view v(in.p.tree(), ccrc::node_at_path(in.p.tree(), "main"), 1);
  ccrc::ring_layout chart = ccrc::ring_chart(v, in.ag, ccrc::on_canvas(800, 800));
  CHECK(ccrc::drawn_share(chart, in.p.tree(), in.ag) == doctest::Approx(0.4));
  ccrc::ring_index index(in.p.tree(), in.ag);
  CHECK(ccrc::drawn_share(chart, in.p.tree(), in.ag, &index) == doctest::Approx(0.4));
  // Whole, all of it; a chain's contexts count each (main;a;b folds into a..b with 90 %).
  CHECK(ccrc::drawn_share(ccrc::ring_chart(ccrc::tree_view(in.p.tree(), v.root()), in.ag, ccrc::on_canvas(800, 800)),
                          in.p.tree(), in.ag) == doctest::Approx(1));
  // Lines draw nothing: 1000 callees of 1 beside one of 1000, the small ones culled.
  ccrc::profile thin = test::thin_callees();
  auto ag = ccrc::inclusive(thin.tree(), thin.column(0));
  ccrc::ring_layout culled = ccrc::ring_chart(ccrc::ring_chart_view(ccrc::tree_view(thin.tree()), ag), ag,
                                              {.outer_radius = 100, .min_arc_px = 1});
  CHECK(culled.count(ccrc::segment_kind::line) > 0);
  CHECK(ccrc::drawn_share(culled, thin.tree(), ag) == doctest::Approx(0.5));
}

TEST_CASE("first_view of a profile: recursion eliminated when it brings the cost within the rings") {
  // main -> f -> f -> ... 200 deep, each f calling h too; every f and h has 1 of its own, so
  // no chain folds. A ring per level draws the top 35 levels' share; eliminated, main;f;h
  // holds it all.
  ccrc::profile p;
  ccrc::frame_id main = p.intern("main"), f = p.intern("f"), h = p.intern("h");
  std::vector<ccrc::frame_id> stack{main};
  std::vector<double> one{1};
  for (int level = 0; level < 200; ++level) {
    stack.push_back(f);
    p.add_path(stack, one);
    stack.push_back(h);
    p.add_path(stack, one);
    stack.pop_back();
  }
  auto ag = ccrc::inclusive(p.tree(), p.column(0));
  ccrc::ring_options canvas = ccrc::on_canvas(1440, 900);
  ccrc::profile_view first = ccrc::first_view(p, 0, ag, canvas);
  REQUIRE(first.eliminated);
  CHECK(first.levels_as_read == 202);  // main, 200 f's, an h
  CHECK(first.levels_eliminated == 3);  // main;f;h
  CHECK(first.first.drawn == doctest::Approx(1));
  CHECK(&first.drawn_from(p) == first.eliminated.get());
  CHECK(first.first.view.tree().size() == first.eliminated->size());
  CHECK(ccrc::first_view_caption(*first.first.chart, first.levels_as_read, first.levels_eliminated) ==
        "recursion eliminated: 202 \xe2\x86\x92 3 levels");
  // As read it draws less than half: what was compared.
  ccrc::first_view_ring as_read = ccrc::first_view(ccrc::tree_view(p.tree()), ag, canvas);
  CHECK(as_read.drawn < 0.5);
  CHECK(ccrc::worth_eliminating_recursion(p.size(), as_read.drawn));
  CHECK(ccrc::prefer_eliminated(as_read.drawn, first.first.drawn));
  // Not on a larger tree than asked, nor when the view as read draws enough.
  ccrc::profile_view kept = ccrc::first_view(p, 0, ag, canvas, {.max_eliminated_contexts = 100});
  CHECK(!kept.eliminated);
  CHECK(&kept.drawn_from(p) == &p);
  CHECK(!ccrc::worth_eliminating_recursion(10, 0.6));
  CHECK(!ccrc::prefer_eliminated(0.45, 0.5));  // a tenth more at least
  CHECK(ccrc::prefer_eliminated(0.4, 0.5));
}
