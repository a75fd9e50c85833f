#include "support/gzip.hpp"
#include "support/sanitized.hpp"
#include "support/tool.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>

namespace {

// A second run beside Figure 1: one context shared (main;f), one new (main;x), and a metric
// Figure 1 lacks (samples) beside one it has (calls).
const std::string second_run = "# metrics: calls samples\nmain;f 2 5\nmain;x 1 7\n";

}  // namespace

TEST_CASE("ccrc merge: contexts summed, metrics matched by name, a missing metric zero, runs counted") {
  std::string b = test::write_temp("m-b.folded", second_run), out = test::write_temp("m-out.folded", "");
  auto r = test::run_tool("merge " + test::figure1_path + " '" + b + "' -o '" + out + "' --runs");
  REQUIRE(r.status == 0);
  CHECK(r.err.empty());
  std::string merged = test::read_file(out);
  // Columns in order of first appearance; main;f: calls 20 + 2, bytecodes 180 + 0, samples 0 + 5,
  // in both runs; main;x only in the second; main;h;i only in Figure 1. main is in both inputs
  // (the second holds it as the parent of its two contexts).
  CHECK(merged.rfind("# metrics: calls bytecodes runs samples\nmain 1 1066 2 0\nmain;f 22 180 2 5\n", 0) == 0);
  CHECK(merged.find("\nmain;h;i 72 360 1 0\n") != std::string::npos);
  CHECK(merged.find("\nmain;x 1 0 1 7\n") != std::string::npos);
  CHECK(std::count(merged.begin(), merged.end(), '\n') == 1 + 18 + 1);
  for (const auto& p : {b, out}) std::filesystem::remove(p);
}

TEST_CASE("ccrc merge: a directory, a list file and any number of threads give the same bytes") {
  std::filesystem::path dir = test::write_temp("m-dir", "");
  std::filesystem::remove(dir);
  std::filesystem::create_directories(dir);
  std::string list = test::write_temp("m-list.txt", "");
  std::string names;
  for (int seed = 1; seed <= 6; ++seed) {
    std::string path = (dir / ("in" + std::to_string(seed) + ".cctb")).string();
    REQUIRE(test::run_tool("generate --nodes 3000 --depth 12 --methods 40 --seed " + std::to_string(seed) + " -o '" +
                           path + "'").status == 0);
    names += "# input " + std::to_string(seed) + "\n" + path + "\n";
  }
  test::write_temp("m-list.txt", names);
  std::string one = test::write_temp("m-1.cctb", ""), two = test::write_temp("m-2.cctb", ""),
              listed = test::write_temp("m-l.cctb", "");
  REQUIRE(test::run_tool("merge '" + dir.string() + "' -o '" + one + "' --threads 1").status == 0);
  REQUIRE(test::run_tool("merge '" + dir.string() + "' -o '" + two + "' --threads 3").status == 0);
  REQUIRE(test::run_tool("merge '@" + list + "' -o '" + listed + "' --threads 2").status == 0);
  CHECK(test::read_file(one).size() > 1000);
  CHECK(test::read_file(one) == test::read_file(two));
  CHECK(test::read_file(one) == test::read_file(listed));
  // Six runs with seeds 1-6 each hold 3000 contexts and 300000 calls: the totals add up.
  auto stats = test::run_tool("stats '" + one + "'");
  CHECK(stats.out.find("total calls  1800000\n") != std::string::npos);
  for (const auto& p : {one, two, listed, list}) std::filesystem::remove(p);
  std::filesystem::remove_all(dir);
}

