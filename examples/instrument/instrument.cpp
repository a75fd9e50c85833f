// libccrc_instrument: a calling context profiler for C and C++ programs compiled with
// -finstrument-functions. The compiler calls __cyg_profile_func_enter/exit around every
// instrumented function; each thread drives its own ccrc::cct through a ccrc::cursor, the
// threads' trees are merged when they end, and the whole profile is written as .cctb when the
// process exits. docs/instrument.md has the usage, the environment variables and the limits.
//
// This file is compiled without -finstrument-functions, with every symbol hidden but the two
// hooks. The hooks run inside the profiled program at every call, so they allocate only when a
// context, a frame or a thread is new, never throw, and ignore the calls they cause themselves
// (a per-thread guard: malloc, the loader or an instrumented inline function of the standard
// library reached from inside a hook is not profiled).
#include "runtime.hpp"

#include <ccrc/transform/merge.hpp>
#include <ccrc/tree/cct.hpp>
#include <ccrc/tree/cursor.hpp>

#include <pthread.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#define CCRC_HOOK extern "C" __attribute__((visibility("default"), no_instrument_function))
// Thread-locals in the initial-exec model: a fixed offset from the thread pointer, never a call
// to __tls_get_addr (which may allocate, and so re-enter the hooks through malloc).
#define CCRC_TLS __attribute__((tls_model("initial-exec"))) constinit thread_local

namespace {

// Times are kept in ticks of now_ticks() while the program runs (the metrics' names are those of
// the profile written, in nanoseconds).
using tree_type = ccrc::cct<ccrc::metric<"calls">, ccrc::metric<"self_ns">, ccrc::metric<"total_ns">>;
using profile_type = ccrc::cct<ccrc::metric<"calls", double>, ccrc::metric<"self_ns", double>,
                               ccrc::metric<"total_ns", double>>;

std::uint64_t clock_ns() noexcept {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000u + static_cast<std::uint64_t>(ts.tv_nsec);
}

// The hooks' clock: the time-stamp counter where there is one (about 10 ns a read here, against
// 34 for clock_gettime), converted to nanoseconds when the profile is written, by the ratio of
// the two clocks over the whole run (see tick_ns()); CLOCK_MONOTONIC elsewhere.
#if defined(__x86_64__) || defined(__i386__)
std::uint64_t now_ticks() noexcept { return __rdtsc(); }
constexpr bool ticks_are_ns = false;
#else
std::uint64_t now_ticks() noexcept { return clock_ns(); }
constexpr bool ticks_are_ns = true;
#endif

// A frame of the per-thread trees is a function address, interned on first sight as its
// hexadecimal text (runtime.hpp): names are resolved once, when the profile is written.
constexpr ccrc::frame_id skipped_frame = ccrc::root_frame;  // a function of $CCRC_SKIP

using ccrc_runtime::address_frames;
using ccrc_runtime::address_text;

// A call whose exit has not been seen yet.
struct open_call {
  std::uintptr_t fn;
  std::uintptr_t sp;           // the hook's frame address: lower is deeper
  std::uint64_t start;         // in ticks of now_ticks(), as every time below
  std::uint64_t callees;       // time spent in the calls it made
  ccrc::node_id node;          // where its metrics go (its caller's node if the tree was full)
  bool recorded;               // false if the cursor lost this level
};

struct thread_state {
  tree_type tree;
  ccrc::cursor<tree_type> at{tree};
  address_frames frames;
  std::vector<open_call> stack;
  std::uintptr_t stack_lo = 0, stack_hi = UINTPTR_MAX;  // this thread's stack
  std::atomic<bool> busy{false};  // inside a hook: the writer at exit waits for it to clear
  std::uint64_t unmatched_exits = 0;
  thread_state* prev = nullptr;
  thread_state* next = nullptr;

  [[nodiscard]] bool on_thread_stack(std::uintptr_t sp) const noexcept { return sp >= stack_lo && sp < stack_hi; }
  // Two frame addresses are comparable if both are on the thread's stack or both are not
  // (a signal handler on an alternate stack).
  [[nodiscard]] bool same_stack(std::uintptr_t a, std::uintptr_t b) const noexcept {
    return on_thread_stack(a) == on_thread_stack(b);
  }

