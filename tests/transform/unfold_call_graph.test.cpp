#include <ccrc/transform/unfold_call_graph.hpp>

#include "support/random.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <numeric>
#include <vector>

namespace {

constexpr std::uint32_t none = ccrc::unfolded_call_graph::no_function;
constexpr ccrc::node_id null = ccrc::null_node;

}  // namespace

TEST_CASE("unfold_call_graph: a chain is its own tree, each context its function's self cost") {
  ccrc::unfolded_call_graph t = ccrc::unfold_call_graph({.functions = 3, .events = 1, .caller = {0, 1}, .callee = {1, 2},
                                                         .edge_cost = {10, 4}, .self_function = {0, 1, 2},
                                                         .self_cost = {1, 6, 4}});
  CHECK(t.parent == std::vector<ccrc::node_id>{null, 0, 1, 2});
  CHECK(t.function == std::vector<std::uint32_t>{none, 0, 1, 2});
  CHECK(t.cost == std::vector<std::uint64_t>{0, 1, 6, 4});
}

TEST_CASE("unfold_call_graph: a diamond splits the shared callee by the cost flowing into each context") {
  // main (0) calls a (1) for 10 and b (2) for 20; a calls c (3) for 1, b calls c for 2; self
  // costs a 9, b 18, c 10. Topological order main, b, a, c (the search's finishing order
  // reversed), so c's contexts are made under b first (weight 2), then under a (weight 1).
  // c's 10 in proportion 2 : 1: floors 6 and 3 (remainders 2 and 1), the 1 left to the
  // larger remainder: 7 under b, 3 under a.
  ccrc::unfolded_call_graph t =
      ccrc::unfold_call_graph({.functions = 4, .events = 1, .caller = {0, 0, 1, 2}, .callee = {1, 2, 3, 3},
                               .edge_cost = {10, 20, 1, 2}, .self_function = {1, 2, 3}, .self_cost = {9, 18, 10}});
  CHECK(t.parent == std::vector<ccrc::node_id>{null, 0, 1, 1, 3, 2});
  CHECK(t.function == std::vector<std::uint32_t>{none, 0, 1, 2, 3, 3});
  CHECK(t.cost == std::vector<std::uint64_t>{0, 0, 9, 18, 7, 3});
  // Equal weights (2 : 2) and 3 to split: 1 each, the 1 left to the earlier context (under b).
  ccrc::unfolded_call_graph tie =
      ccrc::unfold_call_graph({.functions = 4, .events = 1, .caller = {0, 0, 1, 2}, .callee = {1, 2, 3, 3},
                               .edge_cost = {10, 20, 2, 2}, .self_function = {1, 2, 3}, .self_cost = {8, 18, 3}});
  CHECK(tie.cost == std::vector<std::uint64_t>{0, 0, 8, 18, 2, 1});
}

TEST_CASE("unfold_call_graph: recursion and cycles are cut, repeated edges merged") {
  // main (0) -> f (1) 5; f -> f 3 (recursion: cut); f -> g (2) 2; g -> f 1 (f is on the
  // search path: cut). The rest is a chain.
  ccrc::unfolded_call_graph t = ccrc::unfold_call_graph({.functions = 3, .events = 1, .caller = {0, 1, 1, 2},
                                                         .callee = {1, 1, 2, 1}, .edge_cost = {5, 3, 2, 1},
                                                         .self_function = {0, 1, 2}, .self_cost = {1, 2, 2}});
  CHECK(t.parent == std::vector<ccrc::node_id>{null, 0, 1, 2});
  CHECK(t.function == std::vector<std::uint32_t>{none, 0, 1, 2});
  CHECK(t.cost == std::vector<std::uint64_t>{0, 1, 2, 2});
  // main -> f given twice (3, then 4): one context; f's self cost in two parts, added.
  ccrc::unfolded_call_graph twice = ccrc::unfold_call_graph({.functions = 2, .events = 2, .caller = {0, 0},
                                                             .callee = {1, 1}, .edge_cost = {3, 30, 4, 40},
                                                             .self_function = {1, 0, 1}, .self_cost = {5, 50, 1, 10, 2, 20}});
  CHECK(twice.parent == std::vector<ccrc::node_id>{null, 0, 1});
  CHECK(twice.cost == std::vector<std::uint64_t>{0, 0, 1, 10, 7, 70});
}

TEST_CASE("unfold_call_graph: an event no context carries splits by the first that does; none: all to the first") {
  // c (3) is called by a (1) and b (2) with event 0 costs 1 and 3 and event 1 costs 0: its
  // event 1 self cost 8 splits 1 : 3 as event 0's 4 does (1 and 3): 2 and 6.
  ccrc::unfolded_call_graph t = ccrc::unfold_call_graph(
      {.functions = 4, .events = 2, .caller = {0, 0, 1, 2}, .callee = {1, 2, 3, 3},
       .edge_cost = {1, 0, 3, 0, 1, 0, 3, 0}, .self_function = {3}, .self_cost = {4, 8}});
  CHECK(t.function == std::vector<std::uint32_t>{none, 0, 1, 2, 3, 3});
  CHECK(t.parent == std::vector<ccrc::node_id>{null, 0, 1, 1, 3, 2});  // c under b first (the order)
  CHECK(t.cost == std::vector<std::uint64_t>{0, 0, 0, 0, 0, 0, 0, 0, 3, 6, 1, 2});
}

