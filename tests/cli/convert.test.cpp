#include "support/tool.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <filesystem>

using nlohmann::json;

TEST_CASE("ccrc convert: folded -> .cct -> .cctb -> folded keeps every context and metric") {
  std::string cct = test::write_temp("f1.cct", ""), cctb = test::write_temp("f1.cctb", ""),
              back = test::write_temp("f1.folded", "");
  REQUIRE(test::run_tool("convert " + test::figure1_path + " '" + cct + "'").status == 0);
  REQUIRE(test::run_tool("convert '" + cct + "' -o '" + cctb + "'").status == 0);  // the contract's spelling
  REQUIRE(test::run_tool("convert '" + cctb + "' '" + back + "'").status == 0);
  std::string text = test::read_file(cct);
  CHECK(text.rfind("ccrc-cct 1\nmetrics calls bytecodes\nframes 5\nmain\nf\ng\nh\ni\nnodes 19\n-1 0 0 0\n0 1 1 1066\n", 0) == 0);
  CHECK(test::read_file(cctb).substr(1, 4) == "CCTB");
  std::string original = test::read_file(test::figure1_path);
  CHECK(test::read_file(back) == original.substr(original.find("# metrics:")));  // the file as written, minus its comment
  // The same statistics, but for the format each file was read as.
  auto stats = [](const std::string& p) {
    json j = json::parse(test::run_tool("stats '" + p + "' --json").out);
    std::string format = j["format"];
    j.erase("format");
    return std::pair(j, format);
  };
  CHECK(stats(cct).second == "ccrc .cct");
  CHECK(stats(cctb).second == "ccrc .cctb");
  CHECK(stats(test::figure1_path).second == "folded stacks");
  CHECK(stats(cct).first == stats(test::figure1_path).first);
  CHECK(stats(cctb).first == stats(test::figure1_path).first);
  for (const auto& p : {cct, cctb, back}) std::filesystem::remove(p);
}

TEST_CASE("every command reads .cct and .cctb, by extension or by content, from files and stdin") {
  std::string cctb = test::write_temp("s.cctb", ""), cct = test::write_temp("s.cct", "");
  REQUIRE(test::run_tool("convert " + test::figure1_path + " '" + cctb + "'").status == 0);
  REQUIRE(test::run_tool("convert " + test::figure1_path + " '" + cct + "'").status == 0);
  std::string disguised_binary = test::write_temp("s.profile", test::read_file(cctb));
  std::string disguised_text = test::write_temp("s.txt", test::read_file(cct));
  for (const auto& p : {cctb, cct, disguised_binary, disguised_text}) {
    CAPTURE(p);
    auto r = test::run_tool("flat '" + p + "' --metric bytecodes --json");
    REQUIRE(r.status == 0);
    CHECK(json::parse(r.out)["total"] == 3238);
    auto in = test::run_tool("stats - --json < '" + p + "'");
    REQUIRE(in.status == 0);
    CHECK(json::parse(in.out)["nodes"] == 18);
  }
  auto to_stdout = test::run_tool("convert '" + cctb + "' -");
  REQUIRE(to_stdout.status == 0);
  CHECK(to_stdout.out.rfind("# metrics: calls bytecodes\nmain 1 1066\n", 0) == 0);
  for (const auto& p : {cctb, cct, disguised_binary, disguised_text}) std::filesystem::remove(p);
}

TEST_CASE("bad native files exit 1 with the file and the reason, a wrong extension is a usage error") {
  std::string cctb = test::write_temp("b.cctb", "");
  REQUIRE(test::run_tool("convert " + test::figure1_path + " '" + cctb + "'").status == 0);
  std::string bytes = test::read_file(cctb);
  std::string truncated = test::write_temp("t.cctb", bytes.substr(0, 100));
  auto r = test::run_tool("stats '" + truncated + "'");
  CHECK(r.status == 1);
  CHECK(r.err == "ccrc stats: " + truncated + ": truncated: 100 bytes, the header announces " +
                     std::to_string(bytes.size()) + "\n");
  std::string folded_named_cctb = test::write_temp("f.cctb", "main;f 1\n");
  auto wrong = test::run_tool("stats '" + folded_named_cctb + "'");
  CHECK(wrong.status == 1);
  CHECK(wrong.err == "ccrc stats: " + folded_named_cctb + ": not a .cctb file (no .cctb magic number at the start)\n");
  std::string bad_text = test::write_temp("b.cct", "ccrc-cct 1\nmetrics x\nframes 1\nmain\nnodes 2\n-1 0 0\n0 2 5\n");
  auto text = test::run_tool("stats '" + bad_text + "'");
  CHECK(text.status == 1);
  CHECK(text.err == "ccrc stats: " + bad_text + ": line 7: frame 2 is not listed (a node has a frame 1..1)\n");
  auto usage = test::run_tool("convert " + test::figure1_path + " out.svg");
  CHECK(usage.status == 2);
  CHECK(usage.err.rfind("ccrc convert: cannot tell the format of 'out.svg': name it .cct, .cctb, .folded, .pb.gz (pprof) or .speedscope.json\n", 0) == 0);
  CHECK(test::run_tool("convert " + test::figure1_path).status == 2);
  for (const auto& p : {cctb, truncated, folded_named_cctb, bad_text}) std::filesystem::remove(p);
}
