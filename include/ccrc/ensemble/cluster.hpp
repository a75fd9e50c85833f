// ccrc - runs grouped by how alike they spend their cost (average-linkage agglomerative
// clustering, as Trevis groups calling context trees), with the exemplar of each group.
#pragma once

#include <ccrc/ensemble/distance.hpp>

#include <algorithm>
#include <cstddef>
#include <limits>
#include <span>
#include <vector>

namespace ccrc {

/// When cluster_runs stops merging groups.
struct cluster_options {
  /// The number of groups wanted: merging stops when this many remain (0 counts as 1).
  std::size_t groups = 1;
  /// ... or when the two closest groups are farther apart than this (default: no limit).
  double max_distance = std::numeric_limits<double>::infinity();
};

/// A group of runs: their indexes, increasing, and the one that represents them.
struct run_cluster {
  std::vector<std::size_t> members;
  std::size_t exemplar = 0;
};

/// The exemplar of a group of runs: the member with the least sum of distances to the others
/// (the medoid), the lowest index of those with equal sums. Sums are taken in member order.
/// O(members^2).
[[nodiscard]] inline std::size_t exemplar_of(const distance_matrix& d, std::span<const std::size_t> members) {
  CCRC_ASSERT(!members.empty(), "ccrc: a group has members");
  std::size_t best = members[0];
  double least = std::numeric_limits<double>::infinity();
  for (std::size_t m : members) {
    double sum = 0;
    for (std::size_t o : members) sum += d(m, o);
    if (sum < least || (sum == least && m < best)) best = m, least = sum;
  }
  return best;
}

/// The runs of `d` grouped by average-linkage (UPGMA) agglomerative clustering: every run its
/// own group, then again and again the two groups of least average distance between their
/// members merged, until options.groups remain or the closest two are farther apart than
/// options.max_distance. Of pairs at equal distance, the one whose groups have the lowest first
/// members goes first, so the result depends on the distances alone. Groups come by their
/// first member, each with its exemplar (exemplar_of).
///
/// Distances between groups follow the Lance-Williams update (the merged group's distance to
/// another is the size-weighted mean of its parts'), and each group keeps its nearest neighbour,
/// so a merge costs O(N) plus O(N) for each group whose neighbour was one of the two merged:
/// O(N^2) in practice, O(N^3) at worst, O(N^2) memory.
///
///     auto groups = ccrc::cluster_runs(ccrc::distances(shares), {.groups = 2});
[[nodiscard]] inline std::vector<run_cluster> cluster_runs(const distance_matrix& d, cluster_options options = {}) {
  const std::size_t n = d.size(), wanted = std::max<std::size_t>(options.groups, 1);
  std::vector<double> between(n * n);  // between groups, by their first members
  for (std::size_t i = 0; i < n; ++i) std::copy(d.row(i).begin(), d.row(i).end(), between.begin() + static_cast<std::ptrdiff_t>(i * n));
  auto at = [&](std::size_t i, std::size_t j) -> double& { return between[i * n + j]; };
  std::vector<std::vector<std::size_t>> members(n);
  for (std::size_t i = 0; i < n; ++i) members[i] = {i};
  std::vector<bool> active(n, true);
  constexpr std::size_t none = std::numeric_limits<std::size_t>::max();
  std::vector<std::size_t> nearest(n, none);
  std::vector<double> nearest_at(n, std::numeric_limits<double>::infinity());
  auto find_nearest = [&](std::size_t i) {
    nearest[i] = none;
    nearest_at[i] = std::numeric_limits<double>::infinity();
    for (std::size_t j = 0; j < n; ++j)
      if (j != i && active[j] && (nearest[i] == none || at(i, j) < nearest_at[i])) nearest[i] = j, nearest_at[i] = at(i, j);
  };
  for (std::size_t i = 0; i < n; ++i) find_nearest(i);

  for (std::size_t groups = n; groups > wanted; --groups) {
    // The closest pair, by (distance, lower first member, higher first member): each group's
    // nearest is the lowest of its equals, so the pair is found among the nearest.
    std::size_t pick = none;
    auto pair_of = [&](std::size_t i) { return std::pair(std::min(i, nearest[i]), std::max(i, nearest[i])); };
    for (std::size_t i = 0; i < n; ++i) {
      if (!active[i] || nearest[i] == none) continue;
      if (pick == none || nearest_at[i] < nearest_at[pick] || (nearest_at[i] == nearest_at[pick] && pair_of(i) < pair_of(pick)))
        pick = i;
    }
    if (pick == none || !(nearest_at[pick] <= options.max_distance)) break;
    const auto [a, b] = pair_of(pick);
    const double size_a = static_cast<double>(members[a].size()), size_b = static_cast<double>(members[b].size());
    for (std::size_t k = 0; k < n; ++k)
      if (active[k] && k != a && k != b) at(a, k) = at(k, a) = (size_a * at(a, k) + size_b * at(b, k)) / (size_a + size_b);
    members[a].insert(members[a].end(), members[b].begin(), members[b].end());
    members[b].clear();
    active[b] = false;
    for (std::size_t k = 0; k < n; ++k) {
      if (!active[k] || k == a) continue;
      if (nearest[k] == a || nearest[k] == b)
        find_nearest(k);  // its distance to a changed, possibly upwards: looked for again
      else if (at(k, a) < nearest_at[k] || (at(k, a) == nearest_at[k] && a < nearest[k]))
        nearest[k] = a, nearest_at[k] = at(k, a);
    }
    find_nearest(a);
  }

  std::vector<run_cluster> out;
  for (std::size_t i = 0; i < n; ++i) {
    if (!active[i]) continue;
    std::sort(members[i].begin(), members[i].end());
    std::size_t exemplar = exemplar_of(d, members[i]);
    out.push_back({std::move(members[i]), exemplar});
  }
  return out;
}

}  // namespace ccrc
