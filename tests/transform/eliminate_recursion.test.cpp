#include <ccrc/algorithm/flat.hpp>
#include <ccrc/algorithm/statistics.hpp>
#include <ccrc/transform/eliminate_recursion.hpp>

#include "support/chain.hpp"
#include "support/figure1.hpp"
#include "support/figure8.hpp"
#include "support/paths.hpp"
#include "support/random.hpp"

#include <doctest/doctest.h>

#include <numeric>
#include <set>

namespace {

// A profile of one stack sample per line, "a;b;c" with value 1 at the leaf.
ccrc::profile stacks(std::initializer_list<std::string_view> lines) {
  ccrc::profile p;
  for (auto line : lines) test::add_stack(p, line, {1});
  return p;
}

// The reference for `direct` and `drop_repeats`, one path at a time: the path of every node
// with consecutive repeats (direct) or every repeat (drop_repeats) of a method removed; a
// node's metrics go to the prefix of that path ending at its method's kept occurrence.
test::canonical_form reference(const ccrc::profile& p, ccrc::recursion policy) {
  test::canonical_form out;
  for (ccrc::node_id n = 0; n < p.size(); ++n) {
    std::vector<std::string> kept;
    for (const auto& name : test::split(ccrc::path_string(p.tree(), n))) {
      bool repeat = policy == ccrc::recursion::direct ? !kept.empty() && kept.back() == name
                                                      : std::find(kept.begin(), kept.end(), name) != kept.end();
      if (!repeat) kept.push_back(name);
    }
    std::string own(p.tree().name(n));
    std::size_t at = n == ccrc::root_node ? 0 : std::size_t(std::find(kept.begin(), kept.end(), own) - kept.begin()) + 1;
    if (policy == ccrc::recursion::direct) at = kept.size();
    out.try_emplace(test::joined(kept), std::vector<double>(p.metric_count(), 0.0));
    auto& values = out.try_emplace(test::joined(kept, at), std::vector<double>(p.metric_count(), 0.0)).first->second;
    for (std::size_t i = 0; i < p.metric_count(); ++i) values[i] += p.column(i)[n];
  }
  return out;
}

constexpr ccrc::recursion policies[] = {ccrc::recursion::all, ccrc::recursion::direct, ccrc::recursion::drop_repeats};

}  // namespace

TEST_CASE("Figure 7(a): Figure 1 without recursion has 12 nodes and depth 5") {
  ccrc::profile p = test::figure1();
  auto r = ccrc::eliminate_recursion(p);
  ccrc::tree_statistics s = ccrc::statistics(r.output.tree());
  CHECK(s.nodes == 12);
  CHECK(s.max_depth == 5);
  for (std::string_view g : {"main;f;g", "main;g"}) {
    ccrc::node_id n = ccrc::node_at_path(r.output.tree(), g);
    CHECK(r.output.column("calls")[n] == 30);
    CHECK(r.output.column("bytecodes")[n] == 270);
    ccrc::node_id h = ccrc::node_at_path(r.output.tree(), std::string(g) + ";h");
    CHECK(r.output.column("calls")[h] == 20);
    CHECK(r.output.column("bytecodes")[h] == 120);
    ccrc::node_id i = ccrc::node_at_path(r.output.tree(), std::string(g) + ";h;i");
    CHECK(r.output.column("calls")[i] == 20);
    CHECK(r.output.column("bytecodes")[i] == 100);
  }
  CHECK(test::totals(r.output) == std::vector<double>{345, 3238});
  // The recursive g under main;f;g maps to main;f;g.
  CHECK(r.node_map[ccrc::node_at_path(p.tree(), "main;f;g;g")] == ccrc::node_at_path(r.output.tree(), "main;f;g"));
  CHECK(r.node_map[ccrc::node_at_path(p.tree(), "main;f;g;g;h;i")] == ccrc::node_at_path(r.output.tree(), "main;f;g;h;i"));
}

