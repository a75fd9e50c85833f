// Scaling: the pmd benchmark's shape (Table I) scaled from 10^4 to 10^7 contexts, same
// depths and recursion mix. items_per_second is contexts per second: its inverse, the cost
// per context, should stay flat as the tree grows.
#include "support/dacapo.hpp"
#include "support/figure8.hpp"

#include <ccrc/algorithm/flat.hpp>
#include <ccrc/algorithm/inclusive.hpp>
#include <ccrc/io/cct_binary.hpp>
#include <ccrc/transform/eliminate_recursion.hpp>

#include <benchmark/benchmark.h>

#include <sstream>

namespace {

const ccrc::profile& profile_of(const benchmark::State& state) {
  return bench::pmd_like(bench::size_of(state));
}

void build_cursor(benchmark::State& state) {
  bench::trace t = bench::trace_of_profile(profile_of(state));
  bench::time_building(state, t, [&](bench::cct& tree) { bench::replay(t, tree); });
}

void inclusive(benchmark::State& state) {
  const ccrc::profile& p = profile_of(state);
  std::vector<double> values(p.column("bytecodes").begin(), p.column("bytecodes").end());
  for (auto _ : state) {
    ccrc::inclusive_in_place(p.tree(), std::span(values));
    benchmark::DoNotOptimize(values.data());
  }
  bench::set_items(state, p.size());
}

void flat(benchmark::State& state) {
  const ccrc::profile& p = profile_of(state);
  for (auto _ : state) benchmark::DoNotOptimize(ccrc::flat(ccrc::tree_view(p.tree()), p.column("bytecodes")).data());
  bench::set_items(state, p.size());
}

void eliminate_recursion(benchmark::State& state) {
  const ccrc::profile& p = profile_of(state);
  benchmark::DoNotOptimize(ccrc::eliminate_recursion(p).node_map.data());  // untimed warm-up
  for (auto _ : state) benchmark::DoNotOptimize(ccrc::eliminate_recursion(p).node_map.data());
  bench::set_items(state, p.size());
}

void figure8(benchmark::State& state) {
  const ccrc::profile& p = profile_of(state);
  benchmark::DoNotOptimize(bench::figure8(p).node_map.data());  // untimed warm-up
  for (auto _ : state) benchmark::DoNotOptimize(bench::figure8(p).node_map.data());
  bench::set_items(state, p.size());
}

void cctb_read(benchmark::State& state) {
  std::ostringstream out;
  ccrc::write_cctb(out, profile_of(state));
  std::string bytes = std::move(out).str();
  benchmark::DoNotOptimize(ccrc::read_cctb(bytes).size());  // untimed warm-up
  for (auto _ : state) benchmark::DoNotOptimize(ccrc::read_cctb(bytes).size());
  bench::set_items(state, profile_of(state).size());
  bench::set_bytes(state, bytes.size());
}

void generate(benchmark::State& state) {
  const ccrc::dacapo_benchmark* pmd = ccrc::find_dacapo("pmd");
  auto nodes = static_cast<double>(state.range(0));
  ccrc::cct_shape shape = ccrc::scaled(pmd->shape, nodes / static_cast<double>(pmd->shape.nodes));
  for (auto _ : state) benchmark::DoNotOptimize(ccrc::generate_cct(shape, 1, pmd->model).size());
  bench::set_items(state, shape.nodes);
}

constexpr std::int64_t smallest = 10'000, largest = 10'000'000;

}  // namespace

BENCHMARK(build_cursor)->RangeMultiplier(10)->Range(smallest, largest)->Unit(benchmark::kMillisecond);
BENCHMARK(inclusive)->RangeMultiplier(10)->Range(smallest, largest)->Unit(benchmark::kMillisecond);
BENCHMARK(flat)->RangeMultiplier(10)->Range(smallest, largest)->Unit(benchmark::kMillisecond);
BENCHMARK(eliminate_recursion)->RangeMultiplier(10)->Range(smallest, largest)->Unit(benchmark::kMillisecond);
BENCHMARK(figure8)->RangeMultiplier(10)->Range(smallest, largest)->Unit(benchmark::kMillisecond);
BENCHMARK(cctb_read)->RangeMultiplier(10)->Range(smallest, largest)->Unit(benchmark::kMillisecond);
BENCHMARK(generate)->RangeMultiplier(10)->Range(smallest, largest)->Unit(benchmark::kMillisecond);

[[maybe_unused]] const bool registered = (bench::ratio("eliminate_recursion", "figure8"), true);

CCRC_DACAPO_BENCHMARK_MAIN()
