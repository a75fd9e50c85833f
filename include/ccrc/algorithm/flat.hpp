// ccrc - per-method aggregation: the flat profile, calling contexts discarded.
#pragma once

#include <ccrc/concepts.hpp>
#include <ccrc/config.hpp>
#include <ccrc/tree/view.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string_view>
#include <vector>

namespace ccrc {

/// One method of a flat profile.
template <metric_value T>
struct flat_entry {
  method_id method;
  T self;          ///< sum of the method's self values over its contexts in the view
  double percent;  ///< 100 * self / (sum over all entries); 0 when that sum is 0
};

namespace detail {

// Sums self values per method over the view; marks the methods that occur.
template <class T, class C>
void sum_per_method(const tree_view& v, const C& self, std::vector<T>& sums, std::vector<char>& seen) {
  const call_tree& t = v.tree();
  CCRC_ASSERT(std::ranges::size(self) == t.size(), "ccrc: the column must have one value per node");
  sums.assign(t.symbols().method_count(), T{});
  seen.assign(sums.size(), 0);
  auto add = [&](node_id n) {
    method_id m = t.method(n);
    sums[m] += self[n];
    seen[m] = 1;
  };
  if (v.root() == root_node && v.max_depth() == unlimited_depth) {
    for (node_id n = 0; n < t.size(); ++n) add(n);
  } else {
    preorder(v, [&](node_id n, std::uint32_t) { add(n); });
  }
}

}  // namespace detail

/// The sum of the self values of each method over the view: result[m] for method m (0 for a
/// method absent from the view). O(nodes of v + methods).
template <metric_column C>
[[nodiscard]] std::vector<column_value_t<C>> per_method(const tree_view& v, const C& self) {
  std::vector<column_value_t<C>> sums;
  std::vector<char> seen;
  detail::sum_per_method(v, self, sums, seen);
  return sums;
}

/// The total of each method over the view: the sum of the inclusive values (the context's
/// self value and those of everything below it in the view) of the method's outermost
/// contexts in the view, those with no caller of the same method between them and the view's
/// root; result[m] for method m (0 for a method absent from the view). A recursive method's
/// inner contexts lie inside an outer one, so its cost is counted once: the call graph's
/// c_t(f) (ccrc::call_graph), over a view. One depth-first pass with a stack of the open
/// contexts' sums: O(nodes of v + methods) time, O(depth of v + methods) memory.
///
///     auto total = ccrc::per_method_total(ccrc::tree_view(p.tree()), p.column("bytecodes"));
///     // Figure 1: g 980 = ag(main;f;g) + ag(main;g), its inner main;f;g;g not counted again
template <metric_column C>
[[nodiscard]] std::vector<column_value_t<C>> per_method_total(const tree_view& v, const C& self) {
  using T = column_value_t<C>;
  const call_tree& t = v.tree();
  CCRC_ASSERT(std::ranges::size(self) == t.size(), "ccrc: the column must have one value per node");
  std::vector<T> totals(t.symbols().method_count(), T{});
  std::vector<std::uint32_t> open(totals.size(), 0);  // per method: its contexts on the current path
  std::vector<T> inclusive;                           // per open context: its sum so far
  depth_first(
      v,
      [&](node_id n, std::uint32_t) {
        ++open[t.method(n)];
        inclusive.push_back(self[n]);
      },
      [&](node_id n, std::uint32_t) {
        T value = inclusive.back();
        inclusive.pop_back();
        if (!inclusive.empty()) inclusive.back() += value;
        if (--open[t.method(n)] == 0) totals[t.method(n)] += value;
      });
  return totals;
}

/// Options of flat.
struct flat_options {
  /// At most this many entries, the largest (the others are not sorted).
  std::size_t count = std::numeric_limits<std::size_t>::max();
};

/// The flat profile of a view (the pie of the papers' Figure 4(c)): one entry per method
/// occurring in the view, largest self value first, ties by name, NaN last. The synthetic
/// root's method appears only if the root has a self value of its own.
/// O(nodes of v + m log k) for m methods, k of them asked for (options.count).
///
///     auto entries = ccrc::flat(ccrc::tree_view(p.tree()), p.column("bytecodes"));
///     // Figure 1: main 32.92 %, h 24.46 %, i 20.38 %, g 16.68 %, f 5.56 %
template <metric_column C>
[[nodiscard]] std::vector<flat_entry<column_value_t<C>>> flat(const tree_view& v, const C& self, flat_options options = {}) {
  using T = column_value_t<C>;
  std::vector<T> sums;
  std::vector<char> seen;
  detail::sum_per_method(v, self, sums, seen);
  seen[0] = sums[0] != T{};
  std::vector<flat_entry<T>> entries;
  double total = 0;
  for (method_id m{0}; m < sums.size(); ++m) {
    if (!seen[m]) continue;
    entries.push_back({m, sums[m], 0.0});
    total += static_cast<double>(sums[m]);
  }
  for (auto& e : entries)
    e.percent = total == 0 || !std::isfinite(total) ? 0.0 : 100.0 * static_cast<double>(e.self) / total;
  const symbol_table& syms = v.tree().symbols();
  auto before = [&](const auto& a, const auto& b) {
    bool a_nan = a.self != a.self, b_nan = b.self != b.self;  // NaN != NaN
    if (a_nan != b_nan) return b_nan;
    if (!a_nan && a.self != b.self) return a.self > b.self;
    return syms.method_name(a.method) < syms.method_name(b.method);
  };
  std::size_t k = std::min(options.count, entries.size());
  std::partial_sort(entries.begin(), entries.begin() + static_cast<std::ptrdiff_t>(k), entries.end(), before);
  entries.resize(k);
  return entries;
}

}  // namespace ccrc
