// libccrc_instrument: a calling context profiler for C and C++ programs compiled with
// -finstrument-functions. The compiler calls __cyg_profile_func_enter/exit around every
// instrumented function; each thread drives its own ccrc::cct through a ccrc::cursor, the
// threads' trees are merged when they end, and the whole profile is written as .cctb when the
// process exits. docs/instrument.md has the usage, the environment variables and the limits.
//
// This file is compiled without -finstrument-functions, with every symbol hidden but the two
// hooks and the signal functions it interposes. The hooks run inside the profiled program at
// every call, so they allocate only when a context, a frame or a thread is new, never throw,
// and ignore the calls they cause themselves (a per-thread guard: malloc, the loader or an
// instrumented inline function of the standard library reached from inside a hook is not
// profiled). A signal handler that interrupts a hook is told apart from those calls: the
// program's handlers run through a trampoline that counts them (sigaction and signal are
// interposed), and their calls wait in a per-thread ring until the hook they interrupted is
// done with the thread's tree, which then replays them.
#include "runtime.hpp"

#include <ccrc/transform/merge.hpp>
#include <ccrc/tree/cct.hpp>
#include <ccrc/tree/cursor.hpp>

#include <dlfcn.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#define CCRC_HOOK extern "C" __attribute__((visibility("default"), no_instrument_function))
// Thread-locals in the initial-exec model: a fixed offset from the thread pointer, never a call
// to __tls_get_addr (which may allocate, and so re-enter the hooks through malloc).
#define CCRC_TLS __attribute__((tls_model("initial-exec"))) constinit thread_local
// The hooks' parts that have a second caller (see on_enter).
#define CCRC_INLINE __attribute__((always_inline)) inline

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

// A hook called by a signal handler while its thread was inside a hook, waiting to be replayed.
struct deferred_event {
  std::uintptr_t fn;
  std::uintptr_t sp;
  std::uint64_t t;  // in ticks of now_ticks(); entry_bit set for an entry
};
constexpr std::uint64_t entry_bit = std::uint64_t{1} << 63;
// Events a thread can set aside at once: the entries and exits of 1,024 calls of the handlers
// run while one hook was interrupted, 48 KiB a thread.
constexpr std::uint32_t deferred_capacity = 2048;

// A call whose exit has not been seen yet.
struct open_call {
  std::uintptr_t fn;
  std::uintptr_t sp;           // the hook's frame address: lower is deeper
  std::uint64_t start;         // in ticks of now_ticks(), as every time below
  std::uint64_t callees;       // time spent in the calls it made
  ccrc::node_id node;          // where its metrics go (its caller's node if the tree was full)
  bool recorded;               // false if the cursor lost this level
};

// The open calls of a thread, innermost last: a vector's elements and a count. A push, once
// make_room() has made sure of the room, is a store: on_enter is inlined in two places (the
// hooks, the replay of signal handlers' events), and GCC then made std::vector::push_back a
// call in both (6 % more instructions a call, callgrind on a loop of calls).
class call_stack {
 public:
  [[nodiscard]] bool empty() const noexcept { return size_ == 0; }
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  [[nodiscard]] open_call& back() noexcept { return calls_[size_ - 1]; }
  [[nodiscard]] open_call& operator[](std::size_t i) noexcept { return calls_[i]; }
  [[nodiscard]] open_call* begin() noexcept { return calls_.data(); }
  [[nodiscard]] open_call* end() noexcept { return calls_.data() + size_; }
  void pop_back() noexcept { --size_; }
  /// Room for one more call: false if there is none and no memory to make some.
  [[nodiscard]] bool make_room() noexcept {
    if (size_ < calls_.size()) return true;
    try {
      calls_.resize(2 * calls_.size());
      return true;
    } catch (...) {
      return false;
    }
  }
  /// After make_room().
  void push(const open_call& c) noexcept { calls_[size_++] = c; }

 private:
  std::vector<open_call> calls_ = std::vector<open_call>(256);
  std::size_t size_ = 0;
};

