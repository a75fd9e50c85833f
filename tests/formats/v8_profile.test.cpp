#include <ccrc/formats/v8_profile.hpp>
#include <ccrc/tree/path.hpp>

#include "support/equal.hpp"
#include "support/random.hpp"
#include "support/same_profile.hpp"
#include "support/values.hpp"

#include <doctest/doctest.h>

#include <string>
#include <string_view>

namespace {

using test::at;
using test::total;
using test::byte_of;

// Where ccrc::read_v8_profile(text)'s parse error points (its arrays read in pieces of
// `piece_bytes`), and what it says.
std::uint64_t error_byte(std::string_view text, std::size_t piece_bytes = ccrc::v8_profile_options{}.piece_bytes) {
  return test::error_byte([=](std::string_view t) { return ccrc::read_v8_profile(t, {.piece_bytes = piece_bytes}); }, text);
}
std::string error_message(std::string_view text) {
  return test::error_message([](std::string_view t) { return ccrc::read_v8_profile(t); }, text);
}

std::string source(std::string_view file) { return std::string(CCRC_SOURCE_DIR) + "/tests/data/v8/" + std::string(file); }

// A .cpuprofile whose nodes come child first, some naming their parent instead of their
// children; V8's pseudo-frames under (root); an anonymous function; a native frame without
// url; a url without line.
constexpr std::string_view shuffled = R"J({
  "nodes": [
    {"id": 5, "callFrame": {"functionName": "", "scriptId": "1", "url": "file:///a.js", "lineNumber": 9, "columnNumber": 4}, "parent": 3},
    {"id": 3, "callFrame": {"functionName": "main", "url": "file:///a.js", "lineNumber": 0, "columnNumber": 0}, "children": [7]},
    {"id": 1, "callFrame": {"functionName": "(root)", "url": "", "lineNumber": -1, "columnNumber": -1}, "children": [2, 3, 4, 6]},
    {"id": 7, "callFrame": {"functionName": "sort", "url": "", "lineNumber": -1, "columnNumber": -1}},
    {"id": 2, "callFrame": {"functionName": "(program)", "url": "", "lineNumber": -1, "columnNumber": -1}},
    {"id": 4, "callFrame": {"functionName": "(garbage collector)", "url": "", "lineNumber": -1, "columnNumber": -1}},
    {"id": 6, "callFrame": {"functionName": "(idle)", "url": "", "lineNumber": -1, "columnNumber": -1}},
    {"id": 8, "callFrame": {"functionName": "load", "url": "node:internal/x", "lineNumber": -1, "columnNumber": -1}, "parent": 3}
  ],
  "startTime": 1000, "endTime": 1100,
  "samples":    [2, 5, 5, 7, 4, 6, 5],
  "timeDeltas": [3, 10, 20, -5, 15, 30, 2]
})J";

}  // namespace

TEST_CASE("the example of the doc comment") {
  ccrc::formats::json_text text(std::string_view(R"J({"nodes":[
      {"id":1,"callFrame":{"functionName":"(root)","url":"","lineNumber":-1,"columnNumber":-1},"children":[2]},
      {"id":2,"callFrame":{"functionName":"f","url":"a.js","lineNumber":0,"columnNumber":9}}],
      "samples":[2,2],"timeDeltas":[5,10],"startTime":0,"endTime":40})J"));
  ccrc::profile p = ccrc::read_v8_profile(text);
  CHECK(p.metric_names() == std::vector<std::string>{"samples", "time_us"});
  CHECK(p.size() == 2);
  CHECK(at(p, "samples", "f a.js:1:10") == 2);
  // sample 0 (at 5) weighs the next delta, 10; sample 1 (at 15) weighs endTime - 15 = 25.
  CHECK(at(p, "time_us", "f a.js:1:10") == 35);
}

