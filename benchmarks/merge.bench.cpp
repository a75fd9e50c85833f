// Merging many profiles (issue 14): N runs of one program, each a .cctb of about 10^5 contexts
// sharing most of them, merged by ccrc::merge_all on 1 and 2 threads, beside reading the same
// bytes alone on one thread (the floor: a merge must at least read its inputs). Items are
// input contexts.
//
//     ccrc_bench_merge --benchmark_filter=/1000     # the 1,000 profiles (10^8 contexts)
#include "support/ccrc_trees.hpp"
#include "support/main.hpp"
#include "support/runs.hpp"

#include <ccrc/transform/merge_all.hpp>

#include <benchmark/benchmark.h>

#include <vector>

namespace {

void report(benchmark::State& state, const bench::inputs& in, std::size_t merged_size) {
  const std::size_t contexts = in.contexts, bytes = in.bytes;
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(contexts));
  bench::set_bytes(state, bytes);
  state.counters["contexts_per_input"] = static_cast<double>(contexts) / static_cast<double>(in.cctb.size());
  if (merged_size != 0) state.counters["merged_contexts"] = static_cast<double>(merged_size - 1);
}

// The floor: every input read, nothing merged.
void read_only(benchmark::State& state) {
  const auto& in = bench::runs(bench::size_of(state));
  for (auto _ : state)
    for (const auto& b : in.cctb) benchmark::DoNotOptimize(ccrc::read_cctb(b).size());
  report(state, in, 0);
}

// Read and merged, on range(1) threads.
void merge_all(benchmark::State& state) {
  const auto& in = bench::runs(bench::size_of(state));
  std::size_t size = 0;
  for (auto _ : state) {
    ccrc::profile all = ccrc::merge_all(in.cctb.size(), [&](std::size_t i) { return ccrc::read_cctb(in.cctb[i]); },
                                        {.threads = static_cast<unsigned>(state.range(1))});
    size = all.size();
  }
  report(state, in, size);
}

BENCHMARK(read_only)->Arg(100)->Arg(1000)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);
BENCHMARK(merge_all)->Args({100, 1})->Args({100, 2})->Args({1000, 1})->Args({1000, 2})
    ->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);

}  // namespace

CCRC_BENCHMARK_MAIN();
