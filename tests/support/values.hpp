// Test support: a metric's value at a context and its total, for the readers' tests.
#pragma once

#include <ccrc/tree/path.hpp>
#include <ccrc/tree/profile.hpp>

#include <doctest/doctest.h>

#include <string_view>

namespace test {

/// The value of `metric` at the context `path` ("a;b;c"); fails the test if there is none.
inline double at(const ccrc::profile& p, std::string_view metric, std::string_view path) {
  ccrc::node_id n = ccrc::node_at_path(p.tree(), path);
  REQUIRE_MESSAGE(n != ccrc::null_node, path);
  return p.column(metric)[n];
}

/// The total of `metric` over every context.
inline double total(const ccrc::profile& p, std::string_view metric) {
  double sum = 0;
  for (double v : p.column(metric)) sum += v;
  return sum;
}

}  // namespace test
