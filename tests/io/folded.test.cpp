#include <ccrc/algorithm/statistics.hpp>
#include <ccrc/io/folded.hpp>
#include <ccrc/tree/cct.hpp>

#include "support/figure1.hpp"
#include "support/random.hpp"
#include "support/same_profile.hpp"
#include "support/temp_file.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>
#include <streambuf>
#include <string>
#include <thread>

#include <sys/stat.h>
#include <unistd.h>

namespace {

// The line number a parse error names, or 0 if the text parses.
std::uint64_t error_line(std::string_view text, ccrc::folded_options options = {}) {
  try {
    (void)ccrc::read_folded(text, options);
  } catch (const ccrc::parse_error& e) {
    return e.line();
  }
  return 0;
}

// `text` read from a file and from a stream: the same profile, or the same error.
void check_file_as_streamed(const std::string& text) {
  test::temp_file file("file.folded", text);
  std::istringstream in(text);
  std::string streamed_error, file_error;
  std::optional<ccrc::profile> streamed, from_file;
  try {
    streamed = ccrc::read_folded(in);
  } catch (const ccrc::parse_error& e) {
    streamed_error = e.what();
  }
  try {
    from_file = ccrc::read_folded_file(file.path);
  } catch (const ccrc::parse_error& e) {
    file_error = e.what();
  }
  CHECK(file_error == streamed_error);
  REQUIRE(from_file.has_value() == streamed.has_value());
  if (from_file) test::check_same_profile(*from_file, *streamed);
}

std::string error_message(std::string_view text) {
  try {
    (void)ccrc::read_folded(text);
  } catch (const ccrc::parse_error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("the Figure 1 file: two named metrics, 18 calling contexts") {
  ccrc::profile p = test::figure1();
  CHECK(p.metric_names() == std::vector<std::string>{"calls", "bytecodes"});
  ccrc::tree_statistics s = ccrc::statistics(p.tree());
  CHECK(s.nodes == 18);
  CHECK(s.max_depth == 6);
  CHECK(s.methods == 5);
  CHECK(p.column("calls")[ccrc::node_at_path(p.tree(), "main;h")] == 72);
  CHECK(p.column("bytecodes")[ccrc::node_at_path(p.tree(), "main;f;g;g;h;i")] == 50);
}

TEST_CASE("a plain flame graph file has one metric, samples; repeated stacks add up") {
  ccrc::profile p = ccrc::read_folded("main;a 3\nmain;b 4\nmain;a 5\nother 1\n");
  CHECK(p.metric_names() == std::vector<std::string>{"samples"});
  CHECK(p.size() == 5);
  CHECK(p.column(0)[ccrc::node_at_path(p.tree(), "main;a")] == 8);
  CHECK(p.column(0)[ccrc::node_at_path(p.tree(), "main")] == 0);
  CHECK(p.tree().parent(ccrc::node_at_path(p.tree(), "other")) == ccrc::root_node);
}

TEST_CASE("several columns without a header are metric_1, metric_2, ...") {
  ccrc::profile p = ccrc::read_folded("a;b 1 2 3\n");
  CHECK(p.metric_names() == std::vector<std::string>{"metric_1", "metric_2", "metric_3"});
  CHECK(p.column(2)[ccrc::node_at_path(p.tree(), "a;b")] == 3);
}

TEST_CASE("frames may contain spaces; counts may be decimals; CRLF, blanks and comments are fine") {
  ccrc::profile p = ccrc::read_folded(
      "# a comment\r\n\r\n"
      "java.lang.Thread.run();Foo$Bar.baz(int, long) 0.25\r\n"
      "   \n"
      "java.lang.Thread.run();operator new(unsigned long) 1e3\r\n"
      "java.lang.Thread.run();operator new(unsigned long)\t2\n");
  CHECK(p.column(0)[ccrc::node_at_path(p.tree(), "java.lang.Thread.run();Foo$Bar.baz(int, long)")] == 0.25);
  CHECK(p.column(0)[ccrc::node_at_path(p.tree(), "java.lang.Thread.run();operator new(unsigned long)")] == 1002);
}

TEST_CASE("a '# metrics:' header of 100,000 names: every column read; a name given twice is named") {
  // Issue 15: each name was compared with every earlier one, 40 s for this 889 KB file.
  constexpr int n = 100'000;
  std::string header = "# metrics:", counts;
  for (int i = 0; i < n; ++i) {
    header += " m" + std::to_string(i);
    counts += " " + std::to_string(i % 7);
  }
  ccrc::profile p = ccrc::read_folded(header + "\nmain" + counts + "\n");
  REQUIRE(p.metric_count() == n);
  ccrc::node_id main = ccrc::node_at_path(p.tree(), "main");
  CHECK(p.column("m0")[main] == 0);
  CHECK(p.column("m99999")[main] == 99'999 % 7);
  CHECK(error_message(header + " m5 m7 m5\nmain" + counts + " 1 2 3\n") == "line 1: metric 'm5' is named twice");
}

TEST_CASE("with a header, a frame may end in a number: the header says how many counts there are") {
  ccrc::profile p = ccrc::read_folded("# metrics: bytes\nmalloc 64 4096\n");
  CHECK(p.column("bytes")[ccrc::node_at_path(p.tree(), "malloc 64")] == 4096);
}

TEST_CASE("strict mode refuses a line whose frame ends in a number once a header fixed the counts") {
  // Issue 15: with '# metrics: a b', 'main 1 2 3' reads as frame 'main 1' with a = 2, b = 3.
  const char* extra = "# metrics: a b\nmain;f 1 2\nmain 1 2 3\n";
  ccrc::profile lax = ccrc::read_folded(extra);
  CHECK(lax.column("b")[ccrc::node_at_path(lax.tree(), "main 1")] == 3);
  CHECK(error_line(extra, {.strict = true}) == 3);
  CHECK_THROWS_WITH_AS((void)ccrc::read_folded(extra, {.strict = true}),
                       "line 3: frame 'main 1' ends in a number: one count more than the 2 the '# metrics:' header "
                       "names? (strict mode)",
                       ccrc::parse_error);
  // Numbers elsewhere in a frame, and files without a header (the first line decides), pass.
  CHECK(error_line("# metrics: a\nmain;f(int 2) 1\nlib 2.so;x 1\n", {.strict = true}) == 0);
  CHECK(error_line("main 1 2 3\n", {.strict = true}) == 0);
}

TEST_CASE("consecutive lines sharing a prefix resolve to the right frames") {
  ccrc::profile p = ccrc::read_folded(
      "a;b 1\n"
      "a;b c;d 2\n"  // "b c" is a new frame although "a;b " matches the line above
      "a;bc 3\n"
      "a 4\n"
      "a;b;e 5\n"
      "a;b 6\n"
      "x;b 7\n");
  CHECK(p.column(0)[ccrc::node_at_path(p.tree(), "a;b")] == 7);
  CHECK(p.column(0)[ccrc::node_at_path(p.tree(), "a;b c;d")] == 2);
  CHECK(p.column(0)[ccrc::node_at_path(p.tree(), "a;bc")] == 3);
  CHECK(p.column(0)[ccrc::node_at_path(p.tree(), "a")] == 4);
  CHECK(p.column(0)[ccrc::node_at_path(p.tree(), "a;b;e")] == 5);
  CHECK(p.column(0)[ccrc::node_at_path(p.tree(), "x;b")] == 7);
  CHECK(ccrc::statistics(p.tree()).nodes == 8);
}

TEST_CASE("the profile read is shrunk: no spare capacity, no child index; every lookup still right") {
  std::string text;
  for (int i = 0; i < 100; ++i) text += "main;f" + std::to_string(i) + (i % 3 == 0 ? ";g " : " ") + std::to_string(i + 1) + "\n";
  ccrc::profile p = ccrc::read_folded(text);
  CHECK(p.size() == 1 + 1 + 100 + 34);
  CHECK_FALSE(p.tree().has_child_index());  // main has 100 children
  CHECK(p.memory_bytes() == (16 + 8) * p.size() + p.tree().symbols().memory_bytes());
  for (int i = 0; i < 100; i += 3) CHECK(p.column(0)[ccrc::node_at_path(p.tree(), "main;f" + std::to_string(i) + ";g")] == i + 1);
}

TEST_CASE("an empty input is an empty profile, with defined statistics") {
  for (std::string_view text : {"", "\n\n", "# just a comment\n"}) {
    ccrc::profile p = ccrc::read_folded(text);
    CHECK(p.size() == 1);
    CHECK(p.metric_names() == std::vector<std::string>{"samples"});
    CHECK(ccrc::statistics(p.tree()).nodes == 0);
  }
  ccrc::profile named = ccrc::read_folded("# metrics: calls time\n");
  CHECK(named.metric_names() == std::vector<std::string>{"calls", "time"});
}

TEST_CASE("malformed input is an error naming its line") {
  CHECK(error_line("a 1\nmain;f\n") == 2);             // missing count
  CHECK(error_line("main;f abc\n") == 1);              // non-numeric count
  CHECK(error_line("a 1\nb 2\nc x2\n") == 3);
  CHECK(error_line("a 1\nb -3\n") == 2);               // negative count
  CHECK(error_line("a 1\nb;;c 1\n") == 2);             // empty frame
  CHECK(error_line(";a 1\n") == 1);
  CHECK(error_line("a; 1\n") == 1);
  CHECK(error_line("a 1\n42\n") == 2);                 // counts but no stack
  CHECK(error_line("a 1 2\nb 3\n") == 2);              // fewer counts than the first line
  CHECK(error_line("# metrics: x y\na 1\n") == 2);
  CHECK(error_line("a 1\n# metrics: x\n") == 2);       // header after data
  CHECK(error_line("# metrics:\na 1\n") == 1);
  CHECK(error_line("# metrics: x x\n") == 1);
  CHECK(error_line("a 12345678901234567890\n") == 1);  // above 2^53: would be rounded
  CHECK(error_line("a 9007199254740993\n") == 1);  // 2^53 + 1 is no double
  CHECK(error_line("a 9007199254740992\n") == 0);
  CHECK(error_line("a 9007199254740994\n") == 0);  // 2^53 + 2 is one
  CHECK(error_line("a 1\nb nan\n") == 2);
  CHECK(error_line("a inf\n") == 1);
  CHECK(error_line("a 1e999\n") == 1);
  CHECK(error_line("a 0x10\n") == 1);
  CHECK(error_line("a +5\n") == 1);
  CHECK(error_message("a 1\nb -3\n") == "line 2: count '-3' is negative");
  CHECK(error_message("x 1\ny\n") == "line 2: missing count: 'y' is not a number");
}

TEST_CASE("counts of a metric that add up beyond a double are refused at the line where they do") {
  // Issue 45: they were read, and the total printed as n/a. 1e308 is a double; twice it is not.
  CHECK(error_message("# metrics: calls time\na 1 1e308\nb 1 1e308\n") ==
        "line 3: the counts of metric 'time' add up to more than a double holds");
  CHECK(error_message("a 1e308\nb 1\na 1e308\n") == "line 3: the counts of metric 'samples' add up to more than a double holds");
  CHECK(error_line("a 1e308\nb 7e307\n") == 0);  // 1.7e308: still a double
  // Negative counts too: a context's own value could overflow while the total does not.
  ccrc::folded_options differential;
  differential.allow_negative = true;
  CHECK(error_line("a 6e307\nb -6e307\na 6e307\n", differential) == 3);
}

TEST_CASE("a UTF-8 byte-order mark at the start is skipped: before a stack, before '# metrics:', in a file") {
  // Issue 45: it joined the first frame (two methods 'main') or hid the header.
  const std::string bom = "\xEF\xBB\xBF";
  ccrc::profile p = ccrc::read_folded(bom + "main;f 1\nmain;g 2\n");
  CHECK(ccrc::statistics(p.tree()).methods == 3);
  CHECK(p.column(0)[ccrc::node_at_path(p.tree(), "main;g")] == 2);
  ccrc::profile named = ccrc::read_folded(bom + "# metrics: calls time\nmain 1 2\n");
  CHECK(named.metric_names() == std::vector<std::string>{"calls", "time"});
  test::temp_file file("bom.folded", bom + "main;f 1\nmain;g 2\n");
  test::check_same_profile(ccrc::read_folded_file(file.path), p);
}

TEST_CASE("negative counts are accepted when asked for (differential profiles)") {
  ccrc::folded_options options;
  options.allow_negative = true;
  ccrc::profile p = ccrc::read_folded("a 1\nb -3.5\n", options);
  CHECK(p.column(0)[ccrc::node_at_path(p.tree(), "b")] == -3.5);
}

TEST_CASE("binary junk is refused: control characters, NUL bytes, invalid UTF-8") {
  using namespace std::string_literals;
  CHECK(error_line("ok 1\na\x01" "b 1\n") == 2);
  CHECK(error_line("a\0b 1\n"s) == 1);
  CHECK(error_line("a 1\0\n"s) == 1);
  CHECK(error_line("caf\xc3 1\n") == 1);         // truncated sequence
  CHECK(error_line("\xc0\xaf 1\n") == 1);        // overlong '/'
  CHECK(error_line("\xed\xa0\x80 1\n") == 1);    // surrogate
  CHECK(error_line("\x89PNG\r\n\x1a\n") == 1);
  CHECK(error_line("caf\xc3\xa9;\xe2\x86\x92 1\n") == 0);  // café;→ is fine
}

namespace {

// A stream of `size` bytes of 'x' with no newline, produced on demand.
class endless_line : public std::streambuf {
 public:
  explicit endless_line(std::size_t size) : left_(size) { std::fill(std::begin(chunk_), std::end(chunk_), 'x'); }

 protected:
  int_type underflow() override {
    if (left_ == 0) return traits_type::eof();
    std::size_t n = std::min(left_, sizeof chunk_);
    left_ -= n;
    setg(chunk_, chunk_, chunk_ + n);
    return traits_type::to_int_type(chunk_[0]);
  }

 private:
  std::size_t left_;
  char chunk_[1 << 16];
};

}  // namespace

TEST_CASE("a 1 GB line is refused after max_line_bytes, without reading it all") {
  endless_line source(std::size_t{1} << 30);
  std::istream in(&source);
  try {
    (void)ccrc::read_folded(in);
    FAIL("a 1 GB line was accepted");
  } catch (const ccrc::parse_error& e) {
    CHECK(e.line() == 1);
    CHECK(std::string(e.what()).find("longer than") != std::string::npos);
  }
}

TEST_CASE("a stack 1,000,000 frames deep reads without recursion") {
  std::string line;
  for (int i = 0; i < 1'000'000; ++i) line += i % 3 == 0 ? "a;" : i % 3 == 1 ? "b;" : "c;";
  line.back() = ' ';
  std::string text = line + "1\n" + line.substr(0, line.size() - 1) + ";d 2\n";
  ccrc::profile p = ccrc::read_folded(text);
  ccrc::tree_statistics s = ccrc::statistics(p.tree());
  CHECK(s.nodes == 1'000'001);
  CHECK(s.max_depth == 1'000'001);
  CHECK(s.methods == 4);
}

TEST_CASE("writing then reading gives back the same tree, on random profiles") {
  for (std::uint64_t seed = 1; seed <= 1000; ++seed) {
    test::rng r{seed};
    ccrc::profile p = test::profile_of(test::random_samples(r, 1 + r.below(30), 7, 9));
    if (seed % 3 == 0) p.column(1)[p.size() - 1] = 0.1 * static_cast<double>(seed);  // decimals too
    std::ostringstream out;
    ccrc::write_folded(out, p);
    ccrc::profile back = ccrc::read_folded(out.str());
    CHECK(back.metric_names() == p.metric_names());
    CHECK(test::canonical(back) == test::canonical(p));
  }
}

TEST_CASE("folded_size: the bytes write_folded writes, on random profiles and on a chain by hand") {
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    test::rng r{seed};
    ccrc::profile p = test::profile_of(test::random_samples(r, 1 + r.below(30), 7, 9));
    if (seed % 3 == 0) p.column(1)[p.size() - 1] = 0.1 * static_cast<double>(seed);
    std::ostringstream out;
    ccrc::write_folded(out, p);
    CHECK(ccrc::folded_size(p) == out.str().size());
  }
  // A chain a;a;...;a of 1,000 contexts of 1 sample each: line l is l names and l - 1 ';',
  // then " 1\n" (2l + 2 bytes), after "# metrics: samples\n" (19): 1,000^2 + 3 x 1,000 + 19.
  ccrc::profile chain;
  const std::vector<ccrc::frame_id> a(1'000, chain.intern("a"));
  for (std::size_t depth = 1; depth <= a.size(); ++depth)
    chain.add_path(std::span<const ccrc::frame_id>(a.data(), depth), std::vector<double>{1});
  CHECK(ccrc::folded_size(chain) == 1'003'019);
  std::ostringstream out;
  ccrc::write_folded(out, chain);
  CHECK(out.str().size() == 1'003'019);
}

TEST_CASE("regression: integral values between 2^53 and 10^18 round-trip") {
  ccrc::profile p;
  ccrc::node_id n = p.add_path(std::vector<ccrc::frame_id>{p.intern("a")});
  p.column(0)[n] = 0x1p60 + 0x1p10;  // exactly representable, written as its 19 digits
  std::ostringstream out;
  ccrc::write_folded(out, p);
  CHECK(ccrc::read_folded(out.str()).column(0)[n] == 0x1p60 + 0x1p10);
}

TEST_CASE("a cct writes as folded stacks with its metric names in the header") {
  ccrc::cct<ccrc::metric<"calls">, ccrc::metric<"cpu_ms", double>> t;
  t.add_path(std::vector<ccrc::frame_id>{t.intern("main"), t.intern("f")}, 20, 1.5);
  t.add_path(std::vector<ccrc::frame_id>{t.intern("main"), t.intern("g")}, 0, 0.0);
  std::ostringstream out;
  ccrc::write_folded(out, t);
  CHECK(out.str() == "# metrics: calls cpu_ms\nmain;f 20 1.5\nmain;g 0 0\n");
}

TEST_CASE("the writer refuses what the format cannot hold, instead of writing a different tree") {
  auto refuses = [](auto&& build) {
    ccrc::profile p;
    build(p);
    std::ostringstream out;
    CHECK_THROWS_AS(ccrc::write_folded(out, p), ccrc::error);
  };
  refuses([](ccrc::profile& p) { p.column(0)[ccrc::root_node] = 1; });
  refuses([](ccrc::profile& p) { p.add_path(std::vector<ccrc::frame_id>{p.intern("a;b")}); });
  refuses([](ccrc::profile& p) { p.add_path(std::vector<ccrc::frame_id>{p.intern("a\nb")}); });
  refuses([](ccrc::profile& p) { p.add_path(std::vector<ccrc::frame_id>{p.intern("trailing ")}); });
  refuses([](ccrc::profile& p) { p.add_path(std::vector<ccrc::frame_id>{p.intern("#top")}); });
  refuses([](ccrc::profile& p) {
    ccrc::node_id n = p.add_path(std::vector<ccrc::frame_id>{p.intern("a")});
    p.column(0)[n] = std::numeric_limits<double>::infinity();
  });
}

TEST_CASE("the writer refuses a line longer than read_folded accepts, before writing it, and folded_size says so") {
  // read_folded refuses a line over 64 MiB (issue 37: a 100 MB name was written, then could
  // not be read): one long name, or a deep stack of names 64 KiB long.
  const std::size_t max_line = ccrc::folded_options{}.max_line_bytes;
  ccrc::profile one_name;
  one_name.add_path(std::vector<ccrc::frame_id>{one_name.intern(std::string(max_line, 'x'))});
  ccrc::profile deep;
  deep.add_path(std::vector<ccrc::frame_id>(1'024, deep.intern(std::string(std::size_t{64} << 10, 'y'))));
  for (const ccrc::profile* p : {&one_name, &deep}) {
    std::ostringstream out;
    CHECK_THROWS_WITH_AS(ccrc::write_folded(out, *p), doctest::Contains("read_folded accepts"), ccrc::error);
    CHECK(out.str().empty());  // refused before any byte left the writer's buffer
    CHECK_THROWS_WITH_AS((void)ccrc::folded_size(*p), doctest::Contains("read_folded accepts"), ccrc::error);
  }
  // The count alone can make the line too long.
  ccrc::profile with_count;
  with_count.add_path(std::vector<ccrc::frame_id>{with_count.intern(std::string(max_line - 1, 'w'))}, std::vector<double>{1});
  const std::string one_too_many = "is " + std::to_string(max_line + 1) + " bytes, more than";
  CHECK_THROWS_WITH_AS((void)ccrc::folded_size(with_count), doctest::Contains(one_too_many.c_str()), ccrc::error);
  // A line of exactly 64 MiB, its count included, is written and reads back.
  ccrc::profile longest;
  longest.add_path(std::vector<ccrc::frame_id>{longest.intern(std::string(max_line - 2, 'z'))}, std::vector<double>{1});
  std::ostringstream out;
  ccrc::write_folded(out, longest);
  CHECK(test::canonical(ccrc::read_folded(out.str())) == test::canonical(longest));
}

// ---- Files, read through a buffer ----

TEST_CASE("a file reads as the same bytes streamed, on random profiles; no final newline, CRLF") {
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    test::rng r{seed};
    ccrc::profile p = test::profile_of(test::random_samples(r, 1 + r.below(30), 7, 9));
    std::ostringstream out;
    ccrc::write_folded(out, p);
    std::string text = out.str();
    CAPTURE(seed);
    check_file_as_streamed(text);
    check_file_as_streamed(text.substr(0, text.size() - 1));  // the last line without '\n'
    std::string crlf;
    for (char c : text) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
    check_file_as_streamed(crlf);
    check_file_as_streamed(crlf.substr(0, crlf.size() - 1));  // ends in '\r'
  }
}

TEST_CASE("files by hand: one line, no newline at all, blank and comment lines only, an error's line") {
  check_file_as_streamed("main;f 3");
  check_file_as_streamed("main;f 3\n");
  check_file_as_streamed("\n\n# metrics: calls\n");
  check_file_as_streamed("");
  check_file_as_streamed("main;f 3\nmain;;g 1\n");
  check_file_as_streamed("main;f 3\nmain;g x");

  test::temp_file one("one.folded", "main;f 3");
  ccrc::profile p = ccrc::read_folded_file(one.path);
  CHECK(p.size() == 3);
  CHECK(p.column(0)[ccrc::node_at_path(p.tree(), "main;f")] == 3);
  CHECK_THROWS_WITH_AS(static_cast<void>(ccrc::read_folded_file(one.path.string() + ".missing")),
                       ("cannot open " + one.path.string() + ".missing").c_str(), ccrc::error);
}

TEST_CASE("read_folded_file reads a file of many buffers whole, lines across their ends, its last line without '\\n'") {
  // Frames of 300 bytes, each line one frame deeper than the one before (back to one frame
  // past 100 kB): the file crosses the 1 MiB the reader asks for at a time, three times.
  std::string text = "# metrics: calls\n";
  std::string stack;
  int line = 0;
  for (; text.size() < (std::size_t{3} << 20); ++line) {
    if (stack.size() > 100'000) stack.clear();
    stack += (stack.empty() ? "" : ";") + std::string(296, static_cast<char>('a' + line % 26)) + std::to_string(line % 1000);
    text += stack + " " + std::to_string(line) + "\n";
  }
  text.pop_back();
  test::temp_file file("file.folded", text);
  ccrc::profile read = ccrc::read_folded_file(file.path);
  test::check_same_profile(read, ccrc::read_folded(text));
  CHECK(read.column(0)[ccrc::node_at_path(read.tree(), stack)] == line - 1);
}

#if defined(__unix__)
TEST_CASE("read_folded_file reads a FIFO (not a regular file) through the stream path") {
  std::filesystem::path fifo = std::filesystem::temp_directory_path() /
                               ("ccrc-folded-" + std::to_string(::getpid()) + ".fifo");
  std::filesystem::remove(fifo);
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  std::thread writer([&] { std::ofstream(fifo) << "main;f 2\nmain;g 5"; });
  ccrc::profile p = ccrc::read_folded_file(fifo);
  writer.join();
  std::filesystem::remove(fifo);
  CHECK(p.size() == 4);
  CHECK(p.column(0)[ccrc::node_at_path(p.tree(), "main;g")] == 5);
}
#endif
