// Comparing two CCT shapes (Table I's columns) field by field, so a failure names the field.
#pragma once

#include <ccrc/generate/shape.hpp>

#include <doctest/doctest.h>

namespace test {

inline void check_shape(const ccrc::cct_shape& got, const ccrc::cct_shape& want) {
  CHECK(got.nodes == want.nodes);
  CHECK(got.max_depth == want.max_depth);
  CHECK(got.methods == want.methods);
  CHECK(got.calls == want.calls);
  CHECK(got.recursion_free_nodes == want.recursion_free_nodes);
  CHECK(got.recursion_free_depth == want.recursion_free_depth);
}

}  // namespace test