TEST_CASE("the policies on A B C B D: Figure 8 gives A B D, drop_repeats A B C D, direct keeps it") {
  ccrc::profile p = stacks({"A;B;C;B;D", "A;B;C;B"});
  CHECK(test::context_paths(ccrc::eliminate_recursion(p).output) == std::set<std::string>{"A", "A;B", "A;B;C", "A;B;D"});
  CHECK(test::context_paths(ccrc::eliminate_recursion(p, ccrc::recursion::direct).output) ==
        std::set<std::string>{"A", "A;B", "A;B;C", "A;B;C;B", "A;B;C;B;D"});
  auto r = ccrc::eliminate_recursion(p, ccrc::recursion::drop_repeats);
  CHECK(test::context_paths(r.output) == std::set<std::string>{"A", "A;B", "A;B;C", "A;B;C;D"});
  // The inner B's own sample goes to the outer B (per method), not to its caller C.
  CHECK(r.output.column(0)[ccrc::node_at_path(r.output.tree(), "A;B")] == 1);
  CHECK(r.output.column(0)[ccrc::node_at_path(r.output.tree(), "A;B;C")] == 0);
  CHECK(r.output.column(0)[ccrc::node_at_path(r.output.tree(), "A;B;C;D")] == 1);
  CHECK(r.node_map[ccrc::node_at_path(p.tree(), "A;B;C;B")] == ccrc::node_at_path(r.output.tree(), "A;B"));
  CHECK(r.node_map[ccrc::node_at_path(p.tree(), "A;B;C;B;D")] == ccrc::node_at_path(r.output.tree(), "A;B;C;D"));
}

TEST_CASE("drop_repeats on Figure 1: g;g and g;h;i fold, per-method self kept") {
  ccrc::profile p = test::figure1();
  auto r = ccrc::eliminate_recursion(p, ccrc::recursion::drop_repeats);
  // Figure 1 only recurses directly (g -> g), where dropping the repeat and Figure 8 agree.
  CHECK(test::canonical(r.output) == test::canonical(ccrc::eliminate_recursion(p).output));
  CHECK(ccrc::statistics(r.output.tree()).nodes == 12);
  CHECK(r.output.column("bytecodes")[ccrc::node_at_path(r.output.tree(), "main;f;g")] == 270);
}

TEST_CASE("direct recursion only: f -> f folds, f -> g -> f stays") {
  ccrc::profile p = stacks({"f;f;f;g;f;g;g", "f;f;h"});
  auto r = ccrc::eliminate_recursion(p, ccrc::recursion::direct);
  CHECK(test::context_paths(r.output) == std::set<std::string>{"f", "f;g", "f;g;f", "f;g;f;g", "f;h"});
  CHECK(r.output.column(0)[ccrc::node_at_path(r.output.tree(), "f;g;f;g")] == 1);
  CHECK(test::totals(r.output) == test::totals(p));
}

TEST_CASE("equals the literal Figure 8 node for node on thousands of recursive random trees") {
  for (std::uint64_t seed = 1; seed <= 3000; ++seed) {
    test::rng r{seed};
    // Few methods and deep stacks: heavy direct and mutual recursion.
    ccrc::profile p = test::profile_of(test::random_samples(r, 1 + r.below(40), 2 + r.below(5), 3 + r.below(20)));
    auto fast = ccrc::eliminate_recursion(p);
    auto literal = test::figure8(p);
    REQUIRE(fast.output.size() == literal.output.size());
    for (ccrc::node_id n = 0; n < fast.output.size(); ++n) {
      CHECK(fast.output.tree().parent(n) == literal.output.tree().parent(n));
      CHECK(fast.output.tree().frame(n) == literal.output.tree().frame(n));
    }
    CHECK(fast.node_map == literal.node_map);
    CHECK(test::canonical(fast.output) == test::canonical(literal.output));
  }
}

TEST_CASE("direct and drop_repeats equal their path-by-path reference on recursive random trees") {
  for (std::uint64_t seed = 1; seed <= 1000; ++seed) {
    test::rng r{seed};
    ccrc::profile p = test::profile_of(test::random_samples(r, 1 + r.below(40), 2 + r.below(5), 3 + r.below(20)));
    for (auto policy : {ccrc::recursion::direct, ccrc::recursion::drop_repeats})
      CHECK(test::canonical(ccrc::eliminate_recursion(p, policy).output) == reference(p, policy));
  }
}

