// Ring chart geometry at the papers' screen size (1440x900, 001 §7.2): layout with and without
// culling at full depth and at depths 2..150 (Figures 13-16), with and without a ring_index,
// segment counts, and hit testing against a linear scan; beside it the icicle of the same view
// (the same partition in Cartesian coordinates) on the same canvas.
#include "support/ccrc_trees.hpp"
#include "support/hit_test.hpp"
#include "support/main.hpp"

#include <ccrc/algorithm/depth.hpp>
#include <ccrc/algorithm/inclusive.hpp>
#include <ccrc/geometry/hit_test.hpp>
#include <ccrc/geometry/icicle.hpp>
#include <ccrc/geometry/ring_chart.hpp>
#include <ccrc/geometry/ring_index.hpp>

#include <benchmark/benchmark.h>

#include <map>
#include <memory>
#include <vector>

namespace {

// A tree with what an interactive viewer computes once: ag(time), the heights, the index.
struct prepared {
  const bench::cct* tree;
  std::vector<double> ag;
  std::vector<std::uint32_t> heights;
  std::unique_ptr<ccrc::ring_index> index;
};

const prepared& prepared_of(std::size_t nodes) {
  static std::map<std::size_t, prepared> cache;
  auto it = cache.find(nodes);
  if (it == cache.end()) {
    const bench::cct& t = bench::tree_of(nodes);
    prepared p{&t, ccrc::inclusive(t.tree(), t.column<"time">()), ccrc::heights(t.tree()), nullptr};
    p.index = std::make_unique<ccrc::ring_index>(t.tree(), p.ag);
    it = cache.emplace(nodes, std::move(p)).first;
  }
  return it->second;
}

// How much of the prepared tree a layout may use.
enum class help { none, heights, index };

// range(0): nodes; range(1): depth limit, 0 for none.
ccrc::tree_view view_of(const benchmark::State& state, const prepared& p) {
  auto depth = static_cast<std::uint32_t>(state.range(1));
  ccrc::tree_view v(p.tree->tree(), ccrc::root_node, depth == 0 ? ccrc::unlimited_depth : depth);
  return ccrc::ring_chart_view(v, p.ag);
}

void report(benchmark::State& state, const ccrc::ring_layout& chart) {
  state.counters["segments"] = static_cast<double>(chart.segments.size());
  state.counters["lines"] = static_cast<double>(chart.count(ccrc::segment_kind::line));
  state.counters["rings"] = static_cast<double>(chart.rings());
  bench::set_items(state, chart.segments.size());
}

void report(benchmark::State& state, const ccrc::icicle_layout& chart) {
  state.counters["segments"] = static_cast<double>(chart.segments.size());
  state.counters["lines"] = static_cast<double>(chart.count(ccrc::icicle_kind::line));
  state.counters["rows"] = static_cast<double>(chart.rows());
  bench::set_items(state, chart.segments.size());
}

void layout(benchmark::State& state, double min_px, help with) {
  const prepared& p = prepared_of(bench::size_of(state));
  ccrc::tree_view v = view_of(state, p);
  ccrc::ring_options o = ccrc::on_canvas(1440, 900, {.min_arc_px = min_px});
  if (with == help::heights) o.heights = p.heights;
  if (with == help::index) o.index = p.index.get();
  ccrc::ring_layout chart;
  for (auto _ : state) {
    chart = ccrc::ring_chart(v, p.ag, o);
    benchmark::DoNotOptimize(chart.segments.data());
  }
  report(state, chart);
}

// The icicle of the same view on the same 1440x900 canvas, with the index.
void icicle(benchmark::State& state, double min_px) {
  const prepared& p = prepared_of(bench::size_of(state));
  ccrc::tree_view v = view_of(state, p);
  ccrc::icicle_options o{.width = 1440, .height = 900, .min_width_px = min_px, .index = p.index.get()};
  ccrc::icicle_layout chart;
  for (auto _ : state) {
    chart = ccrc::icicle_chart(v, p.ag, o);
    benchmark::DoNotOptimize(chart.segments.data());
  }
  report(state, chart);
}

void icicle_culled(benchmark::State& state) { icicle(state, 1); }
void icicle_uncut(benchmark::State& state) { icicle(state, 0); }

// Culling at 1 px with a ring_index: what a viewer redraws on every click or resize.
void layout_culled(benchmark::State& state) { layout(state, 1, help::index); }
// The same with only the heights: every child of a shown parent is read and sorted.
void layout_culled_sort(benchmark::State& state) { layout(state, 1, help::heights); }
// With nothing prepared: the number of rings also costs a walk of the view.
void layout_culled_walk(benchmark::State& state) { layout(state, 1, help::none); }
// No culling: every context of the view becomes a segment.
void layout_uncut(benchmark::State& state) { layout(state, 0, help::index); }

// Preparing the index, once per tree and metric.
void index_build(benchmark::State& state) {
  const prepared& p = prepared_of(bench::size_of(state));
  for (auto _ : state) {
    ccrc::ring_index index(p.tree->tree(), p.ag);
    benchmark::DoNotOptimize(index.children(0).data());
  }
  bench::set_items(state, p.ag.size());
}

// The culled chart of the view of a benchmark's arguments, with the index.
ccrc::ring_layout chart_of(const benchmark::State& state) {
  const prepared& p = prepared_of(bench::size_of(state));
  return ccrc::ring_chart(view_of(state, p), p.ag, ccrc::on_canvas(1440, 900, {.index = p.index.get()}));
}

// Hit tests at random points of the 1440x900 canvas of the culled, full-depth chart.
void hit_test(benchmark::State& state) { bench::hit_test_loop(state, chart_of(state)); }

void icicle_hit_test(benchmark::State& state) {
  const prepared& p = prepared_of(bench::size_of(state));
  bench::hit_test_loop(state, ccrc::icicle_chart(view_of(state, p), p.ag, {.width = 1440, .height = 900, .index = p.index.get()}));
}

// The baseline: every segment tested in turn.
void hit_test_linear(benchmark::State& state) {
  ccrc::ring_layout chart = chart_of(state);
  auto points = bench::random_points(256);
  std::size_t hits = 0;
  for (auto _ : state) {
    for (const auto& pt : points) {
      double r = std::hypot(pt.x - chart.center.x, pt.y - chart.center.y), a = ccrc::ring_angle(chart, pt.x, pt.y);
      for (const auto& s : chart.segments)
        if (ccrc::covers(s, r, a)) {
          ++hits;
          break;
        }
    }
    benchmark::DoNotOptimize(hits);
  }
  state.counters["segments"] = static_cast<double>(chart.segments.size());
  bench::set_items(state, points.size());
}

void sizes(benchmark::internal::Benchmark* b) {
  for (std::int64_t n : {10'000, 100'000, 1'000'000, 10'000'000}) b->Args({n, 0});
}

void depths(benchmark::internal::Benchmark* b) {
  for (std::int64_t n : {10'000, 1'000'000, 10'000'000})
    for (std::int64_t d : {2, 5, 10, 20, 50, 100, 150}) b->Args({n, d});
}

}  // namespace

BENCHMARK(layout_culled)->Apply(sizes)->Unit(benchmark::kMicrosecond);
BENCHMARK(layout_culled)->Apply(depths)->Unit(benchmark::kMicrosecond);
BENCHMARK(layout_culled_sort)->Apply(sizes)->Unit(benchmark::kMicrosecond);
BENCHMARK(layout_culled_sort)->Args({1'000'000, 2})->Args({10'000'000, 2})->Unit(benchmark::kMicrosecond);
BENCHMARK(layout_culled_walk)->Apply(sizes)->Unit(benchmark::kMicrosecond);
BENCHMARK(layout_uncut)->Apply(sizes)->Unit(benchmark::kMillisecond);
BENCHMARK(layout_uncut)->Args({1'000'000, 10})->Args({10'000'000, 10})->Unit(benchmark::kMillisecond);
BENCHMARK(icicle_culled)->Apply(sizes)->Unit(benchmark::kMicrosecond);
BENCHMARK(icicle_culled)->Args({1'000'000, 20})->Args({10'000'000, 20})->Unit(benchmark::kMicrosecond);
BENCHMARK(icicle_uncut)->Args({1'000'000, 10})->Args({10'000'000, 10})->Unit(benchmark::kMillisecond);
BENCHMARK(index_build)->Apply(sizes)->Unit(benchmark::kMillisecond);
BENCHMARK(hit_test)->Apply(sizes)->Unit(benchmark::kMicrosecond);
BENCHMARK(icicle_hit_test)->Apply(sizes)->Unit(benchmark::kMicrosecond);
BENCHMARK(hit_test_linear)->Args({10'000, 0})->Args({10'000'000, 0})->Unit(benchmark::kMicrosecond);

CCRC_BENCHMARK_MAIN();
