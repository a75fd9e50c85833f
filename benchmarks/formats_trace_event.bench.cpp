// Trace Event Format JSON: ccrc::read_trace_events on a generated trace, beside simdjson
// On-Demand walking the same document (every event's ph, name, ts and dur read, nothing
// built): the price of sorting the events and building the tree. The trace is the benchmarks'
// synthetic program run (support/trace.hpp: `nodes` contexts, about 1.5 calls per context)
// written as one X event per call, on one thread, either as tracers write X events (when the
// call returns: children before parents, so the reader sorts) or as B/E pairs in time order.
// Counters: MB of JSON, events, and the heap bytes per context the read allocates at its peak
// (the document itself excluded: it is read in place) and that the finished tree holds.
// A third shape is a DevTools trace that is mostly a V8 CPU profile: one Profile event and
// ProfileChunk events of 100 samples each, the same run sampled once per enter and exit (each
// context a profile node, sent in the chunk where it is first sampled), beside an On-Demand
// walk that reads every node's id, parent and name and every sample and delta.
// With CCRC_BENCH_SAVE=DIR, the documents are saved there too ({x-on-return,b-e-in-order,
// profile-chunks}-N.trace.json), to time other importers on them.
#include "support/main.hpp"
#include "support/save.hpp"
#include "support/usable_heap.hpp"
#include "support/ccrc_trees.hpp"

#include <ccrc/formats/trace_event.hpp>

#include <benchmark/benchmark.h>

#include <map>
#include <unordered_map>
#include <optional>
#include <string>
#include <vector>

namespace {

struct document {
  ccrc::formats::json_text text;
  std::size_t events = 0;
};

// The trace of `nodes` contexts as X events written on return (post_order) or B/E events.
const document& document_of(std::size_t nodes, bool post_order) {
  static std::map<std::pair<std::size_t, bool>, document> cache;
  auto key = std::make_pair(nodes, post_order);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  const bench::trace& t = bench::trace_of(nodes);
  std::string json = "{\"traceEvents\":[\n";
  std::vector<std::pair<std::uint32_t, std::uint64_t>> stack;  // frame, start
  std::uint64_t now = 0;
  std::size_t events = 0;
  auto event = [&](const char* ph, std::uint32_t f, std::uint64_t ts, std::uint64_t dur) {
    json += R"({"pid":1,"tid":1,"ph":")";
    json += ph;
    json += R"(","ts":)" + std::to_string(ts);
    if (ph[0] == 'X') json += R"(,"dur":)" + std::to_string(dur);
    json += R"(,"name":")" + t.names[f] + "\"},\n";
    ++events;
  };
  for (std::uint32_t e : t.events) {
    ++now;
    if (e != bench::trace::exit_event) {
      stack.emplace_back(e, now);
      if (!post_order) event("B", e, now, 0);
      continue;
    }
    auto [f, start] = stack.back();
    stack.pop_back();
    if (post_order) event("X", f, start, now - start);
    else event("E", f, now, 0);
  }
  json.resize(json.size() - 2);  // the last ",\n"
  json += "\n]}\n";
  bench::save_if_asked((post_order ? "x-on-return-" : "b-e-in-order-") + std::to_string(nodes) + ".trace.json", json);
  document d{ccrc::formats::json_text(std::string_view(json)), events};
  return cache.emplace(key, std::move(d)).first->second;
}

// The run of `nodes` contexts as a DevTools trace's CPU profile: a Profile event, then
// ProfileChunk events as Chrome writes them (keys sorted, with Chrome's category, 100 samples a
// chunk). events: samples.
const document& chunked_document_of(std::size_t nodes) {
  static std::map<std::size_t, document> cache;
  auto it = cache.find(nodes);
  if (it != cache.end()) return it->second;
  const bench::trace& t = bench::trace_of(nodes);
  std::string json = "{\"traceEvents\":[\n";
  json += R"({"args":{"data":{"startTime":0}},"cat":"disabled-by-default-v8.cpu_profiler","id":"0x1","name":"Profile","ph":"P","pid":1,"tid":1,"ts":0},)" "\n";
  std::unordered_map<std::uint64_t, std::uint32_t> child;  // (parent id, frame) -> node id
  std::vector<std::uint32_t> stack = {1};                  // node ids of the current path
  std::string new_nodes = R"J({"callFrame":{"codeType":"other","functionName":"(root)","scriptId":0},"id":1})J";
  std::string samples, deltas;
  std::uint32_t next_id = 2;
  std::size_t in_chunk = 0, total = 0, chunks = 0;
  auto flush = [&] {
    json += R"({"args":{"data":{"cpuProfile":{)";
    if (!new_nodes.empty()) json += R"("nodes":[)" + new_nodes + "],";
    json += R"("samples":[)" + samples + R"(]},"timeDeltas":[)" + deltas + R"(]}},"cat":"disabled-by-default-v8.cpu_profiler","id":"0x1","name":"ProfileChunk","ph":"P","pid":1,"tid":2,"ts":)" +
            std::to_string(++chunks) + "},\n";
    new_nodes.clear();
    samples.clear();
    deltas.clear();
    in_chunk = 0;
  };
  for (std::uint32_t e : t.events) {
    if (e == bench::trace::exit_event) {
      stack.pop_back();
    } else {
      std::uint64_t key = (std::uint64_t{stack.back()} << 32) | e;
      auto [c, added] = child.try_emplace(key, next_id);
      if (added) {
        if (!new_nodes.empty()) new_nodes += ',';
        new_nodes += R"({"callFrame":{"codeType":"JS","columnNumber":0,"functionName":")" + t.names[e] +
                     R"(","lineNumber":)" + std::to_string(e) + R"(,"scriptId":1,"url":"bench.js"},"id":)" +
                     std::to_string(next_id) + R"(,"parent":)" + std::to_string(stack.back()) + "}";
        ++next_id;
      }
      stack.push_back(c->second);
    }
    if (in_chunk != 0) {
      samples += ',';
      deltas += ',';
    }
    samples += std::to_string(stack.back());
    deltas += std::to_string(100 + (total % 7) * 13);
    ++in_chunk;
    ++total;
    if (in_chunk == 100) flush();
  }
  if (in_chunk != 0 || !new_nodes.empty()) flush();
  json.resize(json.size() - 2);  // the last ",\n"
  json += "\n],\"metadata\":{\"source\":\"DevTools\"}}\n";
  bench::save_if_asked("profile-chunks-" + std::to_string(nodes) + ".trace.json", json);
  document d{ccrc::formats::json_text(std::string_view(json)), total};
  return cache.emplace(nodes, std::move(d)).first->second;
}

