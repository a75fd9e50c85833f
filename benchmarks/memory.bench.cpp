// Bytes per calling context: ccrc's cct against the naive pointer-based tree, both holding
// the same two metrics, counted by a global allocation hook (this program only).
#include "support/ccrc_trees.hpp"
#include "support/main.hpp"

#include <benchmark/benchmark.h>

#include <atomic>
#include <cstdlib>
#include <new>

namespace {

std::atomic<std::size_t> live_bytes{0};
std::atomic<std::size_t> live_blocks{0};

// glibc's malloc adds 8 bytes to a block and rounds it up to 16.
constexpr std::size_t malloc_footprint(std::size_t n) { return std::max<std::size_t>(32, (n + 8 + 15) / 16 * 16); }

}  // namespace

void* operator new(std::size_t n) {
  live_bytes += malloc_footprint(n);
  ++live_blocks;
  if (void* p = std::malloc(n)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p, std::size_t n) noexcept {
  live_bytes -= malloc_footprint(n);
  --live_blocks;
  std::free(p);
}
void operator delete(void* p) noexcept { std::free(p); }  // unsized: not used by the code measured

namespace {

// The bytes `build` adds to an empty tree made by `make` (symbols excluded: the naive tree
// keeps none).
template <class Make, class Build>
void measure(benchmark::State& state, Make make, Build build) {
  const bench::trace& t = bench::trace_of(static_cast<std::size_t>(state.range(0)));
  double bytes = 0, blocks = 0;
  for (auto _ : state) {
    auto tree = make(t);
    std::size_t before = live_bytes, blocks_before = live_blocks;
    build(t, *tree);
    bytes = static_cast<double>(live_bytes - before);
    blocks = static_cast<double>(live_blocks - blocks_before);
    benchmark::DoNotOptimize(tree);
  }
  state.counters["bytes_per_node"] = bytes / static_cast<double>(t.nodes + 1);
  state.counters["allocations_per_node"] = blocks / static_cast<double>(t.nodes + 1);
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
        for (std::uint32_t e : t.events) cur = e == bench::trace::exit_event ? cur->parent : cur->child(e);
      });
}

}  // namespace

BENCHMARK(memory_cct)->RangeMultiplier(10)->Range(10'000, 10'000'000)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(memory_naive)->RangeMultiplier(10)->Range(10'000, 10'000'000)->Iterations(1)->Unit(benchmark::kMillisecond);

CCRC_BENCHMARK_MAIN()
