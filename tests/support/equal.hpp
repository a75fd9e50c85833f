// Element-wise equality of two ranges, for the tests: libc++ 14 has no std::ranges::equal.
#pragma once

#include <algorithm>
#include <iterator>

namespace test {

/// std::ranges::equal(a, b) for ranges with begin() and end(). O(size).
template <class A, class B>
bool equal(const A& a, const B& b) {
  return std::equal(std::begin(a), std::end(a), std::begin(b), std::end(b));
}

}  // namespace test
