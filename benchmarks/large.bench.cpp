// 50 million contexts (issue 14): every algorithm of the library on the eclipse shape of
// Table I scaled to 2 million and to 50 million contexts (same depths and recursion mix),
// each step timed once (real time) with the peak heap it needs above what was live before
// it. Counters, per context of the tree:
//   ns_per_context          the step's time
//   peak_bytes_per_context  its peak heap above what was live when it began
//   tree_bytes_per_context  call_tree::memory_bytes() (structure, child index, symbols) of
//                           the profile as generate_cct returns it: shrunk, no child index
//   metrics_bytes_per_context  the profile's metric columns
//   within_2x_tree          1 if the peak is at most twice the profile (tree plus metrics)
// and for generate, what the tree holds besides its 16 bytes a context: the symbols, and the
// child index a tree keeps while it grows (built again, measured, released).
//
// One size at a time is kept: its profile, what a viewer derives from it (ag, heights, the
// ring_index), and for the diff a perturbed copy, dropped after the diff. Benchmarks run in
// registration order, all of 2M before any of 50M; filter with --benchmark_filter=/2000000/
// for the small size alone.
#include "support/allocation_hook.hpp"
#include "support/dacapo.hpp"

#include <ccrc/algorithm/depth.hpp>
#include <ccrc/algorithm/flat.hpp>
#include <ccrc/algorithm/inclusive.hpp>
#include <ccrc/algorithm/search.hpp>
#include <ccrc/algorithm/statistics.hpp>
#include <ccrc/diff/diff.hpp>
#include <ccrc/geometry/ring_chart.hpp>
#include <ccrc/geometry/ring_index.hpp>
#include <ccrc/graph/call_graph.hpp>
#include <ccrc/graph/display_tree.hpp>
#include <ccrc/io/cct_binary.hpp>
#include <ccrc/io/folded.hpp>
#include <ccrc/transform/eliminate_recursion.hpp>
#include <ccrc/tree/child_lookup.hpp>

#include <benchmark/benchmark.h>

#include <chrono>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace {

// Everything kept for one size.
struct workload {
  std::size_t nodes = 0;
  std::optional<ccrc::profile> profile;
  std::vector<double> ag;
  std::vector<std::uint32_t> heights;
  std::unique_ptr<ccrc::ring_index> index;
  std::optional<bench::cct> second;  // the perturbed copy, for the diff
  std::string cctb;                  // written by cctb_write, read by cctb_read
};

// The workload of `nodes` contexts; a new size drops the previous one first.
workload& workload_of(std::size_t nodes) {
  static workload w;
  if (w.nodes != nodes) {
    w = workload{};
    w.nodes = nodes;
  }
  return w;
}

ccrc::cct_shape shape_of(std::size_t nodes) {
  const ccrc::dacapo_benchmark* eclipse = ccrc::find_dacapo("eclipse");
  return ccrc::scaled(eclipse->shape, static_cast<double>(nodes) / static_cast<double>(eclipse->shape.nodes));
}

const ccrc::profile& profile_of(const benchmark::State& state) {
  workload& w = workload_of(bench::size_of(state));
  if (!w.profile) w.profile.emplace(ccrc::generate_cct(shape_of(w.nodes), 1, ccrc::find_dacapo("eclipse")->model));
  return *w.profile;
}

// ag(bytecodes) and the heights, as a viewer keeps them (untimed where used).
workload& viewer_of(const benchmark::State& state) {
  const ccrc::profile& p = profile_of(state);
  workload& w = workload_of(bench::size_of(state));
  if (w.ag.empty()) {
    w.ag = ccrc::inclusive(p.tree(), p.column("bytecodes"));
    w.heights = ccrc::heights(p.tree());
  }
  return w;
}

struct measured {
  double seconds = 0;
  std::size_t peak = 0;
};

// Times f() once, with its peak heap above what is live now.
template <class F>
measured measure(F&& f) {
  bench::peak_tracker peak;
  auto start = std::chrono::steady_clock::now();
  f();
  std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  return {took.count(), peak.bytes()};
}

