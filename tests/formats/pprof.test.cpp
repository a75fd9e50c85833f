#include <ccrc/formats/pprof.hpp>
#include <ccrc/tree/path.hpp>

#include "support/values.hpp"
#include "support/figure1.hpp"
#include "support/gzip.hpp"
#include "support/random.hpp"

#include <doctest/doctest.h>

#include <protozero/pbf_writer.hpp>

#include <cmath>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <sstream>
#include <string>

namespace {

using test::at;
using test::total;

// Bytes written out by hand, as a protobuf dump would show them.
std::string bytes(std::initializer_list<int> list) {
  std::string out;
  for (int b : list) out += static_cast<char>(b);
  return out;
}

// The smallest useful profile, byte by byte (offsets in the comments):
//   0: 0a 04 08 01 10 02         sample_type { type: 1 "cpu", unit: 2 "nanoseconds" }
//   6: 12 06 0a 01 01 12 01 05   sample { location_id: [1], value: [5] }
//  14: 22 06 08 01 22 02 08 01   location { id: 1, line { function_id: 1 } }
//  22: 2a 04 08 01 10 03         function { id: 1, name: 3 "main" }
//  28: 32 00, 30: 32 03 "cpu", 35: 32 0b "nanoseconds", 48: 32 04 "main"   string_table; 54 bytes
const std::string sample_type = bytes({0x0a, 0x04, 0x08, 0x01, 0x10, 0x02});
const std::string sample = bytes({0x12, 0x06, 0x0a, 0x01, 0x01, 0x12, 0x01, 0x05});
const std::string location = bytes({0x22, 0x06, 0x08, 0x01, 0x22, 0x02, 0x08, 0x01});
const std::string function = bytes({0x2a, 0x04, 0x08, 0x01, 0x10, 0x03});
const std::string strings = bytes({0x32, 0x00, 0x32, 0x03}) + "cpu" + bytes({0x32, 0x0b}) + "nanoseconds" +
                            bytes({0x32, 0x04}) + "main";
const std::string smallest = sample_type + sample + location + function + strings;

// The byte offset a parse error names, or -1 if the bytes read.
std::int64_t error_byte(std::string_view message) {
  try {
    (void)ccrc::read_pprof(message);
  } catch (const ccrc::parse_error& e) {
    return static_cast<std::int64_t>(e.byte());
  }
  return -1;
}

std::string error_message(std::string_view message) {
  try {
    (void)ccrc::read_pprof(message);
  } catch (const ccrc::parse_error& e) {
    return e.what();
  }
  return "";
}

// A profile.proto message built field by field with protozero's writer.
struct builder {
  std::string out;
  protozero::pbf_writer w{out};

