#include "support/tool.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>

using nlohmann::json;

namespace {

json stats_of(const std::string& path) {
  auto r = test::run_tool("stats '" + path + "' --json");
  REQUIRE(r.status == 0);
  json j = json::parse(r.out);
  j.erase("format");  // the same tree in every format
  return j;
}

}  // namespace

TEST_CASE("ccrc generate --like NAME: the file's stats are Table I's row (the four smallest here, all in the unit tests)") {
  struct row {
    const char* name;
    int nodes, depth, methods;
    double calls;
    int free_nodes, free_depth;
  };
  const row rows[] = {{"lusearch", 33189, 63, 1768, 502521414, 28414, 35},
                      {"luindex", 58834, 52, 1969, 443252127, 46155, 38},
                      {"hsqldb", 66391, 62, 2507, 214764027, 60533, 60},
                      {"chart", 92272, 65, 4554, 404140995, 75266, 55}};
  for (const row& b : rows) {
    CAPTURE(b.name);
    std::string path = test::write_temp(std::string(b.name) + ".cctb", "");
    auto r = test::run_tool(std::string("generate --like ") + b.name + " -o '" + path + "'");
    REQUIRE(r.status == 0);
    CHECK(r.out.rfind(std::string(b.name) + " (seed 1): " + std::to_string(b.nodes) + " contexts", 0) == 0);
    json j = stats_of(path);
    CHECK(j["nodes"] == b.nodes);
    CHECK(j["max_depth"] == b.depth);
    CHECK(j["methods"] == b.methods);
    CHECK(j["metrics"][0]["name"] == "calls");
    CHECK(j["metrics"][0]["total"] == b.calls);
    CHECK(j["metrics"][1]["name"] == "bytecodes");
    CHECK(j["recursion_free"]["nodes"] == b.free_nodes);
    CHECK(j["recursion_free"]["max_depth"] == b.free_depth);
    std::filesystem::remove(path);
  }
}

TEST_CASE("ccrc generate writes every format, the same tree in each, --seed changes it, --scale shrinks it") {
  std::string cctb = test::write_temp("g.cctb", ""), cct = test::write_temp("g.cct", ""),
              folded = test::write_temp("g.folded", ""), other = test::write_temp("g2.cctb", ""),
              small = test::write_temp("g3.cctb", "");
  std::string args = "generate --nodes 3000 --depth 40 --methods 200 --calls 99999 --recursion-free-nodes 1000 "
                     "--recursion-free-depth 15 -o ";
  REQUIRE(test::run_tool(args + "'" + cctb + "'").status == 0);
  REQUIRE(test::run_tool(args + "'" + cct + "'").status == 0);
  REQUIRE(test::run_tool(args + "'" + folded + "'").status == 0);
  json a = stats_of(cctb);
  CHECK(a["nodes"] == 3000);
  CHECK(a["max_depth"] == 40);
  CHECK(a["methods"] == 200);
  CHECK(a["metrics"][0]["total"] == 99999);
  CHECK(a["recursion_free"]["nodes"] == 1000);
  CHECK(a["recursion_free"]["max_depth"] == 15);
  CHECK(stats_of(cct) == a);
  CHECK(stats_of(folded) == a);
  auto flat = [](const std::string& p) { return test::run_tool("flat '" + p + "' --metric bytecodes --json").out; };
  CHECK(flat(cct) == flat(cctb));
  CHECK(flat(folded) == flat(cctb));
  REQUIRE(test::run_tool(args + "'" + other + "' --seed 2").status == 0);
  CHECK(flat(other) != flat(cctb));
  CHECK(std::filesystem::file_size(cctb) < std::filesystem::file_size(folded));

  REQUIRE(test::run_tool("generate --like eclipse --scale 0.01 -o '" + small + "'").status == 0);
  json s = stats_of(small);
  CHECK(s["nodes"] == 21662);
  CHECK(s["max_depth"] == 131);
  CHECK(s["methods"] == 9775);  // capped by the 9,775 recursion-free contexts
  CHECK(s["recursion_free"]["nodes"] == 9775);

  auto defaults = test::run_tool("generate --nodes 500 --depth 30 --methods 50 -o -");
  REQUIRE(defaults.status == 0);
  CHECK(defaults.out.rfind("# metrics: calls bytecodes\n", 0) == 0);
  for (const auto& p : {cctb, cct, folded, other, small}) std::filesystem::remove(p);
}

