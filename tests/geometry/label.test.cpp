#include <ccrc/geometry/label.hpp>
#include <ccrc/tree/path.hpp>

#include "support/figure1.hpp"
#include "support/random.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <string>

using doctest::Approx;

namespace {

ccrc::ring_segment arc(double r0, double r1, double a0, double a1) {
  return {1, 1, 0, ccrc::segment_kind::arc, r0, r1, a0, a1};
}

constexpr double pi = std::numbers::pi;

}  // namespace

// With the default style: font 11 px (at least 9), a glyph 0.6 em (6.6 px at 11 px), 2 px kept
// free at each end and between the text and the ring's edges.
TEST_CASE("fit_label: the whole name along a wide arc, in a font the ring's thickness allows") {
  // Middle circle r = 115, span 1 rad: 115 - 4 = 111 px of room, 16 glyphs of 6.6 px (105.6).
  ccrc::ring_segment wide = arc(100, 130, 0, 1);
  ccrc::ring_label l = ccrc::fit_label(wide, "sixteen_glyphs_x");
  CHECK(l.fit == ccrc::label_fit::along);
  CHECK(l.bytes == 16);
  CHECK_FALSE(l.ellipsis);
  CHECK(l.font_px == 11);
  CHECK(l.radius == 115);
  CHECK(l.angle == 0.5);
  CHECK_FALSE(l.reversed);
  CHECK(l.text("sixteen_glyphs_x") == "sixteen_glyphs_x");
  // A ring 12 px thick takes a 10 px font (12 - 2), one of 10.9 px none along (8.9 < 9).
  CHECK(ccrc::fit_label(arc(200, 212, 0, 1), "name").font_px == 10);
  // Across, 10.9 - 4 px of room hold not even three glyphs and "…".
  CHECK(ccrc::fit_label(arc(200, 210.9, 0, 1), "name").fit == ccrc::label_fit::none);
}

TEST_CASE("fit_label: cut with an ellipsis after at least three glyphs, the way that shows more") {
  // 17 glyphs need 112.2 px of the 111: along, floor(111 / 6.6) - 1 = 15 glyphs and "…".
  // Across (26 px of room) would show floor(26 / 6.6) - 1 = 2: too few.
  ccrc::ring_label l = ccrc::fit_label(arc(100, 130, 0, 1), "seventeen_glyphs_");
  CHECK(l.fit == ccrc::label_fit::along);
  CHECK(l.bytes == 15);
  CHECK(l.ellipsis);
  CHECK(l.text("seventeen_glyphs_") == "seventeen_glyph\xe2\x80\xa6");
  // Three glyphs and "…" across 27 px of room (31 - 4: 4.09 glyphs); along, 19.1 px show one.
  ccrc::ring_label three = ccrc::fit_label(arc(100, 131, 0, 0.2), "abcdefgh");
  CHECK(three.fit == ccrc::label_fit::across);
  CHECK(three.bytes == 3);
  CHECK(three.ellipsis);
  // A sliver: 0.3 px of span, room for nothing either way.
  CHECK(ccrc::fit_label(arc(300, 330.4, 0, 0.001), "abcdefgh").fit == ccrc::label_fit::none);
  // A name of three glyphs or fewer is shown whole or not at all.
  CHECK(ccrc::fit_label(arc(100, 105, 0, 0.01), "ab").fit == ccrc::label_fit::none);
}

TEST_CASE("fit_label: across a long narrow segment, reading outwards on the right, inwards on the left") {
  // Middle circle r = 260, span 0.08: 16.8 px along, under two glyphs. Across: the font is
  // bounded by the span at the text's inner end, 202 x 0.08 - 2 = 14.16 px (so 11), and 116 px
  // of thickness hold 8 glyphs whole.
  ccrc::ring_label right = ccrc::fit_label(arc(200, 320, 1.5, 1.58), "abcdefgh");
  CHECK(right.fit == ccrc::label_fit::across);
  CHECK(right.bytes == 8);
  CHECK(right.font_px == 11);
  CHECK(right.radius == 260);
  CHECK(right.angle == Approx(1.54));
  CHECK_FALSE(right.reversed);
  ccrc::ring_label left = ccrc::fit_label(arc(200, 320, 4.6, 4.68), "abcdefgh");
  CHECK(left.fit == ccrc::label_fit::across);
  CHECK(left.reversed);
  // A narrower span shrinks the font: 202 x 0.055 - 2 = 9.11 px, glyphs of 5.466 px.
  ccrc::ring_label small = ccrc::fit_label(arc(200, 320, 0, 0.055), "abcdefgh");
  CHECK(small.fit == ccrc::label_fit::across);
  CHECK(small.font_px == Approx(9.11));
}

