// The limits docs/limits.md states, command by command (issue 15): no recursion as deep as
// the input (every command runs in a 1 MB stack on a 100,000-frame chain), and memory and
// output linear in the contexts (a chain and a fan-out of 100,000 contexts; a quadratic
// would need 10^10 bytes).
#include "support/sanitized.hpp"
#include "support/tool.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace {

using test::sanitized;

constexpr int contexts = 100'000;
constexpr rlim_t stack_kb = 1024;
// docs/limits.md: at most 64 MB plus 2 KB per context for every command, and at most 1 KB of
// output per context (the largest measured: 0.9 KB of memory and 0.5 KB of output per
// context, both by the blueprint of a chain).
constexpr long base_kb = 64 * 1024;
constexpr long kb_per_context = 2;
constexpr std::uintmax_t output_per_context = 1024;

// A chain of one-letter frames a;b;a;b... (two input bytes per context, the densest input).
std::string chain() {
  std::string line;
  for (int i = 0; i < contexts; ++i) line += i ? (i % 2 ? ";b" : ";a") : "a";
  return line + " 1\n";
}

// main and its `contexts - 1` callees f1, f2, ...
std::string fan_out() {
  std::string text;
  for (int i = 1; i < contexts; ++i) text += "main;f" + std::to_string(i) + " 1\n";
  return text;
}

void every_command_within_limits(const std::string& in) {
  std::string out = std::string(CCRC_TEST_TMP) + "/limits-" + std::to_string(getpid());
  const std::vector<std::string> commands = {
      "stats IN",     "stats IN --json",          "flat IN",           "flat IN --json",
      "search IN a",  "search IN 're:[ab]*b' --json", "callgraph IN",      "callgraph IN --json",
      "render IN -o OUT.svg", "render IN -o OUT.html", "render IN -o OUT.json",
      "diff IN IN",   "diff IN IN --json",         "diff IN IN -o OUT.svg", "diff IN IN --chart ring -o OUT.svg",
      "convert IN OUT.cct", "convert OUT.cct OUT.cctb", "convert OUT.cctb OUT.folded"};
  for (std::string c : commands) {
    for (std::size_t p; (p = c.find("IN")) != std::string::npos;) c.replace(p, 2, "'" + in + "'");
    for (std::size_t p; (p = c.find("OUT")) != std::string::npos;) c.replace(p, 3, "'" + out + "'");
    CAPTURE(c);
    test::measured_run r = test::run_tool_measured(c, stack_kb);
    REQUIRE_MESSAGE(r.status == 0, r.err);
    std::uintmax_t written = r.out_bytes;
    for (const char* ext : {".svg", ".html", ".json"}) {
      std::error_code ec;
      written += std::filesystem::file_size(out + ext, ec) * !ec;
      std::filesystem::remove(out + ext, ec);
    }
    CHECK(written <= output_per_context * contexts);
    if (!sanitized) CHECK(r.peak_kb <= base_kb + kb_per_context * contexts);
  }
  for (const char* ext : {".cct", ".cctb", ".folded"}) std::filesystem::remove(out + ext);
}

}  // namespace

TEST_CASE("limits: every command on a 100,000-frame chain, in a 1 MB stack, memory and output linear") {
  std::string in = test::write_temp("limits-chain.folded", chain());
  every_command_within_limits(in);
  std::filesystem::remove(in);
}

TEST_CASE("limits: every command on a 100,000-callee fan-out, in a 1 MB stack, memory and output linear") {
  std::string in = test::write_temp("limits-fan-out.folded", fan_out());
  every_command_within_limits(in);
  std::filesystem::remove(in);
}

namespace {

// A Trace Event file of `events` events of one kind and no B, E or X event, so no context:
// `thread_name` metadata naming a thread each, or CPU profiles (Profile events) without
// samples.
std::string events_without_contexts(int events, bool thread_names) {
  std::string text = "[";
  for (int i = 0; i < events; ++i) {
    const std::string n = std::to_string(i);
    if (i) text += ",\n";
    if (thread_names)
      text += R"({"ph":"M","name":"thread_name","pid":1,"tid":)" + n + R"(,"args":{"name":"t)" + n + "\"}}";
    else
      text += R"({"ph":"P","name":"Profile","id":"0x)" + n + R"(","pid":1,"tid":)" + n + R"(,"ts":)" + n +
              R"(,"args":{"data":{"startTime":)" + n + "}}}";
  }
  return text + "]\n";
}

}  // namespace

