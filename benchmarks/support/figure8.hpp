// The papers' Figure 8, literally (recursive, O(nodes x depth)): the baseline of recursion
// elimination. Not a copy: the very reference the tests check ccrc::eliminate_recursion
// against, so the baseline measured is the one verified to give the same tree.
#pragma once

#include "../../tests/support/figure8.hpp"

namespace bench {
using test::figure8;
}  // namespace bench
