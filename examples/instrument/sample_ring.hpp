// libccrc_sample's signal-handler side (sample.cpp): the ring buffer a thread's samples wait in,
// and the stack walk that fills it. A header of its own so that benchmarks/sample.bench.cpp
// measures this very code.
#pragma once

#include <dlfcn.h>
#include <unwind.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace ccrc_sampling {

/// libgcc's unwinder, called by name: the program may link another one under the same symbols
/// (LLVM's libunwind, which libc++ brings in), which marks the frame a signal interrupted
/// differently (on the trampoline, not on that frame, so that frame's caller is read with
/// the wrong unwind rule) and finds unwind tables under the loader's lock.
struct unwinder {
  _Unwind_Reason_Code (*backtrace)(_Unwind_Trace_Fn, void*) = nullptr;
  std::uintptr_t (*get_ip_info)(_Unwind_Context*, int*) = nullptr;
  std::uintptr_t (*get_region_start)(_Unwind_Context*) = nullptr;
};
inline unwinder libgcc;

/// Finds libgcc's unwinder (libgcc_s.so.1, loaded if it is not yet) and makes its first call,
/// which initialises it (pthread_once: not in a signal handler). Before any signal; false if
/// there is no libgcc_s.
inline bool load_libgcc_unwinder() noexcept {
  void* library = dlopen("libgcc_s.so.1", RTLD_NOW);
  if (library == nullptr) return false;
  unwinder u;
  u.backtrace = reinterpret_cast<decltype(u.backtrace)>(dlsym(library, "_Unwind_Backtrace"));
  u.get_ip_info = reinterpret_cast<decltype(u.get_ip_info)>(dlsym(library, "_Unwind_GetIPInfo"));
  u.get_region_start = reinterpret_cast<decltype(u.get_region_start)>(dlsym(library, "_Unwind_GetRegionStart"));
  if (u.backtrace == nullptr || u.get_ip_info == nullptr || u.get_region_start == nullptr) return false;
  auto count = [](_Unwind_Context*, void* frames) {
    ++*static_cast<int*>(frames);
    return _URC_NO_REASON;
  };
  int frames = 0;
  u.backtrace(count, &frames);
  libgcc = u;
  return true;
}

/// Words of a thread's ring: 2^14 (128 KiB), drained every 10 ms: 30 samples of the deepest
/// stack walked by default (512 frames), far more of a usual one, at the kernel's tick rate.
constexpr std::size_t ring_words = std::size_t{1} << 14;

/// Set in a sample's header when the walk stopped at its depth limit before the root.
constexpr std::uint64_t truncated_bit = std::uint64_t{1} << 31;

/// One thread's samples on their way from its signal handler (the only writer) to the drain
/// (the only reader), lock-free. A sample is a header word (frames | truncated_bit |
/// intervals << 32) and its frames, the innermost first.
class sample_ring {
 public:
  sample_ring() : words_(new std::uint64_t[ring_words]) {}

  // Writer side, in the signal handler: put words at offsets from the end, then publish them.
  [[nodiscard]] std::size_t free_words() const noexcept {
    return ring_words - static_cast<std::size_t>(tail_.load(std::memory_order_relaxed) -
                                                 head_.load(std::memory_order_acquire));
  }
  void put(std::size_t offset, std::uint64_t value) noexcept {
    words_[(tail_.load(std::memory_order_relaxed) + offset) & (ring_words - 1)] = value;
  }
  void publish(std::size_t words) noexcept {
    tail_.store(tail_.load(std::memory_order_relaxed) + words, std::memory_order_release);
  }

