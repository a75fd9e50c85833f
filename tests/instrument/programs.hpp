// What the profiled test programs share (subject.cpp, inlined.cpp, workload.cpp): helpers
// that are not instrumented, so that they have no context of their own.
#pragma once

#include <dlfcn.h>
#include <pthread.h>

#include <cstddef>
#include <cstdio>
#include <cstdlib>

namespace test_program {

/// Runs `start` on a thread with a 256 MiB stack and waits for it: a recursion 1,000,000
/// levels deep takes 32 to 48 bytes a level at -O0 and under sanitizers (measured with g++
/// and clang), beyond the 8 MB of a default stack.
__attribute__((no_instrument_function)) inline void run_with_big_stack(void* (*start)(void*)) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, std::size_t{256} << 20);
  pthread_t t;
  if (pthread_create(&t, &attr, start, nullptr) != 0) std::abort();
  pthread_join(t, nullptr);
  pthread_attr_destroy(&attr);
}

/// Loads the plugin at `path` (tests/instrument/plugin.cpp) and finds its function `symbol`,
/// as a Function; *handle, for dlclose. Exits with status 3, saying why, if it cannot.
template <class Function>
__attribute__((no_instrument_function)) Function load_plugin(const char* path, const char* symbol, void** handle) {
  *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  void* function = *handle ? dlsym(*handle, symbol) : nullptr;
  if (function == nullptr) {
    std::fprintf(stderr, "%s\n", dlerror());
    std::exit(3);
  }
  return reinterpret_cast<Function>(function);
}

}  // namespace test_program
