#include <ccrc/io/folded.hpp>
#include <ccrc/transform/subtree.hpp>
#include <ccrc/tree/path.hpp>

#include <doctest/doctest.h>

#include <string>
#include <vector>

TEST_CASE("subtree_profile makes a context's callees top-level and its own metrics the root's") {
  // main 1/10; main;f 3/30; main;f;g 4/40; main;f;g;h 5/50; main;k 6/60; other;f 7/70.
  ccrc::profile p = ccrc::read_folded(
      "# metrics: a b\nmain 1 10\nmain;f 3 30\nmain;f;g 4 40\nmain;f;g;h 5 50\nmain;k 6 60\nother;f 7 70\n");
  ccrc::profile f = ccrc::subtree_profile(p, ccrc::node_at_path(p.tree(), "main;f"));
  CHECK(f.metric_names() == std::vector<std::string>{"a", "b"});
  CHECK(f.size() == 3);  // root (main;f), g, g;h: main's k and other;f are left out
  const ccrc::node_id g = ccrc::node_at_path(f.tree(), "g");
  const ccrc::node_id h = ccrc::node_at_path(f.tree(), "g;h");
  CHECK(f.column("a")[ccrc::root_node] == 3);
  CHECK(f.column("b")[ccrc::root_node] == 30);
  CHECK(f.column("a")[g] == 4);
  CHECK(f.column("b")[h] == 50);
  CHECK(f.tree().parent(h) == g);
  // A top-level context: main's subtree holds f, f;g, f;g;h and k, 1 on its root.
  ccrc::profile m = ccrc::subtree_profile(p, ccrc::node_at_path(p.tree(), "main"));
  CHECK(m.size() == 5);
  CHECK(m.column("a")[ccrc::root_node] == 1);
  CHECK(m.column("a")[ccrc::node_at_path(m.tree(), "k")] == 6);
  // The root's subtree is the whole profile.
  CHECK(ccrc::subtree_profile(p, ccrc::root_node).size() == p.size());
}

TEST_CASE("subtree_profile keeps call sites, so frames of one name at two sites stay apart") {
  ccrc::profile p({"n"});
  const ccrc::frame_id top = p.symbols().intern("t");
  const ccrc::node_id t = p.find_or_add_child(ccrc::root_node, top);
  const ccrc::node_id at1 = p.find_or_add_child(t, p.symbols().intern("f", 1));
  const ccrc::node_id at2 = p.find_or_add_child(t, p.symbols().intern("f", 2));
  p.column(0)[at1] = 1;
  p.column(0)[at2] = 2;
  ccrc::profile s = ccrc::subtree_profile(p, t);
  REQUIRE(s.size() == 3);
  CHECK(s.symbols().site(s.tree().frame(1)) == 1);
  CHECK(s.symbols().site(s.tree().frame(2)) == 2);
  CHECK(s.column(0)[1] == 1);
  CHECK(s.column(0)[2] == 2);
}

TEST_CASE("subtree_profile of a 10^6-deep chain goes without recursion") {
  ccrc::profile p({"n"});
  ccrc::node_id n = ccrc::root_node;
  for (int i = 0; i < 1'000'000; ++i) n = p.find_or_add_child(n, p.symbols().intern("f"));
  p.column(0)[n] = 1;
  ccrc::profile s = ccrc::subtree_profile(p, 1);
  CHECK(s.size() == 1'000'000);
  CHECK(s.column(0)[s.size() - 1] == 1);
}
