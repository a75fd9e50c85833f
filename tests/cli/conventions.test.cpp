// The conventions users bring from other tools: --version, --colour-by, -o -, --top, --focus,
// a time metric by default.
#include "support/tool.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>

using nlohmann::json;

TEST_CASE("ccrc --version and -V print the version of CMakeLists.txt's project()") {
  // The version as project() states it, "X.Y.Z" after "project(ccrc VERSION " (no std::regex:
  // g++ 12 -O1 under the sanitizers warns inside <regex>).
  std::string cmake = test::read_file(CCRC_SOURCE_DIR "/CMakeLists.txt");
  const std::string key = "project(ccrc VERSION ";
  std::size_t at = cmake.find(key);
  REQUIRE(at != std::string::npos);
  at += key.size();
  std::string version = cmake.substr(at, cmake.find_first_not_of("0123456789.", at) - at);
  REQUIRE(std::count(version.begin(), version.end(), '.') == 2);
  for (const char* option : {"--version", "-V"}) {
    auto r = test::run_tool(option);
    CHECK(r.status == 0);
    CHECK(r.out == "ccrc " + version + "\n");
    CHECK(r.err.empty());
  }
}

TEST_CASE("--colour-by is --color-by: the same chart, and not the default coloring") {
  std::string dir = test::write_temp("color", "");
  std::filesystem::remove(dir);
  std::filesystem::create_directories(dir);
  // Two packages: a.* and b.*, each with two methods.
  std::string path = test::write_temp("packages.folded", "a.X.f;a.X.g 3\na.X.f;b.Y.h 2\nb.Y.k 4\n");
  auto british = test::run_tool("render " + path + " -o " + dir + "/british.svg --colour-by package");
  auto american = test::run_tool("render " + path + " -o " + dir + "/american.svg --color-by package");
  auto by_method = test::run_tool("render " + path + " -o " + dir + "/method.svg --color-by=method");
  REQUIRE(british.status == 0);
  REQUIRE(american.status == 0);
  REQUIRE(by_method.status == 0);
  std::string svg = test::read_file(dir + "/british.svg");
  CHECK(svg.size() > 1000);
  CHECK(test::read_file(dir + "/american.svg") == svg);
  CHECK(test::read_file(dir + "/method.svg") != svg);
  auto bad = test::run_tool("render " + path + " -o " + dir + "/x.svg --color-by color");
  CHECK(bad.status == 2);
  CHECK(bad.err.rfind("ccrc render: --color-by expects one of method, package, cv, imbalance, not 'color'\n", 0) == 0);
  // Only where --color-by is an option.
  CHECK(test::run_tool("flat " + path + " --color-by package").status == 2);
  std::filesystem::remove_all(dir);
}

TEST_CASE("-o - writes render's SVG, HTML or JSON, diff's SVG and view's page to stdout, the same bytes as a file") {
  std::string dir = test::write_temp("stdout", "");
  std::filesystem::remove(dir);
  std::filesystem::create_directories(dir);
  const std::string& f = test::figure1_path;
  struct {
    std::string command, file;
  } cases[] = {
      {"render " + f + " --metric bytecodes", "chart.svg"},
      {"render " + f + " --layout icicle", "chart.html"},
      {"render " + f, "chart.json"},
      {"diff " + f + " " + f, "blueprint.svg"},
      {"diff " + f + " " + f + " --chart ring", "ring.svg"},
      {"view " + f, "viewer.html"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.command);
    auto to_file = test::run_tool(c.command + " -o " + dir + "/" + c.file);
    REQUIRE(to_file.status == 0);
    std::string format = c.file.substr(c.file.find('.') + 1);
    // render's format by --format (SVG without it); diff's and view's by the command.
    std::string option = c.command.rfind("render", 0) == 0 && format != "svg" ? " --format " + format : "";
    auto to_stdout = test::run_tool(c.command + " -o -" + option);
    REQUIRE(to_stdout.status == 0);
    std::string expected = test::read_file(dir + "/" + c.file);
    CHECK(expected.size() > 500);
    CHECK(to_stdout.out == expected);
    // The summary line names the file, or goes to stderr with the chart on stdout.
    CHECK(to_file.out.rfind(dir + "/" + c.file, 0) == (c.command.rfind("diff", 0) == 0 ? std::string::npos : 0));
    if (c.command.rfind("diff", 0) != 0) CHECK(to_stdout.err.rfind("<stdout>: ", 0) == 0);
  }
  auto both = test::run_tool("diff " + f + " " + f + " -o - --json");
  CHECK(both.status == 2);
  CHECK(both.err.rfind("ccrc diff: -o - and --json both write to standard output: choose one\n", 0) == 0);
  std::filesystem::remove_all(dir);
}

