// The transforms users apply to profiles (invert, focus/merge/drop/collapse a function,
// collapse runs of a package), search and intersection, per input node, against copying the
// tree: a transform builds a new tree, so a copy of the input is its floor.
#include "support/ccrc_trees.hpp"
#include "support/main.hpp"

#include <ccrc/algorithm/search.hpp>
#include <ccrc/transform/collapse_runs.hpp>
#include <ccrc/transform/function.hpp>
#include <ccrc/transform/invert.hpp>
#include <ccrc/transform/intersect.hpp>

#include <benchmark/benchmark.h>

#include <utility>

namespace {

// The trace's most called method (frame 1: the cubic skew favours low ids), and the next.
ccrc::method_set hot(const bench::cct& tree, std::uint32_t f = 1) { return {tree.symbols().method(ccrc::frame_id{f})}; }

void copy_tree(benchmark::State& state) {
  const bench::cct& tree = bench::tree_of(bench::size_of(state));
  for (auto _ : state) {
    bench::cct copy = tree;
    benchmark::DoNotOptimize(copy.column<"calls">().data());
  }
  bench::set_items(state, tree.size());
}

template <class Transform>
void run_transform(benchmark::State& state, Transform&& transform) {
  const bench::cct& tree = bench::tree_of(bench::size_of(state));
  std::size_t out = 0;
  for (auto _ : state) {
    auto r = transform(tree);
    out = r.output.size();
    benchmark::DoNotOptimize(r.node_map.data());
  }
  bench::set_items(state, tree.size());
  state.counters["out_nodes"] = static_cast<double>(out);
}

void merge_function(benchmark::State& state) {
  run_transform(state, [](const bench::cct& t) { return ccrc::merge_function(t, hot(t)); });
}
void focus_function(benchmark::State& state) {
  run_transform(state, [](const bench::cct& t) { return ccrc::focus_function(t, hot(t, 2)); });
}
void drop_function(benchmark::State& state) {
  run_transform(state, [](const bench::cct& t) { return ccrc::drop_function(t, hot(t)); });
}
void collapse_function_subtree(benchmark::State& state) {
  run_transform(state, [](const bench::cct& t) { return ccrc::collapse_function_subtree(t, hot(t)); });
}
void collapse_runs(benchmark::State& state) {
  run_transform(state, [](const bench::cct& t) { return ccrc::collapse_runs(t, ccrc::package_of); });
}
void invert(benchmark::State& state) {
  run_transform(state, [](const bench::cct& t) { return ccrc::invert(t); });
}
void invert_3_levels(benchmark::State& state) {
  run_transform(state, [](const bench::cct& t) { return ccrc::invert(t, 3); });
}

// A search by class name with a threshold: the regular expression runs once per method.
void search(benchmark::State& state) {
  const bench::cct& tree = bench::tree_of(bench::size_of(state));
  ccrc::search_query q{.name = {.text = "Class1[0-9]$", .match = ccrc::name_match::regex, .part = ccrc::name_part::class_name},
                       .min_total = ccrc::threshold{1e-4, true}};
  std::size_t found = 0;
  for (auto _ : state) {
    auto r = ccrc::search(ccrc::tree_view(tree.tree()), tree.column<"time">(), q);
    found = r.nodes.size();
    benchmark::DoNotOptimize(r.nodes.data());
  }
  bench::set_items(state, tree.size());
  state.counters["found"] = static_cast<double>(found);
}

// The tree with itself: every context is looked up in the other tree and created twice.
void intersect(benchmark::State& state) {
  const bench::cct& tree = bench::tree_of(bench::size_of(state));
  for (auto _ : state) {
    auto r = ccrc::intersect(tree, tree);
    benchmark::DoNotOptimize(r.second.node_map.data());
  }
  bench::set_items(state, tree.size());
}

// Every benchmark over the same sizes, registered from one table.
[[maybe_unused]] const bool registered = [] {
  using function = void (*)(benchmark::State&);
  const std::pair<const char*, function> all[] = {
      {"copy_tree", copy_tree},         {"merge_function", merge_function},
      {"focus_function", focus_function}, {"drop_function", drop_function},
      {"collapse_function_subtree", collapse_function_subtree},
      {"collapse_runs", collapse_runs}, {"invert", invert},
      {"invert_3_levels", invert_3_levels}, {"search", search},
      {"intersect", intersect}};
  for (auto [name, run] : all) benchmark::RegisterBenchmark(name, run)->RangeMultiplier(10)->Range(10'000, 1'000'000);
  return true;
}();

}  // namespace

CCRC_BENCHMARK_MAIN()
