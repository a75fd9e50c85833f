// Comparing two runs (Rizel's performance evolution blueprint): matching by call-context
// subsequence, the diff's numbers, the hot path and ranking, against merging the two trees by
// exact path and against aggregating them, per node of both runs.
#include "support/ccrc_trees.hpp"
#include "support/dacapo.hpp"
#include "support/main.hpp"

#include <ccrc/algorithm/inclusive.hpp>
#include <ccrc/diff/diff.hpp>
#include <ccrc/diff/hot_path.hpp>
#include <ccrc/diff/rank.hpp>
#include <ccrc/transform/merge.hpp>

#include <benchmark/benchmark.h>

#include <map>
#include <vector>

namespace {

// The Table I size of eclipse: 2,166,169 contexts. At that size the first run is the eclipse
// CCT generated to match Table I (bench::dacapo), the unrelated second run its seed-2 twin.
constexpr std::size_t eclipse_nodes = 2'166'169;

// A "next version" of a trace's program: 2 % of the methods get a wrapper method inserted above
// every call to them, 2 % disappear (their callees are called by their caller), and 5 % take
// twice as long.
bench::cct next_version(const bench::trace& t) {
  bench::cct tree = bench::with_symbols(t);
  auto hashed = [](std::uint32_t f) { return (f * 2654435761u) >> 7; };
  std::vector<ccrc::frame_id> wrapper(t.names.size());
  for (std::uint32_t f = 1; f < t.names.size(); ++f)
    if (hashed(f) % 50 == 0) wrapper[f] = tree.intern("wrapper_of_" + t.names[f]);
  ccrc::cursor<bench::cct> c(tree);
  std::vector<int> exits;  // per open call: how many exits it takes (0 removed, 2 wrapped)
  for (std::uint32_t e : t.events) {
    if (e == bench::trace::exit_event) {
      for (int i = exits.back(); i > 0; --i) c.exit();
      exits.pop_back();
      continue;
    }
    if (hashed(e) % 50 == 1) {
      exits.push_back(0);
      continue;
    }
    if (wrapper[e] != 0) {
      c.enter(wrapper[e]);
      c.add<"calls">(1);
    }
    c.enter(ccrc::frame_id{e});
    c.add<"calls">(1);
    c.add<"time">(hashed(e) % 20 == 2 ? 3.0 : 1.5);
    exits.push_back(wrapper[e] != 0 ? 2 : 1);
  }
  return tree;
}

struct tree_pair {
  bench::cct first, second;
};

// The pair for a size: the trace's tree and its next version; eclipse_nodes gets the generated
// eclipse. `unrelated` pairs two traces of different seeds instead (few contexts match).
const tree_pair& pair_of(std::size_t nodes, bool unrelated = false) {
  static std::map<std::pair<std::size_t, bool>, tree_pair> cache;
  auto key = std::make_pair(nodes, unrelated);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  auto make = [&](std::uint64_t seed) {
    return nodes == eclipse_nodes ? bench::trace_of_profile(ccrc::generate_dacapo("eclipse", seed - 41))
                                  : bench::make_trace(nodes, 5000, 100, seed);
  };
  bench::trace t = make(42);
  tree_pair p;
  p.first = bench::with_symbols(t);
  bench::replay(t, p.first);
  if (unrelated) {
    bench::trace u = make(43);
    p.second = bench::with_symbols(u);
    bench::replay(u, p.second);
  } else {
    p.second = next_version(t);
  }
  return cache.emplace(key, std::move(p)).first->second;
}

void report(benchmark::State& state, const tree_pair& p) {
  bench::set_items(state, p.first.size() + p.second.size());
  state.counters["second_nodes"] = static_cast<double>(p.second.size());
}

void match_run(benchmark::State& state, std::uint32_t max_chain, bool unrelated) {
  const tree_pair& p = pair_of(bench::size_of(state), unrelated);
  ccrc::context_matching m;
  for (auto _ : state) {
    m = ccrc::match_contexts(p.first.tree(), p.second.tree(), {.max_chain = max_chain});
    benchmark::DoNotOptimize(m.tree.size());
  }
  report(state, p);
  state.counters["matched"] = static_cast<double>(m.matched);
  state.counters["moved"] = static_cast<double>(m.moved);
  state.counters["bound_hits"] = static_cast<double>(m.bound_hits);
}

// Matching with the default search for inserted and removed methods (4 levels).
void match(benchmark::State& state) { match_run(state, 4, false); }
// Identical paths only: what the subsequence search costs beyond it.
void match_exact(benchmark::State& state) { match_run(state, 0, false); }
// Two unrelated trees: little matches, the searches explore the most.
void match_unrelated(benchmark::State& state) { match_run(state, 4, true); }

// Everything ccrc diff computes: the runs' aggregated values, the matching, H, W, statuses,
// then the delta hot path and the 100 contexts of largest |H|.
void diff_and_rank(benchmark::State& state) {
  const tree_pair& p = pair_of(bench::size_of(state));
  for (auto _ : state) {
    ccrc::cct_diff d = ccrc::diff({p.first.tree(), p.first.column<"time">(), p.first.column<"calls">()},
                                  {p.second.tree(), p.second.column<"time">(), p.second.column<"calls">()});
    auto hot = ccrc::delta_hot_path(d);
    auto top = ccrc::rank_by_height(d, 100);
    benchmark::DoNotOptimize(hot.data());
    benchmark::DoNotOptimize(top.data());
  }
  report(state, p);
}

// Baseline: the union of the two trees by exact path (merge both into an empty tree), the
// work of a diff that cannot see inserted or removed methods.
void merge_both(benchmark::State& state) {
  const tree_pair& p = pair_of(bench::size_of(state));
  for (auto _ : state) {
    bench::cct u;
    ccrc::merge(u, p.first);
    ccrc::merge(u, p.second);
    benchmark::DoNotOptimize(u.size());
  }
  report(state, p);
}

// Floor: ag(time) of both trees, the sweeps any diff needs.
void inclusive_both(benchmark::State& state) {
  const tree_pair& p = pair_of(bench::size_of(state));
  for (auto _ : state) {
    auto a = ccrc::inclusive(p.first.tree(), p.first.column<"time">());
    auto b = ccrc::inclusive(p.second.tree(), p.second.column<"time">());
    benchmark::DoNotOptimize(a.data());
    benchmark::DoNotOptimize(b.data());
  }
  report(state, p);
}

void sizes(benchmark::internal::Benchmark* b) {
  for (std::int64_t n : {10'000, 100'000, 1'000'000}) b->Arg(n);
  b->Arg(static_cast<std::int64_t>(eclipse_nodes));
  b->Unit(benchmark::kMillisecond);
}

}  // namespace

BENCHMARK(match)->Apply(sizes);
BENCHMARK(match_exact)->Apply(sizes);
BENCHMARK(match_unrelated)->Apply(sizes);
BENCHMARK(diff_and_rank)->Apply(sizes);
BENCHMARK(merge_both)->Apply(sizes);
BENCHMARK(inclusive_both)->Apply(sizes);

CCRC_BENCHMARK_MAIN()