  // Closes the innermost open call at time t: self and total time, and the caller's callee time.
  void close_top(std::uint64_t t) noexcept {
    open_call c = stack.back();
    stack.pop_back();
    std::uint64_t elapsed = t > c.start ? t - c.start : 0;
    tree.get<"self_ns">(c.node) += elapsed > c.callees ? elapsed - c.callees : 0;
    if (c.recorded) tree.get<"total_ns">(c.node) += elapsed;
    if (!stack.empty()) stack.back().callees += elapsed;
    at.exit();
  }

  // Closes every open call: a thread that ended, or the process, with frames still open.
  void settle(std::uint64_t t) noexcept {
    while (!stack.empty()) close_top(t);
  }
};

// Process-wide state. The registry of live threads and the merged tree of ended threads are
// guarded by `registry_mutex`; `stopping` turns every hook off once the profile is being written.
struct process_state {
  std::mutex registry_mutex;
  thread_state* live = nullptr;
  tree_type finished;
  bool written = false;
  bool forked_child = false;
  std::vector<std::string> skip;  // $CCRC_SKIP
  pthread_key_t key{};
  std::uint64_t start_ticks = 0, start_ns = 0;  // the two clocks when the library started
};

process_state* process = nullptr;  // created once, never destroyed (hooks run until the end)
std::atomic<bool> stopping{false};
pthread_once_t init_once = PTHREAD_ONCE_INIT;

CCRC_TLS bool in_hook = false;
CCRC_TLS thread_state* current = nullptr;
thread_state* const ended_thread = reinterpret_cast<thread_state*>(alignof(thread_state));

void thread_ended(void* p) noexcept;
void write_at_exit() noexcept;
void fork_prepare() noexcept { process->registry_mutex.lock(); }
void fork_parent() noexcept { process->registry_mutex.unlock(); }
void fork_child() noexcept;

std::vector<std::string> split_skip_list(const char* text) {
  std::vector<std::string> patterns;
  std::string_view s = text ? text : "";
  while (!s.empty()) {
    std::size_t comma = s.find(',');
    std::string_view item = s.substr(0, comma);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    if (!item.empty()) patterns.emplace_back(item);
    s = comma == std::string_view::npos ? std::string_view{} : s.substr(comma + 1);
  }
  return patterns;
}

void initialize() noexcept {
  try {
    process = new process_state;
    process->skip = split_skip_list(std::getenv("CCRC_SKIP"));
    process->start_ns = clock_ns();
    process->start_ticks = now_ticks();
    pthread_key_create(&process->key, thread_ended);
    pthread_atfork(fork_prepare, fork_parent, fork_child);
    std::atexit(write_at_exit);
  } catch (...) {
    stopping.store(true);  // out of memory before main: profile nothing
  }
}

bool matches(const std::string& pattern, std::string_view name) {
  if (!pattern.empty() && pattern.back() == '*')
    return name.starts_with(std::string_view(pattern).substr(0, pattern.size() - 1));
  return name == pattern;
}

bool is_skipped(std::uintptr_t fn) {
  if (process->skip.empty()) return false;
  ccrc_runtime::resolved_name r = ccrc_runtime::resolve(fn);
  for (const std::string& p : process->skip)
    if (matches(p, r.name) || (!r.symbol.empty() && matches(p, r.symbol))) return true;
  return false;
}

// The frame of fn in this thread's tree, interned on first sight (or skipped_frame); null_frame
// if it cannot be interned (out of memory).
ccrc::frame_id frame_of(thread_state& s, std::uintptr_t fn) noexcept {
  ccrc::frame_id f = s.frames.find(fn);
  if (f != ccrc::null_frame) return f;
  try {
    f = is_skipped(fn) ? skipped_frame : s.tree.intern(address_text(fn));
    s.frames.insert(fn, f);
    return f;
  } catch (...) {
    return ccrc::null_frame;
  }
}

thread_state* register_thread() noexcept {
  pthread_once(&init_once, initialize);
  if (process == nullptr) return nullptr;
  thread_state* s = nullptr;
  try {
    s = new thread_state;
    s->stack.reserve(256);
  } catch (...) {
    delete s;
    return nullptr;
  }
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    void* lo = nullptr;
    std::size_t size = 0;
    if (pthread_attr_getstack(&attr, &lo, &size) == 0 && lo != nullptr) {
      s->stack_lo = reinterpret_cast<std::uintptr_t>(lo);
      s->stack_hi = s->stack_lo + size;
    }
    pthread_attr_destroy(&attr);
  }
  {
    std::lock_guard lock(process->registry_mutex);
    s->next = process->live;
    if (s->next) s->next->prev = s;
    process->live = s;
  }
  pthread_setspecific(process->key, s);
  return s;
}

