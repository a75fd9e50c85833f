// The heap a reader holds at its peak, counted with malloc_usable_size: replaces the global
// operator new and delete (unsized deletes included, as simdjson's buffers use them), so
// include it in exactly one file of a program (its .bench.cpp).
#pragma once

#include <ccrc/tree/profile.hpp>

#include <benchmark/benchmark.h>
#include <malloc.h>

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <new>

namespace bench {

/// Bytes of the live heap blocks, and the most they reached since reset by a heap_mark.
inline std::atomic<std::size_t> heap_live{0}, heap_peak{0};

/// Where a step starts: peak() is the most the heap grew above it since.
struct heap_mark {
  std::size_t before = heap_live;
  heap_mark() { heap_peak = before; }
  [[nodiscard]] std::size_t peak() const { return heap_peak - before; }
};

/// Times read() (which returns a ccrc::profile) per iteration, and sets the counters
/// `contexts` (the profile's nodes less `uncounted`: the root, or frames the reader adds),
/// `tree_bytes_per_context` and `peak_bytes_per_context` (the heap above what was live before
/// the read, at its peak).
template <class Read>
void time_read(benchmark::State& state, Read read, std::size_t uncounted) {
  std::size_t contexts = 0, tree_bytes = 0, peak = 0;
  for (auto _ : state) {
    heap_mark mark;
    ccrc::profile p = read();
    peak = mark.peak();
    contexts = p.size() - uncounted;
    tree_bytes = p.memory_bytes();
    benchmark::DoNotOptimize(p.size());
  }
  state.counters["contexts"] = static_cast<double>(contexts);
  state.counters["tree_bytes_per_context"] = static_cast<double>(tree_bytes) / static_cast<double>(contexts);
  state.counters["peak_bytes_per_context"] = static_cast<double>(peak) / static_cast<double>(contexts);
}

}  // namespace bench

// The replacements free what malloc gave them; GCC, inlining them where a new-expression's
// pointer is deleted, would see free() of a new'd pointer.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void* operator new(std::size_t n) {
  void* p = std::malloc(n == 0 ? 1 : n);
  if (!p) throw std::bad_alloc();
  std::size_t now = bench::heap_live += malloc_usable_size(p);
  for (std::size_t old = bench::heap_peak; now > old && !bench::heap_peak.compare_exchange_weak(old, now);) {
  }
  return p;
}
void operator delete(void* p) noexcept {
  if (p) bench::heap_live -= malloc_usable_size(p);
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept { operator delete(p); }
#pragma GCC diagnostic pop
