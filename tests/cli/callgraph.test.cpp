#include "support/tool.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <map>
#include <string>

using nlohmann::json;

namespace {

// `ccrc callgraph ARGS`, which must succeed, its output parsed.
json callgraph_json(const std::string& args) {
  auto r = test::run_tool("callgraph " + args);
  REQUIRE(r.status == 0);
  return json::parse(r.out);
}

const json& function(const json& j, const std::string& name) {
  for (const auto& f : j["functions"])
    if (f["name"] == name) return f;
  FAIL("no function " << name);
  static json none;
  return none;
}

}  // namespace

TEST_CASE("ccrc callgraph --json on Figure 1: c_i, c_t, masters and the eight calls") {
  json j = callgraph_json(test::figure1_path + " --metric bytecodes --json");
  CHECK(j["metric"] == "bytecodes");
  CHECK(j["total"] == 3238);
  REQUIRE(j["functions"].size() == 5);
  // Largest total first.
  const char* order[] = {"main", "h", "g", "f", "i"};
  for (std::size_t k = 0; k < 5; ++k) CHECK(j["functions"][k]["name"] == order[k]);
  struct expected {
    const char* name;
    double self, total;
    const char* master;
  };
  for (const expected& e : {expected{"main", 1066, 3238, nullptr}, expected{"f", 180, 890, "main"},
                            expected{"g", 540, 980, "main"}, expected{"h", 792, 1452, "main"},
                            expected{"i", 660, 660, "h"}}) {
    CAPTURE(e.name);
    const json& f = function(j, e.name);
    CHECK(f["self"] == e.self);
    CHECK(f["total"] == e.total);
    if (e.master)
      CHECK(f["master"] == e.master);
    else
      CHECK(f["master"].is_null());
    CHECK(f["top_level"] == (e.master == nullptr));
  }
  CHECK(function(j, "g")["calls"] == 60);
  CHECK(function(j, "g")["contexts"] == 4);
  CHECK(function(j, "main")["self_percent"].get<double>() == doctest::Approx(32.92).epsilon(0.0002));
  const json& h = function(j, "h");
  REQUIRE(h["callers"].size() == 3);
  CHECK(h["callers"][1] == json{{"name", "g"}, {"self", 240}, {"total", 440}, {"contexts", 4}, {"calls", 40}});
  CHECK(h["callees"][0]["name"] == "i");
  CHECK(function(j, "main")["callers"].empty());

  std::map<std::string, std::pair<double, double>> edges;
  for (const auto& e : j["edges"])
    edges[e["caller"].get<std::string>() + "->" + e["callee"].get<std::string>()] = {e["self"], e["total"]};
  CHECK(edges == std::map<std::string, std::pair<double, double>>{{"main->f", {180, 890}},
                                                                  {"main->g", {180, 490}},
                                                                  {"main->h", {432, 792}},
                                                                  {"f->g", {180, 490}},
                                                                  {"f->h", {120, 220}},
                                                                  {"g->g", {180, 400}},
                                                                  {"g->h", {240, 440}},
                                                                  {"h->i", {660, 660}}});
  CHECK(j["edges"][0]["caller"] == "main");  // largest total first: main -> f, 890
  CHECK(j["edges"][0]["callee"] == "f");
}

TEST_CASE("ccrc callgraph text: ruby-prof's graph report, one block per function") {
  auto r = test::run_tool("callgraph " + test::figure1_path + " --metric bytecodes");
  REQUIRE(r.status == 0);
  CHECK(r.out.find("call graph of bytecodes: total 3238, 5 functions, 8 calls between them") == 0);
  // The block of g: callers f, main (its master) and g, then g, then its callees h and g.
  std::string g_block =
      "                          490          180          310          20/60     f\n"
      "                          490          180          310          20/60 *   main\n"
      "                          400          180          220          20/60     g\n"
      "  30.27%  16.68%          980          540          440             60   g\n"
      "                          440          240          200         40/132       h\n"
      "                          400          180          220          20/60       g\n";
  CHECK(r.out.find(g_block) != std::string::npos);
}

TEST_CASE("ccrc callgraph without a calls metric counts calling contexts") {
  std::string path = test::write_temp("callgraph-samples.folded", "a;f;f 3\na;g;f 1\n");
  json j = callgraph_json(path + " --json");
  CHECK(j["metric"] == "samples");
  const json& f = function(j, "f");
  CHECK(f["total"] == 4);
  CHECK(f["self"] == 4);
  CHECK(f["contexts"] == 3);
  CHECK_FALSE(f.contains("calls"));
  auto text = test::run_tool("callgraph " + path);
  CHECK(text.out.find("contexts") != std::string::npos);
}

TEST_CASE("ccrc callgraph --function and --top select the functions shown") {
  json one = callgraph_json(test::figure1_path + " --function i --json");
  REQUIRE(one["functions"].size() == 1);
  CHECK(one["functions"][0]["name"] == "i");
  CHECK(one["functions"][0]["master"] == "h");
  CHECK(one["edges"].size() == 8);
  json top = callgraph_json(test::figure1_path + " --top 2 --metric bytecodes --json");
  REQUIRE(top["functions"].size() == 2);
  CHECK(top["functions"][1]["name"] == "h");
}

TEST_CASE("ccrc callgraph errors: unknown function, bad --top, unknown metric") {
  auto r = test::run_tool("callgraph " + test::figure1_path + " --function nope");
  CHECK(r.status == 1);
  CHECK(r.err == "ccrc callgraph: no function 'nope' in the profile\n");
  CHECK(test::run_tool("callgraph " + test::figure1_path + " --top -1").status == 2);
  CHECK(test::run_tool("callgraph " + test::figure1_path + " --metric time").status == 1);
  CHECK(test::run_tool("callgraph").status == 2);
}

TEST_CASE("ccrc callgraph reads stdin and reports its phases") {
  auto r = test::run_tool("callgraph - --json --timings < '" + test::figure1_path + "'");
  REQUIRE(r.status == 0);
  CHECK(json::parse(r.out)["total"] == 345);
  json timings = json::parse(r.err);
  CHECK(timings["phases_ms"].contains("call_graph"));
  CHECK(timings["phases_ms"].contains("masters"));
}