void report(benchmark::State& state, const ccrc::profile& p, measured m) {
  auto n = static_cast<double>(p.size());
  auto tree = static_cast<double>(p.tree().memory_bytes()), whole = static_cast<double>(p.memory_bytes());
  state.counters["ns_per_context"] = m.seconds * 1e9 / n;
  state.counters["peak_bytes_per_context"] = static_cast<double>(m.peak) / n;
  state.counters["tree_bytes_per_context"] = tree / n;
  state.counters["metrics_bytes_per_context"] = (whole - tree) / n;
  state.counters["within_2x_tree"] = static_cast<double>(m.peak) <= 2 * whole ? 1 : 0;
}

// A step on the profile: setup is untimed, then f is timed.
template <class F>
void step(benchmark::State& state, F&& f) {
  const ccrc::profile& p = profile_of(state);
  measured m;
  for (auto _ : state) m = measure(f);
  report(state, p, m);
}

void generate(benchmark::State& state) {
  workload& w = workload_of(bench::size_of(state));
  w.profile.reset();
  ccrc::cct_shape shape = shape_of(w.nodes);
  measured m;
  for (auto _ : state) m = measure([&] { w.profile.emplace(ccrc::generate_cct(shape, 1, ccrc::find_dacapo("eclipse")->model)); });
  report(state, *w.profile, m);
  ccrc::tree_statistics s = ccrc::statistics(ccrc::tree_view(w.profile->tree()));
  state.counters["depth"] = s.max_depth;
  state.counters["methods"] = static_cast<double>(s.methods);
  auto n = static_cast<double>(w.profile->size());
  const ccrc::call_tree& t = w.profile->tree();
  state.counters["symbols_bytes_per_context"] = static_cast<double>(t.symbols().memory_bytes()) / n;
  state.counters["spare_bytes_per_context"] =
      static_cast<double>(t.memory_bytes() - t.symbols().memory_bytes() - 16 * t.size()) / n;
  std::size_t shrunk = w.profile->memory_bytes();
  w.profile->build_child_index();
  state.counters["index_bytes_per_context"] = static_cast<double>(w.profile->memory_bytes() - shrunk) / n;
  w.profile->shrink_to_fit();
}

// Every context looked up as its parent's child: the cost of lookups on the shrunk tree,
// whose wide parents (over 8 children) are scanned, against the tree with its child index
// (rebuilt in child_index_rebuild, as the first insertion after shrink_to_fit would) and a
// ccrc::child_lookup (its own index built in the step).
std::size_t find_every_context(const ccrc::call_tree& t, auto find) {
  std::size_t found = 0;
  for (ccrc::node_id n = 1; n < t.size(); ++n) found += find(t.parent(n), t.frame(n)) == n;
  return found;
}

void child_index_rebuild(benchmark::State& state) {
  workload& w = workload_of(bench::size_of(state));
  profile_of(state);
  step(state, [&] { w.profile->build_child_index(); });
}

void find_child_indexed(benchmark::State& state) {
  const ccrc::profile& p = profile_of(state);
  workload& w = workload_of(bench::size_of(state));
  w.profile->build_child_index();  // untimed when child_index_rebuild ran before
  std::size_t found = 0;
  step(state, [&] { found = find_every_context(p.tree(), [&](ccrc::node_id a, ccrc::frame_id f) { return p.tree().find_child(a, f); }); });
  state.counters["found"] = static_cast<double>(found);
  w.profile->shrink_to_fit();  // back to the tree the other steps measure
}

void find_child_shrunk(benchmark::State& state) {
  const ccrc::profile& p = profile_of(state);
  std::size_t found = 0;
  step(state, [&] { found = find_every_context(p.tree(), [&](ccrc::node_id a, ccrc::frame_id f) { return p.tree().find_child(a, f); }); });
  state.counters["found"] = static_cast<double>(found);
}

