// libccrc_sample: a sampling calling context profiler for C and C++ programs, on the same
// library as libccrc_instrument and needing no recompilation. Each thread has a timer on its
// own CPU-time clock that sends it SIGPROF once per interval of CPU time; the handler walks the
// thread's stack (libgcc's DWARF unwinder) and copies the addresses into the thread's ring
// buffer; a background thread drains the rings into one ccrc::cct (add_path: one path per
// sample), each new address interned as its module and offset, and the profile is written as
// .cctb when the process exits, the functions named then, or, for a module the program
// unloads, when it does (dlclose is interposed).
// docs/instrument.md ("Sampling: libccrc_sample") has the usage, the environment and the limits.
//
// The signal handler allocates nothing, takes no lock and calls nothing but the unwinder
// (sample_ring.hpp says why that is async-signal-safe); it writes its own thread's ring, whose
// only reader is the drain. Everything else (a thread's state, ring and timer, the tree, the
// names) is made outside it. Threads are registered by interposing pthread_create, so the
// library is linked to the program or LD_PRELOADed (not dlopened).
#include "runtime.hpp"
#include "sample_ring.hpp"

#include <ccrc/tree/cct.hpp>

#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

// Thread-locals in the initial-exec model: read in the signal handler, where __tls_get_addr
// (which may allocate) must not be called.
#define CCRC_TLS __attribute__((tls_model("initial-exec"))) constinit thread_local

