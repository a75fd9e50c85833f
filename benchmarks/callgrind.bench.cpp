// The callgrind reader on a generated file of 10^4 to 10^6 functions whose call graph is a
// tree (each function has one caller), so it unfolds into as many contexts: parsing and
// unfolding in bytes per second, beside a baseline that only finds the lines of the same bytes
// (memchr). bytes_per_context: the profile read, by its own account (memory_bytes / size).
// With CCRC_BENCH_SAVE=DIR, the texts are saved there too (callgrind.out.tree-N), to time
// other importers on them.
#include "support/ccrc_trees.hpp"
#include "support/main.hpp"
#include "support/save.hpp"

#include <ccrc/io/callgrind.hpp>

#include <benchmark/benchmark.h>

#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace {

// Function i's parent is i - 1 one time in four (long chains), else any earlier function; self
// cost 1 + i % 97, edges carrying the callee's inclusive cost, names compressed as valgrind
// does: `cfn=(i) f<i>` at first mention, `fn=(i)` after.
const std::string& text_of(std::size_t functions) {
  static std::map<std::size_t, std::string> cache;
  auto it = cache.find(functions);
  if (it != cache.end()) return it->second;
  bench::rng r{11};
  std::vector<std::size_t> parent(functions, 0);
  std::vector<std::uint64_t> inclusive(functions);
  for (std::size_t i = 0; i < functions; ++i) inclusive[i] = 1 + i % 97;
  for (std::size_t i = 1; i < functions; ++i) parent[i] = r.next() % 4 == 0 ? i - 1 : r.next() % i;
  for (std::size_t i = functions; i-- > 1;) inclusive[parent[i]] += inclusive[i];
  std::vector<std::vector<std::size_t>> children(functions);
  for (std::size_t i = 1; i < functions; ++i) children[parent[i]].push_back(i);
  std::string t = "# callgrind format\nversion: 1\ncreator: ccrc benchmark\npositions: line\nevents: Ir\n\n";
  t += "ob=(1) /bench\nfl=(1) bench.c\n";
  for (std::size_t i = 0; i < functions; ++i) {
    std::string id = std::to_string(i + 1);
    t += i == 0 ? "fn=(1) f0\n" : "fn=(" + id + ")\n";
    t += std::to_string(10 + i % 50) + " " + std::to_string(1 + i % 97) + "\n";
    for (std::size_t c : children[i]) {
      t += "cfn=(" + std::to_string(c + 1) + ") f" + std::to_string(c) + "\ncalls=1 " + std::to_string(c % 50) + "\n";
      t += "+1 " + std::to_string(inclusive[c]) + "\n";
    }
    t += "\n";
  }
  bench::save_if_asked("callgrind.out.tree-" + std::to_string(functions), t);
  return cache.emplace(functions, std::move(t)).first->second;
}

void read(benchmark::State& state) {
  const std::string& text = text_of(bench::size_of(state));
  ccrc::profile warm = ccrc::read_callgrind(text);
  for (auto _ : state) {
    ccrc::profile p = ccrc::read_callgrind(text);
    benchmark::DoNotOptimize(p.size());
  }
  bench::set_bytes(state, text.size());
  state.counters["MB"] = static_cast<double>(text.size()) / 1e6;
  state.counters["contexts"] = static_cast<double>(warm.size() - 1);
  state.counters["bytes_per_context"] = static_cast<double>(warm.memory_bytes()) / static_cast<double>(warm.size());
}

void baseline_memchr(benchmark::State& state) {
  const std::string& text = text_of(bench::size_of(state));
  for (auto _ : state) {
    std::size_t lines = 0;
    for (const char* p = text.data(); (p = static_cast<const char*>(std::memchr(p, '\n', text.size() - static_cast<std::size_t>(p - text.data())))); ++p)
      ++lines;
    benchmark::DoNotOptimize(lines);
  }
  bench::set_bytes(state, text.size());
}

}  // namespace

BENCHMARK(baseline_memchr)->RangeMultiplier(10)->Range(10'000, 1'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(read)->RangeMultiplier(10)->Range(10'000, 1'000'000)->Unit(benchmark::kMillisecond);

CCRC_BENCHMARK_MAIN()
