#include <ccrc/algorithm/inclusive.hpp>
#include <ccrc/geometry/highlight.hpp>

#include "support/figure1.hpp"
#include "support/random.hpp"
#include "support/rings.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <numbers>
#include <set>

using ccrc::highlight_state;

namespace {

std::vector<ccrc::node_id> nodes_of_method(const ccrc::call_tree& t, std::string_view name) {
  std::vector<ccrc::node_id> out;
  for (ccrc::node_id n = 1; n < t.size(); ++n)
    if (t.name(n) == name) out.push_back(n);
  return out;
}

}  // namespace

TEST_CASE("highlight i in Figure 4(b): shown i is a match, the callers of hidden ones contain one") {
  ccrc::profile p = test::figure1();
  const ccrc::call_tree& t = p.tree();
  auto ag = ccrc::inclusive(t, p.column("bytecodes"));
  auto v = ccrc::ring_chart_view(ccrc::tree_view(t, ccrc::root_node, 3), ag);
  ccrc::ring_layout chart = ccrc::ring_chart(v, ag, {.outer_radius = 300});
  auto matches = nodes_of_method(t, "i");
  REQUIRE(matches.size() == 6);
  auto state = ccrc::highlight(chart, t, ag, matches);
  REQUIRE(state.size() == chart.segments.size());
  ccrc::preorder_index order(t);
  CHECK(ccrc::highlight(chart, t, ag, ccrc::highlight_marks(order, matches)) == state);
  std::map<std::string, highlight_state> by_path;
  for (std::size_t k = 0; k < state.size(); ++k) by_path[ccrc::path_string(t, chart.segments[k].node)] = state[k];
  CHECK(by_path["main;h;i"] == highlight_state::match);
  CHECK(by_path["main"] == highlight_state::contains_match);
  CHECK(by_path["main;h"] == highlight_state::contains_match);
  CHECK(by_path["main;f"] == highlight_state::contains_match);
  CHECK(by_path["main;f;g"] == highlight_state::contains_match);  // main;f;g;h;i is cut by the depth
  CHECK(by_path["main;f;h"] == highlight_state::contains_match);
  CHECK(by_path["main;g;g"] == highlight_state::contains_match);
  CHECK(by_path["main;g;h"] == highlight_state::contains_match);
  // Highlighting main: a match, nothing else; highlighting nothing: nothing.
  state = ccrc::highlight(chart, t, ag, nodes_of_method(t, "main"));
  CHECK(state[0] == highlight_state::match);
  CHECK(std::count(state.begin(), state.end(), highlight_state::none) == 8);
  state = ccrc::highlight(chart, t, ag, {});
  CHECK(std::count(state.begin(), state.end(), highlight_state::none) == 9);
  // A match outside the view (the subtree of main;g) changes nothing in a chart of main;f.
  ccrc::ring_layout f_chart = ccrc::ring_chart(ccrc::tree_view(t, ccrc::node_at_path(t, "main;f")), ag);
  ccrc::node_id outside[] = {ccrc::node_at_path(t, "main;g;h"), ccrc::node_at_path(t, "main")};
  state = ccrc::highlight(f_chart, t, ag, outside);
  CHECK(ccrc::highlight(f_chart, t, ag, ccrc::highlight_marks(order, outside)) == state);
  CHECK(std::count(state.begin(), state.end(), highlight_state::none) == static_cast<long>(state.size()));
}

