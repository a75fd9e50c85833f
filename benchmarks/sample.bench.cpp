// What one sample of libccrc_sample costs the sampled thread (issue 13): the signal's delivery
// and its handler's walk of the stack into the thread's ring (the very code of
// examples/instrument/sample_ring.hpp), the stack being `depth` frames deep. The thread sends
// itself the signal (raise: delivered before it returns), as the CPU-time timer does at a
// tick; beside it, in the same run, the same signal with a handler that does nothing (the
// kernel's share, the floor). Per sample, and per frame walked. The sampling rate times this
// cost is the fraction of the program's CPU time sampling takes (the drain, on its own thread,
// is not counted here).
#include "support/main.hpp"

#include "sample_ring.hpp"

#include <benchmark/benchmark.h>

#include <signal.h>

#include <cstdint>
#include <cstdlib>
#include <span>
#include <vector>

namespace {

ccrc_sampling::sample_ring ring;
volatile sig_atomic_t walking = 0;
volatile int sink;

void on_signal(int) {
  if (walking && ring.free_words() < 2048 + 1) ring.forget();  // stands for the drain, O(1)
  if (walking) ccrc_sampling::record_stack(ring, 2048, 0, 1);
}

void install() {
  static bool done = [] {
    if (!ccrc_sampling::load_libgcc_unwinder()) std::abort();
    struct sigaction action {};
    action.sa_handler = on_signal;
    sigemptyset(&action.sa_mask);
    sigaction(SIGUSR2, &action, nullptr);
    return true;
  }();
  (void)done;
}

// The benchmark's loop, run `depth` frames below where it was called.
__attribute__((noinline)) void at_depth(benchmark::State& state, int depth) {
  if (depth > 1) {
    at_depth(state, depth - 1);
    sink = sink + 1;  // not a tail call: every level keeps its frame
    return;
  }
  for (auto _ : state) raise(SIGUSR2);
}

// The frames one sample walks at `depth` (the benchmark's own callers included).
__attribute__((noinline)) std::size_t walk_at_depth(int depth) {
  if (depth > 1) {
    std::size_t n = walk_at_depth(depth - 1);
    sink = sink + 1;
    return n;
  }
  ring.forget();
  walking = 1;
  raise(SIGUSR2);
  walking = 0;
  std::size_t frames = 0;
  std::vector<std::uint64_t> scratch;
  ring.drain(scratch, [&](std::uint64_t, std::span<const std::uint64_t> f) { frames = f.size(); });
  return frames;
}

std::size_t frames_walked(int depth) { return walk_at_depth(depth); }

void run(benchmark::State& state, bool walk) {
  install();
  walking = walk;
  const int depth = static_cast<int>(state.range(0));
  at_depth(state, depth);
  walking = 0;
  state.SetItemsProcessed(state.iterations());
  state.counters["ns_per_sample"] =
      benchmark::Counter(1e-9, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.counters["frames"] = static_cast<double>(frames_walked(depth));
}

void signal_empty(benchmark::State& state) { run(state, false); }
void signal_and_walk(benchmark::State& state) { run(state, true); }

}  // namespace

BENCHMARK(signal_empty)->Arg(10)->Arg(50)->Arg(200)->Arg(1000);
BENCHMARK(signal_and_walk)->Arg(10)->Arg(50)->Arg(200)->Arg(1000);
CCRC_BENCHMARK_MAIN()
