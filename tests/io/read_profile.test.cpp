#include <ccrc/io/read_profile.hpp>
#include <ccrc/tree/path.hpp>

#include "support/figure1.hpp"
#include "support/same_profile.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>
#include <unistd.h>

namespace {

// A file in the temporary directory holding `bytes`, removed when it goes.
struct temp_file {
  std::filesystem::path path;
  temp_file(const std::string& name, const std::string& bytes)
      : path(std::filesystem::temp_directory_path() / ("ccrc-read-" + std::to_string(::getpid()) + "-" + name)) {
    std::ofstream(path, std::ios::binary) << bytes;
  }
  ~temp_file() { std::filesystem::remove(path); }
};

std::string bytes_of(const ccrc::profile& p, ccrc::profile_format f) {
  std::ostringstream out;
  if (f == ccrc::profile_format::cctb) ccrc::write_cctb(out, p);
  else if (f == ccrc::profile_format::cct) ccrc::write_cct(out, p);
  else ccrc::write_folded(out, p);
  return out.str();
}

}  // namespace

TEST_CASE("the format is told by the first bytes") {
  CHECK(ccrc::detect_format("\x89" "CCTB\r\n\x1a") == ccrc::profile_format::cctb);
  CHECK(ccrc::detect_format("\x89" "CCT") == ccrc::profile_format::cctb);  // a damaged header: the .cctb reader says so
  CHECK(ccrc::detect_format("\x89" "CC") == ccrc::profile_format::folded);
  CHECK(ccrc::detect_format("ccrc-cct 1\nmetrics") == ccrc::profile_format::cct);
  CHECK(ccrc::detect_format("ccrc-cct") == ccrc::profile_format::folded);
  CHECK(ccrc::detect_format("main;f 1\n") == ccrc::profile_format::folded);
  CHECK(ccrc::detect_format("") == ccrc::profile_format::folded);
  CHECK(ccrc::detect_format("# callgrind format\nversion: 1\n") == ccrc::profile_format::callgrind);
  CHECK(ccrc::detect_format("version: 1\nevents: Ir\nfn=main\n") == ccrc::profile_format::callgrind);
  CHECK(ccrc::detect_format("fn=main 1\nevents: 3\n") == ccrc::profile_format::folded);  // a frame 'fn=main' first
  static_assert(ccrc::detect_format("ccrc-cct 1") == ccrc::profile_format::cct);
}

TEST_CASE("the format a file name says") {
  CHECK(ccrc::format_of_extension("a/b.cct") == ccrc::profile_format::cct);
  CHECK(ccrc::format_of_extension("b.cctb") == ccrc::profile_format::cctb);
  CHECK(ccrc::format_of_extension("x.folded") == ccrc::profile_format::folded);
  CHECK(ccrc::format_of_extension("x.collapsed") == ccrc::profile_format::folded);
  CHECK(ccrc::format_of_extension("x.txt") == ccrc::profile_format::folded);
  CHECK(ccrc::format_of_extension("x.callgrind") == ccrc::profile_format::callgrind);
  CHECK(ccrc::format_of_extension("run/callgrind.out.4242") == ccrc::profile_format::callgrind);
  CHECK(ccrc::format_of_extension("x.svg") == std::nullopt);
  CHECK(ccrc::format_of_extension("cct") == std::nullopt);
}

TEST_CASE("Figure 1 reads back from every format, by content, from a stream and from any file name") {
  ccrc::profile p = test::figure1();
  for (auto f : {ccrc::profile_format::folded, ccrc::profile_format::cct, ccrc::profile_format::cctb}) {
    std::string bytes = bytes_of(p, f);
    CAPTURE(bytes.substr(0, 10));
    std::istringstream in(bytes);
    test::check_same_profile(ccrc::read_core_profile(in).profile, p);
    temp_file disguised("profile", bytes);
    test::check_same_profile(ccrc::read_core_profile_file(disguised.path).profile, p);
  }
  temp_file named_cct("f.cct", bytes_of(p, ccrc::profile_format::cct));
  test::check_same_profile(ccrc::read_core_profile_file(named_cct.path).profile, p);
  temp_file named_cctb("f.cctb", bytes_of(p, ccrc::profile_format::cctb));
  test::check_same_profile(ccrc::read_core_profile_file(named_cctb.path).profile, p);
}

