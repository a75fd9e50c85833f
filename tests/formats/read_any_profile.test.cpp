#include <ccrc/formats/read_any_profile.hpp>
#include <ccrc/formats/write_profile.hpp>
#include <ccrc/fwd.hpp>  // its declarations of formats/ against their definitions
#include <ccrc/formats/speedscope.hpp>
#include <ccrc/io/cct_binary.hpp>
#include <ccrc/io/cct_text.hpp>
#include <ccrc/io/folded.hpp>

#include "support/display_name.hpp"
#include "support/gzip.hpp"
#include "support/values.hpp"
#include "support/figure1.hpp"
#include "support/random.hpp"

#include <doctest/doctest.h>
#include <protozero/pbf_writer.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

namespace {

// Two threads of a perf script recording: "spin 10" with 2 samples, "spin 11" with 1 (on a
// stack of its own and one shared with "spin 10"), periods 100, 200 and 400.
const std::string two_threads =
    "spin 10 1.0: 100 cycles:\n\t4005d0 g+0x8 (a.out)\n\t4005f0 main+0x8 (a.out)\n\n"
    "spin 10 2.0: 200 cycles:\n\t4005f0 main+0x8 (a.out)\n\n"
    "spin 11 3.0: 400 cycles:\n\t4005d0 h+0x8 (a.out)\n\t4005f0 main+0x8 (a.out)\n\n";

ccrc::read_result read_text(const std::string& bytes, const ccrc::read_options& options = {}) {
  std::istringstream in(bytes);
  return ccrc::read_profile(in, options);
}

std::string write_file(const std::string& name, const std::string& bytes) {
  std::string path = (std::filesystem::temp_directory_path() / name).string();
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

}  // namespace

TEST_CASE("read_profile tells the core formats by content and says which it read") {
  auto folded = read_text("main;f 3\nmain;g 4\n");
  CHECK(folded.detected == ccrc::profile_format::folded);
  CHECK_FALSE(folded.gzip);
  CHECK(folded.profiles.empty());
  CHECK(test::context_paths(folded.profile) == std::set<std::string>{"main", "main;f", "main;g"});
  auto perf = read_text(two_threads);
  CHECK(perf.detected == ccrc::profile_format::perf_script);
  CHECK(perf.profiles == std::vector<std::string>{"spin 10", "spin 11"});
  CHECK(ccrc::name_of(perf.detected) == "perf script");
}

TEST_CASE("read_profile inflates gzip as it reads, from a stream and from a file of any name") {
  std::string text;
  for (int i = 0; i < 5000; ++i) text += "main;f" + std::to_string(i) + " 1\n";  // more than one 64 KiB input
  auto r = read_text(test::gzip(text));
  CHECK(r.gzip);
  CHECK(r.detected == ccrc::profile_format::folded);
  CHECK(r.profile.size() == 5002);
  std::string path = write_file("ccrc-read-profile.perf.gz", test::gzip(two_threads));
  auto perf = ccrc::read_profile_file(path);
  CHECK(perf.gzip);
  CHECK(perf.detected == ccrc::profile_format::perf_script);
  CHECK(perf.profiles.size() == 2);
  std::filesystem::remove(path);
}

TEST_CASE("a truncated gzip profile is an error at its end, never a shorter profile") {
  std::string packed = test::gzip(two_threads);
  std::string cut = packed.substr(0, packed.size() - 8);  // without the CRC and length trailer
  try {
    (void)read_text(cut);
    FAIL("no error");
  } catch (const ccrc::parse_error& e) {
    CHECK(e.byte() == cut.size());
  }
}

TEST_CASE("read_options::profile picks one profile, by name or index, its contexts top-level") {
  for (std::string pick : {"spin 10", "0"}) {
    auto r = read_text(two_threads, {pick});
    CHECK(r.profiles == std::vector<std::string>{"spin 10", "spin 11"});
    CHECK(test::context_paths(r.profile) == std::set<std::string>{"main", "main;g"});
    auto samples = r.profile.column("samples");
    auto period = r.profile.column("period");
    ccrc::node_id main = r.profile.find_child(ccrc::root_node, *r.profile.symbols().find("main"));
    CHECK(samples[main] == 1);
    CHECK(period[main] == 200);
    CHECK(period[r.profile.find_child(main, *r.profile.symbols().find("g"))] == 100);
  }
  auto eleven = read_text(two_threads, {"1"});
  CHECK(test::context_paths(eleven.profile) == std::set<std::string>{"main", "main;h"});
  CHECK(eleven.profile.column("period")[eleven.profile.find_child(ccrc::root_node, *eleven.profile.symbols().find("main"))] == 0);
}

TEST_CASE("picking a profile that is not there lists the ones that are") {
  CHECK_THROWS_WITH_AS((void)read_text(two_threads, {"spin 12"}),
                       "no profile 'spin 12' in the file; it holds 2:\n  0: spin 10\n  1: spin 11", ccrc::error);
  CHECK_THROWS_WITH_AS((void)read_text(two_threads, {"2"}), doctest::Contains("it holds 2"), ccrc::error);
  CHECK_THROWS_WITH_AS((void)read_text("main 1\n", {"0"}), "--profile: a folded stacks file holds one profile",
                       ccrc::error);
}

TEST_CASE("read_profile opens a gzip-compressed pprof file by its content") {
  // Go's CPU profile of tests/data/pprof/cpu.go: 116 samples of 10 ms (go tool pprof -top).
  auto r = ccrc::read_profile_file(CCRC_SOURCE_DIR "/tests/data/pprof/cpu.pb.gz");
  CHECK(r.detected == ccrc::profile_format::pprof);
  CHECK(r.gzip);
  CHECK(r.profile.metric_names() == std::vector<std::string>{"samples_count", "cpu_nanoseconds"});
  double samples = 0;
  for (double v : r.profile.column("samples_count")) samples += v;
  CHECK(samples == 116);
}

TEST_CASE("a pprof message with fields Profile does not have in its first bytes is pprof, as with them later") {
  // Unknown fields are legal protobuf: field 100 (5,000 bytes, more than format detection
  // looks at), then fields 101 (a varint) and 102 (32 bits), before Figure 1's message.
  std::ostringstream written;
  ccrc::write_pprof(written, test::figure1(), {.gzip = false});
  const std::string message = written.str();
  std::string unknown;
  protozero::pbf_writer fields(unknown);
  fields.add_string(100, std::string(5'000, 'x'));
  fields.add_uint64(101, 7);
  fields.add_fixed32(102, 9);
  for (const std::string& bytes : {unknown + message, message + unknown}) {
    for (bool gzip : {false, true}) {
      CAPTURE(gzip);
      auto r = read_text(gzip ? test::gzip(bytes) : bytes);
      CHECK(r.detected == ccrc::profile_format::pprof);
      CHECK(test::canonical(r.profile) == test::canonical(ccrc::read_pprof(message)));
    }
  }
}

TEST_CASE("read_options::max_document_bytes bounds the JSON or pprof document held whole, inflated or not") {
  CHECK(ccrc::read_options{}.max_document_bytes == std::uint64_t{2} << 30);
  // A trace of 2,000 bytes (white space after the events), and Figure 1 as a pprof message.
  const std::string trace = R"([{"ph":"X","name":"main","ts":0,"dur":10,"pid":1,"tid":1}])" + std::string(1'942, ' ');
  REQUIRE(trace.size() == 2'000);
  std::ostringstream message;
  ccrc::write_pprof(message, test::figure1(), {.gzip = false});
  std::string trace_file = write_file("bound.json", trace), pprof_file = write_file("bound.pb", message.str());
  const std::size_t pprof_bytes = message.str().size();
  auto too_large = [&](auto&& read, std::string_view what, std::uint64_t limit) {
    try {
      (void)read();
    } catch (const ccrc::document_too_large& e) {
      CHECK(e.document() == what);
      CHECK(e.limit() == limit);
      return;
    }
    FAIL("read whole");
  };
  for (bool gzip : {false, true}) {
    CAPTURE(gzip);
    auto bytes = [&](const std::string& plain) { return gzip ? test::gzip(plain) : plain; };
    too_large([&] { return read_text(bytes(trace), {.profile = "", .max_document_bytes = 1'999}); }, "JSON document", 1'999);
    too_large([&] { return read_text(bytes(message.str()), {.profile = "", .max_document_bytes = pprof_bytes - 1}); },
              "pprof message", pprof_bytes - 1);
    CHECK(read_text(bytes(trace), {.profile = "", .max_document_bytes = 2'000}).profile.size() == 3);
    CHECK(test::canonical(read_text(bytes(message.str()), {.profile = "", .max_document_bytes = pprof_bytes}).profile) ==
          test::canonical(test::figure1()));
  }
  // A file's size is known: refused before it is read.
  too_large([&] { return ccrc::read_profile_file(trace_file, {.profile = "", .max_document_bytes = 1'999}); }, "JSON document",
            1'999);
  too_large([&] { return ccrc::read_profile_file(pprof_file, {.profile = "", .max_document_bytes = 10}); }, "pprof message", 10);
  // Formats read as they stream are not bounded: they never hold the whole file.
  CHECK(read_text("main;f 3\n" + std::string(100, '\n'), {.profile = "", .max_document_bytes = 10}).profile.size() == 3);
  for (const auto& p : {trace_file, pprof_file}) std::filesystem::remove(p);
}

TEST_CASE("read_profile opens Firefox's Gecko profile, gzip or not, and picks a thread of it") {
  // Firefox's profile of tests/data/gecko/page.html: three sampled threads, 4172 samples in all,
  // 489 of them in the content process's main thread (tests/formats/gecko.test.cpp has the rest).
  const std::string path = CCRC_SOURCE_DIR "/tests/data/gecko/firefox.json";
  std::ifstream in(path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::istringstream packed(test::gzip(text));
  for (auto r : {ccrc::read_profile_file(path), ccrc::read_profile(packed)}) {
    CHECK(r.detected == ccrc::profile_format::gecko);
    CHECK(r.profiles == std::vector<std::string>{"Parent Process (pid 4545) Renderer (tid 4588)",
                                                 "Parent Process (pid 4545) Compositor (tid 4594)",
                                                 "file:// Content (pid 4659) GeckoMain (tid 4659)"});
    CHECK(test::total(r.profile, "samples") == 4172);
  }
  auto content = ccrc::read_profile_file(path, {"2"});
  CHECK(test::total(content.profile, "samples") == 489);
}

TEST_CASE("a JSON object is told by a key after the first, found without parsing the values before it") {
  // DevTools writes "metadata" first; values with brackets and quotes in strings are skipped.
  auto trace = read_text(R"({"metadata": {"a": "]}\"", "b": [{"traceEvents": 1}]}, "displayTimeUnit": "ns",)"
                         R"( "traceEvents": [{"ph":"X","name":"f","ts":0,"dur":3,"pid":1,"tid":2}]})");
  CHECK(trace.detected == ccrc::profile_format::trace_event);
  CHECK(test::context_paths(trace.profile) == std::set<std::string>{"pid 1 tid 2", "pid 1 tid 2;f"});
  auto v8 = read_text(R"J({"startTime": 0, "nodes": [{"id": 1, "callFrame": {"functionName": "(root)"}}], "samples": [], "timeDeltas": []})J");
  CHECK(v8.detected == ccrc::profile_format::v8_profile);
}

TEST_CASE("a file of no format ccrc reads is an error that names the formats tried") {
  CHECK_THROWS_WITH_AS((void)read_text("<html>\n<body>\n"),
                       "line 1: missing count: a line is 'frame;frame;... count' (no format fits: the start is not "
                       "ccrc .cctb, ccrc .cct, callgrind, perf script, pprof, Trace Event, speedscope, V8 profile or Gecko "
                       "profile, and it was read as folded stacks)",
                       ccrc::parse_error);
  CHECK_THROWS_WITH_AS((void)read_text(R"({"something": "else"})"),
                       doctest::Contains("byte 0: a JSON document of no format ccrc reads"), ccrc::parse_error);
  // Malformed before a key names a format: none is picked.
  CHECK_THROWS_WITH_AS((void)read_text(R"({"something": [}, "traceEvents": []})"),
                       doctest::Contains("byte 0: a JSON document of no format ccrc reads"), ccrc::parse_error);
  // perf's binary perf.data says what to run rather than listing the formats tried; gzipped
  // too, and whatever the file's name.
  const std::string perf_data = std::string("PERFILE2\x68\0\0\0\0\0\0\0", 16) + std::string(200, '\0');
  const char* run_perf_script =
      "byte 0: perf's binary perf.data, which ccrc does not read: run `perf script` on it "
      "(perf script -i perf.data > out.perf) and read its output";
  CHECK_THROWS_WITH_AS((void)read_text(perf_data), run_perf_script, ccrc::parse_error);
  CHECK_THROWS_WITH_AS((void)read_text(test::gzip(perf_data)), run_perf_script, ccrc::parse_error);
  for (const char* name : {"perf.data", "ccrc-perf-data.folded"}) {
    std::string path = write_file(name, perf_data);
    CHECK_THROWS_WITH_AS((void)ccrc::read_profile_file(path), (path + ": " + run_perf_script).c_str(), ccrc::parse_error);
    std::filesystem::remove(path);
  }
  // A folded file whose error is further down keeps the folded reader's message alone.
  CHECK_THROWS_WITH_AS((void)read_text("main;f 1\nmain;g x\n"), doctest::Contains("line 2: "), ccrc::parse_error);
}

TEST_CASE("read_profile tells every format of format_table from a sample of it, from bytes, a stream and a file") {
  const ccrc::profile figure1 = test::figure1();
  auto written = [&](auto write) {
    std::ostringstream out;
    write(out);
    return out.str();
  };
  std::ifstream gecko(CCRC_SOURCE_DIR "/tests/data/gecko/firefox.json", std::ios::binary);
  const std::map<ccrc::profile_format, std::string> samples = {
      {ccrc::profile_format::folded, "main;f 3\n"},
      {ccrc::profile_format::cct, written([&](std::ostream& o) { ccrc::write_cct(o, figure1); })},
      {ccrc::profile_format::cctb, written([&](std::ostream& o) { ccrc::write_cctb(o, figure1); })},
      {ccrc::profile_format::perf_script, two_threads},
      {ccrc::profile_format::callgrind, "events: Ir\nfn=main\n1 10\n"},
      {ccrc::profile_format::pprof, written([&](std::ostream& o) { ccrc::write_pprof(o, figure1, {.gzip = false}); })},
      {ccrc::profile_format::speedscope, written([&](std::ostream& o) { ccrc::write_speedscope(o, figure1); })},
      {ccrc::profile_format::trace_event, R"([{"ph":"X","name":"f","ts":0,"dur":3,"pid":1,"tid":2}])"},
      {ccrc::profile_format::v8_profile, R"J({"nodes": [{"id": 1, "callFrame": {"functionName": "(root)"}}], "samples": []})J"},
      {ccrc::profile_format::gecko, std::string((std::istreambuf_iterator<char>(gecko)), std::istreambuf_iterator<char>())},
  };
  for (const ccrc::format_info& i : ccrc::format_table) {
    CAPTURE(i.name);
    REQUIRE(samples.count(i.format) == 1);
    const std::string& bytes = samples.at(i.format);
    CHECK(ccrc::read_profile(bytes).detected == i.format);
    CHECK(read_text(bytes).detected == i.format);
    CHECK(read_text(test::gzip(bytes)).detected == i.format);
    const std::string path = write_file("ccrc-read-profile-sample", bytes);
    CHECK(ccrc::read_profile_file(path).detected == i.format);
    std::filesystem::remove(path);
  }
}

TEST_CASE("the errors that list the formats tried name every format of format_table") {
  std::string not_folded, not_json;
  try {
    (void)ccrc::read_profile("<html>\n");
  } catch (const ccrc::parse_error& e) {
    not_folded = e.what();
  }
  try {
    (void)ccrc::read_profile(R"({"something": "else"})");
  } catch (const ccrc::parse_error& e) {
    not_json = e.what();
  }
  for (const ccrc::format_info& i : ccrc::format_table) {
    CAPTURE(i.name);
    if (i.format != ccrc::profile_format::folded) CHECK(not_folded.find(i.name) != std::string::npos);
    if (i.json_keys.empty()) continue;
    CHECK(not_json.find(i.name) != std::string::npos);
    for (std::string_view key : i.json_keys) CHECK(not_json.find("\"" + std::string(key) + "\"") != std::string::npos);
  }
}

TEST_CASE("a name that says a format binds it; folded stacks' names do not") {
  std::ostringstream cct;
  ccrc::write_cct(cct, test::figure1());
  // .txt is folded stacks' name, but the content tells .cct.
  std::string txt = write_file("ccrc-bound-name.txt", cct.str());
  CHECK(ccrc::read_profile_file(txt).detected == ccrc::profile_format::cct);
  // A .cpuprofile holding folded stacks is read by the V8 reader, which says what is wrong.
  std::string v8 = write_file("ccrc-bound-name.cpuprofile", "main;f 1\n");
  CHECK_THROWS_AS((void)ccrc::read_profile_file(v8), ccrc::parse_error);
  for (const auto& p : {txt, v8}) std::filesystem::remove(p);
}

TEST_CASE("every frame of every profile in tests/data has a display name that is not empty, not longer, its own") {
  // ccrc::display_name's properties on the names every reader gives real files (the tables of
  // tests/algorithm/display_name.test.cpp quote some of them with their display names).
  std::size_t frames = 0;
  for (const char* file :
       {"v8/work.cpuprofile", "v8/work.heapprofile", "speedscope/node-cpu.speedscope.json", "gecko/firefox.json",
        "trace_event/devtools.json.gz", "trace_event/small.json", "pprof/cpu.pb.gz", "pprof/heap.pb.gz",
        "perf/spin.perf", "callgrind/prog.callgrind", "callgrind/prog-cache.callgrind", "viewer/first.folded"}) {
    CAPTURE(file);
    auto r = ccrc::read_profile_file(std::string(CCRC_SOURCE_DIR "/tests/data/") + file);
    CHECK(r.profile.symbols().frame_count() > 1);
    for (ccrc::frame_id f{1}; f < r.profile.symbols().frame_count(); ++f, ++frames)
      test::check_display_name_of_frame(r.profile.symbols().name(f));
  }
  CHECK(frames > 1500);
}
