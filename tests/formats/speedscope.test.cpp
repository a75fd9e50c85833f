#include <ccrc/formats/speedscope.hpp>
#include <ccrc/io/folded.hpp>
#include <ccrc/io/perf_script.hpp>
#include <ccrc/tree/path.hpp>

#include "support/values.hpp"
#include "support/chain.hpp"
#include "support/figure1.hpp"
#include "support/random.hpp"
#include "support/same_profile.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#if defined(__unix__)
#include <sys/stat.h>
#include <unistd.h>
#endif
#include <string>
#include <string_view>

namespace {

using test::total;

// The value of `metric` at the context `path` ("a;b;c"); the context must exist.
double value_at(const ccrc::profile& p, std::string_view path, std::string_view metric) {
  std::vector<ccrc::frame_id> frames;
  for (const auto& name : test::split(path)) {
    auto f = p.symbols().find(name);
    REQUIRE_MESSAGE(f, "no frame ", name);
    frames.push_back(*f);
  }
  ccrc::node_id n = p.tree().find_path(frames);
  REQUIRE_MESSAGE(n != ccrc::null_node, "no context ", path);
  return p.column(metric)[n];
}

// The parse_error read_speedscope throws for `text`: its byte offset and reason.
struct failure {
  std::uint64_t byte = 0;
  std::string what;
};
failure failure_of(std::string_view text, std::size_t piece_bytes = ccrc::speedscope_options{}.piece_bytes) {
  try {
    static_cast<void>(ccrc::read_speedscope(text, {.piece_bytes = piece_bytes}));
  } catch (const ccrc::parse_error& e) {
    return {e.byte(), e.what()};
  }
  FAIL("no parse_error for ", text);
  return {};
}

// Checks that reading `text` fails with a reason containing `reason`, at a byte offset
// within [the last occurrence of `near`, that + `slack`]: simdjson reports the position of
// the value it stopped at or of the token just after it.
void check_fails(std::string_view text, std::string_view near, std::string_view reason, std::size_t slack = 4) {
  CAPTURE(text);
  failure f = failure_of(text);
  CAPTURE(f.what);
  CHECK(f.what.find(reason) != std::string::npos);
  std::size_t at = text.rfind(near);
  REQUIRE(at != std::string_view::npos);
  CHECK(f.byte >= at);
  CHECK(f.byte <= at + near.size() + slack);
  // The arrays in pieces of one element (or a few): the same error at the same byte.
  for (std::size_t piece_bytes : {std::size_t{1}, std::size_t{20}}) {
    failure in_pieces = failure_of(text, piece_bytes);
    CHECK(in_pieces.byte == f.byte);
    CHECK(in_pieces.what == f.what);
  }
}

std::string write(const ccrc::profile& p, const ccrc::speedscope_write_options& options = {}) {
  std::ostringstream out;
  ccrc::write_speedscope(out, p, options);
  return out.str();
}

}  // namespace

TEST_CASE("a sampled profile: root-first stacks of frame indices, each weighing its weight") {
  // By hand: t1;main gets 1, t1;main;f a.c:3 gets 5 + 2, t1;main;g gets 4; total 12.
  ccrc::profile p = ccrc::read_speedscope(R"({
    "$schema": "https://www.speedscope.app/file-format-schema.json",
    "shared": {"frames": [{"name": "main"}, {"name": "f", "file": "a.c", "line": 3}, {"name": "g"}]},
    "profiles": [{"type": "sampled", "name": "t1", "unit": "none", "startValue": 0, "endValue": 12,
                  "samples": [[0, 1], [0], [0, 2], [0, 1]], "weights": [5, 1, 4, 2]}],
    "name": "x", "activeProfileIndex": 0, "exporter": "hand"})");
  CHECK(p.metric_names() == std::vector<std::string>{"samples"});
  CHECK(p.size() == 5);  // root, t1, main, f, g
  CHECK(value_at(p, "t1", "samples") == 0);
  CHECK(value_at(p, "t1;main", "samples") == 1);
  CHECK(value_at(p, "t1;main;f a.c:3", "samples") == 7);
  CHECK(value_at(p, "t1;main;g", "samples") == 4);
  CHECK(total(p, "samples") == 12);  // conservation: the sum of the weights
}

TEST_CASE("an evented profile: the time between two events is the innermost open frame's self time") {
  // By hand: a open 0..10, b open 2..7 inside it, c 7..7 (zero length), then a again 10..12
  // at top level after a gap (the gap 10..11 with nothing open counts nowhere):
  // a = 2 + 3 = 5 (0..2, 7..10) and then 11..12 = 1 more -> 6; b = 5; c = 0.
  ccrc::profile p = ccrc::read_speedscope(R"({"shared": {"frames": [{"name": "a"}, {"name": "b"}, {"name": "c"}]},
    "profiles": [{"type": "evented", "name": "main", "unit": "milliseconds", "startValue": 0, "endValue": 12,
      "events": [{"type": "O", "frame": 0, "at": 0}, {"type": "O", "frame": 1, "at": 2},
                 {"type": "C", "frame": 1, "at": 7}, {"at": 7, "frame": 2, "type": "O"},
                 {"type": "C", "frame": 2, "at": 7}, {"type": "C", "frame": 0, "at": 10},
                 {"type": "O", "frame": 0, "at": 11}, {"type": "C", "frame": 0, "at": 12}]}]})");
  CHECK(p.metric_names() == std::vector<std::string>{"milliseconds"});
  CHECK(value_at(p, "main;a", "milliseconds") == 6);
  CHECK(value_at(p, "main;a;b", "milliseconds") == 5);
  CHECK(value_at(p, "main;a;c", "milliseconds") == 0);  // created although it lasted 0
  CHECK(total(p, "milliseconds") == 11);                // 12 minus the 1 with nothing open
  CHECK(p.size() == 5);
}