TEST_CASE("fit_label: along below the center reads counter-clockwise; a full ring is labelled at the top") {
  CHECK(ccrc::fit_label(arc(100, 130, pi - 0.5, pi + 0.5), "name").reversed);
  CHECK_FALSE(ccrc::fit_label(arc(100, 130, -0.5, 0.5), "name").reversed);
  CHECK(ccrc::fit_label(arc(100, 130, 2 * pi - 0.5, 2 * pi + 0.5), "name").angle == Approx(2 * pi));
  CHECK_FALSE(ccrc::fit_label(arc(100, 130, 2 * pi - 0.5, 2 * pi + 0.5), "name").reversed);
  ccrc::ring_label full = ccrc::fit_label(arc(100, 130, 0.3, 0.3 + 2 * pi), "a_rather_long_name_for_a_ring");
  CHECK(full.fit == ccrc::label_fit::along);
  CHECK(full.angle == 0);
  CHECK_FALSE(full.reversed);
  CHECK_FALSE(full.ellipsis);
}

TEST_CASE("fit_label: the center disc is horizontal; lines, empty names and nonsense styles get none") {
  // r = 40: the text's top and bottom 7.5 px from the middle leave a chord of 78.58 px, 74.58 of
  // room: 11 glyphs of 6.6, or 10 and "…".
  ccrc::ring_segment center{1, 0, ccrc::no_segment, ccrc::segment_kind::center, 0, 40, 0, 2 * pi};
  CHECK(ccrc::fit_label(center, "elevenglyph").fit == ccrc::label_fit::along);
  CHECK(ccrc::fit_label(center, "elevenglyph").radius == 0);
  ccrc::ring_label cut = ccrc::fit_label(center, "twelve_glyph");
  CHECK(cut.bytes == 10);
  CHECK(cut.ellipsis);
  ccrc::ring_segment line{1, 1, 0, ccrc::segment_kind::line, 100, 300, 0, 1};
  CHECK(ccrc::fit_label(line, "x").fit == ccrc::label_fit::none);
  CHECK(ccrc::fit_label(arc(100, 300, 0, 1), "").fit == ccrc::label_fit::none);
  CHECK(ccrc::fit_label(arc(100, 300, 0, 1), "x", {.font_px = std::nan("")}).fit == ccrc::label_fit::none);
  CHECK(ccrc::fit_label(arc(100, 300, 0, 1), "x", {.font_px = 8, .min_font_px = 9}).fit == ccrc::label_fit::none);
  CHECK(ccrc::fit_label(arc(100, 300, 0, 1), "x", {.glyph_em = -1}).fit == ccrc::label_fit::none);
  CHECK(ccrc::fit_label(arc(300, 100, 0, 1), "x").fit == ccrc::label_fit::none);
  CHECK(ccrc::fit_label(arc(100, 300, 1, 0), "x").fit == ccrc::label_fit::none);
}

TEST_CASE("fit_label: a cut never splits a UTF-8 sequence") {
  // 20 two-byte glyphs, 132 px: along 111 px shows 15 and "…", 30 bytes.
  std::string name;
  for (int i = 0; i < 20; ++i) name += "\xc3\xa9";
  ccrc::ring_label l = ccrc::fit_label(arc(100, 130, 0, 1), name);
  CHECK(l.bytes == 30);
  CHECK(l.ellipsis);
}