TEST_CASE("limits: 100,000 thread names, or CPU profiles without samples, cost about their text, not kilobytes each") {
  for (bool thread_names : {true, false}) {
    CAPTURE(thread_names);
    const std::string text = events_without_contexts(100'000, thread_names);
    std::string in = test::write_temp("limits-no-contexts.json", text);
    test::measured_run r = test::run_tool_measured("stats '" + in + "'", stack_kb);
    REQUIRE_MESSAGE(r.status == 0, r.err);
    // The document is held whole; each event then costs about 100-250 bytes (1.5 KB and 3.5
    // KB when every thread and profile allocated its empty deques).
    const auto text_kb = static_cast<long>(text.size() / 1024);
    CAPTURE(text_kb);
    if (!sanitized) CHECK(r.peak_kb <= base_kb + text_kb);
    std::filesystem::remove(in);
  }
}

TEST_CASE("limits: pprof is written as it is made, its memory independent of its size") {
  // A chain a;a;... of 20,000 contexts with a value on each: 200 MB of pprof, all held in
  // memory before it was written (253 MB at its peak); written to /dev/null.
  constexpr int depth = 20'000;
  std::string text = "ccrc-cct 1\nmetrics samples\nframes 1\na\nnodes " + std::to_string(depth + 1) + "\n-1 0 0\n";
  for (int n = 0; n < depth; ++n) text += std::to_string(n) + " 1 1\n";
  std::string in = test::write_temp("limits-deep.cct", text);
  for (const char* ext : {".pb", ".pb.gz"}) {
    CAPTURE(ext);
    std::string out = std::string(CCRC_TEST_TMP) + "/limits-null-" + std::to_string(getpid()) + ext;
    std::filesystem::create_symlink("/dev/null", out);
    test::measured_run r = test::run_tool_measured("convert '" + in + "' -o '" + out + "'", stack_kb);
    CHECK_MESSAGE(r.status == 0, r.err);
    if (!sanitized) CHECK(r.peak_kb <= base_kb + kb_per_context * depth);
    std::filesystem::remove(out);
  }
  std::filesystem::remove(in);
}

TEST_CASE("limits: a list naming one method or one input over 20 MB is streamed into a set of names") {
  // Issue 45: `diff --modified LIST` and `merge @LIST` held the whole list as lines: 20 MB
  // naming one method took 528 MB. Now each name is held once (merge's inputs too: named
  // again, merged once), and the commands stay within 64 MB plus 2 KB per context (Figure 1's
  // 18, twice).
  std::string methods;
  while (methods.size() < (std::size_t{20} << 20)) methods += "h\n";
  const std::string modified = test::write_temp("limits-modified.txt", methods);
  methods.clear();
  test::measured_run diff = test::run_tool_measured(
      "diff " + test::figure1_path + " " + test::figure1_path + " --modified '" + modified + "' --json", stack_kb);
  REQUIRE_MESSAGE(diff.status == 0, diff.err);
  if (!sanitized) CHECK(diff.peak_kb <= base_kb + kb_per_context * 2 * 18);

  std::string inputs;
  while (inputs.size() < (std::size_t{20} << 20)) inputs += test::figure1_path + "\n";
  const std::size_t lines = static_cast<std::size_t>(std::count(inputs.begin(), inputs.end(), '\n'));
  const std::string list = test::write_temp("limits-inputs.txt", inputs);
  inputs.clear();
  const std::string out = test::write_temp("limits-merged.folded", "");
  test::measured_run merge = test::run_tool_measured("merge '@" + list + "' -o '" + out + "'", stack_kb);
  REQUIRE_MESSAGE(merge.status == 0, merge.err);
  CHECK(merge.err == "ccrc merge: " + std::to_string(lines - 1) + " inputs named again, read once\n");
  if (!sanitized) CHECK(merge.peak_kb <= base_kb + kb_per_context * 18);
  CHECK(test::run_tool("stats '" + out + "'").out.find("total bytecodes  3238\n") != std::string::npos);
  for (const auto& p : {modified, list, out}) std::filesystem::remove(p);
}