TEST_CASE("frames are told apart by name, file, line and col; equal entries are one frame") {
  ccrc::profile p = ccrc::read_speedscope(R"({"shared": {"frames": [
      {"name": "f", "file": "a.js", "line": 1, "col": 2}, {"name": "f", "file": "b.js", "line": 1, "col": 2},
      {"name": "f"}, {"name": "f", "line": 9}, {"name": ""}, {"name": "f", "file": "a.js", "line": 1, "col": 2},
      {"col": 5, "name": "g", "file": "c.js"}, {"name": "h", "file": "", "line": 0, "col": 0}]},
    "profiles": [{"type": "sampled", "name": "p", "unit": "bytes",
      "samples": [[0], [1], [2], [3], [4], [5], [6], [7]], "weights": [1, 2, 3, 4, 5, 6, 7, 8]}]})");
  CHECK(value_at(p, "p;f a.js:1:2", "bytes") == 1 + 6);  // entries 0 and 5 are the same frame
  CHECK(value_at(p, "p;f b.js:1:2", "bytes") == 2);
  CHECK(value_at(p, "p;f", "bytes") == 3);
  CHECK(value_at(p, "p;f :9", "bytes") == 4);
  CHECK(value_at(p, "p;(anonymous)", "bytes") == 5);
  CHECK(value_at(p, "p;g c.js:5", "bytes") == 7);
  CHECK(value_at(p, "p;h", "bytes") == 8);  // speedscope's exporter: file "", line 0, col 0
  CHECK(p.size() == 9);
}

TEST_CASE("every profile goes under a frame named after it, made unique; one column per unit") {
  // Profiles of different samples (1, 2 and 3 of them): kept apart.
  ccrc::profile p = ccrc::read_speedscope(R"({"shared": {"frames": [{"name": "f"}]}, "profiles": [
      {"type": "sampled", "name": "t", "unit": "none", "samples": [[0]], "weights": [1]},
      {"type": "sampled", "name": "t", "unit": "none", "samples": [[0], [0]], "weights": [1, 1]},
      {"type": "sampled", "name": "", "unit": "nanoseconds", "samples": [[0], [0], [0]], "weights": [1, 0, 2]},
      {"type": "evented", "unit": "nanoseconds", "events": [{"type": "O", "frame": 0, "at": 5}, {"type": "C", "frame": 0, "at": 9}]}]})");
  CHECK(p.metric_names() == std::vector<std::string>{"samples", "nanoseconds"});
  CHECK(value_at(p, "t;f", "samples") == 1);
  CHECK(value_at(p, "t (1);f", "samples") == 2);
  CHECK(value_at(p, "profile 2;f", "nanoseconds") == 3);
  CHECK(value_at(p, "profile 3;f", "nanoseconds") == 4);
  CHECK(value_at(p, "profile 2;f", "samples") == 0);
}

TEST_CASE("profiles before shared: read on a second pass") {
  ccrc::profile p = ccrc::read_speedscope(R"({"profiles": [{"weights": [2], "samples": [[1, 0]], "unit": "seconds",
      "name": "p", "type": "sampled"}], "shared": {"frames": [{"name": "a"}, {"name": "b"}]}})");
  CHECK(value_at(p, "p;b;a", "seconds") == 2);
}

TEST_CASE("no profiles: an empty profile with metric samples") {
  ccrc::profile p = ccrc::read_speedscope(R"({"shared": {"frames": []}, "profiles": []})");
  CHECK(p.size() == 1);
  CHECK(p.metric_names() == std::vector<std::string>{"samples"});
}

