// Many runs as an ensemble (issue 43): N runs of one program (support/runs.hpp: pmd's shape at
// 10^5 contexts, varied), as .cctb bytes in memory, reduced to statistics per context by
// ccrc::ensemble_all beside ccrc::merge_all of the same runs (the peer: a merge reads and
// matches the same contexts, and sums one value where the ensemble updates eight), and reading
// them alone (the floor). Then the distances of N runs and their clusters, from the share
// vectors the ensemble pass collects, as N grows. Items are input contexts (distances: pairs).
//
//     ccrc_bench_ensemble                                   # 100 runs; --benchmark_filter=/1000 for 1,000
//     ccrc_bench_ensemble --write-runs DIR 1000             # the same runs as files, for the tool
#include "support/ccrc_trees.hpp"
#include "support/main.hpp"
#include "support/runs.hpp"

#include <ccrc/ensemble/cluster.hpp>
#include <ccrc/ensemble/ensemble_all.hpp>
#include <ccrc/transform/merge_all.hpp>

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

void report(benchmark::State& state, const bench::inputs& in) {
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(in.contexts));
  bench::set_bytes(state, in.bytes);
}

void read_only(benchmark::State& state) {
  const auto& in = bench::runs(bench::size_of(state));
  for (auto _ : state)
    for (const auto& b : in.cctb) benchmark::DoNotOptimize(ccrc::read_cctb(b).size());
  report(state, in);
}

// The merged tree's heap bytes, and per context.
void merge_all(benchmark::State& state) {
  const auto& in = bench::runs(bench::size_of(state));
  std::size_t bytes = 0, size = 0;
  for (auto _ : state) {
    ccrc::profile all = ccrc::merge_all(in.cctb.size(), [&](std::size_t i) { return ccrc::read_cctb(in.cctb[i]); },
                                        {.threads = static_cast<unsigned>(state.range(1))});
    all.shrink_to_fit();
    bytes = all.memory_bytes(), size = all.size();
  }
  report(state, in);
  state.counters["merged_contexts"] = static_cast<double>(size - 1);
  state.counters["bytes_per_context"] = static_cast<double>(bytes) / static_cast<double>(size);
}

// The ensemble's heap bytes per context: the union's structure, counts and moments.
void ensemble_all(benchmark::State& state) {
  const auto& in = bench::runs(bench::size_of(state));
  std::size_t bytes = 0, size = 0;
  for (auto _ : state) {
    ccrc::ensemble e = ccrc::ensemble_all(in.cctb.size(), [&](std::size_t i) { return ccrc::read_cctb(in.cctb[i]); },
                                          {.threads = static_cast<unsigned>(state.range(1))});
    e.shrink_to_fit();
    bytes = e.memory_bytes(), size = e.size();
  }
  report(state, in);
  state.counters["contexts"] = static_cast<double>(size - 1);
  state.counters["bytes_per_context"] = static_cast<double>(bytes) / static_cast<double>(size);
}

// The share vectors of the first `count` runs, as the ensemble pass makes them.
const std::vector<ccrc::share_vector>& shares(std::size_t count) {
  static std::map<std::size_t, std::vector<ccrc::share_vector>> cache;
  auto it = cache.find(count);
  if (it != cache.end()) return it->second;
  const auto& in = bench::runs(count);
  std::vector<ccrc::share_vector> out;
  (void)ccrc::ensemble_all(count, [&](std::size_t i) { return ccrc::read_cctb(in.cctb[i]); },
                           [&](std::size_t, const ccrc::profile& run, std::span<const ccrc::node_id> map) {
                             out.push_back(ccrc::share_vector_of(run.column(0), map));
                           });
  return cache.emplace(count, std::move(out)).first->second;
}

// Every pair's distance on range(1) threads, then the clusters (2 groups).
void distances_and_clusters(benchmark::State& state) {
  const auto& vectors = shares(bench::size_of(state));
  std::size_t entries = 0;
  for (const auto& v : vectors) entries += v.nodes.size();
  for (auto _ : state) {
    ccrc::distance_matrix d = ccrc::distances(vectors, {.threads = static_cast<unsigned>(state.range(1))});
    benchmark::DoNotOptimize(ccrc::cluster_runs(d, {.groups = 2}).size());
  }
  const auto n = static_cast<std::int64_t>(vectors.size());
  state.SetItemsProcessed(state.iterations() * n * (n - 1) / 2);
  state.counters["entries_per_run"] = static_cast<double>(entries) / static_cast<double>(vectors.size());
}

void clusters_alone(benchmark::State& state) {
  const auto& vectors = shares(bench::size_of(state));
  ccrc::distance_matrix d = ccrc::distances(vectors);
  for (auto _ : state) benchmark::DoNotOptimize(ccrc::cluster_runs(d, {.groups = 2}).size());
}

BENCHMARK(read_only)->Arg(100)->Arg(1000)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);
BENCHMARK(merge_all)->Args({100, 1})->Args({100, 2})->Args({1000, 2})->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);
BENCHMARK(ensemble_all)->Args({100, 1})->Args({100, 2})->Args({1000, 2})->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);
BENCHMARK(distances_and_clusters)->Args({25, 2})->Args({50, 2})->Args({100, 1})->Args({100, 2})
    ->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);
BENCHMARK(clusters_alone)->Arg(100)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(3);

// --write-runs DIR N: runs 1..N as DIR/run-NNNN.cctb, for the tool's figures (`ccrc ensemble DIR`
// beside `ccrc merge DIR`), then exits.
int write_runs(const char* dir, const char* count) {
  std::filesystem::create_directories(dir);
  const ccrc::profile& base = bench::pmd_like(bench::contexts_per_run);
  const long n = std::strtol(count, nullptr, 10);
  for (long k = 1; k <= n; ++k) {
    char name[32];
    std::snprintf(name, sizeof name, "run-%04ld.cctb", k);
    std::ofstream out(std::filesystem::path(dir) / name, std::ios::binary);
    ccrc::write_cctb(out, bench::run_of(base, static_cast<std::uint64_t>(k)));
    if (!out) return 1;
  }
  std::printf("%ld runs in %s\n", n, dir);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 4 && std::string(argv[1]) == "--write-runs") return write_runs(argv[2], argv[3]);
  return bench::run_main(argc, argv);
}
