// Bytes per calling context of the eleven generated CCTs: a profiler's cct built by cursor
// replay, against the naive pointer-based tree, counted by a global allocation hook; and the
// profile the ccrc tool holds (two double columns), by its own account.
#include "support/allocation_hook.hpp"
#include "support/dacapo.hpp"

#include <benchmark/benchmark.h>

#include <memory>

namespace {

void memory_cct(benchmark::State& state, std::string_view name) {
  bench::measure_memory(
      state, bench::dacapo_trace(name), [](const bench::trace& t) { return std::make_unique<bench::cct>(bench::with_symbols(t)); },
      [](const bench::trace& t, bench::cct& tree) { bench::replay(t, tree); });
  const ccrc::profile& p = bench::dacapo(name);
  state.counters["profile_bytes_per_node"] =
      static_cast<double>(p.memory_bytes() - p.symbols().memory_bytes()) / static_cast<double>(p.size());
}

void memory_naive(benchmark::State& state, std::string_view name) {
  bench::measure_memory(
      state, bench::dacapo_trace(name), [](const bench::trace&) { return std::make_unique<bench::naive_node>(); },
      [](const bench::trace& t, bench::naive_node& root) {
        bench::naive_node* cur = &root;
        for (std::uint32_t e : t.events) cur = e == bench::trace::exit_event ? cur->parent : cur->child(ccrc::frame_id{e});
      });
}

[[maybe_unused]] const bool registered = [] {
  for (auto* b : bench::register_dacapo("memory_cct", memory_cct)) b->Iterations(1);
  for (auto* b : bench::register_dacapo("memory_naive", memory_naive)) b->Iterations(1);
  bench::ratio("memory_cct", "memory_naive", "bytes_per_node");
  return true;
}();

}  // namespace

CCRC_DACAPO_BENCHMARK_MAIN()
