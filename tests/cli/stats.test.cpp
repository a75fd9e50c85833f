#include "support/tool.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

using nlohmann::json;

TEST_CASE("ccrc stats --json on Figure 1: 18 nodes, depth 6, 5 methods, 345 calls, 3238 bytecodes") {
  auto r = test::run_tool("stats " + test::figure1_path + " --json");
  REQUIRE(r.status == 0);
  json j = json::parse(r.out);
  CHECK(j["nodes"] == 18);
  CHECK(j["max_depth"] == 6);
  CHECK(j["methods"] == 5);
  REQUIRE(j["metrics"].size() == 2);
  CHECK(j["metrics"][0]["name"] == "calls");
  CHECK(j["metrics"][0]["total"] == 345);
  CHECK(j["metrics"][1]["name"] == "bytecodes");
  CHECK(j["metrics"][1]["total"] == 3238);
}

TEST_CASE("ccrc stats prints a readable summary by default") {
  auto r = test::run_tool("stats " + test::figure1_path);
  REQUIRE(r.status == 0);
  CHECK(r.out.find("nodes      18\n") != std::string::npos);
  CHECK(r.out.find("total bytecodes  3238\n") != std::string::npos);
}

TEST_CASE("ccrc reads stdin for '-'") {
  auto r = test::run_tool("stats - --json < " + test::figure1_path);
  REQUIRE(r.status == 0);
  CHECK(json::parse(r.out)["nodes"] == 18);
}

TEST_CASE("--timings: one JSON line on stderr with the duration of each phase") {
  auto r = test::run_tool("stats " + test::figure1_path + " --json --timings");
  REQUIRE(r.status == 0);
  CHECK(r.err.back() == '\n');
  CHECK(r.err.find('\n') == r.err.size() - 1);
  json t = json::parse(r.err);
  CHECK(t["phases_ms"].contains("read"));
  CHECK(t["phases_ms"].contains("statistics"));
  CHECK(t["total_ms"].get<double>() >= t["phases_ms"]["read"].get<double>());
}

TEST_CASE("an empty profile has defined statistics") {
  auto r = test::run_tool("stats " + test::write_temp("empty.folded", "") + " --json");
  REQUIRE(r.status == 0);
  json j = json::parse(r.out);
  CHECK(j["nodes"] == 0);
  CHECK(j["max_depth"] == 0);
  CHECK(j["metrics"][0]["name"] == "samples");
  CHECK(j["metrics"][0]["total"] == 0);
}

TEST_CASE("bad input: exit status 1 and one line naming the file and the line") {
  std::string path = test::write_temp("bad.folded", "main;f 1\nmain;;g 2\n");
  auto r = test::run_tool("stats " + path);
  CHECK(r.status == 1);
  CHECK(r.out.empty());
  CHECK(r.err == "ccrc stats: " + path + ": line 2: empty frame name (';;', or ';' at the start or end of the stack)\n");
  auto missing = test::run_tool("stats /nonexistent/profile.folded");
  CHECK(missing.status == 1);
  CHECK(missing.err == "ccrc stats: cannot open /nonexistent/profile.folded\n");
}

TEST_CASE("bad arguments: exit status 2 with the usage") {
  auto none = test::run_tool("");
  CHECK(none.status == 2);
  CHECK(none.err.find("usage: ccrc COMMAND") != std::string::npos);
  auto unknown = test::run_tool("frobnicate");
  CHECK(unknown.status == 2);
  CHECK(unknown.err == "ccrc: unknown command 'frobnicate' (see 'ccrc --help')\n");
  auto option = test::run_tool("stats " + test::figure1_path + " --bogus");
  CHECK(option.status == 2);
  CHECK(option.err.rfind("ccrc stats: unknown option '--bogus'\n\nusage: ccrc stats", 0) == 0);
  auto missing = test::run_tool("stats");
  CHECK(missing.status == 2);
  CHECK(missing.err.rfind("ccrc stats: missing PROFILE\n", 0) == 0);
}

TEST_CASE("--help prints the usage on stdout and succeeds") {
  auto overview = test::run_tool("--help");
  CHECK(overview.status == 0);
  CHECK(overview.out.find("  stats") != std::string::npos);
  CHECK(overview.out.find("  flat") != std::string::npos);
  auto stats = test::run_tool("stats --help");
  CHECK(stats.status == 0);
  CHECK(stats.out.rfind("usage: ccrc stats PROFILE [--profile NAME|INDEX] [--focus NAME] [--root", 0) == 0);
}

TEST_CASE("ccrc stats --json reports Figure 7(a): 12 nodes, depth 5 without recursion") {
  auto r = test::run_tool("stats " + test::figure1_path + " --json");
  REQUIRE(r.status == 0);
  json j = json::parse(r.out);
  CHECK(j["recursion_free"]["nodes"] == 12);
  CHECK(j["recursion_free"]["max_depth"] == 5);
}

TEST_CASE("ccrc stats --root and --depth: Figure 4(a) and 4(b)") {
  auto f = test::run_tool("stats " + test::figure1_path + " --root 'main;f' --json");
  REQUIRE(f.status == 0);
  json jf = json::parse(f.out);
  CHECK(jf["nodes"] == 9);
  CHECK(jf["max_depth"] == 5);
  CHECK(jf["metrics"][1]["total"] == 890);
  CHECK(jf["recursion_free"]["nodes"] == 6);
  auto cut = test::run_tool("stats " + test::figure1_path + " --depth 3 --json");
  REQUIRE(cut.status == 0);
  json jc = json::parse(cut.out);
  CHECK(jc["nodes"] == 9);
  CHECK(jc["max_depth"] == 3);
  auto missing = test::run_tool("stats " + test::figure1_path + " --root 'main;x'");
  CHECK(missing.status == 1);
  CHECK(missing.err == "ccrc stats: no calling context 'main;x': no frame 'x' under 'main'\n");
  auto negative = test::run_tool("stats " + test::figure1_path + " --depth -1");
  CHECK(negative.status == 2);
}

TEST_CASE("ccrc stats shows the profiler's top-level [lost]: what it counted but could not record") {
  std::string path = test::write_temp("lost.folded", "# metrics: calls self_ns\n[lost] 7 0\nmain;f 3 40\nmain;[lost] 2 0\n");
  auto text = test::run_tool("stats '" + path + "'");
  REQUIRE(text.status == 0);
  // The top-level context only: main;[lost] is a function that happens to bear the name.
  CHECK(text.out.find("\nlost       calls 7, self_ns 0 (in [lost]: what the profiler could not record)\n") !=
        std::string::npos);
  auto j = json::parse(test::run_tool("stats --json '" + path + "'").out);
  CHECK(j["lost"] == json{{"calls", 7}, {"self_ns", 0}});
  auto none = test::run_tool("stats " + test::figure1_path);
  CHECK(none.out.find("lost") == std::string::npos);
  CHECK(json::parse(test::run_tool("stats --json " + test::figure1_path).out)["lost"] == json::object());
  std::filesystem::remove(path);
}
