// The programs whose profiles tests/instrument/check.cpp checks for functions the compiler
// inlines (issue 46): compiled with -O2 -finstrument-functions, whatever the build type. An
// inlined function keeps its hooks, which run in its host's frame with the host's call site;
// the profile must still show it as the host's callee, and the host's later callees too.
#include "programs.hpp"


#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define NOINLINE __attribute__((noinline))

volatile int sink;  // keeps the calls from being optimised away

// inlined: main calls caller() 3 times; caller() runs the inlined helper() (itself running
// the inlined helper_inner()), the inlined leaf_inline() 3 times in a loop, the inlined
// wraps_callee() (leaf_inline(), then the real deep_callee()), then the real callee().
NOINLINE void callee() { sink = sink + 1; }
NOINLINE void deep_callee() { sink = sink + 2; }
inline void helper_inner() { sink = sink + 3; }
inline void helper() {
  helper_inner();
  sink = sink + 4;
}
inline void leaf_inline() { sink = sink + 5; }
inline void wraps_callee() {
  leaf_inline();
  deep_callee();
}
NOINLINE void caller() {
  helper();
  for (int i = 0; i < 3; ++i) leaf_inline();
  wraps_callee();
  callee();
}

// atomic_deep: a recursion 1,000,000 levels deep (on a thread with a 256 MiB stack), each
// level incrementing a std::atomic first: the standard library's operator++, instrumented and
// inlined into recurse().
std::atomic<int> counter;
NOINLINE void recurse(int n) {
  ++counter;
  if (n > 1) recurse(n - 1);
  sink = sink + 1;
}
NOINLINE void* deep_thread(void*) {
  recurse(1000000);
  return nullptr;
}
NOINLINE void atomic_deep() { test_program::run_with_big_stack(deep_thread); }

int main(int argc, char** argv) {
  const char* scenario = argc > 1 ? argv[1] : "";
  if (std::strcmp(scenario, "inlined") == 0) {
    for (int i = 0; i < 3; ++i) caller();
  } else if (std::strcmp(scenario, "atomic_deep") == 0) {
    atomic_deep();
  } else {
    std::fprintf(stderr, "inlined: unknown scenario '%s'\n", scenario);
    return 2;
  }
  return 0;
}
