// The program tests/instrument/sample_check.cpp profiles, built twice from this one source:
// linked with libccrc_sample (sampled), and compiled with -finstrument-functions and linked
// with libccrc_instrument (instrumented), so that the two profiles can be compared. Every
// scenario (argv[1]) burns a known amount of CPU time in known functions; its call graph is
// written out in sample_check.cpp. Only C-style code here: an instrumented template of the
// standard library would add its own contexts.
#include "programs.hpp"

#include <dlfcn.h>
#include <pthread.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#define NOINLINE __attribute__((noinline))

volatile unsigned sink;  // keeps the loops from being optimised away

// The innermost function, where most samples land: static, so that the loader cannot name it
// (the profile says SUBJECT+0xOFFSET until `ccrc symbolize` names it).
static NOINLINE void step(unsigned i) { sink = sink * 31 + i; }

// The two hot functions: the same loop, burn_a given three times burn_b's iterations.
NOINLINE void burn_a(unsigned n) {
  for (unsigned i = 0; i < n; ++i) step(i);
}
NOINLINE void burn_b(unsigned n) {
  for (unsigned i = 0; i < n; ++i) step(i);
}

NOINLINE double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

// Rounds of burn_a(3k) then burn_b(k) until the thread has used `seconds` more CPU time: 3/4
// of it in burn_a, 1/4 in burn_b. k is drawn afresh each round (10,000 to 50,000 iterations),
// so that the alternation has no period for the sampling timer to lock onto.
NOINLINE void rounds(double seconds, unsigned seed) {
  const double end = thread_cpu_seconds() + seconds;
  unsigned x = seed;
  while (thread_cpu_seconds() < end) {
    x = x * 1103515245u + 12345u;
    unsigned k = 10000 + (x >> 8) % 40000;
    burn_a(3 * k);
    burn_b(k);
  }
}

double seconds_per_worker = 1.0;

// ratio [SECONDS]: two threads, each burning SECONDS (default 1) of CPU time, the second one
// level deeper; each prints its thread's CPU time ("worker_one 1.000123"), which the profile
// must account for.
NOINLINE void* worker_one(void*) {
  rounds(seconds_per_worker, 1);
  std::printf("worker_one %.6f\n", thread_cpu_seconds());
  return nullptr;
}
NOINLINE void middle() {
  rounds(seconds_per_worker, 2);
  sink = sink + 1;  // not a tail call: middle() keeps its frame
}
NOINLINE void* worker_two(void*) {
  middle();
  std::printf("worker_two %.6f\n", thread_cpu_seconds());
  return nullptr;
}
NOINLINE void ratio() {
  pthread_t t[2];
  if (pthread_create(&t[0], nullptr, worker_one, nullptr) != 0) std::abort();
  if (pthread_create(&t[1], nullptr, worker_two, nullptr) != 0) std::abort();
  pthread_join(t[0], nullptr);
  pthread_join(t[1], nullptr);
}

// fork: the parent burns in before_fork() and parent_work(), the child in child_work() only.
NOINLINE void before_fork() { rounds(0.2, 3); }
NOINLINE void parent_work() { rounds(0.2, 4); }
NOINLINE void child_work() { rounds(0.3, 5); }
NOINLINE void forking() {
  before_fork();
  std::fflush(stdout);
  pid_t child = fork();
  if (child == 0) {
    child_work();
    std::exit(0);
  }
  int status = 0;
  waitpid(child, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) std::abort();
  parent_work();
}

// exit: exit(7) from below a burn, two frames down.
NOINLINE void exit_inner() {
  rounds(0.2, 6);
  std::exit(7);
}
NOINLINE void exiting() {
  exit_inner();
  sink = sink + 1;
}

// deep: a recursion 200 levels deep burning at the bottom, sampled at most 64 frames deep.
NOINLINE void recurse(int n) {
  if (n > 1) recurse(n - 1);
  else rounds(0.2, 7);
  sink = sink + 1;
}

// plugins ONE TWO: the plugin ONE (tests/instrument/plugin.cpp) loaded, its one_burn() run
// for 0.3 s of CPU time, and unloaded; then TWO loaded, where ONE was, and its two_burn() run
// as long. Prints the address of each plugin's function: the same two, for the test to mean
// something.
using burn_function = void (*)(double);
NOINLINE void run_plugin(const char* path, const char* symbol) {
  void* plugin = nullptr;
  auto burn = test_program::load_plugin<burn_function>(path, symbol, &plugin);
  burn(0.3);
  std::printf("%p\n", reinterpret_cast<void*>(burn));
  dlclose(plugin);
}
NOINLINE void plugins(const char* one, const char* two) {
  run_plugin(one, "one_burn");
  run_plugin(two, "two_burn");
}

int main(int argc, char** argv) {
  const char* scenario = argc > 1 ? argv[1] : "";
  if (std::strcmp(scenario, "ratio") == 0) {
    if (argc > 2) seconds_per_worker = std::atof(argv[2]);
    ratio();
  }
  else if (std::strcmp(scenario, "fork") == 0) forking();
  else if (std::strcmp(scenario, "exit") == 0) exiting();
  else if (std::strcmp(scenario, "deep") == 0) recurse(200);
  else if (std::strcmp(scenario, "plugins") == 0 && argc == 4) plugins(argv[2], argv[3]);
  else if (std::strcmp(scenario, "unwritable") == 0) {
    rounds(0.05, 8);
    return 3;
  } else {
    std::fprintf(stderr, "workload: unknown scenario '%s'\n", scenario);
    return 2;
  }
  return 0;
}