TEST_CASE("ccrc generate --like NAME --contexts N: exactly N contexts, the row scaled by N over its contexts") {
  // antlr's row: 627,577 contexts, depth 164, 2,498 methods, 165,465,913 calls; without
  // recursion 254,289 contexts, depth 39. Scaled by 50,000 / 627,577 (ccrc::scaled): the
  // contexts and calls are rounded products, the depths and methods are the row's.
  const double factor = 50000.0 / 627577.0;
  std::string path = test::write_temp("antlr50k.cctb", "");
  auto r = test::run_tool("generate --like antlr --contexts 50000 -o '" + path + "'");
  REQUIRE(r.status == 0);
  CHECK(r.out.rfind("antlr (seed 1): 50000 contexts, depth 164, 2498 methods", 0) == 0);
  json j = stats_of(path);
  CHECK(j["nodes"] == 50000);
  CHECK(j["max_depth"] == 164);
  CHECK(j["methods"] == 2498);
  CHECK(j["metrics"][0]["total"] == std::round(165465913 * factor));
  CHECK(j["recursion_free"]["nodes"] == std::llround(254289 * factor));
  CHECK(j["recursion_free"]["max_depth"] == 39);
  std::filesystem::remove(path);

  auto both = test::run_tool("generate --like antlr --scale 2 --contexts 50000 -o x.cctb");
  CHECK(both.status == 2);
  CHECK(both.err.rfind("ccrc generate: --scale and --contexts exclude each other\n", 0) == 0);
  auto too_many = test::run_tool("generate --like antlr --contexts 1000000001 -o x.cctb");
  CHECK(too_many.status == 2);
  CHECK(too_many.err.rfind("ccrc generate: --contexts expects at most 1000000000 contexts\n", 0) == 0);
  CHECK(test::run_tool("generate --like antlr --contexts 0 -o x.cctb").status == 2);
  CHECK(test::run_tool("generate --nodes 100 --depth 10 --methods 20 --contexts 100 -o x.cctb").status == 2);
}

TEST_CASE("ccrc generate: bad arguments exit 2 with the usage, impossible shapes exit 1 saying why") {
  auto no_output = test::run_tool("generate --like pmd");
  CHECK(no_output.status == 2);
  CHECK(no_output.err.rfind("ccrc generate: missing -o FILE\n\nusage: ccrc generate", 0) == 0);
  auto unknown = test::run_tool("generate --like specjbb -o x.cctb");
  CHECK(unknown.status == 2);
  CHECK(unknown.err.rfind("ccrc generate: --like: no benchmark 'specjbb' (known: antlr, bloat,", 0) == 0);
  auto extension = test::run_tool("generate --like pmd -o x.bin");
  CHECK(extension.status == 2);
  CHECK(extension.err.rfind("ccrc generate: cannot tell the format of 'x.bin': name it .cct, .cctb, .folded, .pb.gz (pprof) or .speedscope.json\n", 0) == 0);
  CHECK(test::run_tool("generate --nodes 10 -o x.cctb").status == 2);
  CHECK(test::run_tool("generate --like pmd --nodes 10 -o x.cctb").status == 2);
  CHECK(test::run_tool("generate --nodes 10.5 --depth 3 --methods 3 -o x.cctb").status == 2);
  auto impossible = test::run_tool("generate --nodes 100 --depth 10 --methods 200 -o '" + test::write_temp("x.cctb", "") + "'");
  CHECK(impossible.status == 1);
  CHECK(impossible.err ==
        "ccrc generate: cannot generate this CCT: every method needs a context: methods <= recursion-free nodes\n");
}