  void strings(std::initializer_list<std::string_view> list) {
    for (auto s : list) w.add_string(6, s.data(), s.size());
  }
  void sample_type(std::int64_t type, std::int64_t unit) {
    protozero::pbf_writer v(w, 1);
    v.add_int64(1, type);
    v.add_int64(2, unit);
  }
  void sample(std::initializer_list<std::uint64_t> locations, std::initializer_list<std::int64_t> values,
              bool packed = true) {
    protozero::pbf_writer s(w, 2);
    if (packed) {
      s.add_packed_uint64(1, locations.begin(), locations.end());
      s.add_packed_int64(2, values.begin(), values.end());
    } else {  // repeated fields unpacked, values first: both are valid encodings
      for (auto v : values) s.add_int64(2, v);
      for (auto l : locations) s.add_uint64(1, l);
    }
  }
  void mapping(std::uint64_t id, std::int64_t filename) {
    protozero::pbf_writer m(w, 3);
    m.add_uint64(1, id);
    m.add_int64(5, filename);
  }
  // Lines innermost first, as profile.proto orders them.
  void location(std::uint64_t id, std::uint64_t mapping, std::uint64_t address,
                std::initializer_list<std::uint64_t> functions) {
    protozero::pbf_writer l(w, 4);
    l.add_uint64(1, id);
    if (mapping) l.add_uint64(2, mapping);
    if (address) l.add_uint64(3, address);
    for (auto f : functions) {
      protozero::pbf_writer line(l, 4);
      line.add_uint64(1, f);
      line.add_int64(2, 42);
    }
  }
  void function(std::uint64_t id, std::int64_t name, std::int64_t system_name = 0) {
    protozero::pbf_writer f(w, 5);
    f.add_uint64(1, id);
    f.add_int64(2, name);
    if (system_name) f.add_int64(3, system_name);
    f.add_int64(4, name);  // a file name: not part of the frame name
  }
};

// A profile with inlined calls, unsymbolised locations, and the string table first or last.
std::string inlined_and_unsymbolised(bool strings_last) {
  builder b;
  auto table = [&] {
    b.strings({"", "samples", "count", "space", "bytes", "main", "work", "leaf", "/usr/bin/a.out", "_Z1gv"});
  };
  if (!strings_last) table();
  b.sample_type(1, 2);  // samples_count
  b.sample_type(3, 4);  // space_bytes
  b.mapping(1, 8);
  b.function(1, 5);     // main
  b.function(2, 6);     // work
  b.function(3, 7);     // leaf
  b.function(4, 0, 9);  // no name, system name _Z1gv
  b.location(10, 1, 0x400100, {1});     // main
  b.location(11, 1, 0x400200, {3, 2});  // leaf inlined into work
  b.location(12, 1, 0x4005d0, {});      // unsymbolised, in /usr/bin/a.out
  b.location(13, 0, 0xabc, {});         // unsymbolised, no mapping
  b.location(14, 1, 0x400300, {4});     // named by its system name
  b.sample({11, 10}, {1, 100});
  b.sample({11, 10}, {2, -30}, false);  // the same stack again, unpacked; a negative value
  b.sample({12, 10}, {1, 7});
  b.sample({13, 12, 10}, {1, 8});
  b.sample({14, 11, 10}, {1, 9});
  b.sample({}, {4, 0});  // no location: the root
  if (strings_last) table();
  return b.out;
}

// How tests/data/pprof/cpu.pb.gz was made: see tests/data/pprof/README.md (Go 1.19's
// runtime/pprof, a CPU profile of cpu.go).
const std::string go_cpu_path = std::string(CCRC_SOURCE_DIR) + "/tests/data/pprof/cpu.pb.gz";

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string written(const ccrc::profile& p, ccrc::pprof_write_options options = {}) {
  std::ostringstream out;
  ccrc::write_pprof(out, p, options);
  return out.str();
}

}  // namespace

TEST_CASE("pprof: the smallest profile, written by hand") {
  CHECK(smallest.size() == 54);
  ccrc::profile p = ccrc::read_pprof(smallest);
  CHECK(p.metric_names() == std::vector<std::string>{"cpu_nanoseconds"});
  CHECK(p.size() == 2);
  CHECK(at(p, "cpu_nanoseconds", "main") == 5);
  // Fields in another order (the string table first, samples last) read the same.
  ccrc::profile q = ccrc::read_pprof(strings + function + sample_type + location + sample);
  CHECK(at(q, "cpu_nanoseconds", "main") == 5);
  // Unknown fields are skipped (Profile.period_type, a fixed64 field 20).
  ccrc::profile r = ccrc::read_pprof(smallest + bytes({0x5a, 0x00, 0xa1, 0x01, 1, 2, 3, 4, 5, 6, 7, 8}));
  CHECK(at(r, "cpu_nanoseconds", "main") == 5);
  // Empty input is an empty message: no sample type, metric `samples`, no context.
  ccrc::profile e = ccrc::read_pprof("");
  CHECK(e.metric_names() == std::vector<std::string>{"samples"});
  CHECK(e.size() == 1);
}