TEST_CASE("valgrind's callgrind output reads by content, or by its name, its self totals those of the file") {
  // A diamond: main (self 10) calls a and b, each calling c (self 70 in all, 40 : 30 by the
  // callers' inclusive edge costs).
  const std::string text =
      "# callgrind format\nevents: Ir\nfn=main\n1 10\ncfn=a\ncalls=1 1\n1 60\ncfn=b\ncalls=1 1\n1 40\n"
      "fn=a\n1 20\ncfn=c\ncalls=1 1\n1 40\nfn=b\n1 10\ncfn=c\ncalls=1 1\n1 30\nfn=c\n1 70\ntotals: 110\n";
  std::istringstream in(text);
  for (const ccrc::profile& p : {ccrc::read_core_profile(in).profile, ccrc::read_core_profile_file(temp_file("x.prof", text).path).profile,
                                 ccrc::read_core_profile_file(temp_file("callgrind.out.7", text).path).profile}) {
    CHECK(p.metric_names() == std::vector<std::string>{"Ir"});
    CHECK(p.size() == 6);
    CHECK(p.column("Ir")[ccrc::node_at_path(p.tree(), "main;a;c")] == 40);
    CHECK(p.column("Ir")[ccrc::node_at_path(p.tree(), "main;b;c")] == 30);
  }
  CHECK_THROWS_AS((void)ccrc::read_core_profile_file(temp_file("x.callgrind", "main;f 1\n").path).profile, ccrc::parse_error);
}

TEST_CASE("inputs shorter than the detection window, and empty ones") {
  std::istringstream tiny("a 1\n");
  ccrc::profile p = ccrc::read_core_profile(tiny).profile;
  CHECK(p.size() == 2);
  CHECK(p.column(0)[1] == 1);
  std::istringstream empty("");
  CHECK(ccrc::read_core_profile(empty).profile.size() == 1);
  temp_file empty_file("empty", "");
  CHECK(ccrc::read_core_profile_file(empty_file.path).profile.size() == 1);
}

TEST_CASE("perf's binary perf.data is refused at byte 0 with what to run, not read as folded stacks") {
  const std::string expected =
      "byte 0: perf's binary perf.data, which ccrc does not read: run `perf script` on it "
      "(perf script -i perf.data > out.perf) and read its output";
  // The header's magic as perf writes it on a little-endian machine, then on a big-endian one.
  for (std::string magic : {"PERFILE2", "2ELIFREP"}) {
    std::string bytes = magic + std::string("\x68\0\0\0\0\0\0\0", 8) + "\x88\0\0\0";
    std::istringstream in(bytes);
    CHECK_THROWS_WITH_AS(static_cast<void>(ccrc::read_core_profile(in).profile), expected.c_str(), ccrc::parse_error);
    temp_file file("perf.data", bytes);
    CHECK_THROWS_WITH_AS(static_cast<void>(ccrc::read_core_profile_file(file.path).profile),
                         (file.path.string() + ": " + expected).c_str(), ccrc::parse_error);
  }
  // The magic then text, as no perf.data has: a folded frame named so is a frame.
  std::istringstream folded("PERFILE2;main 3\n");
  CHECK(ccrc::read_core_profile(folded).profile.size() == 3);
}

TEST_CASE("a .cct or .cctb name must hold that format; errors keep their line") {
  temp_file folded_as_cctb("f.cctb", "main;f 1\n");
  CHECK_THROWS_WITH_AS(static_cast<void>(ccrc::read_core_profile_file(folded_as_cctb.path).profile),
                       (folded_as_cctb.path.string() + ": not a .cctb file (no .cctb magic number at the start)").c_str(),
                       ccrc::parse_error);
  temp_file folded_as_cct("f.cct", "main;f 1\n");
  CHECK_THROWS_AS(static_cast<void>(ccrc::read_core_profile_file(folded_as_cct.path).profile), ccrc::parse_error);
  // Detected by content: a folded file with an error on line 3, past the detection window.
  std::istringstream bad("main;f 1\nmain;g 2\nmain;h x\n");
  CHECK_THROWS_WITH_AS(static_cast<void>(ccrc::read_core_profile(bad).profile), "line 3: missing count: 'x' is not a number",
                       ccrc::parse_error);
  std::string truncated = bytes_of(test::figure1(), ccrc::profile_format::cctb).substr(0, 40);
  std::istringstream cut(truncated);
  CHECK_THROWS_AS(static_cast<void>(ccrc::read_core_profile(cut).profile), ccrc::parse_error);
  CHECK_THROWS_WITH_AS(static_cast<void>(ccrc::read_core_profile_file("/nonexistent/x.folded").profile),
                       "cannot open /nonexistent/x.folded", ccrc::error);
}

