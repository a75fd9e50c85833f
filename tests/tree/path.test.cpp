#include <ccrc/tree/path.hpp>

#include "support/chain.hpp"
#include "support/figure1.hpp"

#include <doctest/doctest.h>

#include <string>
#include <string_view>
#include <utility>

TEST_CASE("Figure 1: a context's path and back") {
  ccrc::profile p = test::figure1();
  const ccrc::call_tree& t = p.tree();
  CHECK(ccrc::path_string(t, ccrc::root_node).empty());
  ccrc::node_id main = t.find_child(ccrc::root_node, *t.symbols().find("main"));
  ccrc::node_id f = t.find_child(main, *t.symbols().find("f"));
  ccrc::node_id h = t.find_child(f, *t.symbols().find("h"));
  CHECK(ccrc::path_string(t, main) == "main");
  CHECK(ccrc::path_string(t, h) == "main;f;h");
  CHECK(ccrc::path_string(t, h, '/') == "main/f/h");
  CHECK(ccrc::node_at_path(t, "") == ccrc::root_node);
  CHECK(ccrc::node_at_path(t, "main") == main);
  CHECK(ccrc::node_at_path(t, "main;f;h") == h);
  CHECK(ccrc::node_at_path(t, "main/f/h", '/') == h);
  for (ccrc::node_id n = 0; n < t.size(); ++n) CHECK(ccrc::node_at_path(t, ccrc::path_string(t, n)) == n);
}

TEST_CASE("a missing context names the first missing frame and where it was looked for") {
  ccrc::profile p = test::figure1();
  const ccrc::call_tree& t = p.tree();
  CHECK_THROWS_WITH_AS(static_cast<void>(ccrc::node_at_path(t, "f")),
                       "no calling context 'f': no frame 'f' at the top level", ccrc::error);
  // i exists, but not under main;f;g;g.
  CHECK_THROWS_WITH_AS(static_cast<void>(ccrc::node_at_path(t, "main;f;g;g;i;x")),
                       "no calling context 'main;f;g;g;i;x': no frame 'i' under 'main;f;g;g'", ccrc::error);
  CHECK_THROWS_WITH_AS(static_cast<void>(ccrc::node_at_path(t, "main;nowhere")),
                       "no calling context 'main;nowhere': no frame 'nowhere' under 'main'", ccrc::error);
  CHECK_THROWS_AS(static_cast<void>(ccrc::node_at_path(t, "main;;f")), ccrc::error);
}

TEST_CASE("nearest_node_at_path: the context of the longest prefix that names one, and whether the whole does") {
  // Issue 45: the viewer's link to a context not in the profile showed an empty page; it
  // shows the chart from the nearest caller instead.
  ccrc::profile p = test::figure1();
  const ccrc::call_tree& t = p.tree();
  auto nearest = [&](std::string_view path) {
    ccrc::path_prefix found = ccrc::nearest_node_at_path(t, path);
    return std::pair{ccrc::path_string(t, found.node), found.whole};
  };
  CHECK(nearest("main;f;g;g;i;x") == std::pair{std::string("main;f;g;g"), false});
  CHECK(nearest("main;nowhere;f") == std::pair{std::string("main"), false});
  CHECK(nearest("f;g") == std::pair{std::string(), false});  // no top-level f: the root
  CHECK(nearest("main;f;h") == std::pair{std::string("main;f;h"), true});
  CHECK(nearest("") == std::pair{std::string(), true});
  for (ccrc::node_id n = 0; n < t.size(); ++n) {
    CHECK(ccrc::nearest_node_at_path(t, ccrc::path_string(t, n)).node == n);
    CHECK(ccrc::nearest_node_at_path(t, ccrc::path_string(t, n) + ";x;y").node == n);
  }
}

TEST_CASE("paths of a 10^6-deep chain, without recursion") {
  auto t = test::call_chain(1'000'000, {"a", "b"});
  ccrc::node_id deepest = static_cast<ccrc::node_id>(t.size() - 1);
  std::string path = ccrc::path_string(t.tree(), deepest);
  CHECK(path.size() == 2 * 1'000'000 - 1);
  CHECK(path.substr(0, 6) == "a;b;a;");
  CHECK(ccrc::node_at_path(t.tree(), path) == deepest);
}
