#include <ccrc/formats/gecko.hpp>
#include <ccrc/tree/path.hpp>

#include "support/random.hpp"
#include "support/same_profile.hpp"
#include "support/values.hpp"

#include <doctest/doctest.h>

#include <string>
#include <string_view>
#include <vector>

namespace {

using test::at;
using test::total;
using test::byte_of;

// Where ccrc::read_gecko_profile(text)'s parse error points (its arrays read in pieces of
// `piece_bytes`), and what it says.
std::uint64_t error_byte(std::string_view text, std::size_t piece_bytes = ccrc::gecko_profile_options{}.piece_bytes) {
  return test::error_byte([=](std::string_view t) { return ccrc::read_gecko_profile(t, {.piece_bytes = piece_bytes}); }, text);
}

// The error is at byte `at` whether the arrays are read whole or in pieces of one row (or a
// few): the byte is the file's, whatever piece it fell in.
void check_error_at(std::string_view text, std::uint64_t at) {
  CAPTURE(text);
  CHECK(error_byte(text) == at);
  CHECK(error_byte(text, 1) == at);
  CHECK(error_byte(text, 20) == at);
}
std::string error_message(std::string_view text) {
  return test::error_message([](std::string_view t) { return ccrc::read_gecko_profile(t); }, text);
}

std::vector<std::string> top_names(const ccrc::profile& p) {
  std::vector<std::string> names;
  for (ccrc::node_id c : p.tree().children(ccrc::root_node)) names.emplace_back(p.tree().name(c));
  return names;
}

std::string source(std::string_view file) { return std::string(CCRC_SOURCE_DIR) + "/tests/data/gecko/" + std::string(file); }

// A parent process with two threads (one without samples) and a child process whose thread
// has its keys in another order, the stack table's columns the other way round, rows cut short after their last needed
// column, a null stack, a JS location with the [N] sources index, an empty location, and
// times out of order once.
constexpr std::string_view processes = R"J({
  "libs": [],
  "meta": {"version": 34, "interval": 0.5, "startTime": 1000, "product": "Firefox", "categories": []},
  "threads": [
    {"name": "GeckoMain", "processType": "default", "processName": "Parent Process", "pid": 10, "tid": 10,
     "samples": {"schema": {"stack": 0, "time": 1, "eventDelay": 2}, "data": [[2, 1.0, 0], [3, 2.0, 0], [2, 4.0], [1, 4.5]]},
     "markers": {"schema": {"name": 0}, "data": []},
     "stackTable": {"schema": {"prefix": 0, "frame": 1}, "data": [[null, 0], [0, 1], [1, 2], [1, 3], [0, 2]]},
     "frameTable": {"schema": {"location": 0, "relevantForJS": 1, "line": 2}, "data": [[0, false], [1, false, null], [2, false, 7], [3]]},
     "stringTable": ["(root)", "main", "f (file:///a.js:1:1)[4]", "0x7f0012"]},
    {"name": "Idle", "processName": "Parent Process", "pid": 10, "tid": 11,
     "samples": {"schema": {"stack": 0, "time": 1}, "data": []},
     "stackTable": {"schema": {"prefix": 0, "frame": 1}, "data": []},
     "frameTable": {"schema": {"location": 0}, "data": []}, "stringTable": []}
  ],
  "processes": [
    {"meta": {"version": 34, "startTime": 1010},
     "threads": [
       {"tid": 20, "pid": 20, "processName": "Web Content", "name": "GeckoMain",
        "stringTable": ["(root)", "", "g (file:///b.js:3:5)[0]", "main"],
        "frameTable": {"schema": {"location": 0}, "data": [[0], [3], [2], [1]]},
        "stackTable": {"schema": {"frame": 0, "prefix": 1}, "data": [[0, null], [1, 0], [2, 1], [3, 1]]},
        "samples": {"schema": {"time": 0, "stack": 1}, "data": [[5.0, 2], [9.0, null], [8.0, 3], [10.0, 2]]}}
     ],
     "processes": []}
  ],
  "pausedRanges": []
})J";

}  // namespace

