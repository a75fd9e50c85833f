// Issue 15: a failed command loses no file, lost output is not success, numbers print right at
// any magnitude, and a directory given as a file is named in the error.
#include "support/gzip.hpp"
#include "support/sanitized.hpp"
#include "support/tool.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

namespace {

const bool no_dev_full = !std::filesystem::exists("/dev/full");

}  // namespace

TEST_CASE("a failed convert leaves the existing output file as it was, and no temporary file") {
  std::string bad = test::write_temp("bad.cct", "ccrc-cct 1\nmetrics x\nframes 1\na;b\nnodes 2\n-1 0 0\n0 1 5\n");
  std::string out = test::write_temp("keep.folded", "KEEP\n");
  auto r = test::run_tool("convert '" + bad + "' '" + out + "'");
  CHECK(r.status == 1);
  CHECK(r.err == "ccrc convert: frame 'a;b' cannot be written to a folded file\n");
  CHECK(test::read_file(out) == "KEEP\n");
  CHECK(test::temporaries_of(out) == 0);
  // A command that succeeds replaces the file whole.
  REQUIRE(test::run_tool("convert " + test::figure1_path + " '" + out + "'").status == 0);
  CHECK(test::read_file(out).rfind("# metrics: calls bytecodes\nmain 1 1066\n", 0) == 0);
  CHECK(test::temporaries_of(out) == 0);
  std::filesystem::remove(bad);
  std::filesystem::remove(out);
}

TEST_CASE("render, diff and generate write through a temporary file too") {
  std::string svg = test::write_temp("keep.svg", "KEEP\n"), json_out = test::write_temp("keep.json", "KEEP\n"),
              cctb = test::write_temp("keep.cctb", "KEEP\n");
  CHECK(test::run_tool("render " + test::figure1_path + " -o '" + svg + "'").status == 0);
  CHECK(test::read_file(svg).rfind("<?xml", 0) == 0);
  CHECK(test::run_tool("diff " + test::figure1_path + " " + test::figure1_path + " -o '" + json_out + "'").status == 0);
  CHECK(nlohmann::json::parse(test::read_file(json_out))["matched"] == 18);
  CHECK(test::run_tool("generate --nodes 10 --depth 3 --methods 4 -o '" + cctb + "'").status == 0);
  CHECK(test::read_file(cctb).substr(1, 4) == "CCTB");
  for (const auto& p : {svg, json_out, cctb}) CHECK(test::temporaries_of(p) == 0);
  // A directory is not replaced.
  std::filesystem::create_directories(std::string(CCRC_TEST_TMP) + "/d.svg");
  auto dir = test::run_tool("render " + test::figure1_path + " -o '" + std::string(CCRC_TEST_TMP) + "/d.svg'");
  CHECK(dir.status == 1);
  CHECK(dir.err == "ccrc render: cannot write " + std::string(CCRC_TEST_TMP) + "/d.svg: it is a directory\n");
  for (const auto& p : {svg, json_out, cctb, std::string(CCRC_TEST_TMP) + "/d.svg"})
    std::filesystem::remove(p);
}

TEST_CASE("output lost on stdout is an error, not a success" * doctest::skip(no_dev_full)) {
  auto convert = test::run_tool("convert " + test::figure1_path + " - > /dev/full");
  CHECK(convert.status == 1);
  CHECK(convert.err == "ccrc convert: cannot write to stdout: No space left on device\n");
  auto stats = test::run_tool("stats --json " + test::figure1_path + " > /dev/full");
  CHECK(stats.status == 1);
  CHECK(stats.err == "ccrc stats: cannot write to stdout: No space left on device\n");
  auto help = test::run_tool("flat --help > /dev/full");
  CHECK(help.status == 1);
}

