#include <ccrc/io/cct_text.hpp>
#include <ccrc/tree/cct.hpp>

#include "support/figure1.hpp"
#include "support/random.hpp"
#include "support/same_profile.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <string>

namespace {

template <class Tree>
std::string text_of(const Tree& t) {
  std::ostringstream out;
  ccrc::write_cct(out, t);
  return out.str();
}

// The line a parse error names and its message, or {0, ""} if the text parses.
std::pair<std::uint64_t, std::string> error_of(std::string_view text) {
  try {
    (void)ccrc::read_cct(text);
  } catch (const ccrc::parse_error& e) {
    return {e.line(), e.what()};
  }
  return {0, ""};
}

constexpr std::string_view small =
    "ccrc-cct 1\n"
    "metrics calls bytecodes\n"
    "frames 2\n"
    "main\n"
    "f\n"
    "nodes 3\n"
    "-1 0 0 0\n"
    "0 1 1 1066\n"
    "1 2 20 180\n";

}  // namespace

TEST_CASE("the format, as docs/formats.md shows it: names once, then parent, frame and values per node") {
  ccrc::profile p({"calls", "bytecodes"});
  ccrc::frame_id main_f = p.intern("main"), f = p.intern("f");
  ccrc::frame_id path[] = {main_f, f};
  p.add_path(std::span(path, 1), std::vector<double>{1, 1066});
  p.add_path(path, std::vector<double>{20, 180});
  CHECK(text_of(p) == small);
  test::check_same_profile(ccrc::read_cct(small), p);
}

TEST_CASE("Figure 1 round-trips node for node") {
  ccrc::profile p = test::figure1();
  std::string text = text_of(p);
  test::check_same_profile(ccrc::read_cct(text), p);
  std::istringstream in(text);
  test::check_same_profile(ccrc::read_cct(in), p);
  CHECK(text.size() < 400);  // linear in the nodes: 18 short lines and 5 names
}

TEST_CASE("values are exact (decimals, negatives, integers beyond 2^53, extremes), the root's own metrics too") {
  ccrc::profile p({"a", "b"});
  ccrc::frame_id frames[] = {p.intern("x")};
  ccrc::node_id x = p.add_path(frames, std::vector<double>{0.1, -2.5});
  p.column(0)[ccrc::root_node] = 7;
  for (double v : {std::ldexp(1.0, 54) + 2, std::ldexp(1.0, 60), 1e300, -1e-300, 9007199254740993.0, 123456789.125,
                   std::numeric_limits<double>::denorm_min(), std::numeric_limits<double>::max()}) {
    p.column(1)[x] = v;
    test::check_same_profile(ccrc::read_cct(text_of(p)), p);
  }
}

TEST_CASE("frame names may hold spaces, semicolons, '#' and UTF-8, call sites survive") {
  ccrc::profile p;
  ccrc::frame_id frames[] = {p.intern("# not a comment"), p.symbols().intern("Foo$Bar.baz(int, long); x", 7),
                             p.symbols().intern("Foo$Bar.baz(int, long); x", 9), p.intern(" naïve λ ")};
  p.add_path(std::span(frames, 2), std::vector<double>{1});
  p.add_path(std::span(frames, 4), std::vector<double>{2});
  std::string text = text_of(p);
  CHECK(text.find("sites 2\n2 7\n3 9\n") != std::string::npos);
  test::check_same_profile(ccrc::read_cct(text), p);
}

TEST_CASE("a cct with integer and floating metrics is written and reads back as a profile") {
  ccrc::cct<ccrc::metric<"calls">, ccrc::metric<"time", double>> t;
  ccrc::frame_id frames[] = {t.intern("main"), t.intern("work")};
  t.add_path(frames, 3, 0.25);
  ccrc::profile p = ccrc::read_cct(text_of(t));
  CHECK(p.metric_names() == std::vector<std::string>{"calls", "time"});
  CHECK(p.column("calls")[2] == 3);
  CHECK(p.column("time")[2] == 0.25);
}

