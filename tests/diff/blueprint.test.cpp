#include <ccrc/diff/blueprint.hpp>
#include <ccrc/io/folded.hpp>

#include "support/diff.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <string>

namespace {

ccrc::cct_diff diff_of(const ccrc::profile& a, const ccrc::profile& b) {
  return ccrc::diff({a.tree(), a.column(1), a.column(0)}, {b.tree(), b.column(1), b.column(0)});
}

ccrc::cct_diff xml_diff() {
  static auto a = ccrc::read_folded_file(CCRC_SOURCE_DIR "/examples/data/xml_old.folded");
  static auto b = ccrc::read_folded_file(CCRC_SOURCE_DIR "/examples/data/xml_new.folded");
  return diff_of(a, b);
}

const ccrc::blueprint_box& box_of(const ccrc::blueprint_layout& bp, const ccrc::cct_diff& d, std::string_view name) {
  for (const auto& b : bp.boxes)
    if (d.tree().name(b.node) == name) return b;
  FAIL("no box " << name);
  return bp.boxes.front();
}

// Geometry that holds for any blueprint: finite numbers, minimum sizes, callers above their
// callees, boxes of one row side by side in pre-order, everything inside the extent.
void check_layout(const ccrc::blueprint_layout& bp, const ccrc::cct_diff& d, const ccrc::blueprint_options& o) {
  std::vector<double> row_right;  // right edge of the last box seen on each row
  for (std::size_t i = 0; i < bp.boxes.size(); ++i) {
    const ccrc::blueprint_box& b = bp.boxes[i];
    for (double v : {b.x, b.y, b.width, b.height}) REQUIRE(std::isfinite(v));
    CHECK(b.width >= o.min_box_width);
    CHECK(b.height >= o.min_box_height);
    CHECK(b.status == d.status[b.node]);
    CHECK(b.x >= -1e-9);
    CHECK(b.x + b.width <= bp.width + 1e-9);
    CHECK(b.y + b.height <= bp.height + 1e-9);
    if (b.parent != ccrc::no_box) {
      const ccrc::blueprint_box& p = bp.boxes[b.parent];
      CHECK(b.parent < i);
      CHECK(d.tree().parent(b.node) == p.node);
      CHECK(b.level == p.level + 1);
      CHECK(b.y >= p.y + p.height + o.vertical_gap - 1e-9);
    } else {
      CHECK(b.level == 0);
    }
    if (b.level >= row_right.size()) row_right.resize(b.level + 1, -1e300);
    CHECK(b.x >= row_right[b.level] + o.horizontal_gap - 1e-9);
    row_right[b.level] = b.x + b.width;
  }
}

}  // namespace

TEST_CASE("the XML blueprint, all shown: new_method is the tallest box, heights follow |H|") {
  ccrc::cct_diff d = xml_diff();
  std::vector<char> shown(d.tree().size(), 1);
  ccrc::blueprint_options o;
  ccrc::blueprint_layout bp = ccrc::blueprint_chart(d, shown, o);
  REQUIRE(bp.boxes.size() == 9);
  check_layout(bp, d, o);
  const auto& nm = box_of(bp, d, "SAXBuilder.new_method()");
  const auto& parse = box_of(bp, d, "AbstractSAXParser.parse(InputSource)");
  const auto& build = box_of(bp, d, "SAXBuilder.build(InputSource)");
  CHECK(nm.height == doctest::Approx(120));
  CHECK(parse.height == doctest::Approx(120 * (495.0 / 942 - 385.0 / 1905) / (699.0 / 1905)));
  CHECK(build.height == 2);  // H = 0: the minimum height
  CHECK(nm.status == ccrc::diff_status::added);
  CHECK(parse.status == ccrc::diff_status::faster);
  for (const auto& b : bp.boxes) {
    CHECK(b.width == 5);  // W = 0 everywhere: the paper's 5 pixels
    CHECK_FALSE(b.hidden_children);
  }
  // Rows: main, build(File), build(URL), build(InputSource), then its callees, then the
  // callees of parse_proxy; a row is as tall as its tallest box.
  CHECK(bp.boxes[0].y == 0);
  CHECK(parse.level == 5);
  CHECK(nm.y == parse.y);
  const auto& proxy = box_of(bp, d, "SAXBuilder.parse_proxy(InputSource, XMLReader)");
  CHECK(nm.y == doctest::Approx(proxy.y + proxy.height + o.vertical_gap));  // parse_proxy is its row's tallest
  CHECK(bp.height == doctest::Approx(nm.y + nm.height));
  // build(InputSource) is centered above its callees.
  const auto& create = box_of(bp, d, "SAXBuilder.createContentHandler()");
  CHECK(proxy.x < build.x);
  CHECK(create.x > build.x);
}

