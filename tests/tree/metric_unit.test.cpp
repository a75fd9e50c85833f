#include <ccrc/tree/metric_unit.hpp>

#include <doctest/doctest.h>

#include <string>
#include <vector>

using q = ccrc::metric_unit::quantity;

TEST_CASE("unit_of_metric: the stem and unit a name's suffix states, a count otherwise") {
  auto u = ccrc::unit_of_metric("time_us");
  CHECK(u.stem == "time");
  CHECK(u.unit == "microseconds");
  CHECK(u.measures == q::time);
  u = ccrc::unit_of_metric("cpu_nanoseconds");
  CHECK((u.stem == "cpu" && u.unit == "nanoseconds" && u.measures == q::time));
  u = ccrc::unit_of_metric("self_ns");
  CHECK((u.stem == "self" && u.unit == "nanoseconds"));
  u = ccrc::unit_of_metric("wall_ms");
  CHECK((u.stem == "wall" && u.unit == "milliseconds"));
  // "milliseconds" and "nanoseconds" end in "seconds": the longer suffix wins.
  u = ccrc::unit_of_metric("seconds");
  CHECK((u.stem.empty() && u.unit == "seconds"));
  u = ccrc::unit_of_metric("alloc_space_bytes");
  CHECK((u.stem == "alloc_space" && u.unit == "bytes" && u.measures == q::bytes));
  // "calls" and "runs" end in "s", not "_s" nor "_ns".
  for (const char* count : {"calls", "runs", "samples_count", "samples"}) {
    u = ccrc::unit_of_metric(count);
    CHECK(u.stem == count);
    CHECK(u.unit == "none");
    CHECK(u.measures == q::count);
  }
}

TEST_CASE("disagree_in_unit: one stem, one quantity, two units") {
  CHECK(ccrc::disagree_in_unit("time_us", "time_ns"));
  CHECK(ccrc::disagree_in_unit("cpu_ms", "cpu_nanoseconds"));
  CHECK_FALSE(ccrc::disagree_in_unit("time_us", "time_us"));      // the same metric
  CHECK_FALSE(ccrc::disagree_in_unit("time_us", "self_ns"));      // another stem
  CHECK_FALSE(ccrc::disagree_in_unit("alloc_bytes", "alloc_ns"));  // another quantity
  CHECK_FALSE(ccrc::disagree_in_unit("calls", "samples"));
}

TEST_CASE("unit_disagreement: the first clashing pair, in order of the second") {
  CHECK_FALSE(ccrc::unit_disagreement({}).has_value());
  CHECK_FALSE(ccrc::unit_disagreement({"calls", "time_us", "self_ns", "runs"}).has_value());
  auto clash = ccrc::unit_disagreement({"calls", "time_us", "bytes", "cpu_ms", "time_ns", "cpu_s"});
  REQUIRE(clash.has_value());
  CHECK(clash->first == 1);  // time_us
  CHECK(clash->second == 4);  // time_ns, before cpu_s clashes with cpu_ms
}

TEST_CASE("primary_metric: time first, then samples, then the first metric") {
  using names = std::vector<std::string>;
  CHECK(ccrc::primary_metric(names{"calls", "self_ns", "total_ns"}) == 1);  // an instrumented profile
  CHECK(ccrc::primary_metric(names{"samples_count", "cpu_nanoseconds"}) == 1);  // pprof's CPU profile
  CHECK(ccrc::primary_metric(names{"alloc_space_bytes", "samples"}) == 1);  // bytes are not time
  CHECK(ccrc::primary_metric(names{"bytecodes", "calls", "wall"}) == 2);
  CHECK(ccrc::primary_metric(names{"calls", "bytecodes"}) == 0);  // Figure 1: no time, no samples
  CHECK(ccrc::primary_metric(names{}) == 0);
}

TEST_CASE("a statistic of a metric over runs is in the metric's unit; an ensemble ranks by its time's mean") {
  CHECK(ccrc::unit_of_metric("time_us_mean").unit == "microseconds");
  CHECK(ccrc::unit_of_metric("time_us_std_inc").stem == "time");
  CHECK(ccrc::unit_of_metric("samples_max").measures == ccrc::metric_unit::quantity::count);
  CHECK(ccrc::unit_of_metric("_mean").unit == "none");
  CHECK(ccrc::disagree_in_unit("cpu_ns_mean", "cpu_us_min"));
  // An ensemble of V8 profiles: samples' statistics first, then time_us's.
  std::vector<std::string> names;
  for (const char* m : {"samples", "time_us"})
    for (auto s : ccrc::statistic_suffixes) names.push_back(m + std::string(s));
  names.emplace_back("runs_present");
  CHECK(ccrc::primary_metric(names) == 7);
}
