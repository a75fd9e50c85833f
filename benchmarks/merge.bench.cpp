// Merging many profiles (issue 14): N runs of one program, each a .cctb of about 10^5 contexts
// sharing most of them, merged by ccrc::merge_all on 1 and 2 threads, beside reading the same
// bytes alone on one thread (the floor: a merge must at least read its inputs). Items are
// input contexts.
//
//     ccrc_bench_merge --benchmark_filter=/1000     # the 1,000 profiles (10^8 contexts)
#include "support/ccrc_trees.hpp"
#include "support/dacapo.hpp"
#include "support/main.hpp"

#include <ccrc/io/cct_binary.hpp>
#include <ccrc/transform/merge_all.hpp>

#include <benchmark/benchmark.h>

#include <cmath>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

constexpr std::size_t contexts_per_run = 100'000;

// Run k of the program: pmd's shape at 10^5 contexts, where 0.2% of the subtrees were not
// reached, 1% of the contexts call one of 2,000 functions the others do not, and every value
// is scaled by a factor in [0.5, 1.5).
ccrc::profile run_of(const ccrc::profile& base, std::uint64_t k) {
  bench::rng r{k};
  ccrc::profile out(base.metric_names());
  std::vector<ccrc::frame_id> frames(base.symbols().frame_count());
  for (ccrc::frame_id f{1}; f < frames.size(); ++f) frames[f] = out.intern(base.symbols().name(f));
  std::vector<ccrc::node_id> map(base.size(), ccrc::null_node);
  map[ccrc::root_node] = ccrc::root_node;
  std::vector<double> values(base.metric_count());
  for (ccrc::node_id n = 1; n < base.size(); ++n) {
    ccrc::node_id parent = map[base.tree().parent(n)];
    if (parent == ccrc::null_node || r.chance(0.002)) continue;
    map[n] = out.find_or_add_child(parent, frames[base.tree().frame(n)]);
    double scale = 0.5 + r.uniform();
    for (std::size_t m = 0; m < values.size(); ++m) values[m] = std::round(base.column(m)[n] * scale);
    out.add(map[n], values);
    if (r.chance(0.01)) {
      ccrc::node_id extra = out.find_or_add_child(map[n], out.intern("extra" + std::to_string(r.below(2000))));
      out.add(extra, values);
    }
  }
  return out;
}

struct inputs {
  std::vector<std::string> cctb;  // run k's .cctb bytes
  std::size_t contexts = 0;       // in all of them
  std::size_t bytes = 0;
};

// Runs 1..count, made once.
const inputs& runs(std::size_t count) {
  static std::map<std::size_t, inputs> cache;
  auto it = cache.find(count);
  if (it != cache.end()) return it->second;
  const ccrc::profile& base = bench::pmd_like(contexts_per_run);
  inputs in;
  for (std::size_t k = 1; k <= count; ++k) {
    ccrc::profile run = run_of(base, k);
    std::ostringstream out;
    ccrc::write_cctb(out, run);
    in.cctb.push_back(std::move(out).str());
    in.contexts += run.size() - 1;
    in.bytes += in.cctb.back().size();
  }
  return cache.emplace(count, std::move(in)).first->second;
}

void report(benchmark::State& state, const inputs& in, std::size_t merged_size) {
  const std::size_t contexts = in.contexts, bytes = in.bytes;
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(contexts));
  bench::set_bytes(state, bytes);
  state.counters["contexts_per_input"] = static_cast<double>(contexts) / static_cast<double>(in.cctb.size());
  if (merged_size != 0) state.counters["merged_contexts"] = static_cast<double>(merged_size - 1);
}

// The floor: every input read, nothing merged.
void read_only(benchmark::State& state) {
  const auto& in = runs(bench::size_of(state));
  for (auto _ : state)
    for (const auto& b : in.cctb) benchmark::DoNotOptimize(ccrc::read_cctb(b).size());
  report(state, in, 0);
}

// Read and merged, on range(1) threads.
void merge_all(benchmark::State& state) {
  const auto& in = runs(bench::size_of(state));
  std::size_t size = 0;
  for (auto _ : state) {
    ccrc::profile all = ccrc::merge_all(in.cctb.size(), [&](std::size_t i) { return ccrc::read_cctb(in.cctb[i]); },
                                        {.threads = static_cast<unsigned>(state.range(1))});
    size = all.size();
  }
  report(state, in, size);
}

BENCHMARK(read_only)->Arg(100)->Arg(1000)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);
BENCHMARK(merge_all)->Args({100, 1})->Args({100, 2})->Args({1000, 1})->Args({1000, 2})
    ->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);

}  // namespace

CCRC_BENCHMARK_MAIN();
