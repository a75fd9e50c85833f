#include <ccrc/ensemble/cluster.hpp>

#include "support/naive_ensemble.hpp"
#include "support/random.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace {

ccrc::distance_matrix matrix_of(const std::vector<std::vector<double>>& rows) {
  ccrc::distance_matrix d(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i)
    for (std::size_t j = i + 1; j < rows.size(); ++j) d.set(i, j, rows[i][j]);
  return d;
}

// Points on a line, distance |x - y| / 10.
std::vector<std::vector<double>> line(const std::vector<double>& x) {
  std::vector<std::vector<double>> d(x.size(), std::vector<double>(x.size()));
  for (std::size_t i = 0; i < x.size(); ++i)
    for (std::size_t j = 0; j < x.size(); ++j) d[i][j] = std::abs(x[i] - x[j]) / 10;
  return d;
}

std::vector<std::vector<std::size_t>> members_of(const std::vector<ccrc::run_cluster>& c) {
  std::vector<std::vector<std::size_t>> out;
  for (const auto& g : c) out.push_back(g.members);
  return out;
}

}  // namespace

TEST_CASE("average linkage by hand: five points on a line") {
  // 0, 1, 3, 7, 8: (0,1) and (3,4) are 0.1 apart, (0,1) goes first (lower members); then
  // (3,4); then {0,1} and 2 (average 0.25, against 0.45 for 2 and {3,4}); then all (0.6).
  auto d = matrix_of(line({0, 1, 3, 7, 8}));
  using groups = std::vector<std::vector<std::size_t>>;
  CHECK(members_of(ccrc::cluster_runs(d, {.groups = 4})) == groups{{0, 1}, {2}, {3}, {4}});
  CHECK(members_of(ccrc::cluster_runs(d, {.groups = 3})) == groups{{0, 1}, {2}, {3, 4}});
  auto two = ccrc::cluster_runs(d, {.groups = 2});
  CHECK(members_of(two) == groups{{0, 1, 2}, {3, 4}});
  CHECK(two[0].exemplar == 1);  // sums 0.4, 0.3, 0.5
  CHECK(two[1].exemplar == 3);  // a tie: the lower index
  auto one = ccrc::cluster_runs(d);
  CHECK(members_of(one) == groups{{0, 1, 2, 3, 4}});
  CHECK(one[0].exemplar == 2);  // sums 1.9, 1.6, 1.4, 2.2, 2.5
  // A threshold: merges while the closest groups are at most that far apart.
  CHECK(members_of(ccrc::cluster_runs(d, {.max_distance = 0.1})) == groups{{0, 1}, {2}, {3, 4}});
  CHECK(members_of(ccrc::cluster_runs(d, {.max_distance = 0.3})) == groups{{0, 1, 2}, {3, 4}});
  CHECK(members_of(ccrc::cluster_runs(d, {.groups = 5})) == groups{{0}, {1}, {2}, {3}, {4}});
  CHECK(ccrc::cluster_runs(ccrc::distance_matrix{}).empty());
}

TEST_CASE("exemplar_of: the least summed distance, the lowest index of equals") {
  auto d = matrix_of(line({0, 2, 4, 6}));
  std::vector<std::size_t> all = {0, 1, 2, 3};
  CHECK(ccrc::exemplar_of(d, all) == 1);  // 1 and 2 both sum 0.8
  std::vector<std::size_t> some = {0, 3};
  CHECK(ccrc::exemplar_of(d, some) == 0);
  std::vector<std::size_t> one = {2};
  CHECK(ccrc::exemplar_of(d, one) == 2);
}

TEST_CASE("clusters equal the naive reference (averages from the members' pairs) on random distances") {
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    CAPTURE(seed);
    test::rng r{seed};
    const std::size_t n = 1 + r.below(14);
    std::vector<std::vector<double>> rows(n, std::vector<double>(n, 0.0));
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = i + 1; j < n; ++j) rows[i][j] = rows[j][i] = r.uniform();
    auto d = matrix_of(rows);
    for (std::size_t k = 1; k <= n; ++k) {
      auto got = ccrc::cluster_runs(d, {.groups = k});
      auto want = naive::clusters(rows, k);
      REQUIRE(got.size() == want.size());
      for (std::size_t g = 0; g < got.size(); ++g) {
        CHECK(got[g].members == want[g].members);
        CHECK(got[g].exemplar == want[g].exemplar);
      }
    }
    const double limit = r.uniform();
    CHECK(members_of(ccrc::cluster_runs(d, {.max_distance = limit})).size() == naive::clusters(rows, 1, limit).size());
  }
}

TEST_CASE("the order of the runs changes the clusters' indexes only") {
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    test::rng r{seed};
    const std::size_t n = 3 + r.below(12);
    std::vector<std::vector<double>> rows(n, std::vector<double>(n, 0.0));
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = i + 1; j < n; ++j) rows[i][j] = rows[j][i] = r.uniform();
    std::vector<std::size_t> to(n);  // run i is run to[i] of the permuted order
    std::iota(to.begin(), to.end(), 0);
    for (std::size_t i = n - 1; i > 0; --i) std::swap(to[i], to[r.below(static_cast<std::uint32_t>(i + 1))]);
    std::vector<std::vector<double>> permuted(n, std::vector<double>(n));
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) permuted[to[i]][to[j]] = rows[i][j];
    for (std::size_t k = 1; k <= n; k += 2) {
      auto a = ccrc::cluster_runs(matrix_of(rows), {.groups = k});
      auto b = ccrc::cluster_runs(matrix_of(permuted), {.groups = k});
      // Members map one to one; so do exemplars, except in a pair, where both sums are the
      // one distance and the lower index wins in either order.
      std::vector<std::pair<std::vector<std::size_t>, std::size_t>> mapped, other;
      for (const auto& g : a) {
        std::vector<std::size_t> m;
        for (std::size_t i : g.members) m.push_back(to[i]);
        std::sort(m.begin(), m.end());
        mapped.emplace_back(m, m.size() == 2 ? m[0] : to[g.exemplar]);
      }
      for (const auto& g : b) other.emplace_back(g.members, g.exemplar);
      std::sort(mapped.begin(), mapped.end());
      CHECK(mapped == other);
    }
  }
}
