#include <ccrc/formats/gzip.hpp>
#include <ccrc/formats/trace_event.hpp>
#include <ccrc/formats/v8_profile.hpp>
#include <ccrc/tree/path.hpp>

#include "support/random.hpp"
#include "support/same_profile.hpp"
#include "support/values.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
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

// Where ccrc::read_trace_events(text)'s parse error points, and what it says.
std::uint64_t error_byte(std::string_view text) {
  return test::error_byte([](std::string_view t) { return ccrc::read_trace_events(t); }, text);
}
std::string error_message(std::string_view text) {
  return test::error_message([](std::string_view t) { return ccrc::read_trace_events(t); }, text);
}

// A trace written gzip-compressed, read through ccrc::gzip_source.
ccrc::profile read_gzip_trace(const char* path, const ccrc::trace_event_options& options) {
  ccrc::detail::file_source packed(path);
  ccrc::gzip_source<ccrc::detail::file_source&> unpacked(packed);
  ccrc::formats::json_text text({}, unpacked);
  return ccrc::read_trace_events(text, options);
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

TEST_CASE("trace events: other phases are ignored, their fields unchecked") {
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
    {"ph":"P","name":"Prof","id":"0x1","pid":1,"tid":1,"ts":0,"args":{"data":{"startTime":"x"}}},
    {"ph":"X","name":"only","ts":0,"dur":4,"pid":1,"tid":1}
  ]})j";
  ccrc::trace_warnings w;
  ccrc::profile p = ccrc::read_trace_events(text, {.warnings = &w});
  CHECK(p.size() == 3);
  CHECK(p.metric_names() == std::vector<std::string>{"calls", "time_us"});  // no CPU profile
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

TEST_CASE("trace events: times read as whole numbers equal what simdjson reads, spaces and all") {
  // Up to 15 digits are read from their text, longer ones and the rest by simdjson: each time
  // below written both ways gives the same tree, self times and all.
  for (const char* t : {"0", "7", "123456789012345", "1234567890123456", "4503599627370496"}) {
    CAPTURE(t);
    const std::string whole = std::string(t), with_point = whole + ".0";
    auto trace = [](const std::string& ts, const char* space) {
      return "[{\"ph\":\"X\",\"name\":\"a\",\"ts\":" + ts + space + ",\"dur\":" + space + "3" + space +
             "},{\"ph\":\"X\",\"name\":\"b\",\"ts\":\n" + ts + "\r\n,\"dur\":1}]";
    };
    ccrc::profile p = ccrc::read_trace_events(trace(whole, " \t"));
    ccrc::profile q = ccrc::read_trace_events(trace(with_point, ""));
    CHECK(test::canonical(p) == test::canonical(q));
    CHECK(at(p, "time_us", "pid 0 tid 0;a") == 2);
    CHECK(at(p, "time_us", "pid 0 tid 0;a;b") == 1);
  }
  // Not numbers JSON allows: refused as before, where they are.
  CHECK(error_message(R"([{"ph":"X","name":"a","ts":012}])").find("\"ts\" is not a finite number") != std::string::npos);
  CHECK(error_byte(R"([{"ph":"X","name":"a","ts":012}])") == 27);
  CHECK(error_message(R"([{"ph":"X","name":"a","ts":12x}])").find("\"ts\"") != std::string::npos);
}

TEST_CASE("trace events: thousands of X events in any order, many starting together, give one tree") {
  // A seeded random run: frames open and close on a stack while the time moves by 0 (ties:
  // a child starting with its parent, siblings back to back), a fraction or a few units,
  // from a negative start, with zero-duration events; no two events share both start and
  // duration, so the order of the file cannot matter. Written in time order (read without
  // sorting), as tracers write X events (on return) and shuffled: more than the few
  // thousand events the reader sorts by comparisons, so its radix sort and the ordering of
  // equal times are what is compared to the unsorted read.
  test::rng r{2024};
  struct x_event {
    double ts, dur;
    std::string name;
  };
  std::vector<x_event> on_return;
  std::set<std::pair<double, double>> seen;
  std::vector<std::pair<double, std::string>> open;  // start, name
  double now = -1000.5;
  auto emit = [&](double start, const std::string& name) {
    while (!seen.insert({start, now - start}).second) now += 1;  // a twin would order by file position
    on_return.push_back({start, now - start, name});
  };
  while (on_return.size() < 12000) {
    double step = r.chance(0.4) ? 0 : r.chance(0.5) ? 0.25 * (1 + r.below(3)) : 1 + r.below(5);
    now += step;
    std::string name = "f" + std::to_string(r.below(40));
    if (open.empty() || (open.size() < 60 && r.chance(0.45))) {
      open.emplace_back(now, name);
    } else if (r.chance(0.15)) {
      emit(now, name);  // zero duration, unless it twins an earlier one
    } else {
      auto [start, top] = open.back();
      open.pop_back();
      emit(start, top);
    }
  }
  while (!open.empty()) {
    now += 1;
    emit(open.back().first, open.back().second);
    open.pop_back();
  }
  auto write = [](const std::vector<x_event>& events) {
    std::string text = "[";
    char buf[64];
    for (const x_event& e : events) {
      std::snprintf(buf, sizeof buf, "%.17g,\"dur\":%.17g", e.ts, e.dur);
      text += R"({"ph":"X","pid":3,"tid":4,"name":")" + e.name + R"(","ts":)" + buf + "},";
    }
    text.back() = ']';
    return text;
  };
  std::vector<x_event> by_time = on_return, shuffled = on_return;
  std::sort(by_time.begin(), by_time.end(), [](const x_event& a, const x_event& b) {
    return a.ts != b.ts ? a.ts < b.ts : a.dur > b.dur;
  });
  for (std::size_t i = shuffled.size(); i > 1; --i) std::swap(shuffled[i - 1], shuffled[r.below(static_cast<std::uint32_t>(i))]);
  ccrc::trace_warnings w;
  ccrc::profile expected = ccrc::read_trace_events(write(by_time), {.warnings = &w});
  CHECK(w.total() == 0);
  CHECK(total(expected, "calls") == static_cast<double>(on_return.size()));
  test::check_same_profile(expected, ccrc::read_trace_events(write(on_return)));
  test::check_same_profile(expected, ccrc::read_trace_events(write(shuffled)));
}

