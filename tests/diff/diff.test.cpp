#include <ccrc/diff/diff.hpp>
#include <ccrc/io/folded.hpp>
#include <ccrc/tree/cct.hpp>

#include "support/diff.hpp"
#include "support/figure1.hpp"
#include "support/random.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>

namespace {

ccrc::profile xml_run(const char* name) {
  return ccrc::read_folded_file(std::string(CCRC_SOURCE_DIR "/examples/data/") + name);
}

ccrc::cct_diff diff_of(const ccrc::profile& a, const ccrc::profile& b, const ccrc::diff_options& options = {}) {
  std::size_t m = a.metric_count() - 1;  // the last metric is the compared one, the first the calls
  return ccrc::diff({a.tree(), a.column(m), a.column(0)}, {b.tree(), b.column(m), b.column(0)}, options);
}

ccrc::node_id of_first(const ccrc::cct_diff& d, const ccrc::profile& p, std::string_view path) {
  return d.matching.from_first[ccrc::node_at_path(p.tree(), path)];
}
ccrc::node_id of_second(const ccrc::cct_diff& d, const ccrc::profile& p, std::string_view path) {
  return d.matching.from_second[ccrc::node_at_path(p.tree(), path)];
}

void check_finite(const ccrc::cct_diff& d) {
  CHECK(std::isfinite(d.total_first));
  CHECK(std::isfinite(d.total_second));
  for (ccrc::node_id n = 0; n < d.tree().size(); ++n) {
    for (double v : {d.first[n], d.second[n], d.calls_first[n], d.calls_second[n], d.height[n], d.width[n],
                     d.share_first(n), d.share_second(n)})
      REQUIRE(std::isfinite(v));
    CHECK(d.width[n] >= 0);
  }
}

const std::string build = "BenchMark.main(String[]);SAXBuilder.build(File);SAXBuilder.build(URL);SAXBuilder.build(InputSource)";
const std::string proxy = build + ";SAXBuilder.parse_proxy(InputSource, XMLReader)";

}  // namespace

TEST_CASE("Figure 5: E (inner) and F (leaf) are new; E is measured against B and C, F against 0") {
  // First run: A calls B, C and D. Second run: A calls E, which calls B and C; D calls F.
  ccrc::profile a = ccrc::read_folded("# metrics: calls ms\nA 1 10\nA;B 2 30\nA;C 3 20\nA;D 4 40\n");
  ccrc::profile b = ccrc::read_folded(
      "# metrics: calls ms\nA 1 10\nA;E 5 40\nA;E;B 2 30\nA;E;C 3 25\nA;D 4 40\nA;D;F 7 30\n");
  ccrc::cct_diff d = diff_of(a, b);
  CHECK(d.total_first == 100);
  CHECK(d.total_second == 175);
  ccrc::node_id e = of_second(d, b, "A;E"), f = of_second(d, b, "A;D;F");
  CHECK(d.status[e] == ccrc::diff_status::added);
  CHECK(d.status[f] == ccrc::diff_status::added);
  // H_E = E²_E − (E¹_B + E¹_C) = 95/175 − 50/100; H_F = E²_F = 30/175.
  CHECK(d.height[e] == doctest::Approx(95.0 / 175 - 0.5));
  CHECK(d.height[f] == doctest::Approx(30.0 / 175));
  // W_E = log(|Ex²_E − Ex¹_A| + 1) = log 5, W_F = log(|Ex²_F − Ex¹_D| + 1) = log 4.
  CHECK(d.width[e] == doctest::Approx(std::log(5.0)));
  CHECK(d.width[f] == doctest::Approx(std::log(4.0)));
  // B and C moved below E and are matched: B's share fell (30 % -> 17 %), D's stayed 40 %.
  ccrc::node_id bn = of_first(d, a, "A;B"), dn = of_first(d, a, "A;D");
  CHECK(d.matching.second_node[bn] == ccrc::node_at_path(b.tree(), "A;E;B"));
  CHECK(d.height[bn] == doctest::Approx(30.0 / 175 - 0.3));
  CHECK(d.status[bn] == ccrc::diff_status::faster);
  CHECK(d.height[dn] == doctest::Approx(0.0));
  CHECK(d.status[dn] == ccrc::diff_status::unchanged);
  CHECK(d.width[bn] == 0);
  check_finite(d);
}

