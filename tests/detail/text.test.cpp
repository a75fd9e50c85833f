#include <ccrc/detail/text.hpp>

#include "support/random.hpp"

#include <doctest/doctest.h>

#include <cstddef>
#include <string>
#include <vector>

namespace {

// The quadratic definition: the first name equal to an earlier one.
std::size_t first_repeated_naive(const std::vector<std::string>& names) {
  for (std::size_t i = 0; i < names.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (names[j] == names[i]) return i;
  return names.size();
}

}  // namespace

TEST_CASE("first_repeated: the first name equal to an earlier one, in the order given") {
  using v = std::vector<std::string>;
  CHECK(ccrc::detail::first_repeated(v{}) == 0);
  CHECK(ccrc::detail::first_repeated(v{"a"}) == 1);
  CHECK(ccrc::detail::first_repeated(v{"a", "b", "c"}) == 3);
  CHECK(ccrc::detail::first_repeated(v{"b", "a", "b", "a"}) == 2);
  CHECK(ccrc::detail::first_repeated(v{"z", "a", "a", "z"}) == 2);  // not the first in sorted order
  CHECK(ccrc::detail::first_repeated(v{"a", "", ""}) == 2);

  test::rng r(15);
  for (int trial = 0; trial < 500; ++trial) {
    v names(r.below(40));
    std::uint32_t alphabet = 1 + r.below(60);
    for (auto& n : names) n = "m" + std::to_string(r.below(alphabet));
    INFO("trial ", trial);
    CHECK(ccrc::detail::first_repeated(names) == first_repeated_naive(names));
  }
}