TEST_CASE("the example of the doc comment") {
  ccrc::profile p = ccrc::read_gecko_profile(std::string_view(R"J({"meta":{"interval":1},
      "threads":[{"name":"GeckoMain","pid":7,"tid":7,
        "samples":{"schema":{"stack":0,"time":1},"data":[[1,10.0],[1,12.5]]},
        "stackTable":{"schema":{"prefix":0,"frame":1},"data":[[null,0],[0,1]]},
        "frameTable":{"schema":{"location":0},"data":[[0],[1]]},
        "stringTable":["(root)","f (a.js:1:1)"]}]})J"));
  CHECK(p.metric_names() == std::vector<std::string>{"samples", "time_ms"});
  CHECK(p.size() == 4);  // root, the thread, (root), f
  CHECK(at(p, "samples", "pid 7 GeckoMain (tid 7);(root);f (a.js:1:1)") == 2);
  CHECK(at(p, "time_ms", "pid 7 GeckoMain (tid 7);(root);f (a.js:1:1)") == 2.5 + 1);
}

TEST_CASE("threads and processes: one frame per thread, stacks root first, columns by schema") {
  ccrc::profile p = ccrc::read_gecko_profile(processes);
  const std::string parent = "Parent Process (pid 10) GeckoMain (tid 10)";
  const std::string child = "Web Content (pid 20) GeckoMain (tid 20)";
  // The thread without samples adds nothing; the child process's thread comes after the parent's.
  CHECK(top_names(p) == std::vector<std::string>{parent, child});

  // Parent: stacks 2 = (root);main;f, 3 = (root);main;0x7f0012, 1 = (root);main. Stack 4
  // ((root);f) is not sampled: no context. Contexts: thread, (root), main, f, 0x7f0012.
  CHECK(at(p, "samples", parent + ";(root);main;f (file:///a.js:1:1)") == 2);
  CHECK(at(p, "samples", parent + ";(root);main;0x7f0012") == 1);
  CHECK(at(p, "samples", parent + ";(root);main") == 1);
  CHECK_THROWS((void)ccrc::node_at_path(p.tree(), parent + ";(root);f (file:///a.js:1:1)"));
  // Times 1, 2, 4, 4.5: f 1 + 0.5, 0x7f0012 2, main (last) the interval 0.5.
  CHECK(at(p, "time_ms", parent + ";(root);main;f (file:///a.js:1:1)") == 1.5);
  CHECK(at(p, "time_ms", parent + ";(root);main;0x7f0012") == 2);
  CHECK(at(p, "time_ms", parent + ";(root);main") == 0.5);

  // Child: stack table {frame 0, prefix 1}; stacks 2 = (root);main;g and 3 = (root);main;(anonymous)
  // (the empty location). Samples at 5 (stack 2), 9 (null: the thread's frame), 8 (stack 3),
  // 10 (stack 2): gaps 4, -1 -> 0, 2, and the interval 0.5 for the last.
  CHECK(at(p, "samples", child + ";(root);main;g (file:///b.js:3:5)") == 2);
  CHECK(at(p, "samples", child + ";(root);main;(anonymous)") == 1);
  CHECK(at(p, "samples", child) == 1);
  CHECK(at(p, "time_ms", child + ";(root);main;g (file:///b.js:3:5)") == 4 + 0.5);
  CHECK(at(p, "time_ms", child) == 0);
  CHECK(at(p, "time_ms", child + ";(root);main;(anonymous)") == 2);

  // 1 root + parent 5 + child 5 (thread, (root), main, g, (anonymous)).
  CHECK(p.size() == 11);
  // Conservation: samples = entries of samples.data (4 + 0 + 4); time = per thread the sum of
  // the positive gaps plus the interval: (1 + 2 + 0.5) + 0.5 and (4 + 0 + 2) + 0.5.
  CHECK(total(p, "samples") == 8);
  CHECK(total(p, "time_ms") == 4.0 + 6.5);
}

TEST_CASE("the [N] sources index recent Gecko appends to JS locations is not part of the name") {
  CHECK(ccrc::detail::gecko_frame_name("fib (file:///a.html:2:13)[2]") == "fib (file:///a.html:2:13)");
  CHECK(ccrc::detail::gecko_frame_name("file:///a.html[12]") == "file:///a.html");
  CHECK(ccrc::detail::gecko_frame_name("f (x.js:1:1)") == "f (x.js:1:1)");
  CHECK(ccrc::detail::gecko_frame_name("a[]") == "a[]");
  CHECK(ccrc::detail::gecko_frame_name("a[x1]") == "a[x1]");
  CHECK(ccrc::detail::gecko_frame_name("[12]") == "[12]");                // nothing before it
  CHECK(ccrc::detail::gecko_frame_name("a[1234567890]") == "a[1234567890]");  // ten digits
}