TEST_CASE("a .cpuprofile: every node one context, in any order, named functionName url:line:col") {
  ccrc::profile p = ccrc::read_v8_profile(shuffled);
  CHECK(p.size() == 8);  // 8 nodes: (root) is the tree's root, 7 contexts
  CHECK(ccrc::node_at_path(p.tree(), "(program)") != ccrc::null_node);
  CHECK(ccrc::node_at_path(p.tree(), "(garbage collector)") != ccrc::null_node);
  CHECK(ccrc::node_at_path(p.tree(), "(idle)") != ccrc::null_node);
  // 0-based line 9, column 4 -> 10:5; an empty function name is "(anonymous)"; no url: the
  // name alone; a url without line (-1): no ":line:col".
  CHECK(ccrc::node_at_path(p.tree(), "main file:///a.js:1:1;(anonymous) file:///a.js:10:5") != ccrc::null_node);
  CHECK(ccrc::node_at_path(p.tree(), "main file:///a.js:1:1;sort") != ccrc::null_node);
  CHECK(ccrc::node_at_path(p.tree(), "main file:///a.js:1:1;load node:internal/x") != ccrc::null_node);

  // Samples by hand: node 5 three times, 2, 7, 4, 6 once each.
  CHECK(at(p, "samples", "main file:///a.js:1:1;(anonymous) file:///a.js:10:5") == 3);
  CHECK(at(p, "samples", "(program)") == 1);
  CHECK(total(p, "samples") == 7);
  // Times by hand: sample timestamps 1003, 1013, 1033, 1028, 1043, 1073, 1075; each sample
  // weighs the gap to the next, the negative one (1033 -> 1028) 0, the last endTime - 1075.
  // (program) 10; node 5: 20 + 0 (the negative gap) + 25 (last); sort 15; gc 30; idle 2.
  CHECK(at(p, "time_us", "(program)") == 10);
  CHECK(at(p, "time_us", "main file:///a.js:1:1;(anonymous) file:///a.js:10:5") == 20 + 0 + 25);
  CHECK(at(p, "time_us", "main file:///a.js:1:1;sort") == 15);
  CHECK(at(p, "time_us", "(garbage collector)") == 30);
  CHECK(at(p, "time_us", "(idle)") == 2);
  // Conservation: the total is the sum of the deltas after the first, negative one clamped,
  // plus the tail to endTime.
  CHECK(total(p, "time_us") == (10 + 20 + 0 + 15 + 30 + 2) + (1100 - 1075));
}

TEST_CASE("siblings with the same frame stay apart: the second gets call site 2, the third 3") {
  constexpr std::string_view twins = R"J({"nodes":[
    {"id":1,"callFrame":{"functionName":"(root)","url":"","lineNumber":-1,"columnNumber":-1},"children":[2,3,4,5]},
    {"id":2,"callFrame":{"functionName":"f","url":"a.js","lineNumber":1,"columnNumber":0},"hitCount":1},
    {"id":3,"callFrame":{"functionName":"f","url":"a.js","lineNumber":1,"columnNumber":0},"hitCount":2},
    {"id":4,"callFrame":{"functionName":"g","url":"a.js","lineNumber":5,"columnNumber":0},"hitCount":4},
    {"id":5,"callFrame":{"functionName":"f","url":"a.js","lineNumber":1,"columnNumber":0},"hitCount":8}]})J";
  ccrc::profile p = ccrc::read_v8_profile(twins);
  CHECK(p.size() == 5);
  CHECK(p.metric_names() == std::vector<std::string>{"samples"});  // no samples[]: hitCount, no time
  std::vector<std::pair<std::uint32_t, double>> fs;
  for (ccrc::node_id c : p.tree().children(ccrc::root_node)) {
    if (p.tree().name(c) != "f a.js:2:1") continue;
    fs.emplace_back(p.symbols().site(p.tree().frame(c)), p.column("samples")[c]);
  }
  CHECK(fs == std::vector<std::pair<std::uint32_t, double>>{{0, 1}, {2, 2}, {3, 8}});
  CHECK(total(p, "samples") == 15);
}

TEST_CASE("nodes in preorder (as V8 writes them) or in another order: the same tree, node for node") {
  // (root) -> f -> g, (root) -> f (a twin: call site 2), (root) -> h. In preorder the tree is
  // built in the nodes' order; breadth first, by a walk that visits them in the same order.
  auto node = [](int id, const char* name, int hits, const char* children) {
    return R"J({"id":)J" + std::to_string(id) + R"J(,"callFrame":{"functionName":")J" + name +
           R"J(","url":"a.js","lineNumber":1,"columnNumber":0},"hitCount":)J" + std::to_string(hits) + children + "}";
  };
  const std::string root = R"J({"id":1,"callFrame":{"functionName":"(root)","url":"","lineNumber":-1,"columnNumber":-1},"children":[2,3,5]})J";
  const std::string f = node(2, "f", 1, R"J(,"children":[4])J"), g = node(4, "g", 3, ""), twin = node(3, "f", 2, ""),
                    h = node(5, "h", 5, "");
  const std::string preorder = R"J({"nodes":[)J" + root + "," + f + "," + g + "," + twin + "," + h + "]}";
  const std::string breadth_first = R"J({"nodes":[)J" + root + "," + f + "," + twin + "," + h + "," + g + "]}";
  ccrc::profile a = ccrc::read_v8_profile(preorder), b = ccrc::read_v8_profile(breadth_first);
  CHECK(test::equal(a.tree().parents(), b.tree().parents()));
  for (ccrc::node_id n = 1; n < a.size(); ++n) {
    CHECK(a.tree().name(n) == b.tree().name(n));  // frame ids follow the order names are met
    CHECK(a.symbols().site(a.tree().frame(n)) == b.symbols().site(b.tree().frame(n)));
    CHECK(a.column("samples")[n] == b.column("samples")[n]);
  }
  // By hand: contexts made in the order f, g, the twin f, h.
  REQUIRE(a.size() == 5);
  CHECK(a.tree().name(1) == "f a.js:2:1");
  CHECK(a.tree().name(2) == "g a.js:2:1");
  CHECK(a.tree().parent(2) == 1);
  CHECK(a.symbols().site(a.tree().frame(3)) == 2);
  CHECK(a.column("samples")[3] == 2);
  CHECK(a.tree().name(4) == "h a.js:2:1");
}