TEST_CASE("malformed speedscope files: parse_error at the offending byte") {
  const std::string frames = R"({"shared": {"frames": [{"name": "a"}, {"name": "b"}]}, "profiles": [)";
  auto sampled = [&](std::string_view samples, std::string_view weights) {
    return frames + R"({"type": "sampled", "name": "p", "unit": "none", "samples": )" + std::string(samples) +
           R"(, "weights": )" + std::string(weights) + "}]}";
  };
  auto evented = [&](std::string_view events) {
    return frames + R"({"type": "evented", "name": "p", "unit": "none", "events": )" + std::string(events) + "}]}";
  };
  check_fails(sampled("[[0, 7]]", "[1]"), "7]]", "frame index 7 out of range (the file has 2 frames)");
  check_fails(sampled("[[0, -1]]", "[1]"), "-1]]", "not a whole number");
  // Samples and weights pair up in file order: too many of the second array at its first
  // extra element, too few at its end.
  check_fails(sampled("[[0], [1]]", "[1]"), "[1]}", "1 weights for 2 samples", 0);
  check_fails(sampled("[[0]]", "[1, 2]"), "2]", "more weights than the 1 samples");
  auto weights_first = [&](std::string_view samples, std::string_view weights) {
    return frames + R"({"type": "sampled", "name": "p", "unit": "none", "weights": )" + std::string(weights) +
           R"(, "samples": )" + std::string(samples) + "}]}";
  };
  check_fails(weights_first("[[0], [1]]", "[1]"), "[1]]}", "more samples than the 1 weights");
  check_fails(weights_first("[[0]]", "[1, 2]"), "[[0]]}", "2 weights for 1 samples", 4);
  check_fails(sampled("[[0]]", "[1]").insert(frames.size() + 1, R"("samples": [], )"), "\"samples\": [[0]]",
              "a profile with two \"samples\" members", 0);
  check_fails(sampled("[[0]]", "[-3]"), "-3]", "negative weight");
  // Weights each finite whose sum is not (issue 37: read as an infinite total): at the weight
  // that overflows, whichever array comes first, and across profiles of one unit.
  check_fails(sampled("[[0], [1], [0]]", "[1e308, 1, 1e308]"), "1e308]", "add up to more than a double holds");
  check_fails(weights_first("[[0], [1], [0]]", "[1e308, 1, 1e308]"), "1e308], \"s", "add up to more than a double holds");
  check_fails(frames + R"({"type": "sampled", "name": "p", "unit": "none", "samples": [[0]], "weights": [1e308]},)" +
                  R"({"type": "sampled", "name": "q", "unit": "none", "samples": [[1]], "weights": [1e308]}]})",
              "1e308]}]}", "add up to more than a double holds");
  check_fails(evented(R"([{"type": "O", "frame": 0, "at": -1}, {"type": "C", "frame": 0, "at": 1}])"), "-1}",
              "event \"at\" is negative");
  const std::string long_event = R"({"type": "evented", "name": "p", "unit": "none", "events": [{"type": "O", "frame": 0, "at": 0}, )"
                                 R"({"type": "C", "frame": 0, "at": 1.5e308}]})";
  check_fails(frames + long_event + "," + long_event + "]}", "1.5e308}]}]}", "add up to more than a double holds");
  check_fails(sampled("[[0]]", "[1e999]"), "1e999]", "a weight");
  check_fails(sampled("[[0]]", "[\"x\"]"), "\"x\"]", "a weight");
  check_fails(sampled("[0]", "[1]"), "0], \"w", "a sample is not an array");
  check_fails(frames + R"({"type": "flame", "name": "p", "unit": "none"}]})", "\"flame\"", "unknown profile type 'flame'", 40);
  check_fails(frames + R"({"type": "sampled", "name": "p", "unit": "hours", "samples": [], "weights": []}]})", "\"hours\"",
              "unknown unit 'hours'");
  // A missing member: at the profile's closing brace.
  check_fails(frames + R"({"type": "sampled", "name": "p", "unit": "none", "samples": []}]})", "}]}",
              "without a \"weights\" array", 0);
  check_fails(frames + R"({"type": "sampled", "name": "p", "weights": [], "samples": []}]})", "}]}",
              "without a string \"unit\"", 0);
  check_fails(frames + R"({"type": 7, "name": "p", "unit": "none"}]})", "7,", "profile \"type\" is not a string");
  check_fails(frames + R"({"type": "evented", "name": "p", "unit": "none", "events": {}}]})", "{}}",
              "\"events\" is not an array", 0);
  check_fails(frames + R"(7]})", "7]}", "a profile is not an object", 0);
  check_fails(frames + R"({"type": "evented", "name": "p", "unit": "none", "events": []} 7]})", "7]}", "expected ',' or ']'", 0);
  check_fails(evented(R"([{"type": "O", "frame": 0, "at": 0}, {"type": "C", "frame": 1, "at": 1}])"),
              R"({"type": "C")", "close event of frame 1 while frame 0 is the innermost open one", 40);
  check_fails(evented(R"([{"type": "C", "frame": 1, "at": 1}])"), R"({"type": "C")", "with no frame open", 40);
  check_fails(evented(R"([{"type": "O", "frame": 0, "at": 0}])"), "]}]}", "1 frames still open");
  check_fails(evented(R"([{"type": "O", "frame": 0, "at": 5}, {"type": "C", "frame": 0, "at": 4}])"),
              R"({"type": "C")", "event at 4 before the previous one at 5", 40);
  check_fails(evented(R"([{"type": "X", "frame": 0, "at": 0}])"), R"({"type": "X")", "event type 'X'", 40);
  check_fails(evented(R"([{"type": "O", "frame": 0}])"), R"({"type": "O")", "event without", 30);
  check_fails(evented(R"([{"type": "O", "frame": 2, "at": 0}])"), "2, \"at", "frame index 2 out of range");
  check_fails(R"({"shared": {"frames": [{"name": "a\u0001"}]}, "profiles": []})", "}]}", "frame name contains a control character");
  check_fails(R"({"shared": {"frames": [{"file": "a"}]}, "profiles": []})", "}]}", "frame 0 has no \"name\"");
  check_fails(R"({"shared": {"frames": [{"name": "a", "line": 1.5}]}, "profiles": []})", "1.5}", "not a whole number");
  check_fails(R"([1, 2])", "[", "a speedscope file is a JSON object");
  check_fails(R"({"profiles": [], "shared": {"frames": []}, "profiles": []})", "[]}", "a second \"profiles\" member");
  check_fails(R"({"shared": {"frames": []}, "shared": {"frames": []}})", "{\"frames\": []}}", "a second \"shared\" member");
  check_fails(R"({"shared": {"frames": []}, "profiles": [] } x)", "x", "content after the top-level object", 0);
  check_fails(R"({"shared": [], "profiles": []})", "[],", "\"shared\" is not an object", 0);
  // Invalid UTF-8: where simdjson's first pass meets it, the first byte of the piece (the
  // array's '[' or the ',' before the element) ...
  check_fails("{\"shared\": {\"frames\": [{\"name\": \"\xff\"}]}}", "[{", "The input is not valid UTF-8", 0);
  CHECK(failure_of("{\"shared\": {\"frames\": [{\"name\": \"a\"}, {\"name\": \"\xff\"}]}}", 1).byte == 36);
  // ... or, in a member no value of which is read, the first byte after the value read before.
  check_fails("{\"shared\": {\"frames\": []}, \"name\": \"\xff\", \"profiles\": []}", "]}, ", "not valid UTF-8", 0);
  CHECK(failure_of("{\"$schema\": \"\xff\", \"shared\": {\"frames\": []}}").byte == 0);

  failure f = failure_of(R"({"profiles": [{"type": "sampled", "name": "p", "unit": "none", "samples": [[0]], "weights": [1]}]})");
  CHECK(f.what.find("frame index 0 out of range (the file has 0 frames)") != std::string::npos);
  // Broken JSON: an error within the text, never a partial tree.
  for (std::string_view broken : {"", "{", R"({"shared": {"frames": [)", R"({"shared": {"frames": [{"name": "a"}]}, "profiles": [{)",
                                  R"({"profiles": [{"type": "evented", "events": [}]})", R"({"shared": {"frames": [{"name": "a"}]]})"}) {
    CAPTURE(broken);
    for (std::size_t piece_bytes : {std::size_t{1}, std::size_t{20}, std::size_t{1} << 20}) CHECK(failure_of(broken, piece_bytes).byte <= broken.size());
  }
}

