#include <ccrc/transform/intersect.hpp>

#include "support/figure1.hpp"
#include "support/random.hpp"

#include <doctest/doctest.h>

#include <set>

TEST_CASE("intersect Figure 1 with a second run: the shared contexts, each side's metrics") {
  ccrc::profile a = test::figure1();
  // Another run: f never calls g, a new main;k, and one metric only.
  ccrc::profile b = ccrc::read_folded("# metrics: bytecodes\nmain;k 5\nmain 1000\nmain;f 200\nmain;f;h;i 90\nmain;h;i 300\n");
  auto both = ccrc::intersect(a, b);
  const ccrc::call_tree& t = both.first.output.tree();
  REQUIRE(t.size() == both.second.output.size());
  std::set<std::string> paths;
  for (ccrc::node_id n = 1; n < t.size(); ++n) {
    paths.insert(ccrc::path_string(t, n));
    CHECK(ccrc::path_string(both.second.output.tree(), n) == ccrc::path_string(t, n));  // same ids, same contexts
  }
  CHECK(paths == std::set<std::string>{"main", "main;f", "main;f;h", "main;f;h;i", "main;h", "main;h;i"});
  ccrc::node_id fhi = ccrc::node_at_path(t, "main;f;h;i");
  CHECK(both.first.output.column("bytecodes")[fhi] == 100);
  CHECK(both.first.output.column("calls")[fhi] == 20);
  CHECK(both.second.output.column("bytecodes")[fhi] == 90);
  CHECK(both.second.output.metric_names() == std::vector<std::string>{"bytecodes"});
  CHECK(both.first.node_map[ccrc::node_at_path(a.tree(), "main;g")] == ccrc::null_node);
  CHECK(both.second.node_map[ccrc::node_at_path(b.tree(), "main;k")] == ccrc::null_node);
  CHECK(both.second.node_map[ccrc::node_at_path(b.tree(), "main;h;i")] == ccrc::node_at_path(t, "main;h;i"));
}

TEST_CASE("intersect matches frames by name and call site, not by id") {
  ccrc::cct<ccrc::metric<"calls">> a, b;
  b.intern("zzz");  // shifts b's ids
  ccrc::frame_id fa[] = {a.intern("main"), a.symbols().intern("f", 7)};
  ccrc::frame_id fb[] = {b.intern("main"), b.symbols().intern("f", 7)};
  ccrc::frame_id other_site[] = {b.intern("main"), b.symbols().intern("f", 8)};
  a.add_path(fa, 1);
  b.add_path(fb, 2);
  b.add_path(other_site, 3);
  auto both = ccrc::intersect(a, b);
  REQUIRE(both.first.output.size() == 3);
  CHECK(both.first.output.get<"calls">(2) == 1);
  CHECK(both.second.output.get<"calls">(2) == 2);
  CHECK(both.second.output.symbols().site(both.second.output.tree().frame(2)) == 7);
}

TEST_CASE("intersect equals the intersection of the path sets on random trees") {
  for (std::uint64_t seed = 1; seed <= 500; ++seed) {
    test::rng r{seed};
    ccrc::profile a = test::profile_of(test::random_samples(r, 1 + r.below(40), 2 + r.below(5), 3 + r.below(10)));
    ccrc::profile b = test::profile_of(test::random_samples(r, 1 + r.below(40), 2 + r.below(5), 3 + r.below(10)));
    auto both = ccrc::intersect(a, b);
    auto ca = test::canonical(a), cb = test::canonical(b);
    test::canonical_form want_a, want_b;
    for (const auto& [path, values] : ca)
      if (auto it = cb.find(path); it != cb.end()) {
        want_a[path] = values;
        want_b[path] = it->second;
      }
    CHECK(test::canonical(both.first.output) == want_a);
    CHECK(test::canonical(both.second.output) == want_b);
    // With itself: the whole tree, id for id.
    auto self = ccrc::intersect(a, a);
    CHECK(test::canonical(self.first.output) == ca);
  }
}

TEST_CASE("intersect with a shrunk tree (no child index, wide parents) gives what it gives with the index") {
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    test::rng r{seed};
    // 40 methods, shallow stacks: parents of more than 8 children.
    ccrc::profile a = test::profile_of(test::random_samples(r, 200 + r.below(200), 40, 3));
    ccrc::profile b = test::profile_of(test::random_samples(r, 200 + r.below(200), 40, 3));
    auto with_index = ccrc::intersect(a, b);
    ccrc::profile shrunk = b;
    shrunk.shrink_to_fit();
    REQUIRE_FALSE(shrunk.tree().has_child_index());
    auto without = ccrc::intersect(a, shrunk);
    CHECK(without.first.node_map == with_index.first.node_map);
    CHECK(without.second.node_map == with_index.second.node_map);
    CHECK(test::canonical(without.second.output) == test::canonical(with_index.second.output));
  }
}

TEST_CASE("intersect two chains of 1,000,000 calls that part at the middle") {
  ccrc::cct<ccrc::metric<"calls">> a, b;
  std::vector<ccrc::frame_id> sa(1'000'000, a.intern("r")), sb(1'000'000, b.intern("r"));
  sb[500'000] = b.intern("s");
  a.add_path(sa, 1);
  b.add_path(sb, 1);
  auto both = ccrc::intersect(a, b);
  CHECK(both.first.output.size() == 500'001);
  CHECK(both.first.node_map.back() == ccrc::null_node);
}
