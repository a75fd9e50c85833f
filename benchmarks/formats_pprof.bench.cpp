// pprof (profile.proto): read_pprof on a generated tree of about 10^6 contexts that write_pprof
// wrote (one sample per context, depth-first, as written, and with the samples shuffled, as
// a profiler's hash order leaves them; uncompressed and gzip-compressed), beside a baseline
// that walks the same bytes with protozero, decoding every field of every message (packed
// ids and values included) without building anything; and write_pprof itself. Bytes per
// second are of the uncompressed message; bytes_per_context is the profile read, by its own
// account (ccrc::profile::memory_bytes over its contexts). With CCRC_BENCH_SAVE=DIR, the
// messages are saved there too (pmd-N.pb, pmd-N.pb.gz), to time other importers on them.
#include "support/ccrc_trees.hpp"
#include "support/dacapo.hpp"
#include "support/main.hpp"
#include "support/save.hpp"

#include <ccrc/formats/pprof.hpp>

#include <benchmark/benchmark.h>

#include <protozero/pbf_reader.hpp>
#include <protozero/pbf_writer.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct messages {
  std::string sorted, shuffled, gzipped;
  std::size_t contexts = 0;
};

const messages& messages_of(std::size_t nodes) {
  static std::map<std::size_t, messages> cache;
  auto it = cache.find(nodes);
  if (it != cache.end()) return it->second;
  const ccrc::profile& p = bench::pmd_like(nodes);
  messages m;
  m.contexts = p.size() - 1;
  std::ostringstream plain, packed;
  ccrc::write_pprof(plain, p, {.gzip = false, .round_values = true});
  ccrc::write_pprof(packed, p, {.gzip = true, .round_values = true});
  m.sorted = plain.str();
  m.gzipped = packed.str();
  bench::save_if_asked("pmd-" + std::to_string(nodes) + ".pb", m.sorted);
  bench::save_if_asked("pmd-" + std::to_string(nodes) + ".pb.gz", m.gzipped);
  // The same message with its samples in a random order (the other fields after them).
  std::vector<protozero::data_view> samples;
  std::string others;
  protozero::pbf_reader r(m.sorted);
  protozero::pbf_writer rest(others);
  while (r.next()) {
    protozero::pbf_tag_type tag = r.tag();
    if (tag == 2) samples.push_back(r.get_view());
    else rest.add_bytes(tag, r.get_view());  // write_pprof's other top-level fields are messages and strings
  }
  bench::rng g{7};
  for (std::size_t i = samples.size(); i > 1; --i) std::swap(samples[i - 1], samples[g.next() % i]);
  protozero::pbf_writer w(m.shuffled);
  for (auto s : samples) w.add_message(2, s);
  m.shuffled += others;
  return cache.emplace(nodes, std::move(m)).first->second;
}

void report(benchmark::State& state, const messages& m, std::size_t bytes, const ccrc::profile* p) {
  bench::set_bytes(state, bytes);
  state.counters["MB"] = static_cast<double>(bytes) / 1e6;
  state.counters["contexts"] = static_cast<double>(m.contexts);
  if (p) state.counters["bytes_per_context"] = static_cast<double>(p->memory_bytes()) / static_cast<double>(p->size());
}

void read(benchmark::State& state, const std::string& bytes, const messages& m) {
  ccrc::profile p = ccrc::read_pprof(bytes);  // warm-up (and the memory figure)
  for (auto _ : state) {
    ccrc::profile q = ccrc::read_pprof(bytes);
    benchmark::DoNotOptimize(q.size());
  }
  report(state, m, m.sorted.size(), &p);
}

void read_sorted(benchmark::State& state) {
  const messages& m = messages_of(bench::size_of(state));
  read(state, m.sorted, m);
}
void read_shuffled(benchmark::State& state) {
  const messages& m = messages_of(bench::size_of(state));
  read(state, m.shuffled, m);
}
void read_gzip(benchmark::State& state) {
  const messages& m = messages_of(bench::size_of(state));
  read(state, m.gzipped, m);
  state.counters["compressed_MB"] = static_cast<double>(m.gzipped.size()) / 1e6;
}

// Every field of every message decoded, nothing built: the floor for reading these bytes.
std::uint64_t walk(protozero::pbf_reader m, int depth) {
  std::uint64_t sum = 0;
  while (m.next()) {
    switch (m.wire_type()) {
      case protozero::pbf_wire_type::varint: sum += m.get_uint64(); break;
      case protozero::pbf_wire_type::length_delimited:
        if (depth == 0 && m.tag() == 6) {
          sum += m.get_view().size();  // a string
        } else if (depth == 1 && (m.tag() == 1 || m.tag() == 2) && m.wire_type() == protozero::pbf_wire_type::length_delimited) {
          for (std::uint64_t v : m.get_packed_uint64()) sum += v;  // Sample's packed ids, values
        } else {
          sum += walk(m.get_message(), depth + 1);
        }
        break;
      default: m.skip();
    }
  }
  return sum;
}

void baseline_protozero(benchmark::State& state) {
  const messages& m = messages_of(bench::size_of(state));
  for (auto _ : state) benchmark::DoNotOptimize(walk(protozero::pbf_reader(m.sorted), 0));
  report(state, m, m.sorted.size(), nullptr);
}

void write(benchmark::State& state) {
  const ccrc::profile& p = bench::pmd_like(bench::size_of(state));
  const messages& m = messages_of(bench::size_of(state));
  for (auto _ : state) {
    bench::counting_buffer sink;
    std::ostream out(&sink);
    ccrc::write_pprof(out, p, {.gzip = false, .round_values = true});
    benchmark::DoNotOptimize(sink.bytes);
  }
  report(state, m, m.sorted.size(), nullptr);
}

}  // namespace

BENCHMARK(baseline_protozero)->Arg(1'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(read_sorted)->Arg(1'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(read_shuffled)->Arg(1'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(read_gzip)->Arg(1'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(write)->Arg(1'000'000)->Unit(benchmark::kMillisecond);

CCRC_BENCHMARK_MAIN()
