#include <ccrc/ensemble/statistics.hpp>

#include <ccrc/io/folded.hpp>
#include <ccrc/tree/path.hpp>

#include "support/naive_ensemble.hpp"
#include "support/random.hpp"
#include "support/random_runs.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

ccrc::profile folded(std::string_view text) { return ccrc::read_folded(text); }

// The three runs worked out by hand below.
std::vector<ccrc::profile> three_runs() {
  return {folded("main;f 2\nmain;g 4\n"), folded("main;f 6\n"), folded("main 1\nmain;g 2\nmain;g;h 9\n")};
}

ccrc::ensemble ensemble_of(const std::vector<ccrc::profile>& runs) {
  ccrc::ensemble e;
  for (const auto& r : runs) e.add(r);
  return e;
}

bool close(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b)); }

void check_close(const ccrc::value_statistics& s, const naive::statistics& want) {
  CHECK(close(s.mean, want.mean));
  CHECK(close(s.std, want.std));
  CHECK(s.min == want.min);  // extremes are values of the runs, or 0: exact
  CHECK(s.max == want.max);
}

// Every context of `e` against the naive reference computed from the runs' folded text.
void check_against_reference(const ccrc::ensemble& e, const std::vector<ccrc::profile>& runs) {
  std::vector<naive::run> texts;
  for (const auto& r : runs) {
    std::ostringstream out;
    ccrc::write_folded(out, r);
    texts.push_back(naive::parse_folded(out.str()));
  }
  auto want = naive::ensemble(texts);
  REQUIRE(e.size() - 1 == want.size());
  for (const auto& [path, context] : want) {
    ccrc::node_id n = ccrc::node_at_path(e.tree(), path);
    const std::string& at = path;  // clang 14's lambdas (CAPTURE's) take no structured binding
    CAPTURE(at);
    CHECK(e.present(n) == context.present);
    for (const auto& [metric, stats] : context.self) {
      const std::string& of = metric;
      CAPTURE(of);
      check_close(e.statistics(n, e.metric_index(metric), ccrc::cost_scope::self), stats);
      check_close(e.statistics(n, e.metric_index(metric), ccrc::cost_scope::inclusive), context.inclusive.at(metric));
    }
  }
}

}  // namespace

TEST_CASE("three runs worked out by hand: every statistic of the self and inclusive values") {
  ccrc::ensemble e = ensemble_of(three_runs());
  CHECK(e.runs() == 3);
  CHECK(e.size() == 5);
  CHECK(e.metric_names() == std::vector<std::string>{"samples"});
  auto at = [&](std::string_view path, ccrc::cost_scope scope) {
    return e.statistics(ccrc::node_at_path(e.tree(), path), 0, scope);
  };
  auto check = [](ccrc::value_statistics s, double mean, double min, double max, double std) {
    CHECK(s.mean == doctest::Approx(mean).epsilon(1e-12));
    CHECK(s.min == min);
    CHECK(s.max == max);
    CHECK(s.std == doctest::Approx(std).epsilon(1e-12));
  };
  using enum ccrc::cost_scope;
  // main: self 0, 0, 1; inclusive 6, 6, 12.
  check(at("main", self), 1.0 / 3, 0, 1, std::sqrt(2.0 / 9));
  check(at("main", inclusive), 8, 6, 12, std::sqrt(8.0));
  // main;f: 2, 6 and absent (0): mean 8/3, squared deviations 168/9.
  check(at("main;f", self), 8.0 / 3, 0, 6, std::sqrt(56.0) / 3);
  check(at("main;f", inclusive), 8.0 / 3, 0, 6, std::sqrt(56.0) / 3);
  // main;g: self 4, 0, 2; inclusive 4, 0, 11.
  check(at("main;g", self), 2, 0, 4, std::sqrt(8.0 / 3));
  check(at("main;g", inclusive), 5, 0, 11, std::sqrt(62.0 / 3));
  // main;g;h: only in the third run, with 9.
  check(at("main;g;h", self), 3, 0, 9, std::sqrt(18.0));
  for (auto [path, runs] : {std::pair{"", 3u}, {"main", 3u}, {"main;f", 2u}, {"main;g", 2u}, {"main;g;h", 1u}})
    CHECK(e.present(ccrc::node_at_path(e.tree(), path)) == runs);
  // The root: in every run, its inclusive values the runs' totals.
  check(e.statistics(ccrc::root_node, 0, inclusive), 8, 6, 12, std::sqrt(8.0));
  check(e.statistics(ccrc::root_node, 0, self), 0, 0, 0, 0);
}

