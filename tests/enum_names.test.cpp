#include <ccrc/algorithm/search.hpp>
#include <ccrc/enum_names.hpp>
#include <ccrc/geometry/color.hpp>
#include <ccrc/geometry/highlight.hpp>
#include <ccrc/geometry/label.hpp>
#include <ccrc/geometry/ring_chart.hpp>
#include <ccrc/transform/eliminate_recursion.hpp>

#include <doctest/doctest.h>

#include <set>
#include <string_view>

namespace {

// Every name of E read back as its value, the names all different and none empty.
template <ccrc::named_enum E>
void check_round_trip(std::size_t count) {
  const auto names = enum_names(E{});
  REQUIRE(names.size() == count);
  std::set<std::string_view> seen;
  for (std::size_t i = 0; i < names.size(); ++i) {
    auto e = static_cast<E>(i);
    CHECK(!ccrc::name_of(e).empty());
    CHECK(ccrc::enum_named<E>(ccrc::name_of(e)) == e);
    seen.insert(names[i]);
  }
  CHECK(seen.size() == count);
}

}  // namespace

TEST_CASE("the options' names: each enumeration's table, by value, read back both ways") {
  CHECK(ccrc::name_of(ccrc::ring_sizing::area) == "area");
  CHECK(ccrc::name_of(ccrc::name_part::class_name) == "class");
  CHECK(ccrc::name_of(ccrc::recursion::drop_repeats) == "drop_repeats");
  CHECK(ccrc::name_of(ccrc::segment_kind::center) == "center");
  CHECK(ccrc::name_of(ccrc::color_by::package) == "package");
  CHECK(ccrc::enum_named<ccrc::child_order>("insertion") == ccrc::child_order::insertion);
  CHECK(ccrc::enum_named<ccrc::name_match>("exact") == ccrc::name_match::exact);
  CHECK(ccrc::enum_named<ccrc::label_fit>("across") == ccrc::label_fit::across);
  // Names are exact: no case folding, no prefixes, no value outside the table.
  CHECK(!ccrc::enum_named<ccrc::ring_sizing>("Area"));
  CHECK(!ccrc::enum_named<ccrc::ring_sizing>("are"));
  CHECK(!ccrc::enum_named<ccrc::ring_sizing>(""));
  CHECK(ccrc::name_of(static_cast<ccrc::ring_sizing>(7)).empty());
  check_round_trip<ccrc::ring_sizing>(3);
  check_round_trip<ccrc::child_order>(3);
  check_round_trip<ccrc::segment_kind>(3);
  check_round_trip<ccrc::color_by>(2);
  check_round_trip<ccrc::label_fit>(3);
  check_round_trip<ccrc::highlight_state>(3);
  check_round_trip<ccrc::name_part>(4);
  check_round_trip<ccrc::name_match>(3);
  check_round_trip<ccrc::recursion>(3);
  static_assert(ccrc::name_of(ccrc::ring_sizing::equal) == "equal", "usable at compile time");
}
