// Folded stacks: reading (sorted as written, and shuffled so that lines share no prefix with
// the line before) and writing, in bytes per second; reading a file, memory-mapped (what
// read_folded_file does) against the buffered read() of a stream. CCRC_BENCH_FOLDED=FILE adds
// the two file readers on that file (read_path_mapped, read_path_stream).
#include "support/ccrc_trees.hpp"
#include "support/main.hpp"

#include <ccrc/io/folded.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
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

// A file read by the two paths of read_folded_file: mapped (a regular file of 1 MiB or more)
// and the buffered stream (smaller files and pipes; every file before the mapping). The file
// stays in the page cache between iterations: what is timed is the reader, not the disk.
void read_file(benchmark::State& state, const std::filesystem::path& path, bool mapped) {
  const auto bytes = static_cast<std::size_t>(std::filesystem::file_size(path));
  for (auto _ : state) {
    ccrc::profile p = [&] {
      if (ccrc::detail::mapped_file map(path, 0); mapped && map) return ccrc::detail::read_folded_from(ccrc::detail::memory_source{map.bytes(), &map}, {});
      auto file = ccrc::detail::open_for_reading(path);
      return ccrc::detail::read_folded_from(ccrc::detail::file_source{file.get()}, {});
    }();
    benchmark::DoNotOptimize(p.size());
    state.counters["nodes"] = static_cast<double>(p.size());
  }
  bench::set_bytes(state, bytes);
  state.counters["MB"] = static_cast<double>(bytes) / 1e6;
}

// The sorted text of N nodes, written once to a temporary file, removed at exit.
const std::filesystem::path& file_of(std::size_t nodes) {
  static struct files : std::map<std::size_t, std::filesystem::path> {
    ~files() {
      std::error_code ec;
      for (auto& [n, path] : *this) std::filesystem::remove(path, ec);
    }
  } cache;
  auto it = cache.find(nodes);
  if (it != cache.end()) return it->second;
  std::filesystem::path path = std::filesystem::temp_directory_path() /
                               ("ccrc_bench_folded_" + std::to_string(nodes) + ".folded");
  std::ofstream(path, std::ios::binary) << text_of(nodes).sorted;
  return cache.emplace(nodes, std::move(path)).first->second;
}

void read_file_mapped(benchmark::State& state) { read_file(state, file_of(bench::size_of(state)), true); }
void read_file_stream(benchmark::State& state) { read_file(state, file_of(bench::size_of(state)), false); }

// The file named by CCRC_BENCH_FOLDED, if any.
const bool registered_path = [] {
  const char* path = std::getenv("CCRC_BENCH_FOLDED");
  if (!path || !*path) return false;
  for (bool mapped : {true, false})
    benchmark::RegisterBenchmark(mapped ? "read_path_mapped" : "read_path_stream",
                                 [p = std::filesystem::path(path), mapped](benchmark::State& state) {
                                   read_file(state, p, mapped);
                                 })
        ->Unit(benchmark::kMillisecond);
  return true;
}();

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
BENCHMARK(read_file_mapped)->RangeMultiplier(10)->Range(100, 1'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(read_file_stream)->RangeMultiplier(10)->Range(100, 1'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(write)->RangeMultiplier(10)->Range(10'000, 1'000'000)->Unit(benchmark::kMillisecond);

CCRC_BENCHMARK_MAIN()
