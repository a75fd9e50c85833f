// ccrc - what ring charts of one tree and one metric read again and again, prepared once: the
// children of every node by decreasing aggregated value with their running sums, and heights.
#pragma once

#include <ccrc/algorithm/depth.hpp>
#include <ccrc/concepts.hpp>
#include <ccrc/config.hpp>
#include <ccrc/tree/call_tree.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <ranges>
#include <span>
#include <utility>
#include <vector>

namespace ccrc {

namespace detail {

// A value as a sizing weight: finite and positive values count, anything else weighs nothing.
template <class T>
[[nodiscard]] double ring_weight(T value) noexcept {
  auto x = static_cast<double>(value);
  return std::isfinite(x) && x > 0 ? x : 0.0;
}

// The order of child_order::value: larger weight first, ties by creation order (node id).
[[nodiscard]] inline bool heavier(const std::pair<double, node_id>& a, const std::pair<double, node_id>& b) noexcept {
  return a.first != b.first ? a.first > b.first : a.second < b.second;
}

}  // namespace detail

/// The children of every node in the order of child_order::value (largest aggregated value
/// first, ties by creation order), the running sums of their weights, and every node's
/// height: what ring_chart otherwise recomputes for each visible parent. With it
/// (ring_options::index) a chart stops at a parent's first child too thin to see and merges
/// the rest into lines by binary search, so its cost follows what it shows, not the fan-out of
/// the tree. Build once per tree and aggregated column; the chart must be laid out from the
/// same column. O(n log k) to build for k children per node, 20 bytes a node.
///
///     ccrc::ring_index index(p.tree(), ag);
///     auto chart = ccrc::ring_chart(view, ag, {.outer_radius = 450, .index = &index});
class ring_index {
 public:
  template <metric_column C>
  ring_index(const call_tree& t, const C& ag) {
    CCRC_ASSERT(std::ranges::size(ag) == t.size(), "ccrc: the column must have one value per node");
    const auto* values = std::ranges::data(ag);
    const std::size_t n = t.size();
    const node_id* parent = t.parents().data();
    // Counting sort of the nodes by parent: each parent's children in creation order.
    first_.assign(n + 1, 0);
    for (std::size_t c = 1; c < n; ++c) ++first_[parent[c] + 1];
    for (std::size_t p = 0; p < n; ++p) first_[p + 1] += first_[p];
    children_.resize(n > 0 ? n - 1 : 0);
    sums_.resize(children_.size());
    std::vector<std::uint32_t> next(first_.begin(), first_.end() - 1);
    for (std::size_t c = 1; c < n; ++c) children_[next[parent[c]]++] = static_cast<node_id>(c);
    std::vector<std::pair<double, node_id>> kids;
    for (std::size_t p = 0; p < n; ++p) {
      std::uint32_t begin = first_[p], end = first_[p + 1];
      if (begin == end) continue;
      kids.clear();
      for (std::uint32_t i = begin; i < end; ++i) kids.emplace_back(detail::ring_weight(values[children_[i]]), children_[i]);
      std::sort(kids.begin(), kids.end(), detail::heavier);
      double sum = 0;  // summed in this order, as ring_chart sums: the same doubles
      for (std::uint32_t i = begin; i < end; ++i) {
        children_[i] = kids[i - begin].second;
        sums_[i] = sum += kids[i - begin].first;
      }
    }
    heights_ = heights(t);
  }

  /// Number of nodes of the tree it was built for.
  [[nodiscard]] std::size_t size() const noexcept { return heights_.size(); }
  /// The children of n, largest weight first.
  [[nodiscard]] std::span<const node_id> children(node_id n) const noexcept {
    return std::span(children_).subspan(first_[n], first_[n + 1] - first_[n]);
  }
  /// Running sums of the children's weights: sums(n)[k] is the weight of children(n)[0..k].
  [[nodiscard]] std::span<const double> sums(node_id n) const noexcept {
    return std::span(sums_).subspan(first_[n], first_[n + 1] - first_[n]);
  }
  /// Edges on the longest path from n down to a leaf (as ccrc::heights).
  [[nodiscard]] std::uint32_t height(node_id n) const noexcept { return heights_[n]; }
  /// Heap bytes held.
  [[nodiscard]] std::size_t memory_bytes() const noexcept {
    return first_.capacity() * sizeof(std::uint32_t) + children_.capacity() * sizeof(node_id) +
           sums_.capacity() * sizeof(double) + heights_.capacity() * sizeof(std::uint32_t);
  }

 private:
  std::vector<std::uint32_t> first_;  // children of n: children_[first_[n], first_[n + 1])
  std::vector<node_id> children_;
  std::vector<double> sums_;
  std::vector<std::uint32_t> heights_;
};

}  // namespace ccrc
