// The DaCapo suite's support: the eleven generated profiles of Table I, made once per process,
// what the baselines need of them, one way to register a benchmark for all eleven, and a
// main() that ends the run with a table of ratios to the baselines.
//
// To add a benchmark to the suite (the pattern every benchmark here follows):
//
//     void ring_layout(benchmark::State& state, std::string_view name) {
//       const ccrc::profile& p = bench::dacapo(name);   // generated on first use, then cached
//       for (auto _ : state) { ... }
//       bench::set_items(state, p.size());
//     }
//     ...
//     bench::register_dacapo("ring_layout", ring_layout);          // ring_layout/antlr ... /xalan
//     bench::register_dacapo("ring_layout_no_culling", no_culling);
//     bench::ratio("ring_layout", "ring_layout_no_culling");        // a column of the final table
#pragma once

#include "support/ccrc_trees.hpp"
#include "support/trace.hpp"

#include <ccrc/generate/dacapo.hpp>

#include <benchmark/benchmark.h>

#include <malloc.h>
#include <unistd.h>

#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace bench {

/// The generated CCT of a row of Table I (seed 1), made on first use and kept.
inline const ccrc::profile& dacapo(std::string_view name) {
  static std::map<std::string, ccrc::profile, std::less<>> cache;
  auto it = cache.find(name);
  if (it == cache.end()) it = cache.emplace(std::string(name), ccrc::generate_dacapo(name)).first;
  return it->second;
}

/// A profile of the pmd benchmark's shape scaled to about `nodes` contexts (same depths and
/// recursion mix), for the scaling runs; made on first use and kept.
inline const ccrc::profile& pmd_like(std::size_t nodes) {
  static std::map<std::size_t, ccrc::profile> cache;
  auto it = cache.find(nodes);
  if (it == cache.end()) {
    const ccrc::dacapo_benchmark* pmd = ccrc::find_dacapo("pmd");
    ccrc::cct_shape shape = ccrc::scaled(pmd->shape, static_cast<double>(nodes) / static_cast<double>(pmd->shape.nodes));
    it = cache.emplace(nodes, ccrc::generate_cct(shape, 1, pmd->model)).first;
  }
  return it->second;
}

/// The call trace that builds `p`: a depth-first walk entering every context once, frame ids
/// as in p's symbol table. What a profiler's cursor replays.
inline trace trace_of_profile(const ccrc::profile& p) {
  trace t;
  const ccrc::call_tree& tree = p.tree();
  t.names.resize(tree.symbols().frame_count());
  for (ccrc::frame_id f{1}; f < t.names.size(); ++f) t.names[f] = std::string(tree.symbols().name(f));
  t.events.reserve(2 * tree.size());
  ccrc::depth_first(
      ccrc::tree_view(tree), [&](ccrc::node_id n, std::uint32_t) { if (n != ccrc::root_node) t.events.push_back(tree.frame(n)); },
      [&](ccrc::node_id n, std::uint32_t) { if (n != ccrc::root_node) t.events.push_back(trace::exit_event); });
  t.nodes = t.calls = tree.size() - 1;
  return t;
}

/// trace_of_profile of dacapo(name), made once.
inline const trace& dacapo_trace(std::string_view name) {
  static std::map<std::string, trace, std::less<>> cache;
  auto it = cache.find(name);
  if (it == cache.end()) it = cache.emplace(std::string(name), trace_of_profile(dacapo(name))).first;
  return it->second;
}

/// The naive pointer-based tree of dacapo(name), made once (the baselines' input).
inline naive_node& dacapo_naive(std::string_view name) {
  static std::map<std::string, std::unique_ptr<naive_node>, std::less<>> cache;
  auto& tree = cache[std::string(name)];
  if (!tree) tree = naive_replay(dacapo_trace(name));
  return *tree;
}

/// A benchmark over one of the eleven profiles, given its name.
using dacapo_function = void (*)(benchmark::State&, std::string_view);

