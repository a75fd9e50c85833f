#include <ccrc/ensemble/ensemble_all.hpp>

#include "support/random_runs.hpp"

#include <doctest/doctest.h>

#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

ccrc::ensemble ensemble_of(const std::vector<ccrc::profile>& runs) {
  ccrc::ensemble e;
  for (const auto& r : runs) e.add(r);
  return e;
}

}  // namespace

TEST_CASE("ensemble_all gives the ensemble of adding in order, bit for bit, on any number of threads") {
  test::rng r{9};
  auto runs = test::random_runs(r, 25);
  ccrc::ensemble want = ensemble_of(runs);
  for (unsigned threads : {1u, 2u, 3u, 8u}) {
    CAPTURE(threads);
    std::vector<std::size_t> order;
    ccrc::ensemble e = ccrc::ensemble_all(
        runs.size(), [&](std::size_t i) { return runs[i]; },
        [&](std::size_t i, const ccrc::profile& run, std::span<const ccrc::node_id> map) {
          order.push_back(i);
          CHECK(map.size() == run.size());
        },
        {.threads = threads});
    std::vector<std::size_t> in_order(runs.size());
    std::iota(in_order.begin(), in_order.end(), 0);
    CHECK(order == in_order);
    test::check_same_tree(e.tree(), want.tree());
    for (ccrc::node_id n = 0; n < want.size(); ++n)
      for (std::size_t m = 0; m < want.metric_count(); ++m)
        for (auto scope : {ccrc::cost_scope::self, ccrc::cost_scope::inclusive}) CHECK(e.at(n, m, scope) == want.at(n, m, scope));
  }
}

TEST_CASE("ensemble_all skips the runs make leaves empty, and rethrows the lowest failing index") {
  test::rng r{10};
  auto runs = test::random_runs(r, 12);
  for (unsigned threads : {1u, 2u, 4u}) {
    ccrc::ensemble e = ccrc::ensemble_all(runs.size(), [&](std::size_t i) -> std::optional<ccrc::profile> {
      if (i % 3 == 1) return std::nullopt;
      return runs[i];
    }, {.threads = threads});
    CHECK(e.runs() == 8);
    std::string what;
    try {
      (void)ccrc::ensemble_all(runs.size(), [&](std::size_t i) {
        if (i == 9 || i == 5) throw std::runtime_error("run " + std::to_string(i));
        return runs[i];
      }, {.threads = threads});
    } catch (const std::runtime_error& ex) {
      what = ex.what();
    }
    CHECK(what == "run 5");
  }
}

