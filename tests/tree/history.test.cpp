#include <ccrc/algorithm/flat.hpp>
#include <ccrc/algorithm/statistics.hpp>
#include <ccrc/algorithm/inclusive.hpp>
#include <ccrc/transform/eliminate_recursion.hpp>
#include <ccrc/tree/history.hpp>

#include "support/figure1.hpp"

#include <doctest/doctest.h>

TEST_CASE("history: select, select, back, back, back at root") {
  ccrc::profile p = test::figure1();
  const ccrc::call_tree& t = p.tree();
  ccrc::node_id f = ccrc::node_at_path(t, "main;f"), g = ccrc::node_at_path(t, "main;f;g");
  ccrc::view_history h(t);
  CHECK(h.center() == ccrc::root_node);
  CHECK(h.steps() == 0);

  ccrc::tree_view v = h.select(f);
  CHECK(v.root() == f);
  CHECK(ccrc::statistics(v).nodes == 9);  // Figure 4(a)
  v = h.select(g);
  CHECK(v.root() == g);
  CHECK(h.steps() == 2);
  CHECK(std::vector<ccrc::node_id>(h.centers().begin(), h.centers().end()) ==
        std::vector<ccrc::node_id>{ccrc::root_node, f, g});

  CHECK(h.back());
  CHECK(h.center() == f);
  CHECK(h.back());
  CHECK(h.center() == ccrc::root_node);
  CHECK_FALSE(h.back());  // at the overall root: nothing happens
  CHECK(h.center() == ccrc::root_node);
  CHECK(h.steps() == 0);
}

TEST_CASE("history: selecting the center goes back; at the overall root it does nothing") {
  ccrc::profile p = test::figure1();
  ccrc::node_id main = ccrc::node_at_path(p.tree(), "main"), h_node = ccrc::node_at_path(p.tree(), "main;h");
  // The viewer of the papers' case studies: main in the center, 10 levels.
  ccrc::view_history h{ccrc::tree_view(p.tree(), main, 10)};
  CHECK(h.select(main).root() == main);  // the overall center: no effect
  CHECK(h.steps() == 0);
  CHECK(h.select(h_node).root() == h_node);
  CHECK(h.current().max_depth() == 10);
  CHECK(h.select(h_node).root() == main);  // clicking the center restores the previous view
  CHECK(h.steps() == 0);
}

TEST_CASE("history: the depth limit is kept across moves; aggregated metrics are the whole tree's") {
  ccrc::profile p = test::figure1();
  const ccrc::call_tree& t = p.tree();
  std::vector<double> ag = ccrc::inclusive(t, p.column("bytecodes"));
  ccrc::view_history h(t);
  h.limit_depth(1);
  ccrc::tree_view v = h.select(ccrc::node_at_path(t, "main;f"));
  CHECK(v.max_depth() == 1);
  CHECK(ccrc::statistics(v).nodes == 3);  // f, f;g, f;h
  CHECK(ag[v.root()] == 890);             // ag(f) of the complete tree, not of the cut view
  // The pie of the selected subtree (Figure 4(c) for f), over the cut view: f, g and h only.
  auto pie = ccrc::flat(v, p.column("bytecodes"));
  REQUIRE(pie.size() == 3);
  CHECK(pie[0].self == 180);
  h.back();
  CHECK(h.current().max_depth() == 1);
}

TEST_CASE("history: follows recursion elimination to the contexts the centers went to") {
  ccrc::profile p = test::figure1();
  ccrc::view_history h{ccrc::tree_view(p.tree())};
  h.select(ccrc::node_at_path(p.tree(), "main;g"));
  h.select(ccrc::node_at_path(p.tree(), "main;g;g"));
  h.select(ccrc::node_at_path(p.tree(), "main;g;g;h"));
  auto r = ccrc::eliminate_recursion(p);
  h.follow(r.output.tree(), r.node_map);
  const ccrc::call_tree& out = r.output.tree();
  // main;g;g folded into main;g: the two equal centers became one.
  CHECK(std::vector<ccrc::node_id>(h.centers().begin(), h.centers().end()) ==
        std::vector<ccrc::node_id>{ccrc::root_node, ccrc::node_at_path(out, "main;g"), ccrc::node_at_path(out, "main;g;h")});
  CHECK(&h.current().tree() == &out);
}

TEST_CASE("history: a center the transform dropped moves to its nearest kept caller") {
  ccrc::profile p = test::figure1();
  ccrc::view_history h{ccrc::tree_view(p.tree())};
  h.select(ccrc::node_at_path(p.tree(), "main;f"));
  h.select(ccrc::node_at_path(p.tree(), "main;f;g;h;i"));
  std::vector<ccrc::node_id> map(p.size(), ccrc::null_node);  // a transform that kept main;f only
  map[ccrc::node_at_path(p.tree(), "main;f")] = 1;
  ccrc::profile to;
  to.add_path(std::vector<ccrc::frame_id>{to.intern("f")});
  h.follow(to.tree(), map);
  CHECK(std::vector<ccrc::node_id>(h.centers().begin(), h.centers().end()) ==
        std::vector<ccrc::node_id>{ccrc::root_node, 1});
}

TEST_CASE("history: a million selections and backs") {
  ccrc::call_tree t;
  std::vector<ccrc::frame_id> stack(1'000'000, t.intern("r"));
  t.add_path(stack);
  ccrc::view_history h(t);
  for (ccrc::node_id n = 1; n < t.size(); ++n) h.select(n);
  CHECK(h.steps() == 1'000'000);
  CHECK(h.current().level(static_cast<ccrc::node_id>(t.size() - 1)) == 0);
  while (h.back()) {
  }
  CHECK(h.center() == ccrc::root_node);
}