TEST_CASE("write_speedscope: one evented profile per metric, at = running sum of self values") {
  // main (self 1) calls f (self 3) then g (self 2): by hand, main opens at 0, f runs 1..4,
  // g 4..6, main closes at 6 = its inclusive value.
  ccrc::profile p = test::stacks({{"main", 1}, {"main;f", 3}, {"main;g", 2}});
  std::string expected =
      R"({"$schema":"https://www.speedscope.app/file-format-schema.json","shared":{"frames":[{"name":"main"},)"
      R"({"name":"f"},{"name":"g"}]},"profiles":[{"type":"evented","name":")" +
      std::string(p.metric_name(0)) +
      R"(","unit":"none","startValue":0,"events":[{"type":"O","frame":0,"at":0},{"type":"O","frame":1,"at":1},)"
      R"({"type":"C","frame":1,"at":4},{"type":"O","frame":2,"at":4},{"type":"C","frame":2,"at":6},)"
      R"({"type":"C","frame":0,"at":6}],"endValue":6}],"name":"test","activeProfileIndex":0,"exporter":"ccrc"})"
      "\n";
  CHECK(write(p, {.name = "test"}) == expected);
}

TEST_CASE("write_speedscope names units after the metrics and escapes names for JSON") {
  CHECK(ccrc::detail::speedscope_unit_of_metric("time_us") == "microseconds");
  CHECK(ccrc::detail::speedscope_unit_of_metric("cpu_nanoseconds") == "nanoseconds");
  CHECK(ccrc::detail::speedscope_unit_of_metric("alloc_space_bytes") == "bytes");
  CHECK(ccrc::detail::speedscope_unit_of_metric("wall_ms") == "milliseconds");
  CHECK(ccrc::detail::speedscope_unit_of_metric("seconds") == "seconds");
  CHECK(ccrc::detail::speedscope_unit_of_metric("calls") == "none");

  // A name with every kind of character parses back (simdjson DOM, independent of the reader).
  ccrc::profile p({"calls"});
  std::string odd = "q\"\\/\b\f\n\r\t\x01 é 漢 😀";
  ccrc::frame_id frames[] = {p.intern(odd)};
  double one[] = {1};
  p.add_path(frames, one);
  std::string json = write(p);
  simdjson::dom::parser parser;
  simdjson::dom::element doc = parser.parse(json);
  CHECK(std::string_view(doc["shared"]["frames"].at(0)["name"]) == odd);
  CHECK(std::string_view(doc["profiles"].at(0)["unit"]) == "none");
}

TEST_CASE("write_speedscope refuses what speedscope cannot show") {
  ccrc::profile p = test::stacks({{"main", 1}, {"main;f", -3}});
  CHECK_THROWS_AS(write(p), ccrc::error);
  ccrc::profile q = test::stacks({{"main", 1}});
  q.column(0)[ccrc::root_node] = 2;
  CHECK_THROWS_AS(write(q), ccrc::error);
  ccrc::profile r = test::stacks({{"main", std::numeric_limits<double>::infinity()}});
  CHECK_THROWS_AS(write(r), ccrc::error);
  ccrc::profile u({"calls"});
  ccrc::frame_id bad[] = {u.intern("\xff")};
  u.add_path(bad);
  CHECK_THROWS_AS(write(u), ccrc::error);
}