TEST_CASE("fit_label: on random segments, what is fitted fits, and is shown whole when it can be") {
  test::rng random(20261127);
  for (int trial = 0; trial < 20000; ++trial) {
    double r0 = 400 * random.uniform(), r1 = r0 + 120 * random.uniform();
    double a0 = 14 * random.uniform() - 7, a1 = a0 + 7 * random.uniform();
    std::string name(random.below(40), 'n');
    ccrc::label_style style{.font_px = 9 + 7 * random.uniform(), .min_font_px = 9};
    ccrc::ring_segment s = arc(r0, r1, a0, a1);
    ccrc::ring_label l = ccrc::fit_label(s, name, style);
    if (l.fit == ccrc::label_fit::none) continue;
    std::size_t glyphs = l.bytes + (l.ellipsis ? 1 : 0);
    double width = static_cast<double>(glyphs) * style.glyph_em * l.font_px, span = std::min(a1 - a0, 2 * pi);
    REQUIRE(l.font_px >= 9);
    REQUIRE(l.font_px <= style.font_px);
    if (l.ellipsis) REQUIRE(l.bytes >= 3);
    REQUIRE(l.bytes <= name.size());
    REQUIRE(l.bytes > 0);
    if (l.fit == ccrc::label_fit::along) {
      REQUIRE(width <= (r0 + r1) / 2 * span - 4 + 1e-9);
      REQUIRE(l.font_px <= r1 - r0 - 2 + 1e-9);
    } else {
      REQUIRE(width <= r1 - r0 - 4 + 1e-9);
      REQUIRE(l.font_px <= (r0 + 2) * span - 2 + 1e-9);
    }
    // Cut only where the whole name fits neither way.
    if (l.ellipsis) {
      ccrc::ring_label whole = ccrc::fit_label(s, name, {.font_px = style.font_px, .min_font_px = 9});
      REQUIRE(whole.ellipsis);
    }
  }
}

namespace {

ccrc::icicle_segment box(double x0, double x1, double y0, double y1) {
  return {1, 1, 0, ccrc::icicle_kind::box, x0, x1, y0, y1};
}

}  // namespace

TEST_CASE("fit_label of an icicle box: horizontal from the left edge, cut with an ellipsis, the font fitted to the row") {
  // 115 px wide: 111 px of room, 16 glyphs of 6.6 px (105.6) fit, 17 (112.2) do not.
  ccrc::box_label l = ccrc::fit_label(box(100, 215, 40, 56), "sixteen_glyphs_x");
  CHECK(l.fit == ccrc::label_fit::along);
  CHECK(l.bytes == 16);
  CHECK_FALSE(l.ellipsis);
  CHECK(l.font_px == 11);
  CHECK(l.x == 102);
  CHECK(l.y == 48);
  CHECK(l.text("sixteen_glyphs_x") == "sixteen_glyphs_x");
  // 17 glyphs: floor(111 / 6.6) - 1 = 15 and "…".
  l = ccrc::fit_label(box(100, 215, 40, 56), "seventeen_glyphs_");
  CHECK(l.bytes == 15);
  CHECK(l.ellipsis);
  CHECK(l.text("seventeen_glyphs_") == "seventeen_glyph\xe2\x80\xa6");
  // A row 12 px high takes a 10 px font (12 - 2); one 10.9 px high, none (8.9 < 9).
  CHECK(ccrc::fit_label(box(0, 300, 0, 12), "name").font_px == 10);
  CHECK(ccrc::fit_label(box(0, 300, 0, 10.9), "name").fit == ccrc::label_fit::none);
  // Three glyphs and "…" need 26.4 px of room: 30.4 px wide shows them, 30.3 nothing.
  l = ccrc::fit_label(box(0, 30.4, 0, 16), "abcdefgh");
  CHECK(l.bytes == 3);
  CHECK(l.ellipsis);
  CHECK(ccrc::fit_label(box(0, 30.3, 0, 16), "abcdefgh").fit == ccrc::label_fit::none);
  // A name of three glyphs or fewer is shown whole or not at all; the root's bar is a box.
  CHECK(ccrc::fit_label(box(0, 20, 0, 16), "ab").bytes == 2);
  CHECK(ccrc::fit_label(box(0, 12, 0, 16), "ab").fit == ccrc::label_fit::none);
  ccrc::icicle_segment root{1, 0, ccrc::no_segment, ccrc::icicle_kind::root, 0, 500, 0, 20};
  CHECK(ccrc::fit_label(root, "main").fit == ccrc::label_fit::along);
  // Lines, empty names, nonsense styles, and boxes turned inside out get none.
  ccrc::icicle_segment line{1, 1, 0, ccrc::icicle_kind::line, 0, 300, 0, 16};
  CHECK(ccrc::fit_label(line, "x").fit == ccrc::label_fit::none);
  CHECK(ccrc::fit_label(box(0, 300, 0, 16), "").fit == ccrc::label_fit::none);
  CHECK(ccrc::fit_label(box(0, 300, 0, 16), "x", {.font_px = std::nan("")}).fit == ccrc::label_fit::none);
  CHECK(ccrc::fit_label(box(0, 300, 0, 16), "x", {.glyph_em = -1}).fit == ccrc::label_fit::none);
  CHECK(ccrc::fit_label(box(300, 0, 0, 16), "x").fit == ccrc::label_fit::none);
  CHECK(ccrc::fit_label(box(0, 300, 16, 0), "x").fit == ccrc::label_fit::none);
  // A cut never splits a UTF-8 sequence: 20 two-byte glyphs in 111 px show 15 and "…".
  std::string name;
  for (int i = 0; i < 20; ++i) name += "\xc3\xa9";
  CHECK(ccrc::fit_label(box(100, 215, 0, 16), name).bytes == 30);
}

