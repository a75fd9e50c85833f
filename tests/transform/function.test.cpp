#include <ccrc/algorithm/inclusive.hpp>
#include <ccrc/algorithm/statistics.hpp>
#include <ccrc/transform/function.hpp>

#include "support/figure1.hpp"
#include "support/paths.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <set>

namespace {

double total(const ccrc::profile& p, std::string_view metric) {
  auto c = p.column(metric);
  return std::accumulate(c.begin(), c.end(), 0.0);
}

double at(const ccrc::profile& p, std::string_view path, std::string_view metric = "bytecodes") {
  return p.column(metric)[ccrc::node_at_path(p.tree(), path)];
}


}  // namespace

TEST_CASE("focus on g (Figure 1): its two outermost contexts become one top-level g") {
  ccrc::profile p = test::figure1();
  auto r = ccrc::focus_function(p, ccrc::methods_named(p.symbols(), {"g"}));
  CHECK(ccrc::statistics(r.output.tree()).nodes == 6);
  CHECK(at(r.output, "g") == 360);
  CHECK(at(r.output, "g", "calls") == 40);
  CHECK(at(r.output, "g;g") == 180);  // the recursive calls stay below
  CHECK(at(r.output, "g;g;h;i") == 100);
  CHECK(ccrc::inclusive(r.output.tree(), r.output.column("bytecodes"))[ccrc::node_at_path(r.output.tree(), "g")] == 980);
  CHECK(total(r.output, "bytecodes") == 980);
  CHECK(r.node_map[ccrc::root_node] == ccrc::null_node);
  CHECK(r.node_map[ccrc::node_at_path(p.tree(), "main;f")] == ccrc::null_node);
  CHECK(r.node_map[ccrc::node_at_path(p.tree(), "main;g;g")] == ccrc::node_at_path(r.output.tree(), "g;g"));
}

TEST_CASE("merge g into its callers (Figure 1): its self goes to main and main;f") {
  ccrc::profile p = test::figure1();
  auto r = ccrc::merge_function(p, ccrc::methods_named(p.symbols(), {"g"}));
  CHECK(ccrc::statistics(r.output.tree()).nodes == 6);
  CHECK(at(r.output, "main") == 1066 + 180 + 90);
  CHECK(at(r.output, "main;f") == 180 + 180 + 90);
  CHECK(at(r.output, "main;f;h") == 120 + 60 + 60);
  CHECK(at(r.output, "main;h;i") == 360 + 50 + 50);
  CHECK(total(r.output, "bytecodes") == 3238);
  CHECK(total(r.output, "calls") == 345);
  CHECK(r.node_map[ccrc::node_at_path(p.tree(), "main;f;g;g")] == ccrc::node_at_path(r.output.tree(), "main;f"));
}

TEST_CASE("drop every context with g (Figure 1): 2258 bytecodes remain") {
  ccrc::profile p = test::figure1();
  auto r = ccrc::drop_function(p, ccrc::methods_named(p.symbols(), {"g"}));
  CHECK(ccrc::statistics(r.output.tree()).nodes == 6);
  CHECK(total(r.output, "bytecodes") == 3238 - 490 - 490);
  CHECK(at(r.output, "main;f") == 180);  // callers keep their own cost
  CHECK(r.node_map[ccrc::node_at_path(p.tree(), "main;g;h")] == ccrc::null_node);
}

TEST_CASE("collapse g's subtree into g (Figure 1): main;f;g and main;g hold 490 each") {
  ccrc::profile p = test::figure1();
  auto r = ccrc::collapse_function_subtree(p, ccrc::methods_named(p.symbols(), {"g"}));
  CHECK(ccrc::statistics(r.output.tree()).nodes == 8);
  CHECK(at(r.output, "main;f;g") == 490);
  CHECK(at(r.output, "main;g") == 490);
  CHECK(at(r.output, "main;g", "calls") == 70);
  CHECK(total(r.output, "bytecodes") == 3238);
  CHECK(r.node_map[ccrc::node_at_path(p.tree(), "main;g;g;h;i")] == ccrc::node_at_path(r.output.tree(), "main;g"));
}

TEST_CASE("renaming g to h (Figure 1): contexts that meet under one caller merge, totals kept") {
  ccrc::profile p = test::figure1();
  auto r = ccrc::rename_frames(p, [](std::string_view name) { return name == "g" ? std::string_view("h") : name; });
  const ccrc::profile& q = r.output;
  CHECK(q.size() == 15);  // root and 14 contexts, from 18 and 17
  CHECK(at(q, "main;f;h") == 300);       // main;f;g 180 + main;f;h 120
  CHECK(at(q, "main;f;h", "calls") == 40);
  CHECK(at(q, "main;f;h;h") == 150);     // main;f;g;h 60 + main;f;g;g 90
  CHECK(at(q, "main;f;h;h;h") == 60);    // main;f;g;g;h
  CHECK(at(q, "main;h") == 612);         // main;g 180 + main;h 432
  CHECK(at(q, "main;h;i") == 360);
  CHECK(at(q, "main;h;h;h;i") == 50);
  CHECK(!q.symbols().find("g"));
  CHECK(total(q, "bytecodes") == total(p, "bytecodes"));
  CHECK(total(q, "calls") == total(p, "calls"));
  CHECK(ccrc::path_string(q.tree(), r.node_map[ccrc::node_at_path(p.tree(), "main;g;g;h")]) == "main;h;h;h");
}