TEST_CASE("--top N on every command that lists: flat, search (and its --limit), callgraph, diff") {
  const std::string& f = test::figure1_path;
  json flat = json::parse(test::run_tool("flat " + f + " --metric bytecodes --top 2 --json").out);
  REQUIRE(flat["methods"].size() == 2);
  CHECK(flat["methods"][1]["name"] == "h");
  // h's six contexts by aggregated bytecodes: main;h 792, main;f;h 220, then the four of 110.
  for (const char* option : {"--top", "--limit"}) {
    json search = json::parse(test::run_tool("search " + f + " =h --metric bytecodes --json " + option + " 2").out);
    REQUIRE(search["contexts"].size() == 2);
    CHECK(search["contexts"][0]["path"] == "main;h");
    CHECK(search["contexts"][1]["path"] == "main;f;h");
    CHECK(search["matches"] == 6);
  }
  json callgraph = json::parse(test::run_tool("callgraph " + f + " --metric bytecodes --top 3 --json").out);
  REQUIRE(callgraph["functions"].size() == 3);
  CHECK(callgraph["functions"][2]["name"] == "g");  // main 3238, h 1452, g 980
  json diff = json::parse(test::run_tool("diff " + f + " " + f + " --json --top 3").out);
  CHECK(diff["top"].size() == 3);
  json all = json::parse(test::run_tool("diff " + f + " " + f + " --json --top all").out);
  CHECK(all["top"].size() == 18);
  // diff's text lists --top contexts (10 without it), every one unchanged here: H = 0 lines
  // are not printed, so the list is empty either way; the hot path is still there.
  auto text = test::run_tool("diff " + f + " " + f + " --top 1");
  CHECK(text.status == 0);
  CHECK(text.out.find("largest changes of share") != std::string::npos);
  for (const char* command : {"flat ", "search ", "callgraph "}) {
    auto bad = test::run_tool(command + f + (std::string(command) == "search " ? " h" : "") + " --top x");
    CHECK(bad.status == 2);
    CHECK(bad.err.find("--top expects a whole number of rows or 'all', not 'x'\n") != std::string::npos);
  }
}

