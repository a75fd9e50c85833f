// Every public header in one translation unit, beside the per-header tests in others: catches
// a definition that is not inline (a duplicate symbol at link time) and umbrella omissions.
#include <ccrc/ccrc.hpp>
#include <ccrc/fwd.hpp>

#include <doctest/doctest.h>

TEST_CASE("the umbrella header declares the core types") {
  ccrc::cct<ccrc::metric<"calls">> t;
  ccrc::profile p;
  CHECK(t.size() == 1);
  CHECK(p.metric_names() == std::vector<std::string>{"samples"});
}