TEST_CASE("renaming every frame to itself copies the tree, node for node") {
  ccrc::cct<ccrc::metric<"calls">> t;
  t.add_path(std::vector<ccrc::frame_id>{t.intern("a"), t.intern("b")}, 3);
  t.add_path(std::vector<ccrc::frame_id>{t.intern("a"), t.intern("c")}, 4);
  auto r = ccrc::rename_frames(t, [](std::string_view name) { return std::string(name); });
  REQUIRE(r.output.size() == t.size());
  for (ccrc::node_id n = 1; n < t.size(); ++n) {
    CHECK(r.node_map[n] == n);
    CHECK(ccrc::path_string(r.output.tree(), n) == ccrc::path_string(t.tree(), n));
    CHECK(r.output.get<"calls">(n) == t.get<"calls">(n));
  }
}

TEST_CASE("the function transforms equal their path-by-path reference on random trees") {
  using path = std::vector<std::string>;
  for (std::uint64_t seed = 1; seed <= 500; ++seed) {
    test::rng r{seed};
    ccrc::profile p = test::random_profile(r);
    std::set<std::string> chosen{test::method_name(r.below(4)), test::method_name(r.below(4))};
    ccrc::method_set s = ccrc::methods_named(p.symbols(), chosen);
    auto in = [&](const std::string& m) { return chosen.count(m) != 0; };
    auto first = [&](const path& f) { return std::find_if(f.begin(), f.end(), in); };
    test::check_rule(p, ccrc::focus_function(p, s), [&](const path& f, ccrc::node_id) -> std::optional<path> {
      auto it = first(f);
      if (it == f.end()) return std::nullopt;
      return path(it, f.end());
    });
    test::check_rule(p, ccrc::merge_function(p, s), [&](const path& f, ccrc::node_id) -> std::optional<path> {
      path kept;
      std::copy_if(f.begin(), f.end(), std::back_inserter(kept), [&](const auto& m) { return !in(m); });
      return kept;
    });
    test::check_rule(p, ccrc::drop_function(p, s), [&](const path& f, ccrc::node_id) -> std::optional<path> {
      if (first(f) != f.end()) return std::nullopt;
      return f;
    });
    test::check_rule(p, ccrc::collapse_function_subtree(p, s), [&](const path& f, ccrc::node_id) -> std::optional<path> {
      auto it = first(f);
      return path(f.begin(), it == f.end() ? it : it + 1);
    });
  }
}

TEST_CASE("an empty method set changes nothing but the focus, which keeps nothing") {
  ccrc::profile p = test::figure1();
  CHECK(test::canonical(ccrc::merge_function(p, {}).output) == test::canonical(p));
  CHECK(test::canonical(ccrc::drop_function(p, {}).output) == test::canonical(p));
  CHECK(test::canonical(ccrc::collapse_function_subtree(p, {}).output) == test::canonical(p));
  CHECK(ccrc::focus_function(p, {}).output.size() == 1);
}

TEST_CASE("the function transforms on a cct, over a chain of 1,000,000 calls") {
  ccrc::cct<ccrc::metric<"calls">, ccrc::metric<"ns", double>> t;
  std::vector<ccrc::frame_id> stack;
  for (int i = 0; i < 1'000'000; ++i) stack.push_back(t.intern(i % 2 ? "odd" : "even"));
  t.add_path(stack, 1, 2.5);
  t.get<"calls">(1) = 7;
  ccrc::method_id odd = *t.symbols().find_method("odd");
  auto merged = ccrc::merge_function(t, {odd});
  CHECK(merged.output.size() == 500'001);
  CHECK(merged.output.get<"ns">(static_cast<ccrc::node_id>(merged.output.size() - 1)) == 2.5);
  auto focused = ccrc::focus_function(t, {odd});
  CHECK(focused.output.size() == 1'000'000);
  CHECK(focused.output.get<"calls">(1) == 0);
  auto dropped = ccrc::drop_function(t, {odd});
  CHECK(dropped.output.size() == 2);
  CHECK(dropped.output.get<"calls">(1) == 7);
  auto collapsed = ccrc::collapse_function_subtree(t, {odd});
  CHECK(collapsed.output.size() == 3);
  CHECK(collapsed.output.get<"calls">(2) == 1);
  CHECK(collapsed.output.get<"ns">(2) == 2.5);
}
