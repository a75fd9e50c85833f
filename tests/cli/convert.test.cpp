#include "support/tool.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

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

namespace {

// A .cct chain a;a;...;a of `depth` contexts, 1 sample each (about 10 bytes a context).
// Its folded stacks: line d holds d names, d - 1 ';' and " 1\n" (2d + 2 bytes), after
// "# metrics: samples\n": depth^2 + 3 depth + 19 bytes.
std::string cct_chain(std::uint64_t depth) {
  std::string text = "ccrc-cct 1\nmetrics samples\nframes 1\na\nnodes " + std::to_string(depth + 1) + "\n-1 0 0\n";
  for (std::uint64_t n = 0; n < depth; ++n) text += std::to_string(n) + " 1 1\n";
  return text;
}

std::uint64_t folded_bytes(std::uint64_t depth) { return depth * depth + 3 * depth + 19; }

// The pprof message of the same chain: a key byte, a length and the content per field
// (tests/formats/pprof.test.cpp works the fields out): the sample at depth d holds d ids.
std::uint64_t pprof_bytes(std::uint64_t depth) {
  auto varint_bytes = [](std::uint64_t v) {
    std::uint64_t n = 1;
    for (; v >= 128; v >>= 7) ++n;
    return n;
  };
  std::uint64_t bytes = 4 + 8 + 6 + 14;
  for (std::uint64_t d = 1; d <= depth; ++d) {
    const std::uint64_t content = 1 + varint_bytes(d) + d + 3;
    bytes += 1 + varint_bytes(content) + content;
  }
  return bytes;
}

}  // namespace

TEST_CASE("folded stacks or pprof above 1 GiB are refused with their size, before anything is written, unless --force") {
  // Issue 37: a deep chain with a value on every context wrote folded stacks toward 160 GB.
  // 50,000 contexts (500 KB of .cct): 2.5 GB of folded stacks, 1.25 GB of pprof.
  std::string in = test::write_temp("deep.cct", cct_chain(50'000));
  std::string out = std::string(CCRC_TEST_TMP) + "/deep-" + std::to_string(getpid());
  for (const char* ext : {".folded", ".pb.gz", ".pb"}) {
    CAPTURE(ext);
    auto r = test::run_tool("convert '" + in + "' -o '" + out + ext + "'");
    CHECK(r.status == 1);
    const bool folded = std::string_view(ext) == ".folded";
    const std::string size = folded ? std::to_string(folded_bytes(50'000)) + " bytes of folded stacks (2.3 GiB)"
                                    : std::to_string(pprof_bytes(50'000)) + " bytes of pprof (before gzip) (1.2 GiB)";
    CHECK(r.err == "ccrc convert: " + out + ext + " would take " + size +
                       ", more than the 1 GiB written without --force: " + (folded ? "a folded line" : "a pprof sample") +
                       " holds its context's whole stack, so the size grows with depth x contexts. Write .cctb or "
                       ".speedscope.json, which hold each context once, or pass --force\n");
    CHECK_FALSE(std::filesystem::exists(out + ext));
  }
  auto to_stdout = test::run_tool("convert '" + in + "' -");
  CHECK(to_stdout.status == 1);
  CHECK(to_stdout.out.empty());
  CHECK(to_stdout.err.find("stdout would take " + std::to_string(folded_bytes(50'000)) + " bytes") != std::string::npos);
  auto merged = test::run_tool("merge '" + in + "' -o '" + out + ".folded'");
  CHECK(merged.status == 1);
  CHECK(merged.err.find("or pass --force") != std::string::npos);
  // The linear formats are written.
  CHECK(test::run_tool("convert '" + in + "' -o '" + out + ".cctb'").status == 0);
  CHECK(test::run_tool("convert '" + in + "' -o '" + out + ".speedscope.json'").status == 0);
  // --force writes it: a chain of 32,768, its folded stacks 1,073,840,147 bytes (1 GiB and
  // 96 KiB), to /dev/null under a name that asks for folded stacks.
  std::string just_above = test::write_temp("just-above.cct", cct_chain(32'768));
  std::filesystem::create_symlink("/dev/null", out + "-null.folded");
  auto refused = test::run_tool("convert '" + just_above + "' -o '" + out + "-null.folded'");
  CHECK(refused.status == 1);
  CHECK(refused.err.find("would take 1073840147 bytes of folded stacks") != std::string::npos);
  auto forced = test::run_tool("convert '" + just_above + "' -o '" + out + "-null.folded' --force");
  CHECK_MESSAGE(forced.status == 0, forced.err);
  // Below the bound, nothing changes: 1,000 contexts, 1,003,019 bytes.
  std::string small = test::write_temp("small-chain.cct", cct_chain(1'000));
  REQUIRE(test::run_tool("convert '" + small + "' -o '" + out + ".folded'").status == 0);
  CHECK(std::filesystem::file_size(out + ".folded") == folded_bytes(1'000));
  for (const std::string& p : {in, just_above, small, out + ".cctb", out + ".speedscope.json", out + ".folded", out + "-null.folded"})
    std::filesystem::remove(p);
}

TEST_CASE("convert refuses folded stacks and .cct with a name longer than their readers accept; .cctb takes it") {
  // Issue 37: a 100 MB name was converted to folded stacks, which then could not be read. A
  // speedscope file of one frame named with 64 MiB + 1 bytes, under its profile's frame p.
  const std::size_t name_bytes = (std::size_t{64} << 20) + 1;
  std::string in = test::write_temp("long-name.speedscope.json",
                                    R"({"shared": {"frames": [{"name": ")" + std::string(name_bytes, 'x') +
                                        R"("}]}, "profiles": [{"type": "sampled", "name": "p", "unit": "none", )"
                                        R"("samples": [[0]], "weights": [1]}]})");
  std::string out = std::string(CCRC_TEST_TMP) + "/long-name-" + std::to_string(getpid());
  auto folded = test::run_tool("convert '" + in + "' -o '" + out + ".folded'");
  CHECK(folded.status == 1);
  CHECK(folded.err == "ccrc convert: the stack of '" + std::string(80, 'x') + "' (depth 2) is " +
                          std::to_string(2 + name_bytes) +
                          " bytes, more than the 67108864 read_folded accepts in a line: write .cctb or speedscope, whose "
                          "size does not grow with the depth\n");
  CHECK_FALSE(std::filesystem::exists(out + ".folded"));
  auto cct = test::run_tool("convert '" + in + "' -o '" + out + ".cct'");
  CHECK(cct.status == 1);
  CHECK(cct.err == "ccrc convert: frame name '" + std::string(80, 'x') + "...' is " + std::to_string(name_bytes) +
                       " bytes, longer than the 67108864 read_cct accepts in a line: write .cctb\n");
  CHECK_FALSE(std::filesystem::exists(out + ".cct"));
  REQUIRE(test::run_tool("convert '" + in + "' -o '" + out + ".cctb'").status == 0);
  auto back = test::run_tool("stats '" + out + ".cctb' --json");
  REQUIRE(back.status == 0);
  CHECK(json::parse(back.out)["nodes"] == 2);
  for (const std::string& p : {in, out + ".cctb"}) std::filesystem::remove(p);
}
