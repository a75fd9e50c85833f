#include <ccrc/diff/series.hpp>

#include <doctest/doctest.h>

#include <limits>
#include <string>

namespace {

// Rizel's Figure 6: testFixedSize jumps at 1.97 -> 1.98 and 1.107 -> 1.108; another
// benchmark wobbles by a few per cent.
ccrc::version_series roassal() {
  ccrc::version_series s;
  ccrc::benchmark_series fixed{"testFixedSize", {}}, other{"testNesting", {}};
  for (int v = 90; v <= 115; ++v) {
    s.versions.push_back("1." + std::to_string(v));
    fixed.totals.push_back(v < 98 ? 100 : v < 108 ? 180 : 260);
    other.totals.push_back(v % 2 ? 50 : 52);
  }
  s.benchmarks = {fixed, other};
  return s;
}

}  // namespace

TEST_CASE("the jumps of Rizel's Figure 6: the two versions worth comparing") {
  ccrc::version_series s = roassal();
  auto jumps = ccrc::find_jumps(s);
  REQUIRE(jumps.size() == 2);
  CHECK(jumps[0].benchmark == 0);
  CHECK(s.versions[jumps[0].from] == "1.97");
  CHECK(s.versions[jumps[0].to] == "1.98");
  CHECK(jumps[0].before == 100);
  CHECK(jumps[0].after == 180);
  CHECK(jumps[0].relative == doctest::Approx(0.8));
  CHECK(s.versions[jumps[1].from] == "1.107");
  CHECK(s.versions[jumps[1].to] == "1.108");
  CHECK(jumps[1].relative == doctest::Approx(80.0 / 180));
  // A finer threshold sees the other benchmark's 4 % wobble; an absolute floor hides it again.
  CHECK(ccrc::find_jumps(s, {.min_relative = 0.03}).size() == 2 + 25);
  CHECK(ccrc::find_jumps(s, {.min_relative = 0.03, .min_absolute = 5}).size() == 2);
}

TEST_CASE("speedups are jumps too; unmeasured versions are skipped; a change from 0 qualifies") {
  ccrc::version_series s;
  s.versions = {"a", "b", "c", "d", "e"};
  const double none = std::numeric_limits<double>::quiet_NaN();
  s.benchmarks = {{"x", {942, none, 1905, 900, none}}, {"y", {0, 0, 3}}, {"z", {none, 5}}};
  auto jumps = ccrc::find_jumps(s);
  REQUIRE(jumps.size() == 3);
  CHECK(jumps[0].benchmark == 0);
  CHECK(jumps[0].from == 0);
  CHECK(jumps[0].to == 2);
  CHECK(jumps[0].relative == doctest::Approx(963.0 / 942));  // +102 %
  CHECK(jumps[1].benchmark == 1);
  CHECK(jumps[1].to == 2);
  CHECK(jumps[1].relative == 0);  // from 0: not relative
  CHECK(jumps[2].to == 3);
  CHECK(jumps[2].relative < 0);
}
