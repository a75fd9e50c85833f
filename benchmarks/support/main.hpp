// The main() of every benchmark program.
#pragma once

#include <benchmark/benchmark.h>

#include <malloc.h>

namespace bench {

/// Runs the registered benchmarks after telling glibc to keep freed memory in the process:
/// no mmap for large blocks, no trimming. Otherwise each iteration that builds a tree in big
/// arrays pays the kernel's page faults again (costly in a VM), while a baseline made of
/// small blocks reuses malloc's free lists: the comparison would measure the allocator.
inline int run_main(int argc, char** argv) {
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, -1);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

}  // namespace bench

/// The main() of a benchmark program: bench::run_main.
#define CCRC_BENCHMARK_MAIN() \
  int main(int argc, char** argv) { return bench::run_main(argc, argv); }
