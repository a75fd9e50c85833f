#include <ccrc/algorithm/flat.hpp>
#include <ccrc/tree/cct.hpp>

#include "support/figure1.hpp"
#include "support/random.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <map>

namespace {

template <class Entries>
std::vector<std::string> names(const ccrc::call_tree& t, const Entries& entries) {
  std::vector<std::string> out;
  for (const auto& e : entries) out.emplace_back(t.symbols().method_name(e.method));
  return out;
}

}  // namespace

TEST_CASE("Figure 4(c): bytecodes per method, with the papers' percentages") {
  ccrc::profile p = test::figure1();
  auto entries = ccrc::flat(ccrc::tree_view(p.tree()), p.column("bytecodes"));
  CHECK(names(p.tree(), entries) == std::vector<std::string>{"main", "h", "i", "g", "f"});
  const double self[] = {1066, 792, 660, 540, 180};
  const double percent[] = {32.92, 24.46, 20.38, 16.68, 5.56};
  for (std::size_t k = 0; k < 5; ++k) {
    CHECK(entries[k].self == self[k]);
    CHECK(entries[k].percent == doctest::Approx(percent[k]).epsilon(0.0002));
  }
}

TEST_CASE("invocations per method; ties ordered by name") {
  ccrc::profile p = test::figure1();
  auto entries = ccrc::flat(ccrc::tree_view(p.tree()), p.column("calls"));
  CHECK(names(p.tree(), entries) == std::vector<std::string>{"h", "i", "g", "f", "main"});
  CHECK(entries[0].self == 132);
  CHECK(entries[1].self == 132);
  CHECK(entries[2].self == 60);
  CHECK(entries[3].self == 20);
  CHECK(entries[4].self == 1);
}

TEST_CASE("the flat profile of a view: the subtree of f sums to ag(f)") {
  ccrc::profile p = test::figure1();
  auto entries = ccrc::flat(ccrc::tree_view(p.tree(), ccrc::node_at_path(p.tree(), "main;f")), p.column("bytecodes"));
  CHECK(names(p.tree(), entries) == std::vector<std::string>{"g", "h", "i", "f"});
  CHECK(entries[0].self == 270);
  CHECK(entries[1].self == 240);
  CHECK(entries[2].self == 200);
  CHECK(entries[3].self == 180);
  CHECK(entries[3].percent == doctest::Approx(100.0 * 180 / 890));
}

TEST_CASE("per_method agrees with summing over nodes by hand, on random trees") {
  for (std::uint64_t seed = 1; seed <= 500; ++seed) {
    test::rng r{seed};
    ccrc::profile p = test::profile_of(test::random_samples(r, 40, 8, 10));
    std::vector<double> sums = ccrc::per_method(ccrc::tree_view(p.tree()), p.column(1));
    std::map<std::string, double> expected;
    for (ccrc::node_id n = 1; n < p.size(); ++n) expected[std::string(p.tree().name(n))] += p.column(1)[n];
    for (const auto& [name, value] : expected) CHECK(sums[*p.symbols().find_method(name)] == value);
    double percent = 0;
    for (const auto& e : ccrc::flat(ccrc::tree_view(p.tree()), p.column(1))) percent += e.percent;
    double total = 0;
    for (const auto& [name, value] : expected) total += value;
    if (total > 0) CHECK(percent == doctest::Approx(100.0));
  }
}

TEST_CASE("a zero total gives 0 %, not NaN; NaN values sort last") {
  ccrc::cct<ccrc::metric<"t", double>> t;
  t.add_path(std::vector<ccrc::frame_id>{t.intern("a")}, 0.0);
  t.add_path(std::vector<ccrc::frame_id>{t.intern("b")}, 0.0);
  for (const auto& e : ccrc::flat(ccrc::tree_view(t.tree()), t.column<"t">())) CHECK(e.percent == 0);
  t.add_path(std::vector<ccrc::frame_id>{t.intern("c")}, std::numeric_limits<double>::quiet_NaN());
  t.add_path(std::vector<ccrc::frame_id>{t.intern("d")}, 2.0);
  auto entries = ccrc::flat(ccrc::tree_view(t.tree()), t.column<"t">());
  CHECK(names(t.tree(), entries) == std::vector<std::string>{"d", "a", "b", "c"});
  for (const auto& e : entries) CHECK(std::isfinite(e.percent));
}

