#include <ccrc/algorithm/inclusive.hpp>
#include <ccrc/diff/diff_ring.hpp>
#include <ccrc/io/folded.hpp>

#include "support/diff.hpp"
#include "support/figure1.hpp"

#include <doctest/doctest.h>

#include <string>

namespace {

ccrc::profile xml_run(const char* name) {
  return ccrc::read_folded_file(std::string(CCRC_SOURCE_DIR "/examples/data/") + name);
}

// The second run's ring chart, sized by its last metric, on a 1000 px canvas.
ccrc::ring_layout chart_of(const ccrc::profile& p, const std::vector<double>& ag, double min_px = 0) {
  return ccrc::ring_chart(ccrc::ring_chart_view(ccrc::tree_view(p.tree()), ag), ag,
                          ccrc::on_canvas(1000, 1000, {.min_arc_px = min_px}));
}

}  // namespace

TEST_CASE("the diff ring chart of the XML example: new contexts yellow, parse faster, build unchanged") {
  ccrc::profile a = xml_run("xml_old.folded"), b = xml_run("xml_new.folded");
  const std::vector<std::string> modified = {"SAXBuilder.build(InputSource)"};
  ccrc::cct_diff d = ccrc::diff({a.tree(), a.column("ms"), a.column("calls")}, {b.tree(), b.column("ms"), b.column("calls")},
                                {.modified = modified});
  std::vector<double> ag = ccrc::inclusive(b.tree(), b.column("ms"));
  ccrc::ring_layout chart = chart_of(b, ag);
  std::vector<ccrc::diff_ring_segment> classes = ccrc::diff_ring(d, chart);
  REQUIRE(classes.size() == chart.segments.size());
  CHECK(chart.segments.size() == b.size() - 1);  // main in the center, no line
  const std::string build = "BenchMark.main(String[]);SAXBuilder.build(File);SAXBuilder.build(URL);SAXBuilder.build(InputSource)";
  const std::string proxy = build + ";SAXBuilder.parse_proxy(InputSource, XMLReader)";
  auto of = [&](const std::string& path) {
    ccrc::node_id n = ccrc::node_at_path(b.tree(), path);
    for (std::size_t i = 0; i < chart.segments.size(); ++i)
      if (chart.segments[i].node == n) return classes[i];
    FAIL("no segment for " << path);
    return ccrc::diff_ring_segment{};
  };
  CHECK(of(build).status == ccrc::diff_status::unchanged);  // 100 % of both runs
  CHECK(of(build).height == 0);
  CHECK(of(proxy).status == ccrc::diff_status::added);
  CHECK(of(proxy + ";SAXBuilder.new_method()").status == ccrc::diff_status::added);
  CHECK(of(proxy + ";SAXBuilder.new_method()").height == doctest::Approx(699.0 / 1905));
  CHECK(of(proxy + ";AbstractSAXParser.parse(InputSource)").status == ccrc::diff_status::faster);
  CHECK(of(proxy + ";AbstractSAXParser.parse(InputSource)").height == doctest::Approx(385.0 / 1905 - 495.0 / 942));
}

TEST_CASE("on random pairs, every segment carries its context's class and H, never removed") {
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    test::rng r{seed};
    ccrc::profile first = test::unique_tree(r, 1 + r.below(60));
    ccrc::profile second = test::next_version(first, r, 0.2, 0.2, 2);
    ccrc::cct_diff d = ccrc::diff({first.tree(), first.column("time"), first.column("calls")},
                                  {second.tree(), second.column("time"), second.column("calls")});
    std::vector<double> ag = ccrc::inclusive(second.tree(), second.column("time"));
    ccrc::ring_layout chart = chart_of(second, ag, seed % 2 == 0 ? 0.0 : 5.0);
    std::vector<ccrc::diff_ring_segment> classes = ccrc::diff_ring(d, chart);
    REQUIRE(classes.size() == chart.segments.size());
    for (std::size_t i = 0; i < classes.size(); ++i) {
      ccrc::node_id n = d.matching.from_second[chart.segments[i].node];
      CHECK(classes[i].status == d.status[n]);
      CHECK(classes[i].height == d.height[n]);
      CHECK(classes[i].status != ccrc::diff_status::removed);
    }
  }
}
