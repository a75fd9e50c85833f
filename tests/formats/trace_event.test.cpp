#include <ccrc/formats/trace_event.hpp>
#include <ccrc/tree/path.hpp>

#include "support/values.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

namespace {

using test::at;
using test::total;

// The names of the root's children (the thread frames), in order.
std::vector<std::string> threads(const ccrc::profile& prof) {
  std::vector<std::string> names;
  for (ccrc::node_id n = prof.tree().first_child(ccrc::root_node); n != ccrc::null_node; n = prof.tree().next_sibling(n))
    names.emplace_back(prof.tree().name(n));
  return names;
}

// The sum of time_us over each thread frame's subtree, by thread frame name (parents have
// smaller ids than their children, so one forward pass finds each node's thread).
std::map<std::string, double> time_per_thread(const ccrc::profile& p) {
  const auto& t = p.tree();
  std::vector<ccrc::node_id> thread_of(t.size(), ccrc::root_node);
  std::map<std::string, double> sums;
  auto time = p.column("time_us");
  for (ccrc::node_id n = 1; n < t.size(); ++n) {
    thread_of[n] = t.parent(n) == ccrc::root_node ? n : thread_of[t.parent(n)];
    sums[std::string(t.name(thread_of[n]))] += time[n];
  }
  return sums;
}

// The byte offset a parse error names, or no_byte if the text parses.
std::uint64_t error_byte(std::string_view text) {
  try {
    (void)ccrc::read_trace_events(text);
  } catch (const ccrc::parse_error& e) {
    return e.byte();
  }
  return ccrc::parse_error::no_byte;
}

std::string error_message(std::string_view text) {
  try {
    (void)ccrc::read_trace_events(text);
  } catch (const ccrc::parse_error& e) {
    return e.what();
  }
  return "";
}

std::uint64_t offset_of(std::string_view text, std::string_view what) {
  std::size_t at = text.find(what);
  REQUIRE(at != std::string_view::npos);
  return at;
}

}  // namespace

TEST_CASE("trace events: X events nest by time under a frame naming the thread") {
  ccrc::trace_warnings w{9, 9};
  ccrc::profile p = ccrc::read_trace_events(
      R"([{"ph":"X","name":"main","ts":0,"dur":10,"pid":1,"tid":1},
          {"ph":"X","name":"f","ts":2,"dur":3,"pid":1,"tid":1}])",
      {.warnings = &w});
  CHECK(p.metric_names() == std::vector<std::string>{"calls", "time_us"});
  CHECK(p.size() == 4);  // root, thread, main, f
  CHECK(at(p, "calls", "pid 1 tid 1;main") == 1);
  CHECK(at(p, "time_us", "pid 1 tid 1;main") == 7);
  CHECK(at(p, "time_us", "pid 1 tid 1;main;f") == 3);
  CHECK(at(p, "calls", "pid 1 tid 1") == 0);
  CHECK(w.total() == 0);  // set, not added to
}

TEST_CASE("trace events: unsorted B/E and X events, mixed, give the tree their times describe") {
  // main [0,20] holds f [2,8] (holding g [4,6]) and h [10,15] (holding k [11,12]); the file
  // lists them in no order. Self times: main 20-6-5 = 9, f 6-2 = 4, g 2, h 5-1 = 4, k 1.
  std::string_view text = R"([
    {"ph":"X","name":"g","ts":4,"dur":2,"pid":1,"tid":1},
    {"ph":"E","name":"main","ts":20,"pid":1,"tid":1},
    {"ph":"X","name":"f","ts":2,"dur":6,"pid":1,"tid":1},
    {"ph":"B","name":"main","ts":0,"pid":1,"tid":1},
    {"ph":"E","name":"h","ts":15,"pid":1,"tid":1},
    {"ph":"X","name":"k","ts":11,"dur":1,"pid":1,"tid":1},
    {"ph":"B","name":"h","ts":10,"pid":1,"tid":1}
  ])";
  ccrc::trace_warnings w;
  ccrc::profile p = ccrc::read_trace_events(text, {.warnings = &w});
  CHECK(w.total() == 0);
  CHECK(p.size() == 7);
  CHECK(at(p, "time_us", "pid 1 tid 1;main") == 9);
  CHECK(at(p, "time_us", "pid 1 tid 1;main;f") == 4);
  CHECK(at(p, "time_us", "pid 1 tid 1;main;f;g") == 2);
  CHECK(at(p, "time_us", "pid 1 tid 1;main;h") == 4);
  CHECK(at(p, "time_us", "pid 1 tid 1;main;h;k") == 1);
  // Conservation: the self times add up to the top-level event's duration; one call per B or X.
  CHECK(total(p, "time_us") == 20);
  CHECK(total(p, "calls") == 5);
}