namespace {

// Checks that `back` (written from `p`, read back) is `p`: its profiles, one per metric of the
// same events, share their samples, and the file says ccrc wrote it: one tree, with no frame
// above it (issue 45: one more each time a file was read and written again), a column per
// profile named after it; every path and every value kept.
void check_round_trip(const ccrc::profile& p, const ccrc::profile& back) {
  CHECK(back.metric_names() == p.metric_names());
  CHECK(test::canonical(back) == test::canonical(p));
  CHECK(back.size() == p.size());
}

}  // namespace

TEST_CASE("round trip: Figure 1 written and read back keeps every path and metric, one column per metric") {
  ccrc::profile p = test::figure1();
  ccrc::profile back = ccrc::read_speedscope(write(p));
  check_round_trip(p, back);
  // By hand from figure1.folded: calls and bytecodes, both unit none, stay apart; the
  // bytecodes total is the inclusive value of main, 1066 + 180 + ... = 3238.
  CHECK(back.metric_names() == std::vector<std::string>{"calls", "bytecodes"});
  CHECK(value_at(back, "main;f;g;h;i", "bytecodes") == 50);
  CHECK(value_at(back, "main;h", "calls") == 72);
  double bytecodes = 0;
  for (double v : back.column("bytecodes")) bytecodes += v;
  CHECK(bytecodes == 3238);
}

TEST_CASE("in a file ccrc wrote, profiles that share their samples are one tree with a column per profile") {
  // Profiles 0 and 2 have the same stacks ([f], [f;g], [f]) in two units: one tree under
  // "cpu + alloc", a column each. Profile 1 under its frame, in the column of its unit;
  // profile 3 has the same contexts as 1 from other samples ([f] twice): apart too.
  ccrc::profile p = ccrc::read_speedscope(R"({"exporter": "ccrc", "shared": {"frames": [{"name": "f"}, {"name": "g"}]}, "profiles": [
      {"type": "sampled", "name": "cpu", "unit": "nanoseconds", "samples": [[0], [0, 1], [0]], "weights": [1, 2, 4]},
      {"type": "sampled", "name": "other", "unit": "none", "samples": [[0]], "weights": [8]},
      {"type": "sampled", "name": "alloc", "unit": "bytes", "samples": [[0], [0, 1], [0]], "weights": [16, 32, 64]},
      {"type": "sampled", "name": "twice", "unit": "none", "samples": [[0], [0]], "weights": [128, 256]}]})");
  CHECK(p.metric_names() == std::vector<std::string>{"cpu", "samples", "alloc"});
  CHECK(value_at(p, "cpu + alloc;f", "cpu") == 1 + 4);
  CHECK(value_at(p, "cpu + alloc;f;g", "cpu") == 2);
  CHECK(value_at(p, "cpu + alloc;f", "alloc") == 16 + 64);
  CHECK(value_at(p, "cpu + alloc;f;g", "alloc") == 32);
  CHECK(value_at(p, "cpu + alloc;f", "samples") == 0);
  CHECK(value_at(p, "other;f", "samples") == 8);
  CHECK(value_at(p, "twice;f", "samples") == 128 + 256);
  CHECK(value_at(p, "other;f", "cpu") == 0);
  CHECK(p.size() == 1 + 3 + 2 + 2);
  // Evented profiles of the same events, all of them: the tree written, no frame above it, a
  // column per profile, named after it (its unit's metric if it has no name, made unique).
  ccrc::profile q = ccrc::read_speedscope(R"({"shared": {"frames": [{"name": "f"}]}, "exporter": "ccrc", "profiles": [
      {"type": "evented", "name": "", "unit": "none", "events": [{"type": "O", "frame": 0, "at": 0}, {"type": "C", "frame": 0, "at": 3}]},
      {"type": "evented", "name": "samples", "unit": "microseconds", "events": [{"type": "O", "frame": 0, "at": 1}, {"type": "C", "frame": 0, "at": 6}]}]})");
  CHECK(q.metric_names() == std::vector<std::string>{"samples", "samples (1)"});
  CHECK(q.size() == 2);
  CHECK(value_at(q, "f", "samples") == 3);
  CHECK(value_at(q, "f", "samples (1)") == 5);
}

TEST_CASE("two threads that did the same work stay two threads: only ccrc's own export is joined") {
  // As speedscope's own two-thread fixture: threads "one" and "two", the same samples. Written
  // by another exporter, or none, they are two profiles, 2 x 5 contexts, twice the time.
  const std::string profiles = R"("profiles": [
      {"type": "sampled", "name": "one", "unit": "seconds", "samples": [[0, 1], [0, 1, 2], [0, 3]], "weights": [1, 2, 4]},
      {"type": "sampled", "name": "two", "unit": "seconds", "samples": [[0, 1], [0, 1, 2], [0, 3]], "weights": [1, 2, 4]}]})";
  const std::string frames = R"({"shared": {"frames": [{"name": "a"}, {"name": "b"}, {"name": "c"}, {"name": "d"}]}, )";
  for (const std::string& exporter : {std::string(), std::string(R"("exporter": "speedscope@1.22.2", )"),
                                       std::string(R"("exporter": "ccrc-like", )")}) {
    CAPTURE(exporter);
    ccrc::profile p = ccrc::read_speedscope(frames + exporter + profiles);
    CHECK(p.metric_names() == std::vector<std::string>{"seconds"});
    CHECK(p.size() == 1 + 2 * 5);
    CHECK(value_at(p, "one;a;b;c", "seconds") == 2);
    CHECK(value_at(p, "two;a;b;c", "seconds") == 2);
    double total = 0;
    for (double v : p.column("seconds")) total += v;
    CHECK(total == 14);
  }
  // Written by ccrc (its exporter, as it writes it): its one profile per metric, all sharing
  // their samples: the tree written, no frame above it.
  ccrc::profile joined = ccrc::read_speedscope(frames + R"("exporter": "ccrc", )" + profiles);
  CHECK(joined.metric_names() == std::vector<std::string>{"one", "two"});
  CHECK(joined.size() == 1 + 4);
  CHECK(value_at(joined, "a;b;c", "two") == 2);
}

