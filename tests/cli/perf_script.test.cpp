#include "support/tool.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <filesystem>

using nlohmann::json;

namespace {

// 148 samples of `perf record -g -F 2000` on tests/data/perf/spin.c (how: tests/io/perf_script.test.cpp).
const std::string spin_perf = std::string(CCRC_SOURCE_DIR) + "/tests/data/perf/spin.perf";

}  // namespace

TEST_CASE("ccrc stats opens perf script output by content, and prints its sample total") {
  auto r = test::run_tool("stats '" + spin_perf + "' --json");
  REQUIRE(r.status == 0);
  json j = json::parse(r.out);
  REQUIRE(j["metrics"].size() == 2);
  CHECK(j["metrics"][0]["name"] == "samples");
  CHECK(j["metrics"][0]["total"] == 148);
  CHECK(j["metrics"][1]["name"] == "period");
  CHECK(j["metrics"][1]["total"] == 148 * 500000);
  auto text = test::run_tool("stats '" + spin_perf + "'");
  REQUIRE(text.status == 0);
  CHECK(text.out.find("total samples  148\n") != std::string::npos);
  // From stdin, where only the content tells the format.
  auto in = test::run_tool("stats - --json < '" + spin_perf + "'");
  REQUIRE(in.status == 0);
  CHECK(json::parse(in.out)["metrics"][0]["total"] == 148);
}

TEST_CASE("ccrc convert: perf script -> folded keeps the thread frame and the stacks") {
  std::string out = test::write_temp("spin.folded", "");
  REQUIRE(test::run_tool("convert '" + spin_perf + "' '" + out + "'").status == 0);
  std::string folded = test::read_file(out);
  CHECK(folded.rfind("# metrics: samples period\n", 0) == 0);
  CHECK(folded.find("\nspin 12936;__libc_start_call_main;main;outer;compute ") != std::string::npos);
  auto back = test::run_tool("stats '" + out + "' --json");
  REQUIRE(back.status == 0);
  CHECK(json::parse(back.out)["metrics"][0]["total"] == 148);
  std::filesystem::remove(out);
}

TEST_CASE("perf script errors name the file and line; .perf is not an output format") {
  std::string bad = test::write_temp("bad.perf", "spin 1 1.0: cycles:\n\t1 f (x)\n\n\tzz g (x)\n");
  auto r = test::run_tool("stats '" + bad + "'");
  CHECK(r.status == 1);
  CHECK(r.err == "ccrc stats: " + bad + ": line 4: frame line outside a sample (no sample header line before it)\n");
  auto usage = test::run_tool("convert '" + spin_perf + "' out.perf");
  CHECK(usage.status == 2);
  CHECK(usage.err.rfind("ccrc convert: cannot write 'out.perf': ccrc reads perf script but does not write it; name it .cct, .cctb, .folded, .pb.gz (pprof) or .speedscope.json\n", 0) == 0);
  std::filesystem::remove(bad);
}
