#include <ccrc/detail/sort_post_order.hpp>

#include "support/random.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

namespace {

// An interval [start, end) and its position in the input, which breaks ties as the Trace
// Event reader's seq does: by start, longer first, then input order.
struct interval {
  int start, end;
  int seq = 0;
};

bool by_start(const interval& a, const interval& b) {
  if (a.start != b.start) return a.start < b.start;
  if (a.end != b.end) return a.end > b.end;
  return a.seq < b.seq;
}

// A random forest of nested intervals listed as each interval ends (post-order), up to 40
// deep: children may start with their parent, siblings as the one before ends; each interval
// ends after the one written before it (no zero length, no two nested ones alike: see the
// tests of those).
std::vector<interval> random_post_order(test::rng& r, std::size_t count) {
  std::vector<interval> out;
  std::vector<int> open;  // their starts
  int now = 0;
  while (out.size() < count) {
    if (open.empty() || (open.size() < 40 && r.chance(0.55))) {
      if (r.chance(0.5)) now += static_cast<int>(r.below(3));
      open.push_back(now);
    } else {
      now += 1 + static_cast<int>(r.below(3));
      out.push_back({open.back(), now, static_cast<int>(out.size())});
      open.pop_back();
    }
  }
  return out;
}

std::vector<interval> sorted_copy(std::vector<interval> v) {
  std::sort(v.begin(), v.end(), by_start);
  return v;
}

bool same(const std::vector<interval>& a, const std::vector<interval>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [](const interval& x, const interval& y) { return x.seq == y.seq; });
}

}  // namespace

TEST_CASE("sort_post_order: a call tree written as its calls end comes out ordered by start") {
  // main [0,10) calls f [1,4), which calls g [1,2) and h [2,4); then main calls k [5,10):
  // written as they end, g h f k main; by start, main f g h k.
  std::vector<interval> v = {{1, 2}, {2, 4}, {1, 4}, {5, 10}, {0, 10}};
  for (int i = 0; i < 5; ++i) v[static_cast<std::size_t>(i)].seq = i;
  CHECK(ccrc::detail::sort_post_order(v.begin(), v.end(), by_start));
  std::vector<int> order;
  for (const interval& x : v) order.push_back(x.seq);
  CHECK(order == std::vector<int>{4, 2, 0, 1, 3});
}

TEST_CASE("sort_post_order: random forests in post-order, in a deque, sorted as std::sort sorts them") {
  test::rng r{17};
  for (int round = 0; round < 200; ++round) {
    std::vector<interval> v = random_post_order(r, 1 + r.below(300));
    std::vector<interval> expected = sorted_copy(v);
    std::deque<interval> d(v.begin(), v.end());
    REQUIRE(ccrc::detail::sort_post_order(d.begin(), d.end(), by_start));
    CHECK(same(std::vector<interval>(d.begin(), d.end()), expected));
  }
}

TEST_CASE("sort_post_order: a zero-length interval at its parent's end, then one starting there, is left to the caller") {
  // f [9,12) encloses z [12,12); then g [12,15). By start (longer first at equal starts):
  // f g z, so that z is no longer f's last: not a pre-order of the forest, nothing moved.
  std::vector<interval> v = {{12, 12, 0}, {9, 12, 1}, {12, 15, 2}};
  CHECK_FALSE(ccrc::detail::sort_post_order(v.begin(), v.end(), by_start));
  CHECK((v[0].seq == 0 && v[1].seq == 1 && v[2].seq == 2));
}

TEST_CASE("sort_post_order: an interval written after an equal one it encloses is left to the caller") {
  // g [2,3) in f [1,4) in f' [1,4), written g f f': by start, and by file order at a tie,
  // f f' g, so that f' falls between f and f's child: nothing moved.
  std::vector<interval> v = {{2, 3, 0}, {1, 4, 1}, {1, 4, 2}};
  CHECK_FALSE(ccrc::detail::sort_post_order(v.begin(), v.end(), by_start));
  CHECK((v[0].seq == 0 && v[1].seq == 1 && v[2].seq == 2));
}

TEST_CASE("sort_post_order: any other order is sorted or left as it was") {
  test::rng r{23};
  int refused = 0;
  for (int round = 0; round < 300; ++round) {
    std::vector<interval> v(1 + r.below(50));
    for (std::size_t i = 0; i < v.size(); ++i) {
      int start = static_cast<int>(r.below(20));
      v[i] = {start, start + static_cast<int>(r.below(20)), static_cast<int>(i)};
    }
    const std::vector<interval> before = v;
    if (ccrc::detail::sort_post_order(v.begin(), v.end(), by_start)) {
      CHECK(same(v, sorted_copy(before)));
    } else {
      CHECK(same(v, before));
      ++refused;
    }
  }
  CHECK(refused > 100);  // overlapping intervals are no forest: refused, most of them
}

TEST_CASE("sort_post_order: empty, one element, already sorted and reversed") {
  std::vector<interval> none;
  CHECK(ccrc::detail::sort_post_order(none.begin(), none.end(), by_start));
  std::vector<interval> one = {{3, 4, 0}};
  CHECK(ccrc::detail::sort_post_order(one.begin(), one.end(), by_start));
  // Sorted input is a forest of roots that are each other's siblings: unchanged.
  std::vector<interval> ascending = {{0, 1, 0}, {1, 2, 1}, {2, 3, 2}};
  CHECK(ccrc::detail::sort_post_order(ascending.begin(), ascending.end(), by_start));
  CHECK(ascending[0].seq == 0);
  CHECK(ascending[2].seq == 2);
  // Reversed: each element encloses all before it, a chain, reversed again.
  std::vector<interval> descending = {{2, 3, 0}, {1, 3, 1}, {0, 3, 2}};
  CHECK(ccrc::detail::sort_post_order(descending.begin(), descending.end(), by_start));
  CHECK(descending[0].seq == 2);
  CHECK(descending[1].seq == 1);
  CHECK(descending[2].seq == 0);
}
