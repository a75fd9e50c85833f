#include <ccrc/algorithm/inclusive.hpp>
#include <ccrc/graph/call_graph.hpp>
#include <ccrc/tree/cct.hpp>

#include "support/chain.hpp"
#include "support/figure1.hpp"
#include "support/random.hpp"

#include <doctest/doctest.h>

#include <map>
#include <numeric>
#include <string>
#include <utility>

namespace {

using figure1_cct = ccrc::cct<ccrc::metric<"calls">, ccrc::metric<"bytecodes">>;

// Figure 1 as a profile (double) or as a cct (uint64_t), same node ids.
template <class Tree>
Tree figure1_as() {
  ccrc::profile p = test::figure1();
  if constexpr (std::is_same_v<Tree, ccrc::profile>) {
    return p;
  } else {
    Tree t;
    for (ccrc::node_id n = 1; n < p.size(); ++n) {
      ccrc::node_id c = t.find_or_add_child(p.tree().parent(n), t.intern(p.tree().name(n)));
      REQUIRE(c == n);
      t.template get<"calls">(c) = static_cast<std::uint64_t>(p.column("calls")[n]);
      t.template get<"bytecodes">(c) = static_cast<std::uint64_t>(p.column("bytecodes")[n]);
    }
    return t;
  }
}

template <class Tree>
auto bytecodes(const Tree& t) {
  if constexpr (std::is_same_v<Tree, ccrc::profile>)
    return t.column("bytecodes");
  else
    return t.template column<"bytecodes">();
}

template <class T>
ccrc::method_id method(const ccrc::call_graph<T>& g, std::string_view name) {
  auto m = g.symbols().find_method(name);
  REQUIRE_MESSAGE(m.has_value(), "no method " << name);
  return *m;
}

template <class T>
ccrc::edge_id edge(const ccrc::call_graph<T>& g, std::string_view caller, std::string_view callee) {
  ccrc::edge_id e = g.find_edge(caller.empty() ? ccrc::root_method : method(g, caller), method(g, callee));
  REQUIRE_MESSAGE(e != ccrc::null_edge, "no edge " << caller << " -> " << callee);
  return e;
}

// Kaes's definitions, literally: Min_E by walking every context's ancestors. O(n x depth).
struct reference {
  std::map<std::string, std::vector<double>> self, total;                   // per function
  std::map<std::pair<std::string, std::string>, std::vector<double>> edge_self, edge_total;  // per call
  std::map<std::pair<std::string, std::string>, std::uint64_t> edge_contexts;
};

reference brute_force(const ccrc::profile& p) {
  const ccrc::call_tree& t = p.tree();
  std::size_t k = p.metric_count();
  std::vector<std::vector<double>> ag;
  for (std::size_t j = 0; j < k; ++j) ag.push_back(ccrc::inclusive(t, p.column(j)));
  auto edge_key = [&](ccrc::node_id n) { return std::pair(std::string(t.name(t.parent(n))), std::string(t.name(n))); };
  reference r;
  for (ccrc::node_id n = 1; n < t.size(); ++n) {
    std::string f(t.name(n));
    bool outermost = true, outermost_call = true;
    for (ccrc::node_id a = t.parent(n); a != ccrc::root_node; a = t.parent(a)) {
      outermost = outermost && t.method(a) != t.method(n);
      outermost_call = outermost_call && edge_key(a) != edge_key(n);
    }
    auto& s = r.self[f];
    auto& c = r.total[f];
    auto& es = r.edge_self[edge_key(n)];
    auto& ec = r.edge_total[edge_key(n)];
    s.resize(k), c.resize(k), es.resize(k), ec.resize(k);
    ++r.edge_contexts[edge_key(n)];
    for (std::size_t j = 0; j < k; ++j) {
      s[j] += p.column(j)[n];
      es[j] += p.column(j)[n];
      if (outermost) c[j] += ag[j][n];
      if (outermost_call) ec[j] += ag[j][n];
    }
  }
  return r;
}

}  // namespace

TEST_CASE_TEMPLATE("Figure 1: self and total costs, Kaes's c_i and c_t", Tree, ccrc::profile, figure1_cct) {
  Tree t = figure1_as<Tree>();
  ccrc::call_graph g(t.tree(), bytecodes(t));
  using T = typename decltype(g)::value_type;
  CHECK(g.metric_count() == 1);
  CHECK(g.tree_total() == T(3238));
  CHECK(g.root_self() == T(0));
  const char* names[] = {"main", "f", "g", "h", "i"};
  const T self[] = {1066, 180, 540, 792, 660};
  const T total[] = {3238, 890, 980, 1452, 660};
  const std::uint64_t contexts[] = {1, 1, 4, 6, 6};
  REQUIRE(g.functions().size() == 5);
  for (std::size_t k = 0; k < 5; ++k) {
    CAPTURE(names[k]);
    ccrc::method_id f = method(g, names[k]);
    CHECK(g.contains(f));
    CHECK(g.self(f) == self[k]);
    CHECK(g.total(f) == total[k]);
    CHECK(g.contexts(f) == contexts[k]);
    CHECK(g.is_top_level(f) == (k == 0));
  }
  CHECK_FALSE(g.contains(ccrc::root_method));
}