TEST_CASE("a context no run has yet, and a metric only later runs measure, count zeros for the runs before") {
  ccrc::ensemble e;
  e.add(folded("a 4\n"));
  e.add(folded("a 4\n"));
  e.add(folded("# metrics: samples time_ns\na 4 10\nb 2 30\n"));
  CHECK(e.metric_names() == std::vector<std::string>{"samples", "time_ns"});
  ccrc::node_id a = ccrc::node_at_path(e.tree(), "a"), b = ccrc::node_at_path(e.tree(), "b");
  auto time = e.statistics(a, 1, ccrc::cost_scope::self);
  CHECK(time.mean == doctest::Approx(10.0 / 3));
  CHECK(time.min == 0);
  CHECK(time.max == 10);
  auto samples_b = e.statistics(b, 0, ccrc::cost_scope::self);
  CHECK(samples_b.mean == doctest::Approx(2.0 / 3));
  CHECK(samples_b.std == doctest::Approx(std::sqrt(8.0 / 9)));
  CHECK(e.present(b) == 1);
  // a is in every run with 4: exactly 4, exactly no spread.
  CHECK(e.statistics(a, 0, ccrc::cost_scope::self).mean == 4);
  CHECK(e.statistics(a, 0, ccrc::cost_scope::self).std == 0);
}

TEST_CASE("the ensemble equals the naive reference over folded paths on random runs") {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    CAPTURE(seed);
    test::rng r{seed};
    auto runs = test::random_runs(r, 1 + r.below(12));
    check_against_reference(ensemble_of(runs), runs);
  }
}

TEST_CASE("N copies of a profile: their mean is the profile, exactly, with no spread, present in all") {
  test::rng r{5};
  ccrc::profile p = test::profile_of(test::random_samples(r, 80, 7, 8, 2), 2);
  for (std::size_t copies : {1u, 2u, 7u, 30u}) {
    ccrc::ensemble e = ensemble_of(std::vector<ccrc::profile>(copies, p));
    auto ag = ccrc::inclusive_columns(p);
    test::check_same_tree(e.tree(), p.tree());
    for (ccrc::node_id n = 0; n < p.size(); ++n) {
      CHECK(e.present(n) == copies);
      for (std::size_t m = 0; m < 2; ++m) {
        auto self = e.statistics(n, m, ccrc::cost_scope::self), inclusive = e.statistics(n, m, ccrc::cost_scope::inclusive);
        CHECK(self.mean == p.column(m)[n]);
        CHECK(self.min == p.column(m)[n]);
        CHECK(self.max == p.column(m)[n]);
        CHECK(self.std == 0);
        CHECK(inclusive.mean == ag[m][n]);
        CHECK(inclusive.std == 0);
      }
    }
  }
}

TEST_CASE("means are linear: the mean of the inclusive values is the inclusive of the mean self values") {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    test::rng r{seed};
    ccrc::ensemble e = ensemble_of(test::random_runs(r, 2 + r.below(10)));
    for (std::size_t m = 0; m < e.metric_count(); ++m) {
      auto mean_of_inclusive = e.columns(m, ccrc::cost_scope::inclusive).mean;
      auto inclusive_of_mean = ccrc::inclusive(e.tree(), e.columns(m, ccrc::cost_scope::self).mean);
      for (ccrc::node_id n = 0; n < e.size(); ++n) CHECK(close(inclusive_of_mean[n], mean_of_inclusive[n]));
    }
  }
}

TEST_CASE("the order of the runs changes no statistic of any context") {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    test::rng r{seed};
    auto runs = test::random_runs(r, 2 + r.below(10));
    ccrc::ensemble e = ensemble_of(runs);
    std::reverse(runs.begin(), runs.end());
    std::rotate(runs.begin(), runs.begin() + r.below(static_cast<std::uint32_t>(runs.size())), runs.end());
    ccrc::ensemble f = ensemble_of(runs);
    REQUIRE(e.size() == f.size());
    for (ccrc::node_id n = 0; n < e.size(); ++n) {
      ccrc::node_id k = ccrc::node_at_path(f.tree(), ccrc::path_string(e.tree(), n));
      CHECK(e.present(n) == f.present(k));
      for (std::size_t m = 0; m < e.metric_count(); ++m)
        for (auto scope : {ccrc::cost_scope::self, ccrc::cost_scope::inclusive}) {
          auto a = e.statistics(n, m, scope), b = f.statistics(k, f.metric_index(e.metric_names()[m]), scope);
          CHECK(close(a.mean, b.mean));
          CHECK(close(a.std, b.std));
          CHECK(a.min == b.min);
          CHECK(a.max == b.max);
        }
    }
  }
}

