// The call graph G_t (c_i, c_t, edge costs) and the display tree G_T, per node, against
// aggregation alone and against the seed's literal algorithm (a hash of the methods on the
// path, copied at every node).
#include "support/ccrc_trees.hpp"
#include "support/main.hpp"

#include <ccrc/algorithm/inclusive.hpp>
#include <ccrc/graph/display_tree.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <map>
#include <unordered_set>
#include <vector>

namespace {

// The paper's Table I eclipse run: 2,166,169 calling contexts over 11,555 methods.
constexpr std::int64_t eclipse_nodes = 2'166'169;
constexpr std::uint32_t eclipse_methods = 11'555;

// bench::make_trace picks every callee at random, whoever the caller: nearly every context is
// a new call g -> f (1.8 million edges at eclipse scale), the worst case for a call graph. A
// program calls few distinct functions from each one: here every method gets a fixed list of
// 1-12 callees (skewed towards popular methods, recursion possible), and the walk of
// make_trace picks among them, so the graph has about 7 edges per method.
bench::trace program_trace(std::size_t nodes, std::uint32_t methods, std::uint32_t max_depth = 100,
                           std::uint64_t seed = 42) {
  bench::trace t = bench::make_trace(1, methods);  // for the names
  t.events.clear();
  t.nodes = t.calls = 0;
  bench::rng r{seed};
  auto skewed = [&] {
    double u = r.uniform();
    return std::min<std::uint32_t>(methods, static_cast<std::uint32_t>(1 + static_cast<double>(methods) * u * u * u));
  };
  std::vector<std::vector<std::uint32_t>> callees(methods + 1);
  for (auto& list : callees) {
    auto count = 1 + static_cast<std::uint32_t>(12 * r.uniform() * r.uniform());
    for (std::uint32_t i = 0; i < count; ++i) list.push_back(skewed());
  }
  std::map<std::pair<std::uint64_t, std::uint32_t>, std::uint64_t> child_of;
  std::vector<std::pair<std::uint64_t, std::uint32_t>> stack = {{0, 0}};  // (context, method)
  std::uint64_t next_context = 1;
  while (t.nodes < nodes) {
    while (stack.size() > 1 && (stack.size() > max_depth || r.uniform() < 0.52)) {
      stack.pop_back();
      t.events.push_back(bench::trace::exit_event);
    }
    const auto& list = callees[stack.back().second];
    std::uint32_t f = list[static_cast<std::size_t>(r.uniform() * static_cast<double>(list.size()))];
    auto [it, inserted] = child_of.try_emplace({stack.back().first, f}, next_context);
    if (inserted) {
      ++next_context;
      ++t.nodes;
    }
    stack.emplace_back(it->second, f);
    t.events.push_back(f);
    ++t.calls;
  }
  while (stack.size() > 1) {
    stack.pop_back();
    t.events.push_back(bench::trace::exit_event);
  }
  return t;
}

// Trees by size: from make_trace (5,000 methods, or the eclipse method count at the eclipse
// size); a negative size asks for the program_trace tree of that many nodes (eclipse methods).
const bench::cct& tree_for(std::int64_t size) {
  if (size > 0 && size != eclipse_nodes) return bench::tree_of(static_cast<std::size_t>(size));
  static std::map<std::int64_t, bench::cct> cache;
  auto it = cache.find(size);
  if (it == cache.end()) {
    auto nodes = static_cast<std::size_t>(size < 0 ? -size : size);
    bench::trace t = size < 0 ? program_trace(nodes, eclipse_methods) : bench::make_trace(nodes, eclipse_methods);
    bench::cct c = bench::with_symbols(t);
    bench::replay(t, c);
    it = cache.emplace(size, std::move(c)).first;
  }
  return it->second;
}

void describe(benchmark::State& state, const bench::cct& tree) {
  ccrc::call_graph g(tree.tree(), tree.column<"time">());
  state.counters["functions"] = static_cast<double>(g.functions().size());
  state.counters["edges"] = static_cast<double>(g.edges().size());
  bench::set_items(state, tree.size());
}

// G_t for one metric: one depth-first pass, then the adjacency.
void call_graph(benchmark::State& state) {
  const bench::cct& tree = tree_for(state.range(0));
  for (auto _ : state) {
    ccrc::call_graph g(tree.tree(), tree.column<"time">());
    benchmark::DoNotOptimize(g.total(ccrc::method_id{1}));
  }
  describe(state, tree);
}

// G_t for two metrics in the same pass.
void call_graph_two_metrics(benchmark::State& state) {
  const bench::cct& tree = tree_for(state.range(0));
  auto calls = tree.column<"calls">();
  std::vector<double> calls_d(calls.begin(), calls.end());
  std::vector<std::span<const double>> columns{tree.column<"time">(), calls_d};
  for (auto _ : state) {
    ccrc::call_graph<double> g(tree.tree(), columns);
    benchmark::DoNotOptimize(g.total(ccrc::method_id{1}));
  }
  bench::set_items(state, tree.size());
}

// The floor: ag(time) alone, one reverse sweep (c_t needs it, and more).
void inclusive_only(benchmark::State& state) {
  const bench::cct& tree = tree_for(state.range(0));
  for (auto _ : state) {
    auto ag = ccrc::inclusive(tree.tree(), tree.column<"time">());
    benchmark::DoNotOptimize(ag.data());
  }
  bench::set_items(state, tree.size());
}

// The floor of the depth-first pass: the walk with a per-method on-path counter, nothing else.
void depth_first_only(benchmark::State& state) {
  const bench::cct& tree = tree_for(state.range(0));
  const ccrc::call_tree& t = tree.tree();
  std::vector<std::uint32_t> on_path(t.symbols().method_count());
  for (auto _ : state) {
    std::size_t outermost = 0;
    ccrc::depth_first(
        ccrc::tree_view(t), [&](ccrc::node_id n, std::uint32_t) { outermost += on_path[t.method(n)]++ == 0; },
        [&](ccrc::node_id n, std::uint32_t) { --on_path[t.method(n)]; });
    benchmark::DoNotOptimize(outermost);
  }
  bench::set_items(state, tree.size());
}

// The seed's implementation notes, literally: a pre-order walk passing along the set of
// methods on the path, copied for every context whose method is new on it; c_t only (no edges).
void kaes_hash_copy(benchmark::State& state) {
  const bench::cct& tree = tree_for(state.range(0));
  const ccrc::call_tree& t = tree.tree();
  std::vector<double> ag = ccrc::inclusive(t, tree.column<"time">());
  for (auto _ : state) {
    std::vector<double> total(t.symbols().method_count());
    std::vector<std::pair<ccrc::node_id, std::unordered_set<ccrc::method_id>>> stack;
    stack.emplace_back(ccrc::root_node, std::unordered_set<ccrc::method_id>{});
    while (!stack.empty()) {
      auto [n, seen] = std::move(stack.back());
      stack.pop_back();
      if (n != ccrc::root_node && !seen.count(t.method(n))) {
        total[t.method(n)] += ag[n];
        seen.insert(t.method(n));
      }
      for (ccrc::node_id c : t.children(n)) stack.emplace_back(c, seen);
    }
    benchmark::DoNotOptimize(total.data());
  }
  bench::set_items(state, tree.size());
}

const ccrc::call_graph<double>& graph_for(std::int64_t nodes) {
  static std::map<std::int64_t, ccrc::call_graph<double>> cache;
  auto it = cache.find(nodes);
  if (it == cache.end()) {
    const bench::cct& tree = tree_for(nodes);
    it = cache.emplace(nodes, ccrc::call_graph<double>(tree.tree(), tree.column<"time">())).first;
  }
  return it->second;
}

// The masters alone: O(V + E log E), independent of the number of contexts.
void master_calls(benchmark::State& state) {
  const ccrc::call_graph<double>& g = graph_for(state.range(0));
  for (auto _ : state) {
    auto m = ccrc::master_calls(g);
    benchmark::DoNotOptimize(m.data());
  }
  bench::set_items(state, tree_for(state.range(0)).size());
}

// G_T as a cct with both metrics carried over (from the graph already built).
void display_tree(benchmark::State& state) {
  const bench::cct& tree = tree_for(state.range(0));
  const ccrc::call_graph<double>& g = graph_for(state.range(0));
  for (auto _ : state) {
    auto gt = ccrc::display_tree(tree, g);
    benchmark::DoNotOptimize(gt.master.data());
  }
  bench::set_items(state, tree.size());
}

// Sizes from make_trace, then program_trace trees (negative) of 10^6 and eclipse size.
void sizes(benchmark::internal::Benchmark* b) {
  for (std::int64_t n : {std::int64_t{10'000}, std::int64_t{100'000}, std::int64_t{1'000'000}, eclipse_nodes,
                         std::int64_t{10'000'000}, std::int64_t{-1'000'000}, -eclipse_nodes})
    b->Arg(n);
  b->Unit(benchmark::kMillisecond);
}

}  // namespace

BENCHMARK(call_graph)->Apply(sizes);
BENCHMARK(call_graph_two_metrics)->Apply(sizes);
BENCHMARK(inclusive_only)->Apply(sizes);
BENCHMARK(depth_first_only)->Apply(sizes);
BENCHMARK(kaes_hash_copy)->Arg(10'000)->Arg(100'000)->Arg(1'000'000)->Arg(-1'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(master_calls)->Apply(sizes);
BENCHMARK(display_tree)->Apply(sizes);

CCRC_BENCHMARK_MAIN()