TEST_CASE_TEMPLATE("Figure 1: the eight calls and the top-level one, with self and total costs", Tree, ccrc::profile,
                   figure1_cct) {
  Tree t = figure1_as<Tree>();
  ccrc::call_graph g(t.tree(), bytecodes(t));
  using T = typename decltype(g)::value_type;
  struct expected {
    const char* caller;
    const char* callee;
    T self, total;
    std::uint64_t contexts;
  };
  const expected calls[] = {{"", "main", 1066, 3238, 1}, {"main", "f", 180, 890, 1}, {"main", "g", 180, 490, 1},
                            {"main", "h", 432, 792, 1},  {"f", "g", 180, 490, 1},    {"f", "h", 120, 220, 1},
                            {"g", "g", 180, 400, 2},     {"g", "h", 240, 440, 4},    {"h", "i", 660, 660, 6}};
  CHECK(g.edges().size() == 9);
  for (const auto& c : calls) {
    CAPTURE(c.caller);
    CAPTURE(c.callee);
    ccrc::edge_id e = edge(g, c.caller, c.callee);
    CHECK(g.edge_self(e) == c.self);
    CHECK(g.edge_total(e) == c.total);
    CHECK(g.edge(e).contexts == c.contexts);
  }
  CHECK(g.find_edge(method(g, "h"), method(g, "g")) == ccrc::null_edge);
  CHECK(g.find_edge(method(g, "i"), method(g, "i")) == ccrc::null_edge);
  // Adjacency: out-edges in edge id order, in-edges by caller id (the top-level call first).
  ccrc::method_id main = method(g, "main"), h = method(g, "h");
  REQUIRE(g.out_edges(main).size() == 3);
  CHECK(g.edge(g.out_edges(main)[0]).callee == method(g, "f"));
  CHECK(g.edge(g.out_edges(main)[2]).callee == h);
  REQUIRE(g.in_edges(h).size() == 3);
  CHECK(g.edge(g.in_edges(h)[0]).caller == main);
  CHECK(g.edge(g.in_edges(h)[2]).caller == method(g, "g"));
  CHECK(g.in_edges(main).size() == 1);
  CHECK(g.out_edges(ccrc::root_method).size() == 1);
  // Every context maps to its call.
  CHECK(g.node_edges()[ccrc::root_node] == ccrc::null_edge);
  CHECK(g.node_edges()[ccrc::node_at_path(t.tree(), "main;f;g;g;h")] == edge(g, "g", "h"));
}

TEST_CASE("all the metrics of a profile at once: calls and bytecodes of Figure 1") {
  ccrc::profile p = test::figure1();
  ccrc::call_graph g(p);
  static_assert(std::is_same_v<decltype(g), ccrc::call_graph<double>>);
  REQUIRE(g.metric_count() == 2);
  CHECK(g.tree_total(0) == 345);
  CHECK(g.tree_total(1) == 3238);
  ccrc::method_id gm = method(g, "g");
  CHECK(g.self(gm, 0) == 60);   // invocations of g
  CHECK(g.total(gm, 0) == 140);  // ag(calls) of main;f;g and of main;g, 70 each: recursion once
  CHECK(g.self(gm, 1) == 540);
  CHECK(g.total(gm, 1) == 980);
  // Calls g -> h: 40 invocations, edge self of the calls metric.
  CHECK(g.edge_self(edge(g, "g", "h"), 0) == 40);
  CHECK(g.edge_total(edge(g, "h", "i"), 0) == 132);
}