TEST_CASE("trace events: -0 and 0 are one time, also among thousands of events") {
  // outer [0, 10] at "ts":0 and inner [-0, 4] at "ts":-0 start together: the longer is the
  // parent whichever sign its zero has, after 5,000 earlier events that make the reader sort
  // by radix (where -0 and 0 are different keys).
  std::string text = "[";
  for (int i = 0; i < 5000; ++i)
    text += R"({"ph":"X","name":"early","ts":)" + std::to_string(-20000 + 2 * i) + R"(,"dur":1},)";
  text += R"({"ph":"X","name":"inner","ts":-0,"dur":4},{"ph":"X","name":"outer","ts":0,"dur":10}])";
  ccrc::profile p = ccrc::read_trace_events(text);
  CHECK(at(p, "time_us", "pid 0 tid 0;outer;inner") == 4);
  CHECK(at(p, "time_us", "pid 0 tid 0;outer") == 6);
  CHECK(at(p, "calls", "pid 0 tid 0;early") == 5000);
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
  // event on each of 85 other tids (16346: Total ExecuteCompiler, 1287276 µs): clang's
  // summaries, left out, so that the trace's time is its compile's.
  ccrc::trace_warnings w;
  ccrc::profile p = ccrc::read_trace_events_file(CCRC_SOURCE_DIR "/tests/data/trace_event/small.json", {.warnings = &w});
  CHECK(w.total() == 0);
  CHECK(w.summaries == 85);
  const std::string main = "clang (pid 16345) clang++ (tid 16345)";
  std::vector<std::string> names = threads(p);
  REQUIRE(names.size() == 1);
  CHECK(names[0] == main);
  CHECK(total(p, "calls") == 605);
  CHECK(total(p, "time_us") == 1287276);
  CHECK(at(p, "time_us", main + ";ExecuteCompiler") == 12767);
  CHECK(at(p, "calls", main + ";ExecuteCompiler;Frontend") == 2);
  CHECK(at(p, "time_us", main + ";ExecuteCompiler;Frontend") == 13573 + 10538);
  // Conservation: the self times add up to the top-level duration.
  auto sums = time_per_thread(p);
  CHECK(sums[main] == 1287276);
  double calls_on_main = 0;
  const auto& t = p.tree();
  std::vector<bool> on_main(t.size(), false);
  for (ccrc::node_id n = 1; n < t.size(); ++n) {
    on_main[n] = t.parent(n) == ccrc::root_node ? t.name(n) == main : on_main[t.parent(n)];
    if (on_main[n]) calls_on_main += p.column("calls")[n];
  }
  CHECK(calls_on_main == 605);
}

// ---- Chrome DevTools performance traces: V8 CPU profiles in Profile/ProfileChunk events ----

namespace {

// A DevTools trace as Chrome writes one (keys sorted, so `args` comes first): an X event on
// the main thread (pid 1, tid 1), the Profile event there, and two ProfileChunk events from
// the profiler thread (tid 9), the second one bringing node 4.
constexpr std::string_view chunked_trace = R"J({"traceEvents":[
{"args":{"name":"CrRendererMain"},"name":"thread_name","ph":"M","pid":1,"tid":1},
{"args":{},"dur":50,"name":"RunTask","ph":"X","pid":1,"tid":1,"ts":1000},
{"args":{"data":{"startTime":990}},"id":"0x1","name":"Profile","ph":"P","pid":1,"tid":1,"ts":995},
{"args":{"data":{"cpuProfile":{"nodes":[
  {"callFrame":{"codeType":"other","functionName":"(root)","scriptId":0},"id":1},
  {"callFrame":{"codeType":"other","functionName":"(program)","scriptId":0},"id":2,"parent":1},
  {"callFrame":{"codeType":"JS","columnNumber":9,"functionName":"main","lineNumber":0,"scriptId":3,"url":"a.js"},"id":3,"parent":1}],
  "samples":[2,3,3]},"lines":[0,1,1],"timeDeltas":[10,5,20]}},"id":"0x1","name":"ProfileChunk","ph":"P","pid":1,"tid":9,"ts":1030},
{"args":{"data":{"cpuProfile":{"nodes":[
  {"callFrame":{"functionName":"","lineNumber":4,"columnNumber":2,"scriptId":3,"url":"a.js"},"id":4,"parent":3}],
  "samples":[4,4,3]},"timeDeltas":[7,-1,8]}},"id":"0x1","name":"ProfileChunk","ph":"P","pid":1,"tid":9,"ts":1060}
],"metadata":{"source":"DevTools"}})J";

const std::string main_thread = "pid 1 CrRendererMain (tid 1)";
const std::string profile_root = main_thread + ";(cpu profile)";
const std::string main_js = profile_root + ";main a.js:1:10";

}  // namespace

