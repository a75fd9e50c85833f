#include <ccrc/algorithm/inclusive.hpp>
#include <ccrc/tree/cct.hpp>

#include "support/figure1.hpp"
#include "support/random.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <map>
#include <vector>

TEST_CASE("Figure 1: ag(bytecodes) of every calling context") {
  ccrc::profile p = test::figure1();
  std::vector<double> ag = ccrc::inclusive(p.tree(), p.column("bytecodes"));
  const std::map<std::string, double> figure = {
      {"main", 3238},         {"main;f", 890},        {"main;f;g", 490},     {"main;f;g;h", 110},
      {"main;f;g;h;i", 50},   {"main;f;g;g", 200},    {"main;f;g;g;h", 110}, {"main;f;g;g;h;i", 50},
      {"main;f;h", 220},      {"main;f;h;i", 100},    {"main;g", 490},       {"main;g;h", 110},
      {"main;g;h;i", 50},     {"main;g;g", 200},      {"main;g;g;h", 110},   {"main;g;g;h;i", 50},
      {"main;h", 792},        {"main;h;i", 360}};
  for (const auto& entry : figure) {
    const std::string& path = entry.first;  // not a structured binding: clang 14 cannot capture one
    CAPTURE(path);
    CHECK(ag[ccrc::node_at_path(p.tree(), path)] == entry.second);
  }
  CHECK(ag[ccrc::root_node] == 3238);
}

namespace {

// The definition, recursively: ag(n) = M(n) + sum of ag(c). Fine for the shallow test trees.
template <class T>
T reference(const ccrc::call_tree& t, std::span<const T> self, ccrc::node_id n) {
  T sum = self[n];
  for (ccrc::node_id c : t.children(n)) sum += reference(t, self, c);
  return sum;
}

}  // namespace

TEST_CASE_TEMPLATE("aggregation equals the recursive definition on thousands of random trees", T,
                   std::uint64_t, double, std::int32_t) {
  for (std::uint64_t seed = 1; seed <= 2000; ++seed) {
    test::rng r{seed};
    ccrc::cct<ccrc::metric<"m", T>> t;
    for (const auto& s : test::random_samples(r, 1 + r.below(40), 6, 10, 1))
      t.add_path(test::frames_of(t, s), static_cast<T>(s.values[0]));
    auto self = t.template column<"m">();
    std::vector<T> ag = ccrc::inclusive(t.tree(), self);
    for (ccrc::node_id n = 0; n < t.size(); ++n)
      CHECK(ag[n] == reference<T>(t.tree(), std::span<const T>(self.data(), self.size()), n));
  }
}

TEST_CASE("aggregation in place over a chain of 1,000,000 levels") {
  ccrc::call_tree t;
  std::vector<ccrc::frame_id> stack(1'000'000, t.intern("r"));
  t.add_path(stack);
  std::vector<std::uint64_t> values(t.size(), 1);
  ccrc::inclusive_in_place(t, std::span(values));
  CHECK(values[0] == 1'000'001);
  CHECK(values[500'000] == 500'001);
  CHECK(values.back() == 1);
}
