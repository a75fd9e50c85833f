// Random runs of one program for the ensemble tests, and the checks they share.
#pragma once

#include "support/random.hpp"

#include <ccrc/tree/call_tree.hpp>
#include <ccrc/tree/profile.hpp>

#include <doctest/doctest.h>

#include <vector>

namespace test {

/// Random runs of one program: a shared pool of stacks, of which each run keeps some, with
/// values of its own; odd runs measure m0..m2, even ones m0 and m1 only (so some lack a metric).
inline std::vector<ccrc::profile> random_runs(rng& r, std::size_t count) {
  auto pool = random_samples(r, 30 + r.below(30), 3 + r.below(6), 2 + r.below(7), 3);
  std::vector<ccrc::profile> out;
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t metrics = 2 + i % 2;
    std::vector<sample> kept;
    for (const auto& s : pool)
      if (r.chance(0.7)) {
        sample t = s;
        t.values.resize(metrics);
        for (double& v : t.values) v = r.chance(0.2) ? 0.0 : static_cast<double>(r.below(1000));
        kept.push_back(std::move(t));
      }
    if (kept.empty()) kept.push_back({{"m0"}, std::vector<double>(metrics, 1.0)});
    out.push_back(profile_of(kept, metrics));
  }
  return out;
}

/// Same contexts with the same ids, frames and children.
inline void check_same_tree(const ccrc::call_tree& a, const ccrc::call_tree& b) {
  REQUIRE(a.size() == b.size());
  for (ccrc::node_id n = 1; n < a.size(); ++n) {
    CHECK(a.parent(n) == b.parent(n));
    CHECK(a.name(n) == b.name(n));
    CHECK(a.next_sibling(n) == b.next_sibling(n));
  }
}

}  // namespace test
