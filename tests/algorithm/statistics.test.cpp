#include <ccrc/algorithm/statistics.hpp>

#include "support/figure1.hpp"

#include <doctest/doctest.h>

TEST_CASE("Figure 1: 18 calling contexts, depth 6, 5 methods") {
  ccrc::profile p = test::figure1();
  ccrc::tree_statistics s = ccrc::statistics(p.tree());
  CHECK(s.nodes == 18);
  CHECK(s.max_depth == 6);
  CHECK(s.methods == 5);
}

TEST_CASE("an empty tree has no calling context, depth 0 and no method") {
  ccrc::tree_statistics s = ccrc::statistics(ccrc::call_tree{});
  CHECK(s.nodes == 0);
  CHECK(s.max_depth == 0);
  CHECK(s.methods == 0);
}

TEST_CASE("statistics of views: the subtree of f, and the tree cut at depth 3") {
  ccrc::profile p = test::figure1();
  ccrc::tree_view whole(p.tree());
  ccrc::tree_statistics f = ccrc::statistics(whole.subtree(ccrc::node_at_path(p.tree(), "main;f")));
  CHECK(f.nodes == 9);
  CHECK(f.max_depth == 5);  // f, g, g, h, i
  CHECK(f.methods == 4);
  ccrc::tree_statistics cut = ccrc::statistics(whole.limit_depth(3));
  CHECK(cut.nodes == 9);
  CHECK(cut.max_depth == 3);
  CHECK(cut.methods == 5);
}

TEST_CASE("interned but unused names are not counted as methods") {
  ccrc::call_tree t;
  t.intern("never_called");
  t.find_or_add_child(ccrc::root_node, t.intern("main"));
  CHECK(ccrc::statistics(t).methods == 1);
}
