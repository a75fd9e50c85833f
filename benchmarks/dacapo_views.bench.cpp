// The DaCapo suite, continued: what a viewer of the eleven profiles computes. Ring chart
// geometry at the papers' settings (1440x900, angle proportional to ag(bytecodes), 001 §7.2)
// with culling, with the ring_index a viewer keeps, cut at depth 10, and uncut (every context
// a segment: the baseline culling is measured against); hit testing; the call graph and its
// display tree; a search for `Hash` as the viewer runs it (listed, and marked by preorder
// position), and its highlight on the chart.
// Figures 13-16's sweep over depths 2..150 is ring_depth/NAME/DEPTH.
#include "support/dacapo.hpp"
#include "support/hit_test.hpp"

#include <ccrc/algorithm/depth.hpp>
#include <ccrc/algorithm/inclusive.hpp>
#include <ccrc/algorithm/search.hpp>
#include <ccrc/geometry/first_view.hpp>
#include <ccrc/geometry/highlight.hpp>
#include <ccrc/geometry/hit_test.hpp>
#include <ccrc/geometry/ring_chart.hpp>
#include <ccrc/geometry/ring_index.hpp>
#include <ccrc/graph/call_graph.hpp>
#include <ccrc/graph/display_tree.hpp>

#include <benchmark/benchmark.h>

#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace {

// What a viewer computes once per profile and metric: ag(bytecodes), heights, the index,
// the contexts of each method (as nodes and as preorder positions).
struct viewer {
  std::vector<double> ag;
  std::vector<std::uint32_t> heights;
  std::unique_ptr<ccrc::ring_index> index;
  std::unique_ptr<ccrc::method_contexts> by_method;
  std::unique_ptr<ccrc::preorder_index> order;
  std::unique_ptr<ccrc::method_positions> positions;
};

const viewer& viewer_of(std::string_view name) {
  static std::map<std::string, viewer, std::less<>> cache;
  auto it = cache.find(name);
  if (it == cache.end()) {
    const ccrc::profile& p = bench::dacapo(name);
    viewer v{ccrc::inclusive(p.tree(), p.column("bytecodes")), ccrc::heights(p.tree()), nullptr, nullptr, nullptr, nullptr};
    v.index = std::make_unique<ccrc::ring_index>(p.tree(), v.ag);
    v.by_method = std::make_unique<ccrc::method_contexts>(p.tree());
    v.order = std::make_unique<ccrc::preorder_index>(p.tree());
    v.positions = std::make_unique<ccrc::method_positions>(p.tree(), *v.order);
    it = cache.emplace(std::string(name), std::move(v)).first;
  }
  return it->second;
}

ccrc::ring_layout layout(std::string_view name, std::uint32_t depth, double min_px, bool indexed) {
  const viewer& v = viewer_of(name);
  ccrc::tree_view view = ccrc::ring_chart_view(ccrc::tree_view(bench::dacapo(name).tree(), ccrc::root_node, depth), v.ag);
  ccrc::ring_options o = ccrc::on_canvas(1440, 900, {.min_arc_px = min_px});
  o.heights = v.heights;
  if (indexed) o.index = v.index.get();
  return ccrc::ring_chart(view, v.ag, o);
}

void time_layout(benchmark::State& state, std::string_view name, std::uint32_t depth, double min_px, bool indexed) {
  // Untimed, twice: prepares the viewer, and grows the heap to hold the chart being replaced
  // and its replacement, so that no timed iteration pays the VM's page faults.
  ccrc::ring_layout chart = layout(name, depth, min_px, indexed);
  chart = layout(name, depth, min_px, indexed);
  for (auto _ : state) {
    chart = layout(name, depth, min_px, indexed);
    benchmark::DoNotOptimize(chart.segments.data());
  }
  state.counters["segments"] = static_cast<double>(chart.segments.size());
  state.counters["lines"] = static_cast<double>(chart.count(ccrc::segment_kind::line));
  bench::set_items(state, bench::dacapo(name).size());
}

