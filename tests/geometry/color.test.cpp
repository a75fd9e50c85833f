#include <ccrc/geometry/color.hpp>
#include <ccrc/io/folded.hpp>

#include <doctest/doctest.h>

#include <set>
#include <sstream>
#include <string>

using doctest::Approx;

namespace {

ccrc::profile folded(const std::string& text) {
  std::istringstream in(text);
  return ccrc::read_folded(in);
}

ccrc::method_id method(const ccrc::profile& p, std::string_view name) {
  auto m = p.symbols().find_method(name);
  REQUIRE(m);
  return *m;
}

constexpr ccrc::rgb black{0, 0, 0}, white{255, 255, 255}, dark{0x1a, 0x1a, 0x1a};

}  // namespace

TEST_CASE("color_key: FNV-1a of the name, the same in every tree") {
  static_assert(ccrc::color_key("") == 2166136261u);
  static_assert(ccrc::color_key("a") == 0xe40c292cu);
  CHECK(ccrc::color_key("foobar") == 0xbf9cf968u);
  // Two profiles that intern the same methods in different orders: different ids, same keys.
  ccrc::profile a = folded("main;f;g 1\nmain;h 1\n"), b = folded("main;h 1\nmain;g;f 1\n");
  auto key_of = [](const ccrc::profile& p, std::string_view name) {
    for (ccrc::node_id n = 1; n < p.size(); ++n)
      if (p.tree().name(n) == name) return std::pair(p.tree().method(n), ccrc::color_key(p.tree(), n));
    FAIL("no node " << name);
    return std::pair<ccrc::method_id, std::uint32_t>();
  };
  CHECK(key_of(a, "f").first != key_of(b, "f").first);
  for (std::string_view m : {"main", "f", "g", "h"}) CHECK(key_of(a, m).second == key_of(b, m).second);
  CHECK(key_of(a, "f").second != key_of(a, "g").second);
}

TEST_CASE("color_name and color_key by package: one color per package, plain functions keep their own") {
  ccrc::profile p = folded("java.util.HashMap.get;java.util.HashMap.hash 1\njava.util.ArrayList.add 1\nmain 1\n");
  const ccrc::call_tree& t = p.tree();
  CHECK(ccrc::color_name("java.util.HashMap.get", ccrc::color_by::package) == "java.util");
  CHECK(ccrc::color_name("java.util.HashMap.get", ccrc::color_by::method) == "java.util.HashMap.get");
  CHECK(ccrc::color_name("main", ccrc::color_by::package) == "main");
  // Nodes: get, hash, add, main.
  CHECK(ccrc::color_key(t, 1, ccrc::color_by::package) == ccrc::color_key("java.util"));
  CHECK(ccrc::color_key(t, 3, ccrc::color_by::package) == ccrc::color_key("java.util"));
  CHECK(ccrc::color_key(t, 1) != ccrc::color_key(t, 2));
  CHECK(ccrc::color_key(t, 4, ccrc::color_by::package) == ccrc::color_key("main"));
}

TEST_CASE("hex, contrast_ratio, cie76, label_color and shade: the standard formulas") {
  CHECK(ccrc::hex({0xf0, 0x0b, 0x78}) == "#f00b78");
  CHECK(ccrc::relative_luminance(black) == 0);
  CHECK(ccrc::relative_luminance(white) == Approx(1));
  CHECK(ccrc::contrast_ratio(black, white) == Approx(21));
  CHECK(ccrc::contrast_ratio(white, black) == Approx(21));
  CHECK(ccrc::contrast_ratio(dark, dark) == 1);
  // WCAG's example pair: #777777 on white is 4.48:1, just below the 4.5 text wants.
  CHECK(ccrc::contrast_ratio({0x77, 0x77, 0x77}, white) == Approx(4.48).epsilon(0.002));
  // CIELAB: black L* 0, white L* 100; pure sRGB red (53.24, 80.09, 67.20) and green
  // (87.73, -86.18, 83.18) from the published tables.
  CHECK(ccrc::cie76(black, white) == Approx(100).epsilon(1e-4));
  CHECK(ccrc::cie76({255, 0, 0}, black) == Approx(std::hypot(53.24, 80.09, 67.20)).epsilon(1e-3));
  CHECK(ccrc::cie76({255, 0, 0}, {0, 255, 0}) ==
        Approx(std::hypot(87.73 - 53.24, -86.18 - 80.09, 83.18 - 67.20)).epsilon(1e-3));
  CHECK(ccrc::cie76(dark, dark) == 0);
  CHECK(ccrc::label_color(white) == dark);
  CHECK(ccrc::label_color(black) == white);
  CHECK(ccrc::label_color({0xd1, 0x3b, 0x2b}) == white);
  CHECK(ccrc::shade({200, 100, 10}, 0.5) == ccrc::rgb{100, 50, 5});
  CHECK(ccrc::shade({200, 100, 10}, 2) == ccrc::rgb{200, 100, 10});
}

