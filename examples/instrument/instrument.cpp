// libccrc_instrument: a calling context profiler for C and C++ programs compiled with
// -finstrument-functions. The compiler calls __cyg_profile_func_enter/exit around every
// instrumented function; each thread drives its own ccrc::cct through a ccrc::cursor, the
// threads' trees are merged when they end, and the whole profile is written as .cctb when the
// process exits. docs/instrument.md has the usage, the environment variables and the limits.
//
// Calls are counted exactly. Time is sampled by default: a timer on each thread's CPU-time
// clock sends it SIGPROF, whose handler adds the interval to the context the thread's cursor
// is in (sample_counts.hpp); CCRC_TIME=exact reads a clock in every hook instead.
//
// This file is compiled without -finstrument-functions, with every symbol hidden but the two
// hooks and the functions it interposes. The hooks run inside the profiled program at every
// call: their hot path (a known hook site, a known context) calls nothing, allocates nothing
// and reads no clock unless timing is exact; what can allocate (a new context, a new function,
// named on first sight) runs in a slow section, whose own calls are not profiled (malloc, the
// loader, an instrumented inline function of the standard library). A signal handler that
// interrupts a hook is told apart from those calls: the program's handlers run through a
// trampoline that counts them (sigaction and signal are interposed), and their calls wait in
// a per-thread ring until the thread's next hook replays them. Functions are named on first
// sight, while their module is loaded (dlclose is interposed: an unloaded module's addresses
// are forgotten).
#include "runtime.hpp"
#include "sample_counts.hpp"

#include <ccrc/algorithm/inclusive.hpp>
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
#include <array>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#define CCRC_HOOK extern "C" __attribute__((visibility("default"), no_instrument_function))
#define CCRC_INTERPOSED extern "C" __attribute__((visibility("default")))
// Thread-locals in the initial-exec model: a fixed offset from the thread pointer, never a call
// to __tls_get_addr (which may allocate, and so re-enter the hooks through malloc).
#define CCRC_TLS __attribute__((tls_model("initial-exec"))) constinit thread_local
// The hooks' parts that have a second caller (the replay of signal handlers' events): GCC made
// them calls, 8 to 10 % more instructions a call (callgrind on a loop of calls).
#define CCRC_INLINE __attribute__((always_inline)) inline
#define CCRC_COLD __attribute__((noinline, cold))

namespace {

using ccrc_instrument::sample_counts;

// How self time is taken ($CCRC_TIME).
enum class timing {
  sampled,  // the default: a timer on each thread's CPU-time clock, no clock read per call
  exact,    // a clock read in every hook: each call's own wall-clock time
};

// While the program runs, per context: the calls and the self time, in ticks of now_ticks()
// when timed exactly, in timer intervals when sampled.
using tree_type = ccrc::cct<ccrc::metric<"calls">, ccrc::metric<"self">>;

std::uint64_t clock_ns() noexcept {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000u + static_cast<std::uint64_t>(ts.tv_nsec);
}

// The exact timing's clock: the time-stamp counter where there is one (about 10 ns a read here,
// against 34 for clock_gettime), converted to nanoseconds when the profile is written, by the
// ratio of the two clocks over the whole run (see tick_ns()); CLOCK_MONOTONIC elsewhere.
#if defined(__x86_64__) || defined(__i386__)
std::uint64_t now_ticks() noexcept { return __rdtsc(); }
constexpr bool ticks_are_ns = false;
#else
std::uint64_t now_ticks() noexcept { return clock_ns(); }
constexpr bool ticks_are_ns = true;
#endif

constexpr ccrc::frame_id skipped_frame = ccrc::root_frame;  // a function of $CCRC_SKIP

using ccrc_runtime::address_frames;

// What a hook knows of a call: the function; its frame (lower is deeper: see caller_frame());
// the call site the compiler passes, the function's return address (for a function inlined
// into another, the host's: the hooks of an inlined function run in the host's frame); and the
// hook's return address, its site in the code, which tells a function's own hook from the
// hooks of the functions inlined into it.
struct hook_call {
  std::uintptr_t fn, sp, call_site, site;
  std::uint32_t words;  // from the hook's return address to the function's (see caller_frame())
};

// The frame of the instrumented function that called a hook: its CFA, the address just above
// its return address (the call site the hook is given), found by reading the stack upwards
// from the hook's own return address (at hook_cfa - 8) a few words: the registers the function
// saved before it called the hook (none for an exit hook the compiler made a tail call). A
// callee's CFA is below its caller's whatever their frames' sizes, where the hook's own CFA
// depends on them (a function that saves more registers would look like the callee of a
// sibling left by longjmp); an inlined function finds its host's (its call site is the host's).
// Reads at most up to `top` (the thread's stack's end, or 512 bytes off it) and 64 KiB: if the
// call site is not found there (a hook called by hand), the hook's CFA stands in.
// Async-signal-safe. `words`: the distance, which is the same at each call of a hook site but
// where the function realigned its stack or called alloca before the hook, so the hot path
// checks that one word before it trusts the distance the step cache keeps.
//
// A word of the stack between two frames: the registers and locals of the function that called
// the hook, which AddressSanitizer may have poisoned (it keeps its redzones there).
__attribute__((no_sanitize("address"))) inline std::uintptr_t stack_word(std::uintptr_t a) noexcept {
  return *reinterpret_cast<const std::uintptr_t*>(a);
}
hook_call caller_frame(std::uintptr_t fn, std::uintptr_t call_site, std::uintptr_t hook_cfa, std::uintptr_t site,
                       std::uintptr_t top) noexcept {
  if (call_site != 0) {
    std::uintptr_t limit = std::min(top, hook_cfa + 65536);
    for (std::uintptr_t a = hook_cfa - 8; a + 8 <= limit; a += 8)
      if (stack_word(a) == call_site) return {fn, a + 8, call_site, site, static_cast<std::uint32_t>((a + 8 - hook_cfa) / 8)};
  }
  return {fn, hook_cfa, call_site, site, 0};
}

// A hook called by a signal handler while its thread was inside a hook, waiting to be replayed.
struct deferred_event {
  hook_call call;
  std::uint64_t t;  // in ticks of now_ticks() when timed exactly; entry_bit set for an entry
};
constexpr std::uint64_t entry_bit = std::uint64_t{1} << 63;
// Events a thread can set aside at once: the entries and exits of 1,024 calls of the handlers
// run while one hook was interrupted, 80 KiB a thread.
constexpr std::uint32_t deferred_capacity = 2048;

// A call whose exit has not been seen yet. The stack's bottom is a sentinel that no call ever
// closes: its frame is shallower than any and its function none.
struct open_call {
  static constexpr std::uintptr_t sentinel_sp = UINTPTR_MAX;
  std::uintptr_t fn = UINTPTR_MAX;
  std::uintptr_t sp = sentinel_sp;  // the hook's frame address: lower is deeper
  std::uintptr_t call_site = 0;
  std::uintptr_t site = 0;
  ccrc::node_id node = ccrc::root_node;  // where its metrics go (its caller's node if the tree was full)
  std::uint64_t start = 0;               // exact timing: in ticks of now_ticks()
  std::uint64_t callees = 0;             // exact timing: ticks spent in the calls it made
};

// The open calls of a thread, innermost on top, above the sentinel. A push, once make_room()
// has made sure of the room, is a few stores.
class call_stack {
 public:
  call_stack() : calls_(256), top_(calls_.data()), end_(calls_.data() + calls_.size()) {}
  call_stack(const call_stack&) = delete;
  call_stack& operator=(const call_stack&) = delete;