struct thread_state {
  tree_type tree;
  ccrc::cursor<tree_type> at{tree};
  address_frames frames;
  call_stack stack;
  std::uintptr_t stack_lo = 0, stack_hi = UINTPTR_MAX;  // this thread's stack
  std::atomic<bool> busy{false};  // inside a hook: the writer at exit waits for it to clear
  std::uint64_t unmatched_exits = 0;
  // Signal handlers' hooks set aside while the thread was inside a hook (see defer()): only
  // the signal handlers append, only the hook they interrupted (or the thread's end, or the
  // writer at exit once the thread is out of its hooks) reads.
  std::unique_ptr<deferred_event[]> deferred{new deferred_event[deferred_capacity]};
  std::atomic<std::uint32_t> deferred_head{0}, deferred_tail{0};
  std::atomic<std::uint32_t> deferred_open{0};  // entries set aside whose exits are not: room kept for them
  std::atomic<std::uint32_t> dropped_depth{0};  // calls open in a handler whose entry was dropped
  std::atomic<std::uint64_t> lost_calls{0};     // entries dropped: the ring was full
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
    // A call lasts at least as long as the calls it made, which keeps total_ns the sum of the
    // subtree's self_ns: a signal handler's calls, replayed once the hook it interrupted is
    // done, may have started a few ticks before the call they are recorded under.
    std::uint64_t elapsed = std::max(t > c.start ? t - c.start : 0, c.callees);
    tree.get<"self_ns">(c.node) += elapsed - c.callees;
    if (c.recorded) tree.get<"total_ns">(c.node) += elapsed;
    if (!stack.empty()) stack.back().callees += elapsed;
    at.exit();
  }

  // Closes every open call: a thread that ended, or the process, with frames still open.
  void settle(std::uint64_t t) noexcept {
    while (!stack.empty()) close_top(t);
  }

  // Appends to the ring unless that leaves fewer than `keep_free` slots free, lock-free:
  // nested signal handlers on this thread may append too (the compare-and-swap claims a slot
  // for one of them). False if there is no room.
  bool push_deferred(const deferred_event& e, std::uint32_t keep_free) noexcept {
    std::uint32_t tail = deferred_tail.load(std::memory_order_relaxed);
    do {
      if (tail - deferred_head.load(std::memory_order_relaxed) + 1 + keep_free > deferred_capacity) return false;
    } while (!deferred_tail.compare_exchange_weak(tail, tail + 1, std::memory_order_relaxed));
    deferred[tail % deferred_capacity] = e;
    return true;
  }

  // Forgets what the ring holds (a forked child: it is the parent's).
  void forget_deferred() noexcept {
    deferred_head.store(deferred_tail.load(std::memory_order_relaxed), std::memory_order_relaxed);
    deferred_open.store(0, std::memory_order_relaxed);
    dropped_depth.store(0, std::memory_order_relaxed);
    lost_calls.store(0, std::memory_order_relaxed);
  }
};

// Process-wide state. The registry of live threads and the merged tree of ended threads are
// guarded by `registry_mutex`; `stopping` turns every hook off once the profile is being written.
struct process_state {
  std::mutex registry_mutex;
  thread_state* live = nullptr;
  tree_type finished;
  std::uint64_t lost_calls = 0;  // of the threads merged into `finished`
  bool written = false;
  bool forked_child = false;
  std::vector<std::string> skip;  // $CCRC_SKIP
  pthread_key_t key{};
  std::uint64_t start_ticks = 0, start_ns = 0;  // the two clocks when the library started
};

process_state* process = nullptr;  // created once, never destroyed (hooks run until the end)
std::atomic<bool> stopping{false};
pthread_once_t init_once = PTHREAD_ONCE_INIT;

// 0 outside the hooks; inside one, 1 + the signal depth it runs at. A hook called meanwhile at
// that depth was caused by the hook itself; at a greater one, by a signal handler.
CCRC_TLS std::atomic<unsigned> hook_level{0};
// The program's signal handlers running on this thread, nested (counted by the trampoline).
CCRC_TLS std::atomic<unsigned> signal_depth{0};
CCRC_TLS thread_state* current = nullptr;
// Calls of signal handlers that interrupted a thread's first hook, before it had a state.
std::atomic<std::uint64_t> lost_unregistered{0};