void find_child_lookup(benchmark::State& state) {
  const ccrc::profile& p = profile_of(state);
  std::size_t found = 0;
  step(state, [&] {
    ccrc::child_lookup children(p.tree());
    found = find_every_context(p.tree(), [&](ccrc::node_id a, ccrc::frame_id f) { return children.find(a, f); });
  });
  state.counters["found"] = static_cast<double>(found);
}

void statistics(benchmark::State& state) {
  const ccrc::profile& p = profile_of(state);
  step(state, [&] { benchmark::DoNotOptimize(ccrc::statistics(ccrc::tree_view(p.tree())).nodes); });
}

void inclusive(benchmark::State& state) {
  const ccrc::profile& p = profile_of(state);
  step(state, [&] { benchmark::DoNotOptimize(ccrc::inclusive(p.tree(), p.column("bytecodes")).data()); });
}

void flat(benchmark::State& state) {
  const ccrc::profile& p = profile_of(state);
  step(state, [&] { benchmark::DoNotOptimize(ccrc::flat(ccrc::tree_view(p.tree()), p.column("bytecodes")).data()); });
}

void eliminate_recursion(benchmark::State& state) {
  const ccrc::profile& p = profile_of(state);
  std::size_t after = 0;
  step(state, [&] { after = ccrc::eliminate_recursion(p).output.size(); });
  state.counters["nodes_after"] = static_cast<double>(after);
}

void call_graph(benchmark::State& state) {
  const ccrc::profile& p = profile_of(state);
  std::size_t edges = 0;
  step(state, [&] { edges = ccrc::call_graph(p.tree(), p.column("bytecodes")).edges().size(); });
  state.counters["edges"] = static_cast<double>(edges);
}

void display_tree(benchmark::State& state) {
  const ccrc::profile& p = profile_of(state);
  ccrc::call_graph g(p.tree(), p.column("bytecodes"));  // untimed, held during the step
  step(state, [&] { benchmark::DoNotOptimize(ccrc::display_tree(p, g).output.size()); });
}

void ring_index(benchmark::State& state) {
  const ccrc::profile& p = profile_of(state);
  workload& w = viewer_of(state);
  w.index.reset();
  step(state, [&] { w.index = std::make_unique<ccrc::ring_index>(p.tree(), w.ag); });
  state.counters["index_bytes_per_context"] = static_cast<double>(w.index->memory_bytes()) / static_cast<double>(p.size());
}

// The whole tree at 1440x900, culled at 1 px (what `ccrc render` lays out), with or without
// the viewer's index.
void layout(benchmark::State& state, bool indexed) {
  const ccrc::profile& p = profile_of(state);
  workload& w = viewer_of(state);
  if (indexed && !w.index) w.index = std::make_unique<ccrc::ring_index>(p.tree(), w.ag);
  std::size_t segments = 0;
  step(state, [&] {
    ccrc::ring_options o = ccrc::on_canvas(1440, 900, {.min_arc_px = 1});
    o.heights = w.heights;
    if (indexed) o.index = w.index.get();
    ccrc::ring_layout chart = ccrc::ring_chart(ccrc::ring_chart_view(ccrc::tree_view(p.tree()), w.ag), w.ag, o);
    segments = chart.segments.size();
  });
  state.counters["segments"] = static_cast<double>(segments);
}
void ring_layout(benchmark::State& state) { layout(state, false); }
void ring_layout_indexed(benchmark::State& state) { layout(state, true); }

void search(benchmark::State& state, ccrc::name_query q) {
  const ccrc::profile& p = profile_of(state);
  std::size_t found = 0;
  step(state, [&] { found = ccrc::search(ccrc::tree_view(p.tree()), p.column("bytecodes"), {.name = q}).nodes.size(); });
  state.counters["found"] = static_cast<double>(found);
}
void search_substring(benchmark::State& state) { search(state, {.text = "visit"}); }
void search_regex(benchmark::State& state) {
  search(state, {.text = R"(\.(get|set)[A-Z][A-Za-z]*\()", .match = ccrc::name_match::regex});
}