TEST_CASE("flat with a count: the largest entries, in order, their shares of the whole view's") {
  ccrc::profile p = test::figure1();
  auto all = ccrc::flat(ccrc::tree_view(p.tree()), p.column("bytecodes"));
  auto top = ccrc::flat(ccrc::tree_view(p.tree()), p.column("bytecodes"), {.count = 2});
  REQUIRE(top.size() == 2);
  CHECK(p.symbols().method_name(top[0].method) == "main");
  CHECK(p.symbols().method_name(top[1].method) == "h");
  CHECK(top[1].percent == all[1].percent);  // 24.46 %: of all five methods' 3238
  CHECK(ccrc::flat(ccrc::tree_view(p.tree()), p.column("bytecodes"), {.count = 0}).empty());
  CHECK(ccrc::flat(ccrc::tree_view(p.tree()), p.column("bytecodes"), {.count = 99}).size() == 5);
}

TEST_CASE("per_method_total: Figure 1's totals, recursion counted once") {
  ccrc::profile p = test::figure1();
  std::vector<double> total = ccrc::per_method_total(ccrc::tree_view(p.tree()), p.column("bytecodes"));
  auto of = [&](std::string_view name) { return total[*p.symbols().find_method(name)]; };
  CHECK(of("main") == 3238);
  CHECK(of("f") == 890);           // ag(main;f)
  CHECK(of("g") == 980);           // ag(main;f;g) 490 + ag(main;g) 490; main;f;g;g is inside them
  CHECK(of("h") == 1452);          // 110 + 110 + 220 + 110 + 110 + 792
  CHECK(of("i") == 660);           // leaves only: its self
  // The subtree of main;f: f's whole view, g's one outermost context.
  std::vector<double> in_f = ccrc::per_method_total(ccrc::tree_view(p.tree(), ccrc::node_at_path(p.tree(), "main;f")),
                                                    p.column("bytecodes"));
  CHECK(in_f[*p.symbols().find_method("f")] == 890);
  CHECK(in_f[*p.symbols().find_method("g")] == 490);
  CHECK(in_f[*p.symbols().find_method("main")] == 0);
}

TEST_CASE("per_method_total agrees with a reference on random trees with recursion, whole and as views") {
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    test::rng r{seed};
    ccrc::profile p = test::profile_of(test::random_samples(r, 40, 5, 10));
    const ccrc::call_tree& t = p.tree();
    auto column = p.column(1);
    // A view: the whole tree, or a random context's subtree cut a few levels below it.
    ccrc::node_id root = seed % 2 == 0 ? ccrc::root_node : static_cast<ccrc::node_id>(r.below(static_cast<std::uint32_t>(t.size())));
    std::uint32_t depth = seed % 3 == 0 ? ccrc::unlimited_depth : static_cast<std::uint32_t>(r.below(5));
    ccrc::tree_view v(t, root, depth);
    // The reference: per node of the view, whether an ancestor in the view has its method (by
    // walking up), and its inclusive value in the view (by walking up from every node).
    std::vector<double> inclusive(t.size(), 0.0);
    for (ccrc::node_id n = 0; n < t.size(); ++n) {
      if (!v.contains(n)) continue;
      for (ccrc::node_id a = n;; a = t.parent(a)) {
        inclusive[a] += column[n];
        if (a == root) break;
      }
    }
    std::vector<double> expected(p.symbols().method_count(), 0.0);
    for (ccrc::node_id n = 0; n < t.size(); ++n) {
      if (!v.contains(n)) continue;
      bool outermost = true;
      for (ccrc::node_id a = n; a != root;) {
        a = t.parent(a);
        if (t.method(a) == t.method(n)) outermost = false;
      }
      if (outermost) expected[t.method(n)] += inclusive[n];
    }
    std::vector<double> total = ccrc::per_method_total(v, column);
    REQUIRE(total.size() == expected.size());
    for (std::size_t m = 0; m < total.size(); ++m) CHECK(total[m] == doctest::Approx(expected[m]));
  }
}