TEST_CASE("combine: partial ensembles of consecutive runs, joined in any grouping, equal adding all in order") {
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    CAPTURE(seed);
    test::rng r{seed};
    auto runs = test::random_runs(r, 3 + r.below(12));
    ccrc::ensemble all = ensemble_of(runs);
    // Cut into parts at random places; join left to right, and as a balanced tree.
    std::vector<ccrc::ensemble> parts(1);
    for (const auto& run : runs) {
      if (parts.back().runs() > 0 && r.chance(0.4)) parts.emplace_back();
      parts.back().add(run);
    }
    ccrc::ensemble left = parts[0];
    for (std::size_t i = 1; i < parts.size(); ++i) left.combine(parts[i]);
    for (std::size_t step = 1; step < parts.size(); step *= 2)
      for (std::size_t i = 0; i + step < parts.size(); i += 2 * step) parts[i].combine(parts[i + step]);
    for (const ccrc::ensemble* joined : {&left, &parts[0]}) {
      CHECK(joined->runs() == runs.size());
      CHECK(joined->metric_names() == all.metric_names());
      test::check_same_tree(joined->tree(), all.tree());
      for (ccrc::node_id n = 0; n < all.size(); ++n) {
        CHECK(joined->present(n) == all.present(n));
        for (std::size_t m = 0; m < all.metric_count(); ++m)
          for (auto scope : {ccrc::cost_scope::self, ccrc::cost_scope::inclusive}) {
            auto a = joined->at(n, m, scope), b = all.at(n, m, scope);
            CHECK(a.count == b.count);
            CHECK(close(a.mean, b.mean));
            CHECK(std::abs(a.m2 - b.m2) <= 1e-9 * std::max(1.0, b.m2));
            CHECK(a.min == b.min);
            CHECK(a.max == b.max);
          }
      }
    }
    check_against_reference(left, runs);
  }
}

TEST_CASE("combine of moments by hand, and with an empty side") {
  // {1, 2} and {4, 5, 6}: together mean 18/5, squared deviations 17.2.
  ccrc::moments a{2, 1.5, 0.5, 1, 2}, b{3, 5, 2, 4, 6};
  ccrc::moments ab = ccrc::combine(a, b);
  CHECK(ab.count == 5);
  CHECK(ab.mean == doctest::Approx(3.6));
  CHECK(ab.m2 == doctest::Approx(17.2));
  CHECK(ab.min == 1);
  CHECK(ab.max == 6);
  CHECK(ccrc::combine(a, {}) == a);
  CHECK(ccrc::combine({}, b) == b);
  auto s = ccrc::statistics_of(ab);
  CHECK(s.std == doctest::Approx(std::sqrt(17.2 / 5)));
  CHECK(ccrc::statistics_of({}).mean == 0);
}

TEST_CASE("from_moments rebuilds an ensemble from its parts, statistic for statistic") {
  test::rng r{3};
  ccrc::ensemble e = ensemble_of(test::random_runs(r, 6));
  std::vector<std::vector<ccrc::moments>> columns;
  for (std::size_t m = 0; m < e.metric_count(); ++m)
    for (auto scope : {ccrc::cost_scope::self, ccrc::cost_scope::inclusive}) {
      auto& c = columns.emplace_back();
      for (ccrc::node_id n = 0; n < e.size(); ++n) c.push_back(e.at(n, m, scope));
    }
  ccrc::ensemble f = ccrc::ensemble::from_moments(e.tree(), e.metric_names(), e.runs(),
                                                  {e.present().begin(), e.present().end()}, columns);
  CHECK(f.runs() == e.runs());
  for (ccrc::node_id n = 0; n < e.size(); ++n)
    for (std::size_t m = 0; m < e.metric_count(); ++m)
      for (auto scope : {ccrc::cost_scope::self, ccrc::cost_scope::inclusive}) CHECK(f.at(n, m, scope) == e.at(n, m, scope));
  // And it goes on taking runs.
  auto more = test::random_runs(r, 2);
  for (const auto& run : more) {
    e.add(run);
    f.add(run);
  }
  // The same updates in the same order, to the rounding of the compiler's arithmetic.
  for (ccrc::node_id n = 0; n < e.size(); ++n) {
    const ccrc::moments a = f.at(n, 0, ccrc::cost_scope::self), b = e.at(n, 0, ccrc::cost_scope::self);
    CHECK(a.count == b.count);
    CHECK(a.min == b.min);
    CHECK(a.max == b.max);
    CHECK(close(a.mean, b.mean));
    CHECK(close(a.m2, b.m2));
  }
}

TEST_CASE("a million-deep chain: added, combined and read without recursion") {
  ccrc::profile chain({"samples"});
  std::vector<ccrc::frame_id> frames(1'000'000, chain.intern("f"));
  chain.add_path(frames, std::vector<double>{1});
  ccrc::ensemble e, f;
  e.add(chain);
  f.add(chain);
  f.add(ccrc::profile({"samples"}));
  e.combine(f);
  CHECK(e.runs() == 3);
  CHECK(e.size() == 1'000'001);
  auto deepest = e.statistics(1'000'000, 0, ccrc::cost_scope::self);
  CHECK(deepest.mean == doctest::Approx(2.0 / 3));
  CHECK(e.statistics(1, 0, ccrc::cost_scope::inclusive).mean == doctest::Approx(2.0 / 3));
  CHECK(e.present(1) == 2);
}
