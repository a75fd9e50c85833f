#include <ccrc/io/perf_script.hpp>
#include <ccrc/io/read_profile.hpp>
#include <ccrc/tree/path.hpp>

#include "support/random.hpp"
#include "support/values.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

namespace {

using test::at;
using test::total;

// The line number a parse error names, or 0 if the text parses.
std::uint64_t error_line(std::string_view text, ccrc::perf_script_options options = {}) {
  try {
    (void)ccrc::read_perf_script(text, options);
  } catch (const ccrc::parse_error& e) {
    return e.line();
  }
  return 0;
}

std::string error_message(std::string_view text) {
  try {
    (void)ccrc::read_perf_script(text);
  } catch (const ccrc::parse_error& e) {
    return e.what();
  }
  return "";
}

// Two threads of one process (pid 100: tids 101 and 102), `perf script --header` style, with
// pid/tid, cpu, time and period; an [unknown] frame in a library and one in no dso, offsets, a
// C++ name with blanks and parentheses, and a sample without frames.
constexpr std::string_view two_threads =
    "# ========\n"
    "# captured on    : Mon Nov 23 15:55:58 2026\n"
    "# cmdline : /usr/bin/perf record -g ./a.out\n"
    "# ========\n"
    "#\n"
    "a.out 100/101 [000] 10.000100:     250000 cpu-clock:ppp: \n"          // line 6
    "\t    55d4c3a01168 compute+0x2f (/tmp/a.out)\n"
    "\t    55d4c3a011de outer+0x1b (/tmp/a.out)\n"
    "\t    55d4c3a01221 main+0x9 (/tmp/a.out)\n"
    "\t    7f0012345678 [unknown] (/usr/lib/libc.so.6)\n"
    "\n"
    "a.out 100/101 [000] 10.000350:     250000 cpu-clock:ppp: \n"
    "\t    55d4c3a01164 compute+0x2b (/tmp/a.out)\n"
    "\t    55d4c3a011de outer+0x1b (/tmp/a.out)\n"
    "\t    55d4c3a01221 main+0x9 (/tmp/a.out)\n"
    "\t    7f0012345678 [unknown] (/usr/lib/libc.so.6)\n"
    "\n"
    "a.out 100/102 [001] 10.000400:     500000 cpu-clock:ppp: \n"
    "\t    55d4c3a01300 mix+0x10 (/tmp/a.out)\n"
    "\t    55d4c3a01400 worker (/tmp/a.out)\n"
    "\tffffffff81000000 [unknown] ([unknown])\n"
    "\n"
    "a.out 100/101 [000] 10.000600:     250000 cpu-clock:ppp: \n"
    "\t    55d4c3a01250 std::vector<int, std::allocator<int> >::push_back(int const&)+0x1a (/tmp/a.out)\n"
    "\t    55d4c3a01221 main+0x9 (/tmp/a.out)\n"
    "\t    7f0012345678 [unknown] (/usr/lib/libc.so.6)\n"
    "\n"
    "a.out 100/102 [001] 10.000700:        100 cpu-clock:ppp: \n"
    "\n";

// How tests/data/perf/spin.perf was made (perf 6.1, x86-64; spin.c beside it):
//   gcc -O0 -fno-omit-frame-pointer -g spin.c -o /tmp/spin
//   perf record -g -F 2000 -o /tmp/spin.data /tmp/spin
//   perf script -i /tmp/spin.data > spin.perf
const std::string spin_path = std::string(CCRC_SOURCE_DIR) + "/tests/data/perf/spin.perf";

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

TEST_CASE("perf script: two threads, offsets stripped, [unknown] keeps its dso, samples and period") {
  ccrc::profile p = ccrc::read_perf_script(two_threads);
  CHECK(p.metric_names() == std::vector<std::string>{"samples", "period"});
  // a.out 101: [unknown] libc, main, outer, compute, push_back; a.out 102: [unknown], worker, mix.
  CHECK(p.size() == 11);
  const std::string compute = "a.out 101;[unknown] (/usr/lib/libc.so.6);main;outer;compute";
  CHECK(at(p, "samples", compute) == 2);
  CHECK(at(p, "period", compute) == 500000);
  const std::string push_back =
      "a.out 101;[unknown] (/usr/lib/libc.so.6);main;std::vector<int, std::allocator<int> >::push_back(int const&)";
  CHECK(at(p, "samples", push_back) == 1);
  CHECK(at(p, "period", push_back) == 250000);
  CHECK(at(p, "samples", "a.out 102;[unknown] ([unknown]);worker;mix") == 1);
  CHECK(at(p, "period", "a.out 102;[unknown] ([unknown]);worker;mix") == 500000);
  // The sample without frames counts on its thread frame.
  CHECK(at(p, "samples", "a.out 102") == 1);
  CHECK(at(p, "period", "a.out 102") == 100);
  CHECK(at(p, "samples", "a.out 101;[unknown] (/usr/lib/libc.so.6);main") == 0);
  CHECK(total(p, "samples") == 5);
  CHECK(total(p, "period") == 3 * 250000 + 500000 + 100);
  CHECK(p.tree().parent(ccrc::node_at_path(p.tree(), "a.out 102")) == ccrc::root_node);
}

TEST_CASE("perf script: a stream, a file and the text give the same profile") {
  std::istringstream in{std::string(two_threads)};
  ccrc::profile p = ccrc::read_perf_script(in);
  CHECK(p.size() == 11);
  CHECK(at(p, "period", "a.out 102") == 100);
  ccrc::profile f = ccrc::read_perf_script_file(spin_path);
  CHECK(f.size() == ccrc::read_perf_script(read_text(spin_path)).size());
}

TEST_CASE("perf script: random samples of interleaved threads give the profile a naive reader builds") {
  // Seeded random stacks (sharing prefixes with earlier ones, some identical, some empty) on
  // three threads in a random interleaving, written as perf prints them; the expected profile
  // adds each sample's whole path from the root, as the reader did before it reused the
  // previous sample's contexts. Read from memory and from a stream (two ways of splitting lines).
  test::rng r{17};
  std::vector<test::sample> samples = test::random_samples(r, 3000, 30, 12, 1);
  std::string text;
  ccrc::profile expected({"samples", "period"});
  for (std::size_t i = 0; i < samples.size(); ++i) {
    std::string thread = "w " + std::to_string(7 + r.below(3));
    if (r.chance(0.05)) samples[i].frames.clear();  // a sample with no frame lines
    auto period = static_cast<double>(1 + r.below(1000));
    text += thread + " 1.5: " + std::to_string(static_cast<int>(period)) + " cycles:\n";
    for (std::size_t k = samples[i].frames.size(); k-- > 0;)
      text += "\t" + std::to_string(1000 + k) + " " + samples[i].frames[k] + "+0x1" + std::to_string(k) + " (/bin/w)\n";
    text += "\n";
    std::vector<ccrc::frame_id> path{expected.intern(thread)};
    for (const std::string& f : samples[i].frames) path.push_back(expected.intern(f));
    const double values[2] = {1, period};
    expected.add(expected.add_path(path), values);
  }
  CHECK(test::canonical(ccrc::read_perf_script(text)) == test::canonical(expected));
  std::istringstream in(text);
  CHECK(test::canonical(ccrc::read_perf_script(in)) == test::canonical(expected));
}

TEST_CASE("perf script: header variants, as perf prints them with other -F fields") {
  // Default fields: no pid, no cpu; the thread frame is "comm tid".
  ccrc::profile a = ccrc::read_perf_script("spin 12936  2878.166159:     500000 cpu-clock:ppp: \n\t1168 f+0x2f (/tmp/spin)\n");
  CHECK(at(a, "period", "spin 12936;f") == 500000);
  // A comm padded on the left, with blanks in it, no period: metric samples only.
  ccrc::profile b = ccrc::read_perf_script(
      "     Web Content  555/556 [002]  1.000000: cycles:u: \n\t  1 f (x)\n\n"
      "  kworker/0:1H  7 [000]  1.5: cycles:u:\n\t  2 g (x)\n");
  CHECK(b.metric_names() == std::vector<std::string>{"samples"});
  CHECK(at(b, "samples", "Web Content 556;f") == 1);
  CHECK(at(b, "samples", "kworker/0:1H 7;g") == 1);
  // No time: a number after the tid is the period; a single number is the tid.
  ccrc::profile c = ccrc::read_perf_script("a.out 77 1000 cycles:\n\t1 f (x)\n\na.out 78 cycles:\n\t1 f (x)\n");
  CHECK(at(c, "period", "a.out 77;f") == 1000);
  CHECK(at(c, "samples", "a.out 78;f") == 1);
  CHECK(at(c, "period", "a.out 78;f") == 0);
  // No id: the comm alone; a tracepoint's fields after the event are ignored; CRLF.
  ccrc::profile d = ccrc::read_perf_script(
      "a.out 1.0: 5 sched:sched_switch: prev_comm=a next_comm=b\r\n\t1 f+0x1 (x)\r\n\r\n");
  CHECK(at(d, "period", "a.out;f") == 5);
  // Without a time, a number after the cpu is the period too.
  ccrc::profile e = ccrc::read_perf_script("a.out 3 [001] 42 cycles:\n\t1 f (x)\n");
  CHECK(at(e, "period", "a.out 3;f") == 42);
}

TEST_CASE("perf script: some samples print a period, others not; the others add 0") {
  ccrc::profile p = ccrc::read_perf_script(
      "a 1 1.0: cycles:\n\t1 f (x)\n\n"  // before any period: the column is added later
      "a 1 2.0: 30 cycles:\n\t1 f (x)\n\n"
      "a 1 3.0: cycles:\n\t1 f (x)\n");
  CHECK(p.metric_names() == std::vector<std::string>{"samples", "period"});
  CHECK(at(p, "samples", "a 1;f") == 3);
  CHECK(at(p, "period", "a 1;f") == 30);
}

TEST_CASE("perf script: frame names: symbols as printed, unknown ones by dso, bare addresses") {
  ccrc::profile p = ccrc::read_perf_script(
      "a 1 1.0: c:\n"
      "\t10 operator()+0x1f (/x)\n"           // parentheses in the name
      "\t20 (anonymous namespace)::g (/x)\n"  // no offset
      "\t30 h+0xzz (/x)\n"                    // not an offset: kept
      "\t40 [unknown] ([kernel.kallsyms])\n"
      "\t50 (/x)\n"                           // no symbol: [unknown] with the dso
      "\t60\n");                              // `-F ip`: the address
  CHECK(at(p, "samples", "a 1;60;[unknown] (/x);[unknown] ([kernel.kallsyms]);h+0xzz;"
                         "(anonymous namespace)::g;operator()") == 1);
  CHECK(p.size() == 8);
}

TEST_CASE("perf script: the dso of a replaced binary or a JIT, '(/opt/app/prog (deleted))', is matched from the end") {
  // Issue 45: the reader cut at the last " (", so "compute+0x1d (/opt/app/prog" kept its
  // offset and every address became a method of its own.
  ccrc::profile p = ccrc::read_perf_script(
      "prog 7 1.0: c:\n"
      "\t10 compute+0x1d (/opt/app/prog (deleted))\n"
      "\t20 main+0x9 (/opt/app/prog (deleted))\n"
      "\n"
      "prog 7 2.0: c:\n"
      "\t11 compute+0x2f (/opt/app/prog (deleted))\n"
      "\t20 main+0x9 (/opt/app/prog (deleted))\n"
      "\n"
      "prog 7 3.0: c:\n"
      "\t30 [unknown] (/memfd:doublemapper (deleted))\n"
      "\t40 std::function<void ()>::operator()() const+0x4 ((nested) (dso))\n");
  CHECK(at(p, "samples", "prog 7;main;compute") == 2);
  CHECK(at(p, "samples", "prog 7;std::function<void ()>::operator()() const;[unknown] (/memfd:doublemapper (deleted))") == 1);
  CHECK(p.size() == 6);
}

TEST_CASE("perf script: a UTF-8 byte-order mark before the first sample is not part of the thread's name") {
  // Issue 45: the mark joined the first header's comm, so one thread was split in two.
  ccrc::profile p = ccrc::read_perf_script("\xEF\xBB\xBFprog 7 1.0: c:\n\t10 f (/x)\n\nprog 7 2.0: c:\n\t10 f (/x)\n");
  CHECK(at(p, "samples", "prog 7;f") == 2);
  CHECK(p.size() == 3);
  CHECK(ccrc::detect_format("\xEF\xBB\xBFprog 7 1.0: c:\n\t10 f (/x)\n") == ccrc::profile_format::perf_script);
}

TEST_CASE("perf script: empty input and comments only give an empty profile with metric samples") {
  for (std::string_view text : {std::string_view(""), std::string_view("# ========\n#\n\n\n")}) {
    ccrc::profile p = ccrc::read_perf_script(text);
    CHECK(p.size() == 1);
    CHECK(p.metric_names() == std::vector<std::string>{"samples"});
  }
}

TEST_CASE("perf script: a real recording (tests/data/perf/spin.perf)") {
  std::string text = read_text(spin_path);
  REQUIRE(!text.empty());
  // The samples, counted independently: lines that are neither blank, indented nor comments.
  std::size_t headers = 0;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);)
    if (!line.empty() && line[0] != '\t' && line[0] != ' ' && line[0] != '#') ++headers;
  CHECK(headers == 148);
  ccrc::profile p = ccrc::read_perf_script(text);
  CHECK(total(p, "samples") == static_cast<double>(headers));
  CHECK(total(p, "period") == 500000.0 * static_cast<double>(headers));  // -F 2000: 0.5 ms each
  ccrc::node_id thread = ccrc::node_at_path(p.tree(), "spin 12936");
  REQUIRE(thread != ccrc::null_node);
  CHECK(p.tree().parent(thread) == ccrc::root_node);
  CHECK(at(p, "samples", "spin 12936;__libc_start_call_main;main;outer;compute") > 0);
  CHECK(at(p, "samples", "spin 12936;__libc_start_call_main;main;outer;mix") > 0);
  CHECK(ccrc::detect_format(text.substr(0, ccrc::format_detection_bytes)) == ccrc::profile_format::perf_script);
}

