// ccrc - how far apart two runs are: half the L1 distance between their self-cost shares over
// the calling contexts of an ensemble, and the matrix of every pair.
#pragma once

#include <ccrc/config.hpp>
#include <ccrc/ids.hpp>
#include <ccrc/transform/merge_all.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <span>
#include <thread>
#include <vector>

namespace ccrc {

/// A run's self cost as shares of its total over an ensemble's contexts: sparse (the contexts
/// with a value), by increasing node of the ensemble. The total is the sum of the absolute
/// values, so the shares' absolute values sum to 1 (or the run has no cost and no entry).
struct share_vector {
  std::vector<node_id> nodes;
  std::vector<double> shares;
};

/// The share vector of a run whose self values of the chosen metric are `self` (by the run's
/// node), its node n being the ensemble's node map[n] (what ensemble::add returns).
/// O(n log n) for n the run's contexts with a value.
///
///     std::vector<ccrc::node_id> map = e.add(run);
///     shares.push_back(ccrc::share_vector_of(run.column("samples"), map));
[[nodiscard]] inline share_vector share_vector_of(std::span<const double> self, std::span<const node_id> map) {
  CCRC_ASSERT(self.size() == map.size(), "ccrc: a value and an ensemble node for each node of the run");
  std::vector<std::size_t> order;
  double total = 0;
  for (std::size_t n = 0; n < self.size(); ++n)
    if (self[n] != 0) {
      order.push_back(n);
      total += std::abs(self[n]);
    }
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return map[a] < map[b]; });
  share_vector out;
  if (!(total > 0) || !std::isfinite(total)) return out;  // no cost (or none a share can be taken of)
  out.nodes.reserve(order.size());
  out.shares.reserve(order.size());
  for (std::size_t n : order) {
    out.nodes.push_back(map[n]);
    out.shares.push_back(self[n] / total);
  }
  return out;
}

/// The distance of two runs: half the L1 distance of their share vectors, the sum over every
/// context of |share in a - share in b| / 2. 0 for runs that spend their cost alike, 1 for runs
/// that share no context with a cost (and for a run with no cost against one with some; two
/// runs without cost are 0 apart). Summed in node order, so distance(a, b) == distance(b, a)
/// exactly, and 0 for equal vectors. O(entries of a + entries of b).
[[nodiscard]] inline double distance(const share_vector& a, const share_vector& b) noexcept {
  if (a.nodes.empty() || b.nodes.empty()) return a.nodes.empty() && b.nodes.empty() ? 0.0 : 1.0;
  double sum = 0;
  std::size_t i = 0, j = 0;
  const std::size_t na = a.nodes.size(), nb = b.nodes.size();
  while (i < na && j < nb) {
    if (a.nodes[i] == b.nodes[j]) {
      sum += std::abs(a.shares[i++] - b.shares[j++]);
    } else if (a.nodes[i] < b.nodes[j]) {
      sum += std::abs(a.shares[i++]);
    } else {
      sum += std::abs(b.shares[j++]);
    }
  }
  for (; i < na; ++i) sum += std::abs(a.shares[i]);
  for (; j < nb; ++j) sum += std::abs(b.shares[j]);
  return std::min(1.0, sum / 2);
}

/// A symmetric matrix of distances between runs, zero on the diagonal; row-major.
class distance_matrix {
 public:
  distance_matrix() = default;
  explicit distance_matrix(std::size_t runs) : size_(runs), values_(runs * runs, 0.0) {}

  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  [[nodiscard]] double operator()(std::size_t i, std::size_t j) const noexcept { return values_[i * size_ + j]; }
  /// Sets d(i, j) and d(j, i).
  void set(std::size_t i, std::size_t j, double d) noexcept { values_[i * size_ + j] = values_[j * size_ + i] = d; }
  /// Row i.
  [[nodiscard]] std::span<const double> row(std::size_t i) const noexcept { return {values_.data() + i * size_, size_}; }

 private:
  std::size_t size_ = 0;
  std::vector<double> values_;
};

struct distance_options {
  /// Threads to use, the calling one included; 0: std::thread::hardware_concurrency().
  unsigned threads = 0;
};

/// The distance of every pair of runs. Rows are handed out to the threads, so the result does
/// not depend on their number. O(N^2 x entries per run) time in all, divided among the threads
/// (N runs of e contexts each: N(N-1)/2 merges of two vectors of e entries); O(N^2) memory
/// beside the vectors (12 bytes an entry).
///
///     ccrc::distance_matrix d = ccrc::distances(shares);  // d(i, j) for runs i and j
[[nodiscard]] inline distance_matrix distances(std::span<const share_vector> runs, distance_options options = {}) {
  const std::size_t n = runs.size();
  distance_matrix d(n);
  const unsigned threads = options.threads != 0 ? options.threads : std::max(1u, std::thread::hardware_concurrency());
  // Rows handed out one at a time from the top (row i costs n - 1 - i merges) even the load.
  detail::run_tasks(n, threads, [&](std::size_t i) {
    for (std::size_t j = i + 1; j < n; ++j) d.set(i, j, distance(runs[i], runs[j]));
  });
  return d;
}

}  // namespace ccrc
