// Folded stacks: reading (sorted as written, and shuffled so that lines share no prefix with
// the line before) and writing, in bytes per second; reading a file the two ways a reader can
// survive its being cut short while it is read: read() into a buffer (what read_folded_file
// does, detail::file_source) and a memory map parsed in place under a SIGBUS handler with
// sigsetjmp around the scan (the design it did not take, timed here as it would run).
// CCRC_BENCH_FOLDED=FILE adds both on that file (read_path_guarded_map, read_path_read).
#include "support/ccrc_trees.hpp"
#include "support/main.hpp"

#include <ccrc/io/folded.hpp>

#include <benchmark/benchmark.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <setjmp.h>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
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

// The mapped design: the file mapped and parsed where it lies, a SIGBUS handler installed for
// the scan and a sigsetjmp to come back to if the file is cut short. The library does not
// take it: the jump would leave the parser's frames without running their destructors (what
// they own leaks, and C++ does not define it), and a handler is the whole process's, not a
// header-only library's to install in someone else's program. Timed here for its cost: the
// same parse, with two sigactions and a sigsetjmp a file instead of the kernel's copy.
sigjmp_buf cut_short;
void on_sigbus(int) { siglongjmp(cut_short, 1); }

ccrc::profile read_guarded_map(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  const auto size = static_cast<std::size_t>(std::filesystem::file_size(path));
  void* map = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  ::close(fd);
  if (map == MAP_FAILED) throw std::runtime_error("mmap failed");
  (void)::posix_madvise(map, size, POSIX_MADV_SEQUENTIAL);
  struct sigaction guard {}, before {};
  guard.sa_handler = on_sigbus;
  sigemptyset(&guard.sa_mask);
  sigaction(SIGBUS, &guard, &before);
  std::optional<ccrc::profile> p;
  if (sigsetjmp(cut_short, 1) == 0)
    p = ccrc::detail::read_folded_from(ccrc::detail::memory_source{{static_cast<const char*>(map), size}}, {});
  sigaction(SIGBUS, &before, nullptr);
  ::munmap(map, size);
  if (!p) throw std::runtime_error("cut short while read");
  return std::move(*p);
}

// A file read by each design. The file stays in the page cache between iterations: what is
// timed is the reader, not the disk.
void read_file(benchmark::State& state, const std::filesystem::path& path, bool mapped) {
  const auto bytes = static_cast<std::size_t>(std::filesystem::file_size(path));
  for (auto _ : state) {
    ccrc::profile p = mapped ? read_guarded_map(path) : ccrc::read_folded_file(path);
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

void read_file_guarded_map(benchmark::State& state) { read_file(state, file_of(bench::size_of(state)), true); }
void read_file_read(benchmark::State& state) { read_file(state, file_of(bench::size_of(state)), false); }

// The file named by CCRC_BENCH_FOLDED, if any.
const bool registered_path = [] {
  const char* path = std::getenv("CCRC_BENCH_FOLDED");
  if (!path || !*path) return false;
  for (bool mapped : {true, false})
    benchmark::RegisterBenchmark(mapped ? "read_path_guarded_map" : "read_path_read",
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
BENCHMARK(read_file_guarded_map)->RangeMultiplier(10)->Range(100, 1'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(read_file_read)->RangeMultiplier(10)->Range(100, 1'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(write)->RangeMultiplier(10)->Range(10'000, 1'000'000)->Unit(benchmark::kMillisecond);

CCRC_BENCHMARK_MAIN()