TEST_CASE("trace events: ties at one time") {
  SUBCASE("an E at the time of a B closes first, so the two are siblings") {
    ccrc::profile p = ccrc::read_trace_events(R"([
      {"ph":"B","name":"a","ts":0},{"ph":"B","name":"b","ts":5},
      {"ph":"E","name":"a","ts":5},{"ph":"E","name":"b","ts":7}])");
    CHECK(at(p, "time_us", "pid 0 tid 0;a") == 5);
    CHECK(at(p, "time_us", "pid 0 tid 0;b") == 2);
    CHECK(p.size() == 4);
  }
  SUBCASE("unless the E closes that B: a zero-duration B/E pair is a child") {
    ccrc::trace_warnings w;
    ccrc::profile p = ccrc::read_trace_events(R"([
      {"ph":"B","name":"a","ts":0},{"ph":"B","name":"z","ts":3},
      {"ph":"E","name":"z","ts":3},{"ph":"E","name":"a","ts":6}])", {.warnings = &w});
    CHECK(w.total() == 0);
    CHECK(at(p, "calls", "pid 0 tid 0;a;z") == 1);
    CHECK(at(p, "time_us", "pid 0 tid 0;a;z") == 0);
    CHECK(at(p, "time_us", "pid 0 tid 0;a") == 6);
  }
  SUBCASE("X events starting together: the longer is the parent; a zero-duration X is a leaf") {
    // outer [0,10] > inner [0,4] > tick0 (at 2, zero); tick10 at 10 starts when outer ends.
    ccrc::trace_warnings w;
    ccrc::profile p = ccrc::read_trace_events(R"([
      {"ph":"X","name":"inner","ts":0,"dur":4},{"ph":"X","name":"tick10","ts":10,"dur":0},
      {"ph":"X","name":"tick0","ts":2},{"ph":"X","name":"outer","ts":0,"dur":10}])", {.warnings = &w});
    CHECK(w.total() == 0);
    CHECK(at(p, "time_us", "pid 0 tid 0;outer") == 6);
    CHECK(at(p, "time_us", "pid 0 tid 0;outer;inner") == 4);
    CHECK(at(p, "calls", "pid 0 tid 0;outer;inner;tick0") == 1);
    CHECK(at(p, "calls", "pid 0 tid 0;tick10") == 1);
    CHECK(p.size() == 6);
  }
  SUBCASE("of several Es at one time, the one matching the top closes first") {
    ccrc::trace_warnings w;
    ccrc::profile p = ccrc::read_trace_events(R"([
      {"ph":"B","name":"a","ts":0},{"ph":"B","name":"b","ts":1},
      {"ph":"E","name":"a","ts":5},{"ph":"E","name":"b","ts":5}])", {.warnings = &w});
    CHECK(w.total() == 0);
    CHECK(at(p, "time_us", "pid 0 tid 0;a") == 1);
    CHECK(at(p, "time_us", "pid 0 tid 0;a;b") == 4);
  }
  SUBCASE("a B and an X starting together: the B is the parent; fractional times are kept") {
    ccrc::profile p = ccrc::read_trace_events(R"([
      {"ph":"X","name":"x","ts":1.5,"dur":0.25},{"ph":"B","name":"b","ts":1.5},{"ph":"E","name":"b","ts":2.5}])");
    CHECK(at(p, "time_us", "pid 0 tid 0;b;x") == 0.25);
    CHECK(at(p, "time_us", "pid 0 tid 0;b") == 0.75);
  }
  SUBCASE("an X without dur takes tdur") {
    ccrc::profile p = ccrc::read_trace_events(R"([{"ph":"X","name":"x","ts":1,"tdur":4}])");
    CHECK(at(p, "time_us", "pid 0 tid 0;x") == 4);
  }
}