TEST_CASE("thread names: missing parts left out, repeats told apart by their index") {
  constexpr std::string_view twins = R"J({"meta":{},"threads":[
    {"name":"W","tid":1,"samples":{"schema":{"stack":0,"time":1},"data":[[null,0]]}},
    {"name":"W","tid":1,"samples":{"schema":{"stack":0,"time":1},"data":[[null,0],[null,1]]}},
    {"samples":{"schema":{"stack":0,"time":1},"data":[[null,0]]}},
    {"processName":"P","pid":"p-1","samples":{"schema":{"stack":0,"time":1},"data":[[null,0]]}}]})J";
  ccrc::profile p = ccrc::read_gecko_profile(twins);
  CHECK(top_names(p) == std::vector<std::string>{"W (tid 1)", "W (tid 1) (1)", "thread 2", "P (pid p-1)"});
  CHECK(at(p, "samples", "W (tid 1) (1)") == 2);
  CHECK(at(p, "time_ms", "W (tid 1) (1)") == 1);  // no meta.interval: the last sample weighs 0
}

TEST_CASE("the DevTools performance panel's recording: the Gecko profile under \"profile\"") {
  constexpr std::string_view recording = R"J({"systemHost":{"name":"Firefox"},"duration":5,
    "profile":{"meta":{"interval":2},"threads":[{"name":"GeckoMain","tid":3,
      "samples":{"schema":{"stack":0,"time":1},"data":[[0,1],[0,2]]},
      "stackTable":{"schema":{"prefix":0,"frame":1},"data":[[null,0]]},
      "frameTable":{"schema":{"location":0},"data":[[0]]},"stringTable":["(root)"]}]}})J";
  ccrc::profile p = ccrc::read_gecko_profile(recording);
  CHECK(at(p, "samples", "GeckoMain (tid 3);(root)") == 2);
  CHECK(at(p, "time_ms", "GeckoMain (tid 3);(root)") == 1 + 2);
}

TEST_CASE("profiler.firefox.com's processed format is refused by name") {
  constexpr std::string_view processed =
      R"J({"meta":{"interval":1,"preprocessedProfileVersion":50},"threads":[],"shared":{"stringArray":[]}})J";
  check_error_at(processed, byte_of(processed, "50"));
  CHECK(error_message(processed).find("processed format") != std::string::npos);
  // Its tables have no schema: if meta comes last, that is what the error says.
  constexpr std::string_view late =
      R"J({"threads":[{"samples":{"stack":[0],"time":[1],"length":1}}],"meta":{"preprocessedProfileVersion":50}})J";
  check_error_at(late, byte_of(late, "{\"stack\""));
  CHECK(error_message(late).find("processed format") != std::string::npos);
}

