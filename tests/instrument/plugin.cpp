// A plugin for the tests of modules the program unloads (tests/instrument/subject.cpp and
// workload.cpp load one, call it, unload it, then load the other): built twice from this one
// source, as libccrc_plugin_one.so (PLUGIN=one) and libccrc_plugin_two.so (PLUGIN=two), names
// of one length, so that the two are laid out alike and the second, loaded where the first
// was, has each function at the first's address. Plain for libccrc_sample, and again with
// -finstrument-functions for libccrc_instrument.
#include <time.h>

#define NOINLINE __attribute__((noinline))
#define JOIN(a, b) a##b
#define PLUGIN_FUNCTION(plugin, name) JOIN(plugin, name)

namespace {

volatile unsigned sink;

// Static: the loader cannot name it; the profiles name it MODULE+0xOFFSET, the module's own.
NOINLINE void spin(unsigned i) { sink = sink * 31 + i; }

double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

}  // namespace

// spin() n times.
extern "C" NOINLINE void PLUGIN_FUNCTION(PLUGIN, _work)(unsigned n) {
  for (unsigned i = 0; i < n; ++i) spin(i);
}

// spin() until the thread has used `seconds` more CPU time.
extern "C" NOINLINE void PLUGIN_FUNCTION(PLUGIN, _burn)(double seconds) {
  const double end = thread_cpu_seconds() + seconds;
  while (thread_cpu_seconds() < end)
    for (unsigned i = 0; i < 20000; ++i) spin(i);
}