TEST_CASE("the old v8-profiler format: nested head, 1-based lines, absolute timestamps, times in seconds") {
  // `children` before the other fields of a node, to check the walk resumes the object.
  constexpr std::string_view old = R"J({"typeId":"CPU","uid":"1","title":"t",
    "head":{"children":[
        {"functionName":"main","url":"/a.js","lineNumber":3,"columnNumber":7,"id":2,"hitCount":1,"children":[
           {"functionName":"","url":"/a.js","lineNumber":10,"id":3,"hitCount":2,"children":[]}]},
        {"functionName":"(program)","url":"","lineNumber":0,"id":4,"hitCount":1,"children":[]}],
      "functionName":"(root)","url":"","lineNumber":0,"callUID":1,"id":1,"hitCount":0},
    "startTime":10.0,"endTime":10.0001,
    "samples":[3,2,3,4],
    "timestamps":[10000010,10000030,10000035,10000070]})J";
  ccrc::profile p = ccrc::read_v8_profile(old);
  CHECK(p.size() == 4);
  // Lines as V8's C++ API gives them (1-based, no column when absent).
  CHECK(at(p, "samples", "main /a.js:3:7") == 1);
  CHECK(at(p, "samples", "main /a.js:3:7;(anonymous) /a.js:10") == 2);
  CHECK(at(p, "samples", "(program)") == 1);
  // Gaps 20, 5, 35, and endTime 10.0001 s = 10000100 us - 10000070 = 30 for the last.
  CHECK(at(p, "time_us", "main /a.js:3:7;(anonymous) /a.js:10") == doctest::Approx(20 + 35));
  CHECK(at(p, "time_us", "main /a.js:3:7") == doctest::Approx(5));
  CHECK(at(p, "time_us", "(program)") == doctest::Approx(30));
  // Without samples, hitCount.
  ccrc::profile q = ccrc::read_v8_profile(R"J({"head":{"functionName":"(root)","id":1,"children":[
      {"functionName":"f","id":2,"hitCount":5}]}})J");
  CHECK(q.metric_names() == std::vector<std::string>{"samples"});
  CHECK(at(q, "samples", "f") == 5);
}

TEST_CASE("a .heapprofile: bytes from selfSize, allocations from the samples") {
  constexpr std::string_view heap = R"J({"head":{"callFrame":{"functionName":"(root)","scriptId":"0","url":"","lineNumber":-1,"columnNumber":-1},"selfSize":0,"id":1,"children":[
      {"callFrame":{"functionName":"alloc","scriptId":"3","url":"file:///b.js","lineNumber":4,"columnNumber":17},"selfSize":96,"id":2,"children":[
         {"callFrame":{"functionName":"alloc","scriptId":"3","url":"file:///b.js","lineNumber":4,"columnNumber":17},"selfSize":64,"id":3,"children":[]}]},
      {"callFrame":{"functionName":"alloc","scriptId":"3","url":"file:///b.js","lineNumber":4,"columnNumber":17},"selfSize":32,"id":4,"children":[]}]},
    "samples":[{"size":32,"nodeId":2,"ordinal":1},{"size":64,"nodeId":2,"ordinal":2},{"size":64,"nodeId":3,"ordinal":3},{"size":32,"nodeId":4,"ordinal":4},{"size":8,"nodeId":99,"ordinal":5}]})J";
  ccrc::profile p = ccrc::read_v8_profile(heap);
  CHECK(p.metric_names() == std::vector<std::string>{"bytes", "allocations"});
  CHECK(p.size() == 4);
  // Nodes 2 and 4 are siblings with one frame: two contexts, the second at call site 2.
  CHECK(at(p, "bytes", "alloc file:///b.js:5:18") == 96);
  CHECK(at(p, "allocations", "alloc file:///b.js:5:18") == 2);
  CHECK(at(p, "bytes", "alloc file:///b.js:5:18;alloc file:///b.js:5:18") == 64);
  CHECK(total(p, "bytes") == 96 + 64 + 32);
  CHECK(total(p, "allocations") == 4);  // the sample of node 99, in no node, is not counted
  // No samples: bytes only.
  ccrc::profile q = ccrc::read_v8_profile(R"J({"head":{"callFrame":{"functionName":"(root)"},"selfSize":0,"id":1,"children":[]}})J");
  CHECK(q.metric_names() == std::vector<std::string>{"bytes"});
  CHECK(q.size() == 1);
}