  [[nodiscard]] open_call& top() noexcept { return *top_; }
  [[nodiscard]] open_call& sentinel() noexcept { return calls_.front(); }
  [[nodiscard]] bool empty() const noexcept { return top_ == calls_.data(); }
  /// The open calls, the sentinel not counted; the i-th from the bottom.
  [[nodiscard]] std::size_t size() const noexcept { return static_cast<std::size_t>(top_ - calls_.data()); }
  [[nodiscard]] open_call& operator[](std::size_t i) noexcept { return calls_[i + 1]; }
  [[nodiscard]] std::span<open_call> calls() noexcept { return {calls_.data() + 1, size()}; }

  /// Room for one more call: false if there is none and no memory to make some (which the
  /// caller allows for: it is a slow section).
  [[nodiscard]] CCRC_INLINE bool make_room() noexcept { return has_room() || grow(); }
  [[nodiscard]] bool has_room() const noexcept { return top_ + 1 != end_; }
  /// After make_room().
  [[nodiscard]] open_call& push() noexcept { return *++top_; }
  void pop() noexcept { --top_; }

 private:
  CCRC_COLD bool grow() noexcept;
  std::vector<open_call> calls_;
  open_call* top_;
  open_call* end_;
};

// The steps a thread took lately: from a context, through a hook site, to the callee's
// context (or to nothing: a function of $CCRC_SKIP), a slot per hash of the two, a newcomer
// replacing the slot's last occupant. The hot path's only lookup: it takes neither the
// function's frame nor the tree's child lookup (a context's children are a list, searched
// newest first). 16 KiB.
class step_cache {
 public:
  struct slot {
    std::uintptr_t site = 0, fn = 0;
    ccrc::node_id from = ccrc::null_node;
    ccrc::node_id to = ccrc::null_node;  // null_node: skipped
    std::uint32_t words = 0;             // the site's hook_call::words
  };
  [[nodiscard]] slot& at(std::uintptr_t site, ccrc::node_id from) noexcept {
    return slots_[static_cast<std::size_t>((site * 0x9e3779b97f4a7c15u) >> (64 - bits)) ^ (from & (size - 1))];
  }
  void clear() noexcept { slots_.fill({}); }