TEST_CASE("round trip on random profiles, ids kept") {
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    test::rng r{seed};
    ccrc::profile p = test::profile_of(test::random_samples(r, 1 + r.below(60), 2 + r.below(30), 1 + r.below(30), 1 + seed % 3),
                                       1 + seed % 3);
    ccrc::profile q = ccrc::read_cct(text_of(p));
    test::check_same_profile(q, p);
    // Shrunk: 16 bytes a node and 8 per value, no child index.
    CHECK(q.memory_bytes() == (16 + 8 * q.metric_count()) * q.size() + q.tree().symbols().memory_bytes());
  }
}

TEST_CASE("what the format cannot hold is an error when writing") {
  ccrc::profile nan_value;
  ccrc::frame_id f[] = {nan_value.intern("f")};
  nan_value.add_path(f, std::vector<double>{std::nan("")});
  CHECK_THROWS_WITH_AS(text_of(nan_value), "metric 'samples' has a non-finite value", ccrc::error);
  ccrc::profile blank_metric({"cpu time"});
  CHECK_THROWS_WITH_AS(text_of(blank_metric), "metric name 'cpu time' contains a blank", ccrc::error);
  ccrc::profile newline;
  newline.intern("a\nb");
  CHECK_THROWS_WITH_AS(text_of(newline), "frame name 'a\nb' contains a control character", ccrc::error);
}

TEST_CASE("a frame name longer than read_cct accepts in a line is refused when writing, before any byte") {
  // Issue 37: a 100 MB name was written, then could not be read. 64 MiB is read back.
  const std::size_t max_line = std::size_t{64} << 20;
  ccrc::profile too_long;
  too_long.intern(std::string(max_line + 1, 'x'));
  std::ostringstream out;
  CHECK_THROWS_WITH_AS(ccrc::write_cct(out, too_long), doctest::Contains("is 67108865 bytes, longer than the 67108864"),
                       ccrc::error);
  CHECK(out.str().empty());
  ccrc::profile longest;
  longest.add_path(std::vector<ccrc::frame_id>{longest.intern(std::string(max_line, 'x'))}, std::vector<double>{3});
  CHECK(test::canonical(ccrc::read_cct(text_of(longest))) == test::canonical(longest));
}