TEST_CASE("trace events: threads named from M metadata, ordered by pid then tid, kept apart") {
  std::string_view text = R"({"traceEvents":[
    {"ph":"X","name":"x","ts":0,"dur":1,"pid":10,"tid":1},
    {"ph":"X","name":"x","ts":0,"dur":2,"pid":2,"tid":5},
    {"ph":"M","name":"thread_name","pid":2,"tid":5,"args":{"name":"Main"}},
    {"ph":"X","name":"x","ts":0,"dur":3,"pid":2,"tid":3},
    {"ph":"M","name":"process_name","pid":2,"args":{"name":"Renderer"}},
    {"args":{"name":"Main"},"name":"thread_name","ph":"M","pid":2,"tid":3},
    {"ph":"M","name":"thread_name","pid":2,"tid":7,"args":{"name":"Idle"}},
    {"ph":"M","name":"process_name","pid":10,"tid":4,"args":{"name":"GPU"}},
    {"ph":"M","name":"thread_sort_index","pid":10,"tid":1,"args":{"sort_index":-1}},
    {"ph":"X","name":"x","ts":0,"dur":4,"pid":1,"tid":9}
  ]})";
  ccrc::profile p = ccrc::read_trace_events(text);
  CHECK(threads(p) == std::vector<std::string>{"pid 1 tid 9", "Renderer (pid 2) Main (tid 3)",
                                                "Renderer (pid 2) Main (tid 5)", "GPU (pid 10) tid 1"});
  CHECK(at(p, "time_us", "Renderer (pid 2) Main (tid 3);x") == 3);
  CHECK(at(p, "time_us", "Renderer (pid 2) Main (tid 5);x") == 2);
  CHECK(at(p, "time_us", "GPU (pid 10) tid 1;x") == 1);
  CHECK(at(p, "time_us", "pid 1 tid 9;x") == 4);
}

TEST_CASE("trace events: containers, and an array cut off before its ']'") {
  const std::string events = R"({"ph":"X","name":"a","ts":0,"dur":5},{"ph":"X","name":"b","ts":1,"dur":2})";
  for (std::string text : {"[" + events + "]", "[" + events + "\n", "[" + events + ",", "[" + events + ",\n  ",
                           "[" + events + " , ]", R"({"displayTimeUnit":"ns","traceEvents":[)" + events +
                                                      R"(],"metadata":{"x":[1,{"traceEvent":2}]}})"}) {
    CAPTURE(text);
    ccrc::profile p = ccrc::read_trace_events(text);
    CHECK(at(p, "time_us", "pid 0 tid 0;a") == 3);
    CHECK(at(p, "time_us", "pid 0 tid 0;a;b") == 2);
    ccrc::formats::json_text json{std::string_view(text)};
    CHECK(ccrc::read_trace_events(json).size() == 4);
  }
  for (std::string_view empty : {"[]", "[", " [ \n", "[,", R"({"traceEvents":[]})"}) {
    CAPTURE(empty);
    ccrc::profile p = ccrc::read_trace_events(empty);
    CHECK(p.size() == 1);
    CHECK(p.metric_names() == std::vector<std::string>{"calls", "time_us"});
  }
  // An object cut off is not repaired.
  CHECK(error_byte(R"({"traceEvents":[{"ph":"X","name":"a","ts":0,"dur":5})") != ccrc::parse_error::no_byte);
}