void set_counters(benchmark::State& state, const document& d) {
  bench::set_bytes(state, d.text.bytes().size());
  state.counters["MB"] = static_cast<double>(d.text.bytes().size()) / 1e6;
  state.counters["events"] = static_cast<double>(d.events);
}

void read(benchmark::State& state, bool post_order) {
  const document& d = document_of(bench::size_of(state), post_order);
  // Contexts without the root and the thread frame.
  bench::time_read(state, [&] { return ccrc::read_trace_events(d.text); }, 2);
  set_counters(state, d);
}

// The baseline: simdjson On-Demand reads every event's fields, building nothing.
// With fresh_parser, each iteration makes its parser, as the reader does (its buffers, about
// five bytes per byte of JSON, are allocated and first touched again).
void walk(benchmark::State& state, bool post_order, bool fresh_parser = false) {
  const document& d = document_of(bench::size_of(state), post_order);
  std::optional<simdjson::ondemand::parser> kept;
  kept.emplace();
  for (auto _ : state) {
    if (fresh_parser) kept.emplace();
    simdjson::ondemand::parser& parser = *kept;
    double sum = 0;
    std::size_t name_bytes = 0;
    auto doc = parser.iterate(d.text.view());
    for (auto event : doc["traceEvents"].get_array()) {
      for (auto field : event.get_object()) {
        std::string_view key = field.unescaped_key().value();
        if (key == "ph" || key == "name") name_bytes += field.value().get_string().value().size();
        else if (key == "ts" || key == "dur") sum += field.value().get_double().value();
      }
    }
    benchmark::DoNotOptimize(sum);
    benchmark::DoNotOptimize(name_bytes);
  }
  set_counters(state, d);
}

void read_profile_chunks(benchmark::State& state) {
  const document& d = chunked_document_of(bench::size_of(state));
  // Contexts without the root and the thread frame; (cpu profile) is V8's (root).
  bench::time_read(state, [&] { return ccrc::read_trace_events(d.text); }, 2);
  set_counters(state, d);
  state.counters["samples"] = state.counters["events"];
}

// The baseline: On-Demand reads each event's ph and name, and in the chunks every node's id,
// parent and function name and every sample and delta, building nothing.
void ondemand_profile_chunks(benchmark::State& state) {
  const document& d = chunked_document_of(bench::size_of(state));
  simdjson::ondemand::parser parser;
  for (auto _ : state) {
    double sum = 0;
    std::size_t name_bytes = 0;
    auto doc = parser.iterate(d.text.view());
    for (auto event : doc["traceEvents"].get_array()) {
      for (auto field : event.get_object()) {
        std::string_view key = field.unescaped_key().value();
        if (key == "ph" || key == "name") {
          name_bytes += field.value().get_string().value().size();
        } else if (key == "args") {
          for (auto data : field.value().get_object()) {
            for (auto f : data.value().get_object()) {
              std::string_view k = f.unescaped_key().value();
              if (k == "startTime") {
                sum += f.value().get_double().value();
              } else if (k == "timeDeltas") {
                for (auto x : f.value().get_array()) sum += x.get_double().value();
              } else if (k == "cpuProfile") {
                for (auto part : f.value().get_object()) {
                  if (part.unescaped_key().value() == "samples") {
                    for (auto x : part.value().get_array()) sum += static_cast<double>(x.get_int64().value());
                    continue;
                  }
                  for (auto node : part.value().get_array()) {
                    for (auto nf : node.get_object()) {
                      std::string_view nk = nf.unescaped_key().value();
                      if (nk == "id" || nk == "parent") {
                        sum += static_cast<double>(nf.value().get_int64().value());
                      } else if (nk == "callFrame") {
                        for (auto cf : nf.value().get_object())
                          if (cf.unescaped_key().value() == "functionName")
                            name_bytes += cf.value().get_string().value().size();
                      }
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
    benchmark::DoNotOptimize(sum);
    benchmark::DoNotOptimize(name_bytes);
  }
  set_counters(state, d);
}

void read_x_on_return(benchmark::State& state) { read(state, true); }
void ondemand_x_on_return(benchmark::State& state) { walk(state, true); }
void ondemand_fresh_parser_x_on_return(benchmark::State& state) { walk(state, true, true); }
void read_b_e_in_order(benchmark::State& state) { read(state, false); }
void ondemand_b_e_in_order(benchmark::State& state) { walk(state, false); }

}  // namespace

BENCHMARK(read_x_on_return)->Arg(100'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(ondemand_x_on_return)->Arg(100'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(ondemand_fresh_parser_x_on_return)->Arg(100'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(read_profile_chunks)->Arg(100'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(ondemand_profile_chunks)->Arg(100'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(read_b_e_in_order)->Arg(100'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(ondemand_b_e_in_order)->Arg(100'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond);

CCRC_BENCHMARK_MAIN()
