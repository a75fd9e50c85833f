#include <ccrc/algorithm/statistics.hpp>
#include <ccrc/transform/eliminate_recursion.hpp>

#include "support/chain.hpp"
#include "support/figure1.hpp"
#include "support/figure8.hpp"
#include "support/random.hpp"

#include <doctest/doctest.h>

#include <numeric>
#include <set>

namespace {

std::vector<double> totals(const ccrc::profile& p) {
  std::vector<double> out;
  p.for_each_column([&](std::string_view, auto c) { out.push_back(std::accumulate(c.begin(), c.end(), 0.0)); });
  return out;
}

// A profile of one stack sample per line, "a;b;c" with value 1 at the leaf.
ccrc::profile stacks(std::initializer_list<std::string_view> lines) {
  ccrc::profile p;
  for (auto line : lines) {
    std::vector<ccrc::frame_id> frames;
    for (const auto& f : test::split(line)) frames.push_back(p.intern(f));
    p.add_path(frames, std::vector<double>{1});
  }
  return p;
}

std::set<std::string> paths(const ccrc::profile& p) {
  std::set<std::string> out;
  for (ccrc::node_id n = 1; n < p.size(); ++n) out.insert(test::path_of(p.tree(), n));
  return out;
}

}  // namespace

TEST_CASE("Figure 7(a): Figure 1 without recursion has 12 nodes and depth 5") {
  ccrc::profile p = test::figure1();
  auto r = ccrc::eliminate_recursion(p);
  ccrc::tree_statistics s = ccrc::statistics(r.tree.tree());
  CHECK(s.nodes == 12);
  CHECK(s.max_depth == 5);
  for (std::string_view g : {"main;f;g", "main;g"}) {
    ccrc::node_id n = test::node_at(r.tree.tree(), g);
    CHECK(r.tree.column("calls")[n] == 30);
    CHECK(r.tree.column("bytecodes")[n] == 270);
    ccrc::node_id h = test::node_at(r.tree.tree(), std::string(g) + ";h");
    CHECK(r.tree.column("calls")[h] == 20);
    CHECK(r.tree.column("bytecodes")[h] == 120);
    ccrc::node_id i = test::node_at(r.tree.tree(), std::string(g) + ";h;i");
    CHECK(r.tree.column("calls")[i] == 20);
    CHECK(r.tree.column("bytecodes")[i] == 100);
  }
  CHECK(totals(r.tree) == std::vector<double>{345, 3238});
  // The recursive g under main;f;g maps to main;f;g.
  CHECK(r.node_map[test::node_at(p.tree(), "main;f;g;g")] == test::node_at(r.tree.tree(), "main;f;g"));
  CHECK(r.node_map[test::node_at(p.tree(), "main;f;g;g;h;i")] == test::node_at(r.tree.tree(), "main;f;g;h;i"));
}

TEST_CASE("the policies on A B C B D: Figure 8 gives A B D, direct recursion only keeps it") {
  ccrc::profile p = stacks({"A;B;C;B;D"});
  CHECK(paths(ccrc::eliminate_recursion(p).tree) == std::set<std::string>{"A", "A;B", "A;B;C", "A;B;D"});
  CHECK(paths(ccrc::eliminate_recursion(p, ccrc::recursion::direct).tree) ==
        std::set<std::string>{"A", "A;B", "A;B;C", "A;B;C;B", "A;B;C;B;D"});
}

TEST_CASE("direct recursion only: f -> f folds, f -> g -> f stays") {
  ccrc::profile p = stacks({"f;f;f;g;f;g;g", "f;f;h"});
  auto r = ccrc::eliminate_recursion(p, ccrc::recursion::direct);
  CHECK(paths(r.tree) == std::set<std::string>{"f", "f;g", "f;g;f", "f;g;f;g", "f;h"});
  CHECK(r.tree.column(0)[test::node_at(r.tree.tree(), "f;g;f;g")] == 1);
  CHECK(totals(r.tree) == totals(p));
}

TEST_CASE("equals the literal Figure 8 node for node on thousands of recursive random trees") {
  for (std::uint64_t seed = 1; seed <= 3000; ++seed) {
    test::rng r{seed};
    // Few methods and deep stacks: heavy direct and mutual recursion.
    ccrc::profile p = test::profile_of(test::random_samples(r, 1 + r.below(40), 2 + r.below(5), 3 + r.below(20)));
    auto fast = ccrc::eliminate_recursion(p);
    auto literal = test::figure8(p);
    REQUIRE(fast.tree.size() == literal.tree.size());
    for (ccrc::node_id n = 0; n < fast.tree.size(); ++n) {
      CHECK(fast.tree.tree().parent(n) == literal.tree.tree().parent(n));
      CHECK(fast.tree.tree().frame(n) == literal.tree.tree().frame(n));
    }
    CHECK(fast.node_map == literal.node_map);
    CHECK(test::canonical(fast.tree) == test::canonical(literal.tree));
  }
}

TEST_CASE("properties: totals kept, idempotent, no method twice on a path, depth <= methods") {
  for (std::uint64_t seed = 1; seed <= 1000; ++seed) {
    test::rng r{seed};
    std::uint32_t methods = 2 + r.below(6);
    ccrc::profile p = test::profile_of(test::random_samples(r, 1 + r.below(40), methods, 25));
    for (auto policy : {ccrc::recursion::all, ccrc::recursion::direct}) {
      auto once = ccrc::eliminate_recursion(p, policy);
      CHECK(totals(once.tree) == totals(p));
      auto twice = ccrc::eliminate_recursion(once.tree, policy);
      CHECK(test::canonical(twice.tree) == test::canonical(once.tree));
      const ccrc::call_tree& t = once.tree.tree();
      for (ccrc::node_id n = 1; n < t.size(); ++n) {
        CHECK(t.method(n) != 0);
        ccrc::node_id parent = t.parent(n);
        if (policy == ccrc::recursion::direct) {
          CHECK(t.method(parent) != t.method(n));
        } else {
          for (ccrc::node_id a = parent; a != ccrc::root_node; a = t.parent(a)) CHECK(t.method(a) != t.method(n));
        }
      }
      if (policy == ccrc::recursion::all) CHECK(ccrc::statistics(t).max_depth <= methods);
      for (ccrc::node_id n = 1; n < p.size(); ++n) CHECK(t.method(once.node_map[n]) == p.tree().method(n));
    }
  }
}

TEST_CASE("a chain of 1,000,000 nested calls of a 3-method cycle, without stack overflow") {
  test::calls_cct t = test::call_chain(1'000'000, {"a", "b", "c"});
  auto r = ccrc::eliminate_recursion(t);
  CHECK(r.tree.size() == 4);
  CHECK(ccrc::statistics(r.tree.tree()).max_depth == 3);
  CHECK(r.tree.get<"calls">(test::node_at(r.tree.tree(), "a")) == 333'334);
  CHECK(r.tree.get<"calls">(test::node_at(r.tree.tree(), "a;b;c")) == 333'333);
  CHECK(r.node_map.back() == test::node_at(r.tree.tree(), "a"));
}