TEST_CASE("perf script -> speedscope -> folded keeps each metric's totals, never adding samples to periods") {
  // spin.perf by hand (tests/data/perf/README.md, and its sample lines summed): 148 samples
  // of period 500000, 74,000,000 in all.
  ccrc::profile perf = ccrc::read_perf_script_file(std::string(CCRC_SOURCE_DIR) + "/tests/data/perf/spin.perf");
  REQUIRE(perf.metric_names() == std::vector<std::string>{"samples", "period"});
  ccrc::profile back = ccrc::read_speedscope(write(perf));
  std::ostringstream folded;
  ccrc::write_folded(folded, back);
  ccrc::profile again = ccrc::read_folded(folded.str());
  CHECK(again.metric_names() == std::vector<std::string>{"samples", "period"});
  CHECK(total(again, "samples") == 148);
  CHECK(total(again, "period") == 74000000);
  CHECK(test::canonical(again) == test::canonical(perf));
}

TEST_CASE("written again and again, a speedscope file keeps its tree; another exporter's or an edited one keeps its frames") {
  // Issue 45: `ccrc symbolize` (or convert) of a speedscope file into one nested the tree one
  // level deeper each run. Another exporter's profiles, each under its frame, and the frames
  // written back as frames: the same tree from then on.
  const std::string theirs = R"({"shared": {"frames": [{"name": "main"}, {"name": "f"}]}, "profiles": [
      {"type": "sampled", "name": "t1", "unit": "none", "samples": [[0, 1], [0]], "weights": [2, 1]},
      {"type": "evented", "name": "t2", "unit": "nanoseconds", "events": [{"type": "O", "frame": 0, "at": 0}, {"type": "C", "frame": 0, "at": 9}]}],
      "exporter": "py-spy"})";
  ccrc::profile first = ccrc::read_speedscope(theirs);
  CHECK(value_at(first, "t1;main;f", "samples") == 2);
  CHECK(value_at(first, "t2;main", "nanoseconds") == 9);
  ccrc::profile again = first;
  for (int run = 0; run < 3; ++run) {
    again = ccrc::read_speedscope(write(again));
    CHECK(test::canonical(again) == test::canonical(first));
    CHECK(again.metric_names() == first.metric_names());
  }
  // Said to be ccrc's, but its profiles do not share their samples (edited): each under its frame.
  std::string edited = write(test::figure1());
  const std::size_t calls = edited.find(R"("name":"calls")");
  REQUIRE(calls != std::string::npos);
  edited.replace(edited.find(R"({"type":"O")", calls), 0, R"({"type":"O","frame":0,"at":0},{"type":"C","frame":0,"at":0},)");
  ccrc::profile apart = ccrc::read_speedscope(edited);
  CHECK(value_at(apart, "calls;main;h", "samples") == 72);
  CHECK(value_at(apart, "bytecodes;main;h", "samples") == 432);
}

TEST_CASE("round trip: random trees, metrics of several units") {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    CAPTURE(seed);
    test::rng r{seed};
    auto samples = test::random_samples(r, 200, 6, 12, 3);
    ccrc::profile p = test::profile_of(samples, 3);
    ccrc::profile q({"time_us", "calls", "alloc_bytes"});
    for (const auto& s : samples) q.add_path(test::frames_of(q, s), s.values);
    check_round_trip(p, ccrc::read_speedscope(write(p)));
    ccrc::profile back = ccrc::read_speedscope(write(q));
    CHECK(back.metric_names() == std::vector<std::string>{"time_us", "calls", "alloc_bytes"});
    check_round_trip(q, back);
  }
}

TEST_CASE("a 1,000,000-deep chain is written and read back without deep recursion") {
  test::calls_cct chain = test::call_chain(1000000, {"a", "b", "c"});
  std::ostringstream out;
  ccrc::write_speedscope(out, chain);
  ccrc::profile back = ccrc::read_speedscope(out.str());
  CHECK(back.size() == 1000000 + 1);
  CHECK(total(back, "calls") == 1000000);
  CHECK(back.tree().depth(static_cast<ccrc::node_id>(back.size() - 1)) == 1000000);
}

