// ccrc - what a tooltip shows about a calling context: its call stack and every metric.
#pragma once

#include <ccrc/concepts.hpp>
#include <ccrc/config.hpp>
#include <ccrc/tree/call_tree.hpp>

#include <algorithm>
#include <cstddef>
#include <span>
#include <string_view>
#include <vector>

namespace ccrc {

/// The call stack of node n: method names, outermost frame first, the synthetic root left
/// out. The names live in t's symbol table. O(depth of n).
[[nodiscard]] inline std::vector<std::string_view> call_stack(const call_tree& t, node_id n) {
  std::vector<std::string_view> names;
  for (; n != root_node && n != null_node; n = t.parent(n)) names.push_back(t.name(n));
  std::reverse(names.begin(), names.end());
  return names;
}

/// One metric of a calling context, as a tooltip shows it.
struct metric_reading {
  std::string_view metric;  ///< the metric's name
  double self;              ///< its value in the context itself
  double aggregated;        ///< ag(M): the context and all its callees
};

/// What a tooltip shows about a calling context: its call stack and every metric.
struct node_tooltip {
  std::vector<std::string_view> call_stack;  ///< outermost frame first
  std::vector<metric_reading> metrics;       ///< in the tree's metric order
};

/// The tooltip of node n of a ccrc::profile or ccrc::cct: its call stack and, per metric, the
/// self value and the aggregated value read from `aggregated` (inclusive_columns(t), computed
/// once per tree). O(depth of n + metrics).
///
///     auto ag = ccrc::inclusive_columns(p);  // once
///     ccrc::node_tooltip tip = ccrc::tooltip(p, ag, chart.segments[*hit].node);
template <metric_tree Tree>
[[nodiscard]] node_tooltip tooltip(const Tree& t, std::span<const std::vector<double>> aggregated, node_id n) {
  node_tooltip tip{call_stack(t.tree(), n), {}};
  std::size_t i = 0;
  t.for_each_column([&](std::string_view name, auto column) {
    CCRC_ASSERT(i < aggregated.size() && aggregated[i].size() == column.size(),
                "ccrc: one aggregated column per metric, as inclusive_columns makes them");
    tip.metrics.push_back({name, static_cast<double>(column[n]), aggregated[i][n]});
    ++i;
  });
  return tip;
}

}  // namespace ccrc