TEST_CASE("time_us: deltas or timestamps, whichever the file has; times that overflow are an error") {
  // The old format with timeDeltas: start and end still in seconds.
  ccrc::profile old = ccrc::read_v8_profile(R"J({"head":{"functionName":"(root)","id":1,"children":[{"functionName":"f","id":2}]},
      "startTime":1,"endTime":1.0001,"samples":[2,2],"timeDeltas":[10,30]})J");
  CHECK(at(old, "time_us", "f") == doctest::Approx(30 + (100 - 40)));
  // A .cpuprofile with absolute timestamps: start and end in microseconds.
  ccrc::profile cpu = ccrc::read_v8_profile(R"J({"nodes":[{"id":1,"callFrame":{"functionName":"(root)"},"children":[2]},
      {"id":2,"callFrame":{"functionName":"f"}}],"startTime":0,"endTime":100,"samples":[2,2],"timestamps":[10,30]})J");
  CHECK(at(cpu, "time_us", "f") == 20 + 70);
  std::string huge = R"J({"head":{"functionName":"(root)","id":1},"samples":[1,1],"timestamps":[-1e308,1e308]})J";
  CHECK(error_byte(huge) == byte_of(huge, "[-1e308"));
  CHECK(error_message(huge).find("overflow") != std::string::npos);
}

TEST_CASE("the old format's timestamps one longer than samples: the last stamp ends the last sample") {
  // Stamps 10000010, 10000030, 10000035, 10000070, 10000090: the samples weigh 20, 5, 35 and
  // 90 - 70 = 20 (the extra stamp, not endTime's 10000100, ends the last).
  constexpr std::string_view old = R"J({"head":{"functionName":"(root)","id":1,"children":[
        {"functionName":"f","id":2,"children":[]},{"functionName":"g","id":3,"children":[]}]},
    "startTime":10.0,"endTime":10.0001,
    "samples":[2,3,2,3],
    "timestamps":[10000010,10000030,10000035,10000070,10000090]})J";
  ccrc::profile p = ccrc::read_v8_profile(old);
  CHECK(at(p, "samples", "f") == 2);
  CHECK(at(p, "samples", "g") == 2);
  CHECK(at(p, "time_us", "f") == doctest::Approx(20 + 35));
  CHECK(at(p, "time_us", "g") == doctest::Approx(5 + 20));
  // Without endTime as well; a closing stamp before the last sample's time counts 0.
  ccrc::profile q = ccrc::read_v8_profile(R"J({"head":{"functionName":"(root)","id":1,"children":[
      {"functionName":"f","id":2}]},"samples":[2,2],"timestamps":[10,30,25]})J");
  CHECK(at(q, "time_us", "f") == doctest::Approx(20));
  // timeDeltas have no closing entry: one more than samples is still an error.
  CHECK(error_message(R"J({"nodes":[{"id":1,"callFrame":{"functionName":"(root)"}}],"samples":[1],"timeDeltas":[1,2]})J")
            .find("\"timeDeltas\" has 2") != std::string::npos);
}

TEST_CASE("time_us: no endTime, the last sample weighs 0; samples without times are an error") {
  ccrc::profile p = ccrc::read_v8_profile(R"J({"nodes":[{"id":1,"callFrame":{"functionName":"(root)"},"children":[2]},
      {"id":2,"callFrame":{"functionName":"f"}}],"startTime":0,"samples":[2,2,1],"timeDeltas":[1,2,4]})J");
  CHECK(at(p, "time_us", "f") == 2 + 4);
  CHECK(p.column("time_us")[ccrc::root_node] == 0);
  CHECK(p.column("samples")[ccrc::root_node] == 1);  // a sample on (root) counts on the root
}