TEST_CASE("malformed input: an error at the offending byte") {
  auto thread = [](std::string_view samples, std::string_view stacks, std::string_view frames, std::string_view strings) {
    return std::string(R"({"meta":{"interval":1},"threads":[{"name":"T","samples":{"schema":{"stack":0,"time":1},"data":)") +
           std::string(samples) + R"(},"stackTable":{"schema":{"prefix":0,"frame":1},"data":)" + std::string(stacks) +
           R"(},"frameTable":{"schema":{"location":0},"data":)" + std::string(frames) + R"(},"stringTable":)" +
           std::string(strings) + "}]}";
  };
  const std::string good = thread("[[1,0]]", "[[null,0],[0,1]]", "[[0],[1]]", R"(["a","b"])");
  check_error_at(good, ccrc::parse_error::no_byte);

  // A prefix naming the stack itself (a cycle), a later stack, or none.
  std::string cycle = thread("[[1,0]]", "[[null,0],[1,1]]", "[[0],[1]]", R"(["a","b"])");
  check_error_at(cycle, byte_of(cycle, "[1,1]"));
  CHECK(error_message(cycle).find("not an earlier stack") != std::string::npos);
  std::string later = thread("[[0,0]]", "[[1,0],[null,1]]", "[[0],[1]]", R"(["a","b"])");
  check_error_at(later, byte_of(later, "[1,0]"));
  std::string past = thread("[[1,0]]", "[[null,0],[9,1]]", "[[0],[1]]", R"(["a","b"])");
  check_error_at(past, byte_of(past, "[9,1]"));
  // A frame, a location, a sample's stack out of their tables.
  std::string frame = thread("[[1,0]]", "[[null,0],[0,2]]", "[[0],[1]]", R"(["a","b"])");
  check_error_at(frame, byte_of(frame, "[0,2]"));
  std::string location = thread("[[1,0]]", "[[null,0],[0,1]]", "[[0],[2]]", R"(["a","b"])");
  check_error_at(location, byte_of(location, "[2]"));
  std::string stack = thread("[[1,0],[2,1]]", "[[null,0],[0,1]]", "[[0],[1]]", R"(["a","b"])");
  check_error_at(stack, byte_of(stack, "[2,1]"));
  // Indexes and times of the wrong type.
  std::string negative = thread("[[-1,0]]", "[[null,0],[0,1]]", "[[0],[1]]", R"(["a","b"])");
  check_error_at(negative, byte_of(negative, "-1"));
  std::string large = thread("[[4294967295,0]]", "[[null,0],[0,1]]", "[[0],[1]]", R"(["a","b"])");
  check_error_at(large, byte_of(large, "4294967295"));
  CHECK(error_message(large).find("a sample's stack is too large") != std::string::npos);
  std::string string_prefix = thread("[[1,0]]", "[[null,0],[\"0\",1]]", "[[0],[1]]", R"(["a","b"])");
  check_error_at(string_prefix, byte_of(string_prefix, "\"0\""));
  CHECK(error_message(string_prefix).find("a stack's prefix is not a non-negative integer") != std::string::npos);
  std::string fraction = thread("[[1,0]]", "[[null,0.5],[0,1]]", "[[0],[1]]", R"(["a","b"])");
  check_error_at(fraction, byte_of(fraction, "0.5"));
  std::string time = thread("[[1,\"x\"]]", "[[null,0],[0,1]]", "[[0],[1]]", R"(["a","b"])");
  check_error_at(time, byte_of(time, "\"x\""));
  std::string null_time = thread("[[1,null]]", "[[null,0],[0,1]]", "[[0],[1]]", R"(["a","b"])");
  check_error_at(null_time, byte_of(null_time, "null]]"));
  // A row without a needed column, or not an array.
  std::string short_row = thread("[[1]]", "[[null,0],[0,1]]", "[[0],[1]]", R"(["a","b"])");
  check_error_at(short_row, byte_of(short_row, "[1]]"));
  CHECK(error_message(short_row).find("without column 1 (\"time\")") != std::string::npos);
  std::string row = thread("[[1,0]]", "[[null,0],{}]", "[[0],[1]]", R"(["a","b"])");
  check_error_at(row, byte_of(row, "{}"));
  // A name with a control character, or not a string, when a sample uses it.
  std::string control = thread("[[1,0]]", "[[null,0],[0,1]]", "[[0],[1]]", R"(["a","b\u0001"])");
  check_error_at(control, byte_of(control, "\"b\\u0001\""));
  std::string number = thread("[[1,0]]", "[[null,0],[0,1]]", "[[0],[1]]", R"(["a",5])");
  check_error_at(number, byte_of(number, "5]"));

  // A schema without a needed column; a table without schema or data.
  constexpr std::string_view no_column =
      R"({"meta":{},"threads":[{"samples":{"schema":{"stack":0},"data":[]}}]})";
  check_error_at(no_column, byte_of(no_column, "{\"stack\""));
  CHECK(error_message(no_column).find("has no \"time\"") != std::string::npos);
  constexpr std::string_view no_data = R"({"meta":{},"threads":[{"samples":{"schema":{"stack":0,"time":1}}}]})";
  check_error_at(no_data, byte_of(no_data, "{\"schema\""));
  // Two schemas, two data: at the second.
  constexpr std::string_view two_schemas =
      R"({"meta":{},"threads":[{"samples":{"schema":{"stack":0,"time":1},"data":[],"schema":{"stack":0,"time":1}}}]})";
  check_error_at(two_schemas, byte_of(two_schemas, "{\"stack\"", 1));
  CHECK(error_message(two_schemas).find("two \"schema\"") != std::string::npos);
  constexpr std::string_view two_data =
      R"({"meta":{},"threads":[{"samples":{"data":[],"schema":{"stack":0,"time":1},"data":[[null,1]]}}]})";
  check_error_at(two_data, byte_of(two_data, "[[null"));
  // Data before schema, with an error in a row: the row's byte (the rows are read after the
  // schema, at their own bytes).
  constexpr std::string_view data_first_bad =
      R"({"meta":{},"threads":[{"samples":{"data":[[null,1],[null,"x"]],"schema":{"stack":0,"time":1}}}]})";
  check_error_at(data_first_bad, byte_of(data_first_bad, "\"x\""));
  // A table twice in a thread: at the second.
  std::string two_stack_tables = thread("[[1,0]]", "[[null,0],[0,1]]", "[[0],[1]]", R"(["a","b"])");
  two_stack_tables.insert(two_stack_tables.find("\"frameTable\""), R"("stackTable":{"schema":{"prefix":0,"frame":1},"data":[]},)");
  check_error_at(two_stack_tables, byte_of(two_stack_tables, "{\"schema\":{\"prefix\"", 1));
  CHECK(error_message(two_stack_tables).find("a thread with two \"stackTable\"") != std::string::npos);
  std::string two_string_tables = thread("[[1,0]]", "[[null,0],[0,1]]", "[[0],[1]]", R"(["a","b"],"stringTable":[])");
  check_error_at(two_string_tables, byte_of(two_string_tables, "[]}]}"));
  // Times whose difference overflows: at the later sample.
  std::string overflow = thread("[[1,-1.7e308],[1,1.7e308]]", "[[null,0],[0,1]]", "[[0],[1]]", R"(["a","b"])");
  check_error_at(overflow, byte_of(overflow, "[1,1.7e308]"));
  CHECK(error_message(overflow).find("the time from sample 0 overflows") != std::string::npos);

  // The top level.
  check_error_at("[1]", 0);
  constexpr std::string_view no_threads = R"({"meta":{"interval":1},"libs":[]})";
  check_error_at(no_threads, 0);
  CHECK(error_message(no_threads).find("no \"threads\"") != std::string::npos);
  constexpr std::string_view after = R"({"meta":{},"threads":[]} {})";
  check_error_at(after, byte_of(after, " {}") + 1);
  constexpr std::string_view string_thread = R"({"meta":{"version":4},"threads":["{}"]})";
  check_error_at(string_thread, byte_of(string_thread, "\"{}\""));
  constexpr std::string_view interval = R"({"meta":{"interval":-1},"threads":[]})";
  check_error_at(interval, byte_of(interval, "-1"));
  constexpr std::string_view pid = R"({"meta":{},"threads":[{"pid":[1]}]})";
  check_error_at(pid, byte_of(pid, "[1]"));

  // Processes nested deeper than 16 levels: an error, not a deep recursion.
  std::string deep = R"({"meta":{},"threads":[])";
  for (int i = 0; i < 17; ++i) deep += R"(,"processes":[{"threads":[])";
  std::size_t innermost = deep.rfind("{\"threads\"");
  for (int i = 0; i < 17; ++i) deep += "}]";
  deep += "}";
  check_error_at(deep, innermost);
  CHECK(error_message(deep).find("nested deeper than 16") != std::string::npos);
}

