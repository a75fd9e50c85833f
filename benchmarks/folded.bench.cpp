// Folded stacks: reading (sorted as written, and shuffled so that lines share no prefix with
// the line before) and writing, in bytes per second.
#include "support/ccrc_trees.hpp"
#include "support/main.hpp"

#include <ccrc/io/folded.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <sstream>
#include <streambuf>
#include <string>

namespace {

struct texts {
  std::string sorted, shuffled;
};

const texts& text_of(std::size_t nodes) {
  static std::map<std::size_t, texts> cache;
  auto it = cache.find(nodes);
  if (it != cache.end()) return it->second;
  std::ostringstream out;
  ccrc::write_folded(out, bench::tree_of(nodes));
  texts t{out.str(), {}};
  // Shuffle whole lines, keeping the header first.
  std::vector<std::string_view> lines;
  std::string_view rest = t.sorted;
  while (!rest.empty()) {
    std::size_t nl = rest.find('\n');
    lines.push_back(rest.substr(0, nl + 1));
    rest.remove_prefix(nl + 1);
  }
  bench::rng r{7};
  for (std::size_t i = lines.size() - 1; i > 1; --i) std::swap(lines[i], lines[1 + r.next() % i]);
  for (auto l : lines) t.shuffled += l;
  return cache.emplace(nodes, std::move(t)).first->second;
}

void read(benchmark::State& state, const std::string& text) {
  for (auto _ : state) {
    ccrc::profile p = ccrc::read_folded(text);
    benchmark::DoNotOptimize(p.size());
  }
  bench::set_bytes(state, text.size());
  state.counters["MB"] = static_cast<double>(text.size()) / 1e6;
}

void read_sorted(benchmark::State& state) { read(state, text_of(bench::size_of(state)).sorted); }
void read_shuffled(benchmark::State& state) { read(state, text_of(bench::size_of(state)).shuffled); }

void write(benchmark::State& state) {
  const bench::cct& tree = bench::tree_of(bench::size_of(state));
  std::size_t bytes = 0;
  for (auto _ : state) {
    bench::counting_buffer sink;
    std::ostream out(&sink);
    ccrc::write_folded(out, tree);
    bytes = sink.bytes;
    benchmark::DoNotOptimize(bytes);
  }
  bench::set_bytes(state, bytes);
}

}  // namespace

BENCHMARK(read_sorted)->RangeMultiplier(10)->Range(10'000, 1'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(read_shuffled)->RangeMultiplier(10)->Range(10'000, 1'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(write)->RangeMultiplier(10)->Range(10'000, 1'000'000)->Unit(benchmark::kMillisecond);

CCRC_BENCHMARK_MAIN()
