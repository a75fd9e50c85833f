#include <ccrc/tree/view.hpp>

#include "support/figure1.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace {

std::vector<std::string> visit(const ccrc::tree_view& v) {
  std::vector<std::string> out;
  ccrc::preorder(v, [&](ccrc::node_id n, std::uint32_t level) {
    out.push_back(std::to_string(level) + ":" + ccrc::path_string(v.tree(), n));
  });
  return out;
}

}  // namespace

TEST_CASE("pre-order visits a node before its callees, siblings in creation order") {
  ccrc::profile p = test::figure1();
  auto seen = visit(ccrc::tree_view(p.tree()));
  CHECK(seen.size() == 19);
  CHECK(seen[0] == "0:");
  CHECK(seen[1] == "1:main");
  CHECK(seen[2] == "2:main;f");
  CHECK(seen[3] == "3:main;f;g");
  CHECK(seen[4] == "4:main;f;g;h");
  CHECK(seen[5] == "5:main;f;g;h;i");
  CHECK(seen[6] == "4:main;f;g;g");
  CHECK(seen.back() == "3:main;h;i");
}

TEST_CASE("Figure 4(a): the subtree of f holds its 9 calling contexts") {
  ccrc::profile p = test::figure1();
  ccrc::tree_view whole(p.tree());
  ccrc::tree_view f = whole.subtree(ccrc::node_at_path(p.tree(), "main;f"));
  auto seen = visit(f);
  CHECK(seen == std::vector<std::string>{"0:main;f", "1:main;f;g", "2:main;f;g;h", "3:main;f;g;h;i",
                                         "2:main;f;g;g", "3:main;f;g;g;h", "4:main;f;g;g;h;i",
                                         "1:main;f;h", "2:main;f;h;i"});
  CHECK(f.contains(ccrc::node_at_path(p.tree(), "main;f;g;g;h;i")));
  CHECK_FALSE(f.contains(ccrc::node_at_path(p.tree(), "main;g")));
  CHECK(f.level(ccrc::node_at_path(p.tree(), "main;f;h")) == 1);
}

TEST_CASE("Figure 4(b): limited to 3 levels, the tree shows 9 calling contexts") {
  ccrc::profile p = test::figure1();
  ccrc::tree_view cut = ccrc::tree_view(p.tree()).limit_depth(3);
  auto seen = visit(cut);
  seen.erase(seen.begin());  // the synthetic root
  CHECK(seen == std::vector<std::string>{"1:main", "2:main;f", "3:main;f;g", "3:main;f;h", "2:main;g",
                                         "3:main;g;h", "3:main;g;g", "2:main;h", "3:main;h;i"});
  CHECK_FALSE(cut.contains(ccrc::node_at_path(p.tree(), "main;f;g;h")));
  CHECK(cut.level(ccrc::node_at_path(p.tree(), "main;h;i")) == 3);
}

TEST_CASE("views compose: a subtree cut at a depth") {
  ccrc::profile p = test::figure1();
  ccrc::tree_view v = ccrc::tree_view(p.tree()).subtree(ccrc::node_at_path(p.tree(), "main;g")).limit_depth(1);
  CHECK(visit(v) == std::vector<std::string>{"0:main;g", "1:main;g;h", "1:main;g;g"});
}

TEST_CASE("a visitor returning false skips the node's callees") {
  ccrc::profile p = test::figure1();
  std::size_t count = 0;
  ccrc::preorder(ccrc::tree_view(p.tree()), [&](ccrc::node_id n, std::uint32_t) {
    ++count;
    return p.tree().name(n) != "f";  // do not enter f's subtree
  });
  CHECK(count == 19 - 8);
}

TEST_CASE("pre-order walks a chain of 1,000,000 levels without a stack") {
  ccrc::call_tree t;
  std::vector<ccrc::frame_id> stack(1'000'000, t.intern("r"));
  t.add_path(stack);
  std::uint32_t deepest = 0;
  std::size_t count = 0;
  ccrc::preorder(ccrc::tree_view(t), [&](ccrc::node_id, std::uint32_t level) {
    ++count;
    deepest = std::max(deepest, level);
  });
  CHECK(count == 1'000'001);
  CHECK(deepest == 1'000'000);
}
