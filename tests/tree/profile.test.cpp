#include <ccrc/tree/profile.hpp>

#include <doctest/doctest.h>

#include <string>
#include <vector>

TEST_CASE("a profile's metrics are named at run time") {
  ccrc::profile p({"calls", "bytecodes"});
  CHECK(p.metric_count() == 2);
  CHECK(p.metric_name(1) == "bytecodes");
  CHECK(p.find_metric("calls") == 0);
  CHECK_FALSE(p.find_metric("time").has_value());
  std::vector<ccrc::frame_id> stack = {p.intern("main"), p.intern("f")};
  std::vector<double> values = {20, 180};
  ccrc::node_id f = p.add_path(stack, values);
  CHECK(p.column("bytecodes")[f] == 180);
  CHECK(p.column(0)[f] == 20);
  CHECK(p.column(0)[p.tree().parent(f)] == 0);
}

TEST_CASE("by default a profile has one metric, samples") {
  ccrc::profile p;
  CHECK(p.metric_names() == std::vector<std::string>{"samples"});
  CHECK(p.column(0).size() == 1);
}

TEST_CASE("asking for a metric the profile lacks names the ones it has") {
  ccrc::profile p({"calls", "bytecodes"});
  CHECK_THROWS_WITH_AS((void)p.metric_index("time"), "no metric named 'time' (this profile has: calls, bytecodes)",
                       ccrc::error);
  CHECK_THROWS_AS(ccrc::profile({"a", "a"}), ccrc::error);
  CHECK_THROWS_AS(ccrc::profile(std::vector<std::string>{}), ccrc::error);
  CHECK_THROWS_AS(p.add_metric(""), ccrc::error);
}

TEST_CASE("a metric added later is zero on the existing nodes") {
  ccrc::profile p;
  p.add_path(std::vector<ccrc::frame_id>{p.intern("a"), p.intern("b")}, std::vector<double>{3});
  std::size_t i = p.add_metric("time");
  CHECK(i == 1);
  CHECK(p.column("time").size() == p.size());
  for (double v : p.column("time")) CHECK(v == 0);
}
