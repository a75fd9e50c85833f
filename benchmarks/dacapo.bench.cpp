// The DaCapo suite: every algorithm on the eleven generated CCTs of Table I, each beside its
// baseline in the same run (the naive pointer-based tree, the literal Figure 8, folded
// stacks), with the table of ratios printed at the end.
#include "support/dacapo.hpp"
#include "support/figure8.hpp"

#include <ccrc/algorithm/flat.hpp>
#include <ccrc/algorithm/inclusive.hpp>
#include <ccrc/io/cct_binary.hpp>
#include <ccrc/io/cct_text.hpp>
#include <ccrc/io/folded.hpp>
#include <ccrc/transform/eliminate_recursion.hpp>

#include <benchmark/benchmark.h>

#include <cstring>
#include <map>
#include <memory>
#include <sstream>

namespace {

// -- building, as a profiler does: cursor replay of the depth-first trace, add_path of the
// stacks at the leaves; against the naive tree

void build_cursor(benchmark::State& state, std::string_view name) {
  const bench::trace& t = bench::dacapo_trace(name);
  bench::time_building(state, t, [&](bench::cct& tree) { bench::replay(t, tree); });
}

void build_cursor_naive(benchmark::State& state, std::string_view name) {
  const bench::trace& t = bench::dacapo_trace(name);
  bench::time_naive_building(state, t.nodes, [&] { return bench::naive_replay(t); });
}

void build_add_path(benchmark::State& state, std::string_view name) {
  const bench::trace& t = bench::dacapo_trace(name);
  bench::samples s = bench::samples_of(t);
  bench::time_building(state, t, [&](bench::cct& tree) { bench::add_samples(s, tree); });
  state.counters["frames_per_node"] = static_cast<double>(s.frames.size()) / static_cast<double>(t.nodes);
}

void build_add_path_naive(benchmark::State& state, std::string_view name) {
  const bench::trace& t = bench::dacapo_trace(name);
  bench::samples s = bench::samples_of(t);
  bench::time_naive_building(state, t.nodes, [&] { return bench::naive_add_samples(s); });
}

// -- aggregation: ag(bytecodes) and the flat profile

void inclusive(benchmark::State& state, std::string_view name) {
  const ccrc::profile& p = bench::dacapo(name);
  auto self = p.column("bytecodes");
  std::vector<double> values(self.begin(), self.end());
  for (auto _ : state) {
    ccrc::inclusive_in_place(p.tree(), std::span(values));
    benchmark::DoNotOptimize(values.data());
  }
  bench::set_items(state, p.size());
}

void inclusive_naive(benchmark::State& state, std::string_view name) {
  bench::naive_node& root = bench::dacapo_naive(name);
  std::vector<std::pair<bench::naive_node*, bool>> stack;
  for (auto _ : state) {
    bench::naive_inclusive(&root, stack);
    benchmark::DoNotOptimize(root.ag);
  }
  bench::set_items(state, bench::dacapo(name).size());
}

void flat(benchmark::State& state, std::string_view name) {
  const ccrc::profile& p = bench::dacapo(name);
  for (auto _ : state) {
    auto entries = ccrc::flat(ccrc::tree_view(p.tree()), p.column("bytecodes"));
    benchmark::DoNotOptimize(entries.data());
  }
  bench::set_items(state, p.size());
}

void flat_naive(benchmark::State& state, std::string_view name) {
  bench::naive_node& root = bench::dacapo_naive(name);
  std::vector<bench::naive_node*> stack;
  for (auto _ : state) {
    auto entries = bench::naive_flat(&root, stack);
    benchmark::DoNotOptimize(entries.data());
  }
  bench::set_items(state, bench::dacapo(name).size());
}

// -- recursion elimination: linear time against the literal O(nodes x depth) Figure 8

void eliminate_recursion(benchmark::State& state, std::string_view name) {
  const ccrc::profile& p = bench::dacapo(name);
  std::size_t out = ccrc::eliminate_recursion(p).output.size() - 1;  // untimed: warms the heap up
  for (auto _ : state) {
    auto r = ccrc::eliminate_recursion(p);
    out = r.output.size() - 1;
    benchmark::DoNotOptimize(r.node_map.data());
  }
  bench::set_items(state, p.size());
  state.counters["nodes_after"] = static_cast<double>(out);
}

void figure8(benchmark::State& state, std::string_view name) {
  const ccrc::profile& p = bench::dacapo(name);
  benchmark::DoNotOptimize(bench::figure8(p).node_map.data());  // untimed warm-up
  for (auto _ : state) {
    auto r = bench::figure8(p);
    benchmark::DoNotOptimize(r.node_map.data());
  }
  bench::set_items(state, p.size());
}

// The paper's implementation: Figure 8 over objects keyed by method-name strings (input
// converted once, untimed). Algorithm and containers together, as the 2010 tool ran.
void figure8_objects(benchmark::State& state, std::string_view name) {
  const ccrc::profile& p = bench::dacapo(name);
  static std::map<std::string, std::unique_ptr<bench::object_node>, std::less<>> inputs;
  auto it = inputs.find(name);
  if (it == inputs.end()) it = inputs.emplace(std::string(name), bench::objects_of(p)).first;
  benchmark::DoNotOptimize(bench::figure8_on_objects(*it->second).get());  // untimed warm-up
  for (auto _ : state) {
    auto r = bench::figure8_on_objects(*it->second);
    benchmark::DoNotOptimize(r.get());
  }
  bench::set_items(state, p.size());
}

// -- reading and writing: folded stacks against the native formats

template <class Write>
void write(benchmark::State& state, std::string_view name, Write w) {
  const ccrc::profile& p = bench::dacapo(name);
  std::size_t bytes = 0;
  for (auto _ : state) {
    bench::counting_buffer sink;
    std::ostream out(&sink);
    w(out, p);
    bytes = sink.bytes;
  }
  bench::set_bytes(state, bytes);
  state.counters["MB"] = static_cast<double>(bytes) / 1e6;
}

template <class Write, class Read>
void read(benchmark::State& state, std::string_view name, Write w, Read r) {
  std::ostringstream out;
  w(out, bench::dacapo(name));
  std::string bytes = std::move(out).str();
  benchmark::DoNotOptimize(r(bytes).size());  // untimed warm-up
  for (auto _ : state) {
    ccrc::profile p = r(bytes);
    benchmark::DoNotOptimize(p.size());
  }
  bench::set_bytes(state, bytes.size());
  state.counters["MB"] = static_cast<double>(bytes.size()) / 1e6;
}

// Folded text of the largest profiles (2.6-4.2 GB: every line repeats its whole path) is not
// held in memory to be read back.
bool folded_fits(benchmark::State& state, std::string_view name) {
  const ccrc::call_tree& t = bench::dacapo(name).tree();
  std::vector<std::size_t> length(t.size());
  std::size_t total = 0;
  for (ccrc::node_id n = 1; n < t.size(); ++n) total += length[n] = length[t.parent(n)] + t.name(n).size() + 1;
  if (total < (std::size_t{3} << 29)) return true;
  state.SkipWithError(("folded text of " + std::to_string(total >> 20) + " MiB: not read back from memory").c_str());
  return false;
}

const auto folded_writer = [](std::ostream& out, const ccrc::profile& p) { ccrc::write_folded(out, p); };
const auto cct_writer = [](std::ostream& out, const ccrc::profile& p) { ccrc::write_cct(out, p); };
const auto cctb_writer = [](std::ostream& out, const ccrc::profile& p) { ccrc::write_cctb(out, p); };

void folded_write(benchmark::State& state, std::string_view name) { write(state, name, folded_writer); }
void cct_write(benchmark::State& state, std::string_view name) { write(state, name, cct_writer); }
void cctb_write(benchmark::State& state, std::string_view name) { write(state, name, cctb_writer); }

void folded_read(benchmark::State& state, std::string_view name) {
  if (folded_fits(state, name))
    read(state, name, folded_writer, [](std::string_view b) { return ccrc::read_folded(b); });
}
void cct_read(benchmark::State& state, std::string_view name) {
  read(state, name, cct_writer, [](std::string_view b) { return ccrc::read_cct(b); });
}
void cctb_read(benchmark::State& state, std::string_view name) {
  read(state, name, cctb_writer, [](std::string_view b) { return ccrc::read_cctb(b); });
}

// The floor of reading: copying the .cctb bytes.
void cctb_copy(benchmark::State& state, std::string_view name) {
  std::ostringstream out;
  ccrc::write_cctb(out, bench::dacapo(name));
  std::string bytes = std::move(out).str(), copy(bytes.size(), '\0');
  for (auto _ : state) {
    std::memcpy(copy.data(), bytes.data(), bytes.size());
    benchmark::DoNotOptimize(copy.data());
  }
  bench::set_bytes(state, bytes.size());
}

[[maybe_unused]] const bool registered = [] {
  bench::register_dacapo("build_cursor", build_cursor);
  bench::register_dacapo("build_cursor_naive", build_cursor_naive);
  bench::register_dacapo("build_add_path", build_add_path);
  bench::register_dacapo("build_add_path_naive", build_add_path_naive);
  bench::register_dacapo("inclusive", inclusive);
  bench::register_dacapo("inclusive_naive", inclusive_naive);
  bench::register_dacapo("flat", flat);
  bench::register_dacapo("flat_naive", flat_naive);
  bench::register_dacapo("eliminate_recursion", eliminate_recursion);
  bench::register_dacapo("figure8", figure8);
  bench::register_dacapo("figure8_objects", figure8_objects);
  bench::register_dacapo("folded_write", folded_write);
  bench::register_dacapo("cct_write", cct_write);
  bench::register_dacapo("cctb_write", cctb_write);
  bench::register_dacapo("folded_read", folded_read);
  bench::register_dacapo("cct_read", cct_read);
  bench::register_dacapo("cctb_read", cctb_read);
  bench::register_dacapo("cctb_copy", cctb_copy);
  bench::ratio("build_cursor", "build_cursor_naive");
  bench::ratio("build_add_path", "build_add_path_naive");
  bench::ratio("inclusive", "inclusive_naive");
  bench::ratio("flat", "flat_naive");
  bench::ratio("eliminate_recursion", "figure8");
  bench::ratio("eliminate_recursion", "figure8_objects");
  bench::ratio("cct_write", "folded_write");
  bench::ratio("cctb_write", "folded_write");
  bench::ratio("cct_read", "folded_read");
  bench::ratio("cctb_read", "folded_read");
  bench::ratio("cctb_read", "cctb_copy");
  return true;
}();

}  // namespace

CCRC_DACAPO_BENCHMARK_MAIN()