TEST_CASE("Rizel's first view: the delta hot path, with thick borders where callees are hidden") {
  ccrc::cct_diff d = xml_diff();
  std::vector<char> shown = ccrc::hot_path_shown(d);
  ccrc::blueprint_layout bp = ccrc::blueprint_chart(d, shown);
  REQUIRE(bp.boxes.size() == 6);
  check_layout(bp, d, {});
  CHECK_FALSE(box_of(bp, d, "BenchMark.main(String[])").hidden_children);
  CHECK(box_of(bp, d, "SAXBuilder.build(InputSource)").hidden_children);  // createParser, ...
  CHECK(box_of(bp, d, "SAXBuilder.parse_proxy(InputSource, XMLReader)").hidden_children);  // parse
  CHECK_FALSE(box_of(bp, d, "SAXBuilder.new_method()").hidden_children);
  // The tallest box keeps its height: the scale comes from the whole diff, not from what is shown.
  CHECK(box_of(bp, d, "SAXBuilder.new_method()").height == doctest::Approx(120));

  // Expanding parse_proxy shows parse; collapsing build(InputSource) hides everything below it.
  ccrc::node_id proxy = box_of(bp, d, "SAXBuilder.parse_proxy(InputSource, XMLReader)").node;
  ccrc::show_children(d, proxy, shown);
  CHECK(ccrc::blueprint_chart(d, shown).boxes.size() == 7);
  ccrc::node_id build = d.tree().parent(proxy);
  ccrc::show_subtree(d, build, shown);
  CHECK(ccrc::blueprint_chart(d, shown).boxes.size() == 9);
  ccrc::hide_subtree(d, build, shown);
  ccrc::blueprint_layout collapsed = ccrc::blueprint_chart(d, shown);
  CHECK(collapsed.boxes.size() == 4);
  CHECK(collapsed.boxes.back().node == build);
  CHECK(collapsed.boxes.back().hidden_children);
  // show_context: a ranked context and its callers.
  ccrc::node_id nm = ccrc::delta_hot_path(d).back();
  ccrc::show_context(d, nm, shown);
  CHECK(ccrc::blueprint_chart(d, shown).boxes.size() == 6);
}

TEST_CASE("a blueprint rooted at a context, and fixed scales") {
  ccrc::cct_diff d = xml_diff();
  std::vector<char> shown(d.tree().size(), 0);
  ccrc::node_id proxy = ccrc::delta_hot_path(d)[4];
  ccrc::blueprint_layout only = ccrc::blueprint_chart(d, shown, {.root = proxy});
  REQUIRE(only.boxes.size() == 1);  // the root is displayed even if not shown
  CHECK(only.boxes[0].node == proxy);
  CHECK(only.boxes[0].hidden_children);
  ccrc::show_children(d, proxy, shown);
  ccrc::blueprint_options o{.root = proxy, .height_scale = 1000, .width_scale = 10};
  ccrc::blueprint_layout bp = ccrc::blueprint_chart(d, shown, o);
  REQUIRE(bp.boxes.size() == 3);
  check_layout(bp, d, o);
  CHECK(bp.boxes[0].height == doctest::Approx(1000 * (1085.0 / 1905 - 495.0 / 942)));
  CHECK(bp.boxes[1].height == doctest::Approx(1000 * 699.0 / 1905));
  // The caller is centered over its two callees.
  CHECK(bp.boxes[0].x + bp.boxes[0].width / 2 ==
        doctest::Approx((bp.boxes[1].x + bp.boxes[2].x + bp.boxes[2].width) / 2));
}

TEST_CASE("layout invariants on random diffs, all shown or some") {
  for (std::uint64_t seed = 1; seed <= 100; ++seed) {
    test::rng r{seed};
    ccrc::profile a = test::unique_tree(r, 1 + r.below(200));
    ccrc::profile b = test::next_version(a, r, 0.1, 0.1, 2);
    for (double& v : b.column("calls")) v *= r.below(4);
    ccrc::cct_diff d = diff_of(a, b);
    std::vector<char> shown(d.tree().size());
    for (ccrc::node_id n = 1; n < shown.size(); ++n) shown[n] = r.chance(0.8);
    ccrc::blueprint_options o{.slot_width = r.chance(0.5) ? 40.0 : 0.0};
    ccrc::blueprint_layout bp = ccrc::blueprint_chart(d, shown, o);
    check_layout(bp, d, o);
    // Displayed: shown with every caller displayed (counted top-down: parents first).
    std::vector<char> visible(d.tree().size(), 0);
    visible[0] = 1;
    std::size_t expected = 0;
    for (ccrc::node_id n = 1; n < shown.size(); ++n) {
      visible[n] = static_cast<char>(shown[n] && visible[d.tree().parent(n)]);
      if (visible[n]) ++expected;
    }
    CHECK(bp.boxes.size() == expected);
    for (const auto& box : bp.boxes) {
      bool hidden = false;
      for (ccrc::node_id c : d.tree().children(box.node)) hidden = hidden || !visible[c];
      CHECK(box.hidden_children == hidden);
    }
  }
}

TEST_CASE("a blueprint of a chain a million levels deep") {
  ccrc::call_tree a;
  ccrc::frame_id f = a.intern("f");
  ccrc::node_id n = ccrc::root_node;
  for (int i = 0; i < 1'000'000; ++i) n = a.find_or_add_child(n, f);
  std::vector<double> one(a.size(), 1.0), two(a.size(), 1.0);
  two[n] = 3;
  ccrc::cct_diff d = ccrc::diff({a, one}, {a, two});
  std::vector<char> shown(d.tree().size(), 1);
  ccrc::blueprint_layout bp = ccrc::blueprint_chart(d, shown, {.vertical_gap = 1});
  REQUIRE(bp.boxes.size() == 1'000'000);
  CHECK(bp.boxes.back().level == 999'999);
  CHECK(bp.boxes.back().height == doctest::Approx(120));  // the leaf's share changed most
  CHECK(bp.height == doctest::Approx(bp.boxes.back().y + bp.boxes.back().height));
  // Collapsing and expanding the whole chain.
  ccrc::node_id top = bp.boxes.front().node;
  ccrc::hide_subtree(d, top, shown);
  ccrc::blueprint_layout collapsed = ccrc::blueprint_chart(d, shown);
  REQUIRE(collapsed.boxes.size() == 1);
  CHECK(collapsed.boxes[0].hidden_children);
  ccrc::show_subtree(d, top, shown);
  CHECK(ccrc::blueprint_chart(d, shown).boxes.size() == 1'000'000);
}
