// `perf script` text: read_perf_script on the benchmarks' generated tree (bench::tree_of:
// DaCapo-like names and shapes, depth at most 100, within perf's default limit of 127 frames)
// at 10^5 and 10^6 contexts, written as `perf script` prints a `perf record -g` recording: one
// sample per leaf of the tree (so every context is on some stack), a header line
// `comm tid  time:  period event:` and the frames leaf first, `\t addr symbol+0xoff (dso)`,
// with the symbol of a JIT's perf map (`/tmp/perf-PID.map`) or a library, and a blank line.
// Eight threads, each taking the subtrees of some top-level callees. Beside it, a baseline that
// finds the lines of the same bytes (memchr). MB/s of the text; tree_bytes_per_context: the
// finished profile (memory_bytes), peak_bytes_per_context: the heap the read holds at its peak.
// With CCRC_BENCH_SAVE=DIR, the texts are saved there too (tree-N.perf), for other importers.
#include "support/ccrc_trees.hpp"
#include "support/main.hpp"
#include "support/save.hpp"
#include "support/usable_heap.hpp"

#include <ccrc/io/perf_script.hpp>

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace {

constexpr std::size_t threads = 8;

struct text {
  std::string bytes;
  std::size_t samples = 0;
};

const text& text_of(std::size_t nodes) {
  static std::map<std::size_t, text> cache;
  auto it = cache.find(nodes);
  if (it != cache.end()) return it->second;
  const ccrc::call_tree& t = bench::tree_of(nodes).tree();
  // Parents are created before their children: one sweep finds the leaves and each
  // context's top-level ancestor.
  std::vector<char> inner(t.size(), 0);
  std::vector<ccrc::node_id> top(t.size(), ccrc::root_node);
  for (ccrc::node_id n = 1; n < t.size(); ++n) {
    ccrc::node_id p = t.parent(n);
    inner[p] = 1;
    top[n] = p == ccrc::root_node ? n : top[p];
  }
  static const char* const dsos[] = {"/tmp/perf-4242.map", "/tmp/perf-4242.map", "/tmp/perf-4242.map",
                                     "/usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so"};
  text out;
  std::string& s = out.bytes;
  char buf[64];
  std::uint64_t micros = 0;
  std::vector<ccrc::node_id> stack;
  for (ccrc::node_id leaf = 1; leaf < t.size(); ++leaf) {
    if (inner[leaf]) continue;
    micros += 250 + leaf % 7;
    std::snprintf(buf, sizeof buf, "java %zu %6llu.%06llu: %10zu cpu-clock:ppp: \n", 4242 + top[leaf] % threads,
                  static_cast<unsigned long long>(1000 + micros / 1000000), static_cast<unsigned long long>(micros % 1000000),
                  std::size_t{250000} + leaf % 1000);
    s += buf;
    for (ccrc::node_id n = leaf; n != ccrc::root_node; n = t.parent(n)) {
      std::uint32_t m = t.symbols().method(t.frame(n));
      std::size_t offset = 16 + (n * 7) % 400;
      std::snprintf(buf, sizeof buf, "\t%16llx ", static_cast<unsigned long long>(0x7f3a2c000000ull + m * 0x400ull + offset));
      s += buf;
      s += t.name(n);
      std::snprintf(buf, sizeof buf, "+0x%zx (", offset);
      s += buf;
      s += dsos[m % 4];
      s += ")\n";
    }
    s += '\n';
    ++out.samples;
  }
  bench::save_if_asked("tree-" + std::to_string(nodes) + ".perf", s);
  return cache.emplace(nodes, std::move(out)).first->second;
}

void set_counters(benchmark::State& state, const text& t) {
  bench::set_bytes(state, t.bytes.size());
  state.counters["MB"] = static_cast<double>(t.bytes.size()) / 1e6;
  state.counters["samples"] = static_cast<double>(t.samples);
}

void read(benchmark::State& state) {
  const text& t = text_of(bench::size_of(state));
  { ccrc::profile warm = ccrc::read_perf_script(t.bytes); }  // the heap's first growth is not timed
  // Contexts without the root and the eight thread frames.
  bench::time_read(state, [&] { return ccrc::read_perf_script(t.bytes); }, 1 + threads);
  set_counters(state, t);
}

// The floor of any line-by-line reader: every '\n' of the text found, nothing else.
void baseline_memchr(benchmark::State& state) {
  const text& t = text_of(bench::size_of(state));
  const char* begin = t.bytes.data();
  const char* end = begin + t.bytes.size();
  for (auto _ : state) {
    std::size_t lines = 0;
    for (const char* p = begin; (p = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)))); ++p)
      ++lines;
    benchmark::DoNotOptimize(lines);
  }
  set_counters(state, t);
}

}  // namespace

BENCHMARK(baseline_memchr)->Arg(100'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(read)->Arg(100'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond);

CCRC_BENCHMARK_MAIN()
