// Checking that two profiles are the same node for node: what a format's round trip keeps.
#pragma once

#include <ccrc/tree/profile.hpp>

#include "support/equal.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <initializer_list>
#include <string_view>

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

/// A streaming reader, `read(text, piece_bytes)`, gives the same profile whole (one piece) and
/// in pieces of every size given.
template <class Read>
void check_same_in_pieces(Read read, std::string_view text, std::initializer_list<std::size_t> sizes) {
  const ccrc::profile whole = read(text, ~std::size_t{0});
  for (std::size_t size : sizes) {
    CAPTURE(size);
    check_same_profile(whole, read(text, size));
  }
}

}  // namespace test