TEST_CASE("trace events: a DevTools trace's CPU profile goes under its Profile event's thread") {
  ccrc::trace_warnings w{9, 9, 9};
  ccrc::profile p = ccrc::read_trace_events(chunked_trace, {.warnings = &w});
  CHECK(w.total() == 0);
  CHECK(p.metric_names() == std::vector<std::string>{"calls", "time_us", "samples", "sampled_us"});
  CHECK(threads(p) == std::vector<std::string>{main_thread});  // not the profiler thread, tid 9
  // root, thread, RunTask, (cpu profile) = (root), (program), main, (anonymous): the file's
  // four nodes are four contexts, the (root) node the (cpu profile) frame.
  CHECK(p.size() == 7);
  CHECK(at(p, "calls", main_thread + ";RunTask") == 1);
  CHECK(at(p, "time_us", main_thread + ";RunTask") == 50);
  CHECK(at(p, "samples", main_thread + ";RunTask") == 0);
  // Samples at 1000 (2), 1005 (3), 1025 (3) from chunk 1, 1032 (4), 1031 (4), 1039 (3) from
  // chunk 2: each weighs the time to the next one, a negative gap 0, the last 0 (a trace gives
  // no end time).
  CHECK(at(p, "samples", profile_root + ";(program)") == 1);
  CHECK(at(p, "sampled_us", profile_root + ";(program)") == 5);
  CHECK(at(p, "samples", main_js) == 3);
  CHECK(at(p, "sampled_us", main_js) == 20 + 7 + 0);  // 1005 -> 1025 -> 1032, and the last
  CHECK(at(p, "samples", main_js + ";(anonymous) a.js:5:3") == 2);
  CHECK(at(p, "sampled_us", main_js + ";(anonymous) a.js:5:3") == 0 + 8);  // 1032 -> 1031: 0
  CHECK(at(p, "calls", profile_root) == 0);
  // Conservation: 6 samples in the chunks, and the gaps after the first (5+20+7+0+8).
  CHECK(total(p, "samples") == 6);
  CHECK(total(p, "sampled_us") == 40);
  CHECK(total(p, "time_us") == 50);
}

TEST_CASE("trace events: a chunked profile gives the tree read_v8_profile gives for the same .cpuprofile") {
  // The profile of chunked_trace written as one .cpuprofile (startTime 990; no endTime, as in
  // a trace): the subtree under (cpu profile) must equal the .cpuprofile's tree, names and
  // weights, since both readers share one node-tree implementation.
  ccrc::profile whole = ccrc::read_v8_profile(R"J({"nodes":[
    {"callFrame":{"functionName":"(root)","scriptId":0},"id":1},
    {"callFrame":{"functionName":"(program)","scriptId":0},"id":2,"parent":1},
    {"callFrame":{"columnNumber":9,"functionName":"main","lineNumber":0,"scriptId":3,"url":"a.js"},"id":3,"parent":1},
    {"callFrame":{"functionName":"","lineNumber":4,"columnNumber":2,"scriptId":3,"url":"a.js"},"id":4,"parent":3}],
    "samples":[2,3,3,4,4,3],"timeDeltas":[10,5,20,7,-1,8],"startTime":990})J");
  ccrc::profile trace = ccrc::read_trace_events(chunked_trace);
  ccrc::node_id top = ccrc::node_at_path(trace.tree(), profile_root);
  REQUIRE(top != ccrc::null_node);
  REQUIRE(whole.size() == 4);
  for (ccrc::node_id n = 1; n < whole.size(); ++n) {
    // Contexts in the same order below the two roots (both built parents first, in file order).
    ccrc::node_id m = static_cast<ccrc::node_id>(top + n);
    CHECK(trace.tree().name(m) == whole.tree().name(n));
    CHECK(trace.column("samples")[m] == whole.column("samples")[n]);
    CHECK(trace.column("sampled_us")[m] == whole.column("time_us")[n]);
  }
}

TEST_CASE("trace events: ProfileChunk events are taken in time order, and keyed by pid and id") {
  // Two profiles with the same id in two processes, chunks written out of order: samples
  // follow the chunks' ts, not the file (a: 10 then 20 after the start 0).
  constexpr std::string_view text = R"J([
{"ph":"P","name":"ProfileChunk","id":"0x1","pid":1,"tid":5,"ts":20,"args":{"data":{"cpuProfile":{"samples":[3]},"timeDeltas":[4]}}},
{"ph":"P","name":"Profile","id":"0x1","pid":1,"tid":1,"ts":1,"args":{"data":{"startTime":0}}},
{"ph":"P","name":"ProfileChunk","id":"0x1","pid":1,"tid":5,"ts":10,"args":{"data":{"cpuProfile":{"nodes":[
  {"id":1,"callFrame":{"functionName":"(root)"}},{"id":2,"parent":1,"callFrame":{"functionName":"a"}},
  {"id":3,"parent":1,"callFrame":{"functionName":"b"}}],"samples":[2]},"timeDeltas":[6]}}},
{"ph":"P","name":"Profile","id":"0x1","pid":2,"tid":1,"ts":1,"args":{"data":{"startTime":0}}},
{"ph":"P","name":"ProfileChunk","id":"0x1","pid":2,"tid":5,"ts":10,"args":{"data":{"cpuProfile":{"nodes":[
  {"id":1,"callFrame":{"functionName":"(root)"}},{"id":7,"parent":1,"callFrame":{"functionName":"c"}}],"samples":[7,7]},"timeDeltas":[1,2]}}}])J";
  ccrc::profile p = ccrc::read_trace_events(text);
  CHECK(threads(p) == std::vector<std::string>{"pid 1 tid 1", "pid 2 tid 1"});
  CHECK(at(p, "samples", "pid 1 tid 1;(cpu profile);a") == 1);
  CHECK(at(p, "sampled_us", "pid 1 tid 1;(cpu profile);a") == 4);  // at 6, next at 10
  CHECK(at(p, "samples", "pid 1 tid 1;(cpu profile);b") == 1);
  CHECK(at(p, "sampled_us", "pid 1 tid 1;(cpu profile);b") == 0);   // the last sample
  CHECK(at(p, "samples", "pid 2 tid 1;(cpu profile);c") == 2);
  CHECK(at(p, "sampled_us", "pid 2 tid 1;(cpu profile);c") == 2);
  CHECK(p.metric_names() == std::vector<std::string>{"calls", "time_us", "samples", "sampled_us"});
  CHECK(total(p, "calls") == 0);
}

