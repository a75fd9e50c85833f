#include <ccrc/ensemble/distance.hpp>
#include <ccrc/ensemble/statistics.hpp>

#include <ccrc/io/folded.hpp>

#include "support/naive_ensemble.hpp"
#include "support/random_runs.hpp"

#include <doctest/doctest.h>

#include <sstream>
#include <string>
#include <vector>

namespace {

// The share vectors of `runs`' metric `metric`, over their ensemble.
std::vector<ccrc::share_vector> shares_of(const std::vector<ccrc::profile>& runs, std::string_view metric) {
  ccrc::ensemble e;
  std::vector<ccrc::share_vector> out;
  for (const auto& run : runs) {
    auto map = e.add(run);
    auto m = run.find_metric(metric);
    out.push_back(m ? ccrc::share_vector_of(run.column(*m), map) : ccrc::share_vector{});
  }
  return out;
}

}  // namespace

TEST_CASE("distances of three runs worked out by hand") {
  // A: f 2, g 4 (shares 1/3, 2/3); B: f 6 (1); C: main 1, g 2, g;h 9 (1/12, 1/6, 3/4).
  std::vector<ccrc::profile> runs = {ccrc::read_folded("main;f 2\nmain;g 4\n"), ccrc::read_folded("main;f 6\n"),
                                     ccrc::read_folded("main 1\nmain;g 2\nmain;g;h 9\n")};
  auto shares = shares_of(runs, "samples");
  CHECK(shares[0].nodes.size() == 2);
  CHECK(shares[0].shares[1] == doctest::Approx(2.0 / 3));
  ccrc::distance_matrix d = ccrc::distances(shares);
  CHECK(d.size() == 3);
  CHECK(d(0, 1) == doctest::Approx(2.0 / 3));  // (|1/3 - 1| + 2/3) / 2
  CHECK(d(0, 2) == doctest::Approx(5.0 / 6));  // (1/12 + 1/3 + |2/3 - 1/6| + 3/4) / 2
  CHECK(d(1, 2) == 1);                         // nothing in common
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(d(i, i) == 0);
    for (std::size_t j = 0; j < 3; ++j) CHECK(d(i, j) == d(j, i));
  }
}

TEST_CASE("distance: 0 for runs that spend alike, 1 for disjoint ones and against a run with no cost") {
  ccrc::profile a = ccrc::read_folded("x 1\ny 3\n"), twice = ccrc::read_folded("x 2\ny 6\n"), other = ccrc::read_folded("z 5\n");
  ccrc::profile none = ccrc::read_folded("x 0\n");
  auto s = shares_of({a, twice, other, none, none}, "samples");
  CHECK(ccrc::distance(s[0], s[1]) == 0);  // the same shares, whatever the totals
  CHECK(ccrc::distance(s[0], s[2]) == 1);
  CHECK(ccrc::distance(s[0], s[3]) == 1);
  CHECK(ccrc::distance(s[3], s[4]) == 0);
  // Negative values (a heap profile's frees): shares of the sum of absolute values.
  ccrc::profile mixed;  // folded text has no negative counts
  mixed.add_path(std::vector<ccrc::frame_id>{mixed.intern("x")}, std::vector<double>{3});
  mixed.add_path(std::vector<ccrc::frame_id>{mixed.intern("y")}, std::vector<double>{-1});
  auto m = shares_of({mixed, ccrc::read_folded("x 3\n")}, "samples");
  CHECK(m[0].shares[1] == doctest::Approx(-0.25));
  CHECK(ccrc::distance(m[0], m[1]) == doctest::Approx(0.25));  // (|0.75 - 1| + 0.25) / 2
}

TEST_CASE("distances equal the naive reference over folded paths, whatever the threads") {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    CAPTURE(seed);
    test::rng r{seed};
    auto runs = test::random_runs(r, 2 + r.below(12));
    std::vector<naive::run> texts;
    for (const auto& run : runs) {
      std::ostringstream out;
      ccrc::write_folded(out, run);
      texts.push_back(naive::parse_folded(out.str()));
    }
    for (const char* metric : {"m0", "m2"}) {  // m2: only the odd runs measure it
      auto shares = shares_of(runs, metric);
      ccrc::distance_matrix one = ccrc::distances(shares, {.threads = 1}), three = ccrc::distances(shares, {.threads = 3});
      for (std::size_t i = 0; i < runs.size(); ++i)
        for (std::size_t j = 0; j < runs.size(); ++j) {
          CHECK(one(i, j) == doctest::Approx(naive::distance(texts[i], texts[j], metric)).epsilon(1e-12));
          CHECK(one(i, j) == three(i, j));
          CHECK(one(i, j) == one(j, i));
        }
    }
  }
}