TEST_CASE("the XML example: build(InputSource) doubles its time, is 100 % of both runs, and has H = 0") {
  ccrc::profile a = xml_run("xml_old.folded"), b = xml_run("xml_new.folded");
  std::vector<std::string> modified{"SAXBuilder.build(InputSource)", "SAXBuilder.createParser()"};
  ccrc::cct_diff d = diff_of(a, b, {.modified = modified});
  CHECK(d.total_first == 942);
  CHECK(d.total_second == 1905);
  ccrc::node_id bis = of_first(d, a, build);
  CHECK(d.first[bis] == 942);
  CHECK(d.second[bis] == 1905);
  CHECK(d.share_first(bis) == 1);
  CHECK(d.share_second(bis) == 1);
  CHECK(d.height[bis] == 0);
  CHECK(d.modified(bis));
  CHECK(d.status[bis] == ccrc::diff_status::unchanged);  // modified, but its share did not change

  ccrc::node_id parse = of_first(d, a, build + ";AbstractSAXParser.parse(InputSource)");
  CHECK(d.matching.in_second(parse));
  CHECK(d.height[parse] == doctest::Approx(385.0 / 1905 - 495.0 / 942));  // -0.323: a smaller share
  CHECK(d.status[parse] == ccrc::diff_status::faster);
  ccrc::node_id np = of_second(d, b, proxy), nm = of_second(d, b, proxy + ";SAXBuilder.new_method()");
  CHECK(d.status[np] == ccrc::diff_status::added);
  CHECK(d.status[nm] == ccrc::diff_status::added);
  CHECK(d.height[np] == doctest::Approx(1085.0 / 1905 - 495.0 / 942));  // against parse's old share
  CHECK(d.height[nm] == doctest::Approx(699.0 / 1905));
  ccrc::node_id cp = of_first(d, a, build + ";SAXBuilder.createParser()");
  CHECK(d.height[cp] == doctest::Approx(784.0 / 1905 - 404.0 / 942));
  CHECK(d.status[cp] == ccrc::diff_status::faster_modified);
  // new_method is the tallest box.
  for (ccrc::node_id n = 1; n < d.tree().size(); ++n)
    if (n != nm) CHECK(std::abs(d.height[n]) < d.height[nm]);
  // Every method ran once in both runs: every width is 0.
  for (double w : d.width) CHECK(w == 0);
  check_finite(d);
}

TEST_CASE("identical runs: everything unchanged, H = 0 and W = 0 exactly") {
  ccrc::profile a = test::figure1(), b = test::figure1();
  ccrc::cct_diff d = diff_of(a, b);
  CHECK(d.tree().size() == a.size());
  for (ccrc::node_id n = 0; n < d.tree().size(); ++n) {
    CHECK(d.status[n] == ccrc::diff_status::unchanged);
    CHECK(d.height[n] == 0);
    CHECK(d.width[n] == 0);
  }
}

TEST_CASE("runs differing by a constant factor: the same shares (H = 0), but the counts differ") {
  ccrc::profile a = test::figure1(), b = test::figure1();
  for (double& v : b.column("bytecodes")) v *= 3;
  for (double& v : b.column("calls")) v *= 2;
  ccrc::cct_diff d = diff_of(a, b);
  CHECK(d.total_second == 3 * d.total_first);
  for (ccrc::node_id n = 1; n < d.tree().size(); ++n) {
    CHECK(std::abs(d.height[n]) < 1e-12);
    CHECK(d.status[n] == ccrc::diff_status::unchanged);
    ccrc::node_id an = d.matching.first_node[n];
    CHECK(d.width[n] == doctest::Approx(std::log1p(a.column("calls")[an])));
  }
  CHECK(d.width[of_first(d, a, "main;h;i")] == doctest::Approx(std::log(73.0)));  // 72 more calls
}

TEST_CASE("swapped runs: H changes sign, widths stay, classes mirror") {
  auto check_mirror = [](const ccrc::profile& a, const ccrc::profile& b, const ccrc::diff_options& o) {
    ccrc::cct_diff ab = diff_of(a, b, o), ba = diff_of(b, a, o);
    REQUIRE(ab.tree().size() == ba.tree().size());
    for (ccrc::node_id n = 1; n < ab.tree().size(); ++n) {
      ccrc::node_id m = ab.matching.in_first(n) ? ba.matching.from_second[ab.matching.first_node[n]]
                                                : ba.matching.from_first[ab.matching.second_node[n]];
      CHECK(ba.matching.first_node[m] == ab.matching.second_node[n]);
      CHECK(ba.matching.second_node[m] == ab.matching.first_node[n]);
      CHECK(ba.height[m] == doctest::Approx(-ab.height[n]).epsilon(1e-12));
      CHECK(ba.width[m] == ab.width[n]);
      CHECK(ba.status[m] == ccrc::mirrored(ab.status[n]));
    }
  };
  std::vector<std::string> modified{"SAXBuilder.createParser()"};
  check_mirror(xml_run("xml_old.folded"), xml_run("xml_new.folded"), {.modified = modified});
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    test::rng r{seed};
    ccrc::profile a = test::unique_tree(r, 1 + r.below(80));
    ccrc::profile b = test::next_version(a, r, 0.15, 0.15, 2);
    for (double& v : b.column("time")) v *= r.chance(0.5) ? 1 : 1.5;
    check_mirror(a, b, {.epsilon = 0, .matching = {.max_chain = 8}});
  }
}

