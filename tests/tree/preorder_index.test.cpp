#include <ccrc/tree/preorder_index.hpp>

#include "support/chain.hpp"
#include "support/figure1.hpp"
#include "support/random.hpp"

#include <ccrc/tree/view.hpp>

#include <doctest/doctest.h>

#include <vector>

TEST_CASE("preorder_index: a tree whose ids are not in preorder") {
  // Paths added as a;b, c, a;d, a;b;e: ids root 0, a 1, b 2, c 3, d 4, e 5; depth first,
  // children in id order: root, a, b, e, d, c.
  ccrc::profile p = test::stacks({{"a;b", 1}, {"c", 1}, {"a;d", 1}, {"a;b;e", 1}});
  const ccrc::call_tree& t = p.tree();
  REQUIRE(t.size() == 6);
  REQUIRE(ccrc::path_string(t, 5) == "a;b;e");
  ccrc::preorder_index order(t);
  CHECK(order.size() == 6);
  std::vector<ccrc::node_id> all(order.subtree(ccrc::root_node).begin(), order.subtree(ccrc::root_node).end());
  CHECK(all == std::vector<ccrc::node_id>{0, 1, 2, 5, 4, 3});
  std::vector<std::uint32_t> positions, ends;
  for (ccrc::node_id n = 0; n < t.size(); ++n) {
    positions.push_back(order.position(n));
    ends.push_back(order.end(n));
    CHECK(order.at(order.position(n)) == n);
  }
  CHECK(positions == std::vector<std::uint32_t>{0, 1, 2, 5, 4, 3});
  CHECK(ends == std::vector<std::uint32_t>{6, 5, 4, 6, 5, 4});
  CHECK(order.subtree(1).size() == 4);  // a, b, e, d
  CHECK(order.contains(1, 5));
  CHECK(order.contains(2, 2));
  CHECK(!order.contains(2, 4));  // d is b's sibling
  CHECK(!order.contains(5, 2));  // nor is a caller below its callee
  CHECK(!order.contains(3, 1));
}

TEST_CASE("preorder_index agrees with the depth-first walk and with walking up, on random trees") {
  test::rng r{7};
  for (int round = 0; round < 20; ++round) {
    ccrc::profile p = test::profile_of(test::random_samples(r, 200, 6, 9, 1), 1);
    const ccrc::call_tree& t = p.tree();
    ccrc::preorder_index order(t);
    std::vector<ccrc::node_id> walked;
    ccrc::preorder(ccrc::tree_view(t), [&](ccrc::node_id n, std::uint32_t) { walked.push_back(n); });
    std::vector<ccrc::node_id> indexed(order.subtree(ccrc::root_node).begin(), order.subtree(ccrc::root_node).end());
    CHECK(indexed == walked);
    for (int k = 0; k < 200; ++k) {
      auto n = static_cast<ccrc::node_id>(r.below(static_cast<std::uint32_t>(t.size())));
      auto m = static_cast<ccrc::node_id>(r.below(static_cast<std::uint32_t>(t.size())));
      bool above = false;
      for (ccrc::node_id a = m; a != ccrc::null_node && !above; a = t.parent(a)) above = a == n;
      CHECK(order.contains(n, m) == above);
    }
  }
}

TEST_CASE("preorder_index of a chain of 1,000,000 levels: no stack, every range nested") {
  auto t = test::call_chain(1'000'000, {"f"});
  ccrc::preorder_index order(t.tree());
  CHECK(order.position(1'000'000) == 1'000'000);
  CHECK(order.end(1) == 1'000'001);
  CHECK(order.end(1'000'000) == 1'000'001);
  CHECK(order.contains(1, 1'000'000));
  CHECK(!order.contains(1'000'000, 999'999));
}
