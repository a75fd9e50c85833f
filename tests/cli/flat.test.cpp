#include "support/tool.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

using nlohmann::json;

TEST_CASE("ccrc flat --metric bytecodes --json prints Figure 4(c)") {
  auto r = test::run_tool("flat " + test::figure1_path + " --metric bytecodes --json");
  REQUIRE(r.status == 0);
  json j = json::parse(r.out);
  CHECK(j["metric"] == "bytecodes");
  CHECK(j["total"] == 3238);
  const char* names[] = {"main", "h", "i", "g", "f"};
  const double self[] = {1066, 792, 660, 540, 180};
  const double percent[] = {32.92, 24.46, 20.38, 16.68, 5.56};
  REQUIRE(j["methods"].size() == 5);
  for (std::size_t k = 0; k < 5; ++k) {
    CHECK(j["methods"][k]["name"] == names[k]);
    CHECK(j["methods"][k]["self"] == self[k]);
    CHECK(j["methods"][k]["percent"].get<double>() == doctest::Approx(percent[k]).epsilon(0.0002));
  }
}

TEST_CASE("ccrc flat uses the first metric by default: invocations g 60, h 132, i 132") {
  auto r = test::run_tool("flat " + test::figure1_path + " --json");
  REQUIRE(r.status == 0);
  json j = json::parse(r.out);
  CHECK(j["metric"] == "calls");
  CHECK(j["methods"][0]["name"] == "h");
  CHECK(j["methods"][0]["self"] == 132);
  CHECK(j["methods"][1]["name"] == "i");
  CHECK(j["methods"][1]["self"] == 132);
  CHECK(j["methods"][2]["name"] == "g");
  CHECK(j["methods"][2]["self"] == 60);
}

TEST_CASE("ccrc flat text output: self and total per method with their shares, by self, and the total") {
  // total: ag of the method's outermost contexts; g's are main;f;g and main;g (490 each), h's
  // six add up to 1452 (docs/cli.md).
  auto r = test::run_tool("flat " + test::figure1_path + " --metric=bytecodes");
  REQUIRE(r.status == 0);
  CHECK(r.out ==
        "          self    self%          total   total%  method    (bytecodes)\n"
        "          1066   32.92%           3238  100.00%  main\n"
        "           792   24.46%           1452   44.84%  h\n"
        "           660   20.38%            660   20.38%  i\n"
        "           540   16.68%            980   30.27%  g\n"
        "           180    5.56%            890   27.49%  f\n"
        "total 3238\n");
}

TEST_CASE("ccrc flat --json: total and total_percent per method, recursion counted once") {
  auto r = test::run_tool("flat " + test::figure1_path + " --metric bytecodes --json");
  REQUIRE(r.status == 0);
  json j = json::parse(r.out);
  const double total[] = {3238, 1452, 660, 980, 890};
  REQUIRE(j["methods"].size() == 5);
  for (std::size_t k = 0; k < 5; ++k) {
    CHECK(j["methods"][k]["total"] == total[k]);
    CHECK(j["methods"][k]["total_percent"].get<double>() == doctest::Approx(100 * total[k] / 3238));
  }
  CHECK(j["left_out"] == 0);
}

TEST_CASE("ccrc flat lists 20 methods unless --top says otherwise, and says how many are left out") {
  std::string folded;
  for (int k = 1; k <= 25; ++k) folded += "main;m" + std::to_string(100 + k) + " " + std::to_string(k) + "\n";
  std::string path = test::write_temp("25.folded", folded);
  auto r = test::run_tool("flat " + path);
  REQUIRE(r.status == 0);
  // The header, m125 (25) down to m106 (6), the line of the 6 left out (m101-m105 and main,
  // whose self is 0), the total 325.
  const std::string first = "            25    7.69%             25    7.69%  m125\n";
  CHECK(r.out.substr(r.out.find('\n') + 1, first.size()) == first);
  CHECK(r.out.find("m106\n") != std::string::npos);
  CHECK(r.out.find("m105\n") == std::string::npos);
  CHECK(r.out.find("\n  ... 6 more (--top N or --top all to list them)\ntotal 325\n") != std::string::npos);
  json top3 = json::parse(test::run_tool("flat " + path + " --top 3 --json").out);
  REQUIRE(top3["methods"].size() == 3);
  CHECK(top3["methods"][2]["name"] == "m123");
  CHECK(top3["left_out"] == 23);
  CHECK(top3["total"] == 325);
  json all = json::parse(test::run_tool("flat " + path + " --top all --json").out);
  CHECK(all["methods"].size() == 26);
  CHECK(all["left_out"] == 0);
  auto bad = test::run_tool("flat " + path + " --top -1");
  CHECK(bad.status == 2);
  CHECK(bad.err.rfind("ccrc flat: --top expects a whole number of rows or 'all', not '-1'\n", 0) == 0);
}

TEST_CASE("an unknown metric is an error listing the known ones") {
  auto r = test::run_tool("flat " + test::figure1_path + " --metric time");
  CHECK(r.status == 1);
  CHECK(r.err == "ccrc flat: no metric named 'time' (this profile has: calls, bytecodes)\n");
}

TEST_CASE("ccrc flat --root: the per-method pie of a selected subtree") {
  auto r = test::run_tool("flat " + test::figure1_path + " --metric bytecodes --root 'main;f' --json");
  REQUIRE(r.status == 0);
  json j = json::parse(r.out);
  CHECK(j["total"] == 890);
  CHECK(j["methods"][0]["name"] == "g");
  CHECK(j["methods"][0]["self"] == 270);
  CHECK(j["methods"][3]["name"] == "f");
  CHECK(j["methods"][3]["self"] == 180);
}

TEST_CASE("JSON output escapes quotes and backslashes in frame names") {
  std::string path = test::write_temp("quotes.folded", "main;say \"hi\" \\ there 3\nmain;caf\xc3\xa9 1\n");
  auto r = test::run_tool("flat " + path + " --json");
  REQUIRE(r.status == 0);
  json j = json::parse(r.out);
  CHECK(j["methods"][0]["name"] == "say \"hi\" \\ there");
  CHECK(j["methods"][1]["name"] == "caf\xc3\xa9");
}
