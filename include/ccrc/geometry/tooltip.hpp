// ccrc - what a tooltip shows about a calling context: its call stack and every metric.
#pragma once

#include <ccrc/concepts.hpp>
#include <ccrc/config.hpp>
#include <ccrc/tree/call_tree.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <ranges>
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
  /// How many of the stack's innermost frames the segment it was made for stands for: 1, or a
  /// chain's contexts (ring_segment::contexts).
  std::uint32_t chain = 1;
};

/// The sum of `column` over the calling contexts segment `s` stands for along its chain, from
/// its node to its last context (a line's: its node's): with a self column, the segment's own
/// value, what the gap its callees leave in its span shows. O(contexts of the chain).
template <class Segment, metric_column C>
[[nodiscard]] double segment_value(const call_tree& t, const C& column, const Segment& s) {
  double sum = 0;
  const node_id last = s.last == null_node ? s.node : s.last;
  for (node_id x = last;; x = t.parent(x)) {
    sum += static_cast<double>(std::ranges::data(column)[x]);
    if (x == s.node) break;
  }
  return sum;
}

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

/// The tooltip of a chart's segment `s`: of its node, or for a chain the call stack down to its
/// last context, each metric's self value summed over the chain's contexts (segment_value)
/// and the aggregated value of its first, and the chain's length. O(depth + contexts x metrics).
template <metric_tree Tree, class Segment>
  requires requires(const Segment& s) { s.last; s.contexts; }
[[nodiscard]] node_tooltip tooltip(const Tree& t, std::span<const std::vector<double>> aggregated, const Segment& s) {
  node_tooltip tip = tooltip(t, aggregated, s.node);
  if (s.last == null_node || s.last == s.node) return tip;
  tip.call_stack = call_stack(t.tree(), s.last);
  tip.chain = s.contexts;
  std::size_t i = 0;
  t.for_each_column([&](std::string_view, auto column) { tip.metrics[i++].self = segment_value(t.tree(), column, s); });
  return tip;
}

}  // namespace ccrc