TEST_CASE("perf script: malformed input is refused with its line") {
  // A frame line before any sample header, and after a sample ended.
  CHECK(error_line("\t4005d0 main (a.out)\n") == 1);
  CHECK(error_message("\t4005d0 main (a.out)\n") == "line 1: frame line outside a sample (no sample header line before it)");
  CHECK(error_line("a 1 1.0: c:\n\t1 f (x)\n\n\t2 g (x)\n") == 4);
  // A header with no event name ending in ':', after comment lines.
  CHECK(error_line("# c\n#\na.out 123 garbage\n") == 3);
  CHECK(error_message("a.out 123 garbage\n") == "line 1: malformed sample header: no event name ending in ':'");
  // A period that is not a number, or that a double cannot hold exactly.
  CHECK(error_line("a 1 1.0: c:\n\t1 f (x)\n\na.out 1 1.0: 25x00 cycles:\n") == 4);
  CHECK(error_message("a.out 1 1.0: 25x00 cycles:\n") ==
        "line 1: malformed sample header: the period before the event is not a number");
  CHECK(error_message("a 1 1.0: 123456789012345678901 cycles:\n") ==
        "line 1: period '123456789012345678901' is an integer a double cannot hold exactly (above 2^53)");
  CHECK(error_line("a 1 1.0: 5 6 cycles:\n") == 1);
  // No comm nor thread id.
  CHECK(error_message("\n1.0: 5 cycles:\n") ==
        "line 2: malformed sample header: no command name or thread id before the event");
  // A frame whose first word is not an address.
  CHECK(error_message("a 1 1.0: c:\n\tzz main (a)\n") == "line 2: frame line: 'zz' is not a hexadecimal address");
  // Binary junk in a name.
  CHECK(error_line("a 1 1.0: c:\n\t1 f\x01g (x)\n") == 2);
  CHECK(error_line("a\xff 1 1.0: c:\n") == 1);
  // A line longer than the bound.
  CHECK(error_line("a 1 1.0: c:\n\t1 a_long_function_name (x)\n", {.max_line_bytes = 20}) == 2);
}