TEST_CASE("categorical_palette: every entry told apart from every other, and dark text readable on each") {
  const auto& palette = ccrc::categorical_palette;
  double closest = 1e9, closest_first_eight = 1e9;
  for (std::size_t i = 0; i < palette.size(); ++i) {
    CHECK(ccrc::contrast_ratio(palette[i], dark) >= 7);
    CHECK(ccrc::label_color(palette[i]) == dark);
    for (std::size_t j = i + 1; j < palette.size(); ++j) {
      closest = std::min(closest, ccrc::cie76(palette[i], palette[j]));
      if (j < 8) closest_first_eight = std::min(closest_first_eight, ccrc::cie76(palette[i], palette[j]));
    }
    CHECK(ccrc::cie76(palette[i], ccrc::neutral_color) >= 12);
  }
  CHECK(closest >= 16.7);
  CHECK(closest_first_eight >= 29);
}

TEST_CASE("chart_colors: the heaviest methods take the palette in order, the rest by name") {
  // Self values: a 50, b 40, c 30, ..., then 30 methods of 1 each.
  std::string text = "main;a 50\nmain;b 40\nmain;c 30\nmain;d 20\nmain;e 10\n";
  for (int i = 0; i < 30; ++i) text += "main;x" + std::to_string(i) + " 1\n";
  ccrc::profile p = folded(text);
  ccrc::chart_colors colors(p.tree(), p.column(0));
  const auto& palette = ccrc::categorical_palette;
  CHECK(colors.of(method(p, "a")) == palette[0]);
  CHECK(colors.of(method(p, "b")) == palette[1]);
  CHECK(colors.of(method(p, "e")) == palette[4]);
  // Ties by name: x0, x1, x10, x11, ..., x19, x2, x20, x21 take entries 5 to 19.
  CHECK(colors.index(method(p, "x0")) == 5);
  CHECK(colors.index(method(p, "x1")) == 6);
  CHECK(colors.index(method(p, "x10")) == 7);
  // Beyond the palette (and main, with no self value, after every method with one): the entry
  // the name's key picks.
  for (std::string_view name : {"x9", "x8", "main"})
    CHECK(colors.index(method(p, name)) == ccrc::color_key(name) % palette.size());
  // The synthetic root is neutral; a node has its method's color.
  CHECK(colors.of(p.tree(), ccrc::root_node) == ccrc::neutral_color);
  CHECK(colors.of(p.tree(), 2) == colors.of(method(p, "a")));
}

TEST_CASE("chart_colors: methods without a self value are ranked too, after the others, by name") {
  // b and c carry nothing themselves, but a legend listing all four shows them: told apart.
  ccrc::profile p = folded("a;b;c;d 5\n");
  ccrc::chart_colors colors(p.tree(), p.column(0));
  CHECK(colors.index(method(p, "d")) == 0);
  CHECK(colors.index(method(p, "a")) == 1);
  CHECK(colors.index(method(p, "b")) == 2);
  CHECK(colors.index(method(p, "c")) == 3);
}

TEST_CASE("chart_colors: the same colors however the profile interned its methods") {
  ccrc::profile a = folded("m;f 3\nm;g 2\nm;h 1\n"), b = folded("m;h 1\nm;g 2\nm;f 3\n");
  ccrc::chart_colors ca(a.tree(), a.column(0)), cb(b.tree(), b.column(0));
  for (std::string_view name : {"m", "f", "g", "h"}) CHECK(ca.of(method(a, name)) == cb.of(method(b, name)));
}

TEST_CASE("chart_colors by package: packages ranked by their methods' summed self values") {
  ccrc::profile p = folded("main;a.X.f 5\nmain;a.Y.g 5\nmain;b.Z.h 8\nmain;c.W.k 1\n");
  ccrc::chart_colors colors(p.tree(), p.column(0), ccrc::color_by::package);
  const auto& palette = ccrc::categorical_palette;
  CHECK(colors.of(method(p, "a.X.f")) == palette[0]);  // a: 10
  CHECK(colors.of(method(p, "a.Y.g")) == palette[0]);
  CHECK(colors.of(method(p, "b.Z.h")) == palette[1]);  // b: 8
  CHECK(colors.of(method(p, "c.W.k")) == palette[2]);
}

TEST_CASE("chart_colors: a flat profile's first eight methods always differ by CIE76 12 or more") {
  // Whatever the names and values: the top eight by self value are ranked first.
  for (int seed = 0; seed < 50; ++seed) {
    std::string text;
    for (int i = 0; i < 40; ++i) text += "main;f" + std::to_string((i * 7919 + seed * 104729) % 1000) + " " + std::to_string(1 + (i * seed) % 97) + "\n";
    ccrc::profile p = folded(text);
    ccrc::chart_colors colors(p.tree(), p.column(0));
    auto entries = ccrc::flat(ccrc::tree_view(p.tree()), p.column(0));
    for (std::size_t i = 0; i < 8 && i < entries.size(); ++i)
      for (std::size_t j = i + 1; j < 8 && j < entries.size(); ++j)
        REQUIRE(ccrc::cie76(colors.of(entries[i].method), colors.of(entries[j].method)) >= 12);
  }
}
