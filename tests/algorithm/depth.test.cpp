#include <ccrc/algorithm/depth.hpp>

#include "support/figure1.hpp"

#include <doctest/doctest.h>

TEST_CASE("depths: a top-level frame has depth 1; Figure 1 is 6 deep") {
  ccrc::profile p = test::figure1();
  std::vector<std::uint32_t> d = ccrc::depths(p.tree());
  CHECK(d[ccrc::root_node] == 0);
  CHECK(d[ccrc::node_at_path(p.tree(), "main")] == 1);
  CHECK(d[ccrc::node_at_path(p.tree(), "main;f;g;g;h;i")] == 6);
  CHECK(d[ccrc::node_at_path(p.tree(), "main;h;i")] == 3);
  CHECK(ccrc::max_depth(p.tree()) == 6);
  CHECK(ccrc::max_depth(ccrc::call_tree{}) == 0);
}

TEST_CASE("heights: a leaf has height 0, the root the maximum depth") {
  ccrc::profile p = test::figure1();
  std::vector<std::uint32_t> h = ccrc::heights(p.tree());
  CHECK(h[ccrc::root_node] == 6);
  CHECK(h[ccrc::node_at_path(p.tree(), "main")] == 5);
  CHECK(h[ccrc::node_at_path(p.tree(), "main;f")] == 4);
  CHECK(h[ccrc::node_at_path(p.tree(), "main;h")] == 1);
  CHECK(h[ccrc::node_at_path(p.tree(), "main;h;i")] == 0);
  CHECK(ccrc::heights(ccrc::call_tree{}) == std::vector<std::uint32_t>{0});
}

TEST_CASE("heights of a 1,000,000-deep chain: no recursion") {
  ccrc::call_tree t;
  ccrc::frame_id f = t.intern("f");
  ccrc::node_id n = ccrc::root_node;
  for (int i = 0; i < 1'000'000; ++i) n = t.find_or_add_child(n, f);
  std::vector<std::uint32_t> h = ccrc::heights(t);
  CHECK(h[ccrc::root_node] == 1'000'000);
  CHECK(h[n] == 0);
  CHECK(h[t.parent(n)] == 1);
}
