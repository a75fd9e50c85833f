// V8 .cpuprofile reading, in bytes per second, beside simdjson On-Demand walking the same
// document (every node object and its fields, counted): the cost of the JSON itself. The
// documents are written here from the benchmarks' generated trees (bench::tree_of: DaCapo-like
// names and shapes), one node per context in depth-first preorder, each with a callFrame
// (function name, url, line, column), its hitCount and children, then one sample per context
// with its time delta, as `node --cpu-prof` writes them. Memory: the finished profile's bytes
// per context, and the reader's peak heap above the text (counted by
// support/usable_heap.hpp). With CCRC_BENCH_SAVE=DIR, the documents are saved there too
// (tree-N.cpuprofile), to time other importers on them.
#include "support/ccrc_trees.hpp"
#include "support/main.hpp"
#include "support/save.hpp"
#include "support/usable_heap.hpp"

#include <ccrc/formats/v8_profile.hpp>
#include <ccrc/tree/view.hpp>

#include <benchmark/benchmark.h>

#include <map>
#include <string>
#include <vector>

namespace {

// The .cpuprofile of the generated tree of `nodes` contexts, built once per process.
const ccrc::formats::json_text& profile_of(std::size_t nodes) {
  static std::map<std::size_t, ccrc::formats::json_text> cache;
  auto it = cache.find(nodes);
  if (it != cache.end()) return it->second;
  const bench::cct& tree = bench::tree_of(nodes);
  const ccrc::call_tree& t = tree.tree();
  std::string json = R"J({"nodes":[)J";
  // In depth-first preorder, as V8 writes its nodes.
  std::vector<ccrc::node_id> order;
  order.reserve(t.size());
  ccrc::preorder(ccrc::tree_view(t), [&](ccrc::node_id n, std::uint32_t) { order.push_back(n); });
  for (ccrc::node_id n : order) {
    std::uint32_t m = t.symbols().method(t.frame(n));
    json += n ? ",\n" : "\n";
    json += R"J({"id":)J" + std::to_string(n + 1) + R"J(,"callFrame":{"functionName":")J";
    json += n ? t.name(n) : std::string_view("(root)");
    json += R"J(","scriptId":")J" + std::to_string(m % 97) + R"J(","url":")J";
    if (n) json += "file:///srv/app/lib/module" + std::to_string(m % 97) + ".js";
    json += R"J(","lineNumber":)J" + (n ? std::to_string(m % 2000) : std::string("-1")) + R"J(,"columnNumber":)J" +
            (n ? std::to_string(m % 80) : std::string("-1")) + R"J(},"hitCount":1)J";
    bool first = true;
    for (ccrc::node_id c : t.children(n)) {
      json += first ? R"J(,"children":[)J" : ",";
      json += std::to_string(c + 1);
      first = false;
    }
    json += first ? "}" : "]}";
  }
  json += R"J(],"startTime":1000000,"endTime":)J" + std::to_string(1000000 + 250 * (t.size() + 1)) + R"J(,"samples":[)J";
  for (ccrc::node_id n = 0; n < t.size(); ++n) json += (n ? "," : "") + std::to_string(n + 1);
  json += R"J(],"timeDeltas":[)J";
  for (ccrc::node_id n = 0; n < t.size(); ++n) json += (n ? "," : "") + std::to_string(200 + n % 100);
  json += "]}";
  bench::save_if_asked("tree-" + std::to_string(nodes) + ".cpuprofile", json);
  return cache.emplace(nodes, ccrc::formats::json_text(json)).first->second;
}

void read(benchmark::State& state) {
  const auto& text = profile_of(bench::size_of(state));
  bench::time_read(state, [&] { return ccrc::read_v8_profile(text); }, 0);
  bench::set_bytes(state, text.bytes().size());
  state.counters["MB"] = static_cast<double>(text.bytes().size()) / 1e6;
}

// The baseline: simdjson On-Demand over the same bytes, every node's fields visited (the
// callFrame's too) and counted, the samples and time deltas summed.
void simdjson_walk(benchmark::State& state) {
  const auto& text = profile_of(bench::size_of(state));
  simdjson::ondemand::parser parser;
  bench::heap_mark mark;
  if (parser.allocate(text.bytes().size()) != simdjson::SUCCESS) state.SkipWithError("simdjson cannot allocate");
  std::size_t parser_bytes = mark.peak();
  std::size_t count = 0, nodes = 0;
  for (auto _ : state) {
    count = 0;
    nodes = 0;
    double sum = 0;
    auto doc = parser.iterate(text.view()).value();
    for (auto field : doc.get_object()) {
      std::string_view key = field.unescaped_key().value();
      if (key == "nodes") {
        for (auto node : field.value().get_array()) {
          ++count;
          ++nodes;
          for (auto f : node.get_object()) {
            std::string_view k = f.unescaped_key().value();
            if (k == "callFrame")
              for (auto g : f.value().get_object()) count += g.unescaped_key().value().size() != 0;
            else if (k == "children")
              for (auto c : f.value().get_array()) sum += static_cast<double>(c.get_int64().value());
          }
        }
      } else if (key == "samples" || key == "timeDeltas") {
        for (auto v : field.value().get_array()) sum += v.get_double().value();
      }
    }
    benchmark::DoNotOptimize(count);
    benchmark::DoNotOptimize(sum);
  }
  bench::set_bytes(state, text.bytes().size());
  // What simdjson's parser holds for a document this size (its index and string buffer).
  state.counters["parser_bytes_per_context"] = static_cast<double>(parser_bytes) / static_cast<double>(nodes);
}

}  // namespace

BENCHMARK(read)->RangeMultiplier(10)->Range(10'000, 1'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(simdjson_walk)->RangeMultiplier(10)->Range(10'000, 1'000'000)->Unit(benchmark::kMillisecond);

CCRC_BENCHMARK_MAIN()
