#include <ccrc/algorithm/depth.hpp>

#include "support/figure1.hpp"

#include <doctest/doctest.h>

TEST_CASE("depths: a top-level frame has depth 1; Figure 1 is 6 deep") {
  ccrc::profile p = test::figure1();
  std::vector<std::uint32_t> d = ccrc::depths(p.tree());
  CHECK(d[ccrc::root_node] == 0);
  CHECK(d[test::node_at(p.tree(), "main")] == 1);
  CHECK(d[test::node_at(p.tree(), "main;f;g;g;h;i")] == 6);
  CHECK(d[test::node_at(p.tree(), "main;h;i")] == 3);
  CHECK(ccrc::max_depth(p.tree()) == 6);
  CHECK(ccrc::max_depth(ccrc::call_tree{}) == 0);
}
