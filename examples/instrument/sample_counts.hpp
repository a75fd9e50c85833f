// libccrc_instrument's sampled time (instrument.cpp): per context of a thread's tree, the
// timer intervals of CPU time that the timer's signals landing there stand for. Only the
// thread's SIGPROF handler adds to them, at any instruction of the thread, while the hooks may
// be adding contexts to the tree: so they live apart from the tree's columns, which move when
// they grow, in segments that are added and never moved.
#pragma once

#include <ccrc/ids.hpp>

#include <array>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <new>

namespace ccrc_instrument {

class sample_counts {
 public:
  sample_counts() = default;
  sample_counts(const sample_counts&) = delete;
  sample_counts& operator=(const sample_counts&) = delete;
  ~sample_counts() { clear(); }

  /// Makes room for node `n` and every node below it; false if memory is short. Outside the
  /// signal handler, before `n` is published to it: a segment's address is stored before the
  /// bound that lets the handler use it. O(1) amortised; allocates.
  bool cover(ccrc::node_id n) noexcept {
    while (n >= covered_.load(std::memory_order_relaxed)) {
      std::size_t k = segment_of(covered_.load(std::memory_order_relaxed));
      auto* segment = new (std::nothrow) std::atomic<std::uint64_t>[segment_size(k)]();
      if (segment == nullptr) return false;
      segments_[k].store(segment, std::memory_order_relaxed);
      std::atomic_signal_fence(std::memory_order_seq_cst);
      covered_.store(segment_start(k + 1), std::memory_order_relaxed);
    }
    return true;
  }

  /// In the signal handler: `intervals` more in node `n` (in the root if `n` has no room:
  /// memory was short). Async-signal-safe: three loads and a store, no allocation; the handler
  /// does not interrupt itself (SIGPROF is blocked while it runs), and only it writes.
  void add(ccrc::node_id n, std::uint64_t intervals) noexcept {
    if (n >= covered_.load(std::memory_order_relaxed)) n = ccrc::root_node;
    std::atomic<std::uint64_t>& c = at(n);
    c.store(c.load(std::memory_order_relaxed) + intervals, std::memory_order_relaxed);
  }

  /// The intervals of node `n` (0 if it has no room), for the thread once its timer is off.
  [[nodiscard]] std::uint64_t intervals(ccrc::node_id n) const noexcept {
    return n < covered_.load(std::memory_order_relaxed) ? at(n).load(std::memory_order_relaxed) : 0;
  }

  /// Drops every count (a forked child's: they are its parent's), with no timer running.
  void clear() noexcept {
    covered_.store(0, std::memory_order_relaxed);
    std::atomic_signal_fence(std::memory_order_seq_cst);
    for (auto& segment : segments_) delete[] segment.exchange(nullptr, std::memory_order_relaxed);
  }

 private:
  // Segment k holds the nodes [256 (2^k - 1), 256 (2^(k+1) - 1)): 256 counts, then 512, ...;
  // 25 segments hold every node id.
  static constexpr std::size_t first_size = 256;
  static std::size_t segment_of(std::uint64_t n) noexcept {
    return static_cast<std::size_t>(std::bit_width((n + first_size) / first_size)) - 1;
  }
  static std::uint64_t segment_start(std::size_t k) noexcept { return first_size * ((std::uint64_t{1} << k) - 1); }
  static std::size_t segment_size(std::size_t k) noexcept { return first_size << k; }

  std::atomic<std::uint64_t>& at(ccrc::node_id n) const noexcept {
    std::size_t k = segment_of(n);
    return segments_[k].load(std::memory_order_relaxed)[n - segment_start(k)];
  }

  std::array<std::atomic<std::atomic<std::uint64_t>*>, 25> segments_{};
  std::atomic<std::uint64_t> covered_{0};  // the nodes below have their count
};

}  // namespace ccrc_instrument
