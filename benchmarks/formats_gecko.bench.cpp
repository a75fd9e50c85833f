// Gecko profile reading, in bytes per second, beside simdjson On-Demand walking the same
// document (every row of the thread's four tables, its cells counted or summed): the cost of
// the JSON itself. The documents are written here from the benchmarks' generated trees
// (bench::tree_of: DaCapo-like names and shapes) as Firefox writes a thread: one stack per
// context (prefix = the parent's stack), one frame and one string per method (a JavaScript
// location `name (url:line:col)[source]`, frame rows with Firefox's eight columns), then one
// sample per context (`[stack, time, eventDelay]`), so every context is a sampled stack.
// Memory: the finished profile's bytes per context, and the reader's peak heap above the text
// (counted by support/usable_heap.hpp), of which simdjson's parser (the baseline's
// parser_bytes_per_context) takes most. With CCRC_BENCH_SAVE=DIR, the documents are saved
// there too (tree-N.gecko.json), to time other importers on them.
#include "support/ccrc_trees.hpp"
#include "support/main.hpp"
#include "support/save.hpp"
#include "support/usable_heap.hpp"

#include <ccrc/formats/gecko.hpp>

#include <benchmark/benchmark.h>

#include <map>
#include <string>
#include <vector>

namespace {

// The Gecko profile of the generated tree of `nodes` contexts, built once per process.
const ccrc::formats::json_text& profile_of(std::size_t nodes) {
  static std::map<std::size_t, ccrc::formats::json_text> cache;
  auto it = cache.find(nodes);
  if (it != cache.end()) return it->second;
  const bench::cct& tree = bench::tree_of(nodes);
  const ccrc::call_tree& t = tree.tree();
  // One frame (and string) per method, in order of first use.
  std::vector<std::uint32_t> frame_of_method;
  std::vector<ccrc::method_id> methods;
  std::string json = R"J({"meta":{"version":34,"interval":1,"startTime":1795471096326.7576,"product":"Firefox"},"libs":[],"threads":[{"name":"GeckoMain","processType":"default","processName":"Parent Process","pid":4545,"tid":4545,)J";
  json += R"J("samples":{"schema":{"stack":0,"time":1,"eventDelay":2},"data":[)J";
  for (ccrc::node_id n = 1; n < t.size(); ++n)
    json += (n > 1 ? ",\n[" : "\n[") + std::to_string(n - 1) + "," + std::to_string(1000 + n) + ".25,0]";
  json += R"J(]},"stackTable":{"schema":{"prefix":0,"frame":1},"data":[)J";
  for (ccrc::node_id n = 1; n < t.size(); ++n) {
    ccrc::method_id method = t.symbols().method(t.frame(n));
    std::uint32_t m = method;
    if (m >= frame_of_method.size()) frame_of_method.resize(m + 1, ~std::uint32_t{0});
    if (frame_of_method[m] == ~std::uint32_t{0}) {
      frame_of_method[m] = static_cast<std::uint32_t>(methods.size());
      methods.push_back(method);
    }
    ccrc::node_id parent = t.parent(n);
    json += n > 1 ? ",\n[" : "\n[";
    json += parent == ccrc::root_node ? std::string("null") : std::to_string(parent - 1);
    json += "," + std::to_string(frame_of_method[m]) + "]";
  }
  json += R"J(]},"frameTable":{"schema":{"location":0,"relevantForJS":1,"innerWindowID":2,"implementation":3,"line":4,"column":5,"category":6,"subcategory":7},"data":[)J";
  for (std::size_t f = 0; f < methods.size(); ++f) {
    std::uint32_t m = methods[f];
    json += (f ? ",\n[" : "\n[") + std::to_string(f) + ",false,0,null," + std::to_string(m % 2000 + 3) + "," +
            std::to_string(m % 80) + ",4,4]";
  }
  json += R"J(]},"stringTable":[)J";
  for (std::size_t f = 0; f < methods.size(); ++f) {
    std::uint32_t m = methods[f];
    json += f ? ",\n\"" : "\n\"";
    json += t.symbols().method_name(methods[f]);
    json += " (file:///srv/app/lib/module" + std::to_string(m % 97) + ".js:" + std::to_string(m % 2000 + 1) + ":" +
            std::to_string(m % 80) + ")[" + std::to_string(m % 97) + "]\"";
  }
  json += "]}],\"processes\":[],\"pausedRanges\":[]}";
  bench::save_if_asked("tree-" + std::to_string(nodes) + ".gecko.json", json);
  return cache.emplace(nodes, ccrc::formats::json_text(json)).first->second;
}

void read(benchmark::State& state) {
  const auto& text = profile_of(bench::size_of(state));
  bench::time_read(state, [&] { return ccrc::read_gecko_profile(text); }, 0);
  bench::set_bytes(state, text.bytes().size());
  state.counters["MB"] = static_cast<double>(text.bytes().size()) / 1e6;
}

// The baseline: simdjson On-Demand over the same bytes, the thread's tables walked row by row,
// every cell visited (numbers summed, others counted), every string read.
void simdjson_walk(benchmark::State& state) {
  const auto& text = profile_of(bench::size_of(state));
  simdjson::ondemand::parser parser;
  bench::heap_mark mark;
  if (parser.allocate(text.bytes().size()) != simdjson::SUCCESS) state.SkipWithError("simdjson cannot allocate");
  std::size_t parser_bytes = mark.peak();
  std::size_t count = 0, rows = 0;
  for (auto _ : state) {
    count = 0;
    rows = 0;
    double sum = 0;
    auto doc = parser.iterate(text.view()).value();
    for (auto field : doc.get_object()) {
      if (field.unescaped_key().value() != "threads") continue;
      for (auto thread : field.value().get_array()) {
        for (auto f : thread.get_object()) {
          std::string_view k = f.unescaped_key().value();
          if (k == "stringTable") {
            for (auto s : f.value().get_array()) count += s.get_string().value().size();
          } else if (k == "samples" || k == "stackTable" || k == "frameTable") {
            for (auto g : f.value().get_object()) {
              if (g.unescaped_key().value() != "data") continue;
              for (auto row : g.value().get_array()) {
                ++rows;
                for (auto cell : row.get_array()) {
                  double x;
                  if (cell.get_double().get(x) == simdjson::SUCCESS) sum += x;
                  else ++count;
                }
              }
            }
          }
        }
      }
    }
    benchmark::DoNotOptimize(count);
    benchmark::DoNotOptimize(sum);
  }
  bench::set_bytes(state, text.bytes().size());
  // What simdjson's parser holds for a document this size (its index and string buffer).
  state.counters["parser_bytes_per_context"] = static_cast<double>(parser_bytes) / static_cast<double>(bench::size_of(state));
  state.counters["rows"] = static_cast<double>(rows);
}

}  // namespace

BENCHMARK(read)->RangeMultiplier(10)->Range(10'000, 1'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(simdjson_walk)->RangeMultiplier(10)->Range(10'000, 1'000'000)->Unit(benchmark::kMillisecond);

CCRC_BENCHMARK_MAIN()