TEST_CASE("every policy: totals kept, self kept per method, idempotent, no method twice on a path") {
  for (std::uint64_t seed = 1; seed <= 1000; ++seed) {
    test::rng r{seed};
    std::uint32_t methods = 2 + r.below(6);
    ccrc::profile p = test::profile_of(test::random_samples(r, 1 + r.below(40), methods, 25));
    for (auto policy : policies) {
      auto once = ccrc::eliminate_recursion(p, policy);
      CHECK(test::totals(once.output) == test::totals(p));
      for (std::size_t i = 0; i < p.metric_count(); ++i) {
        // Per method: the flat profile is unchanged (names, since the ids are shared).
        CHECK(ccrc::per_method(ccrc::tree_view(once.output.tree()), once.output.column(i)) ==
              ccrc::per_method(ccrc::tree_view(p.tree()), p.column(i)));
      }
      auto twice = ccrc::eliminate_recursion(once.output, policy);
      CHECK(test::canonical(twice.output) == test::canonical(once.output));
      const ccrc::call_tree& t = once.output.tree();
      for (ccrc::node_id n = 1; n < t.size(); ++n) {
        CHECK(t.method(n) != 0);
        ccrc::node_id parent = t.parent(n);
        if (policy == ccrc::recursion::direct) {
          CHECK(t.method(parent) != t.method(n));
        } else {
          for (ccrc::node_id a = parent; a != ccrc::root_node; a = t.parent(a)) CHECK(t.method(a) != t.method(n));
        }
      }
      if (policy != ccrc::recursion::direct) CHECK(ccrc::statistics(t).max_depth <= methods);
      if (policy != ccrc::recursion::all) CHECK(ccrc::statistics(t).max_depth <= ccrc::statistics(p.tree()).max_depth);
      for (ccrc::node_id n = 1; n < p.size(); ++n) CHECK(t.method(once.node_map[n]) == p.tree().method(n));
    }
  }
}

TEST_CASE("every policy leaves a tree without recursion as it was") {
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    test::rng r{seed};
    // 30 methods, stacks of distinct methods: no recursion of any kind.
    auto samples = test::random_samples(r, 1 + r.below(40), 30, 12);
    for (auto& s : samples) {
      std::vector<std::string> distinct;
      for (auto& f : s.frames)
        if (std::find(distinct.begin(), distinct.end(), f) == distinct.end()) distinct.push_back(f);
      s.frames = distinct;
    }
    ccrc::profile p = test::profile_of(samples);
    for (auto policy : policies) CHECK(test::canonical(ccrc::eliminate_recursion(p, policy).output) == test::canonical(p));
  }
}

TEST_CASE("a chain of 1,000,000 nested calls of a 3-method cycle, without stack overflow") {
  test::calls_cct t = test::call_chain(1'000'000, {"a", "b", "c"});
  auto r = ccrc::eliminate_recursion(t);
  CHECK(r.output.size() == 4);
  CHECK(ccrc::statistics(r.output.tree()).max_depth == 3);
  CHECK(r.output.get<"calls">(ccrc::node_at_path(r.output.tree(), "a")) == 333'334);
  CHECK(r.output.get<"calls">(ccrc::node_at_path(r.output.tree(), "a;b;c")) == 333'333);
  CHECK(r.node_map.back() == ccrc::node_at_path(r.output.tree(), "a"));
  auto dropped = ccrc::eliminate_recursion(t, ccrc::recursion::drop_repeats);
  CHECK(dropped.output.size() == 4);
  CHECK(dropped.output.get<"calls">(ccrc::node_at_path(dropped.output.tree(), "a")) == 333'334);
  CHECK(dropped.output.get<"calls">(ccrc::node_at_path(dropped.output.tree(), "a;b;c")) == 333'333);
  auto direct = ccrc::eliminate_recursion(t, ccrc::recursion::direct);
  CHECK(direct.output.size() == t.size());
  CHECK(ccrc::statistics(direct.output.tree()).max_depth == 1'000'000);
}
