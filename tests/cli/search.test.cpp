#include "support/tool.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <set>

using nlohmann::json;

namespace {

std::set<std::string> paths(const json& j) {
  std::set<std::string> out;
  for (const auto& c : j["contexts"]) out.insert(c["path"].get<std::string>());
  return out;
}

}  // namespace

TEST_CASE("ccrc search g --json: g's 4 contexts, hottest first, covering 980 of 3238 bytecodes") {
  auto r = test::run_tool("search " + test::figure1_path + " g --metric bytecodes --json");
  REQUIRE(r.status == 0);
  json j = json::parse(r.out);
  CHECK(j["query"] == "g");
  CHECK(j["part"] == "name");
  CHECK(j["match"] == "substring");
  CHECK(j["metric"] == "bytecodes");
  CHECK(j["total"] == 3238);
  CHECK(j["matches"] == 4);
  CHECK(j["covered"] == 980);
  CHECK(j["covered_percent"].get<double>() == doctest::Approx(100.0 * 980 / 3238));
  CHECK(j["methods"] == json::array({"g"}));
  REQUIRE(j["contexts"].size() == 4);
  CHECK(j["contexts"][0]["path"] == "main;f;g");  // ties (490) in the profile's order
  CHECK(j["contexts"][0]["method"] == "g");
  CHECK(j["contexts"][0]["self"]["calls"] == 20);
  CHECK(j["contexts"][0]["self"]["bytecodes"] == 180);
  CHECK(j["contexts"][0]["aggregated"]["bytecodes"] == 490);
  CHECK(j["contexts"][0]["aggregated"]["calls"] == 70);
  CHECK(j["contexts"][1]["path"] == "main;g");
  CHECK(j["contexts"][3]["path"] == "main;g;g");
}

TEST_CASE("ccrc search --json with a query that is not UTF-8: valid JSON, each stray byte U+FFFD") {
  // Issue 45: the query typed in Latin-1 (caf\xe9) was copied raw into the JSON, which no
  // JSON reader then took.
  auto r = test::run_tool("search " + test::figure1_path + " $(printf 'caf\\351') --json");
  REQUIRE(r.status == 0);
  json j = json::parse(r.out);  // throws on invalid UTF-8
  CHECK(j["query"] == "caf\xEF\xBF\xBD");
  CHECK(j["matches"] == 0);
}

TEST_CASE("ccrc search: regex, exact names, thresholds in absolute values and percentages") {
  auto re = json::parse(test::run_tool("search " + test::figure1_path + " 're:^(h|i)$' --json").out);
  CHECK(re["matches"] == 12);
  auto exact = json::parse(test::run_tool("search " + test::figure1_path + " =main --json").out);
  CHECK(paths(exact) == std::set<std::string>{"main"});
  auto none = json::parse(test::run_tool("search " + test::figure1_path + " =mai --json").out);
  CHECK(none["matches"] == 0);
  CHECK(none["covered_percent"] == 0);
  auto self = json::parse(
      test::run_tool("search " + test::figure1_path + " '' --metric bytecodes --min-self 360 --json").out);
  CHECK(paths(self) == std::set<std::string>{"main", "main;h", "main;h;i"});
  CHECK(self["covered"] == 3238);
  auto share = json::parse(test::run_tool("search " + test::figure1_path + " '' --min-total 25% --json").out);
  CHECK(paths(share) == std::set<std::string>{"main", "main;f", "main;h"});  // calls: ag >= 86.25
  auto both = json::parse(
      test::run_tool("search " + test::figure1_path + " h --metric bytecodes --min-total 200 --json").out);
  CHECK(paths(both) == std::set<std::string>{"main;f;h", "main;h"});
}