TEST_CASE("unfold_call_graph: sums above 2^53 and too many contexts are refused") {
  constexpr std::uint64_t half = std::uint64_t{1} << 52;
  // A repeated edge: no part named.
  try {
    (void)ccrc::unfold_call_graph({.functions = 2, .caller = {0, 0}, .callee = {1, 1}, .edge_cost = {half + 1, half}});
    FAIL("no cost_overflow");
  } catch (const ccrc::cost_overflow& e) {
    CHECK(e.part == ccrc::cost_overflow::no_part);
  }
  // Self costs: the part that overflows (2^53 itself is held).
  CHECK(ccrc::unfold_call_graph({.functions = 1, .self_function = {0, 0}, .self_cost = {half, half}}).cost ==
        std::vector<std::uint64_t>{0, 2 * half});
  try {
    (void)ccrc::unfold_call_graph({.functions = 1, .self_function = {0, 0, 0}, .self_cost = {half, half, 1}});
    FAIL("no cost_overflow");
  } catch (const ccrc::cost_overflow& e) {
    CHECK(e.part == 2);
  }
  // A chain of 3 functions: 3 contexts besides the root.
  ccrc::cost_call_graph chain{.functions = 3, .caller = {0, 1}, .callee = {1, 2}, .edge_cost = {2, 1},
                              .self_function = {0, 1, 2}, .self_cost = {1, 1, 1}};
  CHECK(ccrc::unfold_call_graph(chain, {.max_contexts = 3}).parent.size() == 4);
  CHECK_THROWS_AS((void)ccrc::unfold_call_graph(chain, {.max_contexts = 2}), ccrc::capacity_error);
}

TEST_CASE("unfold_call_graph: a 1,000,000-deep chain unfolds without recursion") {
  constexpr std::uint32_t n = 1'000'000;
  ccrc::cost_call_graph g{.functions = n};
  for (std::uint32_t f = 0; f + 1 < n; ++f) {
    g.caller.push_back(f);
    g.callee.push_back(f + 1);
    g.edge_cost.push_back(n - 1 - f);
  }
  g.self_function.resize(n);
  std::iota(g.self_function.begin(), g.self_function.end(), 0u);
  g.self_cost.assign(n, 1);
  ccrc::unfolded_call_graph t = ccrc::unfold_call_graph(std::move(g));
  REQUIRE(t.parent.size() == n + 1);
  CHECK(t.parent[n] == n - 1);
  CHECK(t.function[n] == n - 1);
  CHECK(std::accumulate(t.cost.begin(), t.cost.end(), std::uint64_t{0}) == n);
}

TEST_CASE("unfold_call_graph: on random graphs, every event's self costs are conserved, no path repeats a function") {
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    CAPTURE(seed);
    test::rng r{seed};
    const std::uint32_t functions = 1 + r.below(25);
    const std::size_t events = 1 + r.below(3);
    ccrc::cost_call_graph g{.functions = functions, .events = events};
    const std::uint32_t edges = r.below(4 * functions);
    for (std::uint32_t i = 0; i < edges; ++i) {
      g.caller.push_back(r.below(functions));
      g.callee.push_back(r.below(functions));
      for (std::size_t e = 0; e < events; ++e) g.edge_cost.push_back(r.chance(0.2) ? 0 : r.below(1000));
    }
    std::vector<std::uint64_t> expected(events, 0);
    const std::uint32_t parts = r.below(3 * functions);
    for (std::uint32_t i = 0; i < parts; ++i) {
      g.self_function.push_back(r.below(functions));
      for (std::size_t e = 0; e < events; ++e) {
        const std::uint64_t v = r.chance(0.3) ? 0 : r.below(100000);
        g.self_cost.push_back(v);
        expected[e] += v;
      }
    }
    ccrc::unfolded_call_graph t = ccrc::unfold_call_graph(std::move(g));
    const std::size_t n = t.parent.size();
    REQUIRE(t.function.size() == n);
    REQUIRE(t.cost.size() == n * events);
    std::vector<std::uint64_t> got(events, 0);
    for (std::size_t c = 0; c < n; ++c)
      for (std::size_t e = 0; e < events; ++e) got[e] += t.cost[c * events + e];
    CHECK(got == expected);
    for (ccrc::node_id c = 1; c < n; ++c) {
      REQUIRE(t.parent[c] < c);
      CHECK(t.function[c] < functions);
      for (ccrc::node_id a = t.parent[c]; a != 0; a = t.parent[a]) CHECK(t.function[a] != t.function[c]);
    }
  }
}
