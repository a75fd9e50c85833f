// ccrc - an ensemble of many runs, read on several threads and added in order.
#pragma once

#include <ccrc/ensemble/statistics.hpp>
#include <ccrc/transform/merge_all.hpp>

#include <algorithm>
#include <concepts>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <limits>
#include <mutex>
#include <optional>
#include <span>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace ccrc {

struct ensemble_all_options {
  /// Threads to use, the calling one included; 0: std::thread::hardware_concurrency().
  unsigned threads = 0;
};

namespace detail {

// A run read, with its inclusive columns, waiting for its turn to be added.
struct read_run {
  std::optional<profile> run;  // empty: skipped
  std::vector<std::vector<double>> inclusive;
};

template <class T>
std::optional<profile> as_optional_profile(T&& made) {
  if constexpr (std::is_same_v<std::remove_cvref_t<T>, profile>)
    return std::optional<profile>(std::forward<T>(made));
  else
    return std::forward<T>(made);
}

}  // namespace detail

/// The ensemble of `count` runs, run i being `make(i)` (a ccrc::profile, or an optional one,
/// empty to skip input i), added in order of i: the ensemble that adding them one after the
/// other gives, bit for bit, whatever the number of threads. make(i) and the run's inclusive
/// columns are computed on up to `options.threads` threads (the calling one among them), at
/// most two runs per thread ahead of the one being added; the adding is done by whichever
/// thread has the next run, and then `added(i, run, map)` is called, in order of i, with the
/// ensemble's node for each node of the run (to collect its share vector, say). An exception
/// from `make` (or from adding) stops the work, and that of the lowest failing index is
/// rethrown. Memory: the ensemble and the runs in flight. O(total size of the runs x metrics).
///
///     ccrc::ensemble e = ccrc::ensemble_all(paths.size(), [&](std::size_t i) {
///       return ccrc::read_profile_file(paths[i]).profile;
///     });
template <class Make, class Added>
  requires std::invocable<Make&, std::size_t> &&
           std::invocable<Added&, std::size_t, const profile&, std::span<const node_id>>
ensemble ensemble_all(std::size_t count, Make&& make, Added&& added, ensemble_all_options options = {}) {
  ensemble out;
  const unsigned threads = options.threads != 0 ? options.threads : std::max(1u, std::thread::hardware_concurrency());
  auto read = [&](std::size_t i) {
    detail::read_run r{detail::as_optional_profile(make(i)), {}};
    if (r.run) r.inclusive = inclusive_columns(*r.run);
    return r;
  };
  auto add = [&](std::size_t i, detail::read_run& r) {
    if (!r.run) return;
    std::vector<node_id> map = out.add(*r.run, r.inclusive);
    added(i, std::as_const(*r.run), std::span<const node_id>(map));
  };
  if (threads <= 1 || count <= 1) {
    for (std::size_t i = 0; i < count; ++i) {
      detail::read_run r = read(i);
      add(i, r);
    }
    return out;
  }

  // Runs next_read.. are handed out to read, next_add is the next to add; run i waits in
  // slot i % window. Whoever stores the next run to add, while nobody adds, adds it and every
  // run after it that is ready.
  const std::size_t window = 2 * static_cast<std::size_t>(threads);
  std::vector<std::optional<detail::read_run>> slots(window);
  std::mutex m;
  std::condition_variable room;
  std::size_t next_read = 0, next_add = 0;
  bool adding = false, failed = false;
  std::size_t failed_at = std::numeric_limits<std::size_t>::max();
  std::exception_ptr error;
  auto fail = [&](std::size_t i) {  // with m held
    if (i < failed_at) failed_at = i, error = std::current_exception();
    failed = true;
    room.notify_all();
  };
  auto work = [&] {
    std::unique_lock lock(m);
    for (;;) {
      room.wait(lock, [&] { return failed || next_read >= count || next_read < next_add + window; });
      if (failed || next_read >= count) return;
      const std::size_t i = next_read++;
      lock.unlock();
      std::optional<detail::read_run> r;
      try {
        r = read(i);
      } catch (...) {
        lock.lock();
        fail(i);
        return;
      }
      lock.lock();
      slots[i % window] = std::move(r);
      if (adding) continue;
      adding = true;
      while (!failed && next_add < count && slots[next_add % window]) {
        detail::read_run next = std::move(*slots[next_add % window]);
        slots[next_add % window].reset();
        lock.unlock();
        try {
          add(next_add, next);
        } catch (...) {
          lock.lock();
          fail(next_add);
          break;
        }
        lock.lock();
        ++next_add;
        room.notify_all();
      }
      adding = false;
    }
  };
  detail::run_tasks(std::min<std::size_t>(threads, count), threads, [&](std::size_t) { work(); });
  if (error) std::rethrow_exception(error);
  return out;
}

/// ensemble_all with nothing to do as each run is added.
template <class Make>
  requires std::invocable<Make&, std::size_t>
ensemble ensemble_all(std::size_t count, Make&& make, ensemble_all_options options = {}) {
  return ensemble_all(count, std::forward<Make>(make), [](std::size_t, const profile&, std::span<const node_id>) {}, options);
}

}  // namespace ccrc