TEST_CASE("perf script: told from folded stacks by content and by name") {
  CHECK(ccrc::detect_format(two_threads) == ccrc::profile_format::perf_script);
  CHECK(ccrc::detect_format(two_threads.substr(two_threads.find("a.out 100"))) == ccrc::profile_format::perf_script);
  CHECK(ccrc::detect_format("# a comment\n   \nspin 1 2.0: c:\n\t  1168 f (x)\n") == ccrc::profile_format::perf_script);
  // Folded stacks, even with a frame ending in ':' or an indented next line, stay folded.
  CHECK(ccrc::detect_format("main;f 42\nmain;g 1\n") == ccrc::profile_format::folded);
  CHECK(ccrc::detect_format("x y: 3\nmain;g 1\n") == ccrc::profile_format::folded);
  CHECK(ccrc::detect_format("# metrics: calls\nmain 1\n\tmain;f 2\n") == ccrc::profile_format::folded);
  CHECK(ccrc::detect_format("spin 1 2.0: c:") == ccrc::profile_format::folded);  // no frame line: not told
  static_assert(ccrc::detect_format("a 1 1.0: c:\n\t1 f (x)\n") == ccrc::profile_format::perf_script);
  CHECK(ccrc::format_of_extension("x.perf") == ccrc::profile_format::perf_script);
  CHECK(ccrc::format_of_extension("x.perf-script") == ccrc::profile_format::perf_script);
  // read_core_profile opens the real file by content and by name.
  std::istringstream in(read_text(spin_path));
  ccrc::profile p = ccrc::read_core_profile(in).profile;
  CHECK(total(p, "samples") == 148);
  CHECK(total(ccrc::read_core_profile_file(spin_path).profile, "samples") == 148);
  std::istringstream folded("main;f 42\n");
  CHECK(ccrc::read_core_profile(folded).profile.metric_names() == std::vector<std::string>{"samples"});
}

TEST_CASE("perf script: a recording without -g is not told by content, but is read when named .perf") {
  // Without call chains perf prints the ip on the header line and no frame lines.
  const std::string text = "a.out 7 1.0: 5 cycles:  4005d0 main+0x8 (/a.out)\na.out 7 2.0: 6 cycles:  4005d4 main+0xc (/a.out)\n";
  CHECK(ccrc::detect_format(text) == ccrc::profile_format::folded);
  std::filesystem::path path = std::filesystem::temp_directory_path() / ("ccrc-perf-" + std::to_string(::getpid()) + ".perf");
  std::ofstream(path, std::ios::binary) << text;
  ccrc::profile p = ccrc::read_core_profile_file(path).profile;
  std::filesystem::remove(path);
  // Each sample counts on its thread frame alone.
  CHECK(p.size() == 2);
  CHECK(at(p, "samples", "a.out 7") == 2);
  CHECK(at(p, "period", "a.out 7") == 11);
}
