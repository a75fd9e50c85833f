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

TEST_CASE("ccrc flat text output: one line per method, and the total") {
  auto r = test::run_tool("flat " + test::figure1_path + " --metric=bytecodes");
  REQUIRE(r.status == 0);
  CHECK(r.out.find("32.92 %") != std::string::npos);
  CHECK(r.out.find("total 3238") != std::string::npos);
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