TEST_CASE("a real profile Firefox 153 wrote (trimmed by tests/data/gecko/trim.js)") {
  ccrc::profile p = ccrc::read_gecko_profile_file(source("firefox.json"));
  const std::string renderer = "Parent Process (pid 4545) Renderer (tid 4588)";
  const std::string compositor = "Parent Process (pid 4545) Compositor (tid 4594)";
  const std::string content = "file:// Content (pid 4659) GeckoMain (tid 4659)";
  CHECK(top_names(p) == std::vector<std::string>{renderer, compositor, content});
  // Values from `node expected.js firefox.json` (tests/data/gecko/README.md): the distinct
  // sampled paths with their thread frame and prefixes, the samples, and time_ms (per thread
  // the last sample's time minus the first's plus meta.interval, 1 ms).
  CHECK(p.size() == 1402 + 1);
  CHECK(total(p, "samples") == 4172);
  CHECK(total(p, "time_ms") == doctest::Approx(5683.902207).epsilon(1e-12));
  auto thread_total = [&](const std::string& thread, std::string_view metric) {
    ccrc::node_id top = ccrc::node_at_path(p.tree(), thread);
    REQUIRE(top != ccrc::null_node);
    double sum = 0;
    for (ccrc::node_id n = top; n < p.size(); ++n) {
      ccrc::node_id a = n;
      while (a != ccrc::root_node && p.tree().parent(a) != ccrc::root_node) a = p.tree().parent(a);
      if (a == top) sum += p.column(metric)[n];
    }
    return sum;
  };
  CHECK(thread_total(renderer, "samples") == 1840);
  CHECK(thread_total(compositor, "samples") == 1843);
  CHECK(thread_total(content, "samples") == 489);
  CHECK(thread_total(renderer, "time_ms") == doctest::Approx(2320.3488310000002).epsilon(1e-12));
  CHECK(thread_total(content, "time_ms") == doctest::Approx(1038.757052).epsilon(1e-12));
  // The page's fib (tests/data/gecko/page.html) is the leaf of 254 samples, work of 1.
  double fib = 0, work = 0;
  for (ccrc::node_id n = 1; n < p.size(); ++n) {
    std::string_view name = p.tree().name(n);
    if (name == "fib (file:///tmp/gecko_ff/page.html:2:13)") fib += p.column("samples")[n];
    if (name == "work (file:///tmp/gecko_ff/page.html:3:14)") work += p.column("samples")[n];
  }
  CHECK(fib == 254);
  CHECK(work == 1);
}

