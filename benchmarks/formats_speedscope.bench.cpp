// speedscope JSON: read_speedscope on a 10^6-context generated tree written by
// write_speedscope (evented) and on the same contexts as a sampled profile (one sample per
// context, its whole path, written here), beside a baseline that walks the same document with
// simdjson On-Demand and touches every number (the floor for any On-Demand reader); and
// write_speedscope itself. MB/s of the document; bytes of the finished tree per context, and
// the reader's peak heap above the document (support/usable_heap.hpp), per context.
// With CCRC_BENCH_SAVE=DIR, the two documents are saved there too
// ({evented,sampled}-N.speedscope.json), to time speedscope's own importer on them.
#include "support/ccrc_trees.hpp"
#include "support/main.hpp"
#include "support/save.hpp"
#include "support/usable_heap.hpp"

#include <ccrc/formats/speedscope.hpp>

#include <benchmark/benchmark.h>

#include <map>
#include <sstream>
#include <string>

namespace {

// The generated tree with its `calls` metric only (one evented profile).
struct calls_only {
  const bench::cct* t;
  [[nodiscard]] const ccrc::call_tree& tree() const noexcept { return t->tree(); }
  template <class F>
  void for_each_column(F&& f) const {
    f(std::string_view("calls"), t->column<"calls">());
  }
};

struct documents {
  simdjson::padded_string evented, sampled;
};

// The sampled form: frames numbered as write_speedscope does, one sample per context with a
// non-zero value, its stack root first, weighing that value.
std::string sampled_of(const bench::cct& t) {
  const ccrc::call_tree& tree = t.tree();
  auto calls = t.column<"calls">();
  std::vector<std::uint32_t> index(tree.symbols().frame_count(), ~0u);
  std::string out = R"({"$schema":"https://www.speedscope.app/file-format-schema.json","shared":{"frames":[)";
  std::uint32_t frames = 0;
  for (ccrc::node_id n = 1; n < tree.size(); ++n) {
    if (index[tree.frame(n)] != ~0u) continue;
    out += frames ? "," : "";
    index[tree.frame(n)] = frames++;
    out += R"({"name":)";
    ccrc::append_json_string(out, tree.name(n));
    out += '}';
  }
  out += R"(]},"profiles":[{"type":"sampled","name":"calls","unit":"none","startValue":0,"endValue":0,"samples":[)";
  std::string weights;
  std::vector<ccrc::node_id> stack;
  bool first = true;
  for (ccrc::node_id n = 1; n < tree.size(); ++n) {
    if (calls[n] == 0) continue;
    stack.clear();
    for (ccrc::node_id m = n; m != ccrc::root_node; m = tree.parent(m)) stack.push_back(m);
    out += first ? "[" : ",[";
    weights += first ? "" : ",";
    first = false;
    for (std::size_t i = stack.size(); i-- > 0;) {
      ccrc::detail::append_number(out, index[tree.frame(stack[i])]);
      if (i) out += ',';
    }
    out += ']';
    ccrc::detail::append_number(weights, calls[n]);
  }
  out += R"(],"weights":[)" + weights + "]}]}\n";
  return out;
}

const documents& documents_of(std::size_t nodes) {
  static std::map<std::size_t, documents> cache;
  auto it = cache.find(nodes);
  if (it != cache.end()) return it->second;
  const bench::cct& t = bench::tree_of(nodes);
  std::ostringstream out;
  ccrc::write_speedscope(out, calls_only{&t});
  std::string evented = out.str(), sampled = sampled_of(t);
  bench::save_if_asked("evented-" + std::to_string(nodes) + ".speedscope.json", evented);
  bench::save_if_asked("sampled-" + std::to_string(nodes) + ".speedscope.json", sampled);
  return cache.emplace(nodes, documents{simdjson::padded_string(evented), simdjson::padded_string(sampled)})
      .first->second;
}

void read(benchmark::State& state, const simdjson::padded_string& doc) {
  bench::time_read(state, [&] { return ccrc::read_speedscope(std::string_view(doc)); }, 0);
  bench::set_bytes(state, doc.size());
  state.counters["MB"] = static_cast<double>(doc.size()) / 1e6;
}

// simdjson On-Demand over the same document: every frame name, every event's members (or
// every sample's indices and every weight), summed so nothing is optimised away.
void walk(benchmark::State& state, const simdjson::padded_string& doc) {
  simdjson::ondemand::parser parser;
  for (auto _ : state) {
    double sum = 0;
    std::size_t names = 0;
    auto d = parser.iterate(doc).value();
    for (auto field : d.get_object()) {
      std::string_view key = field.unescaped_key().value();
      if (key == "shared") {
        for (auto f : field.value()["frames"].get_array()) names += f["name"].get_string().value().size();
      } else if (key == "profiles") {
        for (auto p : field.value().get_array()) {
          for (auto member : p.get_object()) {
            std::string_view k = member.unescaped_key().value();
            if (k == "events") {
              for (auto e : member.value().get_array())
                for (auto m : e.get_object()) {
                  std::string_view mk = m.unescaped_key().value();
                  if (mk == "type") names += m.value().get_string().value().size();
                  else sum += m.value().get_double().value();
                }
            } else if (k == "samples") {
              for (auto s : member.value().get_array())
                for (auto i : s.get_array()) sum += static_cast<double>(i.get_uint64().value());
            } else if (k == "weights") {
              for (auto w : member.value().get_array()) sum += w.get_double().value();
            }
          }
        }
      }
    }
    benchmark::DoNotOptimize(sum);
    benchmark::DoNotOptimize(names);
  }
  bench::set_bytes(state, doc.size());
}

void read_evented(benchmark::State& state) { read(state, documents_of(bench::size_of(state)).evented); }
void simdjson_walk_evented(benchmark::State& state) { walk(state, documents_of(bench::size_of(state)).evented); }
void read_sampled(benchmark::State& state) { read(state, documents_of(bench::size_of(state)).sampled); }
void simdjson_walk_sampled(benchmark::State& state) { walk(state, documents_of(bench::size_of(state)).sampled); }

void write(benchmark::State& state) {
  const bench::cct& t = bench::tree_of(bench::size_of(state));
  std::size_t bytes = 0;
  for (auto _ : state) {
    bench::counting_buffer sink;
    std::ostream out(&sink);
    ccrc::write_speedscope(out, calls_only{&t});
    bytes = sink.bytes;
    benchmark::DoNotOptimize(bytes);
  }
  bench::set_bytes(state, bytes);
}

}  // namespace

BENCHMARK(read_evented)->Arg(1'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(simdjson_walk_evented)->Arg(1'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(read_sampled)->Arg(1'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(simdjson_walk_sampled)->Arg(1'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(write)->Arg(1'000'000)->Unit(benchmark::kMillisecond);

CCRC_BENCHMARK_MAIN()