// The whole tree with culling at 1 px, children sorted per layout (what `ccrc render` does).
void ring_layout(benchmark::State& state, std::string_view name) {
  time_layout(state, name, ccrc::unlimited_depth, 1, false);
}
// The same with the viewer's ring_index: only what is visible is read.
void ring_layout_indexed(benchmark::State& state, std::string_view name) {
  time_layout(state, name, ccrc::unlimited_depth, 1, true);
}
void ring_layout_depth10(benchmark::State& state, std::string_view name) { time_layout(state, name, 10, 1, true); }
// No culling: every context becomes a segment.
void ring_layout_uncut(benchmark::State& state, std::string_view name) {
  time_layout(state, name, ccrc::unlimited_depth, 0, false);
}

// The chart a viewer opens on (ccrc::first_view, then its chart, laid out again only when the
// first view did not hand one back), as a ring chart and as an icicle, with the index.
template <class Canvas>
void first_view(benchmark::State& state, std::string_view name, const Canvas& canvas) {
  const viewer& v = viewer_of(name);
  ccrc::tree_view whole(bench::dacapo(name).tree());
  auto open = [&] {
    auto first = ccrc::first_view(whole, v.ag, canvas);
    return first.chart ? std::move(*first.chart) : ccrc::layout_of(first.view, v.ag, canvas);
  };
  auto chart = open();
  chart = open();
  for (auto _ : state) {
    chart = open();
    benchmark::DoNotOptimize(chart.segments.data());
  }
  state.counters["segments"] = static_cast<double>(chart.segments.size());
  bench::set_items(state, bench::dacapo(name).size());
}
void first_view_ring(benchmark::State& state, std::string_view name) {
  ccrc::ring_options o = ccrc::on_canvas(1440, 900, {.index = viewer_of(name).index.get()});
  first_view(state, name, o);
}
ccrc::ring_layout first_view_ring_chart(std::string_view name) {
  const viewer& v = viewer_of(name);
  ccrc::ring_options o = ccrc::on_canvas(1440, 900, {.index = v.index.get()});
  auto first = ccrc::first_view(ccrc::tree_view(bench::dacapo(name).tree()), v.ag, o);
  return first.chart ? std::move(*first.chart) : ccrc::layout_of(first.view, v.ag, o);
}
void first_view_icicle(benchmark::State& state, std::string_view name) {
  first_view(state, name, ccrc::icicle_options{.width = 1440, .height = 900, .index = viewer_of(name).index.get()});
}

// Building the index, once per profile and metric.
void ring_index(benchmark::State& state, std::string_view name) {
  const ccrc::profile& p = bench::dacapo(name);
  const viewer& v = viewer_of(name);
  for (auto _ : state) {
    ccrc::ring_index index(p.tree(), v.ag);
    benchmark::DoNotOptimize(index.children(0).data());
  }
  bench::set_items(state, p.size());
}

// Hit tests at 4,096 random points of the canvas of the culled, full-depth chart.
void hit_test(benchmark::State& state, std::string_view name) {
  bench::hit_test_loop(state, layout(name, ccrc::unlimited_depth, 1, true));
}

// Kaes's call graph of ag(bytecodes) (c_i, c_t, edges), and its display tree.
void call_graph(benchmark::State& state, std::string_view name) {
  const ccrc::profile& p = bench::dacapo(name);
  std::size_t edges = 0;
  for (auto _ : state) {
    ccrc::call_graph g(p.tree(), p.column("bytecodes"));
    edges = g.edges().size();
    benchmark::DoNotOptimize(g.edges().data());
  }
  state.counters["edges"] = static_cast<double>(edges);
  bench::set_items(state, p.size());
}

void display_tree(benchmark::State& state, std::string_view name) {
  const ccrc::profile& p = bench::dacapo(name);
  ccrc::call_graph g(p.tree(), p.column("bytecodes"));
  for (auto _ : state) {
    auto gt = ccrc::display_tree(p, g);
    benchmark::DoNotOptimize(gt.output.size());
  }
  bench::set_items(state, p.size());
}

// Searching for `Hash` as `ccrc search` does (a sweep of the tree, with its own ag) and as
// the viewer does (through the method index and the preorder, with the viewer's ag); then
// highlighting the matches on the full-depth chart by walking up from each, and from marks
// made once. The viewer builds the two indexes once per tree.
const ccrc::search_query hash{.name = {.text = "Hash"}};

void search_indexes(benchmark::State& state, std::string_view name) {
  const ccrc::profile& p = bench::dacapo(name);
  for (auto _ : state) {
    ccrc::method_contexts by_method(p.tree());
    ccrc::preorder_index order(p.tree());
    benchmark::DoNotOptimize(by_method.of(ccrc::method_id{1}).data());
    benchmark::DoNotOptimize(order.position(1));
  }
  bench::set_items(state, p.size());
}