/// Registers `fn` as `family/antlr` ... `family/xalan`, in Table I's order; returns them to
/// be configured further (`->Iterations(1)`).
inline std::vector<benchmark::internal::Benchmark*> register_dacapo(const std::string& family, dacapo_function fn,
                                                                    benchmark::TimeUnit unit = benchmark::kMillisecond) {
  std::vector<benchmark::internal::Benchmark*> out;
  for (const auto& b : ccrc::dacapo_benchmarks) {
    std::string_view name = b.name;
    out.push_back(benchmark::RegisterBenchmark((family + "/" + std::string(name)).c_str(),
                                               [fn, name](benchmark::State& state) { fn(state, name); })
                      ->Unit(unit));
  }
  return out;
}

/// A column of the final table: `baseline / ours` for the CPU time, or for a counter.
struct ratio_spec {
  std::string ours, baseline, counter;  // counter: empty for CPU time per iteration
};

inline std::vector<ratio_spec>& ratios() {
  static std::vector<ratio_spec> specs;
  return specs;
}

/// Asks for the ratio baseline / ours of every `ours/X` that has a `baseline/X`, in a table
/// after the run: of the CPU time per iteration (above 1: ours is faster), or of `counter`
/// (bytes_per_node: above 1, ours is smaller).
inline void ratio(std::string ours, std::string baseline, std::string counter = {}) {
  ratios().push_back({std::move(ours), std::move(baseline), std::move(counter)});
}

/// The console reporter, plus the table of ratios at the end. CPU time, not wall time: on a
/// shared machine, time slices taken by other processes then count in neither.
class ratio_reporter : public benchmark::ConsoleReporter {
 public:
  using ConsoleReporter::ConsoleReporter;

  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& r : runs) {
      if (r.run_type != Run::RT_Iteration || r.error_occurred) continue;
      auto& values = values_[r.benchmark_name()];
      values[""] = r.GetAdjustedCPUTime() / benchmark::GetTimeUnitMultiplier(r.time_unit) * 1e3;  // ms
      for (const auto& [name, counter] : r.counters) values[name] = counter.value;
    }
  }

  void Finalize() override {
    ConsoleReporter::Finalize();
    for (const ratio_spec& spec : ratios()) {
      std::string table, unit = spec.counter.empty() ? "ms" : "";
      for (const auto& [name, values] : values_) {
        if (name.rfind(spec.ours + "/", 0) != 0) continue;
        std::string rest = name.substr(spec.ours.size());
        auto base = values_.find(spec.baseline + rest);
        if (base == values_.end() || !values.count(spec.counter) || !base->second.count(spec.counter)) continue;
        double ours = values.at(spec.counter), theirs = base->second.at(spec.counter);
        if (ours <= 0) continue;
        char line[256];
        std::snprintf(line, sizeof line, "  %-28s %12.3f%-3s %12.3f%-3s %9.2fx\n", rest.substr(1).c_str(), ours,
                      unit.c_str(), theirs, unit.c_str(), theirs / ours);
        table += line;
      }
      if (table.empty()) continue;
      std::printf("\n%s vs %s (%s; ratio = %s / %s)\n%s", spec.ours.c_str(), spec.baseline.c_str(),
                  spec.counter.empty() ? "CPU time per iteration" : spec.counter.c_str(), spec.baseline.c_str(),
                  spec.ours.c_str(), table.c_str());
    }
    std::fflush(stdout);
  }

 private:
  std::map<std::string, std::map<std::string, double>> values_;  // benchmark -> "" (CPU ms) and counters
};

/// main() for the suite's programs: CCRC_BENCHMARK_MAIN's allocator settings, and the ratio
/// table after the console output (with --benchmark_format=json or csv, that format alone).
inline int dacapo_main(int argc, char** argv) {
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, -1);
  bool console = true;
  for (int i = 1; i < argc; ++i)
    if (std::string_view(argv[i]).rfind("--benchmark_format=", 0) == 0 && std::string_view(argv[i]) != "--benchmark_format=console")
      console = false;
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  if (console) {
    ratio_reporter reporter(isatty(1) ? benchmark::ConsoleReporter::OO_Color : benchmark::ConsoleReporter::OO_None);
    benchmark::RunSpecifiedBenchmarks(&reporter);
  } else {
    benchmark::RunSpecifiedBenchmarks();
  }
  benchmark::Shutdown();
  return 0;
}

}  // namespace bench

#define CCRC_DACAPO_BENCHMARK_MAIN() \
  int main(int argc, char** argv) { return bench::dacapo_main(argc, argv); }