TEST_CASE("pprof: inlined frames expanded, unsymbolised locations by address, values summed, negatives kept") {
  for (bool strings_last : {false, true}) {
    ccrc::profile p = ccrc::read_pprof(inlined_and_unsymbolised(strings_last));
    CHECK(p.metric_names() == std::vector<std::string>{"samples_count", "space_bytes"});
    // main; work; leaf (location 11's two lines, leaf innermost), 0x4005d0 (/usr/bin/a.out),
    // 0xabc, _Z1gv: 6 contexts.
    CHECK(p.size() == 7);
    CHECK(at(p, "samples_count", "main;work;leaf") == 3);
    CHECK(at(p, "space_bytes", "main;work;leaf") == 70);  // 100 - 30
    CHECK(at(p, "space_bytes", "main;0x4005d0 (/usr/bin/a.out)") == 7);
    CHECK(at(p, "space_bytes", "main;0x4005d0 (/usr/bin/a.out);0xabc") == 8);
    CHECK(at(p, "space_bytes", "main;work;leaf;_Z1gv") == 9);
    CHECK(at(p, "samples_count", "main") == 0);
    CHECK(p.column("samples_count")[ccrc::root_node] == 4);
    // Conservation: the totals of the samples' values.
    CHECK(total(p, "samples_count") == 1 + 2 + 1 + 1 + 1 + 4);
    CHECK(total(p, "space_bytes") == 100 - 30 + 7 + 8 + 9 + 0);
  }
}

TEST_CASE("pprof: a profile without sample types counts samples; a sample without locations counts on the root") {
  builder b;
  b.strings({"", "f"});
  b.function(1, 1);
  b.location(1, 0, 0, {1});
  b.sample({1}, {});
  b.sample({1}, {});
  b.w.add_string(2, "", 0);  // an empty sample (protozero's writer drops empty submessages)
  ccrc::profile p = ccrc::read_pprof(b.out);
  CHECK(p.metric_names() == std::vector<std::string>{"samples"});
  CHECK(at(p, "samples", "f") == 2);
  CHECK(p.column("samples")[ccrc::root_node] == 1);
}

TEST_CASE("pprof: metric names from sample types") {
  builder b;
  b.strings({"", "alloc_space", "bytes", "calls", "ms"});
  b.sample_type(1, 2);  // alloc_space_bytes
  b.sample_type(3, 0);  // calls: no unit
  b.sample_type(0, 4);  // no type: value3_ms
  b.sample_type(0, 0);  // value4
  CHECK(ccrc::read_pprof(b.out).metric_names() ==
        std::vector<std::string>{"alloc_space_bytes", "calls", "value3_ms", "value4"});
}

TEST_CASE("pprof: a real CPU profile written by Go's runtime/pprof") {
  const std::string file = read_bytes(go_cpu_path);
  REQUIRE(file.size() == 1059);
  CHECK(ccrc::is_gzip(file));
  ccrc::profile p = ccrc::read_pprof(file);
  // `go tool pprof -raw`: sample types samples/count and cpu/nanoseconds.
  CHECK(p.metric_names() == std::vector<std::string>{"samples_count", "cpu_nanoseconds"});
  // `go tool pprof -traces`: 28 distinct call paths (counted by a script over its output).
  CHECK(p.size() == 29);
  // `go tool pprof -top`: total 1160ms, 116 samples of 10ms.
  CHECK(total(p, "samples_count") == 116);
  CHECK(total(p, "cpu_nanoseconds") == 1160e6);
  // -top flat: main.work 620ms, main.leaf (inline) 60ms, each in one context; main.fib 480ms
  // over its recursion.
  CHECK(at(p, "cpu_nanoseconds", "runtime.main;main.main;main.work") == 620e6);
  CHECK(at(p, "samples_count", "runtime.main;main.main;main.work") == 62);
  CHECK(at(p, "cpu_nanoseconds", "runtime.main;main.main;main.work;main.leaf") == 60e6);
  CHECK(at(p, "samples_count", "runtime.main;main.main;main.work;main.leaf") == 6);
  CHECK(at(p, "cpu_nanoseconds", "runtime.main") == 0);
  double fib = 0;
  std::uint32_t deepest = 0;
  for (ccrc::node_id n = 1; n < p.size(); ++n) {
    if (p.tree().name(n) == "main.fib") fib += p.column("cpu_nanoseconds")[n];
    deepest = std::max(deepest, p.tree().depth(n));
  }
  CHECK(fib == 480e6);
  CHECK(deepest == 27);  // -traces: the deepest trace has 27 frames
  // The stream and file entry points read the same; so does the inflated message.
  std::istringstream in(file);
  CHECK(test::canonical(ccrc::read_pprof(in)) == test::canonical(p));
  CHECK(test::canonical(ccrc::read_pprof_file(go_cpu_path)) == test::canonical(p));
}