TEST_CASE("every malformed input is refused at its byte") {
  const std::string root = R"J({"id":1,"callFrame":{"functionName":"(root)"})J";
  auto nodes = [&](const std::string& rest, const std::string& tail = "") {
    return R"J({"nodes":[)J" + rest + "]" + tail + "}";
  };
  struct error_case {
    std::string text, at;  // the error points at the first `at` in `text`
    int occurrence = 0;
    const char* says;
  };
  const error_case cases[] = {
      // unknown ids
      {nodes(R"J({"id":1,"callFrame":{"functionName":"(root)"},"children":[9]})J"), R"J({"id":1)J", 0, "child id 9"},
      {nodes(root + R"J(},{"id":2,"parent":7,"callFrame":{"functionName":"f"}})J"), R"J({"id":2)J", 0, "parent id 7"},
      {nodes(root + R"J(,"children":[2]},{"id":2,"callFrame":{"functionName":"f"}})J", R"J(,"samples":[2,2,5,2],"timeDeltas":[1,1,1,1])J"),
       "5,", 0, "node id 5"},
      {R"J({"samples":[3, 1],"timeDeltas":[1,1],"nodes":[{"id":1,"callFrame":{"functionName":"(root)"}}]})J", "3,", 0, "node id 3"},
      // duplicate ids, two parents, a node listed twice
      {nodes(root + R"J(,"children":[2]},{"id":2,"callFrame":{"functionName":"f"}},{"id":2,"callFrame":{"functionName":"g"}})J"),
       R"J({"id":2)J", 1, "two nodes with id 2"},
      {nodes(root + R"J(,"children":[2,3]},{"id":2,"callFrame":{"functionName":"f"},"children":[3]},{"id":3,"callFrame":{"functionName":"g"}})J"),
       R"J({"id":2)J", 0, "already a child"},
      {nodes(root + R"J(,"children":[2]},{"id":2,"callFrame":{"functionName":"f"},"children":[3]},{"id":3,"parent":1,"callFrame":{"functionName":"g"}})J"),
       R"J({"id":2)J", 0, "as its parent"},
      // cycles, roots
      {nodes(root + R"J(},{"id":2,"parent":3,"callFrame":{"functionName":"f"}},{"id":3,"parent":2,"callFrame":{"functionName":"g"}})J"),
       R"J({"id":2)J", 0, "cycle"},
      {nodes(R"J({"id":2,"parent":2,"callFrame":{"functionName":"(root)"}})J"), R"J({"id":2)J", 0, "cycle"},
      {nodes(root + R"J(},{"id":2,"callFrame":{"functionName":"f"}})J"), R"J({"id":2)J", 0,
       "node 2 has no parent, and neither has node 1: a profile has one root"},
      // named by their ids once these are freed, whether indexed by id or sorted (ids too large)
      {nodes(root + R"J(},{"id":1000000000000,"parent":3000000000000,"callFrame":{"functionName":"f"}},{"id":3000000000000,"parent":1000000000000,"callFrame":{"functionName":"g"}})J"),
       R"J({"id":1000000000000)J", 0, "node 1000000000000 is not reachable from the root"},
      {nodes(R"J({"id":1,"callFrame":{"functionName":"main"}})J"), R"J({"id":1)J", 0, "not '(root)'"},
      {nodes(""), "[", 0, "no nodes"},
      // lengths
      {nodes(root + "}", R"J(,"samples":[1,1],"timeDeltas":[1])J"), "[1]", 0, "\"timeDeltas\" has 1"},
      {nodes(root + "}", R"J(,"samples":[1,1])J"), "{", 0, "\"timeDeltas\" has 0"},
      {R"J({"head":{"functionName":"(root)","id":1},"samples":[1],"timestamps":[5,6,7]})J", "[5", 0, "\"timestamps\" has 3"},
      {R"J({"head":{"functionName":"(root)","id":1},"samples":[1,1,1],"timestamps":[5]})J", "[5", 0, "\"timestamps\" has 1"},
      // types
      {nodes(R"J({"id":"1","callFrame":{"functionName":"(root)"}})J"), R"J("1")J", 0, "not an integer"},
      {nodes(R"J({"id":1.5,"callFrame":{"functionName":"(root)"}})J"), "1.5", 0, "not an integer"},
      {nodes(R"J({"id":1,"hitCount":-2,"callFrame":{"functionName":"(root)"}})J"), "-2", 0, "non-negative"},
      {nodes(R"J({"id":1,"callFrame":{"functionName":7}})J"), "7", 0, "not a string"},
      {nodes(R"J({"id":1,"callFrame":{"functionName":"(root)","lineNumber":"x"}})J"), R"J("x")J", 0, "not an integer"},
      {nodes(root + "}", R"J(,"samples":[1],"timeDeltas":[true])J"), "true", 0, "not a number"},
      {nodes(root + "}", R"J(,"samples":["1"],"timeDeltas":[1])J"), R"J("1")J", 0, "not an integer"},
      {nodes(root + "}", R"J(,"startTime":"0")J"), R"J("0")J", 0, "not a number"},
      {nodes(R"J(7)J"), "7", 0, "not an object"},
      {nodes(R"J({"callFrame":{"functionName":"(root)"}})J"), R"J({"callFrame)J", 0, "without an \"id\""},
      {nodes(R"J({"id":1,"callFrame":{"functionName":"a\u0001"}})J"), R"J({"id":1)J", 0, "control character"},
      {R"J([1,2])J", "[", 0, "JSON object"},
      {R"J({"title":"x"})J", "{", 0, "neither"},
      {R"J({"nodes":[],"head":{"id":1}})J", "{", 0, "both"},
      {nodes(root + "}") + R"J( {"b":2})J", R"J({"b")J", 0, "text after"},
      {nodes(root + "}", R"J(,"nodes":[])J"), "[]", 0, "appears twice"},
      // the heap profile and the old format
      {R"J({"head":{"callFrame":{"functionName":"(root)"},"selfSize":0,"id":1},"samples":[1]})J", "1]", 0, "objects"},
      {R"J({"head":{"callFrame":{"functionName":"(root)"},"selfSize":0,"id":1},"samples":[{"size":1}]})J", R"J({"size")J", 0, "without \"nodeId\""},
      {R"J({"head":{"callFrame":{"functionName":"(root)"},"selfSize":0,"id":1,"children":[{"id":1,"callFrame":{"functionName":"f"}}]}})J",
       R"J({"id":1)J", 0, "two nodes with id 1"},
      {R"J({"head":{"callFrame":{"functionName":"(root)"},"selfSize":0,"id":1,"children":[{"id":2,"selfSize":-1}]}})J", "-1", 0, "non-negative"},
      {R"J({"head":{"callFrame":{"functionName":"(root)"},"id":1,"children":[7]}})J", "7", 0, "not an object"},
      {R"J({"head":{"functionName":"(root)","id":1},"samples":[{"nodeId":1}]})J", R"J({"nodeId")J", 0, "node ids, not objects"},
      {R"J({"head":{"functionName":"(root)","id":1},"samples":[1,{"nodeId":1}]})J", R"J({"nodeId")J", 0, "mix"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.text);
    CHECK(error_byte(c.text) == byte_of(c.text, c.at, c.occurrence));
    CHECK(error_message(c.text).find(c.says) != std::string::npos);
    // The arrays in pieces of one element (or a few): the same byte.
    CHECK(error_byte(c.text, 1) == byte_of(c.text, c.at, c.occurrence));
    CHECK(error_byte(c.text, 20) == byte_of(c.text, c.at, c.occurrence));
  }
  // Broken JSON: an error within the text, never a partial tree.
  for (std::string_view broken : {R"J({"nodes":[)J", R"J({"nodes":[{"id":1,)J", R"J({"nodes":[{"id":1}]]})J", R"J({"nodes":[]} x)J", R"J({"nodes":"\u)", "",
                                  R"J({"head":{"id":1,"children":[{"id":2,"children":[)J", "{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"\xff\"}}]}"}) {
    CAPTURE(broken);
    CHECK(error_byte(broken) <= broken.size());
  }
}

