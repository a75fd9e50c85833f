#include <ccrc/algorithm/inclusive.hpp>
#include <ccrc/graph/bottom_up.hpp>
#include <ccrc/transform/invert.hpp>
#include <ccrc/tree/path.hpp>

#include "support/figure1.hpp"
#include "support/random.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace {

// Every node of the bottom-up tree grown to its end, by "f;g;h" chain, with its value.
std::map<std::string, double> grown(const ccrc::call_tree& t, std::span<const double> self) {
  std::map<std::string, double> out;
  std::vector<std::pair<std::string, ccrc::bottom_up_node>> stack;
  for (auto& r : ccrc::bottom_up_roots(t)) stack.emplace_back(std::string(t.symbols().method_name(r.function)), std::move(r));
  while (!stack.empty()) {
    auto [chain, n] = std::move(stack.back());
    stack.pop_back();
    out[chain] = n.value(self);
    for (auto& c : ccrc::bottom_up_callers(t, n))
      stack.emplace_back(chain + ";" + std::string(t.symbols().method_name(c.function)), std::move(c));
  }
  return out;
}

}  // namespace

TEST_CASE("bottom_up: Figure 1's functions by self cost, their callers below, as invert's tree") {
  ccrc::profile p = test::figure1();
  const ccrc::call_tree& t = p.tree();
  std::vector<double> bytecodes(p.column("bytecodes").begin(), p.column("bytecodes").end());
  auto roots = ccrc::bottom_up_roots(t);
  REQUIRE(roots.size() == 5);
  std::map<std::string, double> value;
  for (const auto& r : roots) {
    CHECK(r.depth == 0);
    CHECK(r.contexts == r.at);
    value[std::string(t.symbols().method_name(r.function))] = r.value(bytecodes);
  }
  CHECK(value == std::map<std::string, double>{{"main", 1066}, {"h", 792}, {"i", 660}, {"g", 540}, {"f", 180}});
  // i's six contexts are all called by h; h's by main (360), f (100) and g (200).
  auto i = *std::find_if(roots.begin(), roots.end(), [&](const auto& r) { return t.symbols().method_name(r.function) == "i"; });
  CHECK(i.contexts.size() == 6);
  auto h = ccrc::bottom_up_callers(t, i);
  REQUIRE(h.size() == 1);
  CHECK(t.symbols().method_name(h[0].function) == "h");
  CHECK(h[0].depth == 1);
  CHECK(h[0].value(bytecodes) == 660);
  CHECK(h[0].has_callers(t));
  auto callers = ccrc::bottom_up_callers(t, h[0]);
  std::map<std::string, double> of_h;
  for (const auto& c : callers) of_h[std::string(t.symbols().method_name(c.function))] = c.value(bytecodes);
  CHECK(of_h == std::map<std::string, double>{{"main", 360}, {"f", 100}, {"g", 200}});
  // i;h;main ends at the top-level frame: no callers.
  auto main = *std::find_if(callers.begin(), callers.end(), [&](const auto& c) { return t.symbols().method_name(c.function) == "main"; });
  CHECK_FALSE(main.has_callers(t));
  CHECK(ccrc::bottom_up_callers(t, main).empty());
  // Grown to the end, the same values as the inverted tree: "g;g;f;main" 90 among them.
  auto all = grown(t, bytecodes);
  CHECK(all["i;h;g;g"] == 100);
  CHECK(all["g;g;f;main"] == 90);
}

TEST_CASE("bottom_up agrees with invert on random trees: every chain, every value") {
  test::rng r(20261127);
  for (int trial = 0; trial < 100; ++trial) {
    ccrc::profile p = test::profile_of(test::random_samples(r, 60, 6, 8, 1), 1);
    const ccrc::call_tree& t = p.tree();
    std::vector<double> self(p.column(0).begin(), p.column(0).end());
    auto mine = grown(t, self);
    auto inverted = ccrc::invert(p);
    const ccrc::call_tree& u = inverted.output.tree();
    std::vector<double> ag = ccrc::inclusive(u, inverted.output.column(0));
    // invert adds only contexts with a value (and leaves); a chain of contexts without value
    // is one the bottom-up tree has with value 0.
    for (ccrc::node_id n = 1; n < u.size(); ++n) REQUIRE(mine.at(ccrc::path_string(u, n)) == ag[n]);
    for (const auto& [chain, v] : mine)
      if (v != 0) REQUIRE(ag[ccrc::node_at_path(u, chain)] == v);
  }
}

TEST_CASE("bottom_up: a 1,000,000-deep chain of one recursive function, read out a level at a time") {
  ccrc::call_tree t;
  ccrc::frame_id f = t.intern("f");
  ccrc::node_id n = ccrc::root_node;
  for (int i = 0; i < 1'000'000; ++i) n = t.find_or_add_child(n, f);
  std::vector<double> self(t.size(), 0.0);
  self[n] = 1;
  auto roots = ccrc::bottom_up_roots(t);
  REQUIRE(roots.size() == 1);
  CHECK(roots[0].contexts.size() == 1'000'000);
  CHECK(roots[0].value(self) == 1);
  // f;f: every context but the top-level one goes on, through f.
  auto callers = ccrc::bottom_up_callers(t, roots[0]);
  REQUIRE(callers.size() == 1);
  CHECK(callers[0].contexts.size() == 999'999);
  CHECK(callers[0].value(self) == 1);
}