TEST_CASE("a file speedscope 1.25.0 wrote (node --cpu-prof, imported and exported by speedscope)") {
  // Expected values from tests/data/speedscope/README.md's node one-liner, which replays the
  // events independently: one profile, 58 frames with distinct names, 90 distinct paths, a
  // total of 331139 us with a frame open, and the self time of the two `work` functions.
  ccrc::profile p = ccrc::read_speedscope_file(CCRC_SOURCE_DIR "/tests/data/speedscope/node-cpu.speedscope.json");
  CHECK(p.metric_names() == std::vector<std::string>{"microseconds"});
  CHECK(p.size() == 90 + 2);  // the paths, the profile's frame, the root
  CHECK(total(p, "microseconds") == 331139);
  auto self_of = [&](std::string_view name) {
    auto f = p.symbols().find(name);
    REQUIRE(f);
    double sum = 0;
    for (ccrc::node_id n = 1; n < p.size(); ++n)
      if (p.tree().frame(n) == *f) sum += p.column(0)[n];
    return sum;
  };
  CHECK(self_of("work file:///tmp/ss/prof/a.js:2:14") == 233949);
  CHECK(self_of("work file:///tmp/ss/prof/b.js:2:14") == 14146);
  CHECK(self_of("fib file:///tmp/ss/prof/main.js:5:13") == 4494);
  CHECK(self_of("(program)") == 11679);
  CHECK(p.tree().name(p.tree().first_child(ccrc::root_node)) == "main.cpuprofile");
  CHECK(p.tree().next_sibling(p.tree().first_child(ccrc::root_node)) == ccrc::null_node);

  // Written back and read again: the same tree one level down, under the metric's frame.
  std::string again = write(p);
  ccrc::profile back = ccrc::read_speedscope(again);
  check_round_trip(p, back);
}

TEST_CASE("the examples of the header and of docs/formats.md read as they say") {
  ccrc::profile p = ccrc::read_speedscope(R"({"shared": {"frames": [{"name": "main"},
        {"name": "f", "file": "a.c", "line": 3}]}, "profiles": [{"type": "sampled",
        "name": "t1", "unit": "none", "samples": [[0, 1]], "weights": [5]}]})");
  CHECK(value_at(p, "t1;main;f a.c:3", "samples") == 5);

  ccrc::profile d = ccrc::read_speedscope(R"({"$schema": "https://www.speedscope.app/file-format-schema.json",
 "shared": {"frames": [{"name": "main"}, {"name": "f", "file": "a.c", "line": 3}]},
 "profiles": [
   {"type": "sampled", "name": "t1", "unit": "none", "startValue": 0, "endValue": 7,
    "samples": [[0, 1], [0]], "weights": [5, 2]},
   {"type": "evented", "name": "t2", "unit": "milliseconds", "startValue": 0, "endValue": 4,
    "events": [{"type": "O", "frame": 0, "at": 0}, {"type": "O", "frame": 1, "at": 1},
               {"type": "C", "frame": 1, "at": 4}, {"type": "C", "frame": 0, "at": 4}]}]})");
  CHECK(value_at(d, "t1;main", "samples") == 2);
  CHECK(value_at(d, "t1;main;f a.c:3", "samples") == 5);
  CHECK(value_at(d, "t2;main", "milliseconds") == 1);
  CHECK(value_at(d, "t2;main;f a.c:3", "milliseconds") == 3);
  CHECK(d.size() == 7);
}

TEST_CASE("read_speedscope_file: a missing file is a ccrc::error") {
  CHECK_THROWS_AS((void)ccrc::read_speedscope_file(CCRC_SOURCE_DIR "/tests/data/speedscope/missing.json"), ccrc::error);
}

TEST_CASE("string values with JSON escapes are unescaped; keys are matched as written") {
  // "\u004f" is "O", "C\u00e9" is "Cé", "f\"g" is f"g.
  ccrc::profile p = ccrc::read_speedscope(R"({"shared": {"frames": [{"name": "C\u00e9"}, {"name": "f\"g"}]},
    "profiles": [{"type": "evented", "name": "t", "unit": "none",
      "events": [{"type": "\u004f", "frame": 0, "at": 1}, {"type": "C", "frame": 0, "at": 3}]},
      {"type": "sampled", "name": "t\u0032", "unit": "none", "samples": [[1]], "weights": [4]}]})");
  CHECK(value_at(p, "t;C\xc3\xa9", "samples") == 2);
  CHECK(value_at(p, "t2;f\"g", "samples") == 4);
  // "\u0074ype" is not read as "type" (simdjson's lookups compare keys as written).
  check_fails(R"({"shared": {"frames": []}, "profiles": [{"\u0074ype": "sampled", "name": "p", "unit": "none"}]})",
              "\"name\"", "profile without a string \"type\"", 60);
  check_fails(R"({"shared": {"frames": [{"n\u0061me": "a"}]}, "profiles": []})", "}]}", "frame 0 has no \"name\"");
}

#if defined(__unix__)
TEST_CASE("read_speedscope_file reads a pipe (not a regular file) through json_text") {
  std::filesystem::path fifo = std::filesystem::temp_directory_path() /
                               ("ccrc-speedscope-" + std::to_string(::getpid()) + ".fifo");
  std::filesystem::remove(fifo);
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  std::thread writer([&] {
    std::ofstream(fifo) << R"({"shared": {"frames": [{"name": "a"}]}, "profiles": [)"
                           R"({"type": "sampled", "name": "p", "unit": "bytes", "samples": [[0]], "weights": [9]}]})";
  });
  ccrc::profile p = ccrc::read_speedscope_file(fifo);
  writer.join();
  std::filesystem::remove(fifo);
  CHECK(value_at(p, "p;a", "bytes") == 9);
}
#endif

// ---- The arrays parsed in pieces (speedscope_options::piece_bytes) ----