void search_sweep(benchmark::State& state, std::string_view name) {
  const ccrc::profile& p = bench::dacapo(name);
  std::size_t found = 0;
  for (auto _ : state) found = ccrc::search(ccrc::tree_view(p.tree()), p.column("bytecodes"), hash).nodes.size();
  state.counters["found"] = static_cast<double>(found);
  bench::set_items(state, p.size());
}

void search_indexed(benchmark::State& state, std::string_view name) {
  const ccrc::profile& p = bench::dacapo(name);
  const viewer& v = viewer_of(name);
  std::size_t found = 0;
  for (auto _ : state) found = ccrc::search(*v.by_method, *v.order, p.tree(), p.column("bytecodes"), v.ag, hash).nodes.size();
  state.counters["found"] = static_cast<double>(found);
  bench::set_items(state, p.size());
}

void highlight(benchmark::State& state, std::string_view name, bool marked) {
  const ccrc::profile& p = bench::dacapo(name);
  const viewer& v = viewer_of(name);
  ccrc::ring_layout chart = layout(name, ccrc::unlimited_depth, 1, true);
  auto found = ccrc::search(*v.by_method, *v.order, p.tree(), p.column("bytecodes"), v.ag, hash);
  ccrc::highlight_marks marks(*v.order, found.nodes);
  for (auto _ : state) {
    auto states = marked ? ccrc::highlight(chart, p.tree(), v.ag, marks) : ccrc::highlight(chart, p.tree(), v.ag, found.nodes);
    benchmark::DoNotOptimize(states.data());
  }
  state.counters["found"] = static_cast<double>(found.nodes.size());
  bench::set_items(state, p.size());
}
void highlight_walk(benchmark::State& state, std::string_view name) { highlight(state, name, false); }
void highlight_from_marks(benchmark::State& state, std::string_view name) { highlight(state, name, true); }
// The contexts of one method, as picking a function in the viewer marks them (the method
// whose number of contexts is nearest one in `per` of the tree's), highlighted on the chart
// the viewer opens on.
void highlight_picked(benchmark::State& state, std::string_view name, double per) {
  const ccrc::call_tree& t = bench::dacapo(name).tree();
  const viewer& v = viewer_of(name);
  ccrc::ring_layout chart = first_view_ring_chart(name);
  std::vector<std::uint32_t> contexts;
  for (ccrc::node_id n = 1; n < t.size(); ++n) {
    if (t.method(n) >= contexts.size()) contexts.resize(t.method(n) + 1, 0);
    ++contexts[t.method(n)];
  }
  const double wanted = static_cast<double>(t.size()) / per;
  auto distance = [&](ccrc::node_id n) { return std::abs(static_cast<double>(contexts[t.method(n)]) - wanted); };
  ccrc::node_id picked = 1;
  for (ccrc::node_id n = 2; n < t.size(); ++n)
    if (distance(n) < distance(picked)) picked = n;
  std::vector<ccrc::node_id> found;
  for (ccrc::node_id n = 1; n < t.size(); ++n)
    if (t.method(n) == t.method(picked)) found.push_back(n);
  ccrc::highlight_marks marks(*v.order, found);
  for (auto _ : state) {
    auto states = ccrc::highlight(chart, t, v.ag, marks);
    benchmark::DoNotOptimize(states.data());
  }
  state.counters["found"] = static_cast<double>(found.size());
  bench::set_items(state, t.size());
}

// Few, scattered matches (eclipse: 217 contexts), and a method called all over the profile
// (one context in 300: eclipse's has 7,076), whose matches lie below most culled lines.
void highlight_method(benchmark::State& state, std::string_view name) { highlight_picked(state, name, 10000); }
void highlight_spread(benchmark::State& state, std::string_view name) { highlight_picked(state, name, 300); }

void highlight_marks(benchmark::State& state, std::string_view name) {
  const ccrc::profile& p = bench::dacapo(name);
  const viewer& v = viewer_of(name);
  auto found = ccrc::search(*v.by_method, *v.order, p.tree(), p.column("bytecodes"), v.ag, hash);
  for (auto _ : state) {
    ccrc::highlight_marks marks(*v.order, found.nodes);
    benchmark::DoNotOptimize(marks.size());
  }
  bench::set_items(state, p.size());
}

