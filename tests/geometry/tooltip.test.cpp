#include <ccrc/algorithm/inclusive.hpp>
#include <ccrc/geometry/tooltip.hpp>
#include <ccrc/tree/cct.hpp>

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
