#include <ccrc/diff/hot_path.hpp>
#include <ccrc/io/folded.hpp>

#include "support/diff.hpp"
#include "support/figure1.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <string>

namespace {

ccrc::cct_diff diff_of(const ccrc::profile& a, const ccrc::profile& b) {
  return ccrc::diff({a.tree(), a.column(1), a.column(0)}, {b.tree(), b.column(1), b.column(0)});
}

std::vector<std::string> names(const ccrc::cct_diff& d, const std::vector<ccrc::node_id>& path) {
  std::vector<std::string> out;
  for (ccrc::node_id n : path) out.emplace_back(d.tree().name(n));
  return out;
}

}  // namespace

TEST_CASE("the XML example's delta hot path goes through parse_proxy and ends at new_method") {
  auto a = ccrc::read_folded_file(CCRC_SOURCE_DIR "/examples/data/xml_old.folded");
  auto b = ccrc::read_folded_file(CCRC_SOURCE_DIR "/examples/data/xml_new.folded");
  ccrc::cct_diff d = diff_of(a, b);
  CHECK(names(d, ccrc::delta_hot_path(d)) ==
        std::vector<std::string>{"BenchMark.main(String[])", "SAXBuilder.build(File)", "SAXBuilder.build(URL)",
                                 "SAXBuilder.build(InputSource)", "SAXBuilder.parse_proxy(InputSource, XMLReader)",
                                 "SAXBuilder.new_method()"});
  // From a context: the nodes below it.
  ccrc::node_id proxy = ccrc::delta_hot_path(d)[4];
  CHECK(names(d, ccrc::delta_hot_path(d, proxy)) == std::vector<std::string>{"SAXBuilder.new_method()"});
  CHECK(ccrc::delta_hot_path(d, ccrc::delta_hot_path(d).back()).empty());
}

TEST_CASE("hot path ties: the larger |H|, then the larger W, then the older context") {
  // f and g have |H| = 0.25 each (one gains, the other loses); g runs more often.
  auto a = ccrc::read_folded("# metrics: calls ms\nmain;f 1 50\nmain;g 1 50\n");
  auto b = ccrc::read_folded("# metrics: calls ms\nmain;f 1 25\nmain;g 9 75\n");
  ccrc::cct_diff d = diff_of(a, b);
  CHECK(names(d, ccrc::delta_hot_path(d)) == std::vector<std::string>{"main", "g"});
  auto c = ccrc::read_folded("# metrics: calls ms\nmain;f 1 25\nmain;g 1 75\n");
  ccrc::cct_diff e = diff_of(a, c);
  CHECK(names(e, ccrc::delta_hot_path(e)) == std::vector<std::string>{"main", "f"});
}

TEST_CASE("the hot path follows, at every step, a child of largest |H|, down to a leaf") {
  for (std::uint64_t seed = 1; seed <= 100; ++seed) {
    test::rng r{seed};
    ccrc::profile a = test::unique_tree(r, 1 + r.below(100));
    ccrc::profile b = test::next_version(a, r, 0.1, 0.1, 2);
    for (double& v : b.column("time")) v *= 1 + r.below(3);
    ccrc::cct_diff d = diff_of(a, b);
    ccrc::node_id at = ccrc::root_node;
    for (ccrc::node_id n : ccrc::delta_hot_path(d)) {
      CHECK(d.tree().parent(n) == at);
      for (ccrc::node_id c : d.tree().children(at)) CHECK(std::abs(d.height[c]) <= std::abs(d.height[n]));
      at = n;
    }
    CHECK_FALSE(d.tree().has_children(at));
  }
}

TEST_CASE("a hot path a million levels deep") {
  ccrc::call_tree a;
  ccrc::frame_id f = a.intern("f");
  ccrc::node_id n = ccrc::root_node;
  for (int i = 0; i < 1'000'000; ++i) n = a.find_or_add_child(n, f);
  std::vector<double> ones(a.size(), 1.0);
  ccrc::cct_diff d = ccrc::diff({a, ones}, {a, ones});
  CHECK(ccrc::delta_hot_path(d).size() == 1'000'000);
}