TEST_CASE("trace events: two profiles of one thread, chunks without a Profile event, a whole CpuProfile") {
  constexpr std::string_view text = R"J([
{"ph":"X","name":"(cpu profile)","ts":0,"dur":1,"pid":1,"tid":1},
{"ph":"P","name":"Profile","id":"0x1","pid":1,"tid":1,"ts":1,"args":{"data":{"startTime":0}}},
{"ph":"P","name":"ProfileChunk","id":"0x1","pid":1,"tid":5,"ts":2,"args":{"data":{"cpuProfile":{"nodes":[
  {"id":1,"callFrame":{"functionName":"(root)"}},{"id":2,"parent":1,"callFrame":{"functionName":"a"}}],"samples":[2]},"timeDeltas":[1]}}},
{"ph":"P","name":"Profile","id":"0x2","pid":1,"tid":1,"ts":3,"args":{"data":{"startTime":0}}},
{"ph":"P","name":"ProfileChunk","id":"0x2","pid":1,"tid":5,"ts":4,"args":{"data":{"cpuProfile":{"nodes":[
  {"id":1,"callFrame":{"functionName":"(root)"}},{"id":2,"parent":1,"callFrame":{"functionName":"z"}}],"samples":[2]},"timeDeltas":[1]}}},
{"ph":"P","name":"ProfileChunk","id":"0x3","pid":1,"tid":5,"ts":4,"args":{"data":{"cpuProfile":{"nodes":[
  {"id":1,"callFrame":{"functionName":"(root)"}},{"id":2,"parent":1,"callFrame":{"functionName":"o"}}],"samples":[2,2]},"timeDeltas":[1,3]}}},
{"ph":"I","name":"CpuProfile","pid":2,"tid":2,"ts":0,"args":{"data":{"cpuProfile":{"nodes":[
  {"id":1,"callFrame":{"functionName":"(root)"},"children":[2]},{"id":2,"callFrame":{"functionName":"w"}}],
  "samples":[2,2],"timeDeltas":[10,10],"startTime":100,"endTime":150}}}},
{"ph":"P","name":"Profile","id":"0x9","pid":3,"tid":3,"ts":1,"args":{"data":{"startTime":0}}}])J";
  ccrc::trace_warnings w;
  ccrc::profile p = ccrc::read_trace_events(text, {.warnings = &w});
  // Profile 0x3 has no Profile event: under its chunk's thread, counted. Profile 0x9 has no
  // chunk: nothing (pid 3 gets no thread frame).
  CHECK(w.profiles_without_start == 1);
  CHECK(w.total() == 1);
  CHECK(threads(p) == std::vector<std::string>{"pid 1 tid 1", "pid 1 tid 5", "pid 2 tid 2"});
  // The X event named (cpu profile) keeps its frame; each profile gets a new one (call sites).
  ccrc::node_id thread = ccrc::node_at_path(p.tree(), "pid 1 tid 1");
  std::vector<std::string> under;
  std::vector<std::uint32_t> sites;
  for (ccrc::node_id n = p.tree().first_child(thread); n != ccrc::null_node; n = p.tree().next_sibling(n)) {
    under.emplace_back(p.tree().name(n));
    sites.push_back(p.symbols().site(p.tree().frame(n)));
  }
  CHECK(under == std::vector<std::string>{"(cpu profile)", "(cpu profile)", "(cpu profile)"});
  CHECK(sites == std::vector<std::uint32_t>{0, 2, 3});
  CHECK(at(p, "calls", "pid 1 tid 1;(cpu profile)") == 1);
  CHECK(total(p, "samples") == 1 + 1 + 2 + 2);
  CHECK(at(p, "samples", "pid 1 tid 5;(cpu profile);o") == 2);
  CHECK(at(p, "sampled_us", "pid 1 tid 5;(cpu profile);o") == 3);
  // The CpuProfile event: samples at 110 and 120, the last weighing the time to endTime 150.
  CHECK(at(p, "samples", "pid 2 tid 2;(cpu profile);w") == 2);
  CHECK(at(p, "sampled_us", "pid 2 tid 2;(cpu profile);w") == 10 + 30);
}