namespace {

// The profile read whole and in pieces of every size given: the same profile.
void check_same_in_pieces(std::string_view text, std::initializer_list<std::size_t> sizes) {
  auto read = [](std::string_view t, std::size_t piece_bytes) { return ccrc::read_speedscope(t, {.piece_bytes = piece_bytes}); };
  test::check_same_in_pieces(read, text, sizes);
}

// A random speedscope file: frames whose names hold the bytes the splitter must not take for
// structure (escaped quotes, brackets, commas), sampled and evented profiles whose members
// come in a random order among members ccrc does not read, `profiles` before or after
// `shared`. `total`: the sum of every weight and of every time a frame was open.
std::string random_speedscope(test::rng& r, double& total) {
  static const char* const parts[] = {"f", "g", R"(q\"x)", "[", "]", "{", "}", ",", R"(\\)", R"(\u005b)", "a b"};
  const std::uint32_t frames = 1 + r.below(30);
  std::string shared = R"("shared": {"x": [{"frames": 1}], "frames": [)";
  for (std::uint32_t i = 0; i < frames; ++i) {
    std::string name = "n" + std::to_string(i);  // distinct, so that no two frames are one
    for (std::uint32_t m = r.below(3); m > 0; --m) name += parts[r.below(std::size(parts))];
    shared += (i == 0 ? "" : ",\n") + (R"({"name": ")" + name + '"') + (r.chance(0.5) ? R"(, "file": "a[,]", "line": 3})" : "}");
  }
  shared += "]}";
  auto shuffled_object = [&](std::vector<std::string> members) {
    for (std::size_t i = members.size(); i > 1; --i) std::swap(members[i - 1], members[r.below(static_cast<std::uint32_t>(i))]);
    std::string out = "{";
    for (std::size_t i = 0; i < members.size(); ++i) out += (i == 0 ? "" : ", ") + members[i];
    return out + "}";
  };
  total = 0;
  std::string profiles = R"("profiles": [)";
  for (std::uint32_t p = 1 + r.below(3); p > 0; --p) {
    std::vector<std::string> members = {R"("name": "p{)" + std::to_string(p) + R"(]")", R"("startValue": 0)",
                                        std::string(R"("unit": ")") + (r.chance(0.5) ? "none" : "milliseconds") + '"'};
    if (r.chance(0.5)) {
      std::string samples = R"("samples": [)", weights = R"("weights": [)";
      std::vector<std::uint32_t> stack;
      for (std::uint32_t s = r.below(60); s > 0; --s) {
        stack.resize(r.below(static_cast<std::uint32_t>(stack.size()) + 1));  // a shared prefix
        for (std::uint32_t d = 1 + r.below(4); d > 0; --d) stack.push_back(r.below(frames));
        std::string list;
        for (std::uint32_t f : stack) list += (list.empty() ? "" : r.chance(0.5) ? "," : " , ") + std::to_string(f);
        const std::uint32_t w = r.below(9);
        total += w;
        samples += (samples.back() == '[' ? "[" : ",[") + list + "]";
        weights += (weights.back() == '[' ? "" : ",") + std::to_string(w);
      }
      members.insert(members.end(), {R"("type": "sampled")", samples + "]", weights + "]"});
    } else {
      std::string events = R"("events": [)";
      std::vector<std::uint32_t> open;
      std::uint32_t at = 0;
      for (std::uint32_t e = r.below(80); e > 0 || !open.empty(); e = e > 0 ? e - 1 : 0) {
        const bool opens = e > 0 && (open.empty() || r.chance(0.55));
        const std::uint32_t step = r.below(5);
        if (!open.empty()) total += step;
        at += step;
        const std::uint32_t f = opens ? r.below(frames) : open.back();
        if (opens) open.push_back(f);
        else open.pop_back();
        events += (events.back() == '[' ? "" : ",\n") + std::string(R"({"type": ")") + (opens ? "O" : "C") +
                  R"(", "frame": )" + std::to_string(f) + R"(, "at": )" + std::to_string(at) + "}";
      }
      members.insert(members.end(), {R"("type": "evented")", events + "]"});
    }
    profiles += (profiles.back() == '[' ? "" : ", ") + shuffled_object(members);
  }
  profiles += "]";
  return shuffled_object({shared, profiles, R"("$schema": "[\"}]")", R"("exporter": {"a": [1, [2, {"profiles": 3}]]})"});
}

}  // namespace

TEST_CASE("speedscope in pieces: random files give the profile of one piece, whatever the piece size") {
  test::rng r{2026};
  for (int round = 0; round < 30; ++round) {
    CAPTURE(round);
    double total = 0;
    const std::string text = random_speedscope(r, total);
    CAPTURE(text);
    double read = 0;
    for (double t : test::totals(ccrc::read_speedscope(text))) read += t;
    CHECK(read == total);  // every weight and every open interval, read
    check_same_in_pieces(text, {1, 2, 61, 200, 4096});
  }
}

TEST_CASE("speedscope in pieces: the real file and written files give the profile of one piece") {
  ccrc::formats::json_text text = ccrc::formats::json_file(CCRC_SOURCE_DIR "/tests/data/speedscope/node-cpu.speedscope.json");
  check_same_in_pieces(text.bytes(), {1, 100, 10'000});
  check_same_in_pieces(write(test::figure1()), {1, 7, 100});
}
