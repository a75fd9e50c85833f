#include "support/tool.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>

using nlohmann::json;

TEST_CASE("ccrc dacapo --json: the paper's Table I rows beside the generated trees', with timings") {
  auto r = test::run_tool("dacapo --only lusearch,hsqldb --json");
  REQUIRE(r.status == 0);
  json j = json::parse(r.out);
  CHECK(j["seed"] == 1);
  REQUIRE(j["benchmarks"].size() == 2);
  const json& lusearch = j["benchmarks"][0];
  CHECK(lusearch["name"] == "lusearch");
  CHECK(lusearch["paper"]["nodes"] == 33189);
  CHECK(lusearch["paper"]["max_depth"] == 63);
  CHECK(lusearch["paper"]["method_calls"] == 502521414);
  CHECK(lusearch["paper"]["recursion_free_nodes"] == 28414);
  CHECK(lusearch["paper"]["recursion_free_max_depth"] == 35);
  for (const json& b : j["benchmarks"]) {
    CHECK(b["generated"] == b["paper"]);
    for (const char* phase : {"generate", "statistics", "eliminate_recursion", "write_cctb", "read_cctb"})
      CHECK(b["timings_ms"][phase].get<double>() >= 0);
    CHECK(b["timings_ms"]["ring_layout"].get<double>() >= 0);
    CHECK(b["cctb_bytes"].get<double>() > 0);
  }
  CHECK(j["benchmarks"][1]["paper_render_ms"] == 61);
  // The layout timed is the chart `ccrc render --depth all` draws of the same profile.
  std::string cctb = test::write_temp("lusearch.cctb", ""), chart = test::write_temp("lusearch.json", "");
  REQUIRE(test::run_tool("generate --like lusearch -o " + cctb).status == 0);
  REQUIRE(test::run_tool("render " + cctb + " --metric bytecodes --depth all -o " + chart).status == 0);
  std::ifstream in(chart);
  CHECK(json::parse(in)["segments"].size() == lusearch["ring_segments"].get<std::size_t>());
}

TEST_CASE("ccrc dacapo prints both tables, an unknown benchmark is a usage error") {
  auto r = test::run_tool("dacapo --only lusearch");
  REQUIRE(r.status == 0);
  CHECK(r.out.find("lusearch  paper        502,521,414     1,768     33,189     63                     28,414     35\n"
                   "          ccrc         502,521,414     1,768     33,189     63                     28,414     35\n") !=
        std::string::npos);
  CHECK(r.out.find("ring layout") != std::string::npos);
  auto bad = test::run_tool("dacapo --only specjbb");
  CHECK(bad.status == 2);
  CHECK(bad.err.rfind("ccrc dacapo: --only: no benchmark 'specjbb'\n", 0) == 0);
}
