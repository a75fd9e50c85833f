// Every command opens any format through ccrc::read_profile_file: gzip, several profiles in
// one file and --profile, the format printed by stats.
#include "support/gzip.hpp"
#include "support/tool.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <filesystem>

using nlohmann::json;

namespace {

// Two threads: "spin 10" (samples 2, period 300) and "spin 11" (samples 1, period 400).
const std::string two_threads =
    "spin 10 1.0: 100 cycles:\n\t4005d0 g+0x8 (a.out)\n\t4005f0 main+0x8 (a.out)\n\n"
    "spin 10 2.0: 200 cycles:\n\t4005f0 main+0x8 (a.out)\n\n"
    "spin 11 3.0: 400 cycles:\n\t4005d0 h+0x8 (a.out)\n\t4005f0 main+0x8 (a.out)\n\n";

}  // namespace

TEST_CASE("every command reads a gzip-compressed profile of any name, from a file and from stdin") {
  std::string packed = test::write_temp("figure1.folded.gz", test::gzip(test::read_file(test::figure1_path)));
  json plain = json::parse(test::run_tool("stats '" + test::figure1_path + "' --json").out);
  for (std::string input : {"'" + packed + "'", "- < '" + packed + "'"}) {
    auto r = test::run_tool("stats " + input + " --json");
    REQUIRE(r.status == 0);
    json j = json::parse(r.out);
    CHECK(j["format"] == "folded stacks, gzip");
    j["format"] = plain["format"];
    CHECK(j == plain);
  }
  auto flat = test::run_tool("flat '" + packed + "' --metric bytecodes --json");
  REQUIRE(flat.status == 0);
  CHECK(flat.out == test::run_tool("flat '" + test::figure1_path + "' --metric bytecodes --json").out);
  std::filesystem::remove(packed);
}

TEST_CASE("a truncated gzip file is an error naming the file and the byte, and writes nothing") {
  std::string packed = test::gzip(test::read_file(test::figure1_path));
  std::string cut = test::write_temp("cut.folded.gz", packed.substr(0, packed.size() / 2));
  std::string out = test::write_temp("cut-out.folded", "KEEP\n");
  auto r = test::run_tool("convert '" + cut + "' '" + out + "'");
  CHECK(r.status == 1);
  CHECK(r.err == "ccrc convert: " + cut + ": byte " + std::to_string(packed.size() / 2) +
                     ": the gzip stream ends early (a truncated file?)\n");
  CHECK(test::read_file(out) == "KEEP\n");
  std::filesystem::remove(cut);
  std::filesystem::remove(out);
}

TEST_CASE("stats lists the profiles of a file of several; --profile picks one by name or index") {
  std::string perf = test::write_temp("two.perf", two_threads);
  auto all = test::run_tool("stats '" + perf + "'");
  REQUIRE(all.status == 0);
  CHECK(all.out.find("\nformat     perf script\nprofile 0  spin 10\nprofile 1  spin 11\n") != std::string::npos);
  json j = json::parse(test::run_tool("stats '" + perf + "' --json").out);
  CHECK(j["profiles"] == json::array({"spin 10", "spin 11"}));
  CHECK(j["nodes"] == 6);  // two thread frames, main under each, g and h
  for (std::string pick : {"'spin 11'", "1"}) {
    auto one = test::run_tool("stats '" + perf + "' --profile " + pick + " --json");
    REQUIRE(one.status == 0);
    json k = json::parse(one.out);
    CHECK(k["nodes"] == 2);  // main;h
    CHECK(k["metrics"][1]["total"] == 400);
  }
  auto folded = test::run_tool("convert '" + perf + "' - --profile 0");
  CHECK(folded.out == "# metrics: samples period\nmain 1 200\nmain;g 1 100\n");
  auto missing = test::run_tool("flat '" + perf + "' --profile 'spin 12'");
  CHECK(missing.status == 1);
  CHECK(missing.err == "ccrc flat: " + perf + ": no profile 'spin 12' in the file; it holds 2:\n  0: spin 10\n  1: spin 11\n");
  auto single = test::run_tool("stats '" + test::figure1_path + "' --profile 0");
  CHECK(single.status == 1);
  CHECK(single.err == "ccrc stats: " + test::figure1_path + ": --profile: a folded stacks file holds one profile\n");
  std::filesystem::remove(perf);
}