TEST_CASE("trace events: unmatched ends are ignored and open frames closed at the end, both counted") {
  std::string_view text = R"([
    {"ph":"B","name":"a","ts":0,"tid":1},
    {"ph":"E","name":"x","ts":1,"tid":1},
    {"ph":"E","name":"b","ts":3,"tid":1},
    {"ph":"E","name":"a","ts":5,"tid":1},
    {"ph":"E","name":"y","ts":7,"tid":1},

    {"ph":"B","name":"c","ts":10,"tid":2},
    {"ph":"X","name":"d","ts":11,"dur":9,"tid":2},
    {"ph":"B","name":"e","ts":14,"tid":2},

    {"ph":"B","name":"a","ts":0,"tid":3},
    {"ph":"B","name":"b","ts":1,"tid":3},
    {"ph":"E","ts":2,"tid":3},
    {"ph":"E","name":"","ts":4,"tid":3},

    {"ph":"E","name":"a","ts":4,"tid":4}
  ])";
  ccrc::trace_warnings w;
  ccrc::profile p = ccrc::read_trace_events(text, {.warnings = &w});
  // tid 1: x and b do not match the top (a), y comes on an empty stack: 3 ignored; a [0,5].
  CHECK(at(p, "time_us", "pid 0 tid 1;a") == 5);
  // tid 2: d's end at 20 finds e on top (e opened inside d and never ended): ignored; then c, d
  // and e are closed at the thread's last time, 20: e 6, d 9-6 = 3, c 10-9 = 1.
  CHECK(at(p, "time_us", "pid 0 tid 2;c;d;e") == 6);
  CHECK(at(p, "time_us", "pid 0 tid 2;c;d") == 3);
  CHECK(at(p, "time_us", "pid 0 tid 2;c") == 1);
  // tid 3: an E without a name (or with "") closes the top: b [1,2], a [0,4].
  CHECK(at(p, "time_us", "pid 0 tid 3;a;b") == 1);
  CHECK(at(p, "time_us", "pid 0 tid 3;a") == 3);
  // tid 4: only an E: no thread frame, one more ignored end.
  CHECK(threads(p) == std::vector<std::string>{"pid 0 tid 1", "pid 0 tid 2", "pid 0 tid 3"});
  CHECK(w.unmatched_ends == 5);
  CHECK(w.unclosed == 3);
  CHECK(w.total() == 8);
}

TEST_CASE("trace events: other phases and DevTools CPU profiles are ignored, their fields unchecked") {
  std::string_view text = R"j({"traceEvents":[
    {"ph":"i","name":"mark","ts":"later","s":"t"},{"ph":"I","name":"mark","ts":1},
    {"ph":"C","name":"heap","ts":1,"args":{"v":3}},{"ph":"b","name":"load","id":1,"ts":1},
    {"ph":"e","name":"load","id":1,"ts":2},{"ph":"n","name":"load","id":1,"ts":2},
    {"ph":"s","name":"flow","id":2,"ts":1},{"ph":"t","name":"flow","id":2,"ts":1},
    {"ph":"f","name":"flow","id":2,"ts":1},{"ph":"P","name":"sample","ts":1},
    {"ph":"N","name":"obj","id":"0x1","ts":1},{"ph":"O","name":"obj","id":"0x1","ts":1},
    {"ph":"D","name":"obj","id":"0x1","ts":1},{"ph":"R","name":"mark","ts":1},
    {"ph":"S","name":"old","id":3,"ts":1},{"ph":"T","name":"old","id":3,"ts":1},
    {"ph":"F","name":"old","id":3,"ts":1},{"ph":"XX","name":"two letters","ts":null},
    {"ph":"P","name":"Profile","id":"0x1","pid":1,"tid":1,"ts":0,"args":{"data":{"startTime":0}}},
    {"ph":"P","name":"ProfileChunk","id":"0x1","pid":1,"tid":1,"ts":5,
     "args":{"data":{"cpuProfile":{"nodes":[{"id":1,"callFrame":{"functionName":"(root)"}}],"samples":[1]},"timeDeltas":[5]}}},
    {"ph":"X","name":"only","ts":0,"dur":4,"pid":1,"tid":1}
  ]})j";
  ccrc::trace_warnings w;
  ccrc::profile p = ccrc::read_trace_events(text, {.warnings = &w});
  CHECK(p.size() == 3);
  CHECK(at(p, "time_us", "pid 1 tid 1;only") == 4);
  CHECK(w.total() == 0);
}