TEST_CASE("trace events: malformed profile events give the byte of what is wrong") {
  struct bad_case {
    std::string text;
    std::string at;      // the text at the error's byte
    std::string reason;  // part of the message
  };
  const std::string profile = R"J({"ph":"P","name":"Profile","id":"0x1","pid":1,"tid":1,"ts":1,"args":{"data":{"startTime":0}}},)J";
  const std::string root = R"J({"id":1,"callFrame":{"functionName":"(root)"}})J";
  auto chunk = [](const std::string& data, const std::string& extra = R"J("ts":2,)J") {
    return R"J({"ph":"P","name":"ProfileChunk","id":"0x1","pid":1,"tid":5,)J" + extra + R"J("args":{"data":)J" + data + "}}";
  };
  const std::vector<bad_case> cases = {
      {"[" + profile + chunk(R"J({"cpuProfile":{"nodes":[)J" + root + R"J(],"samples":[1,7]},"timeDeltas":[1,1]})J") + "]",
       "[1,7]", "sample 1: node id 7 is not a node of its profile"},
      {"[" + profile + chunk(R"J({"cpuProfile":{"nodes":[)J" + root + R"J(],"samples":[1,1]},"timeDeltas":[1]})J") + "]",
       "[1]}", "2 samples and 1 timeDeltas"},
      {"[" + profile + chunk(R"J({"cpuProfile":{"nodes":[)J" + root + R"J(],"samples":[1]},"timeDeltas":["x"]})J") + "]",
       "\"x\"", "a time delta is not a number"},
      {"[" + profile + chunk(R"J({"cpuProfile":{"nodes":[)J" + root + R"J(],"samples":[1.5]},"timeDeltas":[1]})J") + "]",
       "1.5", "a sample's node id is not an integer"},
      {"[" + profile + chunk(R"J({"cpuProfile":{"nodes":[{"callFrame":{"functionName":"(root)"}}]}})J") + "]",
       R"J({"callFrame")J", "a node without an \"id\""},
      {"[" + profile + chunk(R"J({"cpuProfile":{"nodes":[)J" + root + R"J(,{"id":2,"parent":5,"callFrame":{"functionName":"f"}}]}})J") + "]",
       R"J({"id":2)J", "parent id 5 is not a node's id"},
      {"[" + profile + chunk(R"J({"cpuProfile":{"nodes":[)J" + root + R"J(,)J" + root + R"J(]}})J") + "]",
       R"J({"id":1,"callFrame":{"functionName":"(root)"}}]}})J", "two nodes with id 1"},
      {"[" + profile + chunk(R"J({"cpuProfile":{"nodes":[{"id":1,"callFrame":{"functionName":"main"}}]}})J") + "]",
       R"J({"id":1,"callFrame":{"functionName":"main"}})J", "not '(root)'"},
      {"[" + profile + chunk(R"J({"cpuProfile":{"samples":[1]},"timeDeltas":[1]})J") + "]",
       R"J({"ph":"P","name":"Profile",)J", "no nodes"},
      {"[" + profile + chunk(R"J({"cpuProfile":{"nodes":[)J" + root + R"J(]}})J", "") + "]",
       R"J({"ph":"P","name":"ProfileChunk")J", "a ProfileChunk event without \"ts\""},
      {"[" + profile + profile + "{}]", R"J({"ph":"P","name":"Profile","id":"0x1","pid":1,"tid":1,"ts":1,"args":{"data":{"startTime":0}}},{})J",
       "a second Profile event for profile 0x1"},
      {"[" + profile + chunk(R"J({"startTime":"early"})J") + "]", "\"early\"", "startTime is not a number"},
      {"[" + profile + chunk(R"J({"cpuProfile":{"nodes":[)J" + root + R"J(,{"id":2,"parent":1,"callFrame":{"functionName":"a\u0001"}}]}})J") + "]",
       R"J({"id":2)J", "frame name"},
      {"[" + profile + chunk(R"J({"cpuProfile":[]})J") + "]", "[]}", "\"cpuProfile\" is not an object"},
      // The times overflow at the second sample: the weight of the first is not finite.
      {"[" + profile + chunk(R"J({"cpuProfile":{"nodes":[)J" + root + R"J(],"samples":[1,1]},"timeDeltas":[1e308,1e308]})J") + "]",
       "[1,1]", "the times of the samples overflow"},
      // The same in the later chunk (in time, not in the file): the first sample it weighs is its own.
      {"[" + profile + chunk(R"J({"cpuProfile":{"samples":[1,1]},"timeDeltas":[1e308,1e308]})J", R"J("ts":5,)J") +
           "," + chunk(R"J({"cpuProfile":{"nodes":[)J" + root + R"J(],"samples":[1]},"timeDeltas":[1]})J") + "]",
       "[1,1]", "the times of the samples overflow"},
      {R"J([{"ph":"P","name":"Profile","id":"0x1","pid":"one","tid":1}])J", "\"one\"", "\"pid\" is not an integer"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.text);
    std::size_t expected = c.text.rfind(c.at);
    REQUIRE(expected != std::string::npos);
    CHECK(error_byte(c.text) == expected);
    CHECK(error_message(c.text).find(c.reason) != std::string::npos);
  }
}

TEST_CASE("trace events: a real Chrome DevTools trace (tests/data/trace_event/devtools.json.gz)") {
  // Chromium 156's trace of devtools_page.html (README there). Expected values from node over
  // the JSON, independently of ccrc (the one-liners are in the README): one Profile event,
  // id 0x1, pid 9362, tid 9362 (CrRendererMain of the Renderer process); 8 ProfileChunk
  // events from tid 9410 (v8:ProfEvntProc) with 7 nodes, 800 samples and 800 timeDeltas; the
  // leaf function `leaf` has 743 samples weighing 146062 µs; all samples 161489 µs (the gaps
  // after the first); 6197 X and 7 B events (no E), 1261 X events on tid 9362.
  ccrc::trace_warnings w;
  ccrc::profile p = read_gzip_trace(CCRC_SOURCE_DIR "/tests/data/trace_event/devtools.json.gz", {.warnings = &w});
  CHECK(p.metric_names() == std::vector<std::string>{"calls", "time_us", "samples", "sampled_us"});
  CHECK(w.profiles_without_start == 0);
  CHECK(w.unclosed == 7);
  CHECK(total(p, "calls") == 6197 + 7);
  CHECK(total(p, "samples") == 800);
  CHECK(total(p, "sampled_us") == 161489);
  const std::string main = "Renderer (pid 9362) CrRendererMain (tid 9362)";
  // The page as Chromium named it: where it was when the trace was recorded.
  const std::string page = "file:///work/wt/chunk/tests/data/trace_event/devtools_page.html";
  const std::string top = main + ";(cpu profile)";
  const std::string work = top + ";(anonymous) " + page + ":2:21;work " + page + ":5:14";
  CHECK(at(p, "samples", top + ";(program)") == 34);
  CHECK(at(p, "sampled_us", top + ";(program)") == 7413);
  CHECK(at(p, "samples", top + ";(idle)") == 2);
  CHECK(at(p, "samples", work) == 14);
  CHECK(at(p, "sampled_us", work) == 5012);
  CHECK(at(p, "samples", work + ";middle " + page + ":4:16;leaf " + page + ":3:14") == 743);
  CHECK(at(p, "sampled_us", work + ";middle " + page + ":4:16;leaf " + page + ":3:14") == 146062);
  // The profile's 7 nodes are 7 contexts: (cpu profile) and the six below it.
  ccrc::node_id cpu = ccrc::node_at_path(p.tree(), top);
  REQUIRE(cpu != ccrc::null_node);
  std::size_t below = 0;
  for (ccrc::node_id n = cpu + 1; n < p.size() && p.tree().depth(n) > p.tree().depth(cpu); ++n) ++below;
  CHECK(below == 6);
  // The events of the main thread: 1261 X events.
  double calls_on_main = 0;
  const auto& t = p.tree();
  std::vector<bool> on_main(t.size(), false);
  for (ccrc::node_id n = 1; n < t.size(); ++n) {
    on_main[n] = t.parent(n) == ccrc::root_node ? t.name(n) == main : on_main[t.parent(n)];
    if (on_main[n]) calls_on_main += p.column("calls")[n];
  }
  CHECK(calls_on_main == 1261);
}