TEST_CASE("a real Go pprof profile opens by content; convert writes pprof that reads back the same") {
  // tests/data/pprof/README.md: go tool pprof -top gives 116 samples, 1160 ms (Go 1.19's own reader).
  std::string go_cpu = std::string(CCRC_SOURCE_DIR) + "/tests/data/pprof/cpu.pb.gz";
  json j = json::parse(test::run_tool("stats '" + go_cpu + "' --json").out);
  CHECK(j["format"] == "pprof, gzip");
  CHECK(j["metrics"][0] == json{{"name", "samples_count"}, {"total", 116}});
  CHECK(j["metrics"][1] == json{{"name", "cpu_nanoseconds"}, {"total", 1160000000}});
  for (std::string name : {"f1.pb.gz", "f1.pb", "f1.pprof"}) {
    std::string out = test::write_temp(name, "");
    REQUIRE(test::run_tool("convert '" + test::figure1_path + "' '" + out + "'").status == 0);
    CHECK((test::read_file(out).substr(0, 2) == "\x1f\x8b") == (name == "f1.pb.gz"));
    json back = json::parse(test::run_tool("stats '" + out + "' --json").out);
    CHECK(back["format"] == (name == "f1.pb.gz" ? "pprof, gzip" : "pprof"));
    json plain = json::parse(test::run_tool("stats '" + test::figure1_path + "' --json").out);
    back.erase("format");
    plain.erase("format");
    CHECK(back == plain);
    CHECK(test::run_tool("convert '" + out + "' -").out ==
          test::run_tool("convert '" + test::figure1_path + "' -").out);
    std::filesystem::remove(out);
  }
}

namespace {

json stats_of(const std::string& args) {
  auto r = test::run_tool("stats " + args + " --json");
  REQUIRE(r.status == 0);
  return json::parse(r.out);
}

const std::string data = std::string(CCRC_SOURCE_DIR) + "/tests/data/";

}  // namespace

TEST_CASE("stats opens the real files of each format by content, with the values their READMEs derive") {
  // tests/data/v8/README.md: 92 nodes (the root one of them), 103 samples, 78323 us.
  json cpu = stats_of("'" + data + "v8/work.cpuprofile'");
  CHECK(cpu["format"] == "V8 profile");
  CHECK(cpu["nodes"] == 91);
  CHECK(cpu["metrics"] == json::array({{{"name", "samples"}, {"total", 103}}, {{"name", "time_us"}, {"total", 78323}}}));
  json heap = stats_of("'" + data + "v8/work.heapprofile'");
  CHECK(heap["nodes"] == 94);
  CHECK(heap["metrics"][0] == json{{"name", "bytes"}, {"total", 359096}});
  // tests/data/trace_event/README.md: 605 events on the compiling thread, nesting to one
  // 1287276 us top-level event; 85 threads of one `Total` event each, clang's summaries, left
  // out: the trace's time is its compile's.
  json trace = stats_of("'" + data + "trace_event/small.json'");
  CHECK(trace["format"] == "Trace Event");
  CHECK(trace["profiles"].size() == 1);
  CHECK(trace["metrics"] == json::array({{{"name", "calls"}, {"total", 605}}, {{"name", "time_us"}, {"total", 1287276}}}));
  json compiler = stats_of("'" + data + "trace_event/small.json' --profile 0");
  CHECK(compiler["metrics"] == json::array({{{"name", "calls"}, {"total", 605}}, {{"name", "time_us"}, {"total", 1287276}}}));
  // tests/data/speedscope/README.md: one profile, 90 contexts, 331139 us.
  json ss = stats_of("'" + data + "speedscope/node-cpu.speedscope.json'");
  CHECK(ss["format"] == "speedscope");
  CHECK(ss["profiles"] == json::array({"main.cpuprofile"}));
  CHECK(ss["nodes"] == 91);
  CHECK(ss["metrics"][0] == json{{"name", "microseconds"}, {"total", 331139}});
  // tests/data/gecko/README.md: three sampled threads, 1402 contexts, 4172 samples.
  json gecko = stats_of("'" + data + "gecko/firefox.json'");
  CHECK(gecko["format"] == "Gecko profile");
  CHECK(gecko["profiles"].size() == 3);
  CHECK(gecko["nodes"] == 1402);
  CHECK(gecko["metrics"][0] == json{{"name", "samples"}, {"total", 4172}});
  // tests/data/callgrind/README.md: valgrind's totals, 182353 Ir, told by the content
  // whatever the name; a name ending .callgrind must be callgrind.
  json cg = stats_of("'" + data + "callgrind/prog.callgrind'");
  CHECK(cg["format"] == "callgrind");
  CHECK(cg["metrics"] == json::array({{{"name", "Ir"}, {"total", 182353}}}));
  std::string renamed = test::write_temp("cg.profile", test::read_file(data + "callgrind/prog.callgrind"));
  CHECK(stats_of("'" + renamed + "'")["format"] == "callgrind");
  std::string wrong = test::write_temp("x.callgrind", "main;f 1\n");
  CHECK(test::run_tool("stats '" + wrong + "'").status == 1);
  std::filesystem::remove(renamed);
  std::filesystem::remove(wrong);
  // tests/data/trace_event/README.md: a DevTools trace, gzip, whose CPU profile has 800
  // samples over 161489 us, beside 6204 complete and begin events.
  json devtools = stats_of("'" + data + "trace_event/devtools.json.gz'");
  CHECK(devtools["format"] == "Trace Event, gzip");
  CHECK(devtools["metrics"] == json::array({{{"name", "calls"}, {"total", 6204}},
                                            {{"name", "time_us"}, {"total", devtools["metrics"][1]["total"]}},
                                            {{"name", "samples"}, {"total", 800}},
                                            {{"name", "sampled_us"}, {"total", 161489}}}));
}

