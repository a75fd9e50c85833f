// ccrc - sorting a forest listed in post-order into its pre-order, in linear time.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <vector>

namespace ccrc::detail {

/// Sorts [first, last) by `less` in O(n) time and at most 12 bytes an element when the range
/// lists a forest in post-order (each element after the elements it encloses) whose pre-order
/// is the sorted order: intervals written as they end (a tracer's complete events), to be
/// ordered by start. The forest is read off the order itself: an element encloses the run of
/// roots just before it that sort after it; its place in pre-order is where its block of
/// descendants starts, shifted by one for each element that encloses it. Returns false, the
/// range as it was, if it is no such forest: an element sorts before something the root
/// before it encloses (say, a zero-length interval at its parent's end, then one starting at
/// that time); the caller sorts it otherwise. `less` must be a strict total order (no two
/// elements equivalent: the sorted order is then the one any sort gives).
template <class It, class Less>
bool sort_post_order(It first, It last, Less less) {
  const auto n = static_cast<std::size_t>(last - first);
  if (n >= std::numeric_limits<std::uint32_t>::max()) return false;
  std::vector<std::uint32_t> to(n);  // each element's subtree size, then its place
  {
    // The roots so far, each with the largest element of its subtree: each subtree, in
    // pre-order, is sorted, and lies wholly before the next root.
    struct root {
      std::uint32_t at, largest;
    };
    std::vector<root> roots;
    for (std::uint32_t i = 0; i < n; ++i) {
      std::uint32_t size = 1, largest = i;
      for (; !roots.empty() && less(first[i], first[roots.back().at]); roots.pop_back()) {
        size += to[roots.back().at];
        if (largest == i) largest = roots.back().largest;  // the last child's subtree ends last
      }
      if (!roots.empty() && less(first[i], first[roots.back().largest])) return false;
      to[i] = size;
      roots.push_back({i, largest});
    }
  }
  std::vector<std::uint32_t> enclosing;  // the starts of the blocks enclosing an element
  for (auto i = static_cast<std::uint32_t>(n); i-- > 0;) {
    const std::uint32_t start = i + 1 - to[i];  // of i's block, [start, i]
    while (!enclosing.empty() && enclosing.back() > i) enclosing.pop_back();
    to[i] = start + static_cast<std::uint32_t>(enclosing.size());
    enclosing.push_back(start);
  }
  std::vector<std::uint32_t>().swap(enclosing);
  for (std::uint32_t i = 0; i < n; ++i)
    while (to[i] != i) {  // the element at i goes to to[i]; the one there comes to i
      const std::uint32_t j = to[i];
      std::iter_swap(first + i, first + j);
      std::swap(to[i], to[j]);
    }
  return true;
}

}  // namespace ccrc::detail