TEST_CASE("pprof: looks_like_pprof") {
  CHECK(ccrc::looks_like_pprof(smallest));
  CHECK(ccrc::looks_like_pprof(smallest.substr(0, 9)));  // cut inside the sample
  CHECK(ccrc::looks_like_pprof(inlined_and_unsymbolised(false)));
  CHECK(ccrc::looks_like_pprof(written(test::figure1(), {.gzip = false})));
  CHECK_FALSE(ccrc::looks_like_pprof("main;f 20\n"));
  CHECK_FALSE(ccrc::looks_like_pprof("{\"nodes\": []}"));
  CHECK_FALSE(ccrc::looks_like_pprof("[{\"name\": \"x\"}]"));
  CHECK_FALSE(ccrc::looks_like_pprof("# ========\n# captured on"));
  CHECK_FALSE(ccrc::looks_like_pprof("a.out 100/101 [000] 10.0: cpu-clock:\n"));
  CHECK_FALSE(ccrc::looks_like_pprof("H 1\nJ;b 2\n"));  // tags 9 and 10 of text are still text
  CHECK_FALSE(ccrc::looks_like_pprof(""));
  // 'j' (0x6a) reads as field 13 (comment), which no profiler writes first; '\n' reads as
  // field 1 (sample_type) and 'm' as its length, 109, but those bytes are no sequence of fields.
  CHECK_FALSE(ccrc::looks_like_pprof("java 12345/12346 [001] 1.0: cycles:\n\t4005d0 f (x)\n"));
  CHECK_FALSE(ccrc::looks_like_pprof("\nmain;f 20\nmain;g 30\n" + std::string(200, 'x')));
  CHECK_FALSE(ccrc::looks_like_pprof(bytes({0x80})));  // a tag cut short: nothing seen
  // A field Profile does not have is skipped, whatever its wire type, even cut short; a
  // wire type protobuf does not have (3, 4: groups; 6, 7) is no message.
  CHECK(ccrc::looks_like_pprof(bytes({0xa2, 0x06, 0x02, 'x', 'y', 0xa8, 0x06, 0x07}) + smallest));
  CHECK(ccrc::looks_like_pprof(bytes({0xa2, 0x06, 0x7f, 'x', 'y'})));
  CHECK_FALSE(ccrc::looks_like_pprof(bytes({0xa3, 0x06}) + smallest));
  CHECK_FALSE(ccrc::looks_like_pprof(bytes({0xa7, 0x06}) + smallest));
  std::string go = read_bytes(go_cpu_path);
  CHECK_FALSE(ccrc::looks_like_pprof(go));  // gzip: inflate first
  CHECK(ccrc::looks_like_pprof(written(ccrc::read_pprof(go), {.gzip = false}).substr(0, 64)));
}