TEST_CASE("convert writes speedscope, one profile per metric, that reads back as the tree written") {
  std::string out = test::write_temp("f1.speedscope.json", "");
  REQUIRE(test::run_tool("convert '" + test::figure1_path + "' '" + out + "'").status == 0);
  json j = stats_of("'" + out + "'");
  CHECK(j["format"] == "speedscope");
  // The two profiles (one per metric) share their events, and the file says ccrc wrote it:
  // Figure 1 as it was, a column per metric, no frame above it (issue 45).
  json plain = stats_of("'" + test::figure1_path + "'");
  CHECK(j["nodes"] == 18);
  CHECK(j["metrics"] == plain["metrics"]);
  CHECK(j["profiles"] == json::array({"main"}));
  std::string cct = test::write_temp("f1-back.cct", ""), direct = test::write_temp("f1-direct.cct", "");
  REQUIRE(test::run_tool("convert '" + out + "' '" + cct + "'").status == 0);
  REQUIRE(test::run_tool("convert '" + test::figure1_path + "' '" + direct + "'").status == 0);
  CHECK(test::read_file(cct) == test::read_file(direct));
  for (const auto& p : {out, cct, direct}) std::filesystem::remove(p);
}

TEST_CASE("symbolize and convert of a speedscope file into one keep its tree, run after run") {
  // Issue 45: each run put the tree one level deeper (the reader's frame above each profile,
  // written back as a frame, read back under one more). Two profiles of another exporter,
  // unit none and nanoseconds, each under the frame the reader puts it.
  const std::string theirs =
      R"({"$schema": "https://www.speedscope.app/file-format-schema.json", "shared": {"frames": [{"name": "main"},)"
      R"( {"name": "f"}]}, "profiles": [{"type": "sampled", "name": "t1", "unit": "none", "startValue": 0, "endValue": 3,)"
      R"( "samples": [[0, 1], [0]], "weights": [2, 1]}, {"type": "evented", "name": "t2", "unit": "nanoseconds",)"
      R"( "startValue": 0, "endValue": 9, "events": [{"type": "O", "frame": 0, "at": 0}, {"type": "C", "frame": 0, "at": 9}]}],)"
      R"( "exporter": "py-spy"})";
  const std::string file = test::write_temp("sym.speedscope.json", theirs);
  auto canonical = [&](const std::string& path) {
    std::string cct = test::write_temp("sym.cct", "");
    REQUIRE(test::run_tool("convert '" + path + "' '" + cct + "'").status == 0);
    std::string text = test::read_file(cct);
    std::filesystem::remove(cct);
    return text;
  };
  const std::string first = canonical(file);
  CHECK(first.find("\nt1\n") != std::string::npos);  // the reader's frames, t1 and t2, at the top
  for (int run = 0; run < 3; ++run) {
    auto r = test::run_tool("symbolize '" + file + "'");
    REQUIRE_MESSAGE(r.status == 0, r.err);
    CHECK(canonical(file) == first);
  }
  const std::string again = test::write_temp("sym-again.speedscope.json", "");
  REQUIRE(test::run_tool("convert '" + file + "' '" + again + "'").status == 0);
  REQUIRE(test::run_tool("convert '" + again + "' '" + again + ".speedscope.json'").status == 0);
  CHECK(canonical(again + ".speedscope.json") == first);
  for (const auto& p : {file, again, again + ".speedscope.json"}) std::filesystem::remove(p);
}

TEST_CASE("a UTF-8 byte-order mark before JSON, folded stacks or perf script does not defeat the format told") {
  // Issue 45: before JSON it hid the format; before folded stacks it joined the first frame.
  const std::string bom = "\xEF\xBB\xBF";
  const std::string speedscope = test::write_temp("bom.json", bom + test::read_file(data + "speedscope/node-cpu.speedscope.json"));
  json with = stats_of("'" + speedscope + "'"), without = stats_of("'" + data + "speedscope/node-cpu.speedscope.json'");
  CHECK(with == without);
  const std::string folded = test::write_temp("bom.folded", bom + test::read_file(test::figure1_path));
  CHECK(stats_of("'" + folded + "'") == stats_of("'" + test::figure1_path + "'"));
  const std::string perf = test::write_temp("bom.txt", bom + two_threads);
  json threads = stats_of("'" + perf + "'");
  CHECK(threads["format"] == "perf script");
  CHECK(threads["profiles"] == json::array({"spin 10", "spin 11"}));
  for (const auto& p : {speedscope, folded, perf}) std::filesystem::remove(p);
}
