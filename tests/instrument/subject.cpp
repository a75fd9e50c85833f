// The programs whose profiles tests/instrument/check.cpp checks: compiled with
// -finstrument-functions and linked with libccrc_instrument, one scenario per run
// (argv[1]). Each call tree is known exactly; the expected counts are derived in check.cpp.
// Only C-style code here: an instrumented template of the standard library would add its own
// contexts to the tree.
#include "programs.hpp"

#include <dlfcn.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#define NOINLINE __attribute__((noinline))

volatile int sink;  // keeps the calls from being optimised away

// loops: 10 outer, 3 inner each, 2 leaves each.
NOINLINE void leaf() { sink = sink + 1; }
NOINLINE void inner() {
  leaf();
  leaf();
}
NOINLINE void outer() {
  for (int j = 0; j < 3; ++j) inner();
}
NOINLINE void loops() {
  for (int i = 0; i < 10; ++i) outer();
}

// Mutual recursion, with C names (not mangled): is_even(7) -> is_odd(6) -> ... -> is_odd(0).
extern "C" NOINLINE int is_odd(int n);
extern "C" NOINLINE int is_even(int n) { return n == 0 ? 1 : is_odd(n - 1); }
extern "C" NOINLINE int is_odd(int n) { return n == 0 ? 0 : is_even(n - 1); }

// Two threads running the same function on different work.
NOINLINE void work_a() { sink = sink + 2; }
NOINLINE void work_b() { sink = sink + 3; }
NOINLINE void common() { sink = sink + 4; }
NOINLINE void* worker(void* which) {
  bool a = which != nullptr;
  for (int i = 0; i < (a ? 5 : 7); ++i) a ? work_a() : work_b();
  for (int i = 0; i < 3; ++i) common();
  return nullptr;
}
NOINLINE void threads() {
  pthread_t t[2];
  int tag = 1;
  pthread_create(&t[0], nullptr, worker, &tag);
  pthread_create(&t[1], nullptr, worker, nullptr);
  pthread_join(t[0], nullptr);
  pthread_join(t[1], nullptr);
}

// An exception thrown through three frames (thrower, middle, top_frame), caught in catcher.
NOINLINE void thrower() { throw 42; }
NOINLINE void middle() {
  thrower();
  sink = sink + 1;
}
NOINLINE void top_frame() {
  middle();
  sink = sink + 1;
}
NOINLINE void after_catch() { sink = sink + 1; }
NOINLINE void catcher() {
  for (int i = 0; i < 5; ++i) {
    try {
      top_frame();
    } catch (int) {
      after_catch();
    }
  }
}

// exit() three frames down.
NOINLINE void level2() { std::exit(7); }
NOINLINE void level1() { level2(); }
NOINLINE void exit_deep() { level1(); }

// fork: the parent calls before_fork once and parent_work twice, the child child_work three times.
NOINLINE void before_fork() { sink = sink + 1; }
NOINLINE void parent_work() { sink = sink + 1; }
NOINLINE void child_work() { sink = sink + 1; }
NOINLINE void forking() {
  before_fork();
  pid_t child = fork();
  if (child == 0) {
    for (int i = 0; i < 3; ++i) child_work();
    std::exit(0);
  }
  int status = 0;
  waitpid(child, &status, 0);
  for (int i = 0; i < 2; ++i) parent_work();
}

// A thread still running when the process exits, blocked in blocked().
int ready_pipe[2];
NOINLINE void blocked() {
  char c = 'r';
  if (write(ready_pipe[1], &c, 1) != 1) std::abort();
  for (;;) pause();
}
NOINLINE void* sleeper(void*) {
  blocked();
  return nullptr;
}
NOINLINE void live_thread() {
  if (pipe(ready_pipe) != 0) std::abort();
  pthread_t t;
  pthread_create(&t, nullptr, sleeper, nullptr);
  char c = 0;
  if (read(ready_pipe[0], &c, 1) != 1) std::abort();
}

