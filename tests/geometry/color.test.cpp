#include <ccrc/geometry/color.hpp>
#include <ccrc/io/folded.hpp>

#include <doctest/doctest.h>

#include <sstream>

TEST_CASE("color_key: FNV-1a of the name, the same in every tree") {
  static_assert(ccrc::color_key("") == 2166136261u);
  static_assert(ccrc::color_key("a") == 0xe40c292cu);
  CHECK(ccrc::color_key("foobar") == 0xbf9cf968u);
  // Two profiles that intern the same methods in different orders: different ids, same keys.
  std::istringstream one("main;f;g 1\nmain;h 1\n"), two("main;h 1\nmain;g;f 1\n");
  ccrc::profile a = ccrc::read_folded(one), b = ccrc::read_folded(two);
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

TEST_CASE("color_hue: from 0 to 360 degrees, spread out") {
  double lo = 360, hi = 0;
  for (std::uint32_t k = 0; k < 1000; ++k) {
    double h = ccrc::color_hue(ccrc::color_key("method" + std::to_string(k)));
    CHECK(h >= 0);
    CHECK(h < 360);
    lo = std::min(lo, h);
    hi = std::max(hi, h);
  }
  CHECK(lo < 5);
  CHECK(hi > 355);
  CHECK(ccrc::color_hue(0xffffffffu) < 360);
}

TEST_CASE("color_key by package: one colour per package, plain functions keep their own") {
  std::istringstream in("java.util.HashMap.get;java.util.HashMap.hash 1\njava.util.ArrayList.add 1\nmain 1\n");
  ccrc::profile p = ccrc::read_folded(in);
  const ccrc::call_tree& t = p.tree();
  std::vector<std::uint32_t> by_package, by_method;
  for (ccrc::node_id n = 1; n < t.size(); ++n) {
    by_package.push_back(ccrc::color_key(t, n, ccrc::color_by::package));
    by_method.push_back(ccrc::color_key(t, n));
  }
  // Nodes: get, hash, add, main.
  CHECK(by_package[0] == by_package[1]);
  CHECK(by_package[0] == by_package[2]);
  CHECK(by_package[0] == ccrc::color_key("java.util"));
  CHECK(by_method[0] != by_method[1]);
  CHECK(by_package[3] == ccrc::color_key("main"));
  CHECK(by_method[3] == ccrc::color_key("main"));
}