namespace {

// While the program runs: per context, the samples (signals) and the intervals of CPU time
// they stand for (a signal the kernel delivered late stands for its overruns too).
using tree_type = ccrc::cct<ccrc::metric<"samples">, ccrc::metric<"intervals">>;
using profile_type = ccrc::cct<ccrc::metric<"samples", double>, ccrc::metric<"cpu_ns", double>>;

constexpr long drain_period_ns = 10'000'000;

using ccrc_sampling::sample_ring;

struct thread_state {
  sample_ring ring;
  // The entry of the library's thread start function, which calls the thread's own: the walk
  // stops below it, so that a thread's samples start at its start function, as
  // libccrc_instrument's contexts do. 0 for a thread the library did not start.
  std::uintptr_t stop_at = 0;
  std::optional<timer_t> timer;
  std::atomic<std::uint64_t> lost_samples{0}, lost_intervals{0};  // the ring was full
  std::atomic<bool> ended{false};  // set by the thread at its end; the drain then frees it
  thread_state* next = nullptr;
};

struct settings {
  std::uint64_t interval_ns = 10'000'000;  // $CCRC_SAMPLE_HZ, default 100
  std::size_t max_depth = 512;             // $CCRC_SAMPLE_DEPTH
};

// Process-wide state, created once and never destroyed (signals and threads run until the end).
// `mutex` guards all of it; the signal handler never takes it, and nothing that holds it calls
// the loader (whose lock a thread in dlopen may hold while it waits for this one).
struct process_state {
  std::mutex mutex;
  thread_state* threads = nullptr;
  tree_type tree;
  ccrc_runtime::address_frames frames;  // address -> frame, forgotten when a module is unloaded
  std::vector<std::uintptr_t> frame_address;  // per frame: the address it was interned for, or 0
  std::vector<std::string> final_name;        // per frame: its name once its module was unloaded
  std::vector<ccrc::frame_id> path;      // the drain's scratch
  std::vector<std::uint64_t> addresses;  // the drain's scratch
  std::uint64_t lost_samples = 0, lost_intervals = 0;  // of threads drained and freed
  bool written = false;
  bool forked_child = false;
  pthread_key_t key{};
  settings config;
};

process_state* process = nullptr;
std::atomic<bool> stopping{false};       // the profile is being written: the handler does nothing
std::atomic<bool> stop_drainer{false};
std::size_t handler_max_depth = 512;     // process->config.max_depth, for the handler

CCRC_TLS thread_state* current = nullptr;  // the handler's way to its thread's ring

using create_function = int (*)(pthread_t*, const pthread_attr_t*, void* (*)(void*), void*);
create_function real_pthread_create = nullptr;

// ---- The signal handler.

// One sample of the thread into its ring (sample_ring.hpp says why the walk is
// async-signal-safe), or counted as lost if the ring has no room for the deepest.
void record_sample(thread_state& s, std::uint64_t intervals) noexcept {
  sample_ring& ring = s.ring;
  if (ring.free_words() < handler_max_depth + 1) {
    s.lost_samples.fetch_add(1, std::memory_order_relaxed);
    s.lost_intervals.fetch_add(intervals, std::memory_order_relaxed);
    return;
  }
  ccrc_sampling::record_stack(ring, handler_max_depth, s.stop_at, intervals);
}

void on_sigprof(int, siginfo_t* info, void*) {
  thread_state* s = current;
  if (s == nullptr || info->si_code != SI_TIMER || stopping.load(std::memory_order_relaxed)) return;
  int saved_errno = errno;
  std::uint64_t overruns = info->si_overrun > 0 ? static_cast<std::uint64_t>(info->si_overrun) : 0;
  record_sample(*s, std::min<std::uint64_t>(1 + overruns, 0xffffffffu));
  errno = saved_errno;
}

// ---- Threads.

// A timer on the calling thread's CPU-time clock, sending SIGPROF to the thread itself.
void start_timer(thread_state& s) noexcept {
  s.timer = ccrc_runtime::start_cpu_timer(process->config.interval_ns, SIGPROF, nullptr);
}

// Starts sampling the calling thread. Outside any signal handler.
void register_thread(std::uintptr_t stop_at) noexcept {
  thread_state* s = nullptr;
  try {
    s = new thread_state;
  } catch (...) {
    return;  // out of memory: this thread is not sampled
  }
  s->stop_at = stop_at;
  {
    std::lock_guard lock(process->mutex);
    if (stopping.load()) {
      delete s;
      return;
    }
    s->next = process->threads;
    process->threads = s;
  }
  pthread_setspecific(process->key, s);
  current = s;
  start_timer(*s);
}

// The thread is ending (a pthread key destructor, on the thread itself): its handler stops
// first, then its timer; a signal still pending finds no state. The drain frees the state after
// reading the samples left in its ring.
void thread_ended(void* p) noexcept {
  auto* s = static_cast<thread_state*>(p);
  current = nullptr;
  std::atomic_signal_fence(std::memory_order_seq_cst);
  if (s->timer) timer_delete(*s->timer);
  s->ended.store(true, std::memory_order_release);
}

struct start_arguments {
  void* (*start)(void*);
  void* arg;
};

// The start function of every thread the program creates: registers it, then runs the
// program's. The walk stops at its frame, so the call must not be a tail call (which would
// replace the frame): the empty asm after it keeps the frame.
void* thread_start(void* p);
std::uintptr_t thread_start_entry() noexcept { return reinterpret_cast<std::uintptr_t>(&thread_start); }

__attribute__((noinline)) void* thread_start(void* p) {
  start_arguments a = *static_cast<start_arguments*>(p);
  delete static_cast<start_arguments*>(p);
  register_thread(thread_start_entry());
  void* result = a.start(a.arg);
  asm volatile("" ::: "memory");
  return result;
}

// ---- The drain: samples to the tree, outside the signal handler.

// The frame of an address: its module and offset, taken while the module is loaded (the
// samples are drained within 10 ms, and before a module is unloaded) and without the loader's
// lock (the mutex is held). Named after the function when the profile is written.
ccrc::frame_id frame_of(std::uint64_t address) {
  ccrc::frame_id f = process->frames.find(address);
  if (f != ccrc::null_frame) return f;
  f = process->tree.intern(ccrc_runtime::module_offset_text(address));
  process->frames.insert(address, f);
  if (f >= process->frame_address.size()) {
    process->frame_address.resize(f + 1, 0);
    process->final_name.resize(f + 1);
  }
  process->frame_address[f] = address;
  return f;
}

void drain(thread_state& s) {  // mutex held
  s.ring.drain(process->addresses, [&](std::uint64_t header, std::span<const std::uint64_t> frames) {
    std::uint64_t intervals = header >> 32;
    try {
      std::vector<ccrc::frame_id>& path = process->path;
      path.clear();
      if (header & ccrc_sampling::truncated_bit) path.push_back(process->tree.intern("[truncated]"));
      for (std::size_t i = frames.size(); i-- > 0;) path.push_back(frame_of(frames[i]));
      process->tree.add_path(path, 1, intervals);
    } catch (...) {  // out of memory: the sample is counted as lost
      s.lost_samples.fetch_add(1, std::memory_order_relaxed);
      s.lost_intervals.fetch_add(intervals, std::memory_order_relaxed);
    }
  });
}

// Drains every thread's ring; frees the states of the threads that ended (unless `keep`).
void drain_all(bool keep) {  // mutex held
  for (thread_state** link = &process->threads; *link != nullptr;) {
    thread_state* s = *link;
    bool ended = s->ended.load(std::memory_order_acquire);  // before draining: its last samples are then visible
    drain(*s);
    if (ended && !keep) {
      *link = s->next;
      process->lost_samples += s->lost_samples.load();
      process->lost_intervals += s->lost_intervals.load();
      delete s;
    } else {
      link = &s->next;
    }
  }
}

// Every drain period until the process writes its profile. The writer does not wait for it (a
// join would cost the program up to a period at exit): if it wakes meanwhile it finds the
// profile written and stops, or drains what little the threads still add.
void* drain_loop(void*) {
  for (;;) {
    timespec period{0, drain_period_ns};
    nanosleep(&period, nullptr);
    if (stop_drainer.load()) return nullptr;
    std::lock_guard lock(process->mutex);
    if (process->written) return nullptr;
    drain_all(false);
  }
}

// The drain thread blocks every signal: the program's handlers do not run on it, and it has
// no timer, so it is never sampled. Created by the C library's pthread_create, not the
// interposed one.
void start_drainer() noexcept {
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  stop_drainer.store(false);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  pthread_t drainer{};
  if (real_pthread_create(&drainer, &attr, drain_loop, nullptr) != 0)
    std::fprintf(stderr, "ccrc: cannot start the sample drain thread\n");
  pthread_attr_destroy(&attr);
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
}

// ---- The profile.

// The profile, each frame named after its function: as named when its module was unloaded,
// else now (resolve(): dladdr, the loader's lock taken, none of the library's held: the
// profile is written and no other thread changes it any more).
profile_type with_names() {
  const tree_type& in = process->tree;
  const double interval = static_cast<double>(process->config.interval_ns);
  profile_type out;
  std::vector<ccrc::node_id> node_map = ccrc_runtime::named_copy(in, out, [&](ccrc::frame_id f) -> std::string {
    if (f < process->final_name.size() && !process->final_name[f].empty()) return process->final_name[f];
    if (f < process->frame_address.size() && process->frame_address[f] != 0)
      return ccrc_runtime::resolve(process->frame_address[f]).name;
    return std::string(in.symbols().name(f));
  });
  for (ccrc::node_id n = 1; n < in.size(); ++n)
    out.add(node_map[n], static_cast<double>(in.get<0>(n)), static_cast<double>(in.get<1>(n)) * interval);
  std::uint64_t lost_samples = process->lost_samples, lost_intervals = process->lost_intervals;
  for (thread_state* s = process->threads; s != nullptr; s = s->next) {
    lost_samples += s->lost_samples.load();
    lost_intervals += s->lost_intervals.load();
  }
  if (lost_samples > 0) {
    ccrc::frame_id lost[] = {out.intern("[lost]")};
    out.add_path(lost, static_cast<double>(lost_samples), static_cast<double>(lost_intervals) * interval);
  }
  return out;
}

void write_at_exit() noexcept {
  stopping.store(true);
  stop_drainer.store(true);
  try {
    {
      std::lock_guard lock(process->mutex);
      if (process->written) return;
      process->written = true;  // from here on, nothing changes the tree
      drain_all(true);          // the states stay: a late signal may still find its thread's
    }
    ccrc_runtime::write_profile(with_names(), ccrc_runtime::output_path(process->forked_child));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ccrc: cannot write the profile: %s\n", e.what());
  }
}

void fork_prepare() noexcept { process->mutex.lock(); }
void fork_parent() noexcept { process->mutex.unlock(); }

// The child of fork() profiles itself from here on, as with libccrc_instrument: its only
// thread is the one that forked, whose timer the child did not inherit, and the samples so far
// are the parent's. It gets a fresh tree, a new timer and a new drain thread.
void fork_child() noexcept {
  process->mutex.unlock();
  process->forked_child = true;
  thread_state* s = current;
  process->threads = nullptr;  // the other threads do not exist here: their states are abandoned
  try {
    process->tree = tree_type{};
    process->frames.clear();
    process->frame_address.clear();
    process->final_name.clear();
  } catch (...) {
    stopping.store(true);  // out of memory: the child writes what it has
  }
  process->lost_samples = process->lost_intervals = 0;
  if (s != nullptr) {
    s->next = nullptr;
    s->ring.forget();
    s->lost_samples.store(0);
    s->lost_intervals.store(0);
    process->threads = s;
    start_timer(*s);
  }
  start_drainer();
}

void start() noexcept {
  real_pthread_create = reinterpret_cast<create_function>(dlsym(RTLD_NEXT, "pthread_create"));
  if (real_pthread_create == nullptr) {
    std::fprintf(stderr, "ccrc: no pthread_create to call: not sampling\n");
    return;
  }
  if (!ccrc_sampling::load_libgcc_unwinder()) {
    std::fprintf(stderr, "ccrc: no libgcc_s.so.1 to walk the stacks with: not sampling\n");
    return;
  }
  struct sigaction old {};
  sigaction(SIGPROF, nullptr, &old);
  if ((old.sa_flags & SA_SIGINFO) != 0 || (old.sa_handler != SIG_DFL && old.sa_handler != SIG_IGN)) {
    std::fprintf(stderr, "ccrc: SIGPROF has a handler already (another profiler?): not sampling\n");
    return;
  }
  try {
    process = new process_state;
  } catch (...) {
    return;
  }
  settings& c = process->config;
  c.interval_ns = 1'000'000'000u / ccrc_runtime::number_from_env("CCRC_SAMPLE_HZ", 1, 100'000, 100);
  c.max_depth = ccrc_runtime::number_from_env("CCRC_SAMPLE_DEPTH", 1, ccrc_sampling::ring_words / 8, 512);
  handler_max_depth = c.max_depth;
  pthread_key_create(&process->key, thread_ended);
  struct sigaction action {};
  action.sa_sigaction = on_sigprof;
  action.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&action.sa_mask);
  sigaction(SIGPROF, &action, nullptr);
  pthread_atfork(fork_prepare, fork_parent, fork_child);
  std::atexit(write_at_exit);
  (void)ccrc_runtime::real_dlclose();
  start_drainer();
  register_thread(0);  // the thread that loads the library: the main thread
}

}  // namespace