TEST_CASE("a stack 1,000,000 frames deep: prefix chains are walked in a loop") {
  // Stack i has prefix i - 1 and frame i % 2 ("a", "b"): one chain, one sample at its end.
  constexpr std::size_t depth = 1'000'000;
  std::string text = R"({"meta":{"interval":1},"threads":[{"name":"T","stackTable":{"schema":{"prefix":0,"frame":1},"data":[[null,0])";
  for (std::size_t i = 1; i < depth; ++i) text += ",[" + std::to_string(i - 1) + "," + std::to_string(i % 2) + "]";
  text += R"(]},"frameTable":{"schema":{"location":0},"data":[[0],[1]]},"stringTable":["a","b"],)";
  text += R"("samples":{"schema":{"stack":0,"time":1},"data":[[)" + std::to_string(depth - 1) + ",0]]}}]}";
  ccrc::profile p = ccrc::read_gecko_profile(text);
  CHECK(p.size() == depth + 2);  // root, the thread, the chain
  CHECK(total(p, "samples") == 1);
  const auto last = static_cast<ccrc::node_id>(p.size() - 1);
  CHECK(p.column("samples")[last] == 1);
  CHECK(p.tree().name(last) == "b");  // frame (depth - 1) % 2
  CHECK(total(p, "time_ms") == 1);
}

TEST_CASE("a table's data before its schema is read after the schema, and keys with escapes are keys") {
  // The walk of the table finds the schema after the data, then reads the data: the same
  // profile as with the schema first.
  constexpr std::string_view late_schema = R"J({"meta":{"interval":1},"threads":[{"name":"T",
    "samples":{"data":[[1,10.0],[0,12.5]],"schema":{"time":1,"stack":0}},
    "stackTable":{"data":[[null,0],[0,1]],"schema":{"prefix":0,"frame":1}},
    "frameTable":{"schema":{"location":0},"data":[[0],[1]]},
    "stringTable":["(root)","f"]}]})J";
  ccrc::profile p = ccrc::read_gecko_profile(late_schema);
  CHECK(p.size() == 4);  // root, T, (root), f
  CHECK(at(p, "samples", "T;(root);f") == 1);
  CHECK(at(p, "samples", "T;(root)") == 1);
  CHECK(at(p, "time_ms", "T;(root);f") == 2.5);
  CHECK(at(p, "time_ms", "T;(root)") == 1);  // the last sample: the interval
  test::check_same_profile(p, ccrc::read_gecko_profile(late_schema, {.piece_bytes = 1}));

  // "thr\u0065ads" is "threads", as simdjson read keys.
  constexpr std::string_view escaped = R"J({"meta":{"interval":1},"thr\u0065ads":[{"n\u0061me":"T",
    "samples":{"schema":{"stack":0,"time":1},"data":[[null,3]]}}]})J";
  ccrc::profile q = ccrc::read_gecko_profile(escaped);
  CHECK(top_names(q) == std::vector<std::string>{"T"});
  CHECK(at(q, "samples", "T") == 1);
}