TEST_CASE("ccrc merge: an unreadable input stops it, naming the input, and OUT is left alone") {
  std::string bad = test::write_temp("m-bad.folded", "main;f 1\nmain;g\n");
  std::string out = test::write_temp("m-keep.folded", "KEEP\n");
  auto r = test::run_tool("merge " + test::figure1_path + " '" + bad + "' -o '" + out + "'");
  CHECK(r.status == 1);
  CHECK(r.err.find(bad + ": line 2: missing count") != std::string::npos);
  CHECK(test::read_file(out) == "KEEP\n");

  // Named twice, merged (and skipped) once (issue 45: the inputs are a set of names).
  auto skipped = test::run_tool("merge " + test::figure1_path + " '" + bad + "' '" + bad + "' -o '" + out + "' --keep-going");
  CHECK(skipped.status == 0);
  CHECK(skipped.err == "ccrc merge: 1 input named again, read once\nccrc merge: skipped " + bad +
                           ": line 2: missing count: 'main;g' is not a number\nccrc merge: skipped 1 of 2 inputs\n");
  CHECK(test::read_file(out) == test::read_file(test::figure1_path).substr(test::read_file(test::figure1_path).find("# metrics")));

  auto none = test::run_tool("merge '" + bad + "' -o '" + out + "' --keep-going");
  CHECK(none.status == 1);
  CHECK(none.err.find("no input could be read") != std::string::npos);
  CHECK(test::run_tool("merge -o '" + out + "'").status == 2);
  CHECK(test::run_tool("merge " + test::figure1_path).status == 2);
  CHECK(test::run_tool("merge " + test::figure1_path + " -o x.unknown").status == 2);
  for (const auto& p : {bad, out}) std::filesystem::remove(p);
}

TEST_CASE("ccrc merge: one quantity in two units is refused, naming the inputs, and nothing is written") {
  std::string us = test::write_temp("m-us.folded", "# metrics: calls time_us\nmain;f 1 5\n"),
              ns = test::write_temp("m-ns.folded", "# metrics: calls time_ns\nmain;g 1 7000\n"),
              out = test::write_temp("m-units.folded", "KEEP\n");
  for (const char* threads : {"1", "2"}) {
    auto r = test::run_tool("merge '" + us + "' '" + ns + "' '" + us + "' -o '" + out + "' --threads " + threads);
    CHECK(r.status == 1);
    CHECK(r.err == "ccrc merge: 1 input named again, read once\nccrc merge: metric 'time_us' (" + us + ") and metric 'time_ns' (" + ns +
                       ") measure one quantity in two units (microseconds, nanoseconds): convert one of them "
                       "before merging\n");
    CHECK(test::read_file(out) == "KEEP\n");
  }
  for (const auto& p : {us, ns, out}) std::filesystem::remove(p);
}

TEST_CASE("ccrc merge: a directory named in an @LIST is expanded as on the command line") {
  std::filesystem::path dir = test::write_temp("m-listed-dir", "");
  std::filesystem::remove(dir);
  std::filesystem::create_directories(dir);
  for (int seed = 1; seed <= 2; ++seed)
    REQUIRE(test::run_tool("generate --nodes 500 --depth 8 --methods 20 --seed " + std::to_string(seed) + " -o '" +
                           (dir / ("in" + std::to_string(seed) + ".cctb")).string() + "'").status == 0);
  std::string list = test::write_temp("m-dir-list.txt", dir.string() + "\n" + test::figure1_path + "\n");
  std::string listed = test::write_temp("m-dir-listed.cctb", ""), direct = test::write_temp("m-dir-direct.cctb", "");
  auto r = test::run_tool("merge '@" + list + "' -o '" + listed + "'");
  CHECK_MESSAGE(r.status == 0, r.err);
  REQUIRE(test::run_tool("merge '" + dir.string() + "' " + test::figure1_path + " -o '" + direct + "'").status == 0);
  CHECK(test::read_file(listed) == test::read_file(direct));
  // Two runs of 500 contexts and 50,000 calls each, and Figure 1's 345 calls.
  CHECK(test::run_tool("stats '" + listed + "'").out.find("total calls  100345\n") != std::string::npos);
  for (const auto& p : {list, listed, direct}) std::filesystem::remove(p);
  std::filesystem::remove_all(dir);
}

