// Hit testing as a viewer does it: random pointer positions over a 1440x900 canvas.
#pragma once

#include "support/ccrc_trees.hpp"

#include <ccrc/geometry/hit_test.hpp>

#include <benchmark/benchmark.h>

#include <vector>

namespace bench {

/// n points spread uniformly over the 1440x900 canvas, the same in every run.
inline std::vector<ccrc::point> random_points(std::size_t n) {
  rng r{7};
  std::vector<ccrc::point> points(n);
  for (auto& p : points) p = {1440 * r.uniform(), 900 * r.uniform()};
  return points;
}

/// The benchmark loop of ccrc::hit_test at 4,096 random points of `chart` (a ring chart or an
/// icicle).
template <class Layout>
void hit_test_loop(benchmark::State& state, const Layout& chart) {
  auto points = random_points(4096);
  std::size_t hits = 0;
  for (auto _ : state) {
    for (const auto& pt : points) hits += ccrc::hit_test(chart, pt.x, pt.y).has_value();
    benchmark::DoNotOptimize(hits);
  }
  state.counters["segments"] = static_cast<double>(chart.segments.size());
  set_items(state, points.size());
}

}  // namespace bench
