#include <ccrc/diff/series_csv.hpp>

#include <doctest/doctest.h>

#include <limits>
#include <sstream>

TEST_CASE("CSV: a header of benchmark names, a row per version, exact numbers, empty cells") {
  ccrc::version_series s;
  s.versions = {"1.97", "v\"2\", final"};
  s.benchmarks = {{"testFixedSize", {102, 180.25}}, {"a,b", {std::numeric_limits<double>::infinity(), 0.1}}};
  CHECK(ccrc::series_csv(s) == "version,testFixedSize,\"a,b\"\n1.97,102,\n\"v\"\"2\"\", final\",180.25,0.1\n");
  std::ostringstream out;
  ccrc::write_csv(out, s);
  CHECK(out.str() == ccrc::series_csv(s));
  CHECK(ccrc::series_csv({}) == "version\n");
}