// In memory through a std::ostringstream: its buffer doubles as it grows, old and new held
// during each copy, so the peak is the stream's, not the writer's.
void cctb_write_stream(benchmark::State& state) {
  const ccrc::profile& p = profile_of(state);
  std::size_t bytes = 0;
  step(state, [&] {
    std::ostringstream out;
    ccrc::write_cctb(out, p);
    bytes = std::move(out).str().size();
  });
  state.counters["file_bytes_per_context"] = static_cast<double>(bytes) / static_cast<double>(p.size());
}

// In memory with ccrc::cctb_bytes (a string sized by the checksum pass): the bytes kept for
// cctb_read.
void cctb_write(benchmark::State& state) {
  const ccrc::profile& p = profile_of(state);
  workload& w = workload_of(bench::size_of(state));
  w.cctb.clear();
  w.cctb.shrink_to_fit();
  step(state, [&] { w.cctb = ccrc::cctb_bytes(p); });
  state.counters["file_bytes_per_context"] = static_cast<double>(w.cctb.size()) / static_cast<double>(p.size());
}

// The writer alone, to a counting sink (as to a file): what the string above costs aside.
void cctb_write_sink(benchmark::State& state) {
  const ccrc::profile& p = profile_of(state);
  step(state, [&] {
    bench::counting_buffer sink;
    std::ostream out(&sink);
    ccrc::write_cctb(out, p);
  });
}

void cctb_read(benchmark::State& state) {
  const ccrc::profile& p = profile_of(state);
  workload& w = workload_of(bench::size_of(state));
  if (w.cctb.empty()) w.cctb = ccrc::cctb_bytes(p);
  step(state, [&] { benchmark::DoNotOptimize(ccrc::read_cctb(w.cctb).size()); });
  w.cctb.clear();
  w.cctb.shrink_to_fit();
}

void folded_write(benchmark::State& state) {
  const ccrc::profile& p = profile_of(state);
  std::size_t bytes = 0;
  step(state, [&] {
    bench::counting_buffer sink;
    std::ostream out(&sink);
    ccrc::write_folded(out, p);
    bytes = sink.bytes;
  });
  state.counters["text_bytes_per_context"] = static_cast<double>(bytes) / static_cast<double>(p.size());
}

// The folded text's length, from each context's path length (no text made).
std::size_t folded_length(const ccrc::profile& p) {
  const ccrc::call_tree& t = p.tree();
  std::vector<std::size_t> length(t.size());
  std::size_t total = 0;
  for (ccrc::node_id n = 1; n < t.size(); ++n) total += length[n] = length[t.parent(n)] + t.name(n).size() + 1;
  return total;
}

// Read back from memory only when the text fits (under 4 GiB, beside the tree: about 2.5 GB
// at 2 million contexts, 60 GB at 50 million): every line repeats its whole path.
void folded_read(benchmark::State& state) {
  const ccrc::profile& p = profile_of(state);
  std::size_t length = folded_length(p);
  if (length >= (std::size_t{4} << 30)) {
    state.SkipWithError(("folded text of about " + std::to_string(length >> 30) + " GiB: not held in memory to be read back").c_str());
    return;
  }
  std::string text;
  {
    std::ostringstream out;
    ccrc::write_folded(out, p);
    text = std::move(out).str();
  }
  step(state, [&] { benchmark::DoNotOptimize(ccrc::read_folded(text).size()); });
}