void unlink(thread_state* s) noexcept {  // registry_mutex held
  if (s->prev) s->prev->next = s->next;
  else process->live = s->next;
  if (s->next) s->next->prev = s->prev;
  s->prev = s->next = nullptr;
}

void on_enter(thread_state& s, std::uintptr_t fn, std::uintptr_t sp) noexcept {
  // Calls whose exit hook never came (clang while unwinding an exception, longjmp) are at or
  // below this frame on the stack: close them first.
  while (!s.stack.empty() && s.stack.back().sp <= sp && s.same_stack(s.stack.back().sp, sp))
    s.close_top(now_ticks());
  ccrc::frame_id f = frame_of(s, fn);
  if (f == skipped_frame || f == ccrc::null_frame) return;
  if (s.stack.size() == s.stack.capacity()) {
    try {
      s.stack.reserve(2 * s.stack.capacity());
    } catch (...) {
      return;
    }
  }
  std::uint64_t lost = s.at.truncated();
  s.at.enter(f);
  s.at.add<"calls">(1);
  s.stack.push_back({fn, sp, now_ticks(), 0, s.at.node(), s.at.truncated() == lost});
}

void on_exit(thread_state& s, std::uintptr_t fn, std::uintptr_t sp) noexcept {
  std::uint64_t t = now_ticks();
  // Calls deeper than this frame whose exit hook never came.
  while (!s.stack.empty() && s.stack.back().sp < sp && s.stack.back().fn != fn &&
         s.same_stack(s.stack.back().sp, sp))
    s.close_top(t);
  if (!s.stack.empty() && s.stack.back().fn == fn) {
    s.close_top(t);
    return;
  }
  ccrc::frame_id f = s.frames.find(fn);
  if (f == skipped_frame) return;
  // An exit without its entry (the entry came before this thread was seen, or was skipped for
  // lack of memory), unless fn is open further down: then the calls above it are closed too.
  std::size_t i = s.stack.size();
  while (i > 0 && s.stack[i - 1].fn != fn) --i;
  if (i == 0) {
    ++s.unmatched_exits;
    return;
  }
  while (s.stack.size() >= i) s.close_top(t);
}

// The per-thread tree with its frames renamed from addresses to function names; calls that
// resolve to one name under one caller become one context.
profile_type with_names(const tree_type& in, double ns_per_tick) {
  profile_type out;
  std::vector<ccrc::node_id> node_map = ccrc_runtime::named_copy(in, out);
  for (ccrc::node_id n = 1; n < in.size(); ++n)
    out.add(node_map[n], static_cast<double>(in.get<0>(n)), static_cast<double>(in.get<1>(n)) * ns_per_tick,
            static_cast<double>(in.get<2>(n)) * ns_per_tick);
  return out;
}

