#include <ccrc/generate/shape.hpp>

#include "support/figure1.hpp"
#include "support/shape.hpp"

#include <doctest/doctest.h>

TEST_CASE("shape_of: Table I's columns, measured, recursion eliminated for N' and D'") {
  ccrc::profile p({"calls"});
  test::add_stack(p, "a;b;b;c", {2});
  test::add_stack(p, "a;d", {3});
  test::add_stack(p, "e", {1});
  // a, a;b, a;b;b, a;b;b;c, a;d, e; without the recursion b;b: a, a;b, a;b;c, a;d, e.
  test::check_shape(ccrc::shape_of(p), {.nodes = 6, .max_depth = 4, .methods = 5, .calls = 6,
                                        .recursion_free_nodes = 5, .recursion_free_depth = 3});
  // No metric named calls: C is 0.
  CHECK(ccrc::shape_of(test::stacks({{"a;a", 5}})).calls == 0);
}

TEST_CASE("scaled: contexts and calls times the factor, depths kept where the tree can hold them") {
  const ccrc::cct_shape s{.nodes = 1000, .max_depth = 50, .methods = 300, .calls = 5000,
                          .recursion_free_nodes = 600, .recursion_free_depth = 30};
  test::check_shape(ccrc::scaled(s, 10), {10000, 50, 300, 50000, 6000, 30});
  // 60 recursion-free contexts: at most 60 methods.
  test::check_shape(ccrc::scaled(s, 0.1), {100, 50, 60, 500, 60, 30});
  // 6 recursion-free contexts hold depth 6; 4 recursive ones reach at most depth 10.
  test::check_shape(ccrc::scaled(s, 0.01), {10, 10, 6, 50, 6, 6});
  // One context: depth 1, and calls stay at least the contexts.
  test::check_shape(ccrc::scaled(s, 0.001), {1, 1, 1, 5, 1, 1});
  test::check_shape(ccrc::scaled({.nodes = 10, .max_depth = 3, .methods = 5, .calls = 10, .recursion_free_nodes = 5,
                                  .recursion_free_depth = 2},
                                 0.1),
                    {1, 1, 1, 1, 1, 1});
}