TEST_CASE("highlight agrees with walking up from every match, on random culled charts") {
  test::rng r{41};
  std::size_t merged = 0, merged_marked = 0, chains = 0;
  for (int round = 0; round < 30; ++round) {
    auto [p, ag] = test::random_input(r, 300, 10, 8);
    const ccrc::call_tree& t = p.tree();
    ccrc::node_id root = round % 3 == 0 ? ccrc::root_node : static_cast<ccrc::node_id>(r.below(static_cast<std::uint32_t>(t.size())));
    ccrc::tree_view v(t, root, round % 2 == 0 ? 3 : ccrc::unlimited_depth);
    // Every other chart folds chains of callees holding 60 % of their caller: a chain stands
    // for each of its contexts.
    ccrc::ring_layout chart =
        ccrc::ring_chart(v, ag, {.outer_radius = 200, .min_arc_px = 4, .chain_share = round % 2 == 0 ? 0.6 : 0.0});
    std::vector<ccrc::node_id> matches;
    // Few matches, and half the tree: the walk up from each, and the one that remembers.
    for (ccrc::node_id n = 0; n < t.size(); ++n)
      if (r.chance(round % 4 < 2 ? 0.05 : 0.5)) matches.push_back(n);
    auto state = ccrc::highlight(chart, t, ag, matches);
    // The marks made once for the matches give the same states, chart after chart.
    ccrc::preorder_index order(t);
    ccrc::highlight_marks marks(order, matches);
    CHECK(ccrc::highlight(chart, t, ag, marks) == state);
    // Made from the matches' positions, as ccrc::search_positions finds them: the same marks.
    std::vector<std::uint64_t> positions(t.size() / 64 + 1, 0);
    for (ccrc::node_id m : matches) positions[order.position(m) / 64] |= std::uint64_t{1} << (order.position(m) % 64);
    CHECK(ccrc::highlight(chart, t, ag, ccrc::highlight_marks(order, std::move(positions))) == state);
    std::set<ccrc::node_id> matched(matches.begin(), matches.end()), above;
    for (ccrc::node_id m : matches)
      for (ccrc::node_id a = t.parent(m); a != ccrc::null_node; a = t.parent(a)) above.insert(a);
    for (ccrc::node_id n = 0; n < t.size(); ++n)  // the marks themselves, node by node
      CHECK(marks[n] == (matched.count(n) ? highlight_state::match
                         : above.count(n) ? highlight_state::contains_match
                                          : highlight_state::none));
    for (std::size_t k = 0; k < state.size(); ++k) {
      // The contexts a segment stands for: a line may merge several siblings, in value order.
      const auto& seg = chart.segments[k];
      std::vector<ccrc::node_id> members{seg.node};
      if (seg.kind != ccrc::segment_kind::line && seg.contexts > 1) {
        for (ccrc::node_id x = seg.last; x != seg.node; x = t.parent(x)) members.push_back(x);
        REQUIRE(members.size() == seg.contexts);
        ++chains;
      } else if (seg.contexts > 1) {
        std::vector<std::pair<double, ccrc::node_id>> siblings;
        for (ccrc::node_id c : t.children(t.parent(seg.node))) siblings.emplace_back(-std::max(ag[c], 0.0), c);
        std::sort(siblings.begin(), siblings.end());
        auto at = std::find(siblings.begin(), siblings.end(), std::pair(-std::max(ag[seg.node], 0.0), seg.node));
        members.clear();
        for (std::uint32_t j = 0; j < seg.contexts; ++j) members.push_back(at[j].second);
      }
      bool match = false, contains = false;
      for (ccrc::node_id n : members) {
        match = match || matched.count(n);
        contains = contains || above.count(n);
      }
      highlight_state expected = match ? highlight_state::match
                                 : contains ? highlight_state::contains_match
                                            : highlight_state::none;
      CHECK(state[k] == expected);
      const bool line_of_several = seg.kind == ccrc::segment_kind::line && seg.contexts > 1;
      merged += line_of_several;
      merged_marked += line_of_several && expected != highlight_state::none;
    }
  }
  CHECK(merged > 50);  // lines merging several siblings were exercised
  CHECK(merged_marked > 10);
  CHECK(chains > 20);  // and chains
}

