#include <ccrc/algorithm/depth.hpp>
#include <ccrc/generate/generator.hpp>

#include "support/equal.hpp"
#include "support/random.hpp"
#include "support/shape.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <vector>

namespace {

// For every node whose method is already on its path: how far up the nearest such ancestor
// is (1: direct recursion). Iterative: each method's depths on the current path, restored on
// the way up.
std::vector<std::uint32_t> recursion_distances(const ccrc::call_tree& t) {
  std::vector<std::uint32_t> out, last(t.symbols().method_count(), 0);
  std::vector<std::uint32_t> undo;
  ccrc::depth_first(
      ccrc::tree_view(t),
      [&](ccrc::node_id n, std::uint32_t level) {
        if (n == ccrc::root_node) return;
        std::uint32_t& l = last[t.method(n)];
        if (l != 0) out.push_back(level - l);
        undo.push_back(l);
        l = level;
      },
      [&](ccrc::node_id n, std::uint32_t) {
        if (n == ccrc::root_node) return;
        last[t.method(n)] = undo.back();
        undo.pop_back();
      });
  return out;
}

}  // namespace

TEST_CASE("a generated tree has exactly the requested statistics, before and after recursion elimination") {
  const std::array<ccrc::cct_shape, 5> shapes = {{
      {.nodes = 20000, .max_depth = 120, .methods = 800, .calls = 3e6, .recursion_free_nodes = 8000, .recursion_free_depth = 30},
      {.nodes = 5000, .max_depth = 40, .methods = 300, .calls = 5000, .recursion_free_nodes = 5000, .recursion_free_depth = 40},
      {.nodes = 3000, .max_depth = 25, .methods = 200, .calls = 1e9, .recursion_free_nodes = 2000, .recursion_free_depth = 25},
      {.nodes = 1000, .max_depth = 900, .methods = 50, .calls = 2000, .recursion_free_nodes = 60, .recursion_free_depth = 12},
      {.nodes = 400, .max_depth = 6, .methods = 30, .calls = 12345, .recursion_free_nodes = 100, .recursion_free_depth = 5},
  }};
  for (const auto& shape : shapes) {
    for (std::uint64_t seed : {1u, 2u, 3u}) {
      CAPTURE(shape.nodes);
      CAPTURE(seed);
      ccrc::profile p = ccrc::generate_cct(shape, seed);
      test::check_shape(ccrc::shape_of(p), shape);
      CHECK(p.metric_names() == std::vector<std::string>{"calls", "bytecodes"});
    }
  }
}

TEST_CASE("tiny and extreme shapes: one node, a chain, all top-level, recursion without extra depth") {
  test::check_shape(ccrc::shape_of(ccrc::generate_cct({1, 1, 1, 1, 1, 1})), {1, 1, 1, 1, 1, 1});
  test::check_shape(ccrc::shape_of(ccrc::generate_cct({7, 7, 7, 7, 7, 7})), {7, 7, 7, 7, 7, 7});
  test::check_shape(ccrc::shape_of(ccrc::generate_cct({9, 1, 9, 50, 9, 1})), {9, 1, 9, 50, 9, 1});
  test::check_shape(ccrc::shape_of(ccrc::generate_cct({10, 2, 5, 40, 5, 1})), {10, 2, 5, 40, 5, 1});
  test::check_shape(ccrc::shape_of(ccrc::generate_cct({500, 20, 40, 600, 300, 20})), {500, 20, 40, 600, 300, 20});
}

TEST_CASE("the same seed gives the same tree, another seed another tree") {
  ccrc::cct_shape shape{.nodes = 3000, .max_depth = 60, .methods = 150, .calls = 1e5, .recursion_free_nodes = 1500, .recursion_free_depth = 20};
  ccrc::profile a = ccrc::generate_cct(shape, 7), b = ccrc::generate_cct(shape, 7), c = ccrc::generate_cct(shape, 8);
  REQUIRE(a.size() == b.size());
  CHECK(std::equal(a.tree().parents().begin(), a.tree().parents().end(), b.tree().parents().begin()));
  CHECK(std::equal(a.tree().frames().begin(), a.tree().frames().end(), b.tree().frames().begin()));
  CHECK(test::equal(a.column(0), b.column(0)));
  CHECK(test::equal(a.column(1), b.column(1)));
  CHECK(test::canonical(a) == test::canonical(b));
  CHECK(test::canonical(a) != test::canonical(c));
}