TEST_CASE("malformed files: a parse error naming the line, never a crash") {
  auto replace = [](std::string_view what, std::string_view with) {
    std::string s(small);
    return s.replace(s.find(what), what.size(), with);
  };
  const std::pair<std::string, std::pair<std::uint64_t, std::string>> cases[] = {
      {"", {1, "line 1: the file ends before its nodes (truncated, or not a .cct file)"}},
      {"main;f 1\n", {1, "line 1: not a .cct file: the first line must be 'ccrc-cct 1'"}},
      {replace("ccrc-cct 1", "ccrc-cct 2"), {1, "line 1: this is .cct version 2; this reader knows version 1"}},
      {replace("metrics calls bytecodes", "metric calls"), {2, "line 2: expected 'metrics NAME...' on the second line"}},
      {replace("metrics calls bytecodes", "metrics"), {2, "line 2: 'metrics' names no metric"}},
      {replace("metrics calls bytecodes", "metrics a a"), {2, "line 2: metric 'a' is named twice"}},
      {replace("frames 2", "frames two"), {3, "line 3: expected a count, not 'two'"}},
      {replace("frames 2", "frames 2 3"), {3, "line 3: unexpected text after the count"}},
      {replace("main\n", "\n"), {4, "line 4: frame 1: name is empty"}},
      {replace("main\n", "m\x01\n"), {4, "line 4: frame 1: name contains a control character"}},
      {replace("main\n", "m\xff\n"), {4, "line 4: frame 1: name is not valid UTF-8"}},
      {replace("f\n", "main\n"), {6, "line 6: frame 2 ('main') is listed twice"}},
      {replace("nodes 3", "nodes 0"), {6, "line 6: a tree has at least its root: 'nodes 0' is not valid"}},
      {replace("nodes 3", "node 3"), {6, "line 6: expected 'nodes N', not 'node'"}},
      {replace("-1 0 0 0", "0 0 0 0"), {7, "line 7: the first node is the root: '-1 0' then its values"}},
      {replace("1 2 20 180", "2 2 20 180"), {9, "line 9: parent 2 is not an earlier node"}},
      {replace("1 2 20 180", "-1 2 20 180"), {9, "line 9: expected a parent node, not '-1'"}},
      {replace("1 2 20 180", "1 3 20 180"), {9, "line 9: frame 3 is not listed (a node has a frame 1..2)"}},
      {replace("1 2 20 180", "1 0 20 180"), {9, "line 9: frame 0 is not listed (a node has a frame 1..2)"}},
      {replace("1 2 20 180", "0 1 20 180"), {9, "line 9: node 2 repeats a sibling's frame (same parent, same frame)"}},
      {replace("1 2 20 180", "1 2 20"), {9, "line 9: expected 2 metric values after the parent and frame"}},
      {replace("1 2 20 180", "1 2 20 180 1"), {9, "line 9: more than 2 metric values"}},
      {replace("1 2 20 180", "1 2 20 nan"), {9, "line 9: value 'nan' is not a number"}},
      {replace("1 2 20 180", "1 2 20 1e999"), {9, "line 9: value '1e999' is out of range"}},
      {replace("1 2 20 180", "1 2 20 99999999999999999"), {9, "line 9: value '99999999999999999' is an integer a double cannot hold exactly (above 2^53)"}},
      {replace("1 2 20 180\n", ""), {9, "line 9: the file ends after 2 of 3 nodes"}},
      {replace("1 2 20 180\n", "1 2 20 180\n0 2 1 1\n"), {10, "line 10: more lines than the 3 nodes announced"}},
      {replace("1 2 20 180\n", "1 2 20 18"), {9, "line 9: the last line has no newline (a truncated file?)"}},
      {replace("nodes 3", "sites 1\n1 x\nnodes 3"), {7, "line 7: expected a call site, not 'x'"}},
      {replace("nodes 3", "sites 1\n0 5\nnodes 3"), {7, "line 7: frame 0 (the root) has no call site"}},
  };
  for (const auto& c : cases) {  // no structured binding: CAPTURE is a lambda, and clang 14
    CAPTURE(c.first);
    CHECK(error_of(c.first) == c.second);
  }
  CHECK(error_of(std::string(small) + "\n  \n") == std::pair<std::uint64_t, std::string>{0, ""});  // blank lines at the end
  std::string crlf;
  for (char c : small) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  CHECK(error_of(crlf) == std::pair<std::uint64_t, std::string>{0, ""});  // CRLF line ends
}

TEST_CASE("every truncation of a file is an error, random damage is an error or a valid tree") {
  std::string text = text_of(test::figure1());
  for (std::size_t n = 0; n < text.size(); ++n) CHECK_THROWS_AS((void)ccrc::read_cct(std::string_view(text).substr(0, n)), ccrc::parse_error);
  test::rng r{42};
  for (int i = 0; i < 2000; ++i) {
    std::string damaged = text;
    for (std::uint32_t k = 1 + r.below(4); k-- > 0;) damaged[r.below(static_cast<std::uint32_t>(damaged.size()))] = static_cast<char>(r.below(256));
    try {
      ccrc::profile p = ccrc::read_cct(damaged);
      CHECK(p.size() >= 1);
    } catch (const ccrc::parse_error&) {
    }
  }
}

TEST_CASE("a 1,000,000-deep chain round-trips") {
  ccrc::profile p;
  ccrc::frame_id r = p.intern("r");
  std::vector<ccrc::frame_id> stack(1'000'000, r);
  p.add_path(stack, std::vector<double>{1});
  test::check_same_profile(ccrc::read_cct(text_of(p)), p);
}