TEST_CASE("broken JSON and invalid UTF-8: an error within the text, whatever the piece size") {
  const std::string bad = "\xff";
  // Invalid UTF-8 in a member skipped: at the first byte after the value read before it
  // (meta's '}'), whatever the pieces.
  const std::string in_libs = R"({"meta":{},"libs":[")" + bad + R"("],"threads":[]})";
  check_error_at(in_libs, byte_of(in_libs, ",\"libs\""));
  // In a string of stringTable: simdjson's first pass over the piece finds it, which has no
  // position: the piece's first byte, the array's '[' when it is one piece, the ',' before
  // the string when each string is a piece.
  const std::string in_strings = R"({"threads":[{"stringTable":["a",")" + bad + R"("]}]})";
  CHECK(error_byte(in_strings) == byte_of(in_strings, "[\"a\""));
  CHECK(error_byte(in_strings, 1) == byte_of(in_strings, ",\""));
  CHECK(error_message(in_strings).find("UTF-8") != std::string::npos);
  // In meta, read as a document of its own: the byte before its value.
  const std::string in_meta = R"({"meta":{"product":")" + bad + R"("},"threads":[]})";
  check_error_at(in_meta, byte_of(in_meta, ":{") );

  for (std::string_view broken :
       {R"J({"threads":[)J", R"J({"threads":[{"samples":{"schema":{"stack":0,"time":1},"data":[[null,1],)J",
        R"J({"threads":[{"samples":{"schema":{"stack":0,"time":1},"data":[[null,1]]]}]})J", R"J({"threads":[]} x)J",
        R"J({"threads":[{"stringTable":["a","b]}]})J", R"J({"threads":[{"stringTable":["a",]}]})J", R"J({"threads" [])J",
        R"J({"meta":{"interval":1,},"threads":[]})J", R"J({"threads":[{"name":"\u"}]})J", "", "{",
        R"J({"threads":[{"samples":{"schema":{"stack":0,"time":1},"data":[[null,1] [null,2]]}}]})J"}) {
    CAPTURE(broken);
    for (std::size_t piece : {std::size_t{1}, std::size_t{20}, ccrc::gecko_profile_options{}.piece_bytes}) {
      CAPTURE(piece);
      std::uint64_t at = error_byte(broken, piece);
      CHECK(at <= broken.size());
      CHECK(at != ccrc::parse_error::no_byte);
    }
  }
}

// ---- Tables parsed in pieces (gecko_profile_options::piece_bytes) ----