TEST_CASE("a read's errors name its input once: the path, or read_options::input_name, keeping their type and line") {
  const std::string bad = "main;f 1\nmain;g 2\nmain;h x\n";
  const std::string reason = "line 3: missing count: 'x' is not a number";
  temp_file file("bad.folded", bad);
  const std::string path = file.path.string();
  try {
    (void)ccrc::read_core_profile_file(file.path);
    FAIL("no error");
  } catch (const ccrc::parse_error& e) {
    CHECK(std::string(e.what()) == path + ": " + reason);
    CHECK(e.input() == path);
    CHECK(e.line() == 3);
  }
  ccrc::read_options named;
  named.input_name = "<stdin>";
  std::istringstream in(bad);
  CHECK_THROWS_WITH_AS((void)ccrc::read_core_profile(in, named), ("<stdin>: " + reason).c_str(), ccrc::parse_error);
  CHECK_THROWS_WITH_AS((void)ccrc::read_core_profile(bad, named), ("<stdin>: " + reason).c_str(), ccrc::parse_error);
  CHECK_THROWS_WITH_AS((void)ccrc::read_core_profile_file(file.path, named), ("<stdin>: " + reason).c_str(),
                       ccrc::parse_error);
  // Bytes without a name: the reason alone, no input.
  try {
    (void)ccrc::read_core_profile(bad);
    FAIL("no error");
  } catch (const ccrc::parse_error& e) {
    CHECK(std::string(e.what()) == reason);
    CHECK(e.input().empty());
  }
  // An error that names the file already is not named twice; one about the options is named.
  CHECK_THROWS_WITH_AS((void)ccrc::read_core_profile_file("/nonexistent/x.folded", named), "cannot open /nonexistent/x.folded",
                       ccrc::error);
  temp_file one("one.folded", "main 1\n");
  ccrc::read_options pick;
  pick.profile = "0";
  CHECK_THROWS_WITH_AS((void)ccrc::read_core_profile_file(one.path, pick),
                       (one.path.string() + ": --profile: a folded stacks file holds one profile").c_str(), ccrc::error);
  // rethrow_in keeps the type and what it carries.
  CHECK_THROWS_WITH_AS(ccrc::capacity_error("more than 2^32 - 1 nodes").rethrow_in("big.cctb"),
                       "big.cctb: more than 2^32 - 1 nodes", ccrc::capacity_error);
  try {
    ccrc::parse_error::at_byte(7, "bad").rethrow_in("x.json");
  } catch (const ccrc::parse_error& e) {
    CHECK(std::string(e.what()) == "x.json: byte 7: bad");
    CHECK((e.byte() == 7 && e.line() == 0 && e.input() == "x.json"));
  }
}

TEST_CASE("a directory is refused with its path, by every reader") {
  std::filesystem::path dir = std::filesystem::temp_directory_path();
  std::string expected = "cannot read " + dir.string() + ": it is a directory";
  CHECK_THROWS_WITH_AS(static_cast<void>(ccrc::read_core_profile_file(dir).profile), expected.c_str(), ccrc::error);
  CHECK_THROWS_WITH_AS(static_cast<void>(ccrc::read_folded_file(dir)), expected.c_str(), ccrc::error);
  CHECK_THROWS_WITH_AS(static_cast<void>(ccrc::read_cct_file(dir)), expected.c_str(), ccrc::error);
  CHECK_THROWS_WITH_AS(static_cast<void>(ccrc::read_cctb_file(dir)), expected.c_str(), ccrc::error);
}

TEST_CASE("format_table has one row per format, each with its own name, in the order formats are tried") {
  std::set<std::string_view> names;
  for (const ccrc::format_info& i : ccrc::format_table) {
    CHECK(&ccrc::info_of(i.format) == &i);
    CHECK(ccrc::name_of(i.format) == i.name);
    CHECK_FALSE(i.name.empty());
    names.insert(i.name);
    // A format is told somehow: by a test on its first bytes, its JSON keys, or, for pprof,
    // by the formats header's test; folded stacks by no other passing.
    const bool told = i.detect || !i.json_keys.empty() || i.format == ccrc::profile_format::pprof ||
                      i.format == ccrc::profile_format::folded;
    CHECK(told);
  }
  CHECK(names.size() == 10);
  CHECK(std::size(ccrc::format_table) == 10);
  CHECK(ccrc::format_table[9].format == ccrc::profile_format::folded);
  CHECK(ccrc::name_of(ccrc::profile_format::perf_script) == "perf script");
  CHECK(ccrc::format_names() ==
        "ccrc .cctb, ccrc .cct, callgrind, perf script, pprof, Trace Event, speedscope, V8 profile, Gecko profile "
        "and folded stacks");
}

TEST_CASE("every file name of format_table says its format") {
  for (const ccrc::format_info& i : ccrc::format_table)
    for (std::string_view n : i.file_names) {
      std::string name = n.front() == '.' ? "dir/x" + std::string(n) : "dir/" + std::string(n) + "4242";
      CAPTURE(name);
      CHECK(ccrc::format_of_extension(name) == i.format);
    }
  CHECK(ccrc::format_of_extension("cpu.pb.gz") == ccrc::profile_format::pprof);
  CHECK(ccrc::format_of_extension("x.pprof") == ccrc::profile_format::pprof);
  CHECK(ccrc::format_of_extension("x.speedscope.json") == ccrc::profile_format::speedscope);
  CHECK(ccrc::format_of_extension("x.cpuprofile") == ccrc::profile_format::v8_profile);
  CHECK(ccrc::format_of_extension("x.json") == std::nullopt);  // Trace Event, speedscope, V8 or Gecko: the content tells
  CHECK(ccrc::format_of_extension(".pb") == std::nullopt);      // a name that is all extension
}