 private:
  static constexpr int bits = 9;
  static constexpr std::size_t size = std::size_t{1} << bits;
  std::array<slot, size> slots_{};
};

struct thread_state;

// 0 outside the hooks; inside one, hot_level on its hot path, which calls nothing (a hook
// called meanwhile is a signal handler's), or 1 + the signal depth it runs at in a slow
// section (a hook called meanwhile at that depth was caused by the hook itself; at a greater
// one, by a signal handler).
constexpr unsigned hot_level = ~0u;
// The thread-locals, together: one address for the hooks to find.
struct thread_locals {
  thread_state* current = nullptr;
  std::atomic<unsigned> hook_level{0};
  // The program's signal handlers running on this thread, nested (counted by the trampoline).
  std::atomic<unsigned> signal_depth{0};
};
CCRC_TLS thread_locals tls;
thread_state* const ended_thread = reinterpret_cast<thread_state*>(std::uintptr_t{64});
// A thread that has a state and has not ended: one unsigned comparison.
bool is_live(const thread_state* s) noexcept {
  return reinterpret_cast<std::uintptr_t>(s) > reinterpret_cast<std::uintptr_t>(ended_thread);
}

// Marks the thread as in a slow section from here on (or until restored): what it calls is not
// recorded, and signal handlers' calls are set aside.
void enter_hook() noexcept {
  tls.hook_level.store(tls.signal_depth.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  std::atomic_signal_fence(std::memory_order_seq_cst);
}
void leave_hook(unsigned level = 0) noexcept {
  std::atomic_signal_fence(std::memory_order_seq_cst);
  tls.hook_level.store(level, std::memory_order_release);
}

// A part of a hook that calls out (allocation, the loader): a slow section, for its duration.
class slow_section {
 public:
  slow_section() noexcept : saved_(tls.hook_level.load(std::memory_order_relaxed)) { enter_hook(); }
  slow_section(const slow_section&) = delete;
  slow_section& operator=(const slow_section&) = delete;
  ~slow_section() { leave_hook(saved_); }

 private:
  unsigned saved_;
};

bool call_stack::grow() noexcept {
  slow_section slow;
  try {
    std::size_t top = size();
    calls_.resize(2 * calls_.size());
    top_ = calls_.data() + top;
    end_ = calls_.data() + calls_.size();
    return true;
  } catch (...) {
    return false;
  }
}

// Changes every thread must notice at its next hook, in one word its hot path compares with
// what it saw last: bit 0, the profile is being written (every hook is off); the rest counts
// the modules unloaded (the threads forget the frames of the addresses they knew).
std::atomic<std::uint64_t> world{0};
constexpr std::uint64_t stopping_bit = 1, unload_step = 2;
// Set in a thread's world_seen by a signal handler whose calls it set aside: the thread's next
// hook then takes the slow path, which replays them (the world never counts so far).
constexpr std::uint64_t deferred_bit = std::uint64_t{1} << 63;
bool stopping() noexcept { return (world.load(std::memory_order_relaxed) & stopping_bit) != 0; }

struct thread_state {
  // The hot path's fields first, in a few cache lines.
  timing time = timing::sampled;
  std::atomic<std::uint64_t> world_seen{0};  // the world at the last hook; deferred_bit
  ccrc::cursor<tree_type> at{tree};  // the tree is below: only its address is taken here
  std::uint64_t* calls = nullptr;    // the tree's calls column, where it is now (refresh_calls())
  call_stack stack;
  // Sampled timing: the context the timer's samples go to, stored after each step of the
  // cursor (a context that exists, and has a count: the handler reads nothing else).
  std::atomic<ccrc::node_id> published{ccrc::root_node};
  // Signal handlers' hooks set aside while the thread was inside a hook (see defer()): only
  // the signal handlers append, only the hooks (or the thread's end, or the writer at exit once
  // the thread is out of its hooks) read.
  std::atomic<std::uint32_t> deferred_head{0}, deferred_tail{0};
  std::uintptr_t stack_lo = 0, stack_hi = UINTPTR_MAX;  // this thread's stack
  step_cache steps;

  tree_type tree;
  address_frames frames;
  sample_counts counts;  // sampled timing: only the SIGPROF handler adds to them
  std::optional<timer_t> timer;
  std::atomic<unsigned>* level = nullptr;  // this thread's hook level, for the writer at exit
  std::uint64_t unmatched_exits = 0;
  std::unique_ptr<deferred_event[]> deferred{new deferred_event[deferred_capacity]};
  std::atomic<std::uint32_t> deferred_open{0};  // entries set aside whose exits are not: room kept for them
  std::atomic<std::uint32_t> dropped_depth{0};  // calls open in a handler whose entry was dropped
  std::atomic<std::uint64_t> lost_calls{0};     // entries dropped: the ring was full
  thread_state* prev = nullptr;
  thread_state* next = nullptr;

  [[nodiscard]] bool on_thread_stack(std::uintptr_t sp) const noexcept { return sp >= stack_lo && sp < stack_hi; }
  // How far up from a hook's frame caller_frame() may read: the end of the stack it is on, or
  // 512 bytes on an alternate signal stack (the signal frame above a handler takes more), or
  // 4 KiB on a stack of unknown bounds.
  [[nodiscard]] std::uintptr_t stack_end(std::uintptr_t hook_cfa) const noexcept {
    if (stack_hi == UINTPTR_MAX) return hook_cfa + 4096;
    return on_thread_stack(hook_cfa) ? stack_hi : hook_cfa + 512;
  }
  // Two frame addresses are comparable if both are on the thread's stack or both are not
  // (a signal handler on an alternate stack).
  [[nodiscard]] bool same_stack(std::uintptr_t a, std::uintptr_t b) const noexcept {
    return on_thread_stack(a) == on_thread_stack(b);
  }

  // Whether the open call `o` has returned without its exit hook (clang while unwinding an
  // exception, longjmp) now that `c` is entered: its frame (caller_frame()) is deeper than
  // c's, or the same frame and not c's host: an inlined function's hooks run in its host's frame, with
  // the host's call site, from a site of their own; a call made from that frame after o was
  // left has another call site, or, made again from o's own, o's hook site.
  [[nodiscard]] CCRC_INLINE bool left(const open_call& o, const hook_call& c) const noexcept {
    return o.sp <= c.sp && (o.sp < c.sp || o.call_site != c.call_site || o.site == c.site) && same_stack(o.sp, c.sp);
  }

  // Whether the open call `o` has returned without its exit hook now that `c` exits: a call of
  // another function deeper than c's frame (the exit hook may run in the caller's frame: the
  // compilers make it a tail call).
  [[nodiscard]] CCRC_INLINE bool returned_below(const open_call& o, const hook_call& c) const noexcept {
    return o.sp < c.sp && o.fn != c.fn && same_stack(o.sp, c.sp);
  }

  // The frame of a function, from the thread's table, or named on first sight.
  ccrc::frame_id frame_of(std::uintptr_t fn) noexcept;

  // Closes the innermost open call at time t (ticks, exact timing).
  template <timing T>
  CCRC_INLINE void close_top(std::uint64_t t) noexcept {
    if constexpr (T == timing::exact) {
      open_call& c = stack.top();
      // A call lasts at least as long as the calls it made, which keeps total_ns the sum of the
      // subtree's self_ns: a signal handler's calls, replayed once the hook it interrupted is
      // done, may have started a few ticks before the call they are recorded under.
      std::uint64_t elapsed = std::max(t > c.start ? t - c.start : 0, c.callees);
      tree.get<"self">(c.node) += elapsed - c.callees;
      stack.pop();
      stack.top().callees += elapsed;  // the sentinel's, for the outermost
    } else {
      stack.pop();
    }
    at.exit_to(stack.top().node);  // the sentinel's is the root
    if constexpr (T == timing::sampled) published.store(at.node(), std::memory_order_relaxed);
  }

  // The entry of c at time t.
  template <timing T>
  CCRC_INLINE void on_enter(const hook_call& c, std::uint64_t t) noexcept {
    while (left(stack.top(), c)) close_top<T>(t);
    if (!stack.make_room()) return;
    step_cache::slot& slot = steps.at(c.site, at.node());
    if (slot.site == c.site && slot.fn == c.fn && slot.from == at.node()) [[likely]] {
      if (slot.to == ccrc::null_node) return;  // skipped
      at.enter_child(slot.to);
    } else if (!enter_uncached<T>(c, slot)) {
      return;
    }
    push<T>(c.fn, c.sp, c.call_site, c.site, t);
  }

  // A step the cache does not hold: the function's frame, then the callee's context, created
  // in a slow section if the tree does not hold it yet (its count made before the handler
  // may see it); the step kept in `slot`. False if the call is not recorded (skipped, or
  // memory was short).
  template <timing T>
  CCRC_COLD bool enter_uncached(const hook_call& c, step_cache::slot& slot) noexcept {
    ccrc::node_id from = at.node();
    ccrc::frame_id f = frame_of(c.fn);
    if (f == ccrc::null_frame) return false;
    if (f == skipped_frame) {
      slot = {c.site, c.fn, from, ccrc::null_node, c.words};
      return false;
    }
    std::uint64_t lost = at.truncated();
    if (!at.enter_existing(f)) {
      slow_section slow;
      at.enter(f);
      refresh_calls();
      if constexpr (T == timing::sampled) (void)counts.cover(at.node());
    }
    if (at.truncated() == lost) slot = {c.site, c.fn, from, at.node(), c.words};  // a step the tree holds
    return true;
  }

  // The exit of c at time t.
  template <timing T>
  CCRC_INLINE void on_exit(const hook_call& c, std::uint64_t t) noexcept {
    while (returned_below(stack.top(), c)) close_top<T>(t);
    if (stack.top().fn == c.fn && stack.top().sp != open_call::sentinel_sp) [[likely]]
      close_top<T>(t);
    else
      exit_unmatched<T>(c, t);
  }

  // An exit whose call is not on top: open further down (the calls above it are closed too),
  // skipped, or not open at all (its entry came before the thread was seen, or was dropped
  // for lack of memory), which is counted and ignored.
  template <timing T>
  CCRC_COLD void exit_unmatched(const hook_call& c, std::uint64_t t) noexcept {
    if (frames.find(c.fn) == skipped_frame) return;
    std::size_t i = stack.size();
    while (i > 0 && stack[i - 1].fn != c.fn) --i;
    if (i == 0) {
      ++unmatched_exits;
      return;
    }
    while (stack.size() >= i) close_top<T>(t);
  }

  // The hooks' fast path (see hook()): true if it recorded the event, false if it changed
  // nothing and leaves the event to step(). An entry needs its step in the cache and no call
  // to close (a callee's frame is deeper than its caller's; an inlined function's is its
  // host's, with the host's call site); an exit, its call on top.
  template <bool Enter, timing T>
  CCRC_INLINE bool fast_step(std::uintptr_t fn, std::uintptr_t call_site, std::uintptr_t hook_cfa, std::uintptr_t site,
                             std::uint64_t t) noexcept {
    open_call& top = stack.top();
    if constexpr (Enter) {
      const step_cache::slot& slot = steps.at(site, at.node());
      if (slot.site != site || slot.fn != fn || slot.from != at.node()) return false;
      std::uintptr_t return_address = hook_cfa - 8 + 8 * std::uintptr_t{slot.words};  // caller_frame()'s
      if (stack_word(return_address) != call_site) return false;
      std::uintptr_t sp = return_address + 8;
      if (top.sp <= sp && (top.sp < sp || top.call_site != call_site || top.site == site)) return false;
      if (!stack.has_room()) return false;
      if (slot.to == ccrc::null_node) return true;  // skipped
      at.enter_child(slot.to);
      push<T>(fn, sp, call_site, site, t);
    } else {
      if (top.fn != fn || top.sp == open_call::sentinel_sp) return false;
      close_top<T>(t);
    }
    return true;
  }

  // Records the entry of a call into the context the cursor has just entered.
  template <timing T>
  CCRC_INLINE void push(std::uintptr_t fn, std::uintptr_t sp, std::uintptr_t call_site, std::uintptr_t site,
                        std::uint64_t t) noexcept {
    ccrc::node_id n = at.node();
    ++calls[n];
    open_call& o = stack.push();
    o.fn = fn;
    o.sp = sp;
    o.call_site = call_site;
    o.site = site;
    o.node = n;
    if constexpr (T == timing::exact) {
      o.start = t;
      o.callees = 0;
    } else {
      published.store(n, std::memory_order_relaxed);
    }
  }

  template <bool Enter>
  CCRC_INLINE void step(const hook_call& c, std::uint64_t t) noexcept {
    if (time == timing::sampled) {
      if constexpr (Enter) on_enter<timing::sampled>(c, 0);
      else on_exit<timing::sampled>(c, 0);
    } else {
      if constexpr (Enter) on_enter<timing::exact>(c, t);
      else on_exit<timing::exact>(c, t);
    }
  }

  // After the tree grew: its calls column may have moved.
  void refresh_calls() noexcept { calls = tree.column<"calls">().data(); }

  // Closes every open call: a thread that ended, or the process, with frames still open.
  void settle(std::uint64_t t) noexcept {
    while (!stack.empty()) {
      if (time == timing::exact) close_top<timing::exact>(t);
      else close_top<timing::sampled>(t);
    }
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
  [[nodiscard]] bool has_deferred() const noexcept {
    return deferred_head.load(std::memory_order_relaxed) != deferred_tail.load(std::memory_order_acquire);
  }

  // Forgets what the ring holds (a forked child: it is the parent's).
  void forget_deferred() noexcept {
    deferred_head.store(deferred_tail.load(std::memory_order_relaxed), std::memory_order_relaxed);
    deferred_open.store(0, std::memory_order_relaxed);
    dropped_depth.store(0, std::memory_order_relaxed);
    lost_calls.store(0, std::memory_order_relaxed);
  }

  // The sampled intervals added to the tree's self time: the thread's timer is off (or the
  // process is writing its profile). The root's, CPU time outside every instrumented call
  // (the thread's start and end), are left out, as exact timing leaves them.
  void add_counts() noexcept {
    for (ccrc::node_id n = 1; n < tree.size(); ++n) tree.get<"self">(n) += counts.intervals(n);
  }
};

// Process-wide state. The registry of live threads and the merged tree of ended threads are
// guarded by `registry_mutex`.
struct process_state {
  std::mutex registry_mutex;
  thread_state* live = nullptr;
  tree_type finished;
  std::uint64_t lost_calls = 0;  // of the threads merged into `finished`
  bool written = false;
  bool forked_child = false;
  std::vector<std::string> skip;  // $CCRC_SKIP
  ccrc_runtime::name_cache names;
  pthread_key_t key{};
  timing time = timing::sampled;
  std::uint64_t period_ns = 1'000'000;          // $CCRC_SAMPLE_HZ
  std::uint64_t start_ticks = 0, start_ns = 0;  // the two clocks when the library started
};

process_state* process = nullptr;  // created once, never destroyed (hooks run until the end)
pthread_once_t init_once = PTHREAD_ONCE_INIT;
// Calls of signal handlers that interrupted a thread's first hook, before it had a state.
std::atomic<std::uint64_t> lost_unregistered{0};

// ---- The program's signal handlers, run through a trampoline that counts them; the
// sampling timer's SIGPROF.

using plain_handler = void (*)(int);
using info_handler = void (*)(int, siginfo_t*, void*);
using sigaction_function = int (*)(int, const struct sigaction*, struct sigaction*);

// The handler the program installed for each signal: one of the two, or neither.
std::atomic<plain_handler> program_handlers[NSIG];
std::atomic<info_handler> program_actions[NSIG];
std::atomic<sigaction_function> real_sigaction_function{nullptr};
// Sampled timing owns SIGPROF: the action the program asked for is kept here, never installed.
std::atomic<bool> owns_sigprof{false};
struct sigaction program_sigprof {};
int sample_cookie;  // the timers' signals carry its address

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
  tls.signal_depth.store(tls.signal_depth.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  std::atomic_signal_fence(std::memory_order_seq_cst);
  if (info_handler action = program_actions[sig].load(std::memory_order_relaxed)) action(sig, info, context);
  else if (plain_handler handler = program_handlers[sig].load(std::memory_order_relaxed)) handler(sig);
  std::atomic_signal_fence(std::memory_order_seq_cst);
  tls.signal_depth.store(tls.signal_depth.load(std::memory_order_relaxed) - 1, std::memory_order_relaxed);
}

// SIGPROF under sampled timing: a signal of the thread's timer adds its intervals to the
// context the thread's cursor is in, wherever the thread is (inside a hook included: the
// handler reads the published context and writes only the counts, which nothing else writes);
// any other SIGPROF goes to the program's handler, if it installed one. Async-signal-safe.
void on_sigprof(int sig, siginfo_t* info, void* context) {
  if (info->si_code == SI_TIMER && info->si_value.sival_ptr == &sample_cookie) {
    thread_state* s = tls.current;
    if (!is_live(s) || stopping()) return;
    std::uint64_t overruns = info->si_overrun > 0 ? static_cast<std::uint64_t>(info->si_overrun) : 0;
    s->counts.add(s->published.load(std::memory_order_relaxed), 1 + overruns);
    return;
  }
  run_program_handler(sig, info, context);
}

void thread_ended(void* p) noexcept;
void write_at_exit() noexcept;
void fork_prepare() noexcept {
  process->registry_mutex.lock();
  process->names.lock();
}
void fork_parent() noexcept {
  process->names.unlock();
  process->registry_mutex.unlock();
}
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

// $CCRC_TIME: "sampled" (the default) or "exact".
timing timing_from_env() {
  const char* text = std::getenv("CCRC_TIME");
  if (text == nullptr || *text == '\0' || std::strcmp(text, "sampled") == 0) return timing::sampled;
  if (std::strcmp(text, "exact") == 0) return timing::exact;
  std::fprintf(stderr, "ccrc: CCRC_TIME must be 'sampled' or 'exact', not '%s'; using sampled\n", text);
  return timing::sampled;
}

// Sampled timing takes SIGPROF, unless the program has a handler for it already (gprof's -pg,
// another profiler): then every call is timed.
timing take_sigprof(timing wanted) noexcept {
  if (wanted != timing::sampled) return wanted;
  struct sigaction old {};
  real_sigaction()(SIGPROF, nullptr, &old);
  if ((old.sa_flags & SA_SIGINFO) != 0 || (old.sa_handler != SIG_DFL && old.sa_handler != SIG_IGN)) {
    std::fprintf(stderr, "ccrc: SIGPROF has a handler already (another profiler?): timing every call (CCRC_TIME=exact)\n");
    return timing::exact;
  }
  program_sigprof = old;
  struct sigaction action {};
  action.sa_sigaction = on_sigprof;
  action.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&action.sa_mask);
  if (real_sigaction()(SIGPROF, &action, nullptr) != 0) return timing::exact;
  owns_sigprof.store(true);
  return timing::sampled;
}

void initialize() noexcept {
  try {
    process = new process_state;
    process->skip = split_skip_list(std::getenv("CCRC_SKIP"));
    process->start_ns = clock_ns();
    process->start_ticks = now_ticks();
    (void)real_sigaction();
    (void)ccrc_runtime::real_dlclose();
    timing wanted = timing_from_env();
    if (wanted == timing::sampled)
      process->period_ns = 1'000'000'000u / ccrc_runtime::number_from_env("CCRC_SAMPLE_HZ", 1, 100'000, 1000);
    process->time = take_sigprof(wanted);
    pthread_key_create(&process->key, thread_ended);
    pthread_atfork(fork_prepare, fork_parent, fork_child);
    std::atexit(write_at_exit);
  } catch (...) {
    world.fetch_or(stopping_bit);  // out of memory before main: profile nothing
  }
}

bool matches(const std::string& pattern, std::string_view name) {
  if (!pattern.empty() && pattern.back() == '*')
    return name.starts_with(std::string_view(pattern).substr(0, pattern.size() - 1));
  return name == pattern;
}

bool is_skipped(const ccrc_runtime::resolved_name& r) {
  for (const std::string& p : process->skip)
    if (matches(p, r.name) || (!r.symbol.empty() && matches(p, r.symbol))) return true;
  return false;
}

// A function not in the thread's table is interned on first sight under its name, which is
// taken now, while its module is loaded (null_frame if memory is short: the call is not
// recorded).
ccrc::frame_id thread_state::frame_of(std::uintptr_t fn) noexcept {
  ccrc::frame_id f = frames.find(fn);
  if (f != ccrc::null_frame) return f;
  slow_section slow;
  try {
    ccrc_runtime::resolved_name r = process->names.name_of(fn);
    f = is_skipped(r) ? skipped_frame : tree.intern(r.name);
    frames.insert(fn, f);
    return f;
  } catch (...) {
    return ccrc::null_frame;
  }
}

// The world changed since the thread's last hook: false if the profile is being written
// (the hook does nothing); after a module was unloaded, the thread forgets the frames of the
// addresses it knew (another module may be loaded there) and names them again.
// The deferred bit is cleared: the caller replays what signal handlers set aside (a handler
// that sets more aside meanwhile leaves it in the ring, which the caller reads after).
CCRC_COLD bool catch_up(thread_state& s) noexcept {
  std::uint64_t w = world.load(std::memory_order_relaxed);
  if ((w & stopping_bit) != 0) return false;
  if ((s.world_seen.load(std::memory_order_relaxed) & ~deferred_bit) != w) {
    slow_section slow;
    s.steps.clear();
    try {
      s.frames.clear();
    } catch (...) {
      // out of memory: the table keeps its slots; clear() assigns them, it does not grow
    }
  }
  s.world_seen.store(w, std::memory_order_relaxed);
  return true;
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
  s->refresh_calls();
  s->time = process->time;
  s->level = &tls.hook_level;
  s->world_seen.store(world.load() & ~stopping_bit);
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
  if (s->time == timing::sampled && s->counts.cover(ccrc::root_node))
    s->timer = ccrc_runtime::start_cpu_timer(process->period_ns, SIGPROF, &sample_cookie);
  return s;
}

void unlink(thread_state* s) noexcept {  // registry_mutex held
  if (s->prev) s->prev->next = s->next;
  else process->live = s->next;
  if (s->next) s->next->prev = s->prev;
  s->prev = s->next = nullptr;
}

// A hook called by a signal handler that interrupted a hook of this thread, whose tree may be
// half updated: the event waits in the thread's ring, to be replayed by the hook it
// interrupted. An entry is set aside only with room kept for its exit and for the exits of
// the entries set aside before it; one that finds no room is counted as lost, and so is every
// call under it (their exits dropped with them). Async-signal-safe: no allocation, no lock.
void defer(const hook_call& c, bool enter) noexcept {
  if (stopping()) return;  // the profile is being written
  thread_state* s = tls.current;
  if (s == ended_thread) return;  // as any call after the thread's end
  if (s == nullptr) {
    if (enter) lost_unregistered.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  std::uint64_t t = s->time == timing::exact ? now_ticks() : 0;
  if (enter) {
    // The room for this call's exit is claimed first: a handler interrupting this one keeps it.
    std::uint32_t open = s->deferred_open.fetch_add(1, std::memory_order_relaxed);
    if (s->dropped_depth.load(std::memory_order_relaxed) == 0 && s->push_deferred({c, t | entry_bit}, open + 1)) {
      s->world_seen.fetch_or(deferred_bit, std::memory_order_relaxed);
      return;
    }
    s->deferred_open.fetch_sub(1, std::memory_order_relaxed);
    s->dropped_depth.fetch_add(1, std::memory_order_relaxed);
    s->lost_calls.fetch_add(1, std::memory_order_relaxed);
  } else if (s->dropped_depth.load(std::memory_order_relaxed) > 0) {
    s->dropped_depth.fetch_sub(1, std::memory_order_relaxed);
  } else if (s->deferred_open.load(std::memory_order_relaxed) > 0) {
    (void)s->push_deferred({c, t}, 0);  // fits: its room was kept
    s->deferred_open.fetch_sub(1, std::memory_order_relaxed);
    s->world_seen.fetch_or(deferred_bit, std::memory_order_relaxed);
  }
}

// Replays the events signal handlers set aside, oldest first, those they add meanwhile
// included: each is recorded as if its hook had run then, under the context open now. In a
// slow section: a handler that interrupts the replay sets its own calls aside.
CCRC_COLD void replay_deferred(thread_state& s) noexcept {
  slow_section slow;
  std::uint32_t head = s.deferred_head.load(std::memory_order_relaxed);
  while (head != s.deferred_tail.load(std::memory_order_acquire)) {
    deferred_event e = s.deferred[head % deferred_capacity];
    s.deferred_head.store(++head, std::memory_order_relaxed);
    if (e.t & entry_bit) s.step<true>(e.call, e.t & ~entry_bit);
    else s.step<false>(e.call, e.t);
  }
}

// A thread's calls, its deferred ones included, closed at time t and merged into the
// process's tree (registry_mutex held; the thread's timer off, or the profile being written).
void merge_thread(thread_state& s, std::uint64_t t) {
  if (s.has_deferred()) replay_deferred(s);
  s.settle(t);
  if (s.time == timing::sampled) s.add_counts();
  process->lost_calls += s.lost_calls.load(std::memory_order_relaxed);
  ccrc::merge(process->finished, s.tree);
}

// The profile as written: the running tree's self time in nanoseconds (`ns` a tick or an
// interval) and total_ns, the sum of self_ns over each context's subtree; with sampled
// timing, the intervals as `samples` too: self_ns / samples is the timer's period.
template <class Profile>
Profile named_profile(const tree_type& in, double ns) {
  Profile out;
  std::vector<ccrc::node_id> node_map =
      ccrc_runtime::named_copy(in, out, [&](ccrc::frame_id f) { return in.symbols().name(f); });
  std::vector<double> self(in.size());
  for (ccrc::node_id n = 0; n < in.size(); ++n) self[n] = static_cast<double>(in.get<"self">(n)) * ns;
  std::vector<double> total = self;
  ccrc::inclusive_in_place(in.tree(), std::span(total));
  for (ccrc::node_id n = 1; n < in.size(); ++n) {
    ccrc::node_id m = node_map[n];
    out.template get<"calls">(m) += static_cast<double>(in.get<"calls">(n));
    out.template get<"self_ns">(m) += self[n];
    out.template get<"total_ns">(m) += total[n];
    if constexpr (Profile::metric_count == 4) out.template get<"samples">(m) += static_cast<double>(in.get<"self">(n));
  }
  return out;
}

using exact_profile = ccrc::cct<ccrc::metric<"calls", double>, ccrc::metric<"self_ns", double>,
                                ccrc::metric<"total_ns", double>>;
using sampled_profile = ccrc::cct<ccrc::metric<"calls", double>, ccrc::metric<"self_ns", double>,
                                  ccrc::metric<"total_ns", double>, ccrc::metric<"samples", double>>;

// Makes sure no other thread is inside a hook: they see the stopping bit on their next call;
// one already inside finishes its call first. A process-wide memory barrier (membarrier) makes
// their hook levels visible; where the kernel refuses it, a millisecond's sleep stands in.
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
    for (int i = 0; s != self && s->level->load(std::memory_order_acquire) != 0 && i < 100'000; ++i) {
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
  world.fetch_or(stopping_bit);
  std::lock_guard lock(process->registry_mutex);
  if (process->written) return;
  process->written = true;
  thread_state* self = tls.current == ended_thread ? nullptr : tls.current;
  wait_for_hooks(self);
  try {
    std::uint64_t t = now_ticks();
    // Threads still running when the process exits: their calls so far, open ones closed now.
    for (thread_state* s = process->live; s; s = s->next) merge_thread(*s, t);
    // The calls no thread could record, as the top-level context [lost].
    if (std::uint64_t lost = process->lost_calls + lost_unregistered.load(); lost > 0) {
      ccrc::frame_id frame = process->finished.intern("[lost]");
      process->finished.add_path(std::span(&frame, 1), lost, 0);
    }
    std::string path = ccrc_runtime::output_path(process->forked_child);
    if (process->time == timing::exact)
      ccrc_runtime::write_profile(named_profile<exact_profile>(process->finished, tick_ns()), path);
    else
      ccrc_runtime::write_profile(
          named_profile<sampled_profile>(process->finished, static_cast<double>(process->period_ns)), path);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ccrc: cannot write the profile: %s\n", e.what());
  }
}

// The thread's end (a pthread key destructor, on the thread). Its hook level stays 0: once
// `tls.current` says it ended, its hooks do nothing (calls made by later thread-exit destructors,
// or caused by the merge, are not profiled), and the writer at exit, which holds the registry
// while it waits for the threads inside a hook, must not wait for this one.
void thread_ended(void* p) noexcept {
  auto* s = static_cast<thread_state*>(p);
  tls.current = ended_thread;
  std::atomic_signal_fence(std::memory_order_seq_cst);
  if (s->timer) timer_delete(*s->timer);  // a signal still pending finds the thread ended
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
// reset, so that their exits find them. Its frames keep their names (the parent named them).
void fork_child() noexcept {
  unsigned level = tls.hook_level.load(std::memory_order_relaxed);
  enter_hook();  // as in a hook: what this calls is not recorded
  struct lower_guard {
    unsigned level;
    ~lower_guard() { leave_hook(level); }
  } lower{level};
  process->names.unlock();
  process->registry_mutex.unlock();
  process->forked_child = true;
  process->live = nullptr;  // the other threads do not exist here: their states are abandoned
  process->lost_calls = 0;
  lost_unregistered.store(0);
  thread_state* s = is_live(tls.current) ? tls.current : nullptr;
  try {
    process->finished = tree_type{};
    if (s == nullptr) return;
    s->forget_deferred();
    s->prev = s->next = nullptr;
    process->live = s;
    std::vector<std::string> names;
    for (const open_call& c : s->stack.calls()) names.emplace_back(s->tree.symbols().name(s->frames.find(c.fn)));
    s->tree = tree_type{};
    s->at = ccrc::cursor<tree_type>(s->tree);
    s->frames.clear();
    s->steps.clear();
    s->counts.clear();  // the parent's; the child has no timer yet
    (void)s->counts.cover(ccrc::root_node);
    std::uint64_t t = now_ticks();
    std::span<open_call> calls = s->stack.calls();
    for (std::size_t i = 0; i < calls.size(); ++i) {
      open_call& c = calls[i];
      ccrc::frame_id f = s->tree.intern(names[i]);
      if (s->frames.find(c.fn) == ccrc::null_frame) s->frames.insert(c.fn, f);
      s->at.enter(f);
      (void)s->counts.cover(s->at.node());
      c.node = s->at.node();
      c.start = t;
      c.callees = 0;
    }
    s->stack.sentinel().callees = 0;
    s->refresh_calls();
    s->published.store(s->at.node());
    if (s->time == timing::sampled) s->timer = ccrc_runtime::start_cpu_timer(process->period_ns, SIGPROF, &sample_cookie);
  } catch (...) {
    world.fetch_or(stopping_bit);  // out of memory: the child writes what it has
  }
}

// A hook called while this thread is inside a hook already: set aside if a signal handler
// made the call (it interrupted the hook), ignored if the hook itself caused it.
void nested_call(unsigned level, const hook_call& c, bool enter) noexcept {
  if (level == hot_level || level != tls.signal_depth.load(std::memory_order_relaxed) + 1) defer(c, enter);
}

// A hook, whole: what the fast path below leaves to it (a thread inside a hook already, a
// thread without a state, or ended; the world changed; a step not in the cache; an exit whose
// call is not on top) and every other case, for which it is the same.
template <bool Enter>
CCRC_COLD void slow_hook(std::uintptr_t fn, std::uintptr_t call_site, std::uintptr_t hook_cfa, std::uintptr_t site) noexcept {
  thread_state* s = tls.current;
  const hook_call c = caller_frame(fn, call_site, hook_cfa, site, is_live(s) ? s->stack_end(hook_cfa) : hook_cfa + 512);
  if (unsigned level = tls.hook_level.load(std::memory_order_relaxed); level != 0) return nested_call(level, c, Enter);
  enter_hook();
  if (s == nullptr && Enter) s = tls.current = register_thread();
  if (is_live(s) && catch_up(*s)) {
    if (s->has_deferred()) replay_deferred(*s);  // set aside while an earlier hook ran: before this one
    s->step<Enter>(c, s->time == timing::exact ? now_ticks() : 0);
  }
  leave_hook();
  if (is_live(s) && s->has_deferred()) replay_deferred(*s);  // set aside while this one ran
}

// A hook's fast path: the thread known, nothing changed (no module unloaded, no signal
// handler's call set aside), and for an entry the step in the cache, for an exit its call on
// top. It calls nothing (the clock is an instruction), so it needs no frame (g++ 12 saves four
// registers); anything else goes to slow_hook, a tail call, with nothing changed. The thread is
// marked as inside a hook (hot_level) before it reads the world, so that the writer at exit
// either sees it inside or is seen by it (wait_for_hooks). A signal handler's calls set aside
// while it runs are replayed by the next hook, which finds the deferred bit and takes the
// slow path: the context open then is the one this hook left.
template <bool Enter>
CCRC_INLINE void hook(std::uintptr_t fn, std::uintptr_t call_site, std::uintptr_t hook_cfa, std::uintptr_t site) noexcept {
  thread_state* s = tls.current;
  if (tls.hook_level.load(std::memory_order_relaxed) != 0 || !is_live(s)) [[unlikely]]
    return slow_hook<Enter>(fn, call_site, hook_cfa, site);
  tls.hook_level.store(hot_level, std::memory_order_relaxed);
  std::atomic_signal_fence(std::memory_order_seq_cst);
  bool done = world.load(std::memory_order_relaxed) == s->world_seen.load(std::memory_order_relaxed) &&
              (s->time == timing::sampled ? s->fast_step<Enter, timing::sampled>(fn, call_site, hook_cfa, site, 0)
                                          : s->fast_step<Enter, timing::exact>(fn, call_site, hook_cfa, site, now_ticks()));
  std::atomic_signal_fence(std::memory_order_seq_cst);
  tls.hook_level.store(0, std::memory_order_release);
  std::atomic_signal_fence(std::memory_order_seq_cst);
  if (!done) [[unlikely]]
    return slow_hook<Enter>(fn, call_site, hook_cfa, site);
}

}  // namespace

// Flattened: the cursor's step inlined (GCC 12 left it a call); the slow paths are not
// (noinline). The hook's own CFA, which a function without a frame pointer has too, leads to
// the instrumented function's (caller_frame()).
CCRC_HOOK __attribute__((flatten)) void __cyg_profile_func_enter(void* fn, void* call_site) {
  hook<true>(reinterpret_cast<std::uintptr_t>(fn), reinterpret_cast<std::uintptr_t>(call_site),
             reinterpret_cast<std::uintptr_t>(__builtin_dwarf_cfa()),
             reinterpret_cast<std::uintptr_t>(__builtin_return_address(0)));
}

CCRC_HOOK __attribute__((flatten)) void __cyg_profile_func_exit(void* fn, void* call_site) {
  hook<false>(reinterpret_cast<std::uintptr_t>(fn), reinterpret_cast<std::uintptr_t>(call_site),
              reinterpret_cast<std::uintptr_t>(__builtin_dwarf_cfa()),
              reinterpret_cast<std::uintptr_t>(__builtin_return_address(0)));
}

// sigaction, interposed: a handler the program installs runs through run_program_handler,
// with SA_SIGINFO added; the program is told of its own handler, never of the trampoline.
// While sampled timing owns SIGPROF, the program's SIGPROF action is kept and not installed:
// the library's handler passes it the SIGPROFs that are not its timer's.
CCRC_INTERPOSED int sigaction(int sig, const struct sigaction* __restrict act, struct sigaction* __restrict old) noexcept {
  sigaction_function real = real_sigaction();
  if (real == nullptr) {
    errno = ENOSYS;
    return -1;
  }
  if (sig <= 0 || sig >= NSIG) return real(sig, act, old);  // the C library's error
  plain_handler was_handler = program_handlers[sig].load();
  info_handler was_action = program_actions[sig].load();
  bool wraps = act != nullptr && act->sa_handler != SIG_DFL && act->sa_handler != SIG_IGN;
  if (sig == SIGPROF && owns_sigprof.load()) {
    struct sigaction was = program_sigprof;
    if (act != nullptr) {
      bool info = (act->sa_flags & SA_SIGINFO) != 0;
      program_actions[sig].store(wraps && info ? act->sa_sigaction : nullptr);
      program_handlers[sig].store(wraps && !info ? act->sa_handler : nullptr);
      program_sigprof = *act;
    }
    if (old != nullptr) *old = was;
    return 0;
  }
  struct sigaction wrapped {};
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
CCRC_INTERPOSED sighandler_t signal(int sig, sighandler_t handler) noexcept {
  struct sigaction act {}, old {};
  act.sa_handler = handler;
  sigemptyset(&act.sa_mask);
  act.sa_flags = SA_RESTART;
  if (sigaction(sig, &act, &old) != 0) return SIG_ERR;
  return old.sa_handler;
}

// dlclose, interposed: the functions of a module are named on first sight, while it is
// loaded; once it is unloaded, the names of its addresses are forgotten and every thread
// forgets the frames of the addresses it knew, at its next hook: a module loaded later at the
// same addresses has functions of its own. The module's destructors, which the C library's
// dlclose runs, are profiled as any other calls.
CCRC_INTERPOSED int dlclose(void* handle) noexcept {
  ccrc_runtime::dlclose_function real = ccrc_runtime::real_dlclose();
  if (real == nullptr) return -1;
  unsigned level = tls.hook_level.load(std::memory_order_relaxed);
  enter_hook();
  ccrc_runtime::address_range range = ccrc_runtime::module_range(handle);
  leave_hook(level);
  int r = real(handle);
  if (process != nullptr) {
    enter_hook();
    process->names.forget(range);
    leave_hook(level);
    world.fetch_add(unload_step);
  }
  return r;
}

// Reads the environment and installs the exit, thread and fork handlers when the library is
// loaded, if no hook has done so earlier.
// The guard is up meanwhile: the standard library's templates the initialisation calls may be
// the program's instrumented copies (the static library; libstdc++ declares them with default
// visibility), whose hooks must not re-enter pthread_once.
__attribute__((constructor)) static void ccrc_instrument_load() {
  unsigned level = tls.hook_level.load(std::memory_order_relaxed);
  enter_hook();
  pthread_once(&init_once, initialize);
  leave_hook(level);
}