TEST_CASE("epsilon: a change of share below it is unchanged, above it slower or faster") {
  ccrc::profile a = ccrc::read_folded("# metrics: calls ms\nmain;f 1 10000\nmain;g 1 10000\n");
  ccrc::profile b = ccrc::read_folded("# metrics: calls ms\nmain;f 1 10000\nmain;g 1 10003\n");
  ccrc::node_id g = 0;
  ccrc::cct_diff d = diff_of(a, b);
  g = of_second(d, b, "main;g");
  CHECK(d.height[g] == doctest::Approx(10003.0 / 20003 - 0.5));  // 7.5e-5 < 1e-4
  CHECK(d.status[g] == ccrc::diff_status::unchanged);
  ccrc::cct_diff fine = diff_of(a, b, {.epsilon = 1e-5});
  CHECK(fine.status[g] == ccrc::diff_status::slower);
  CHECK(fine.status[of_second(fine, b, "main;f")] == ccrc::diff_status::faster);
  CHECK(fine.status[of_second(fine, b, "main")] == ccrc::diff_status::unchanged);  // H = 0
}

TEST_CASE("no NaN or infinity: empty runs, zero totals, non-finite input values") {
  ccrc::profile empty({"calls", "ms"});
  ccrc::profile xml = xml_run("xml_new.folded");
  check_finite(diff_of(empty, empty));
  ccrc::cct_diff from_nothing = diff_of(empty, xml);
  check_finite(from_nothing);
  CHECK(from_nothing.matching.added == xml.size() - 1);
  CHECK(from_nothing.height[of_second(from_nothing, xml, proxy)] == doctest::Approx(1085.0 / 1905));
  ccrc::cct_diff to_nothing = diff_of(xml, empty);
  check_finite(to_nothing);
  CHECK(to_nothing.status[of_first(to_nothing, xml, proxy)] == ccrc::diff_status::removed);

  ccrc::profile zero = xml_run("xml_old.folded"), weird = xml_run("xml_new.folded");
  for (double& v : zero.column("ms")) v = 0;
  weird.column("ms")[3] = std::numeric_limits<double>::quiet_NaN();
  weird.column("ms")[4] = std::numeric_limits<double>::infinity();
  weird.column("calls")[5] = -std::numeric_limits<double>::infinity();
  weird.column("ms")[6] = std::numeric_limits<double>::max();
  weird.column("ms")[7] = std::numeric_limits<double>::max();  // the sum overflows
  check_finite(diff_of(zero, weird));
  check_finite(diff_of(weird, zero));
  check_finite(diff_of(weird, weird));
}

TEST_CASE("any metric columns: a cct with integer counts, and a run without counts") {
  using cct = ccrc::cct<ccrc::metric<"calls">, ccrc::metric<"time", double>>;
  cct a, b;
  std::vector<ccrc::frame_id> fa{a.intern("main"), a.intern("f")}, fb{b.intern("main"), b.intern("f")};
  a.add_path(std::span(fa).first(1), std::uint64_t{1}, 1.0);
  a.add_path(fa, std::uint64_t{10}, 1.0);
  b.add_path(std::span(fb).first(1), std::uint64_t{1}, 1.0);
  b.add_path(fb, std::uint64_t{30}, 3.0);
  ccrc::cct_diff d = ccrc::diff({a.tree(), a.column<"time">(), a.column<"calls">()},
                                {b.tree(), b.column<"time">(), b.column<"calls">()});
  ccrc::node_id f = d.matching.from_first[2];
  CHECK(d.height[f] == doctest::Approx(0.75 - 0.5));
  CHECK(d.width[f] == doctest::Approx(std::log(21.0)));
  CHECK(d.status[f] == ccrc::diff_status::slower);
  ccrc::cct_diff no_counts = ccrc::diff({a.tree(), a.column<"time">()}, {b.tree(), b.column<"time">()});
  CHECK(no_counts.height[f] == d.height[f]);
  CHECK(no_counts.width[f] == 0);
}

TEST_CASE("run_column: the diff's status and H seen from the second run's nodes (for a ring chart)") {
  ccrc::profile a = xml_run("xml_old.folded"), b = xml_run("xml_new.folded");
  ccrc::cct_diff d = diff_of(a, b);
  std::vector<ccrc::diff_status> status = ccrc::run_column(d.matching.from_second, d.status);
  std::vector<double> height = ccrc::run_column(d.matching.from_second, d.height);
  REQUIRE(status.size() == b.size());
  CHECK(status[ccrc::node_at_path(b.tree(), proxy)] == ccrc::diff_status::added);
  CHECK(status[ccrc::node_at_path(b.tree(), proxy + ";AbstractSAXParser.parse(InputSource)")] == ccrc::diff_status::faster);
  CHECK(height[ccrc::node_at_path(b.tree(), proxy + ";SAXBuilder.new_method()")] == doctest::Approx(699.0 / 1905));
  std::vector<ccrc::diff_status> old_status = ccrc::run_column(d.matching.from_first, d.status);
  CHECK(old_status.size() == a.size());
}

TEST_CASE("status names and mirroring") {
  CHECK(ccrc::to_string(ccrc::diff_status::added) == "new");
  CHECK(ccrc::to_string(ccrc::diff_status::slower_modified) == "slower_modified");
  CHECK(ccrc::to_string(ccrc::diff_status::removed) == "removed");
  CHECK(ccrc::mirrored(ccrc::diff_status::faster_modified) == ccrc::diff_status::slower_modified);
  CHECK(ccrc::mirrored(ccrc::diff_status::unchanged) == ccrc::diff_status::unchanged);
}