TEST_CASE("trees 1,000,000 deep, nested and flat, are read without recursion") {
  auto nested_of = [](int depth) {
    std::string text = R"J({"head":{"callFrame":{"functionName":"(root)"},"selfSize":0,"id":0,"children":[)J";
    for (int i = 1; i <= depth; ++i)
      text += R"J({"callFrame":{"functionName":"f"},"selfSize":1,"id":)J" + std::to_string(i) + R"J(,"children":[)J";
    for (int i = 0; i <= depth; ++i) text += "]}";
    return text + "}";
  };
  constexpr int depth = 1000000;
  std::string nested = nested_of(depth);
  ccrc::profile p = ccrc::read_v8_profile(nested);
  CHECK(p.size() == depth + 1);
  CHECK(total(p, "bytes") == depth);
  CHECK(p.tree().parent(static_cast<ccrc::node_id>(depth)) == depth - 1);
  // options.max_depth: 1000 deep reads, 1001 is an error at the node past it (id 1001).
  CHECK(ccrc::read_v8_profile(nested_of(1000), {.max_depth = 1000}).size() == 1001);
  std::string deeper = nested_of(1001);
  CHECK_THROWS_WITH_AS((void)ccrc::read_v8_profile(deeper, {.max_depth = 1000}), doctest::Contains("deeper than 1000"),
                       ccrc::parse_error);
  try {
    (void)ccrc::read_v8_profile(deeper, {.max_depth = 1000});
  } catch (const ccrc::parse_error& e) {
    CHECK(e.byte() == byte_of(deeper, R"J({"callFrame":{"functionName":"f"},"selfSize":1,"id":1001,)J"));
  }

  // Flat, deepest node first, each naming its parent.
  std::string flat = R"J({"nodes":[)J";
  for (int i = depth; i >= 1; --i)
    flat += R"J({"id":)J" + std::to_string(i) + R"J(,"parent":)J" + std::to_string(i - 1) + R"J(,"hitCount":1,"callFrame":{"functionName":"g"}},)J";
  flat += R"J({"id":0,"callFrame":{"functionName":"(root)"}}]})J";
  ccrc::profile q = ccrc::read_v8_profile(flat);
  CHECK(q.size() == depth + 1);
  CHECK(total(q, "samples") == depth);
  CHECK(q.tree().parent(static_cast<ccrc::node_id>(depth)) == depth - 1);
}