TEST_CASE("ids are in depth-first pre-order, every context ran, bytecodes follow calls") {
  ccrc::profile p = ccrc::generate_cct({.nodes = 20000, .max_depth = 100, .methods = 700, .calls = 4e6,
                                        .recursion_free_nodes = 9000, .recursion_free_depth = 35});
  ccrc::node_id expected = 0;
  bool in_order = true;
  ccrc::preorder(ccrc::tree_view(p.tree()), [&](ccrc::node_id n, std::uint32_t) { in_order = in_order && n == expected++; });
  CHECK(in_order);
  auto calls = p.column("calls"), bytecodes = p.column("bytecodes");
  CHECK(calls[0] == 0);
  CHECK(bytecodes[0] == 0);
  for (ccrc::node_id n = 1; n < p.size(); ++n) {
    CHECK(calls[n] >= 1);
    CHECK(calls[n] == std::floor(calls[n]));
    CHECK(bytecodes[n] >= 1);
    CHECK(bytecodes[n] == std::floor(bytecodes[n]));
  }
}

TEST_CASE("plausible shape: skewed fan-out, hot paths, recursion of every kind, Java-like names") {
  ccrc::profile p = ccrc::generate_cct({.nodes = 200000, .max_depth = 150, .methods = 3000, .calls = 1e8,
                                        .recursion_free_nodes = 90000, .recursion_free_depth = 50});
  const ccrc::call_tree& t = p.tree();
  std::vector<std::uint32_t> children(t.size());
  for (ccrc::node_id n = 1; n < t.size(); ++n) ++children[t.parent(n)];
  auto count = [&](auto pred) { return std::count_if(children.begin() + 1, children.end(), pred); };
  double n = static_cast<double>(t.size() - 1);
  CHECK(static_cast<double>(count([](std::uint32_t c) { return c <= 1; })) > 0.7 * n);  // most: 0-1 callee
  CHECK(count([](std::uint32_t c) { return c >= 100; }) >= 10);                          // a few: hundreds
  // Hot paths: the busiest 1% of the contexts make most of the calls.
  std::vector<double> calls(p.column("calls").begin() + 1, p.column("calls").end());
  std::sort(calls.rbegin(), calls.rend());
  double top = 0, total = 0;
  for (std::size_t i = 0; i < calls.size(); ++i) (i < calls.size() / 100 ? top : total) += calls[i];
  CHECK(top > total);
  // Recursion: direct (distance 1), mutual (2-4) and long cycles (5 or more).
  std::vector<std::uint32_t> d = recursion_distances(t);
  CHECK(std::count(d.begin(), d.end(), 1u) > 1000);
  CHECK(std::count_if(d.begin(), d.end(), [](std::uint32_t x) { return x >= 2 && x <= 4; }) > 1000);
  CHECK(std::count_if(d.begin(), d.end(), [](std::uint32_t x) { return x >= 5; }) > 1000);
  std::string_view name = t.symbols().method_name(ccrc::method_id{1});
  CHECK(name.find('.') != std::string_view::npos);
  CHECK(name.back() == ')');
}

TEST_CASE("a recursion 1,000,000 deep is generated without recursion in the generator") {
  ccrc::profile p = ccrc::generate_cct({.nodes = 1'000'010, .max_depth = 1'000'000, .methods = 10, .calls = 2e6,
                                        .recursion_free_nodes = 10, .recursion_free_depth = 10});
  CHECK(ccrc::max_depth(p.tree()) == 1'000'000);
  CHECK(ccrc::statistics(ccrc::eliminate_recursion(p).output.tree()).max_depth == 10);
}

TEST_CASE("impossible shapes are errors that say why") {
  auto message = [](const ccrc::cct_shape& s) -> std::string {
    try {
      (void)ccrc::generate_cct(s);
    } catch (const ccrc::error& e) {
      return e.what();
    }
    return "";
  };
  CHECK(message({100, 10, 200, 1000, 50, 5}) ==
        "cannot generate this CCT: every method needs a context: methods <= recursion-free nodes");
  CHECK(message({100, 10, 5, 1000, 50, 8}) ==
        "cannot generate this CCT: no method repeats on a recursion-free path: recursion-free depth <= methods");
  CHECK(message({100, 90, 20, 1000, 50, 10}) ==
        "cannot generate this CCT: reaching depth D from D' takes at least D - D' recursive contexts");
  CHECK(message({100, 10, 20, 99, 50, 5}) ==
        "cannot generate this CCT: calls must be at least the number of nodes (and below 1e15)");
  CHECK(message({100, 10, 20, 1000, 150, 5}) ==
        "cannot generate this CCT: the recursion-free nodes must be between 1 and the nodes");
  CHECK(message({0, 10, 20, 1000, 0, 5}) == "cannot generate this CCT: nodes, methods and depth must be positive");
  CHECK(message({100, 1, 20, 1000, 20, 1}) == "cannot generate this CCT: recursion needs a depth of 2 or more");
  CHECK(message({1000, 3, 3, 1000, 1000, 3}).find("too few methods") != std::string::npos);
}