TEST_CASE("equals Min_E by its definition on thousands of recursive random trees") {
  for (std::uint64_t seed = 1; seed <= 2000; ++seed) {
    test::rng r{seed};
    // Few methods, deep stacks: direct and mutual recursion everywhere.
    ccrc::profile p = test::profile_of(test::random_samples(r, 1 + r.below(40), 2 + r.below(6), 2 + r.below(20)));
    ccrc::call_graph g(p);
    reference ref = brute_force(p);
    REQUIRE(g.functions().size() == ref.self.size());
    REQUIRE(g.edges().size() == ref.edge_self.size());
    for (std::size_t j = 0; j < 2; ++j) {
      double sum_self = g.root_self(j);
      for (ccrc::method_id f : g.functions()) {
        std::string name(g.name(f));
        CHECK(g.self(f, j) == ref.self[name][j]);
        CHECK(g.total(f, j) == ref.total[name][j]);
        CHECK(g.total(f, j) <= g.tree_total(j));
        sum_self += g.self(f, j);
        double in_self = 0;
        for (ccrc::edge_id e : g.in_edges(f)) in_self += g.edge_self(e, j);
        CHECK(in_self == g.self(f, j));
      }
      CHECK(sum_self == g.tree_total(j));
      CHECK(g.tree_total(j) == std::accumulate(p.column(j).begin(), p.column(j).end(), 0.0));
      for (ccrc::edge_id e = 0; e < g.edges().size(); ++e) {
        const ccrc::call_edge& c = g.edge(e);
        auto key = std::pair(std::string(g.name(c.caller)), std::string(g.name(c.callee)));
        CHECK(g.edge_self(e, j) == ref.edge_self[key][j]);
        CHECK(g.edge_total(e, j) == ref.edge_total[key][j]);
        CHECK(c.contexts == ref.edge_contexts[key]);
        CHECK(g.edge_total(e, j) <= g.total(c.callee, j));
        if (c.caller != ccrc::root_method) CHECK(g.edge_total(e, j) <= g.total(c.caller, j));
      }
    }
    for (ccrc::node_id n = 1; n < p.size(); ++n) {
      const ccrc::call_edge& c = g.edge(g.node_edges()[n]);
      CHECK(c.callee == p.tree().method(n));
      CHECK(c.caller == p.tree().method(p.tree().parent(n)));
    }
  }
}

TEST_CASE("one metric of several, and several columns of one type, agree") {
  test::rng r{7};
  ccrc::profile p = test::profile_of(test::random_samples(r, 200, 6, 15, 3), 3);
  ccrc::call_graph all(p);
  std::vector<std::span<const double>> two{p.column(2), p.column(0)};
  ccrc::call_graph<double> some(p.tree(), two);
  ccrc::call_graph one(p.tree(), p.column(2));
  for (ccrc::method_id f : all.functions()) {
    CHECK(one.total(f) == all.total(f, 2));
    CHECK(some.total(f, 0) == all.total(f, 2));
    CHECK(some.self(f, 1) == all.self(f, 0));
  }
}

TEST_CASE("a chain of 1,000,000 nested calls, self-recursive and through a 3-method cycle") {
  test::calls_cct t = test::call_chain(1'000'000, {"a", "b", "c"});
  ccrc::call_graph g(t.tree(), t.column<"calls">());
  CHECK(g.tree_total() == 1'000'000);
  ccrc::method_id a = method(g, "a"), b = method(g, "b"), c = method(g, "c");
  CHECK(g.self(a) == 333'334);
  CHECK(g.self(b) == 333'333);
  CHECK(g.total(a) == 1'000'000);
  CHECK(g.total(b) == 999'999);
  CHECK(g.total(c) == 999'998);
  CHECK(g.edges().size() == 4);
  CHECK(g.edge_self(edge(g, "c", "a")) == 333'333);
  CHECK(g.edge_total(edge(g, "c", "a")) == 999'997);

  test::calls_cct self_recursive = test::call_chain(1'000'000, {"f"});
  ccrc::call_graph s(self_recursive.tree(), self_recursive.column<"calls">());
  CHECK(s.self(method(s, "f")) == 1'000'000);
  CHECK(s.total(method(s, "f")) == 1'000'000);
  CHECK(s.edge_self(edge(s, "f", "f")) == 999'999);
  CHECK(s.edge_total(edge(s, "f", "f")) == 999'999);
  CHECK(s.edge(edge(s, "f", "f")).contexts == 999'999);
}

TEST_CASE("the synthetic root's own value is kept apart from the functions'") {
  ccrc::cct<ccrc::metric<"samples">> t;
  ccrc::frame_id frames[] = {t.intern("main")};
  t.add_path(frames, 5);
  t.get<"samples">(ccrc::root_node) = 2;  // e.g. lost samples recorded on the root
  ccrc::call_graph g(t.tree(), t.column<"samples">());
  CHECK(g.tree_total() == 7);
  CHECK(g.root_self() == 2);
  CHECK(g.total(method(g, "main")) == 5);
  CHECK(g.functions().size() == 1);
}

TEST_CASE("an empty tree has an empty graph") {
  ccrc::profile p;
  ccrc::call_graph g(p);
  CHECK(g.functions().empty());
  CHECK(g.edges().empty());
  CHECK(g.tree_total() == 0);
  CHECK(g.out_edges(ccrc::root_method).empty());
}