TEST_CASE("highlight of an icicle: the states of the ring chart of the same partition") {
  // A ring chart whose rings all have the outer radius R culls as an icicle 2πR wide does
  // (ring_chart's and icicle_chart's one partition): the same segments, so the same states.
  test::rng r{43};
  std::size_t marked_lines = 0;
  for (int round = 0; round < 30; ++round) {
    auto [p, ag] = test::random_input(r, 300, 10, 8);
    const ccrc::call_tree& t = p.tree();
    ccrc::tree_view v(t, ccrc::root_node, round % 2 == 0 ? 3 : ccrc::unlimited_depth);
    ccrc::ring_layout ring = ccrc::ring_chart(v, ag, {.outer_radius = 100, .center_radius = 100, .min_arc_px = 4});
    ccrc::icicle_layout icicle = ccrc::icicle_chart(
        v, ag, {.width = 200 * std::numbers::pi, .height = 300, .root_at_bottom = round % 3 == 0, .min_width_px = 4});
    REQUIRE(icicle.segments.size() == ring.segments.size());
    std::vector<ccrc::node_id> matches;
    for (ccrc::node_id n = 0; n < t.size(); ++n)
      if (r.chance(round % 4 < 2 ? 0.05 : 0.5)) matches.push_back(n);
    auto state = ccrc::highlight(icicle, t, ag, matches);
    CHECK(state == ccrc::highlight(ring, t, ag, matches));
    ccrc::preorder_index order(t);
    CHECK(ccrc::highlight(icicle, t, ag, ccrc::highlight_marks(order, matches)) == state);
    for (std::size_t k = 0; k < state.size(); ++k)
      marked_lines += icicle.segments[k].kind == ccrc::icicle_kind::line && icicle.segments[k].contexts > 1 &&
                      state[k] != highlight_state::none;
  }
  CHECK(marked_lines > 10);
}

TEST_CASE("highlight_marks::for_each_marked_child: the marked children in id order, as a walk over all of them finds") {
  // Stacks up to 60 deep, so that matches lie both within 16 levels of a parent (found by
  // climbing up) and below them (found along the parent's children); few or many matches.
  test::rng r{7};
  std::size_t deep = 0, visited = 0;
  for (int round = 0; round < 40; ++round) {
    ccrc::profile p = test::profile_of(test::random_samples(r, 200, 3 + r.below(6), 1 + r.below(60), 1), 1);
    const ccrc::call_tree& t = p.tree();
    std::vector<ccrc::node_id> matches;
    const double share = round % 3 == 0 ? 0.01 : round % 3 == 1 ? 0.1 : 0.6;
    for (ccrc::node_id n = 0; n < t.size(); ++n)
      if (r.chance(share)) matches.push_back(n);
    ccrc::preorder_index order(t);
    ccrc::highlight_marks marks(order, matches);
    std::vector<std::uint32_t> depth(t.size(), 0);
    for (ccrc::node_id n = 1; n < t.size(); ++n) depth[n] = depth[t.parent(n)] + 1;
    for (ccrc::node_id n = 0; n < t.size(); ++n) {
      std::vector<std::pair<ccrc::node_id, highlight_state>> expected, got;
      std::vector<ccrc::node_id> children(t.children(n).begin(), t.children(n).end());
      std::sort(children.begin(), children.end());
      for (ccrc::node_id c : children)
        if (marks[c] != highlight_state::none) expected.emplace_back(c, marks[c]);
      marks.for_each_marked_child(t, n, [&](ccrc::node_id c, highlight_state s) {
        got.emplace_back(c, s);
        return true;
      });
      REQUIRE(got == expected);
      visited += got.size();
      // Stopping early: f returning false ends the walk after that child.
      if (expected.size() > 1) {
        std::size_t calls = 0;
        marks.for_each_marked_child(t, n, [&](ccrc::node_id, highlight_state) { return ++calls < 2; });
        CHECK(calls == 2);
      }
    }
    for (ccrc::node_id m : matches) deep += depth[m] > 17;
  }
  CHECK(deep > 100);  // matches more than 16 levels below a child of the root were found
  CHECK(visited > 1000);
}