TEST_CASE("pprof: malformed messages name the byte of the field at fault") {
  // Offsets from the layout of `smallest` above.
  CHECK(error_byte(smallest) == -1);
  // function { name: 9 }: the name field at 22 + 2 + 2.
  std::string bad_name = sample_type + sample + location + bytes({0x2a, 0x04, 0x08, 0x01, 0x10, 0x09}) + strings;
  CHECK(error_byte(bad_name) == 26);
  CHECK(error_message(bad_name) == "byte 26: string index 9 is out of range (the string table has 4 strings)");
  // sample { location_id: [7] }: the location_id field at 6 + 2.
  std::string unknown_location = sample_type + bytes({0x12, 0x06, 0x0a, 0x01, 0x07, 0x12, 0x01, 0x05}) + location + function + strings;
  CHECK(error_message(unknown_location) == "byte 8: location id 7 names no location");
  // line { function_id: 4 }: the line at 18, its function_id field at 20.
  std::string unknown_function = sample_type + sample + bytes({0x22, 0x06, 0x08, 0x01, 0x22, 0x02, 0x08, 0x04}) + function + strings;
  CHECK(error_message(unknown_function) == "byte 20: function id 4 names no function");
  // location { id: 1, mapping_id: 5, line {...} }: mapping_id at 14 + 2 + 2.
  std::string unknown_mapping = sample_type + sample + bytes({0x22, 0x08, 0x08, 0x01, 0x10, 0x05, 0x22, 0x02, 0x08, 0x01}) + function + strings;
  CHECK(error_message(unknown_mapping) == "byte 18: mapping id 5 names no mapping");
  // Truncated: the sample at 6 says 6 bytes, 4 follow.
  CHECK(error_byte(smallest.substr(0, 12)) == 6);
  CHECK(error_message(smallest.substr(0, 12)).starts_with("byte 6: malformed protobuf"));
  // Truncated inside a tag's varint (0x80 promises another byte) at 54.
  CHECK(error_byte(smallest + bytes({0x80})) == 54);
  // A bad wire type: location { mapping_id } length-delimited, at 16.
  std::string bad_wire = sample_type + sample + bytes({0x22, 0x06, 0x12, 0x00, 0x22, 0x02, 0x08, 0x01}) + function + strings;
  CHECK(error_message(bad_wire) == "byte 16: Location.mapping_id has wire type length-delimited, expected varint");
  // Profile.sample as a varint, at 0.
  CHECK(error_message(bytes({0x10, 0x05})) == "byte 0: Profile.sample has wire type varint, expected length-delimited");
  // Wire type 3 (a group), which profile.proto never uses, at 54.
  CHECK(error_byte(smallest + bytes({0x0b})) == 54);
  // Tag 0, at 54.
  CHECK(error_byte(smallest + bytes({0x00, 0x00})) == 54);
  // Two values for one sample type: the sample at 6.
  std::string two_values = sample_type + bytes({0x12, 0x07, 0x0a, 0x01, 0x01, 0x12, 0x02, 0x05, 0x06}) + location + function + strings;
  CHECK(error_message(two_values) == "byte 6: a sample has 2 values for 1 sample types");
  // A value of 2^53 + 1 (varint 81 80 80 80 80 80 80 10): its field at 6 + 2 + 3; 2^53 reads.
  std::string too_big = sample_type + bytes({0x12, 0x0d, 0x0a, 0x01, 0x01, 0x12, 0x08, 0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x10}) + location + function + strings;
  CHECK(error_message(too_big) == "byte 11: value 9007199254740993 is an integer a double cannot hold exactly (above 2^53)");
  std::string largest = sample_type + bytes({0x12, 0x0d, 0x0a, 0x01, 0x01, 0x12, 0x08, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x10}) + location + function + strings;
  CHECK(at(ccrc::read_pprof(largest), "cpu_nanoseconds", "main") == 0x1p53);
  // Two locations with id 1: the second, at 22.
  CHECK(error_message(sample_type + sample + location + location + function + strings) ==
        "byte 22: two locations with id 1");
  // A location without id (the line alone), at 14.
  CHECK(error_message(sample_type + sample + bytes({0x22, 0x04, 0x22, 0x02, 0x08, 0x01}) + function + strings) ==
        "byte 14: location has no id (ids are nonzero)");
  // A function name with invalid UTF-8 ("ma\xffn"): the name field at 26.
  std::string bad_text = smallest;
  bad_text[52] = '\xff';
  CHECK(error_message(bad_text) == "byte 26: function name is not valid UTF-8");
  // A control character in the unit ("nano\nseconds"): the unit field at 4.
  std::string control = smallest;
  control[41] = '\n';
  CHECK(error_message(control) == "byte 4: sample unit contains a control character");
  // Two sample types named cpu_nanoseconds: the second, at 54.
  CHECK(error_message(smallest + sample_type) == "byte 54: two sample types named 'cpu_nanoseconds'");
}

