#include <ccrc/ensemble/profile.hpp>

#include <ccrc/algorithm/inclusive.hpp>
#include <ccrc/io/folded.hpp>
#include <ccrc/tree/path.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

namespace {

ccrc::ensemble three_runs() {
  ccrc::ensemble e;
  for (const char* text : {"main;f 2\nmain;g 4\n", "main;f 6\n", "main 1\nmain;g 2\nmain;g;h 9\n"}) e.add(ccrc::read_folded(text));
  return e;
}

}  // namespace

TEST_CASE("an ensemble as a profile: the statistics as metrics, by hand") {
  ccrc::profile p = ccrc::ensemble_profile(three_runs());
  CHECK(p.metric_names() == std::vector<std::string>{"samples_mean", "samples_min", "samples_max", "samples_std",
                                                     "samples_min_inc", "samples_max_inc", "samples_std_inc", "runs_present"});
  ccrc::node_id g = ccrc::node_at_path(p.tree(), "main;g");
  // main;g: self 4, 0, 2; inclusive 4, 0, 11; in two runs.
  CHECK(p.column("samples_mean")[g] == 2);
  CHECK(p.column("samples_min")[g] == 0);
  CHECK(p.column("samples_max")[g] == 4);
  CHECK(p.column("samples_std")[g] == doctest::Approx(std::sqrt(8.0 / 3)));
  CHECK(p.column("samples_min_inc")[g] == 0);
  CHECK(p.column("samples_max_inc")[g] == 11);
  CHECK(p.column("samples_std_inc")[g] == doctest::Approx(std::sqrt(62.0 / 3)));
  CHECK(p.column("runs_present")[g] == 2);
  // ag of the means is the mean of the inclusive values: main's is 8 (6, 6, 12).
  auto ag = ccrc::inclusive(p.tree(), p.column("samples_mean"));
  CHECK(ag[ccrc::node_at_path(p.tree(), "main")] == doctest::Approx(8));
  // The root holds nothing: a folded file takes the profile, and gives it back.
  for (std::size_t m = 0; m < p.metric_count(); ++m) CHECK(p.column(m)[ccrc::root_node] == 0);
  std::ostringstream out;
  ccrc::write_folded(out, p);
  ccrc::profile back = ccrc::read_folded(out.str());
  CHECK(back.metric_names() == p.metric_names());
  CHECK(back.column("samples_max_inc")[ccrc::node_at_path(back.tree(), "main")] == 12);
}

TEST_CASE("find_ensemble_metrics recognises an ensemble profile's columns, and nothing else") {
  ccrc::profile p = ccrc::ensemble_profile(three_runs());
  auto found = ccrc::find_ensemble_metrics(p.metric_names());
  REQUIRE(found);
  CHECK(found->present == 7);
  REQUIRE(found->metrics.size() == 1);
  CHECK(found->metrics[0].name == "samples");
  CHECK((*found).metrics[0][ccrc::ensemble_statistic::std_inc] == 6);
  CHECK(found->metric_of(3) == 0);
  CHECK(!found->metric_of(7));
  CHECK(!ccrc::find_ensemble_metrics({"samples", "time_us"}));
  CHECK(!ccrc::find_ensemble_metrics({"samples_mean", "samples_min", "samples_max", "samples_std", "runs_present"}));
  // Two metrics, with another beside them.
  std::vector<std::string> names = {"calls"};
  for (std::string m : {"a", "a_inc"})
    for (auto s : ccrc::ensemble_suffixes) names.push_back(m + std::string(s));
  names.emplace_back("runs_present");
  auto two = ccrc::find_ensemble_metrics(names);
  REQUIRE(two);
  CHECK(two->metrics.size() == 2);
  CHECK(two->metrics[1].name == "a_inc");
  CHECK(two->metrics[0][ccrc::ensemble_statistic::min_inc] == 5);  // a_min_inc, not a_inc_min
}

TEST_CASE("no statistic's suffix ends another's, so names from distinct metrics never meet") {
  for (auto a : ccrc::ensemble_suffixes)
    for (auto b : ccrc::ensemble_suffixes)
      if (a != b) CHECK(!a.ends_with(b));
}

TEST_CASE("counterpart_metric pairs a run's metric with an ensemble's mean, both ways") {
  std::vector<std::string> ensemble = {"samples_mean", "samples_min", "runs_present"}, run = {"calls", "samples"};
  CHECK(ccrc::counterpart_metric(ensemble, "samples") == 0);
  CHECK(ccrc::counterpart_metric(run, "samples_mean") == 1);
  CHECK(ccrc::counterpart_metric(run, "calls") == 0);
  CHECK(ccrc::counterpart_metric(ensemble, "samples_min") == 1);
  CHECK(!ccrc::counterpart_metric(run, "time_ns"));
  CHECK(!ccrc::counterpart_metric(run, "samples_min"));
}