  /// Reader side: f(header, frames) for each published sample, frames innermost first, in
  /// `scratch`. O(words read).
  template <class F>
  void drain(std::vector<std::uint64_t>& scratch, F&& f) {
    std::uint64_t head = head_.load(std::memory_order_relaxed);
    const std::uint64_t tail = tail_.load(std::memory_order_acquire);
    while (head != tail) {
      std::uint64_t header = words_[head & (ring_words - 1)];
      std::size_t n = static_cast<std::size_t>(header & 0x7fffffffu);
      scratch.resize(n);
      for (std::size_t i = 0; i < n; ++i) scratch[i] = words_[(head + 1 + i) & (ring_words - 1)];
      head += 1 + n;
      f(header, std::span<const std::uint64_t>(scratch));
    }
    head_.store(head, std::memory_order_release);
  }

  /// Drops what is published and not read (a forked child: it is the parent's).
  void forget() noexcept { head_.store(tail_.load(std::memory_order_relaxed), std::memory_order_relaxed); }

 private:
  static_assert(std::atomic<std::uint64_t>::is_always_lock_free, "ccrc: the sample ring needs lock-free 64-bit atomics");
  std::unique_ptr<std::uint64_t[]> words_;
  std::atomic<std::uint64_t> head_{0}, tail_{0};
};

/// One stack walk: where it writes, and how far it goes.
struct walk {
  sample_ring& ring;
  std::size_t max_depth;
  std::uintptr_t stop_at;  ///< a function whose frame ends the walk, unrecorded (0: none)
  std::size_t n = 0;
  bool in_program = false;  ///< past the handler's own frames and the signal frame
  bool stopped = false;     ///< reached stop_at
  bool truncated = false;
};

/// One frame of the walk, outwards from the handler: frames are recorded from the interrupted
/// one on, the first whose address is exact (libgcc marks the frame a signal interrupted). A
/// frame is recorded as the entry of its function, from the unwind table that covers it (what
/// libccrc_instrument's hooks see, so the two profilers name the same functions, static ones
/// included); code without an unwind table as its address: the interrupted instruction, or a
/// return address minus one (inside the call, which is in the caller even when it is the
/// caller's last instruction).
inline _Unwind_Reason_Code on_frame(_Unwind_Context* context, void* p) {
  walk& w = *static_cast<walk*>(p);
  int exact = 0;
  std::uintptr_t ip = libgcc.get_ip_info(context, &exact);
  if (!w.in_program) {
    if (!exact) return _URC_NO_REASON;
    w.in_program = true;
  }
  if (ip == 0) return _URC_END_OF_STACK;
  std::uintptr_t entry = libgcc.get_region_start(context);
  if (w.stop_at != 0 && entry == w.stop_at) {
    w.stopped = true;
    return _URC_END_OF_STACK;
  }
  if (w.n == w.max_depth) {
    w.truncated = true;
    return _URC_END_OF_STACK;
  }
  w.ring.put(1 + w.n++, entry != 0 ? entry : exact ? ip : ip - 1);
  return _URC_NO_REASON;
}

/// In a signal handler: walks the interrupted thread's stack into `ring` (which has room for
/// max_depth + 1 words) as one sample of `intervals`, with libgcc's DWARF unwinder (the
/// programs' .eh_frame, there by default on x86-64), through the signal frame. Returns
/// whether it recorded one: not if the walk had no frame, or if `stop_at` is set and the
/// walk ended without reaching it (interrupted in the thread's start or end, above stop_at).
///
/// Async-signal-safe here: libgcc finds each frame's unwind table through glibc's
/// _dl_find_object (glibc 2.35 and later, lock-free), takes a lock only if some code
/// registered frames by hand (__register_frame: JIT compilers), and initialises itself on its
/// first call, which load_libgcc_unwinder makes before any signal. O(frames walked).
inline bool record_stack(sample_ring& ring, std::size_t max_depth, std::uintptr_t stop_at,
                         std::uint64_t intervals) noexcept {
  walk w{ring, max_depth, stop_at};
  libgcc.backtrace(on_frame, &w);
  if (w.n == 0 || (w.stop_at != 0 && !w.stopped && !w.truncated)) return false;
  ring.put(0, w.n | (w.truncated ? truncated_bit : 0) | intervals << 32);
  ring.publish(1 + w.n);
  return true;
}

}  // namespace ccrc_sampling