// A pool of 3 threads taking 12 tasks from a shared counter: however the tasks fall, 12 calls
// of task() and 24 of task_step() under the 3 pool_worker() roots.
int next_task;
NOINLINE void task_step() { sink = sink + 1; }
NOINLINE void task() {
  task_step();
  task_step();
}
NOINLINE void* pool_worker(void*) {
  while (__atomic_fetch_add(&next_task, 1, __ATOMIC_RELAXED) < 12) task();
  return nullptr;
}
NOINLINE void pool() {
  pthread_t t[3];
  for (pthread_t& w : t) pthread_create(&w, nullptr, pool_worker, nullptr);
  for (pthread_t& w : t) pthread_join(w, nullptr);
}

// A detached thread that calls detached_work() 4 times, then tells main, which returns at once:
// the thread's end and the process's exit race for its tree.
int detached_pipe[2];
NOINLINE void detached_work() { sink = sink + 1; }
NOINLINE void* detached_worker(void*) {
  for (int i = 0; i < 4; ++i) detached_work();
  char c = 'd';
  if (write(detached_pipe[1], &c, 1) != 1) std::abort();
  return nullptr;
}
NOINLINE void detached() {
  if (pipe(detached_pipe) != 0) std::abort();
  pthread_t t;
  pthread_create(&t, nullptr, detached_worker, nullptr);
  pthread_detach(t);
  char c = 0;
  if (read(detached_pipe[0], &c, 1) != 1) std::abort();
}

// A signal handler, itself instrumented, run 5 times from signalling() (raise delivers the
// signal before it returns), calling handled() each time.
NOINLINE void handled() { sink = sink + 1; }
NOINLINE void on_signal(int) { handled(); }
NOINLINE void signalling() {
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigaction(SIGUSR1, &action, nullptr);
  for (int i = 0; i < 5; ++i) raise(SIGUSR1);
}

// Signals that land while the thread is inside a hook (issue 37): SIGALRM `delay_us` after the
// handler last returned, while the main thread calls storm_leaf() without pause (most of its
// time is then in the hooks), until the handler has run `signals` times. The handler counts
// its runs itself, and the count is printed: the profile must hold exactly as many.
volatile sig_atomic_t ticks;
NOINLINE void tick_work() { sink = sink + 1; }
NOINLINE void on_tick(int) {
  tick_work();
  ticks = ticks + 1;
}
// A handler of 3,001 calls: more than a thread can set aside (1,024) while its hook is
// interrupted.
NOINLINE void burst_leaf() { sink = sink + 1; }
NOINLINE void on_burst(int) {
  for (int i = 0; i < 3000; ++i) burst_leaf();
  ticks = ticks + 1;
}
NOINLINE void storm_leaf() { sink = sink + 1; }
NOINLINE void storm(void (*handler)(int), int signals, long delay_us) {
  struct sigaction action {};
  action.sa_handler = handler;
  sigaction(SIGALRM, &action, nullptr);
  // One signal at a time, armed again once the last was handled: the main thread runs between
  // them however long the handler takes.
  itimerval once{{0, 0}, {0, delay_us}};
  for (int armed = -1; ticks < signals; storm_leaf()) {
    if (armed != ticks) {
      armed = ticks;
      setitimer(ITIMER_REAL, &once, nullptr);
    }
  }
  std::printf("%d\n", static_cast<int>(ticks));
}

// longjmp out of two frames (jump_a, jump_b), 3 times: no exit hook runs for them, and the
// next call, after_jump(), must be counted under longjumps(), not under jump_b().
jmp_buf jump_target;
NOINLINE void jump_b() { longjmp(jump_target, 1); }
NOINLINE void jump_a() {
  jump_b();
  sink = sink + 1;
}
NOINLINE void after_jump() { sink = sink + 1; }
NOINLINE void longjumps() {
  for (volatile int i = 0; i < 3; i = i + 1) {
    if (setjmp(jump_target) == 0) jump_a();
    after_jump();
  }
}

// statics: a function the loader cannot name (static: not in the dynamic symbol table), called
// 4 times; the profile names it by module and offset until `ccrc symbolize` names it.
static NOINLINE void hidden_helper() { sink = sink + 1; }
NOINLINE void statics() {
  for (int i = 0; i < 4; ++i) hidden_helper();
}