// Every thread the program creates after the library is loaded starts in thread_start.
extern "C" __attribute__((visibility("default"))) int pthread_create(pthread_t* thread, const pthread_attr_t* attr,
                                                                    void* (*start_routine)(void*), void* arg) {
  create_function create = real_pthread_create;
  if (create == nullptr) create = reinterpret_cast<create_function>(dlsym(RTLD_NEXT, "pthread_create"));
  if (create == nullptr) return EAGAIN;
  if (process == nullptr || stopping.load()) return create(thread, attr, start_routine, arg);
  auto* a = new (std::nothrow) start_arguments{start_routine, arg};
  if (a == nullptr) return create(thread, attr, start_routine, arg);
  int rc = create(thread, attr, thread_start, a);
  if (rc != 0) delete a;
  return rc;
}

// dlclose, interposed: a module's samples are named while it is loaded. Every sample taken so
// far is drained, the functions of this module named (outside the mutex: dladdr takes the
// loader's lock), and its addresses forgotten once it is unloaded: a module loaded later at
// the same addresses has functions of its own.
extern "C" __attribute__((visibility("default"))) int dlclose(void* handle) {
  ccrc_runtime::dlclose_function real = ccrc_runtime::real_dlclose();
  if (real == nullptr) return -1;
  if (process == nullptr) return real(handle);
  ccrc_runtime::address_range range = ccrc_runtime::module_range(handle);
  std::vector<std::pair<ccrc::frame_id, std::string>> named;
  try {
    {
      std::lock_guard lock(process->mutex);
      if (!process->written) {
        drain_all(false);
        for (ccrc::frame_id f{1}; f < process->frame_address.size(); ++f)
          if (range.contains(process->frame_address[f]) && process->final_name[f].empty()) named.emplace_back(f, "");
      }
    }
    for (auto& [f, name] : named) name = ccrc_runtime::resolve(process->frame_address[f]).name;
    std::lock_guard lock(process->mutex);
    for (auto& [f, name] : named) process->final_name[f] = std::move(name);
  } catch (...) {
    // out of memory: the module's functions are named as MODULE+0xOFFSET
  }
  int r = real(handle);
  std::lock_guard lock(process->mutex);
  try {
    process->frames.clear();
  } catch (...) {
    // out of memory: clear() assigns the table's slots, it does not grow it
  }
  return r;
}

__attribute__((constructor)) static void ccrc_sample_load() { start(); }