namespace {

// The profile read whole and in pieces of every size given: the same profile.
void check_same_in_pieces(std::string_view text, std::initializer_list<std::size_t> sizes) {
  auto read = [](std::string_view t, std::size_t n) { return ccrc::read_gecko_profile(t, {.piece_bytes = n}); };
  test::check_same_in_pieces(read, text, sizes);
}

// A random thread object: a stack table whose prefixes name earlier stacks, frames over a
// string table whose strings hold what the splitter must not take for structure (escaped
// quotes, brackets, commas, \u escapes), samples with null stacks and times out of order,
// rows with extra columns or cut short, either column order, `data` before `schema` at times,
// markers (skipped) among the members, which come in random order, and white space between
// rows. Adds the samples written to `samples`.
std::string random_thread(test::rng& r, std::size_t index, std::size_t& samples) {
  static const char* const parts[] = {"f", "g", R"(q\"x)", "[", "]", "{", "}", ",", R"(\\)", R"(\u005b)", "a b", "(file:///a.js:1:2)[3]"};
  auto sep = [&] { return r.chance(0.5) ? std::string(",") : std::string(" ,\n "); };
  auto table = [&](std::string schema, std::string data) {
    return r.chance(0.2) ? "{\"data\":[" + data + "], \"schema\":" + schema + "}" : "{\"schema\":" + schema + ",\"data\":[" + data + "]}";
  };
  const std::uint32_t strings = 1 + r.below(20), frames = 1 + r.below(30), stacks = r.below(60);
  std::string string_table;
  for (std::uint32_t i = 0; i < strings; ++i) {
    std::string s;
    for (std::uint32_t m = r.below(4); m > 0; --m) s += parts[r.below(std::size(parts))];
    string_table += (i ? sep() : "") + "\"" + s + "\"";
  }
  const bool location_first = r.chance(0.5);
  std::string frame_rows;
  for (std::uint32_t i = 0; i < frames; ++i) {
    std::string loc = std::to_string(r.below(strings));
    frame_rows += (i ? sep() : "") + (location_first ? "[" + loc + (r.chance(0.5) ? ",null,[1,\"]\"]]" : "]") : "[false," + loc + "]");
  }
  const bool prefix_first = r.chance(0.5);
  std::string stack_rows;
  for (std::uint32_t i = 0; i < stacks; ++i) {
    std::string prefix = i == 0 || r.chance(0.2) ? "null" : std::to_string(r.below(i)), frame = std::to_string(r.below(frames));
    stack_rows += (i ? sep() : "") + "[" + (prefix_first ? prefix + "," + frame : frame + "," + prefix) + "]";
  }
  const std::uint32_t count = r.below(80);
  std::string sample_rows;
  double time = 0;
  for (std::uint32_t i = 0; i < count; ++i) {
    time += r.chance(0.1) ? -1.5 : 0.25 * r.below(40);
    std::string stack = stacks == 0 || r.chance(0.1) ? "null" : std::to_string(r.below(stacks));
    sample_rows += (i ? sep() : "") + "[" + stack + "," + std::to_string(time) + (r.chance(0.5) ? ",0]" : "]");
  }
  samples += count;
  std::vector<std::string> members = {
      "\"name\":\"W" + std::to_string(index % 3) + "\"", "\"tid\":" + std::to_string(index % 2),
      R"("pid":"p-1")", R"("markers":{"schema":{"name":0},"data":[["a]\"",{"x":[1,2]}],[null]]})",
      "\"stringTable\":[" + string_table + "]",
      "\"frameTable\":" + table(location_first ? R"({"location":0,"line":1})" : R"({"implementation":0,"location":1})", frame_rows),
      "\"stackTable\":" + table(prefix_first ? R"({"prefix":0,"frame":1})" : R"({"frame":0,"prefix":1})", stack_rows),
      "\"samples\":" + table(R"({"stack":0,"time":1,"eventDelay":2})", sample_rows)};
  for (std::size_t i = members.size(); i > 1; --i) std::swap(members[i - 1], members[r.below(static_cast<std::uint32_t>(i))]);
  std::string thread = "{";
  for (std::size_t i = 0; i < members.size(); ++i) thread += (i ? ",\n" : "") + members[i];
  return thread + "}";
}

// A random Gecko profile: threads at the top level and in processes nested two deep.
std::string random_gecko(test::rng& r, std::size_t& samples) {
  std::size_t index = 0;
  auto threads = [&](std::uint32_t n) {
    std::string out;
    for (std::uint32_t i = 0; i < n; ++i) out += (i ? ", " : "") + random_thread(r, index++, samples);
    return out;
  };
  std::string text = R"({"meta":{"version":34,"interval":0.5,"categories":[{"name":"[x]","color":"a,b"}]},"libs":[{"name":"}"}],)";
  text += "\"threads\":[" + threads(1 + r.below(3)) + "],\n\"processes\":[{\"threads\":[" + threads(r.below(3)) +
          "],\"processes\":[{\"meta\":{},\"threads\":[" + threads(r.below(2)) + "]}]}], \"pausedRanges\":[]}";
  return text;
}

}  // namespace

TEST_CASE("Gecko profiles in pieces: random profiles give the profile of one piece, whatever the piece size") {
  test::rng r{2027};
  for (int round = 0; round < 12; ++round) {
    CAPTURE(round);
    std::size_t samples = 0;
    const std::string text = random_gecko(r, samples);
    ccrc::profile p = ccrc::read_gecko_profile(text);
    CHECK(total(p, "samples") == static_cast<double>(samples));  // every sample written, read
    check_same_in_pieces(text, {1, 2, 7, 61, 200, 4096});
  }
}

TEST_CASE("Gecko profiles in pieces: the real file and the examples give the profile of one piece") {
  ccrc::formats::json_text text = ccrc::formats::json_file(source("firefox.json"));
  ccrc::profile p = ccrc::read_gecko_profile(text, {.piece_bytes = 1});
  CHECK(p.size() == 1402 + 1);
  CHECK(total(p, "samples") == 4172);
  check_same_in_pieces(text.bytes(), {1, 7, 100, 10'000});
  check_same_in_pieces(processes, {1, 7, 100});
}