// What a search costs the viewer up to its highlight's marks: the indexed search, then marks
// made from its list of nodes (each looked up in the preorder), against search_positions,
// whose bitmap becomes the marks (what examples/viewer does since it only highlights).
void search_then_marks(benchmark::State& state, std::string_view name) {
  const ccrc::profile& p = bench::dacapo(name);
  const viewer& v = viewer_of(name);
  for (auto _ : state) {
    auto found = ccrc::search(*v.by_method, *v.order, p.tree(), p.column("bytecodes"), v.ag, hash);
    ccrc::highlight_marks marks(*v.order, found.nodes);
    benchmark::DoNotOptimize(marks.size());
  }
  bench::set_items(state, p.size());
}

void search_positions(benchmark::State& state, std::string_view name) {
  const ccrc::profile& p = bench::dacapo(name);
  const viewer& v = viewer_of(name);
  std::size_t found = 0;
  for (auto _ : state) {
    auto r = ccrc::search_positions(*v.positions, *v.order, p.tree(), p.column("bytecodes"), v.ag, hash);
    found = r.count;
    ccrc::highlight_marks marks(*v.order, std::move(r.positions));
    benchmark::DoNotOptimize(marks.size());
  }
  state.counters["found"] = static_cast<double>(found);
  bench::set_items(state, p.size());
}

// Figures 13-16: the culled, indexed layout of each profile at depths 2..150.
void ring_depths() {
  for (const auto& b : ccrc::dacapo_benchmarks) {
    std::string_view name = b.name;
    for (std::uint32_t depth : {2u, 5u, 10u, 20u, 50u, 100u, 150u})
      benchmark::RegisterBenchmark(("ring_depth/" + std::string(name) + "/" + std::to_string(depth)).c_str(),
                                   [name, depth](benchmark::State& state) { time_layout(state, name, depth, 1, true); })
          ->Unit(benchmark::kMicrosecond);
  }
}

[[maybe_unused]] const bool registered = [] {
  bench::register_dacapo("ring_layout", ring_layout, benchmark::kMicrosecond);
  bench::register_dacapo("ring_layout_indexed", ring_layout_indexed, benchmark::kMicrosecond);
  bench::register_dacapo("ring_layout_depth10", ring_layout_depth10, benchmark::kMicrosecond);
  bench::register_dacapo("ring_layout_uncut", ring_layout_uncut);
  bench::register_dacapo("first_view_ring", first_view_ring, benchmark::kMicrosecond);
  bench::register_dacapo("first_view_icicle", first_view_icicle, benchmark::kMicrosecond);
  bench::register_dacapo("ring_index", ring_index);
  bench::register_dacapo("hit_test", hit_test, benchmark::kMicrosecond);
  bench::register_dacapo("call_graph", call_graph);
  bench::register_dacapo("display_tree", display_tree);
  bench::register_dacapo("search_indexes", search_indexes);
  bench::register_dacapo("search_sweep", search_sweep, benchmark::kMicrosecond);
  bench::register_dacapo("search_indexed", search_indexed, benchmark::kMicrosecond);
  bench::register_dacapo("highlight_walk", highlight_walk, benchmark::kMicrosecond);
  bench::register_dacapo("highlight_marks", highlight_marks, benchmark::kMicrosecond);
  bench::register_dacapo("highlight_from_marks", highlight_from_marks, benchmark::kMicrosecond);
  bench::register_dacapo("highlight_method", highlight_method, benchmark::kMicrosecond);
  bench::register_dacapo("highlight_spread", highlight_spread, benchmark::kMicrosecond);
  bench::register_dacapo("search_then_marks", search_then_marks, benchmark::kMicrosecond);
  bench::register_dacapo("search_positions", search_positions, benchmark::kMicrosecond);
  ring_depths();
  bench::ratio("ring_layout", "ring_layout_uncut");
  bench::ratio("ring_layout_indexed", "ring_layout_uncut");
  bench::ratio("search_indexed", "search_sweep");
  bench::ratio("highlight_from_marks", "highlight_walk");
  bench::ratio("search_positions", "search_then_marks");
  return true;
}();

}  // namespace

CCRC_DACAPO_BENCHMARK_MAIN()