TEST_CASE("--focus NAME: the contexts of NAME as the roots, merged, on stats, flat, search and render") {
  const std::string& f = test::figure1_path;
  // g's outermost contexts main;f;g and main;g merge into one g: g, g;h, g;h;i, g;g, g;g;h,
  // g;g;h;i; its inner g (main;f;g;g, main;g;g) stays inside it. ag(g) = 490 + 490.
  json stats = json::parse(test::run_tool("stats " + f + " --focus g --json").out);
  CHECK(stats["nodes"] == 6);
  CHECK(stats["max_depth"] == 4);
  CHECK(stats["metrics"][1]["total"] == 980);
  CHECK(stats["metrics"][0]["total"] == 140);  // calls: 40 + 20 + 20 + 20 + 20 + 20
  json flat = json::parse(test::run_tool("flat " + f + " --focus g --metric bytecodes --json").out);
  CHECK(flat["total"] == 980);
  CHECK(flat["methods"][0]["name"] == "g");
  CHECK(flat["methods"][0]["self"] == 540);   // 180 + 180 outermost, 90 + 90 inner
  CHECK(flat["methods"][0]["total"] == 980);
  CHECK(flat["methods"][1]["name"] == "h");
  CHECK(flat["methods"][1]["self"] == 240);
  // --root is a path in the focused profile.
  json root = json::parse(test::run_tool("flat " + f + " --focus g --root 'g;g' --metric bytecodes --json").out);
  CHECK(root["total"] == 400);  // main;f;g;g 200 + main;g;g 200
  json search = json::parse(test::run_tool("search " + f + " =i --focus h --metric bytecodes --json").out);
  REQUIRE(search["contexts"].size() == 1);
  CHECK(search["contexts"][0]["path"] == "h;i");
  CHECK(search["contexts"][0]["self"]["bytecodes"] == 660);
  std::string chart = test::write_temp("focus.json", "");
  // h's six contexts merge into h (self 432 + 120 + 4 x 60 = 792) and h;i (660), h at the center.
  auto render = test::run_tool("render " + f + " --focus h --metric bytecodes -o " + chart);
  REQUIRE(render.status == 0);
  CHECK(render.out == chart + ": 2 segments (0 lines) in 1 rings around h\n");
  json drawn = json::parse(test::read_file(chart));
  CHECK(drawn["total"] == 1452);
  REQUIRE(drawn["segments"].size() == 2);
  CHECK(drawn["segments"][0]["path"] == "h");
  CHECK(drawn["segments"][0]["self"] == 792);
  CHECK(drawn["segments"][1]["path"] == "h;i");
  CHECK(drawn["segments"][1]["value"] == 660);
  auto missing = test::run_tool("flat " + f + " --focus nowhere");
  CHECK(missing.status == 1);
  CHECK(missing.err == "ccrc flat: no function 'nowhere' in the profile (--focus takes a method's whole name)\n");
  std::filesystem::remove(chart);
}

TEST_CASE("the default metric is time or samples where the profile has one, else the first") {
  // As libccrc_instrument writes: calls first, then self_ns and total_ns. Ranked by self_ns,
  // f (5 calls, 10 ns) comes after g (1 call, 900 ns).
  std::string instrumented =
      test::write_temp("instrumented.folded", "# metrics: calls self_ns total_ns\nmain 1 100 1010\nmain;f 5 10 10\nmain;g 1 900 900\n");
  json flat = json::parse(test::run_tool("flat " + instrumented + " --json").out);
  CHECK(flat["metric"] == "self_ns");
  CHECK(flat["methods"][0]["name"] == "g");
  CHECK(flat["methods"][2]["name"] == "f");
  json callgraph = json::parse(test::run_tool("callgraph " + instrumented + " --json").out);
  CHECK(callgraph["metric"] == "self_ns");
  CHECK(callgraph["total"] == 1010);
  // pprof's names: a count, then a time in nanoseconds; one without a time: samples.
  std::string pprof = test::write_temp("pprof.folded", "# metrics: samples_count cpu_nanoseconds\na 2 20000000\n");
  CHECK(json::parse(test::run_tool("flat " + pprof + " --json").out)["metric"] == "cpu_nanoseconds");
  std::string counted = test::write_temp("counted.folded", "# metrics: calls samples\na 2 3\n");
  CHECK(json::parse(test::run_tool("flat " + counted + " --json").out)["metric"] == "samples");
  CHECK(json::parse(test::run_tool("flat " + test::figure1_path + " --json").out)["metric"] == "calls");
  // diff: the same choice among the metrics that are not the counts.
  CHECK(json::parse(test::run_tool("diff " + instrumented + " " + instrumented + " --json").out)["metric"] == "self_ns");
  for (const auto& path : {instrumented, pprof, counted}) std::filesystem::remove(path);
}