TEST_CASE("pprof: every truncation of a message is an error or a smaller valid profile, never a crash") {
  std::string message = inlined_and_unsymbolised(true);
  for (std::size_t n = 0; n < message.size(); ++n) {
    try {
      ccrc::profile p = ccrc::read_pprof(std::string_view(message).substr(0, n));
      CHECK(p.size() <= 7);
    } catch (const ccrc::parse_error& e) {
      CHECK(e.byte() <= n);
    }
  }
}

TEST_CASE("pprof: gzip input, and a truncated gzip stream is an error") {
  std::string packed = test::gzip(smallest);
  CHECK(at(ccrc::read_pprof(packed), "cpu_nanoseconds", "main") == 5);
  std::istringstream in(packed);
  CHECK(at(ccrc::read_pprof(in), "cpu_nanoseconds", "main") == 5);
  CHECK_THROWS_AS((void)ccrc::read_pprof(std::string_view(packed).substr(0, packed.size() - 6)), ccrc::parse_error);
  // A profile error inside gzip names the offset in the inflated message.
  std::string bad = sample_type + sample + location + bytes({0x2a, 0x04, 0x08, 0x01, 0x10, 0x09}) + strings;
  CHECK(error_byte(test::gzip(bad)) == 26);
}

TEST_CASE("pprof: writing then reading keeps every path and every metric: Figure 1") {
  ccrc::profile p = test::figure1();  // 19 nodes with the root, metrics calls and bytecodes
  for (bool gzip : {true, false}) {
    std::string out = written(p, {.gzip = gzip});
    CHECK(ccrc::is_gzip(out) == gzip);
    ccrc::profile back = ccrc::read_pprof(out);
    CHECK(back.metric_names() == p.metric_names());
    CHECK(back.size() == p.size());
    CHECK(test::canonical(back) == test::canonical(p));
    CHECK(test::totals(back) == test::totals(p));
  }
}

TEST_CASE("pprof: writing then reading keeps every path and every metric: random trees") {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    test::rng r(seed);
    ccrc::profile p = test::profile_of(test::random_samples(r, 1 + r.below(60), 2 + r.below(30), 1 + r.below(30), 1 + seed % 3),
                                       1 + seed % 3);
    ccrc::profile back = ccrc::read_pprof(written(p, {.gzip = seed % 2 == 0}));
    CHECK(back.metric_names() == p.metric_names());
    CHECK(back.size() == p.size());
    CHECK(test::canonical(back) == test::canonical(p));
  }
}

