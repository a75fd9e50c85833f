#include <ccrc/algorithm/flat.hpp>
#include <ccrc/algorithm/inclusive.hpp>
#include <ccrc/algorithm/statistics.hpp>
#include <ccrc/transform/invert.hpp>

#include "support/figure1.hpp"
#include "support/paths.hpp"

#include <doctest/doctest.h>

#include <algorithm>

TEST_CASE("the inverted Figure 1: methods at the top with their self cost, callers below") {
  ccrc::profile p = test::figure1();
  auto r = ccrc::invert(p);
  const ccrc::call_tree& t = r.output.tree();
  std::vector<double> ag = ccrc::inclusive(t, r.output.column("bytecodes"));
  // Each top-level method's ag is its flat profile entry (Figure 4(c)); below, its callers.
  const std::pair<const char*, double> expected[] = {
      {"main", 1066},    {"h", 792},     {"i", 660},     {"g", 540},       {"f", 180},         {"i;h", 660},
      {"i;h;main", 360}, {"i;h;f", 100}, {"i;h;g", 200}, {"i;h;g;g", 100}, {"g;g;f;main", 90}};
  for (const auto& e : expected) CHECK_MESSAGE(ag[ccrc::node_at_path(t, e.first)] == e.second, e.first);
  CHECK(ag[ccrc::root_node] == 3238);
  // A node's metrics go to the end of its reversed stack.
  CHECK(r.node_map[ccrc::node_at_path(p.tree(), "main;f;g;g;h")] == ccrc::node_at_path(t, "h;g;g;f;main"));
  CHECK(r.output.column("calls")[ccrc::node_at_path(t, "h;g;g;f;main")] == 10);
  CHECK(r.output.column("calls")[ccrc::node_at_path(t, "h;g;g;f")] == 0);
}

TEST_CASE("invert with a depth limit: ag above the cut unchanged") {
  ccrc::profile p = test::figure1();
  auto full = ccrc::invert(p);
  auto cut = ccrc::invert(p, 2);
  CHECK(ccrc::statistics(cut.output.tree()).max_depth == 2);
  std::vector<double> ag_full = ccrc::inclusive(full.output.tree(), full.output.column("bytecodes"));
  std::vector<double> ag_cut = ccrc::inclusive(cut.output.tree(), cut.output.column("bytecodes"));
  for (std::string_view path : {"i", "i;h", "g", "g;g", "g;f", "h;main"})
    CHECK(ag_cut[ccrc::node_at_path(cut.output.tree(), path)] == ag_full[ccrc::node_at_path(full.output.tree(), path)]);
  CHECK(cut.output.column("bytecodes")[ccrc::node_at_path(cut.output.tree(), "i;h")] == 660);
}

TEST_CASE("invert equals its path-by-path reference; top-level ag is the flat profile") {
  using path = std::vector<std::string>;
  for (std::uint64_t seed = 1; seed <= 500; ++seed) {
    test::rng r{seed};
    ccrc::profile p = test::random_profile(r);
    std::uint32_t limit = seed % 3 == 0 ? 1 + r.below(4) : ccrc::unlimited_depth;
    auto inv = ccrc::invert(p, limit);
    test::check_rule(p, inv, [&](const path& f, ccrc::node_id n) -> std::optional<path> {
      bool zero = p.column(0)[n] == 0 && p.column(1)[n] == 0;
      if (n != ccrc::root_node && zero && p.tree().has_children(n)) return std::nullopt;
      path reversed(f.rbegin(), f.rend());
      if (reversed.size() > limit) reversed.resize(limit);
      return reversed;
    });
    const ccrc::call_tree& t = inv.output.tree();
    std::vector<double> ag = ccrc::inclusive(t, inv.output.column(0));
    for (const auto& e : ccrc::flat(ccrc::tree_view(p.tree()), p.column(0))) {
      if (e.method == 0) continue;
      auto f = t.symbols().find(p.symbols().method_name(e.method));
      REQUIRE(f.has_value());
      ccrc::node_id top = t.find_child(ccrc::root_node, *f);
      CHECK((top == ccrc::null_node ? 0.0 : ag[top]) == e.self);
    }
  }
}

TEST_CASE("invert a chain of 1,000,000 calls, iteratively") {
  ccrc::cct<ccrc::metric<"calls">> t;
  std::vector<ccrc::frame_id> stack;
  for (int i = 0; i < 1'000'000; ++i) stack.push_back(t.intern(i % 2 ? "odd" : "even"));
  t.add_path(stack, 3);
  auto r = ccrc::invert(t);
  CHECK(r.output.size() == 1'000'001);
  CHECK(r.output.tree().name(1) == "odd");
  CHECK(r.output.get<"calls">(static_cast<ccrc::node_id>(r.output.size() - 1)) == 3);
  CHECK(r.output.tree().name(static_cast<ccrc::node_id>(r.output.size() - 1)) == "even");
  auto cut = ccrc::invert(t, 3);
  CHECK(cut.output.size() == 4);
  CHECK(cut.output.get<"calls">(3) == 3);
}
