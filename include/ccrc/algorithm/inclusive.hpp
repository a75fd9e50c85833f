// ccrc - aggregated (inclusive) metrics: ag(M_n) = M_n + sum of ag(M_c) over the children c.
#pragma once

#include <ccrc/concepts.hpp>
#include <ccrc/config.hpp>
#include <ccrc/tree/call_tree.hpp>

#include <cstddef>
#include <ranges>
#include <span>
#include <string_view>
#include <vector>

namespace ccrc {

/// Turns a column of self values into aggregated values in place. One reverse sweep over the
/// ids (children have larger ids than their parent, so each is final when it is added to its
/// parent): O(n), no allocation, no recursion.
template <metric_value T>
void inclusive_in_place(const call_tree& t, std::span<T> values) noexcept {
  CCRC_ASSERT(values.size() == t.size(), "ccrc: the column must have one value per node");
  const node_id* parent = t.parents().data();
  for (std::size_t n = values.size(); n-- > 1;) values[parent[n]] += values[n];
}

/// ag(M): the aggregated value of every node, from the self values `self` (one per node).
/// O(n), one allocation.
///
///     auto ag = ccrc::inclusive(t.tree(), t.column<"bytecodes">());
///     // Figure 1: ag[main] == 3238, ag[f] == 890
template <metric_column C>
[[nodiscard]] std::vector<column_value_t<C>> inclusive(const call_tree& t, const C& self) {
  std::vector<column_value_t<C>> ag(std::ranges::begin(self), std::ranges::end(self));
  inclusive_in_place(t, std::span(ag));
  return ag;
}

/// ag(M) of every metric of a ccrc::profile or ccrc::cct, in metric order, as doubles (the
/// `aggregated` argument of ccrc::tooltip). O(nodes x metrics).
template <metric_tree Tree>
[[nodiscard]] std::vector<std::vector<double>> inclusive_columns(const Tree& t) {
  std::vector<std::vector<double>> columns;
  t.for_each_column([&](std::string_view, auto column) {
    columns.emplace_back(column.begin(), column.end());
    inclusive_in_place(t.tree(), std::span(columns.back()));
  });
  return columns;
}

}  // namespace ccrc
