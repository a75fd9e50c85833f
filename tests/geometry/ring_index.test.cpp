#include <ccrc/algorithm/depth.hpp>
#include <ccrc/algorithm/inclusive.hpp>
#include <ccrc/geometry/ring_chart.hpp>
#include <ccrc/geometry/ring_index.hpp>

#include "support/figure1.hpp"
#include "support/random.hpp"
#include "support/rings.hpp"

#include <doctest/doctest.h>

#include <algorithm>

TEST_CASE("ring_index on Figure 1: main's callees by decreasing ag, running sums, heights") {
  ccrc::profile p = test::figure1();
  const ccrc::call_tree& t = p.tree();
  auto ag = ccrc::inclusive(t, p.column("bytecodes"));
  ccrc::ring_index index(t, ag);
  CHECK(index.size() == 19);
  ccrc::node_id main = ccrc::node_at_path(t, "main");
  auto kids = index.children(main);
  REQUIRE(kids.size() == 3);
  CHECK(kids[0] == ccrc::node_at_path(t, "main;f"));
  CHECK(kids[1] == ccrc::node_at_path(t, "main;h"));
  CHECK(kids[2] == ccrc::node_at_path(t, "main;g"));
  auto sums = index.sums(main);
  CHECK(sums[0] == 890);
  CHECK(sums[1] == 890 + 792);
  CHECK(sums[2] == 890 + 792 + 490);
  CHECK(index.height(ccrc::root_node) == 6);
  CHECK(index.height(main) == 5);
  CHECK(index.children(ccrc::node_at_path(t, "main;h;i")).empty());
  // An empty tree: the root alone.
  ccrc::call_tree empty;
  ccrc::ring_index none(empty, std::vector<double>{0});
  CHECK(none.children(ccrc::root_node).empty());
  CHECK(none.height(ccrc::root_node) == 0);
}

TEST_CASE("a ring_index gives the same chart, reading only what it shows") {
  test::rng r{17};
  for (int round = 0; round < 40; ++round) {
    auto [p, ag] = test::random_input(r, 400, 10, 9);
    if (round % 5 == 4) ag[r.below(static_cast<std::uint32_t>(ag.size()))] = -3;  // a parent below its children
    ccrc::ring_index index(p.tree(), ag);
    CHECK(index.size() == p.size());
    ccrc::node_id root = round % 3 == 0 ? ccrc::root_node : static_cast<ccrc::node_id>(r.below(static_cast<std::uint32_t>(p.size())));
    ccrc::tree_view v(p.tree(), root, round % 2 == 0 ? 1 + r.below(6) : ccrc::unlimited_depth);
    ccrc::ring_options o{.sizing = static_cast<ccrc::ring_sizing>(round % 3),
                         .outer_radius = 100 + 20.0 * r.below(20),
                         .min_arc_px = round % 7 == 0 ? 0.0 : 0.5 * r.below(10),
                         .padding_px = round % 4 == 0 ? 0.5 : 0.0};
    ccrc::ring_layout plain = ccrc::ring_chart(v, ag, o);
    o.index = &index;
    ccrc::ring_layout indexed = ccrc::ring_chart(v, ag, o);
    test::check_invariants(p.tree(), indexed);
    CHECK(indexed.radii == plain.radii);
    CHECK(indexed.ring_begin == plain.ring_begin);
    REQUIRE(indexed.segments.size() == plain.segments.size());
    for (std::size_t i = 0; i < plain.segments.size(); ++i) {
      const auto &a = plain.segments[i], &b = indexed.segments[i];
      CHECK(a.node == b.node);
      CHECK(a.parent == b.parent);
      CHECK(a.kind == b.kind);
      CHECK(a.contexts == b.contexts);
      CHECK(a.a0 == b.a0);
      CHECK(a.a1 == b.a1);
      CHECK(a.r1 == b.r1);
    }
    // The index's order: children by decreasing weight, running sums, heights.
    auto h = ccrc::heights(p.tree());
    for (ccrc::node_id n = 0; n < p.size(); ++n) {
      CHECK(index.height(n) == h[n]);
      auto kids = index.children(n);
      auto sums = index.sums(n);
      REQUIRE(kids.size() == sums.size());
      double sum = 0;
      for (std::size_t k = 0; k < kids.size(); ++k) {
        CHECK(p.tree().parent(kids[k]) == n);
        double w = std::max(ag[kids[k]], 0.0);
        CHECK(sums[k] == (sum += w));
        if (k > 0) CHECK(std::max(ag[kids[k - 1]], 0.0) >= w);
      }
    }
  }
  // Other orders use the index for heights only, and give the same chart too.
  ccrc::profile f = test::figure1();
  auto ag = ccrc::inclusive(f.tree(), f.column("bytecodes"));
  auto view = ccrc::ring_chart_view(ccrc::tree_view(f.tree()), ag);
  ccrc::ring_index index(f.tree(), ag);
  CHECK(index.memory_bytes() >= f.size() * 20 - 8);
  for (auto order : {ccrc::child_order::name, ccrc::child_order::insertion}) {
    auto a = ccrc::ring_chart(view, ag, {.order = order});
    auto b = ccrc::ring_chart(view, ag, {.order = order, .index = &index});
    REQUIRE(a.segments.size() == b.segments.size());
    for (std::size_t i = 0; i < a.segments.size(); ++i) CHECK(a.segments[i].node == b.segments[i].node);
  }
}