// A "next version" of the program of p, as in diff.bench.cpp: 2 % of the methods get a
// wrapper method inserted above every call to them, 2 % disappear (their callees are called
// by their caller), and 5 % take twice as long (time is the bytecodes of p).
bench::cct next_version(const ccrc::profile& p) {
  const ccrc::call_tree& t = p.tree();
  const ccrc::symbol_table& syms = t.symbols();
  auto bytecodes = p.column("bytecodes");
  auto calls = p.column("calls");
  bench::cct out;
  out.reserve(t.size() + t.size() / 10);
  auto hashed = [](std::uint32_t f) { return (f * 2654435761u) >> 7; };
  std::vector<ccrc::frame_id> frame(syms.frame_count()), wrapper(syms.frame_count());
  for (ccrc::frame_id f{1}; f < syms.frame_count(); ++f) {
    frame[f] = out.intern(syms.name(f));
    if (hashed(f) % 50 == 0) wrapper[f] = out.intern("wrapper_of_" + std::string(syms.name(f)));
  }
  ccrc::cursor<bench::cct> c(out);
  std::vector<std::uint8_t> exits(t.size(), 0);  // per context: how many exits it takes
  ccrc::depth_first(
      ccrc::tree_view(t),
      [&](ccrc::node_id n, std::uint32_t) {
        if (n == ccrc::root_node) return;
        ccrc::frame_id f = t.frame(n);
        if (hashed(f) % 50 == 1) return;
        auto count = static_cast<std::uint64_t>(calls[n]);
        if (wrapper[f] != 0) {
          c.enter(wrapper[f]);
          c.add<"calls">(count);
          ++exits[n];
        }
        c.enter(frame[f]);
        c.add<"calls">(count);
        c.add<"time">(hashed(f) % 20 == 2 ? 2 * bytecodes[n] : bytecodes[n]);
        ++exits[n];
      },
      [&](ccrc::node_id n, std::uint32_t) {
        for (int i = exits[n]; i > 0; --i) c.exit();
      });
  return out;
}

void diff(benchmark::State& state) {
  const ccrc::profile& p = profile_of(state);
  workload& w = workload_of(bench::size_of(state));
  w.ag = {};  // the viewer's columns are done with: room for the second run
  w.heights = {};
  w.index.reset();
  if (!w.second) w.second.emplace(next_version(p));
  const bench::cct& second = *w.second;
  std::size_t nodes = 0;
  step(state, [&] {
    ccrc::cct_diff d = ccrc::diff({p.tree(), p.column("bytecodes"), p.column("calls")},
                                  {second.tree(), second.column<"time">(), second.column<"calls">()});
    nodes = d.tree().size();
  });
  state.counters["second_nodes"] = static_cast<double>(second.size());
  state.counters["diff_nodes"] = static_cast<double>(nodes);
  w.second.reset();
}

[[maybe_unused]] const bool registered = [] {
  using function = void (*)(benchmark::State&);
  const std::pair<const char*, function> steps[] = {
      {"generate", generate},
      {"child_index_rebuild", child_index_rebuild},
      {"find_child_indexed", find_child_indexed},
      {"find_child_shrunk", find_child_shrunk},
      {"find_child_lookup", find_child_lookup},
      {"statistics", statistics},
      {"inclusive", inclusive},
      {"flat", flat},
      {"eliminate_recursion", eliminate_recursion},
      {"call_graph", call_graph},
      {"display_tree", display_tree},
      {"ring_index", ring_index},
      {"ring_layout", ring_layout},
      {"ring_layout_indexed", ring_layout_indexed},
      {"search_substring", search_substring},
      {"search_regex", search_regex},
      {"cctb_write_stream", cctb_write_stream},
      {"cctb_write", cctb_write},
      {"cctb_write_sink", cctb_write_sink},
      {"cctb_read", cctb_read},
      {"folded_write", folded_write},
      {"folded_read", folded_read},
      {"diff", diff},
  };
  for (std::int64_t nodes : {2'000'000, 50'000'000})
    for (const auto& [name, fn] : steps)
      benchmark::RegisterBenchmark(name, fn)
          ->Arg(nodes)
          ->Iterations(1)
          ->UseRealTime()
          ->Unit(benchmark::kMillisecond);
  return true;
}();

}  // namespace

// Unlike CCRC_BENCHMARK_MAIN, glibc keeps its defaults: the steps' large blocks are mapped
// and returned to the system when freed, so the process stays near the largest step, not
// the sum of them.
int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
