// Counting every heap allocation, for the memory benchmarks: replaces the global operator
// new and delete, so include it in exactly one file of a program (its .bench.cpp).
#pragma once

#include "support/trace.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <new>

namespace bench {

/// Bytes held by live allocations, with glibc's overhead (see malloc_footprint), and their number.
inline std::atomic<std::size_t> live_bytes{0};
inline std::atomic<std::size_t> live_blocks{0};
/// The most live_bytes has been since the last peak_tracker began (see peak_tracker).
inline std::atomic<std::size_t> peak_bytes{0};

/// The peak heap of a step above what was live when it began:
///
///     bench::peak_tracker peak;   // resets the peak to what is live now
///     step();
///     std::size_t extra = peak.bytes();
///
/// One at a time (they share peak_bytes); allocations of other threads count too.
class peak_tracker {
 public:
  peak_tracker() noexcept : before_(live_bytes) { peak_bytes = before_; }
  /// The peak since construction, minus what was live then.
  [[nodiscard]] std::size_t bytes() const noexcept { return peak_bytes - before_; }

 private:
  std::size_t before_;
};

/// glibc's malloc adds 8 bytes to a block and rounds it up to 16.
constexpr std::size_t malloc_footprint(std::size_t n) { return std::max<std::size_t>(32, (n + 8 + 15) / 16 * 16); }

/// The bytes and allocations per context that build(t, tree) adds to the empty tree make(t)
/// returns (symbols excluded: the naive tree keeps none), as counters.
template <class Make, class Build>
void measure_memory(benchmark::State& state, const trace& t, Make make, Build build) {
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

}  // namespace bench

// The replacements free what malloc gave them; GCC, inlining them where a new-expression's
// pointer is deleted, would see free() of a new'd pointer.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void* operator new(std::size_t n) {
  std::size_t now = bench::live_bytes += bench::malloc_footprint(n);
  ++bench::live_blocks;
  for (std::size_t old = bench::peak_bytes; now > old && !bench::peak_bytes.compare_exchange_weak(old, now);) {
  }
  if (void* p = std::malloc(n)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p, std::size_t n) noexcept {
  bench::live_bytes -= bench::malloc_footprint(n);
  --bench::live_blocks;
  std::free(p);
}
void operator delete(void* p) noexcept { std::free(p); }  // unsized: not used by the code measured
#pragma GCC diagnostic pop
