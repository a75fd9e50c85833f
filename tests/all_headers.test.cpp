// Every public header in one translation unit, beside the per-header tests in others: catches
// a definition that is not inline (a duplicate symbol at link time) and umbrella omissions.
#include <ccrc/ccrc.hpp>
#include <ccrc/fwd.hpp>
// Opt-in, not in the umbrella header.
#include <ccrc/generate/dacapo.hpp>
#include <ccrc/generate/generator.hpp>
#include <ccrc/generate/methods.hpp>
#include <ccrc/generate/metrics.hpp>
#include <ccrc/generate/model.hpp>
#include <ccrc/generate/names.hpp>
#include <ccrc/generate/recursion.hpp>
#include <ccrc/generate/shape.hpp>
#include <ccrc/generate/skeleton.hpp>

#include <doctest/doctest.h>

TEST_CASE("the umbrella header declares the core types") {
  ccrc::cct<ccrc::metric<"calls">> t;
  ccrc::profile p;
  CHECK(t.size() == 1);
  CHECK(p.metric_names() == std::vector<std::string>{"samples"});
}