TEST_CASE("trace events: malformed input is an error at the offending byte") {
  struct bad {
    std::string_view text;
    std::string_view at;      // the error is at the first occurrence of this
    std::string_view reason;  // and its message contains this
  };
  const bad cases[] = {
      {R"([{"ph":"X","name":"a","ts":0,"dur":1},1])", "1]", "an event that is not a JSON object"},
      {R"([{"ph":"X","name":"a","ts":"1"}])", R"("1")", "\"ts\" is not a finite number"},
      {R"([{"ph":"X","name":"a","ts":1e999}])", "1e999", "\"ts\" is not a finite number"},
      {R"([{"ph":"B","name":"a"}])", R"({"ph")", "a B event without \"ts\""},
      {R"([{"ph":"X","name":"a","ts":0},{"ph":"E"}])", R"({"ph":"E")", "an E event without \"ts\""},
      {R"([{"ph":"X","name":"a","ts":1,"dur":-2}])", "-2", "\"dur\" is negative"},
      {R"([{"ph":"X","name":"a","ts":1,"tdur":-2}])", "-2", "\"tdur\" is negative"},
      {R"([{"ph":"X","name":"a","ts":1,"dur":null}])", "null", "\"dur\" is not a finite number"},
      {R"([{"ph":"X","name":"a","ts":1e308,"dur":1e308}])", "1e308}", "\"ts\" + \"dur\" is too large"},
      {R"([{"ph":"B","name":"a","ts":-1e308},{"ph":"E","ts":1e308}])", "1e308}]", "times span more than a double holds"},
      {R"([{"ph":"X","name":"a","ts":1,"pid":"main"}])", R"("main")", "\"pid\" is not an integer"},
      {R"([{"ph":"M","name":"thread_name","tid":1.5}])", "1.5", "\"tid\" is not an integer"},
      {R"([{"ph":1,"name":"a","ts":1}])", "1,", "\"ph\" is not a string"},
      {R"([{"ph":"X","name":"a","ts":1},{"name":"a"}])", R"({"name":"a"}])", "an event without \"ph\""},
      {R"([{"ph":"B","ts":1}])", R"({"ph")", "a B event without \"name\""},
      {R"([{"ph":"X","name":5,"ts":1}])", "5,", "an X event whose \"name\" is not a string"},
      {R"([{"ph":"B","name":"a","ts":1},{"ph":"E","name":[],"ts":2}])", "[],", "an E event whose \"name\" is not a string"},
      {R"([{"ph":"X","name":"","ts":1}])", R"("",)", "an empty event name"},
      {R"([{"ph":"X","name":"a\u0001b","ts":1}])", R"("a\u)", "event name contains a control character"},
      {R"([{"ph":"M","name":"thread_name","args":{"name":"\u0007"}}])", R"("\u0007")", "args.name contains a control character"},
      {R"({"traceEvents":[{"ph":"X","name":"a","ts":1,"dur":1},"x"]})", R"("x")", "an event that is not a JSON object"},
      {R"({"displayTimeUnit":"ns"})", R"({)", "without \"traceEvents\""},
      {R"(5)", "5", "a trace is a JSON array of events or an object"},
  };
  for (const bad& c : cases) {
    CAPTURE(c.text);
    CHECK(error_byte(c.text) == offset_of(c.text, c.at));
    CHECK(error_message(c.text).find(c.reason) != std::string::npos);
    CHECK(error_message(c.text).rfind("byte " + std::to_string(offset_of(c.text, c.at)) + ": ", 0) == 0);
  }
  // Malformed JSON: an error near the fault, never a profile.
  for (std::string_view text : {R"([{"ph":"X",}])", R"([{"ph":"X","name":"a","ts":1 "dur":2}])", R"({"traceEvents":5})",
                                R"({"traceEvents":[{"ph":"X","name":"a","ts":0,"dur":5})", "", "  ", "x", "[] x",
                                R"([{"ph":"X","name":"a","ts":1}] [])"}) {
    CAPTURE(text);
    std::uint64_t byte = error_byte(text);
    CHECK(byte != ccrc::parse_error::no_byte);
    if (byte != ccrc::parse_error::no_byte) CHECK(byte <= text.size() + 1);
  }
  // simdjson's first pass over the whole text finds invalid UTF-8 and unclosed strings before
  // any event is read: those errors name byte 0.
  CHECK(error_message("[{\"ph\":\"X\",\"name\":\"\xff\",\"ts\":1}]") ==
        "byte 0: simdjson cannot take this document (The input is not valid UTF-8)");
  CHECK(error_byte(R"([{"ph":"X","name":"a,"ts":1}])") == 0);
  CHECK_THROWS_AS((void)ccrc::read_trace_events_file("/nonexistent/trace.json"), ccrc::error);
}

