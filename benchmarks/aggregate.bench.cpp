// Aggregated metrics ag(M) and the flat profile, against streaming the same columns and
// against the naive pointer-based tree, per node.
#include "support/ccrc_trees.hpp"
#include "support/main.hpp"

#include <ccrc/algorithm/flat.hpp>
#include <ccrc/algorithm/inclusive.hpp>

#include <benchmark/benchmark.h>

#include <vector>

namespace {

// ag(time) in place: reads the parent and value columns, adds into the parent's value.
void inclusive(benchmark::State& state) {
  const bench::cct& tree = bench::tree_of(bench::size_of(state));
  auto self = tree.column<"time">();
  std::vector<double> values(self.begin(), self.end());
  for (auto _ : state) {
    ccrc::inclusive_in_place(tree.tree(), std::span(values));
    benchmark::DoNotOptimize(values.data());
  }
  bench::set_items(state, tree.size());
  bench::set_bytes(state, tree.size() * (4 + 8 + 8));
}

// The floor: the same bytes read and written (parent column, values), sequentially.
void stream_columns(benchmark::State& state) {
  const bench::cct& tree = bench::tree_of(bench::size_of(state));
  auto self = tree.column<"time">();
  std::vector<double> values(self.begin(), self.end());
  const ccrc::node_id* parent = tree.tree().parents().data();
  for (auto _ : state) {
    for (std::size_t n = values.size(); n-- > 1;) values[n] += static_cast<double>(parent[n]);
    benchmark::DoNotOptimize(values.data());
  }
  bench::set_items(state, tree.size());
  bench::set_bytes(state, tree.size() * (4 + 8 + 8));
}

const std::unique_ptr<bench::naive_node>& naive_of(std::size_t nodes) {
  static std::map<std::size_t, std::unique_ptr<bench::naive_node>> cache;
  auto& tree = cache[nodes];
  if (!tree) tree = bench::naive_replay(bench::trace_of(nodes));
  return tree;
}

// The naive tree: ag by an explicit-stack post-order walk over the child maps.
void inclusive_naive(benchmark::State& state) {
  bench::naive_node* root = naive_of(bench::size_of(state)).get();
  std::vector<std::pair<bench::naive_node*, bool>> stack;
  for (auto _ : state) {
    bench::naive_inclusive(root, stack);
    benchmark::DoNotOptimize(root->ag);
  }
  bench::set_items(state, bench::trace_of(bench::size_of(state)).nodes + 1);
}

void flat(benchmark::State& state) {
  const bench::cct& tree = bench::tree_of(bench::size_of(state));
  for (auto _ : state) {
    auto entries = ccrc::flat(ccrc::tree_view(tree.tree()), tree.column<"time">());
    benchmark::DoNotOptimize(entries.data());
  }
  bench::set_items(state, tree.size());
}

// The naive flat profile: walk the tree, sum per frame in a hash map, sort.
void flat_naive(benchmark::State& state) {
  bench::naive_node* root = naive_of(bench::size_of(state)).get();
  std::vector<bench::naive_node*> stack;
  for (auto _ : state) {
    auto entries = bench::naive_flat(root, stack);
    benchmark::DoNotOptimize(entries.data());
  }
  bench::set_items(state, bench::trace_of(bench::size_of(state)).nodes + 1);
}

}  // namespace

BENCHMARK(inclusive)->RangeMultiplier(10)->Range(10'000, 10'000'000);
BENCHMARK(stream_columns)->RangeMultiplier(10)->Range(10'000, 10'000'000);
BENCHMARK(inclusive_naive)->RangeMultiplier(10)->Range(10'000, 10'000'000);
BENCHMARK(flat)->RangeMultiplier(10)->Range(10'000, 10'000'000);
BENCHMARK(flat_naive)->RangeMultiplier(10)->Range(10'000, 10'000'000);

CCRC_BENCHMARK_MAIN()