TEST_CASE("pprof_size: the bytes of the message write_pprof writes, on random trees and on a chain by hand") {
  for (std::uint64_t seed = 1; seed <= 100; ++seed) {
    test::rng r(seed);
    ccrc::profile p = test::profile_of(test::random_samples(r, 1 + r.below(60), 2 + r.below(30), 1 + r.below(30), 1 + seed % 3),
                                       1 + seed % 3);
    CHECK(ccrc::pprof_size(p) == written(p, {.gzip = false}).size());
  }
  // A chain a;a;...;a of 1,000 contexts of 1 sample each. The fields, each a key byte, a
  // length and the content: sample_type {type 1} (4 bytes); the sample at depth d {location_id
  // [1 x d], value [1]}, its content 1 + len(d) + d + 3 bytes; location {id 1, line {function
  // 1}} (8); function {id 1, name 2} (6); the strings "", "samples", "a" (2 + 9 + 3).
  auto varint_bytes = [](std::uint64_t v) -> std::uint64_t { return v < 128 ? 1 : v < 16'384 ? 2 : 3; };
  std::uint64_t expected = 4 + 8 + 6 + 14;
  for (std::uint64_t d = 1; d <= 1'000; ++d) {
    const std::uint64_t content = 1 + varint_bytes(d) + d + 3;
    expected += 1 + varint_bytes(content) + content;
  }
  ccrc::profile chain;
  const std::vector<ccrc::frame_id> a(1'000, chain.intern("a"));
  for (std::size_t depth = 1; depth <= a.size(); ++depth)
    chain.add_path(std::span<const ccrc::frame_id>(a.data(), depth), std::vector<double>{1});
  CHECK(ccrc::pprof_size(chain) == expected);
  const std::string message = written(chain, {.gzip = false});
  CHECK(message.size() == expected);
  CHECK(test::canonical(ccrc::read_pprof(message)) == test::canonical(chain));
  CHECK(test::canonical(ccrc::read_pprof(written(chain, {.gzip = true}))) == test::canonical(chain));
}

TEST_CASE("pprof: the writer splits metric names into type and unit, and keeps negative values") {
  ccrc::profile p({"cpu_nanoseconds", "samples", "alloc_space_bytes", "_x", "y_"});
  test::add_stack(p, "main;f", {-5, 1, 2, 3, 4});
  test::add_stack(p, "main", {7, 0, 0, 0, 0});
  std::string out = written(p, {.gzip = false});
  // Read the sample types' strings back with protozero alone.
  std::vector<std::string> table;
  std::vector<std::pair<std::int64_t, std::int64_t>> types;
  protozero::pbf_reader m(out);
  while (m.next()) {
    if (m.tag() == 6) {
      table.push_back(m.get_string());
    } else if (m.tag() == 1) {
      protozero::pbf_reader v = m.get_message();
      std::pair<std::int64_t, std::int64_t> t{0, 0};
      while (v.next()) (v.tag() == 1 ? t.first : t.second) = v.get_int64();
      types.push_back(t);
    } else {
      m.skip();
    }
  }
  REQUIRE(types.size() == 5);
  auto s = [&](std::int64_t i) { return table.at(static_cast<std::size_t>(i)); };
  CHECK((s(types[0].first) == "cpu" && s(types[0].second) == "nanoseconds"));
  CHECK((s(types[1].first) == "samples" && s(types[1].second).empty()));
  CHECK((s(types[2].first) == "alloc_space" && s(types[2].second) == "bytes"));
  CHECK((s(types[3].first) == "_x" && s(types[3].second).empty()));
  CHECK((s(types[4].first) == "y_" && s(types[4].second).empty()));
  ccrc::profile back = ccrc::read_pprof(out);
  CHECK(back.metric_names() == p.metric_names());
  CHECK(test::canonical(back) == test::canonical(p));
  CHECK(at(back, "cpu_nanoseconds", "main;f") == -5);
}

TEST_CASE("pprof: values on the root, zero leaves, and frames of one name with different call sites") {
  ccrc::profile p({"n"});
  test::add_stack(p, "a;b", {0});  // a leaf with no value: still written, as a zero sample
  double three[] = {3};
  p.add(ccrc::root_node, three);
  ccrc::profile back = ccrc::read_pprof(written(p));
  CHECK(test::canonical(back) == test::canonical(p));
  CHECK(back.column("n")[ccrc::root_node] == 3);
  // An empty profile: its metrics only.
  ccrc::profile empty({"calls", "time_us"});
  ccrc::profile none = ccrc::read_pprof(written(empty));
  CHECK(none.metric_names() == empty.metric_names());
  CHECK(none.size() == 1);
}

TEST_CASE("pprof: what the writer refuses") {
  auto refuses = [](const ccrc::profile& p, std::string_view reason, ccrc::pprof_write_options options = {}) {
    std::ostringstream out;
    try {
      ccrc::write_pprof(out, p, options);
    } catch (const ccrc::error& e) {
      CHECK(std::string(e.what()).find(reason) != std::string::npos);
      CHECK(out.str().empty());  // nothing written
      return;
    }
    FAIL("written");
  };
  refuses(test::stacks({{"main;f", 1.5}}), "a value with a fraction");
  refuses(test::stacks({{"main;f", std::numeric_limits<double>::infinity()}}), "non-finite");
  refuses(test::stacks({{"main;f", 0x1p54}}), "above 2^53");
  refuses(test::stacks({{"main;f\x01", 1}}), "control character");
  ccrc::profile bad_metric({"time\tus"});
  refuses(bad_metric, "metric name");
  // Rounding on request: 1.5 -> 2, -2.5 -> -3 (half away from zero).
  ccrc::profile p = test::stacks({{"main;f", 1.5}, {"main;g", -2.5}});
  ccrc::profile back = ccrc::read_pprof(written(p, {.round_values = true}));
  CHECK(at(back, "samples", "main;f") == 2);
  CHECK(at(back, "samples", "main;g") == -3);
}

TEST_CASE("pprof: samples in any order give the same tree (the reader reuses the previous sample's outer locations)") {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    test::rng r(seed);
    ccrc::profile p = test::profile_of(test::random_samples(r, 1 + r.below(80), 2 + r.below(6), 1 + r.below(12)));
    std::string out = written(p, {.gzip = false});
    // The samples of the message in a random order, the other fields after them.
    std::vector<protozero::data_view> samples;
    std::string others, shuffled;
    protozero::pbf_reader m(out);
    protozero::pbf_writer rest(others);
    while (m.next()) {
      protozero::pbf_tag_type tag = m.tag();
      if (tag == 2) samples.push_back(m.get_view());
      else rest.add_bytes(tag, m.get_view());  // write_pprof's other top-level fields are messages and strings
    }
    for (std::size_t i = samples.size(); i > 1; --i) std::swap(samples[i - 1], samples[r.below(static_cast<std::uint32_t>(i))]);
    protozero::pbf_writer w(shuffled);
    for (auto s : samples) w.add_message(2, s);
    shuffled += others;
    REQUIRE(shuffled.size() == out.size());
    CHECK(test::canonical(ccrc::read_pprof(shuffled)) == test::canonical(p));
  }
}

TEST_CASE("pprof: a real heap profile written by Go's runtime/pprof: four sample types") {
  // How tests/data/pprof/heap.pb.gz was made, and where the expected values come from:
  // tests/data/pprof/README.md (`go tool pprof -raw` and `-top -unit=B` per sample index).
  ccrc::profile p = ccrc::read_pprof_file(std::string(CCRC_SOURCE_DIR) + "/tests/data/pprof/heap.pb.gz");
  CHECK(p.metric_names() ==
        std::vector<std::string>{"alloc_objects_count", "alloc_space_bytes", "inuse_objects_count", "inuse_space_bytes"});
  // 27 distinct call paths (tests/data/pprof/count.js, decoding with the npm package
  // pprof-format), 17 of them only on the file's 5 all-zero samples, which go tool pprof drops
  // and read_pprof keeps (every path of the file is a context).
  CHECK(p.size() == 28);
  CHECK(total(p, "alloc_objects_count") == 3014);
  CHECK(total(p, "alloc_space_bytes") == 4231544);
  CHECK(total(p, "inuse_objects_count") == 106);
  CHECK(total(p, "inuse_space_bytes") == 413984);
  const char* build = "runtime.main;main.main;main.build";
  CHECK(at(p, "alloc_objects_count", build) == 1008);  // 1000 blocks and 8 growths of `kept`
  CHECK(at(p, "alloc_space_bytes", build) == 4102120);
  CHECK(at(p, "inuse_objects_count", build) == 101);
  CHECK(at(p, "inuse_space_bytes", build) == 412672);
  const char* small = "runtime.main;main.main;main.small";
  CHECK(at(p, "alloc_objects_count", small) == 2000);
  CHECK(at(p, "alloc_space_bytes", small) == 128000);
  CHECK(at(p, "inuse_space_bytes", small) == 0);
  CHECK(at(p, "alloc_space_bytes", "runtime.main;main.main;os.Create;os.OpenFile") == 0);
  // A stack of one location, at the top: the GC worker's own allocations.
  CHECK(p.tree().parent(ccrc::node_at_path(p.tree(), "runtime.gcBgMarkWorker")) == ccrc::root_node);
  // Written and read again: the same paths and values.
  CHECK(test::canonical(ccrc::read_pprof(written(p))) == test::canonical(p));
}