TEST_CASE("trace events: a chain of 1,000,000 nested X events, innermost first, without recursion") {
  // Event i (0 = outermost) spans [i, 2n - i]: each is its parent's only child, self time 2.
  constexpr std::size_t n = 1'000'000;
  std::string text = "[";
  for (std::size_t k = 0; k < n; ++k) {
    std::size_t i = n - 1 - k;
    text += R"({"ph":"X","name":"f","ts":)" + std::to_string(i) + R"(,"dur":)" + std::to_string(2 * (n - i)) + "},";
  }
  text.back() = ']';
  ccrc::trace_warnings w;
  ccrc::profile p = ccrc::read_trace_events(text, {.warnings = &w});
  CHECK(w.total() == 0);
  REQUIRE(p.size() == n + 2);
  CHECK(p.tree().depth(static_cast<ccrc::node_id>(n + 1)) == n + 1);
  CHECK(total(p, "calls") == static_cast<double>(n));
  CHECK(total(p, "time_us") == static_cast<double>(2 * n));  // the outermost event's duration
  CHECK(p.column("time_us")[n + 1] == 2);
  CHECK(p.column("time_us")[2] == 2);
}

TEST_CASE("trace events: clang -ftime-trace output (tests/data/trace_event/small.json)") {
  // Expected values from node over the JSON, independently of ccrc (see the README there):
  // 690 X events, 605 on tid 16345 whose one top-level event, ExecuteCompiler, lasts 1287276
  // µs (self 12767, two Frontend children of self 13573 and 10538), and one `Total <phase>`
  // event on each of 85 other tids (16346: Total ExecuteCompiler, 1287276 µs).
  ccrc::trace_warnings w;
  ccrc::profile p = ccrc::read_trace_events_file(CCRC_SOURCE_DIR "/tests/data/trace_event/small.json", {.warnings = &w});
  CHECK(w.total() == 0);
  const std::string main = "clang (pid 16345) clang++ (tid 16345)";
  std::vector<std::string> names = threads(p);
  REQUIRE(names.size() == 86);
  CHECK(names[0] == main);
  CHECK(names[1] == "clang (pid 16345) tid 16346");
  CHECK(total(p, "calls") == 690);
  CHECK(at(p, "time_us", main + ";ExecuteCompiler") == 12767);
  CHECK(at(p, "calls", main + ";ExecuteCompiler;Frontend") == 2);
  CHECK(at(p, "time_us", main + ";ExecuteCompiler;Frontend") == 13573 + 10538);
  CHECK(at(p, "time_us", "clang (pid 16345) tid 16346;Total ExecuteCompiler") == 1287276);
  // Conservation: per thread, the self times add up to the top-level durations.
  auto sums = time_per_thread(p);
  CHECK(sums[main] == 1287276);
  CHECK(sums["clang (pid 16345) tid 16346"] == 1287276);
  double calls_on_main = 0;
  const auto& t = p.tree();
  std::vector<bool> on_main(t.size(), false);
  for (ccrc::node_id n = 1; n < t.size(); ++n) {
    on_main[n] = t.parent(n) == ccrc::root_node ? t.name(n) == main : on_main[t.parent(n)];
    if (on_main[n]) calls_on_main += p.column("calls")[n];
  }
  CHECK(calls_on_main == 605);
}