// ---- The events parsed in pieces (trace_event_options::piece_bytes) ----

namespace {

constexpr std::size_t one_piece = ~std::size_t{0};

ccrc::profile read_in_pieces(std::string_view text, std::size_t piece_bytes, ccrc::trace_warnings* w = nullptr) {
  return ccrc::read_trace_events(text, {.warnings = w, .piece_bytes = piece_bytes});
}

// The trace read whole and in pieces of every size given: the same profile and warnings.
void check_same_in_pieces(std::string_view text, std::initializer_list<std::size_t> sizes) {
  ccrc::trace_warnings whole_warnings;
  ccrc::profile whole = read_in_pieces(text, one_piece, &whole_warnings);
  for (std::size_t size : sizes) {
    CAPTURE(size);
    ccrc::trace_warnings w;
    test::check_same_profile(whole, read_in_pieces(text, size, &w));
    CHECK(w.unmatched_ends == whole_warnings.unmatched_ends);
    CHECK(w.unclosed == whole_warnings.unclosed);
    CHECK(w.profiles_without_start == whole_warnings.profiles_without_start);
  }
}

// The byte and message of the error reading `text` in pieces of `size` bytes.
std::pair<std::uint64_t, std::string> error_in_pieces(std::string_view text, std::size_t size) {
  auto read = [size](std::string_view t) { return read_in_pieces(t, size); };
  return {test::error_byte(read, text), test::error_message(read, text)};
}

// A random name with the bytes the splitter must not take for structure: escaped quotes and
// backslashes, brackets, commas, a \u escape.
std::string random_name(test::rng& r) {
  static const char* const parts[] = {"f", "g", R"(q\"x)", "[", "]", "{", "}", ",", R"(\\)", R"(\u005b)", "a b", R"(\"])"};
  std::string name;
  for (std::uint32_t k = 1 + r.below(3); k > 0; --k) name += parts[r.below(std::size(parts))];
  return name;
}

// Random `args`: objects and arrays nested up to 3 deep, strings with brackets and escapes.
std::string random_args(test::rng& r, int depth = 0) {
  std::string s = "{";
  for (std::uint32_t k = r.below(3); k > 0; --k) {
    s += "\"k" + std::to_string(r.below(9)) + "\":";
    std::uint32_t kind = depth < 3 ? r.below(4) : r.below(2);
    if (kind == 0) s += "\"" + random_name(r) + "\"";
    else if (kind == 1) s += std::to_string(r.below(1000));
    else if (kind == 2) s += "[" + random_args(r, depth + 1) + ",\"]\",[[]] ]";
    else s += random_args(r, depth + 1);
    if (k > 1) s += ", ";
  }
  return s + "}";
}

// A random trace: B/E pairs and X events nested on a few threads, in time order, names and
// args full of brackets and escapes, white space between events; thread names from M events.
// `calls`: the B and X events written.
std::string random_trace(test::rng& r, std::size_t events, double& calls) {
  std::string text;
  struct open_frame {
    std::string name;
    double start;
    bool x;
  };
  std::map<int, std::vector<open_frame>> stacks;
  double now = 0;
  calls = 0;
  auto event = [&](const std::string& fields, int tid) {
    text += "{" + fields + ",\"pid\":1,\"tid\":" + std::to_string(tid) + ",\"args\":" + random_args(r) + "}";
    text += r.chance(0.5) ? ",\n" : " , ";
  };
  for (int tid = 1; tid <= 3; ++tid)
    text += R"({"ph":"M","name":"thread_name","pid":1,"tid":)" + std::to_string(tid) + R"(,"args":{"name":"[t,\"}"}},)";
  for (std::size_t i = 0; i < events; ++i) {
    int tid = 1 + static_cast<int>(r.below(3));
    auto& stack = stacks[tid];
    now += r.below(3);
    if (stack.empty() || (stack.size() < 20 && r.chance(0.55))) {
      std::string name = random_name(r);
      bool x = r.chance(0.5);
      stack.push_back({name, now, x});
      if (!x) {
        event(R"("ph":"B","name":")" + name + R"(","ts":)" + std::to_string(now), tid);
        ++calls;
      }
    } else {
      open_frame f = stack.back();
      stack.pop_back();
      if (f.x) {
        event(R"("ph":"X","name":")" + f.name + R"(","ts":)" + std::to_string(f.start) + R"(,"dur":)" +
                  std::to_string(now - f.start), tid);
      } else {
        event(R"("ph":"E","name":")" + f.name + R"(","ts":)" + std::to_string(now), tid);
      }
      calls += f.x ? 1 : 0;
    }
  }
  while (text.back() != '}') text.pop_back();  // the last separator
  return text;
}

}  // namespace

