// Synthetic call traces and the naive pointer-based CCT the benchmarks compare against.
#pragma once

#include <ccrc/detail/random.hpp>
#include <ccrc/ids.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace bench {

/// A call trace: a frame id enters that method, `exit_event` returns from the current one.
/// Frame ids index `names`; frame 0 is never used (ccrc's root frame).
struct trace {
  static constexpr std::uint32_t exit_event = 0xffffffffu;
  std::vector<std::uint32_t> events;
  std::vector<std::string> names;  ///< names[f] for frame f
  std::size_t nodes = 0;           ///< contexts the trace creates (the root excluded)
  std::size_t calls = 0;           ///< enter events
};

/// splitmix64: a small deterministic generator.
using rng = ccrc::detail::random;

/// A trace that creates `nodes` calling contexts over `methods` methods, at most `max_depth`
/// deep, shaped like a program's: each call either goes one level deeper or first returns a
/// few levels, so nodes near the root gather many children and most nodes have 0-1;
/// methods are chosen with a skew (a few are called everywhere); about one call in three
/// repeats an existing context.
inline trace make_trace(std::size_t nodes, std::uint32_t methods = 5000, std::uint32_t max_depth = 100,
                        std::uint64_t seed = 42) {
  trace t;
  t.names.emplace_back();
  for (std::uint32_t m = 1; m <= methods; ++m)
    t.names.push_back("org.example.pkg" + std::to_string(m % 97) + ".Class" + std::to_string(m % 1013) +
                      ".method" + std::to_string(m) + "()");
  rng r{seed};
  std::unordered_set<std::uint64_t> existing;  // (context path id, frame) pairs seen
  std::vector<std::uint64_t> stack = {0};      // context ids of the current path
  std::uint64_t next_context = 1;
  std::unordered_map<std::uint64_t, std::uint64_t> child_of;
  while (t.nodes < nodes) {
    // Return some levels (geometric), never above the root; always return when too deep.
    while (stack.size() > 1 && (stack.size() > max_depth || r.uniform() < 0.52)) {
      stack.pop_back();
      t.events.push_back(trace::exit_event);
    }
    double u = r.uniform();
    auto f = static_cast<std::uint32_t>(1 + static_cast<double>(methods) * u * u * u);
    if (f > methods) f = methods;
    std::uint64_t key = (stack.back() << 20) ^ f;
    auto [it, inserted] = child_of.try_emplace(key, next_context);
    if (inserted) {
      ++next_context;
      ++t.nodes;
    }
    stack.push_back(it->second);
    t.events.push_back(f);
    ++t.calls;
  }
  while (stack.size() > 1) {
    stack.pop_back();
    t.events.push_back(trace::exit_event);
  }
  return t;
}

/// The trace for a size, made once per process.
inline const trace& trace_of(std::size_t nodes) {
  static std::map<std::size_t, trace> cache;
  auto it = cache.find(nodes);
  if (it == cache.end()) it = cache.emplace(nodes, make_trace(nodes)).first;
  return it->second;
}

/// The naive CCT: a heap object per node with a hash map of children, as a straightforward
/// object-oriented profiler builds it. The baseline of the benchmarks.
struct naive_node {
  naive_node* parent = nullptr;
  ccrc::frame_id frame{0};
  std::uint64_t calls = 0;
  double time = 0;
  double ag = 0;  // aggregated time, filled by the aggregation baseline
  std::unordered_map<ccrc::frame_id, std::unique_ptr<naive_node>> children;

  naive_node* child(ccrc::frame_id f) {
    auto& slot = children[f];
    if (!slot) {
      slot = std::make_unique<naive_node>();
      slot->parent = this;
      slot->frame = f;
    }
    return slot.get();
  }
};

/// Replays a trace into a naive tree.
inline std::unique_ptr<naive_node> naive_replay(const trace& t) {
  auto root = std::make_unique<naive_node>();
  naive_node* cur = root.get();
  for (std::uint32_t e : t.events) {
    if (e == trace::exit_event) {
      cur = cur->parent;
    } else {
      cur = cur->child(ccrc::frame_id{e});
      cur->calls += 1;
      cur->time += 1.5;
    }
  }
  return root;
}

/// ag(time) of every node of a naive tree, into naive_node::ag: an explicit-stack post-order
/// walk over the child maps. `stack` is scratch space, kept by the caller between runs.
inline void naive_inclusive(naive_node* root, std::vector<std::pair<naive_node*, bool>>& stack) {
  stack.assign(1, {root, false});
  while (!stack.empty()) {
    auto [n, expanded] = stack.back();
    if (!expanded) {
      stack.back().second = true;
      for (auto& [f, c] : n->children) stack.push_back({c.get(), false});
      continue;
    }
    stack.pop_back();
    n->ag = n->time;
    for (auto& [f, c] : n->children) n->ag += c->ag;
  }
}

/// The naive flat profile: walk the tree, sum the time per frame in a hash map, sort.
inline std::vector<std::pair<ccrc::frame_id, double>> naive_flat(naive_node* root, std::vector<naive_node*>& stack) {
  std::unordered_map<ccrc::frame_id, double> sums;
  stack.assign(1, root);
  while (!stack.empty()) {
    naive_node* n = stack.back();
    stack.pop_back();
    sums[n->frame] += n->time;
    for (auto& [f, c] : n->children) stack.push_back(c.get());
  }
  std::vector<std::pair<ccrc::frame_id, double>> entries(sums.begin(), sums.end());
  std::sort(entries.begin(), entries.end(), [](auto& a, auto& b) { return a.second > b.second; });
  return entries;
}

/// Stack samples taken from a trace: the call stack at every call that returns without calling
/// anything (every context lies on one of them), flattened.
struct samples {
  std::vector<ccrc::frame_id> frames;  ///< all stacks, outermost frame first
  std::vector<std::size_t> offsets;    ///< stack k is frames[offsets[k], offsets[k+1])
};

inline samples samples_of(const trace& t) {
  samples s;
  std::vector<std::uint32_t> stack;
  s.offsets.push_back(0);
  for (std::size_t i = 0; i < t.events.size(); ++i) {
    if (t.events[i] == trace::exit_event) {
      stack.pop_back();
      continue;
    }
    stack.push_back(t.events[i]);
    if (i + 1 == t.events.size() || t.events[i + 1] == trace::exit_event) {
      for (std::uint32_t f : stack) s.frames.emplace_back(f);
      s.offsets.push_back(s.frames.size());
    }
  }
  return s;
}

/// A naive tree made of stack samples: one call and 1.5 time units at each stack's leaf.
inline std::unique_ptr<naive_node> naive_add_samples(const samples& s) {
  auto root = std::make_unique<naive_node>();
  for (std::size_t k = 0; k + 1 < s.offsets.size(); ++k) {
    naive_node* n = root.get();
    for (std::size_t i = s.offsets[k]; i < s.offsets[k + 1]; ++i) n = n->child(s.frames[i]);
    n->calls += 1;
    n->time += 1.5;
  }
  return root;
}

}  // namespace bench