TEST_CASE("the JSON formats are told by their first key, or not at all by the first bytes") {
  CHECK(ccrc::detect_format("[{\"ph\": \"X\"}]") == ccrc::profile_format::trace_event);
  CHECK(ccrc::detect_format("{\"traceEvents\": []}") == ccrc::profile_format::trace_event);
  CHECK(ccrc::detect_format(" {\n \"$schema\": \"https://www.speedscope.app/file-format-schema.json\"") ==
        ccrc::profile_format::speedscope);
  CHECK(ccrc::detect_format("{\"nodes\": [{\"id\": 1}]") == ccrc::profile_format::v8_profile);
  CHECK(ccrc::detect_format("{\"head\": {}}") == ccrc::profile_format::v8_profile);
  CHECK(ccrc::detect_format("{\"meta\": {\"interval\": 1}") == ccrc::profile_format::gecko);
  CHECK(ccrc::detect_format("{\"metadata\": {}, \"traceEvents\": []}") == std::nullopt);  // its second key tells
  CHECK(ccrc::detect_format("[unknown];f 1\n") == ccrc::profile_format::folded);
  static_assert(ccrc::detect_format("{\"libs\": []}") == ccrc::profile_format::gecko);
}

TEST_CASE("read_core_profile reads bytes in place as it reads a stream, and names the reader of the other formats") {
  ccrc::profile p = test::figure1();
  for (auto f : {ccrc::profile_format::folded, ccrc::profile_format::cct, ccrc::profile_format::cctb}) {
    ccrc::read_result r = ccrc::read_core_profile(bytes_of(p, f));
    CHECK(r.detected == f);
    CHECK_FALSE(r.gzip);
    test::check_same_profile(r.profile, p);
  }
  CHECK_THROWS_WITH_AS(static_cast<void>(ccrc::read_core_profile("{\"traceEvents\": []}")),
                       "byte 0: a Trace Event file, which this reader does not read: ccrc::read_profile_file (or "
                       "read_profile), in <ccrc/formats/read_any_profile.hpp>, reads it",
                       ccrc::parse_error);
  CHECK_THROWS_WITH_AS(static_cast<void>(ccrc::read_core_profile("{\"metadata\": {}, \"traceEvents\": []}")),
                       doctest::Contains("byte 0: a JSON document, which this reader does not read: ccrc::read_profile_file"),
                       ccrc::parse_error);
  temp_file pprof("x.pb.gz", "anything");
  CHECK_THROWS_WITH_AS(static_cast<void>(ccrc::read_core_profile_file(pprof.path)),
                       doctest::Contains("byte 0: a pprof file, which this reader does not read"), ccrc::parse_error);
  // A first line that is no folded stack lists the formats this reader tells.
  CHECK_THROWS_WITH_AS(static_cast<void>(ccrc::read_core_profile("<html>\n")),
                       "line 1: missing count: a line is 'frame;frame;... count' (no format fits: the start is not "
                       "ccrc .cctb, ccrc .cct, callgrind or perf script, and it was read as folded stacks)",
                       ccrc::parse_error);
}

TEST_CASE("read_options::profile picks a thread of a perf script file with the core reader too") {
  const std::string two_threads =
      "spin 10 1.0: 100 cycles:\n\t4005d0 g+0x8 (a.out)\n\t4005f0 main+0x8 (a.out)\n\n"
      "spin 11 3.0: 400 cycles:\n\t4005d0 h+0x8 (a.out)\n\t4005f0 main+0x8 (a.out)\n\n";
  ccrc::read_result all = ccrc::read_core_profile(two_threads);
  CHECK(all.detected == ccrc::profile_format::perf_script);
  CHECK(all.profiles == std::vector<std::string>{"spin 10", "spin 11"});
  ccrc::read_result one = ccrc::read_core_profile(two_threads, {.profile = "spin 11"});
  CHECK(one.profile.column("period")[ccrc::node_at_path(one.profile.tree(), "main;h")] == 400);
  CHECK(one.profile.size() == 3);  // the root, main and main;h: spin 10's main;g is left out
  CHECK_THROWS_WITH_AS(static_cast<void>(ccrc::read_core_profile("main 1\n", {.profile = "0"})),
                       "--profile: a folded stacks file holds one profile", ccrc::error);
}