TEST_CASE("ccrc search by name part, ignoring case, in a subtree, limited") {
  std::string profile = test::write_temp("qualified.folded",
                                         "app.Main.main();java.util.HashMap.get(Object) 5\n"
                                         "app.Main.main();app.Cache.get(String);java.util.HashMap.get(Object) 3\n"
                                         "app.Main.main();std::vector<int>::push_back(int) 2\n");
  auto cls = json::parse(test::run_tool("search " + profile + " =hashmap --class -i --json").out);
  CHECK(cls["matches"] == 2);
  CHECK(cls["covered"] == 8);
  auto pkg = json::parse(test::run_tool("search " + profile + " =std --package --json").out);
  CHECK(pkg["matches"] == 1);  // std::vector<int>::push_back: namespace std, class vector<int>
  auto std_class = json::parse(test::run_tool("search " + profile + " =std --class --json").out);
  CHECK(std_class["matches"] == 0);
  auto vector = json::parse(test::run_tool("search " + profile + " '=vector<int>' --class --json").out);
  CHECK(vector["matches"] == 1);
  auto method = json::parse(test::run_tool("search " + profile + " =get --method --json").out);
  CHECK(method["matches"] == 3);
  CHECK(method["methods"].size() == 2);
  auto sub = json::parse(
      test::run_tool("search " + profile + " get --method --root 'app.Main.main();app.Cache.get(String)' --json").out);
  CHECK(sub["matches"] == 2);
  CHECK(sub["covered"] == 3);
  auto limited = json::parse(test::run_tool("search " + profile + " get --limit 1 --json").out);
  CHECK(limited["matches"] == 3);
  REQUIRE(limited["contexts"].size() == 1);
  CHECK(limited["contexts"][0]["path"] == "app.Main.main();java.util.HashMap.get(Object)");
}

TEST_CASE("ccrc search text output: one line per context and the covered share") {
  auto r = test::run_tool("search " + test::figure1_path + " g --metric bytecodes");
  REQUIRE(r.status == 0);
  CHECK(r.out.find("         490         180  main;f;g\n") != std::string::npos);
  CHECK(r.out.find("4 contexts of 1 method; they cover 980 of 3238 bytecodes (30.27 %)\n") != std::string::npos);
}

TEST_CASE("ccrc search: bad queries and options") {
  auto regex = test::run_tool("search " + test::figure1_path + " 're:('");
  CHECK(regex.status == 1);
  CHECK(regex.err.rfind("ccrc search: invalid regular expression '('", 0) == 0);
  auto threshold = test::run_tool("search " + test::figure1_path + " g --min-self lots");
  CHECK(threshold.status == 2);
  CHECK(threshold.err.rfind("ccrc search: --min-self expects a number or a percentage, not 'lots'\n", 0) == 0);
  auto parts = test::run_tool("search " + test::figure1_path + " g --class --method");
  CHECK(parts.status == 2);
  auto missing = test::run_tool("search " + test::figure1_path);
  CHECK(missing.status == 2);
  CHECK(missing.err.rfind("ccrc search: missing QUERY\n", 0) == 0);
  auto help = test::run_tool("search --help");
  CHECK(help.status == 0);
  CHECK(help.out.rfind("usage: ccrc search PROFILE QUERY", 0) == 0);
}

TEST_CASE("ccrc search and render --highlight: a regex on a 50,000-character frame name (issue 15: std::regex overflowed the stack)") {
  std::string long_name;
  for (int i = 0; i < 50'000; ++i) long_name += i % 3 == 0 ? 'b' : 'a';
  std::string profile = test::write_temp("long-name.folded", "main;" + long_name + "c 3\nmain;" + long_name + " 2\nmain 1\n");
  auto r = test::run_tool("search " + profile + " 're:(a|b)*c' --json");
  REQUIRE(r.status == 0);
  json j = json::parse(r.out);
  CHECK(j["matches"] == 1);
  CHECK(j["covered"] == 3);
  REQUIRE(j["methods"].size() == 1);
  CHECK(j["methods"][0] == long_name + "c");
  std::string svg = std::string(CCRC_TEST_TMP) + "/" + std::to_string(getpid()) + "-long-name.svg";
  auto rendered = test::run_tool("render " + profile + " -o '" + svg + "' --highlight 're:(a|b)*c'");
  CHECK(rendered.status == 0);
  CHECK(rendered.err == "");
  CHECK(test::read_file(svg).find(">1 highlighted segments</text>") != std::string::npos);
}