TEST_CASE("trace events in pieces: random traces give the profile of one piece, whatever the piece size") {
  test::rng r{77};
  for (int round = 0; round < 12; ++round) {
    CAPTURE(round);
    double calls = 0;
    std::string events = random_trace(r, 300 + r.below(300), calls);
    // The object form, other top-level members around the events (values with brackets in
    // strings, escaped quotes, nesting), and the array form, closed, cut off, with a ','.
    std::string object = R"({"displayTimeUnit":"ns", "stackFrames":{"1":{"name":"]}\"x"}}, "samples":[{"sf":1},[]],)"
                         "\n\"traceEvents\" : [\n" + events + "\n],\n" +
                         R"("metadata":{"a":[1,{"traceEvents":2}],"b":"\\"},"systemTraceEvents":"[{\"x\":\"]\"}")" + "}";
    for (const std::string& text : {object, "[" + events + "]", "[" + events, "[" + events + ",\n", "[" + events + ",]"}) {
      ccrc::trace_warnings w;
      ccrc::profile whole = read_in_pieces(text, one_piece, &w);
      CHECK(total(whole, "calls") == calls);  // the B and X events written, all read
      CHECK(threads(whole) == std::vector<std::string>{"pid 1 [t,\"} (tid 1)", "pid 1 [t,\"} (tid 2)", "pid 1 [t,\"} (tid 3)"});
      check_same_in_pieces(text, {1, 2, 61, 200, 4096, ccrc::trace_event_options{}.piece_bytes});
    }
  }
}

