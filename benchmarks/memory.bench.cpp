// Bytes per calling context: ccrc's cct against the naive pointer-based tree, both holding
// the same two metrics, counted by a global allocation hook (this program only).
#include "support/allocation_hook.hpp"
#include "support/ccrc_trees.hpp"
#include "support/main.hpp"

#include <benchmark/benchmark.h>

#include <memory>

namespace {

// The bytes `build` adds to an empty tree made by `make`.
template <class Make, class Build>
void measure(benchmark::State& state, Make make, Build build) {
  bench::measure_memory(state, bench::trace_of(bench::size_of(state)), make, build);
}

void memory_cct(benchmark::State& state) {
  measure(
      state, [](const bench::trace& t) { return std::make_unique<bench::cct>(bench::with_symbols(t)); },
      [](const bench::trace& t, bench::cct& tree) { bench::replay(t, tree); });
}

void memory_naive(benchmark::State& state) {
  measure(
      state, [](const bench::trace&) { return std::make_unique<bench::naive_node>(); },
      [](const bench::trace& t, bench::naive_node& root) {
        bench::naive_node* cur = &root;
        for (std::uint32_t e : t.events) cur = e == bench::trace::exit_event ? cur->parent : cur->child(ccrc::frame_id{e});
      });
}

}  // namespace

BENCHMARK(memory_cct)->RangeMultiplier(10)->Range(10'000, 10'000'000)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(memory_naive)->RangeMultiplier(10)->Range(10'000, 10'000'000)->Iterations(1)->Unit(benchmark::kMillisecond);

CCRC_BENCHMARK_MAIN()