TEST_CASE("ccrc merge --keep-going skips an input that exhausts memory or a tree's capacity, naming it" *
          doctest::skip(test::sanitized)) {
  // Issue 37: an allocation failure in one input aborted the whole merge, and a capacity error
  // did not name its input. A gzip bomb (256 MiB of white space, read with 256 MB of address
  // space), and a callgrind graph of 30 levels that unfolds into 2^30 contexts, beyond the
  // reader's 10,000,000.
  std::string bomb = test::write_temp("m-bomb.json.gz", test::gzip_repeated("[", ' ', std::uint64_t{256} << 20, "]"));
  std::string graph = "events: Ir\n";
  for (int i = 0; i < 30; ++i) {
    const std::string f = "f" + std::to_string(i), next = "f" + std::to_string(i + 1), call = "\ncalls=1 0\n0 1000000000000000\n";
    graph += "fn=" + f + "\n0 1\ncfn=a" + f + call + "cfn=b" + f + call + "fn=a" + f + "\ncfn=" + next + call + "fn=b" + f +
             "\ncfn=" + next + call;
  }
  std::string unfolds = test::write_temp("m-unfolds.callgrind", graph);
  std::string out = test::write_temp("m-out.folded", "");
  const std::string figure1 = test::read_file(test::figure1_path).substr(test::read_file(test::figure1_path).find("# metrics"));
  test::measured_run r = test::run_tool_measured(
      "merge '" + bomb + "' " + test::figure1_path + " -o '" + out + "' --keep-going --threads 1", 8192, 256 * 1024);
  CHECK(r.status == 0);
  CHECK(r.err.find("ccrc merge: skipped " + bomb + ": not enough memory to read it\n") != std::string::npos);
  CHECK(r.err.find("ccrc merge: skipped 1 of 2 inputs\n") != std::string::npos);
  CHECK(test::read_file(out) == figure1);
  std::filesystem::remove(out);
  test::run_result capacity = test::run_tool("merge '" + unfolds + "' " + test::figure1_path + " -o '" + out + "' --keep-going");
  CHECK(capacity.status == 0);
  CHECK(capacity.err.find("ccrc merge: skipped " + unfolds + ": callgrind: the call graph unfolds into more than 10000000 "
                          "calling contexts (callgrind_options::max_contexts)\n") != std::string::npos);
  CHECK(test::read_file(out) == figure1);
  for (const auto& p : {bomb, unfolds, out}) std::filesystem::remove(p);
}

TEST_CASE("ccrc merge --threads N: as many as the system starts, said on stderr; a huge N is the inputs' count") {
  // Issue 45: a thread the system would not start ended the merge with a bare "Resource
  // temporarily unavailable", and a value above 2^32 was cut to its low bits (4294967297: 1).
  // Here each thread's stack takes 256 MiB of an address space of 2 GiB: a few start.
  std::filesystem::path dir = test::write_temp("m-threads", "");
  std::filesystem::remove(dir);
  std::filesystem::create_directories(dir);
  const std::string figure1 = test::read_file(test::figure1_path);
  for (int i = 0; i < 40; ++i) test::write_temp("m-threads/in" + std::to_string(100 + i) + ".folded", figure1);
  std::string one = test::write_temp("m-threads-1.cctb", ""), many = test::write_temp("m-threads-n.cctb", ""),
              huge = test::write_temp("m-threads-huge.cctb", "");
  REQUIRE(test::run_tool("merge '" + dir.string() + "' -o '" + one + "' --threads 1").status == 0);
  REQUIRE(test::run_tool("merge '" + dir.string() + "' -o '" + huge + "' --threads 4294967297").status == 0);
  CHECK(test::read_file(huge) == test::read_file(one));
  if (!test::sanitized) {  // AddressSanitizer needs far more address space than this
    test::measured_run r = test::run_tool_measured("merge '" + dir.string() + "' -o '" + many + "' --threads 40",
                                                   256 * 1024, 2 * 1024 * 1024);
    CHECK_MESSAGE(r.status == 0, r.err);
    CHECK(r.err.find("ccrc merge: --threads 40: the system started ") != std::string::npos);
    CHECK(r.err.find(" of the 40 threads wanted, no more; they did the work\n") != std::string::npos);
    CHECK(test::read_file(many) == test::read_file(one));
  }
  CHECK(test::run_tool("stats '" + one + "'").out.find("total calls  13800\n") != std::string::npos);
  for (const auto& p : {one, many, huge}) std::filesystem::remove(p);
  std::filesystem::remove_all(dir);
}
