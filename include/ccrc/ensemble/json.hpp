// ccrc - an ensemble as one JSON document: its runs, metrics and the statistics of every
// context, and the distances and clusters of the runs; what `ccrc ensemble --json` prints.
#pragma once

#include <ccrc/ensemble/cluster.hpp>
#include <ccrc/ensemble/statistics.hpp>
#include <ccrc/io/json_writer.hpp>
#include <ccrc/tree/path.hpp>

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ccrc {

/// What write_ensemble_json writes beside the statistics.
struct ensemble_json_options {
  /// The runs' names, in the order they were added (one per run).
  std::span<const std::string> inputs = {};
  /// The metric the distances are of (written as "metric" when there are distances).
  std::string_view metric = {};
  /// The distances of the runs (written with the clusters), or null for none.
  const distance_matrix* distances = nullptr;
  std::span<const run_cluster> clusters = {};
};

/// The bytes the contexts' paths take in write_ensemble_json's document (each context's whole
/// path, frame names joined by ';'), before escaping: what grows with depth x contexts, for a
/// caller to bound. O(nodes), one array of counts.
[[nodiscard]] inline std::uint64_t ensemble_json_path_bytes(const ensemble& e) {
  const call_tree& t = e.tree();
  std::vector<std::uint64_t> length(t.size(), 0);
  std::uint64_t total = 0;
  for (node_id n = 1; n < t.size(); ++n) {
    const node_id parent = t.parent(n);
    length[n] = (parent == root_node ? 0 : length[parent] + 1) + t.name(n).size();
    total += length[n];
  }
  return total;
}

/// Writes `e` as one JSON document: {"runs": N, "inputs": [names], "metrics": [names],
/// "contexts": [...]} and, with distances, "metric", "distance" (the N x N matrix, rows in
/// input order) and "clusters" ([{"members": [indexes], "exemplar": index}]). Each context, by
/// node (callers before callees), is {"path": "a;b;c" (frames joined by ';', as folded stacks
/// write them), "parent": its caller's index in "contexts" (null at the top level),
/// "present": runs holding it, "self": {metric: {"mean", "min", "max", "std"}}, "inclusive":
/// {...}}, one a line; the synthetic root is not a context. Numbers are exact (the shortest
/// text that reads back to the same double). O(nodes x metrics + path bytes + N^2), written
/// in pieces of about a megabyte.
///
///     ccrc::write_ensemble_json(std::cout, e, {.inputs = names});
inline void write_ensemble_json(std::ostream& out, const ensemble& e, const ensemble_json_options& options = {}) {
  CCRC_ASSERT(options.inputs.empty() || options.inputs.size() == e.runs(), "ccrc: one name per run");
  std::string s;
  auto flush = [&](bool always) {
    if (always || s.size() >= (std::size_t{1} << 20)) {
      out.write(s.data(), static_cast<std::streamsize>(s.size()));
      s.clear();
    }
  };
  auto names = [&](auto&& list) {
    s += '[';
    bool first = true;
    for (const auto& name : list) {
      if (!first) s += ", ";
      first = false;
      append_json_string(s, name);
    }
    s += ']';
  };
  s += "{\"runs\": " + std::to_string(e.runs()) + ", \"inputs\": ";
  names(options.inputs);
  s += ", \"metrics\": ";
  names(e.metric_names());
  s += ", \"contexts\": [";
  const call_tree& t = e.tree();
  for (node_id n = 1; n < t.size(); ++n) {
    s += n == 1 ? "\n{\"path\": " : ",\n{\"path\": ";
    append_json_string(s, path_string(t, n));
    s += ", \"parent\": ";
    s += t.parent(n) == root_node ? std::string("null") : std::to_string(t.parent(n) - 1);
    s += ", \"present\": " + std::to_string(e.present(n));
    for (cost_scope scope : {cost_scope::self, cost_scope::inclusive}) {
      s += scope == cost_scope::self ? ", \"self\": {" : ", \"inclusive\": {";
      for (std::size_t m = 0; m < e.metric_count(); ++m) {
        if (m) s += ", ";
        append_json_string(s, e.metric_names()[m]);
        value_statistics v = e.statistics(n, m, scope);
        s += ": {\"mean\": ";
        append_json_number(s, v.mean);
        s += ", \"min\": ";
        append_json_number(s, v.min);
        s += ", \"max\": ";
        append_json_number(s, v.max);
        s += ", \"std\": ";
        append_json_number(s, v.std);
        s += '}';
      }
      s += '}';
    }
    s += '}';
    flush(false);
  }
  s += "]";
  if (options.distances) {
    const distance_matrix& d = *options.distances;
    s += ",\n\"metric\": ";
    append_json_string(s, options.metric);
    s += ",\n\"distance\": [";
    for (std::size_t i = 0; i < d.size(); ++i) {
      s += i ? ",\n[" : "\n[";
      for (std::size_t j = 0; j < d.size(); ++j) {
        if (j) s += ", ";
        append_json_number(s, d(i, j));
      }
      s += ']';
      flush(false);
    }
    s += "],\n\"clusters\": [";
    for (std::size_t c = 0; c < options.clusters.size(); ++c) {
      s += c ? ",\n{\"members\": [" : "\n{\"members\": [";
      for (std::size_t k = 0; k < options.clusters[c].members.size(); ++k) {
        if (k) s += ", ";
        s += std::to_string(options.clusters[c].members[k]);
      }
      s += "], \"exemplar\": " + std::to_string(options.clusters[c].exemplar) + '}';
    }
    s += ']';
  }
  s += "}\n";
  flush(true);
}

}  // namespace ccrc
