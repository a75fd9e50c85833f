#include <ccrc/transform/merge.hpp>

#include "support/figure1.hpp"
#include "support/random.hpp"

#include <doctest/doctest.h>

#include <numeric>

TEST_CASE("merging a tree into an empty one copies it; merging it again doubles every metric") {
  ccrc::profile fig = test::figure1();
  ccrc::profile total({"calls", "bytecodes"});
  auto map = ccrc::merge(total, fig);
  CHECK(test::canonical(total) == test::canonical(fig));
  for (ccrc::node_id n = 0; n < fig.size(); ++n) CHECK(ccrc::path_string(total.tree(), map[n]) == ccrc::path_string(fig.tree(), n));
  ccrc::merge(total, fig);
  CHECK(total.size() == fig.size());
  CHECK(total.column("bytecodes")[ccrc::node_at_path(total.tree(), "main;h;i")] == 720);
  CHECK(test::totals(total) == std::vector<double>{690, 6476});
}

TEST_CASE("merge creates the contexts only the source has, under the right parents") {
  ccrc::cct<ccrc::metric<"samples">> a, b;
  a.add_path(std::vector<ccrc::frame_id>{a.intern("main"), a.intern("f")}, 3);
  b.add_path(std::vector<ccrc::frame_id>{b.intern("main"), b.intern("g")}, 4);
  b.add_path(std::vector<ccrc::frame_id>{b.intern("main"), b.intern("f")}, 1);
  ccrc::merge(a, b);
  CHECK(a.size() == 4);
  CHECK(a.get<"samples">(ccrc::node_at_path(a.tree(), "main;f")) == 4);
  CHECK(a.get<"samples">(ccrc::node_at_path(a.tree(), "main;g")) == 4);
}

TEST_CASE("merge tries the node after the last one mapped, and takes it only if parent and frame agree") {
  // Into: x=1, y=2, x;a=3. From: y=1, y;a=2. y maps to 2, so node 3 is tried for y;a: frame a,
  // but the parent is x, not y.
  ccrc::cct<ccrc::metric<"samples">> into, from;
  into.add_path(std::vector<ccrc::frame_id>{into.intern("x")}, 1);
  into.add_path(std::vector<ccrc::frame_id>{into.intern("y")}, 2);
  into.add_path(std::vector<ccrc::frame_id>{into.intern("x"), into.intern("a")}, 4);
  from.add_path(std::vector<ccrc::frame_id>{from.intern("y"), from.intern("a")}, 8);
  auto map = ccrc::merge(into, from);
  CHECK(into.size() == 5);
  CHECK(map[2] == 4);
  CHECK(ccrc::path_string(into.tree(), 4) == "y;a");
  CHECK(into.get<"samples">(ccrc::node_at_path(into.tree(), "x;a")) == 4);
  CHECK(into.get<"samples">(ccrc::node_at_path(into.tree(), "y;a")) == 8);
  CHECK(into.get<"samples">(ccrc::node_at_path(into.tree(), "y")) == 2);

  // And back, into the tree whose y;a is node 2: node 2 is tried for x;a, whose parent is 3.
  ccrc::merge(from, into);
  CHECK(from.size() == 5);
  CHECK(from.get<"samples">(ccrc::node_at_path(from.tree(), "y;a")) == 16);
  CHECK(from.get<"samples">(ccrc::node_at_path(from.tree(), "x;a")) == 4);
}

TEST_CASE("merge equals the tree of both runs' samples, when the runs number their contexts alike") {
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    test::rng r{seed};
    auto samples = test::random_samples(r, 60, 6, 10);
    // The second run: the first's samples in the same order, some left out, a few new ones.
    decltype(samples) second;
    for (const auto& s : samples)
      if (r.below(10) != 0) second.push_back(s);
    auto extra = test::random_samples(r, 6, 6, 10);
    second.insert(second.end(), extra.begin(), extra.end());
    ccrc::profile into = test::profile_of(samples);
    ccrc::merge(into, test::profile_of(second));
    auto both = samples;
    both.insert(both.end(), second.begin(), second.end());
    CHECK(test::canonical(into) == test::canonical(test::profile_of(both)));
  }
}

TEST_CASE("merging profiles matches metrics by name and adds the ones it lacks") {
  ccrc::profile a({"calls"}), b({"time", "calls"});
  a.add_path(std::vector<ccrc::frame_id>{a.intern("x")}, std::vector<double>{1});
  b.add_path(std::vector<ccrc::frame_id>{b.intern("x")}, std::vector<double>{2.5, 10});
  ccrc::merge(a, b);
  CHECK(a.metric_names() == std::vector<std::string>{"calls", "time"});
  ccrc::node_id x = ccrc::node_at_path(a.tree(), "x");
  CHECK(a.column("calls")[x] == 11);
  CHECK(a.column("time")[x] == 2.5);
}

TEST_CASE("merge is associative and conserves totals, on random trees") {
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    test::rng r{seed};
    ccrc::profile x = test::profile_of(test::random_samples(r, 30, 5, 8));
    ccrc::profile y = test::profile_of(test::random_samples(r, 30, 5, 8));
    ccrc::profile z = test::profile_of(test::random_samples(r, 30, 5, 8));
    ccrc::profile left({"m0", "m1"}), yz({"m0", "m1"}), right({"m0", "m1"});
    ccrc::merge(left, x);
    ccrc::merge(left, y);
    ccrc::merge(left, z);
    ccrc::merge(yz, y);
    ccrc::merge(yz, z);
    ccrc::merge(right, x);
    ccrc::merge(right, yz);
    CHECK(test::canonical(left) == test::canonical(right));
    std::vector<double> expected = test::totals(x);
    for (std::size_t i = 0; i < expected.size(); ++i) expected[i] += test::totals(y)[i] + test::totals(z)[i];
    CHECK(test::totals(left) == expected);
  }
}
