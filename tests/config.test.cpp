// CCRC_ASSERT as a release build compiles it (NDEBUG, defined here before any ccrc header):
// the condition is not evaluated, yet what it names counts as used, so that a variable read
// only by an assertion is no -Wunused warning (an error under -Werror) in release builds.
#ifndef NDEBUG
#define NDEBUG
#endif
#include <ccrc/config.hpp>

#include <doctest/doctest.h>

#include <cstddef>

TEST_CASE("with NDEBUG, CCRC_ASSERT neither evaluates its condition nor leaves its variables unused") {
  int evaluated = 0;
  auto evaluate = [&] {
    ++evaluated;
    return false;  // would abort, were it checked
  };
  std::size_t size = 3;  // read by the assertion alone
  CCRC_ASSERT(evaluate() && size == 3, "not evaluated with NDEBUG");
  CHECK(evaluated == 0);
}
