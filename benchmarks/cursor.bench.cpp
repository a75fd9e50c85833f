// The cursor in a profiler's steady state: a DaCapo-shaped call stream replayed over a tree
// that already holds all its contexts, so that each call is one enter (a child lookup), one
// added call and one exit, as libccrc_instrument does on a running program's hot path (issue
// 13). Per call, beside the empty replay (reading the stream: the floor) and the naive tree
// (support/trace.hpp: a heap node per context, children in a hash map) in the same run, and
// the cursor as libccrc_instrument drives it (issue 46): a direct-mapped cache of the steps
// taken, (context, call site) -> callee's context, entered with enter_child, the lookup left
// to enter on a miss, and the returns made with exit_to from a stack of the open contexts
// (the trace's frame stands for the call site: a method called from one place).
//
// The stream: the depth-first walk of a tree shaped like pmd's (Table I), scaled to the size
// asked, in which every run of calls to leaf contexts (a method calling the methods that call
// nothing, one after another) is repeated `leaf_loops` times, as a loop would; the tree is
// built by one untimed replay first. Sizes: 10^3 contexts (the tree in L1/L2) to 10^6.
#include "support/ccrc_trees.hpp"
#include "support/dacapo.hpp"
#include "support/main.hpp"

#include <benchmark/benchmark.h>

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

namespace {

constexpr int leaf_loops = 8;

// The stream of the pmd-shaped tree of about `nodes` contexts, made once.
const bench::trace& stream_of(std::size_t nodes) {
  static std::map<std::size_t, bench::trace> cache;
  auto it = cache.find(nodes);
  if (it != cache.end()) return it->second;
  bench::trace walk = bench::trace_of_profile(bench::pmd_like(nodes));
  bench::trace t;
  t.names = walk.names;
  t.nodes = walk.nodes;
  const std::vector<std::uint32_t>& e = walk.events;
  auto leaf_call = [&](std::size_t i) { return i + 1 < e.size() && e[i] != bench::trace::exit_event && e[i + 1] == bench::trace::exit_event; };
  for (std::size_t i = 0; i < e.size();) {
    if (!leaf_call(i)) {
      if (e[i] != bench::trace::exit_event) ++t.calls;
      t.events.push_back(e[i++]);
      continue;
    }
    std::size_t end = i;
    while (leaf_call(end)) end += 2;  // a run of leaf calls, each an enter and its exit
    for (int k = 0; k < leaf_loops; ++k) {
      t.events.insert(t.events.end(), e.begin() + static_cast<std::ptrdiff_t>(i), e.begin() + static_cast<std::ptrdiff_t>(end));
      t.calls += (end - i) / 2;
    }
    i = end;
  }
  return cache.emplace(nodes, std::move(t)).first->second;
}

void set_per_call(benchmark::State& state, const bench::trace& t) {
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(t.calls));
  state.counters["ns_per_call"] = benchmark::Counter(static_cast<double>(t.calls) * 1e-9,
                                                     benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.counters["calls_per_context"] = static_cast<double>(t.calls) / static_cast<double>(t.nodes);
  state.counters["contexts"] = static_cast<double>(t.nodes);
}

// The floor: reading the stream and keeping the depth, nothing recorded.
void empty_replay(benchmark::State& state) {
  const bench::trace& t = stream_of(bench::size_of(state));
  for (auto _ : state) {
    std::uint64_t depth = 0, sum = 0;
    for (std::uint32_t e : t.events) {
      if (e == bench::trace::exit_event) {
        --depth;
      } else {
        ++depth;
        sum += e;
      }
    }
    benchmark::DoNotOptimize(sum + depth);
  }
  set_per_call(state, t);
}

void cursor_steady(benchmark::State& state) {
  const bench::trace& t = stream_of(bench::size_of(state));
  bench::cct tree = bench::with_symbols(t);
  auto replay = [&] {
    ccrc::cursor<bench::cct> c(tree);
    for (std::uint32_t e : t.events) {
      if (e == bench::trace::exit_event) {
        c.exit();
      } else {
        c.enter(ccrc::frame_id{e});
        c.add<"calls">(1);
      }
    }
  };
  replay();  // every context created: from here on, no growth
  std::size_t built = tree.size();
  for (auto _ : state) replay();
  if (tree.size() != built) state.SkipWithError("the tree grew in the steady state");
  set_per_call(state, t);
}

void cursor_cached_steady(benchmark::State& state) {
  const bench::trace& t = stream_of(bench::size_of(state));
  bench::cct tree = bench::with_symbols(t);
  struct step {
    ccrc::node_id from = ccrc::null_node, to = ccrc::null_node;
    std::uint32_t frame = 0;
  };
  std::vector<step> steps(512);  // as libccrc_instrument's: 512 slots
  std::vector<ccrc::node_id> open;
  auto replay = [&] {
    ccrc::cursor c(tree);
    open.assign(1, ccrc::root_node);
    for (std::uint32_t e : t.events) {
      if (e == bench::trace::exit_event) {
        open.pop_back();
        c.exit_to(open.back());
        continue;
      }
      step& s = steps[((std::uint64_t{e} * 0x9e3779b97f4a7c15u) >> 55) ^ (c.node() & 511)];
      if (s.from == c.node() && s.frame == e) {
        c.enter_child(s.to);
      } else {
        ccrc::node_id from = c.node();
        c.enter(ccrc::frame_id{e});
        s = {from, c.node(), e};
      }
      c.add<"calls">(1);
      open.push_back(c.node());
    }
  };
  replay();
  std::size_t built = tree.size();
  for (auto _ : state) replay();
  if (tree.size() != built) state.SkipWithError("the tree grew in the steady state");
  set_per_call(state, t);
}

void naive_steady(benchmark::State& state) {
  const bench::trace& t = stream_of(bench::size_of(state));
  auto root = std::make_unique<bench::naive_node>();
  auto replay = [&] {
    bench::naive_node* cur = root.get();
    for (std::uint32_t e : t.events) {
      if (e == bench::trace::exit_event) {
        cur = cur->parent;
      } else {
        cur = cur->child(ccrc::frame_id{e});
        cur->calls += 1;
      }
    }
    benchmark::DoNotOptimize(cur);
  };
  replay();
  for (auto _ : state) replay();
  set_per_call(state, t);
}

}  // namespace

BENCHMARK(empty_replay)->RangeMultiplier(10)->Range(1'000, 10'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(cursor_steady)->RangeMultiplier(10)->Range(1'000, 10'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(cursor_cached_steady)->RangeMultiplier(10)->Range(1'000, 10'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(naive_steady)->RangeMultiplier(10)->Range(1'000, 10'000'000)->Unit(benchmark::kMillisecond);
CCRC_BENCHMARK_MAIN()