TEST_CASE("ids need not be small or positive") {
  ccrc::profile p = ccrc::read_v8_profile(R"J({"nodes":[{"id":-5,"callFrame":{"functionName":"(root)"},"children":[9007199254740993]},
      {"id":9007199254740993,"callFrame":{"functionName":"f"}}],"samples":[9007199254740993],"timeDeltas":[0]})J");
  CHECK(at(p, "samples", "f") == 1);
}

TEST_CASE("node --cpu-prof: the real file, against values node one-liners computed from its JSON") {
  ccrc::profile p = ccrc::read_v8_profile_file(source("work.cpuprofile"));
  // Derived with node over the same file (tests/data/v8/README.md has the one-liners): 92
  // nodes, 103 entries in samples (the hitCounts add up to 105: V8 counts them otherwise),
  // and sum(max(timeDeltas[1:], 0)) + (endTime - startTime - sum(timeDeltas)) = 78323 us.
  CHECK(p.size() == 92);
  CHECK(total(p, "samples") == 103);
  CHECK(total(p, "time_us") == 78323);
  // (garbage collector) under (root): 23 samples, 18033 us (each weighed to the next sample).
  CHECK(at(p, "samples", "(garbage collector)") == 23);
  CHECK(at(p, "time_us", "(garbage collector)") == 18033);
  // Node 50, fib 16 deep under the script (depth 23), named by the one-liner's own naming: 2
  // samples.
  std::string path = "(anonymous) node:internal/main/run_main_module:1:1;executeUserEntryPoint node:internal/modules/run_main:155:31;"
                     "Module._load node:internal/modules/cjs/loader:1003:24;Module.load node:internal/modules/cjs/loader:1257:33;"
                     "Module._extensions..js node:internal/modules/cjs/loader:1604:37;Module._compile node:internal/modules/cjs/loader:1483:37;"
                     "(anonymous) file:///work/wt/v8/tests/data/v8/work.js:1:1";
  for (int i = 0; i < 16; ++i) path += ";fib file:///work/wt/v8/tests/data/v8/work.js:3:13";
  CHECK(at(p, "samples", path) == 2);
}

TEST_CASE("node --heap-prof: the real file, against values a node one-liner computed from its JSON") {
  ccrc::profile p = ccrc::read_v8_profile_file(source("work.heapprofile"));
  // Derived with node (tests/data/v8/README.md): 95 nodes walking head's children, selfSize
  // adding up to 359096, 92 samples of which 81 name a node of the tree (node wrote 11 whose
  // nodeId, 122, is in no node: the reader does not count those).
  CHECK(p.metric_names() == std::vector<std::string>{"bytes", "allocations"});
  CHECK(p.size() == 95);
  CHECK(total(p, "bytes") == 359096);
  CHECK(total(p, "allocations") == 81);
}

TEST_CASE("a file that cannot be opened is a ccrc::error, not a parse error") {
  CHECK_THROWS_AS((void)ccrc::read_v8_profile_file(source("no such file.cpuprofile")), ccrc::error);
  CHECK_THROWS_AS((void)ccrc::read_v8_profile_file(source("")), ccrc::error);  // the folder itself
}

