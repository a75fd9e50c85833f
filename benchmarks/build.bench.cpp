// Building a CCT as a profiler does: cursor replay of a call trace and add_path of stack
// samples, against the naive pointer-based tree, per calling context created.
#include "support/ccrc_trees.hpp"
#include "support/main.hpp"

#include <benchmark/benchmark.h>

namespace {

void cursor_replay(benchmark::State& state) {
  const bench::trace& t = bench::trace_of(bench::size_of(state));
  bench::time_building(state, t, [&](bench::cct& tree) { bench::replay(t, tree); });
  state.counters["calls_per_node"] = static_cast<double>(t.calls) / static_cast<double>(t.nodes);
}

// The steady state of a profiler that reserved its tree: no growth while building.
void cursor_replay_reserved(benchmark::State& state) {
  const bench::trace& t = bench::trace_of(bench::size_of(state));
  bench::time_building(state, t, [&](bench::cct& tree) { bench::replay(t, tree); }, true);
}

void cursor_replay_naive(benchmark::State& state) {
  const bench::trace& t = bench::trace_of(bench::size_of(state));
  bench::time_naive_building(state, t.nodes, [&] { return bench::naive_replay(t); });
}

const bench::samples& samples_of(std::size_t nodes) {
  static std::map<std::size_t, bench::samples> cache;
  auto it = cache.find(nodes);
  if (it == cache.end()) it = cache.emplace(nodes, bench::samples_of(bench::trace_of(nodes))).first;
  return it->second;
}

void add_path(benchmark::State& state) {
  const bench::trace& t = bench::trace_of(bench::size_of(state));
  const bench::samples& s = samples_of(t.nodes);
  bench::time_building(state, t, [&](bench::cct& tree) { bench::add_samples(s, tree); });
  state.counters["frames_per_node"] = static_cast<double>(s.frames.size()) / static_cast<double>(t.nodes);
}

void add_path_naive(benchmark::State& state) {
  const bench::trace& t = bench::trace_of(bench::size_of(state));
  const bench::samples& s = samples_of(t.nodes);
  bench::time_naive_building(state, t.nodes, [&] { return bench::naive_add_samples(s); });
}

}  // namespace

BENCHMARK(cursor_replay)->RangeMultiplier(10)->Range(10'000, 10'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(cursor_replay_reserved)->RangeMultiplier(10)->Range(10'000, 10'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(cursor_replay_naive)->RangeMultiplier(10)->Range(10'000, 10'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(add_path)->RangeMultiplier(10)->Range(10'000, 10'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(add_path_naive)->RangeMultiplier(10)->Range(10'000, 10'000'000)->Unit(benchmark::kMillisecond);

CCRC_BENCHMARK_MAIN()