TEST_CASE("fit_label of random icicle boxes: what is fitted fits, and is shown whole when it can be") {
  test::rng random(20261128);
  for (int trial = 0; trial < 20000; ++trial) {
    double x0 = 400 * random.uniform() - 200, x1 = x0 + 200 * random.uniform();
    double y0 = 300 * random.uniform(), y1 = y0 + 24 * random.uniform();
    std::string name(random.below(40), 'n');
    ccrc::label_style style{.font_px = 9 + 7 * random.uniform(), .min_font_px = 9};
    ccrc::box_label l = ccrc::fit_label(box(x0, x1, y0, y1), name, style);
    if (l.fit == ccrc::label_fit::none) {
      // Nothing shown only where not even three glyphs and "…" (or the whole name) fit.
      double font = std::min(style.font_px, y1 - y0 - 2);
      double need = static_cast<double>(std::min<std::size_t>(name.size(), 4)) * style.glyph_em * font;
      REQUIRE((name.empty() || font < 9 || need > x1 - x0 - 4));
      continue;
    }
    std::size_t glyphs = l.bytes + (l.ellipsis ? 1 : 0);
    REQUIRE(l.fit == ccrc::label_fit::along);
    REQUIRE(l.font_px >= 9);
    REQUIRE(l.font_px <= style.font_px);
    REQUIRE(l.font_px <= y1 - y0 - 2 + 1e-9);
    REQUIRE(static_cast<double>(glyphs) * style.glyph_em * l.font_px <= x1 - x0 - 4 + 1e-9);
    if (l.ellipsis) REQUIRE(l.bytes >= 3);
    REQUIRE(l.bytes <= name.size());
    REQUIRE(l.x == x0 + 2);
    REQUIRE(l.y == (y0 + y1) / 2);
    // Cut only where the whole name does not fit.
    if (l.ellipsis) REQUIRE(static_cast<double>(name.size()) * style.glyph_em * l.font_px > x1 - x0 - 4);
  }
}

TEST_CASE("segment_name: the display name, a chain's first and last with the count between, (root)") {
  ccrc::profile p = test::stacks({{"main;java.util.Map.get;b.B.run;c.C.call;x", 3},
                                  {"main;java.util.Map.get;b.B.run;c.C.call;y", 1},
                                  {"main;d", 4}});
  const ccrc::call_tree& t = p.tree();
  ccrc::node_id get = ccrc::node_at_path(t, "main;java.util.Map.get"), run = ccrc::node_at_path(t, "main;java.util.Map.get;b.B.run");
  ccrc::node_id call = ccrc::node_at_path(t, "main;java.util.Map.get;b.B.run;c.C.call");
  ccrc::ring_segment s{get, 1, 0, ccrc::segment_kind::arc, 10, 20, 0, 1, 1, get};
  CHECK(ccrc::segment_name(t, s) == "Map.get");
  s.contexts = 2;
  s.last = run;
  CHECK(ccrc::segment_name(t, s) == "Map.get \xe2\x80\xa6 B.run");
  s.contexts = 3;
  s.last = call;
  CHECK(ccrc::segment_name(t, s) == "Map.get \xe2\x80\xa6" "1\xe2\x80\xa6 C.call");
  // A line is named after its first context, whatever it stands for.
  ccrc::ring_segment line{get, 1, 0, ccrc::segment_kind::line, 10, 20, 0, 1, 7, get};
  CHECK(ccrc::segment_name(t, line) == "Map.get");
  ccrc::icicle_segment root{ccrc::root_node, 0, ccrc::no_segment, ccrc::icicle_kind::root, 0, 100, 0, 16, 1, ccrc::root_node};
  CHECK(ccrc::segment_name(t, root) == "(root)");
}
