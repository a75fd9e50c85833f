// Checking that two profiles are the same node for node: what a format's round trip keeps.
#pragma once

#include <ccrc/tree/profile.hpp>

#include "support/equal.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>

namespace test {

/// Same ids, parents, frames (names and call sites), metric names, and values bit for bit.
inline void check_same_profile(const ccrc::profile& a, const ccrc::profile& b) {
  REQUIRE(a.size() == b.size());
  CHECK(a.metric_names() == b.metric_names());
  CHECK(test::equal(a.tree().parents(), b.tree().parents()));
  CHECK(test::equal(a.tree().frames(), b.tree().frames()));
  REQUIRE(a.symbols().frame_count() == b.symbols().frame_count());
  for (ccrc::frame_id f{0}; f < a.symbols().frame_count(); ++f) {
    CHECK(a.symbols().name(f) == b.symbols().name(f));
    CHECK(a.symbols().site(f) == b.symbols().site(f));
  }
  for (std::size_t i = 0; i < a.metric_count(); ++i)
    CHECK(std::equal(a.column(i).begin(), a.column(i).end(), b.column(i).begin(),
                     [](double x, double y) { return std::memcmp(&x, &y, sizeof x) == 0; }));
}

}  // namespace test
