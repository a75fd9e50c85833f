// ccrc - merging many calling context trees into one, on several threads.
#pragma once

#include <ccrc/transform/merge.hpp>

#include <algorithm>
#include <atomic>
#include <concepts>
#include <cstddef>
#include <exception>
#include <functional>
#include <limits>
#include <mutex>
#include <optional>
#include <system_error>
#include <ranges>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace ccrc {

struct merge_all_options {
  /// Threads to use, the calling one included; 0: std::thread::hardware_concurrency().
  unsigned threads = 0;
  /// If not null, set to the most threads that ran at once, the calling one included: fewer
  /// than asked when the system would start no more (std::thread failing, as at a limit of
  /// processes or of address space), the work then shared among those that started.
  unsigned* threads_started = nullptr;
};

namespace detail {

// Runs task(0) ... task(count - 1), each once, on up to `threads` threads (the calling one
// among them: as many as the system starts), handing out indexes in increasing order. A task
// that throws stops the hand-out; once all have ended, the exception of the lowest index is
// rethrown. Every index below a failed one was handed out before it, so that is the lowest
// failing index of all. Returns the threads that ran.
template <class Task>
unsigned run_tasks(std::size_t count, unsigned threads, Task&& task) {
  if (count == 0) return 0;
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::mutex m;
  std::size_t failed_at = std::numeric_limits<std::size_t>::max();
  std::exception_ptr error;
  unsigned started = 1;
  auto work = [&] {
    for (std::size_t i; !failed.load(std::memory_order_relaxed) && (i = next.fetch_add(1)) < count;) {
      try {
        task(i);
      } catch (...) {
        std::lock_guard lock(m);
        if (i < failed_at) failed_at = i, error = std::current_exception();
        failed = true;
      }
    }
  };
  {
    std::vector<std::thread> helpers;  // not std::jthread, which libc++ 14 lacks
    struct join_all {
      std::vector<std::thread>& threads;
      ~join_all() {
        for (auto& t : threads) t.join();
      }
    } joined{helpers};
    const std::size_t extra = std::min<std::size_t>(threads, count) - 1;
    helpers.reserve(extra);
    try {
      for (std::size_t t = 0; t < extra; ++t) helpers.emplace_back(work);
    } catch (const std::system_error&) {
      // No more threads to be had: those started, and this one, share the work.
    }
    started += static_cast<unsigned>(helpers.size());
    work();
  }
  if (error) std::rethrow_exception(error);
  return started;
}

template <class T>
struct merged_tree {
  using type = T;
};
template <class T>
struct merged_tree<std::optional<T>> {
  using type = T;
};

// merge_all's tree: what make returns, or holds in an optional.
template <class Make>
using merged_tree_t = typename merged_tree<std::remove_cvref_t<std::invoke_result_t<Make&, std::size_t>>>::type;

// Merges `from` into `into`, which it fills when empty.
template <class Tree, class From>
void merge_into(std::optional<Tree>& into, From&& from) {
  if (into) merge(*into, from);
  else into.emplace(std::forward<From>(from));
}

}  // namespace detail

/// Merges `count` trees into one: the i-th is `make(i)` (a tree, a reference to one, or an
/// optional tree, empty to skip input i), called once for each i on one of `options.threads`
/// threads, so that reading the inputs runs in parallel as well as merging them. The result is the tree that merging them one
/// after the other, in order, gives: the same contexts with the same ids, the same frames,
/// the same metric columns (profiles: matched by name, in order of first appearance), and the
/// same values wherever the sums are exact (integral metrics below 2^53); only the order of
/// floating-point additions differs. No inputs (or all skipped): a default-constructed tree.
///
/// How it works: the inputs are cut into runs of consecutive indexes, a few per thread, each
/// run merged into its own tree by whichever thread takes it, and those trees merged in
/// pairs, neighbour with neighbour, in log2(runs) parallel rounds. Memory: one tree per run
/// plus the inputs being made. An exception from `make` (or from a merge) stops the work, and
/// that of the lowest failing index is rethrown, whatever the number of threads; a `make` that
/// catches its own errors and returns an empty optional instead skips the inputs that fail.
/// O(total size of the inputs), expected, divided among the threads.
///
///     ccrc::profile all = ccrc::merge_all(paths.size(), [&](std::size_t i) {
///       return ccrc::read_profile_file(paths[i]).profile;
///     });
template <class Make>
  requires std::invocable<Make&, std::size_t>
detail::merged_tree_t<Make> merge_all(std::size_t count, Make&& make, merge_all_options options = {}) {
  using tree = detail::merged_tree_t<Make>;
  const unsigned threads = options.threads != 0 ? options.threads : std::max(1u, std::thread::hardware_concurrency());
  // A few runs per thread even out inputs of unequal size; consecutive runs keep the order.
  const std::size_t runs = threads == 1 ? 1 : std::min<std::size_t>(count, std::size_t{4} * threads);
  std::vector<std::optional<tree>> merged(runs);
  const unsigned started = detail::run_tasks(runs, threads, [&](std::size_t r) {
    for (std::size_t i = count * r / runs; i < count * (r + 1) / runs; ++i) {
      decltype(auto) input = make(i);
      if constexpr (std::is_same_v<std::remove_cvref_t<decltype(input)>, tree>) {
        detail::merge_into(merged[r], std::forward<decltype(input)>(input));
      } else if (input) {
        detail::merge_into(merged[r], *std::forward<decltype(input)>(input));
      }
    }
  });
  if (options.threads_started) *options.threads_started = started;
  for (std::size_t step = 1; step < runs; step *= 2) {
    detail::run_tasks((runs + 2 * step - 1) / (2 * step), started, [&](std::size_t pair) {
      const std::size_t left = 2 * step * pair, right = left + step;
      if (right >= runs || !merged[right]) return;
      detail::merge_into(merged[left], std::move(*merged[right]));
      merged[right].reset();
    });
  }
  return runs != 0 && merged.front() ? std::move(*merged.front()) : tree{};
}

/// merge_all of the trees of a random-access range, which are copied, not moved.
///
///     ccrc::profile all = ccrc::merge_all(per_thread_profiles);
template <std::ranges::random_access_range Trees>
auto merge_all(const Trees& trees, merge_all_options options = {}) {
  return merge_all(
      static_cast<std::size_t>(std::ranges::size(trees)),
      [&](std::size_t i) -> decltype(auto) { return std::ranges::begin(trees)[static_cast<std::ranges::range_difference_t<Trees>>(i)]; },
      options);
}

}  // namespace ccrc