TEST_CASE("trace events in pieces: the real traces give the profile of one piece") {
  std::string small;
  {
    ccrc::formats::json_text text = ccrc::formats::json_file(CCRC_SOURCE_DIR "/tests/data/trace_event/small.json");
    small = std::string(text.bytes());
  }
  check_same_in_pieces(small, {1, 100, 10'000});
  std::string devtools;
  {
    ccrc::detail::file_source packed(CCRC_SOURCE_DIR "/tests/data/trace_event/devtools.json.gz");
    ccrc::gzip_source<ccrc::detail::file_source&> unpacked(packed);
    ccrc::formats::json_text text({}, unpacked);
    devtools = std::string(text.bytes());
  }
  check_same_in_pieces(devtools, {1, 1000, 100'000});
  // The whole profile of the file's own test, read in pieces of one event.
  ccrc::trace_warnings w;
  ccrc::profile p = read_in_pieces(devtools, 1, &w);
  CHECK(w.unclosed == 7);
  CHECK(total(p, "samples") == 800);
  CHECK(total(p, "sampled_us") == 161489);
  check_same_in_pieces(chunked_trace, {1, 300});
}

TEST_CASE("trace events in pieces: an event larger than the piece is a piece of its own") {
  // One X event with 100 KB of args, between two small ones, read in pieces of 16 bytes.
  std::string big = R"({"ph":"X","name":"big","ts":1,"dur":5,"args":{"data":[)";
  for (int i = 0; i < 5000; ++i) big += R"({"s":"],[{\"x"},)";
  big += R"({}]}})";
  std::string text = R"([{"ph":"X","name":"a","ts":0,"dur":10},)" + big + R"(,{"ph":"X","name":"c","ts":7,"dur":1}])";
  for (std::size_t size : {std::size_t{16}, one_piece}) {
    ccrc::profile p = read_in_pieces(text, size);
    CHECK(at(p, "time_us", "pid 0 tid 0;a") == 10 - 5 - 1);
    CHECK(at(p, "time_us", "pid 0 tid 0;a;big") == 5);
    CHECK(at(p, "time_us", "pid 0 tid 0;a;c") == 1);
  }
  // The whole trace one event.
  std::string alone = "[" + big + "]";
  CHECK(at(read_in_pieces(alone, 1), "calls", "pid 0 tid 0;big") == 1);
}

TEST_CASE("trace events in pieces: errors name the byte of the file, with or without pieces") {
  // Ten good events, then one that is wrong: in pieces of one event each, the fault is in
  // the eleventh piece, and its byte is the file's.
  std::string good;
  for (int i = 0; i < 10; ++i)
    good += (i ? ", " : "") + std::string(R"({"ph":"X","name":"f)") + std::to_string(i) + R"(","ts":)" + std::to_string(i) + R"(,"dur":1})";
  struct bad {
    std::string last;         // the event after the ten
    std::string at;           // the error is at the last occurrence of this
    std::string reason;
  };
  const bad cases[] = {
      {R"({"ph":"X","name":"a","ts":"x"})", R"("x")", "\"ts\" is not a finite number"},
      {R"(7)", "7", "an event that is not a JSON object"},
      {R"({"name":"a"})", R"({"name":"a"})", "an event without \"ph\""},
      {R"({"ph":"X","name":"a\u0001","ts":1})", R"("a\u0001")", "control character"},
      {R"J({"ph":"P","name":"ProfileChunk","id":"0x1","ts":2,"args":{"data":{"cpuProfile":{"nodes":[{"id":1,"callFrame":{"functionName":"(root)"}}],"samples":[1]},"timeDeltas":["x"]}}})J",
       R"("x")", "a time delta is not a number"},
      {R"J({"ph":"P","name":"ProfileChunk","id":"0x1","ts":2,"args":{"data":{"cpuProfile":{"nodes":[{"id":1,"callFrame":{"functionName":"(root)"}},{"id":2,"parent":9,"callFrame":{"functionName":"f"}}]}}}})J",
       R"({"id":2)", "parent id 9 is not a node's id"},  // found after the last piece, from the node's offset
      {R"J({"ph":"P","name":"ProfileChunk","id":"0x1","ts":2,"args":{"data":{"cpuProfile":{"nodes":[{"id":1,"callFrame":{"functionName":"(root)"}}],"samples":[1,7]},"timeDeltas":[1,1]}}})J",
       "[1,7]", "sample 1: node id 7 is not a node of its profile"},
  };
  for (const bad& c : cases) {
    for (std::string text : {"[" + good + ", " + c.last + "]", R"({"metadata":{},"traceEvents":[)" + good + ", " + c.last + "]}"}) {
      CAPTURE(text);
      std::uint64_t expected = text.rfind(c.at);
      for (std::size_t size : {std::size_t{1}, std::size_t{90}, one_piece}) {
        CAPTURE(size);
        auto [byte, message] = error_in_pieces(text, size);
        CHECK(byte == expected);
        CHECK(message.find(c.reason) != std::string::npos);
      }
    }
  }
  // Structure: the same byte in pieces of any size.
  const std::pair<std::string, std::string> structural[] = {
      {"[" + good + R"(, {"ph":"i"}} ])", "} ]"},                       // an event closed twice closes the array
      {R"({"traceEvents":[)" + good + "]", ""},                        // the object never closed: its end
      {R"({"traceEvents":[)" + good, ""},                             // the array never closed: its end
      {R"({"traceEvents":[)" + good + ", ]}", ", ]}"},                  // a ',' after the last event (no repair)
      {"[" + good + "] []", "[]"},                                     // more after the array
      {"[" + good + R"(,,{"ph":"i"}])", R"(,{"ph":"i"})"},             // an empty element: simdjson's, in a piece
      {R"({"traceEvents":[)" + good + R"(],"metadata" {}})", "{}}"},     // no ':' after a key
  };
  for (const auto& c : structural) {
    const std::string& text = c.first;
    CAPTURE(text);
    std::uint64_t expected = c.second.empty() ? text.size() : text.rfind(c.second);
    for (std::size_t size : {std::size_t{1}, std::size_t{90}, one_piece}) {
      CAPTURE(size);
      CHECK(error_in_pieces(text, size).first == expected);
    }
  }
}

TEST_CASE("trace events in pieces: what simdjson's first pass refuses is at its piece's first byte") {
  // Invalid UTF-8 and a string left open are found by simdjson's first pass over a piece,
  // which gives no position: the error names the piece's first byte (the '[' or the ','
  // before its first event), byte 0 of a trace read in one piece, as before pieces.
  const std::string good = R"({"ph":"X","name":"a","ts":0,"dur":1})";
  const std::string text = "[" + good + "," + good + ",\n{\"ph\":\"X\",\"name\":\"\xff\",\"ts\":1}]";
  CHECK(error_in_pieces(text, one_piece).first == 0);
  CHECK(error_in_pieces(text, 1).first == text.find(",\n"));
  CHECK(error_in_pieces(text, 1).second == "byte " + std::to_string(text.find(",\n")) +
                                               ": simdjson cannot take this document (The input is not valid UTF-8)");
  // Cut inside a string, or inside an event: an error, at the last piece or the end, never
  // a hang; in the object form too.
  for (const std::string& cut : {"[" + good + "," + good + R"(,{"ph":"X","na)", "[" + good + "," + good + R"(,{"ph":"X","args":{"a":[)",
                                 R"({"traceEvents":[)" + good + "," + good + R"(,{"ph":"X","name":"a\")"}) {
    CAPTURE(cut);
    std::uint64_t last_piece = cut.rfind(',', cut.rfind(R"({"ph")"));
    std::uint64_t byte = error_in_pieces(cut, 1).first;
    CHECK(byte >= last_piece);
    CHECK(byte <= cut.size() + 1);
    CHECK(error_in_pieces(cut, one_piece).first <= cut.size() + 1);
  }
  // Invalid UTF-8 among the other members of the object: at the start of the bytes checked.
  const std::string metadata = R"({"traceEvents":[)" + good + "],\"metadata\":{\"a\":\"\xff\"}}";
  CHECK(error_in_pieces(metadata, 1).first == metadata.find("],") + 1);
  CHECK(error_in_pieces(metadata, one_piece).first == metadata.find("],") + 1);
}

TEST_CASE("trace events: a `Total` event is left out only as clang writes it, alone on a thread beside others") {
  // clang's shape: the compile on tid 1, summaries at ts 0 on tids 2 and 3.
  ccrc::trace_warnings w;
  ccrc::profile clang = ccrc::read_trace_events(R"([
      {"ph": "X", "pid": 1, "tid": 1, "ts": 10, "dur": 30, "name": "Frontend"},
      {"ph": "X", "pid": 1, "tid": 2, "ts": 0, "dur": 30, "name": "Total Frontend", "args": {"count": 1, "avg ms": 0}},
      {"ph": "X", "pid": 1, "tid": 3, "ts": 0, "dur": 30, "name": "Total ExecuteCompiler"}])", {.warnings = &w});
  CHECK(w.summaries == 2);
  CHECK(total(clang, "time_us") == 30);
  // A `Total` event that is not alone on its thread, not at time 0, on a named thread, or on
  // the only thread, is a scope like any other.
  for (const char* trace : {R"([{"ph": "X", "pid": 1, "tid": 1, "ts": 10, "dur": 30, "name": "Frontend"},
                                {"ph": "X", "pid": 1, "tid": 2, "ts": 0, "dur": 30, "name": "Total Frontend"},
                                {"ph": "X", "pid": 1, "tid": 2, "ts": 40, "dur": 5, "name": "Parse"}])",
                            R"([{"ph": "X", "pid": 1, "tid": 1, "ts": 10, "dur": 30, "name": "Frontend"},
                                {"ph": "X", "pid": 1, "tid": 2, "ts": 5, "dur": 30, "name": "Total Frontend"}])",
                            R"([{"ph": "X", "pid": 1, "tid": 1, "ts": 10, "dur": 30, "name": "Frontend"},
                                {"ph": "M", "pid": 1, "tid": 2, "name": "thread_name", "args": {"name": "sum"}},
                                {"ph": "X", "pid": 1, "tid": 2, "ts": 0, "dur": 30, "name": "Total Frontend"}])",
                            R"([{"ph": "X", "pid": 1, "tid": 2, "ts": 0, "dur": 30, "name": "Total Frontend"}])"}) {
    CAPTURE(trace);
    ccrc::trace_warnings kept;
    ccrc::profile p = ccrc::read_trace_events(trace, {.warnings = &kept});
    CHECK(kept.summaries == 0);
    CHECK(threads(p).size() >= 1);
    bool found = false;
    for (ccrc::node_id n = 1; n < p.size(); ++n) found = found || p.tree().name(n) == "Total Frontend";
    CHECK(found);
  }
}
