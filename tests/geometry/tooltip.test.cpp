#include <ccrc/algorithm/inclusive.hpp>
#include <ccrc/geometry/ring_chart.hpp>
#include <ccrc/geometry/tooltip.hpp>
#include <ccrc/tree/cct.hpp>
#include <ccrc/tree/path.hpp>

#include "support/figure1.hpp"

#include <doctest/doctest.h>

#include <string_view>
#include <vector>

TEST_CASE("call_stack and tooltip: the frames from main down, self and aggregated metrics") {
  ccrc::profile p = test::figure1();
  ccrc::node_id n = ccrc::node_at_path(p.tree(), "main;f");
  CHECK(ccrc::call_stack(p.tree(), n) == std::vector<std::string_view>{"main", "f"});
  CHECK(ccrc::call_stack(p.tree(), ccrc::root_node).empty());
  auto ag = ccrc::inclusive_columns(p);
  REQUIRE(ag.size() == 2);
  ccrc::node_tooltip tip = ccrc::tooltip(p, ag, ccrc::node_at_path(p.tree(), "main;f;g"));
  CHECK(tip.call_stack == std::vector<std::string_view>{"main", "f", "g"});
  REQUIRE(tip.metrics.size() == 2);
  CHECK(tip.metrics[0].metric == "calls");
  CHECK(tip.metrics[0].self == 20);
  CHECK(tip.metrics[0].aggregated == 70);  // 20 + 10 + 10 + 10 + 10 + 10
  CHECK(tip.metrics[1].metric == "bytecodes");
  CHECK(tip.metrics[1].self == 180);
  CHECK(tip.metrics[1].aggregated == 490);

  // A compile-time cct works the same way.
  using cct = ccrc::cct<ccrc::metric<"calls">, ccrc::metric<"time", double>>;
  cct t;
  ccrc::frame_id frames[] = {t.intern("main"), t.intern("work")};
  ccrc::node_id work = t.add_path(frames);
  t.get<"calls">(work) = 3;
  t.get<"time">(work) = 1.5;
  t.get<"time">(t.tree().parent(work)) = 0.5;
  auto cols = ccrc::inclusive_columns(t);
  auto top = ccrc::tooltip(t, cols, t.tree().parent(work));
  CHECK(top.call_stack == std::vector<std::string_view>{"main"});
  CHECK(top.metrics[1].metric == "time");
  CHECK(top.metrics[1].self == 0.5);
  CHECK(top.metrics[1].aggregated == 2.0);
  CHECK(top.metrics[0].aggregated == 3);
}

TEST_CASE("tooltip of a chain's segment: the stack to its last context, self values summed over the chain") {
  // main -> a (self 1) -> b (self 2) -> c: x 200, y 197; a's only callee holds 99.75 % of it.
  ccrc::profile p = test::stacks({{"main;a", 1}, {"main;a;b", 2}, {"main;a;b;c;x", 200}, {"main;a;b;c;y", 197}, {"main;d", 400}});
  auto ag = ccrc::inclusive_columns(p);
  ccrc::ring_layout chart = ccrc::ring_chart(ccrc::ring_chart_view(ccrc::tree_view(p.tree()), ag[0]), ag[0],
                                             {.outer_radius = 300, .chain_share = 0.99});
  const ccrc::ring_segment& chain = chart.segments[1];  // a and d hold 400 each: a, created first, first
  REQUIRE(ccrc::path_string(p.tree(), chain.node) == "main;a");
  REQUIRE(chain.contexts == 3);
  CHECK(ccrc::segment_value(p.tree(), p.column(0), chain) == 3);  // a's 1 and b's 2, c's none
  CHECK(ccrc::segment_value(p.tree(), ag[0], chain) == 400 + 399 + 397);
  ccrc::node_tooltip tip = ccrc::tooltip(p, ag, chain);
  CHECK(tip.call_stack == std::vector<std::string_view>{"main", "a", "b", "c"});
  CHECK(tip.chain == 3);
  CHECK(tip.metrics[0].self == 3);
  CHECK(tip.metrics[0].aggregated == 400);
  // An ordinary segment's tooltip is its node's.
  ccrc::node_tooltip center = ccrc::tooltip(p, ag, chart.segments[0]);
  CHECK(center.call_stack == std::vector<std::string_view>{"main"});
  CHECK(center.chain == 1);
  CHECK(center.metrics[0].aggregated == 800);
}