TEST_CASE("a total of 1e70 prints as 1e+70 in flat and stats, text and JSON") {
  std::string big = test::write_temp("big.folded", "a;b 1e70\na 1\n");
  auto stats = test::run_tool("stats '" + big + "'");
  REQUIRE(stats.status == 0);
  CHECK(stats.out.find("total samples  1e+70\n") != std::string::npos);
  auto flat = test::run_tool("flat '" + big + "'");
  REQUIRE(flat.status == 0);
  CHECK(flat.out.find("         1e+70  100.00%          1e+70  100.00%  b\n") != std::string::npos);
  CHECK(flat.out.find("             1    0.00%          1e+70  100.00%  a\n") != std::string::npos);
  CHECK(flat.out.find("total 1e+70\n") != std::string::npos);
  auto json = test::run_tool("stats --json '" + big + "'");
  REQUIRE(json.status == 0);
  CHECK(nlohmann::json::parse(json.out)["metrics"][0]["total"].get<double>() == 1e70);
  std::filesystem::remove(big);
}

TEST_CASE("a directory given as a profile or as --modified is named in the error") {
  std::string dir = CCRC_TEST_TMP;
  auto stats = test::run_tool("stats '" + dir + "'");
  CHECK(stats.status == 1);
  CHECK(stats.err == "ccrc stats: cannot read " + dir + ": it is a directory\n");
  auto named = test::run_tool("stats '" + dir + "/.'");
  CHECK(named.status == 1);
  auto from_stdin = test::run_tool("stats - < '" + dir + "'");
  CHECK(from_stdin.status == 1);
  CHECK(from_stdin.err == "ccrc stats: <stdin>: read error: Is a directory\n");
  auto modified = test::run_tool("diff " + test::figure1_path + " " + test::figure1_path + " --modified '" + dir + "'");
  CHECK(modified.status == 1);
  CHECK(modified.err == "ccrc diff: cannot read " + dir + ": it is a directory\n");
}

TEST_CASE("a JSON or pprof input larger than --max-document-bytes is refused, naming it: compressed, on a pipe, endless") {
  // Issue 37: these formats are held whole; a 183 KB .json.gz of 180 MiB of white space took
  // 263 MB, endless JSON on stdin ended in a bare std::bad_alloc.
  const std::string why = " bytes (inflated, if the file is gzip-compressed): ccrc holds this format whole to read it, up "
                          "to --max-document-bytes (default 2 GiB), which raises the bound\n";
  std::string spaces = test::write_temp("spaces.json.gz", test::gzip_repeated("[", ' ', 20'000'000, "]"));
  auto r = test::run_tool("stats '" + spaces + "' --max-document-bytes 1000000");
  CHECK(r.status == 1);
  CHECK(r.err == "ccrc stats: " + spaces + ": a JSON document larger than 1000000" + why);
  auto endless = test::run_tool("stats - --max-document-bytes 10000000", "(printf '['; tr '\\0' ' ' < /dev/zero) | ");
  CHECK(endless.status == 1);
  CHECK(endless.err == "ccrc stats: <stdin>: a JSON document larger than 10000000" + why);
  // A pprof message, and a bound the file fits in.
  std::string pprof = std::string(CCRC_SOURCE_DIR) + "/tests/data/pprof/cpu.pb.gz";
  auto message = test::run_tool("stats '" + pprof + "' --max-document-bytes 1000");
  CHECK(message.status == 1);
  CHECK(message.err == "ccrc stats: " + pprof + ": a pprof message larger than 1000" + why);
  CHECK(test::run_tool("stats '" + pprof + "' --max-document-bytes 2388").status == 0);  // its message's size
  CHECK(test::run_tool("stats '" + spaces + "' --max-document-bytes 20000002").status == 0);
  std::filesystem::remove(spaces);
}

TEST_CASE("an input that exhausts memory is named, not a bare std::bad_alloc" * doctest::skip(test::sanitized)) {
  // Issue 37: a gzip bomb ended in "ccrc stats: std::bad_alloc". 256 MiB of white space in a
  // 256 KB file, read with 256 MB of address space (AddressSanitizer needs terabytes of it).
  std::string bomb = test::write_temp("bomb.json.gz", test::gzip_repeated("[", ' ', std::uint64_t{256} << 20, "]"));
  test::measured_run r = test::run_tool_measured("stats '" + bomb + "'", 8192, 256 * 1024);
  CHECK(r.status == 1);
  CHECK(r.err == "ccrc stats: " + bomb + ": not enough memory to read it\n");
  std::filesystem::remove(bomb);
}