// ---- The arrays parsed in pieces (v8_profile_options::piece_bytes) ----

namespace {

// The profile read whole and in pieces of every size given: the same profile.
void check_same_in_pieces(std::string_view text, std::initializer_list<std::size_t> sizes) {
  auto read = [](std::string_view t, std::size_t n) { return ccrc::read_v8_profile(t, {.piece_bytes = n}); };
  test::check_same_in_pieces(read, text, sizes);
}

// A random .cpuprofile of `n` nodes in shuffled order, some naming their children and some
// their parent, names with the bytes the splitter must not take for structure (escaped
// quotes, brackets, commas), samples and deltas with white space between them, and other
// members around the arrays. `samples`: how many samples were written.
std::string random_cpuprofile(test::rng& r, std::uint32_t n, std::size_t& samples) {
  static const char* const parts[] = {"f", "g", R"(q\"x)", "[", "]", "{", "}", ",", R"(\\)", R"(\u005b)", "a b"};
  std::vector<std::uint32_t> parent(n, 0);
  std::vector<std::vector<std::uint32_t>> children(n);
  for (std::uint32_t i = 1; i < n; ++i) {
    parent[i] = r.below(i);
    children[parent[i]].push_back(i);
  }
  std::vector<std::uint32_t> order(n);
  for (std::uint32_t i = 0; i < n; ++i) order[i] = i;
  for (std::uint32_t i = n; i > 1; --i) std::swap(order[i - 1], order[r.below(i)]);
  std::vector<bool> by_parent(n);  // names its parent rather than being listed as a child
  for (std::uint32_t i = 1; i < n; ++i) by_parent[i] = r.chance(0.3);
  std::string text = R"({"title":"[\"}]", "meta": {"a":[1,[2,{"nodes":3}]],"b":"\\"},)" "\n\"nodes\": [";
  for (std::uint32_t k = 0; k < n; ++k) {
    const std::uint32_t i = order[k];
    std::string name = i == 0 ? "(root)" : "";
    for (std::uint32_t m = i == 0 ? 0 : 1 + r.below(3); m > 0; --m) name += parts[r.below(std::size(parts))];
    text += k == 0 ? "\n" : ",\n";
    text += R"({"id":)" + std::to_string(i + 1) + R"(,"callFrame":{"functionName":")" + name + R"(","scriptId":"0","url":")" +
            (i == 0 ? "" : "u[1]") + R"(","lineNumber":)" + std::to_string(r.below(50)) + R"(,"columnNumber":2},"hitCount":)" +
            std::to_string(r.below(4));
    if (by_parent[i]) text += R"(,"parent":)" + std::to_string(parent[i] + 1);
    std::string listed;
    for (std::uint32_t c : children[i])
      if (!by_parent[c]) listed += (listed.empty() ? "" : ", ") + std::to_string(c + 1);
    if (!listed.empty() || r.chance(0.5)) text += R"(,"children":[)" + listed + "]";
    text += "}";
  }
  samples = r.below(3 * n);
  std::string ids, deltas;
  for (std::size_t s = 0; s < samples; ++s) {
    ids += (s == 0 ? "" : r.chance(0.5) ? "," : " ,\n") + std::to_string(1 + r.below(n));
    deltas += (s == 0 ? "" : ",") + std::to_string(r.below(100));
  }
  return text + "],\n\"startTime\": 10, \"samples\": [" + ids + "], \"timeDeltas\":[" + deltas +
         R"(], "endTime": 99999999, "x": "]\""})";
}

}  // namespace

TEST_CASE("a .cpuprofile in pieces: random profiles give the profile of one piece, whatever the piece size") {
  test::rng r{2026};
  for (int round = 0; round < 12; ++round) {
    CAPTURE(round);
    std::size_t samples = 0;
    const std::string text = random_cpuprofile(r, 1 + r.below(400), samples);
    ccrc::profile p = ccrc::read_v8_profile(text);
    CHECK(total(p, "samples") == static_cast<double>(samples));  // every sample written, read
    check_same_in_pieces(text, {1, 2, 61, 200, 4096});
  }
}

TEST_CASE("a .cpuprofile in pieces: the real files give the profile of one piece") {
  for (const char* file : {"work.cpuprofile", "work.heapprofile"}) {
    CAPTURE(file);
    ccrc::formats::json_text text = ccrc::formats::json_file(source(file));
    check_same_in_pieces(text.bytes(), {1, 100, 10'000});
  }
  std::string_view text = shuffled;
  check_same_in_pieces(text, {1, 7, 100});
}