// Makes sure no other thread is inside a hook: they see `stopping` on their next call; one
// already inside finishes its call first. A process-wide memory barrier (membarrier) makes
// their `busy` flags visible; where the kernel refuses it, a millisecond's sleep stands in.
void wait_for_hooks(thread_state* self) noexcept {
  bool others = false;
  for (thread_state* s = process->live; s; s = s->next) others = others || s != self;
  if (!others) return;
  constexpr int membarrier_cmd_global = 1;  // MEMBARRIER_CMD_GLOBAL (MEMBARRIER_CMD_SHARED)
  if (syscall(SYS_membarrier, membarrier_cmd_global, 0) != 0) {
    timespec ms{0, 1'000'000};
    nanosleep(&ms, nullptr);
  }
  for (thread_state* s = process->live; s; s = s->next) {
    for (int i = 0; s != self && s->busy.load(std::memory_order_acquire) && i < 100'000; ++i) {
      timespec us{0, 1'000};
      nanosleep(&us, nullptr);
    }
  }
}

// Nanoseconds per tick of now_ticks(): the ratio of the clocks' advances since the start, over at
// least 10 ms (a short run waits for the rest).
double tick_ns() noexcept {
  if constexpr (ticks_are_ns) return 1;
  std::uint64_t ns = clock_ns() - process->start_ns;
  if (ns < 10'000'000) {
    timespec rest{0, static_cast<long>(10'000'000 - ns)};
    nanosleep(&rest, nullptr);
  }
  std::uint64_t ticks = now_ticks() - process->start_ticks;
  ns = clock_ns() - process->start_ns;
  return ticks == 0 ? 1 : static_cast<double>(ns) / static_cast<double>(ticks);
}

void write_at_exit() noexcept {
  in_hook = true;  // nothing below is profiled
  stopping.store(true);
  std::lock_guard lock(process->registry_mutex);
  if (process->written) return;
  process->written = true;
  thread_state* self = current == ended_thread ? nullptr : current;
  wait_for_hooks(self);
  try {
    std::uint64_t t = now_ticks();
    // Threads still running when the process exits: their calls so far, open ones closed now.
    for (thread_state* s = process->live; s; s = s->next) {
      s->settle(t);
      ccrc::merge(process->finished, s->tree);
    }
    ccrc_runtime::write_profile(with_names(process->finished, tick_ns()), ccrc_runtime::output_path(process->forked_child));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ccrc: cannot write the profile: %s\n", e.what());
  }
}

void thread_ended(void* p) noexcept {
  auto* s = static_cast<thread_state*>(p);
  in_hook = true;
  current = ended_thread;  // calls made by later thread-exit destructors are not profiled
  std::lock_guard lock(process->registry_mutex);
  if (process->written) return;  // the process is exiting: its profile is written
  unlink(s);
  s->settle(now_ticks());
  try {
    ccrc::merge(process->finished, s->tree);
  } catch (...) {
    // out of memory: this thread's calls are lost, the rest of the profile is kept
  }
  delete s;
}

// The child of fork() profiles itself from here on: the parent writes what came before. Its
// only thread is the one that forked; the calls open in it stay open, their counts and times
// reset, so that their exits find them.
void fork_child() noexcept {
  in_hook = true;  // as in a hook: what this calls is not recorded
  struct lower_guard {
    ~lower_guard() { in_hook = false; }
  } lower;
  process->registry_mutex.unlock();
  process->forked_child = true;
  process->live = nullptr;  // the other threads do not exist here: their states are abandoned
  thread_state* s = current == ended_thread ? nullptr : current;
  try {
    process->finished = tree_type{};
    if (s == nullptr) return;
    s->prev = s->next = nullptr;
    process->live = s;
    s->tree = tree_type{};
    s->at = ccrc::cursor<tree_type>(s->tree);
    s->frames.clear();
    std::uint64_t t = now_ticks();
    for (open_call& c : s->stack) {
      ccrc::frame_id f = s->tree.intern(address_text(c.fn));
      if (s->frames.find(c.fn) == ccrc::null_frame) s->frames.insert(c.fn, f);
      std::uint64_t lost = s->at.truncated();
      s->at.enter(f);
      c = {c.fn, c.sp, t, 0, s->at.node(), s->at.truncated() == lost};
    }
  } catch (...) {
    stopping.store(true);  // out of memory: the child writes what it has
  }
}

}  // namespace

CCRC_HOOK void __cyg_profile_func_enter(void* fn, void* /*call_site*/) {
  if (in_hook) return;
  in_hook = true;
  thread_state* s = current;
  if (s == nullptr) s = current = register_thread();
  if (s != nullptr && s != ended_thread) {
    s->busy.store(true, std::memory_order_relaxed);
    if (!stopping.load(std::memory_order_relaxed))
      on_enter(*s, reinterpret_cast<std::uintptr_t>(fn), reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0)));
    s->busy.store(false, std::memory_order_release);
  }
  in_hook = false;
}

CCRC_HOOK void __cyg_profile_func_exit(void* fn, void* /*call_site*/) {
  if (in_hook) return;
  in_hook = true;
  thread_state* s = current;
  if (s != nullptr && s != ended_thread) {
    s->busy.store(true, std::memory_order_relaxed);
    if (!stopping.load(std::memory_order_relaxed))
      on_exit(*s, reinterpret_cast<std::uintptr_t>(fn), reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0)));
    s->busy.store(false, std::memory_order_release);
  }
  in_hook = false;
}

// Reads the environment and installs the exit, thread and fork handlers when the library is
// loaded, if no hook has done so earlier.
// The guard is up meanwhile: the standard library's templates the initialisation calls may be
// the program's instrumented copies (the static library; libstdc++ declares them with default
// visibility), whose hooks must not re-enter pthread_once.
__attribute__((constructor)) static void ccrc_instrument_load() {
  bool was = in_hook;
  in_hook = true;
  pthread_once(&init_once, initialize);
  in_hook = was;
}