// Marks the thread as inside a hook from here on (or until restored): what it calls is not
// recorded, and signal handlers' calls are set aside.
void enter_hook() noexcept {
  hook_level.store(signal_depth.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  std::atomic_signal_fence(std::memory_order_seq_cst);
}
void leave_hook(unsigned level = 0) noexcept {
  std::atomic_signal_fence(std::memory_order_seq_cst);
  hook_level.store(level, std::memory_order_relaxed);
}

// ---- The program's signal handlers, run through a trampoline that counts them.

using plain_handler = void (*)(int);
using info_handler = void (*)(int, siginfo_t*, void*);
using sigaction_function = int (*)(int, const struct sigaction*, struct sigaction*);

// The handler the program installed for each signal: one of the two, or neither.
std::atomic<plain_handler> program_handlers[NSIG];
std::atomic<info_handler> program_actions[NSIG];
std::atomic<sigaction_function> real_sigaction_function{nullptr};

// The C library's sigaction (the next definition after this one), looked up once, when the
// library loads or at the first call: not in a signal handler, where dlsym is not safe.
sigaction_function real_sigaction() noexcept {
  sigaction_function f = real_sigaction_function.load(std::memory_order_relaxed);
  if (f == nullptr) {
    f = reinterpret_cast<sigaction_function>(dlsym(RTLD_NEXT, "sigaction"));
    real_sigaction_function.store(f, std::memory_order_relaxed);
  }
  return f;
}

// Every handler the program installs through sigaction or signal runs in this one, on the
// depth count the hooks read: their calls are then known to come from a signal handler.
void run_program_handler(int sig, siginfo_t* info, void* context) {
  signal_depth.store(signal_depth.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  std::atomic_signal_fence(std::memory_order_seq_cst);
  if (info_handler action = program_actions[sig].load(std::memory_order_relaxed)) action(sig, info, context);
  else if (plain_handler handler = program_handlers[sig].load(std::memory_order_relaxed)) handler(sig);
  std::atomic_signal_fence(std::memory_order_seq_cst);
  signal_depth.store(signal_depth.load(std::memory_order_relaxed) - 1, std::memory_order_relaxed);
}
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
    (void)real_sigaction();
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
CCRC_INLINE ccrc::frame_id frame_of(thread_state& s, std::uintptr_t fn) noexcept {
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

// The entry of fn, whose hook's frame is at sp, at time t. Inlined, and frame_of with it, in
// the hooks and in the replay of signal handlers' events: with two callers GCC made both calls
// (8 to 10 % more instructions a call, callgrind on a loop of calls).
CCRC_INLINE void on_enter(thread_state& s, std::uintptr_t fn, std::uintptr_t sp, std::uint64_t t) noexcept {
  // Calls whose exit hook never came (clang while unwinding an exception, longjmp) are at or
  // below this frame on the stack: close them first.
  while (!s.stack.empty() && s.stack.back().sp <= sp && s.same_stack(s.stack.back().sp, sp)) s.close_top(t);
  ccrc::frame_id f = frame_of(s, fn);
  if (f == skipped_frame || f == ccrc::null_frame) return;
  if (!s.stack.make_room()) return;
  std::uint64_t lost = s.at.truncated();
  s.at.enter(f);
  s.at.add<"calls">(1);
  s.stack.push({fn, sp, t, 0, s.at.node(), s.at.truncated() == lost});
}

// The exit of fn, whose hook's frame is at sp, at time t. Inlined, as on_enter.
CCRC_INLINE void on_exit(thread_state& s, std::uintptr_t fn, std::uintptr_t sp, std::uint64_t t) noexcept {
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

// A hook called by a signal handler that interrupted a hook of this thread, whose tree may be
// half updated: the event waits in the thread's ring, to be replayed by the hook it
// interrupted. An entry is set aside only with room kept for its exit and for the exits of
// the entries set aside before it; one that finds no room is counted as lost, and so is every
// call under it (their exits dropped with them). Async-signal-safe: no allocation, no lock.
void defer(std::uintptr_t fn, std::uintptr_t sp, bool enter) noexcept {
  if (stopping.load(std::memory_order_relaxed)) return;  // the profile is being written
  thread_state* s = current;
  if (s == ended_thread) return;  // as any call after the thread's end
  if (s == nullptr) {
    if (enter) lost_unregistered.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  std::uint64_t t = now_ticks();
  if (enter) {
    // The room for this call's exit is claimed first: a handler interrupting this one keeps it.
    std::uint32_t open = s->deferred_open.fetch_add(1, std::memory_order_relaxed);
    if (s->dropped_depth.load(std::memory_order_relaxed) == 0 && s->push_deferred({fn, sp, t | entry_bit}, open + 1))
      return;
    s->deferred_open.fetch_sub(1, std::memory_order_relaxed);
    s->dropped_depth.fetch_add(1, std::memory_order_relaxed);
    s->lost_calls.fetch_add(1, std::memory_order_relaxed);
  } else if (s->dropped_depth.load(std::memory_order_relaxed) > 0) {
    s->dropped_depth.fetch_sub(1, std::memory_order_relaxed);
  } else if (s->deferred_open.load(std::memory_order_relaxed) > 0) {
    (void)s->push_deferred({fn, sp, t}, 0);  // fits: its room was kept
    s->deferred_open.fetch_sub(1, std::memory_order_relaxed);
  }
}

// Replays the events signal handlers set aside, oldest first, those they add meanwhile
// included: each is recorded as if its hook had run then, under the context open now.
__attribute__((noinline, cold)) void replay_pending(thread_state& s) noexcept {
  std::uint32_t head = s.deferred_head.load(std::memory_order_relaxed);
  while (head != s.deferred_tail.load(std::memory_order_acquire)) {
    deferred_event e = s.deferred[head % deferred_capacity];
    s.deferred_head.store(++head, std::memory_order_relaxed);
    if (e.t & entry_bit) on_enter(s, e.fn, e.sp, e.t & ~entry_bit);
    else on_exit(s, e.fn, e.sp, e.t);
  }
}

// replay_pending, for the hooks: the ring is nearly always empty.
inline void replay_deferred(thread_state& s) noexcept {
  if (s.deferred_head.load(std::memory_order_relaxed) != s.deferred_tail.load(std::memory_order_acquire))
    replay_pending(s);
}

// A thread's calls, its deferred ones included, closed at time t and merged into the
// process's tree (registry_mutex held).
void merge_thread(thread_state& s, std::uint64_t t) {
  replay_deferred(s);
  s.settle(t);
  process->lost_calls += s.lost_calls.load(std::memory_order_relaxed);
  ccrc::merge(process->finished, s.tree);
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
  enter_hook();  // nothing below is profiled
  stopping.store(true);
  std::lock_guard lock(process->registry_mutex);
  if (process->written) return;
  process->written = true;
  thread_state* self = current == ended_thread ? nullptr : current;
  wait_for_hooks(self);
  try {
    std::uint64_t t = now_ticks();
    // Threads still running when the process exits: their calls so far, open ones closed now.
    for (thread_state* s = process->live; s; s = s->next) merge_thread(*s, t);
    // The calls no thread could record, as the top-level context [lost].
    if (std::uint64_t lost = process->lost_calls + lost_unregistered.load(); lost > 0) {
      ccrc::frame_id frame = process->finished.intern("[lost]");
      process->finished.add_path(std::span(&frame, 1), lost, 0, 0);
    }
    ccrc_runtime::write_profile(with_names(process->finished, tick_ns()), ccrc_runtime::output_path(process->forked_child));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ccrc: cannot write the profile: %s\n", e.what());
  }
}

void thread_ended(void* p) noexcept {
  auto* s = static_cast<thread_state*>(p);
  enter_hook();
  current = ended_thread;  // calls made by later thread-exit destructors are not profiled
  std::lock_guard lock(process->registry_mutex);
  if (process->written) return;  // the process is exiting: its profile is written
  unlink(s);
  try {
    merge_thread(*s, now_ticks());
  } catch (...) {
    // out of memory: this thread's calls are lost, the rest of the profile is kept
  }
  delete s;
}

// The child of fork() profiles itself from here on: the parent writes what came before. Its
// only thread is the one that forked; the calls open in it stay open, their counts and times
// reset, so that their exits find them.
void fork_child() noexcept {
  unsigned level = hook_level.load(std::memory_order_relaxed);
  enter_hook();  // as in a hook: what this calls is not recorded
  struct lower_guard {
    unsigned level;
    ~lower_guard() { leave_hook(level); }
  } lower{level};
  process->registry_mutex.unlock();
  process->forked_child = true;
  process->live = nullptr;  // the other threads do not exist here: their states are abandoned
  process->lost_calls = 0;
  lost_unregistered.store(0);
  thread_state* s = current == ended_thread ? nullptr : current;
  try {
    process->finished = tree_type{};
    if (s == nullptr) return;
    s->forget_deferred();
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

// A hook called while this thread is inside a hook already: set aside if a signal handler
// made the call (it interrupted the hook), ignored if the hook itself caused it. False for any
// other call.
bool nested_call(std::uintptr_t fn, std::uintptr_t sp, bool enter) noexcept {
  unsigned level = hook_level.load(std::memory_order_relaxed);
  if (level == 0) return false;
  if (level != signal_depth.load(std::memory_order_relaxed) + 1) defer(fn, sp, enter);
  return true;
}

}  // namespace

CCRC_HOOK void __cyg_profile_func_enter(void* fn, void* /*call_site*/) {
  auto f = reinterpret_cast<std::uintptr_t>(fn);
  auto sp = reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
  if (nested_call(f, sp, true)) return;
  enter_hook();
  thread_state* s = current;
  if (s == nullptr) s = current = register_thread();
  if (s != nullptr && s != ended_thread) {
    s->busy.store(true, std::memory_order_relaxed);
    if (!stopping.load(std::memory_order_relaxed)) {
      std::uint64_t t = now_ticks();
      replay_deferred(*s);  // set aside after the last hook had replayed its own
      on_enter(*s, f, sp, t);
      replay_deferred(*s);  // the handlers that interrupted this hook, called after the entry
    }
    s->busy.store(false, std::memory_order_release);
  }
  leave_hook();
}

CCRC_HOOK void __cyg_profile_func_exit(void* fn, void* /*call_site*/) {
  auto f = reinterpret_cast<std::uintptr_t>(fn);
  auto sp = reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
  if (nested_call(f, sp, false)) return;
  enter_hook();
  thread_state* s = current;
  if (s != nullptr && s != ended_thread) {
    s->busy.store(true, std::memory_order_relaxed);
    if (!stopping.load(std::memory_order_relaxed)) {
      std::uint64_t t = now_ticks();
      replay_deferred(*s);
      on_exit(*s, f, sp, t);
      replay_deferred(*s);  // the handlers that interrupted this hook, called after the exit
    }
    s->busy.store(false, std::memory_order_release);
  }
  leave_hook();
}

// sigaction, interposed: a handler the program installs runs through run_program_handler,
// with SA_SIGINFO added; the program is told of its own handler, never of the trampoline.
extern "C" __attribute__((visibility("default"))) int sigaction(int sig, const struct sigaction* __restrict act,
                                                               struct sigaction* __restrict old) noexcept {
  sigaction_function real = real_sigaction();
  if (real == nullptr) {
    errno = ENOSYS;
    return -1;
  }
  if (sig <= 0 || sig >= NSIG) return real(sig, act, old);  // the C library's error
  plain_handler was_handler = program_handlers[sig].load();
  info_handler was_action = program_actions[sig].load();
  struct sigaction wrapped {};
  bool wraps = act != nullptr && act->sa_handler != SIG_DFL && act->sa_handler != SIG_IGN;
  if (wraps) {
    // Stored before the handler is installed: a signal arriving meanwhile finds it.
    bool info = (act->sa_flags & SA_SIGINFO) != 0;
    program_actions[sig].store(info ? act->sa_sigaction : nullptr);
    program_handlers[sig].store(info ? nullptr : act->sa_handler);
    wrapped = *act;
    wrapped.sa_sigaction = run_program_handler;
    wrapped.sa_flags |= SA_SIGINFO;
    act = &wrapped;
  }
  int r = real(sig, act, old);
  if (r != 0 && wraps) {
    program_actions[sig].store(was_action);
    program_handlers[sig].store(was_handler);
  }
  if (r == 0 && old != nullptr && (old->sa_flags & SA_SIGINFO) != 0 && old->sa_sigaction == run_program_handler) {
    if (was_action != nullptr) {
      old->sa_sigaction = was_action;
    } else {
      old->sa_handler = was_handler;
      old->sa_flags &= ~SA_SIGINFO;
    }
  }
  return r;
}

// signal, interposed: the C library's calls its own sigaction, not the one above. BSD
// semantics, as glibc's signal (SA_RESTART, the handler kept).
extern "C" __attribute__((visibility("default"))) sighandler_t signal(int sig, sighandler_t handler) noexcept {
  struct sigaction act {}, old {};
  act.sa_handler = handler;
  sigemptyset(&act.sa_mask);
  act.sa_flags = SA_RESTART;
  if (sigaction(sig, &act, &old) != 0) return SIG_ERR;
  return old.sa_handler;
}

// Reads the environment and installs the exit, thread and fork handlers when the library is
// loaded, if no hook has done so earlier.
// The guard is up meanwhile: the standard library's templates the initialisation calls may be
// the program's instrumented copies (the static library; libstdc++ declares them with default
// visibility), whose hooks must not re-enter pthread_once.
__attribute__((constructor)) static void ccrc_instrument_load() {
  unsigned level = hook_level.load(std::memory_order_relaxed);
  enter_hook();
  pthread_once(&init_once, initialize);
  leave_hook(level);
}