// plugins ONE TWO: the plugin ONE (tests/instrument/plugin.cpp) loaded, its one_work(3)
// called, and unloaded; then TWO loaded, where ONE was, its two_work(2) called twice, and
// unloaded. Prints the address of each plugin's function: the same two, for the test to mean
// something.
using work_function = void (*)(unsigned);
NOINLINE void run_plugin(const char* path, const char* symbol, unsigned n, int times) {
  void* plugin = nullptr;
  auto work = test_program::load_plugin<work_function>(path, symbol, &plugin);
  for (int i = 0; i < times; ++i) work(n);
  std::printf("%p\n", reinterpret_cast<void*>(work));
  dlclose(plugin);
}
NOINLINE void plugins(const char* one, const char* two) {
  run_plugin(one, "one_work", 3, 1);
  run_plugin(two, "two_work", 2, 2);
}

// sigprof: the program's own SIGPROF handler (installed with signal(), raised 3 times) calls
// prof_work() each time; then SIGPROF is set back to its default and the program works on,
// while sampled timing's timer keeps sending SIGPROF: it must neither end the program nor
// reach the handler. Prints 1 if sigaction reports the program's own handler.
NOINLINE void prof_work() { sink = sink + 1; }
NOINLINE void on_prof(int) { prof_work(); }
NOINLINE void spin_plain() {  // 10^8 additions, no call: 0.1 s or so of CPU time
  for (int i = 0; i < 100'000'000; ++i) sink = sink + 1;
}
NOINLINE void sigprof() {
  signal(SIGPROF, on_prof);
  struct sigaction now {};
  sigaction(SIGPROF, nullptr, &now);
  std::printf("%d\n", now.sa_handler == on_prof ? 1 : 0);
  for (int i = 0; i < 3; ++i) raise(SIGPROF);
  signal(SIGPROF, SIG_DFL);
  spin_plain();
}

// Exit events without their entries, as a thread started before the library loaded sends.
extern "C" void __cyg_profile_func_exit(void* fn, void* call_site);
NOINLINE void unbalanced() {
  __cyg_profile_func_exit(reinterpret_cast<void*>(&leaf), nullptr);
  __cyg_profile_func_exit(reinterpret_cast<void*>(&outer), nullptr);
  loops();
}

int main(int argc, char** argv) {
  const char* scenario = argc > 1 ? argv[1] : "";
  if (std::strcmp(scenario, "loops") == 0 || std::strcmp(scenario, "unwritable") == 0) {
    loops();
    is_even(7);
    is_even(7);
    return scenario[0] == 'u' ? 3 : 0;
  }
  if (std::strcmp(scenario, "output") == 0) {
    // Output left in stdio's buffer until exit, and a status of its own.
    std::printf("the program's own output\n");
    loops();
    is_even(7);
    is_even(7);
    return 5;
  }
  if (std::strcmp(scenario, "stdout") == 0) {
    // Written to stdout before the profile is.
    if (write(1, "before the profile\n", 19) != 19) return 1;
    loops();
    is_even(7);
    is_even(7);
    return 0;
  }
  if (std::strcmp(scenario, "quick_exit") == 0) {
    loops();
    std::quick_exit(4);
  }
  if (std::strcmp(scenario, "threads") == 0) threads();
  else if (std::strcmp(scenario, "exception") == 0) catcher();
  else if (std::strcmp(scenario, "exit") == 0) exit_deep();
  else if (std::strcmp(scenario, "fork") == 0) forking();
  else if (std::strcmp(scenario, "live_thread") == 0) live_thread();
  else if (std::strcmp(scenario, "unbalanced") == 0) unbalanced();
  else if (std::strcmp(scenario, "statics") == 0) statics();
  else if (std::strcmp(scenario, "pool") == 0) pool();
  else if (std::strcmp(scenario, "detached") == 0) detached();
  else if (std::strcmp(scenario, "signal") == 0) signalling();
  else if (std::strcmp(scenario, "longjmp") == 0) longjumps();
  else if (std::strcmp(scenario, "signal_storm") == 0) storm(on_tick, 2000, 100);
  else if (std::strcmp(scenario, "signal_burst") == 0) storm(on_burst, 300, 100);
  else if (std::strcmp(scenario, "plugins") == 0 && argc == 4) plugins(argv[2], argv[3]);
  else if (std::strcmp(scenario, "sigprof") == 0) sigprof();
  else {
    std::fprintf(stderr, "subject: unknown scenario '%s'\n", scenario);
    return 2;
  }
  return 0;
}
