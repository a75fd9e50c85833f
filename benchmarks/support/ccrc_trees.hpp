// ccrc trees built from the synthetic traces, shared by the benchmark programs.
#pragma once

#include "support/trace.hpp"

#include <ccrc/tree/cct.hpp>
#include <ccrc/tree/cursor.hpp>

#include <benchmark/benchmark.h>

#include <map>
#include <span>
#include <streambuf>

namespace bench {

/// The tree type the benchmarks build: invocation counts and a time.
using cct = ccrc::cct<ccrc::metric<"calls">, ccrc::metric<"time", double>>;

/// An empty tree whose symbol table holds the trace's names, frame f as id f.
inline cct with_symbols(const trace& t) {
  cct tree;
  for (std::size_t f = 1; f < t.names.size(); ++f) tree.intern(t.names[f]);
  return tree;
}

/// Replays a trace with a cursor: +1 call and +1.5 time units per entry.
inline void replay(const trace& t, cct& tree) {
  ccrc::cursor<cct> c(tree);
  for (std::uint32_t e : t.events) {
    if (e == trace::exit_event) {
      c.exit();
    } else {
      c.enter(ccrc::frame_id{e});
      c.add<"calls">(1);
      c.add<"time">(1.5);
    }
  }
}

/// Records stack samples with add_path: one call and 1.5 time units at each stack's leaf.
inline void add_samples(const samples& s, cct& tree) {
  for (std::size_t k = 0; k + 1 < s.offsets.size(); ++k) {
    std::span<const ccrc::frame_id> stack(s.frames.data() + s.offsets[k], s.offsets[k + 1] - s.offsets[k]);
    tree.add_path(stack, 1, 1.5);
  }
}

/// The timing loop of a build benchmark: each iteration makes an empty tree with the trace's
/// symbols (reserved for all its nodes if asked: a profiler's steady state), then times
/// build(tree); neither making nor destroying the tree is timed. Items: the trace's contexts.
/// One untimed build first: a run of one long iteration would otherwise time the heap's
/// first growth (Google Benchmark 1.7 has no warm-up).
template <class Build>
void time_building(benchmark::State& state, const trace& t, Build build, bool reserved = false) {
  {
    cct warm = with_symbols(t);
    build(warm);
  }
  for (auto _ : state) {
    state.PauseTiming();
    cct tree = with_symbols(t);
    if (reserved) tree.reserve(t.nodes + 1);
    state.ResumeTiming();
    build(tree);
    benchmark::DoNotOptimize(tree.size());
    state.PauseTiming();  // the destructor is not part of building
    tree = cct{};
    state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(t.nodes));
}

/// The same for the naive tree, which make() builds and returns.
template <class Make>
void time_naive_building(benchmark::State& state, std::size_t nodes, Make make) {
  make().reset();  // warm up, as above
  for (auto _ : state) {
    auto root = make();
    benchmark::DoNotOptimize(root.get());
    state.PauseTiming();
    root.reset();
    state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(nodes));
}

/// A stream buffer that only counts what it is given: writing is measured, not a string's growth.
class counting_buffer : public std::streambuf {
 public:
  std::size_t bytes = 0;

 protected:
  std::streamsize xsputn(const char*, std::streamsize n) override {
    bytes += static_cast<std::size_t>(n);
    return n;
  }
  int_type overflow(int_type c) override {
    ++bytes;
    return c;
  }
};

/// The tree of a trace of `nodes` contexts, built once per process.
inline const cct& tree_of(std::size_t nodes) {
  static std::map<std::size_t, cct> cache;
  auto it = cache.find(nodes);
  if (it == cache.end()) {
    cct tree = with_symbols(trace_of(nodes));
    replay(trace_of(nodes), tree);
    it = cache.emplace(nodes, std::move(tree)).first;
  }
  return it->second;
}

/// The benchmark's first argument: the number of nodes, for most programs.
inline std::size_t size_of(const benchmark::State& state) { return static_cast<std::size_t>(state.range(0)); }

/// Reports `items` processed per iteration (nodes, so that per-node costs print).
inline void set_items(benchmark::State& state, std::size_t items) {
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(items));
}

/// Reports `bytes` processed per iteration.
inline void set_bytes(benchmark::State& state, std::size_t bytes) {
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(bytes));
}

}  // namespace bench
