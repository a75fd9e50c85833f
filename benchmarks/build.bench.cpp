// Building a CCT as a profiler does: cursor replay of a call trace and add_path of stack
// samples, against the naive pointer-based tree, per calling context created.
#include "support/ccrc_trees.hpp"
#include "support/main.hpp"

#include <benchmark/benchmark.h>

namespace {

void cursor_replay(benchmark::State& state) {
  const bench::trace& t = bench::trace_of(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) {
    state.PauseTiming();
    bench::cct tree = bench::with_symbols(t);
    state.ResumeTiming();
    bench::replay(t, tree);
    benchmark::DoNotOptimize(tree.size());
    state.PauseTiming();  // the destructor is not part of building
    tree = bench::cct{};
    state.ResumeTiming();
  }
  bench::set_items(state, t.nodes);
  state.counters["calls_per_node"] = static_cast<double>(t.calls) / static_cast<double>(t.nodes);
}

// The steady state of a profiler that reserved its tree: no growth while building.
void cursor_replay_reserved(benchmark::State& state) {
  const bench::trace& t = bench::trace_of(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) {
    state.PauseTiming();
    bench::cct tree = bench::with_symbols(t);
    tree.reserve(t.nodes + 1);
    state.ResumeTiming();
    bench::replay(t, tree);
    benchmark::DoNotOptimize(tree.size());
    state.PauseTiming();
    tree = bench::cct{};
    state.ResumeTiming();
  }
  bench::set_items(state, t.nodes);
}

void cursor_replay_naive(benchmark::State& state) {
  const bench::trace& t = bench::trace_of(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) {
    auto root = bench::naive_replay(t);
    benchmark::DoNotOptimize(root.get());
    state.PauseTiming();
    root.reset();
    state.ResumeTiming();
  }
  bench::set_items(state, t.nodes);
}

const bench::samples& samples_of(std::size_t nodes) {
  static std::map<std::size_t, bench::samples> cache;
  auto it = cache.find(nodes);
  if (it == cache.end()) it = cache.emplace(nodes, bench::samples_of(bench::trace_of(nodes))).first;
  return it->second;
}

void add_path(benchmark::State& state) {
  const bench::trace& t = bench::trace_of(static_cast<std::size_t>(state.range(0)));
  const bench::samples& s = samples_of(t.nodes);
  for (auto _ : state) {
    state.PauseTiming();
    bench::cct tree = bench::with_symbols(t);
    state.ResumeTiming();
    bench::add_samples(s, tree);
    benchmark::DoNotOptimize(tree.size());
    state.PauseTiming();
    tree = bench::cct{};
    state.ResumeTiming();
  }
  bench::set_items(state, t.nodes);
  state.counters["frames_per_node"] = static_cast<double>(s.frames.size()) / static_cast<double>(t.nodes);
}

void add_path_naive(benchmark::State& state) {
  const bench::trace& t = bench::trace_of(static_cast<std::size_t>(state.range(0)));
  const bench::samples& s = samples_of(t.nodes);
  for (auto _ : state) {
    auto root = bench::naive_add_samples(s);
    benchmark::DoNotOptimize(root.get());
    state.PauseTiming();
    root.reset();
    state.ResumeTiming();
  }
  bench::set_items(state, t.nodes);
}

}  // namespace

BENCHMARK(cursor_replay)->RangeMultiplier(10)->Range(10'000, 10'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(cursor_replay_reserved)->RangeMultiplier(10)->Range(10'000, 10'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(cursor_replay_naive)->RangeMultiplier(10)->Range(10'000, 10'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(add_path)->RangeMultiplier(10)->Range(10'000, 10'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(add_path_naive)->RangeMultiplier(10)->Range(10'000, 10'000'000)->Unit(benchmark::kMillisecond);

CCRC_BENCHMARK_MAIN()
