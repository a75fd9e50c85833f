#include <ccrc/diff/rank.hpp>
#include <ccrc/io/folded.hpp>

#include "support/diff.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <string>

namespace {

ccrc::cct_diff diff_of(const ccrc::profile& a, const ccrc::profile& b) {
  return ccrc::diff({a.tree(), a.column(1), a.column(0)}, {b.tree(), b.column(1), b.column(0)});
}

}  // namespace

TEST_CASE("the XML example ranked by |H|: new_method, parse, parse_proxy, then the small changes") {
  auto a = ccrc::read_folded_file(CCRC_SOURCE_DIR "/examples/data/xml_old.folded");
  auto b = ccrc::read_folded_file(CCRC_SOURCE_DIR "/examples/data/xml_new.folded");
  ccrc::cct_diff d = diff_of(a, b);
  std::vector<ccrc::node_id> all = ccrc::rank_by_height(d);
  CHECK(all.size() == 9);  // every context, the root excluded
  std::vector<std::string> names;
  for (ccrc::node_id n : all) names.emplace_back(d.tree().name(n));
  CHECK(names[0] == "SAXBuilder.new_method()");
  CHECK(names[1] == "AbstractSAXParser.parse(InputSource)");
  CHECK(names[2] == "SAXBuilder.parse_proxy(InputSource, XMLReader)");
  CHECK(names[3] == "SAXBuilder.createParser()");
  CHECK(names[4] == "SAXBuilder.createContentHandler()");
  CHECK(d.height[all[5]] == 0);  // main and the three builds: 100 % of both runs
  for (std::size_t i = 6; i < all.size(); ++i) CHECK(all[i - 1] < all[i]);  // ties by id
  CHECK(ccrc::rank_by_height(d, 2) == std::vector<ccrc::node_id>(all.begin(), all.begin() + 2));
  CHECK(ccrc::rank_by_height(d, 0).empty());
}

TEST_CASE("ranking equals a full sort by (|H| descending, id) for every limit") {
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    test::rng r{seed};
    ccrc::profile a = test::unique_tree(r, 1 + r.below(150));
    ccrc::profile b = test::next_version(a, r, 0.1, 0.1, 2);
    ccrc::cct_diff d = diff_of(a, b);
    std::vector<ccrc::node_id> all = ccrc::rank_by_height(d);
    REQUIRE(all.size() == d.tree().size() - 1);
    for (std::size_t i = 1; i < all.size(); ++i) {
      double p = std::abs(d.height[all[i - 1]]), q = std::abs(d.height[all[i]]);
      CHECK((p > q || (p == q && all[i - 1] < all[i])));
    }
    std::size_t k = r.below(static_cast<std::uint32_t>(all.size() + 2));
    auto top = ccrc::rank_by_height(d, k);
    CHECK(top == std::vector<ccrc::node_id>(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(std::min(k, all.size()))));
  }
}
