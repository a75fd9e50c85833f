#include <ccrc/algorithm/flat.hpp>
#include <ccrc/algorithm/inclusive.hpp>
#include <ccrc/graph/display_tree.hpp>

#include "support/chain.hpp"
#include "support/figure1.hpp"
#include "support/random.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <string>

namespace {

// The display tree as "path" -> "path of its master" (leaves that link elsewhere) or "*"
// (masters), node ids forgotten.
std::map<std::string, std::string> shape(const ccrc::graph_tree<ccrc::profile>& gt) {
  const ccrc::call_tree& t = gt.output.tree();
  std::map<std::string, std::string> out;
  for (ccrc::node_id n = 1; n < t.size(); ++n)
    out[ccrc::path_string(t, n)] = gt.master[n] == n ? "*" : ccrc::path_string(t, gt.master[n]);
  return out;
}

// The invariants of every display tree: one node per call, one master per function,
// only masters have children, values carried over exactly. g holds all the metrics of p.
template <class T>
void check_invariants(const ccrc::profile& p, const ccrc::call_graph<T>& g, const ccrc::graph_tree<ccrc::profile>& gt) {
  const ccrc::call_tree& t = gt.output.tree();
  REQUIRE(t.size() == g.edges().size() + 1);
  REQUIRE(gt.edge_of.size() == t.size());
  std::vector<int> masters(g.method_count(), 0);
  for (ccrc::node_id n = 1; n < t.size(); ++n) {
    const ccrc::call_edge& e = g.edge(gt.edge_of[n]);
    CHECK(gt.node_of[gt.edge_of[n]] == n);
    CHECK(t.name(n) == g.name(e.callee));
    CHECK(gt.edge_of[t.parent(n)] == (e.caller == ccrc::root_method ? ccrc::null_edge : gt.edge_of[t.parent(n)]));
    if (e.caller != ccrc::root_method) {
      // f_g hangs under the master of g.
      ccrc::node_id parent = t.parent(n);
      CHECK(gt.master[parent] == parent);
      CHECK(g.edge(gt.edge_of[parent]).callee == e.caller);
    } else {
      CHECK(t.parent(n) == ccrc::root_node);
    }
    ccrc::node_id m = gt.master[n];
    CHECK(gt.master[m] == m);
    CHECK(g.edge(gt.edge_of[m]).callee == e.callee);
    if (m == n) {
      ++masters[e.callee];
    } else {
      CHECK_FALSE(t.has_children(n));
    }
    for (std::size_t j = 0; j < g.metric_count(); ++j) CHECK(gt.output.column(j)[n] == g.edge_self(gt.edge_of[n], j));
  }
  for (ccrc::method_id f{1}; f < g.method_count(); ++f) CHECK(masters[f] == (g.contains(f) ? 1 : 0));
  for (std::size_t j = 0; j < p.metric_count(); ++j) {
    CHECK(std::accumulate(gt.output.column(j).begin(), gt.output.column(j).end(), 0.0) ==
          std::accumulate(p.column(j).begin(), p.column(j).end(), 0.0));
    auto flat_in = ccrc::per_method(ccrc::tree_view(p.tree()), p.column(j));
    auto flat_out = ccrc::per_method(ccrc::tree_view(t), gt.output.column(j));
    for (ccrc::method_id f : g.functions())
      CHECK(flat_out[*t.symbols().find_method(g.name(f))] == flat_in[f]);
  }
  for (ccrc::node_id n = 0; n < p.size(); ++n) CHECK(gt.edge_of[gt.node_map[n]] == g.node_edges()[n]);
}

}  // namespace

TEST_CASE("Figure 1: main -> {f_main -> {g_f, h_f}, g_main -> {g_g, h_g}, h_main -> {i_h}}") {
  ccrc::profile p = test::figure1();
  ccrc::call_graph g(p);
  auto gt = ccrc::display_tree(p, g, p.metric_index("bytecodes"));
  CHECK(shape(gt) == std::map<std::string, std::string>{{"main", "*"},
                                                        {"main;f", "*"},
                                                        {"main;f;g", "main;g"},
                                                        {"main;f;h", "main;h"},
                                                        {"main;g", "*"},
                                                        {"main;g;g", "main;g"},
                                                        {"main;g;h", "main;h"},
                                                        {"main;h", "*"},
                                                        {"main;h;i", "*"}});
  // Creation order: children of a master by method id, breadth-first.
  CHECK(ccrc::path_string(gt.output.tree(), 2) == "main;f");
  CHECK(ccrc::path_string(gt.output.tree(), 5) == "main;f;g");
  // Node f_g holds the self cost of f's contexts called from g, for every metric.
  auto at = [&](std::string_view path, std::string_view metric) {
    return gt.output.column(metric)[ccrc::node_at_path(gt.output.tree(), path)];
  };
  CHECK(at("main", "bytecodes") == 1066);
  CHECK(at("main;g;h", "bytecodes") == 240);
  CHECK(at("main;h;i", "bytecodes") == 660);
  CHECK(at("main;g;g", "calls") == 20);
  CHECK(gt.node_map[ccrc::node_at_path(p.tree(), "main;f;g;g;h;i")] == ccrc::node_at_path(gt.output.tree(), "main;h;i"));
  // ag over the display tree: each master sums the self costs of the functions below it.
  auto ag = ccrc::inclusive(gt.output.tree(), gt.output.column("bytecodes"));
  CHECK(ag[ccrc::node_at_path(gt.output.tree(), "main;h")] == 432 + 660);
  CHECK(ag[ccrc::root_node] == 3238);
  check_invariants(p, g, gt);
}

TEST_CASE("mutual recursion whose best callers point at each other: the cycle is broken at the best placed caller") {
  // c_t: a 5, b 5, f 10, g 10. f prefers g (10 > 5), g prefers f: neither is reachable by
  // the seed's rule. The calls a -> f and b -> g tie at 5; "b" > "a", so g_b is g's master
  // and f, whose best caller g is now placed, gets f_g.
  ccrc::profile p = test::stacks({{"a;f;g", 5}, {"b;g;f", 5}});
  ccrc::call_graph g(p);
  auto gt = ccrc::display_tree(p, g);
  CHECK(shape(gt) == std::map<std::string, std::string>{
                         {"a", "*"}, {"a;f", "b;g;f"}, {"b", "*"}, {"b;g", "*"}, {"b;g;f", "*"}, {"b;g;f;g", "b;g"}});
  check_invariants(p, g, gt);
  // The same profile read in another order (other node and method ids): the same tree.
  ccrc::profile q = test::stacks({{"b;g;f", 5}, {"a;f;g", 5}});
  ccrc::call_graph gq(q);
  CHECK(shape(ccrc::display_tree(q, gq)) == shape(gt));
  // A heavier a: a -> f wins the tie-break by cost instead.
  ccrc::profile r = test::stacks({{"a;f;g", 5}, {"b;g;f", 5}, {"a", 1}});
  ccrc::call_graph gr(r);
  auto rt = ccrc::display_tree(r, gr);
  CHECK(shape(rt).at("a;f") == "*");
  CHECK(shape(rt).at("a;f;g") == "*");
  CHECK(shape(rt).at("b;g") == "a;f;g");
  check_invariants(r, gr, rt);
}

TEST_CASE("a self-recursive function whose self-call wins the tie keeps its callees reachable") {
  // c_t(a) = c_t(f) = 3: the seed's max (c_t, name) would pick f itself ("f" > "a"), but the
  // self-call lies below m(f): a, f's only other caller, is preferred.
  ccrc::profile p = test::stacks({{"a;f;f;f", 1}, {"a;f;f", 1}, {"a;f;x", 1}});
  ccrc::call_graph g(p);
  ccrc::method_id f = *p.symbols().find_method("f");
  CHECK(g.total(f) == 3);
  CHECK(g.total(*p.symbols().find_method("a")) == 3);
  auto gt = ccrc::display_tree(p, g);
  CHECK(shape(gt) == std::map<std::string, std::string>{
                         {"a", "*"}, {"a;f", "*"}, {"a;f;f", "a;f"}, {"a;f;x", "*"}});
  check_invariants(p, g, gt);
}

TEST_CASE("a self-call is never preferred: isJSConstructor under compareSignaturesRelated") {
  // The shape of a V8 profile of the TypeScript compiler: isJSConstructor is called by
  // compareSignaturesRelated (c_t 959, self-recursive, reached from two callers of c_t 480 and
  // 479) and by signaturesRelatedTo (c_t 833). The seed's rule puts m(isJSConstructor) under
  // compareSignaturesRelated. Preferring the self-call made compareSignaturesRelated stall, and
  // the global fallback then took the best pending call, signaturesRelatedTo -> isJSConstructor.
  ccrc::profile p = test::stacks({{"main;signatureRelatedTo;compareSignaturesRelated", 300},
                                  {"main;signatureRelatedTo;compareSignaturesRelated;compareSignaturesRelated", 100},
                                  {"main;signatureRelatedTo;compareSignaturesRelated;compareSignaturesRelated;isJSConstructor", 80},
                                  {"main;isImplementationCompatibleWithOverload;compareSignaturesRelated", 400},
                                  {"main;isImplementationCompatibleWithOverload;compareSignaturesRelated;isJSConstructor", 79},
                                  {"main;signaturesRelatedTo", 800},
                                  {"main;signaturesRelatedTo;isJSConstructor", 33}});
  ccrc::call_graph g(p);
  auto total = [&](std::string_view f) { return g.total(*p.symbols().find_method(f)); };
  CHECK(total("compareSignaturesRelated") == 959);
  CHECK(total("signaturesRelatedTo") == 833);
  CHECK(total("signatureRelatedTo") == 480);
  CHECK(total("isImplementationCompatibleWithOverload") == 479);
  auto gt = ccrc::display_tree(p, g);
  const std::string cmp = "main;signatureRelatedTo;compareSignaturesRelated";
  CHECK(shape(gt) == std::map<std::string, std::string>{{"main", "*"},
                                                        {"main;signatureRelatedTo", "*"},
                                                        {"main;isImplementationCompatibleWithOverload", "*"},
                                                        {"main;signaturesRelatedTo", "*"},
                                                        {cmp, "*"},
                                                        {cmp + ";compareSignaturesRelated", cmp},
                                                        {cmp + ";isJSConstructor", "*"},
                                                        {"main;isImplementationCompatibleWithOverload;compareSignaturesRelated", cmp},
                                                        {"main;signaturesRelatedTo;isJSConstructor", cmp + ";isJSConstructor"}});
  check_invariants(p, g, gt);
}

TEST_CASE("a stall is broken at the cycle, not at a function that waits on it") {
  // c_t: a 6, b 5, h 7, f 11, g 10. f prefers g, g prefers f: a cycle. w prefers f (11 > 7) and
  // waits on the cycle. The best call from a placed function is h -> w (7), but w is no member
  // of the cycle: the cycle is broken at a -> f (6 > 5), and w then gets its preferred f_w.
  ccrc::profile p = test::stacks({{"a;f;g", 5}, {"b;g;f", 5}, {"a;f;w", 1}, {"h;w", 1}, {"h", 6}});
  ccrc::call_graph g(p);
  auto total = [&](std::string_view f) { return g.total(*p.symbols().find_method(f)); };
  CHECK(total("a") == 6);
  CHECK(total("b") == 5);
  CHECK(total("h") == 7);
  CHECK(total("f") == 11);
  CHECK(total("g") == 10);
  auto gt = ccrc::display_tree(p, g);
  CHECK(shape(gt) == std::map<std::string, std::string>{{"a", "*"},
                                                        {"a;f", "*"},
                                                        {"a;f;g", "*"},
                                                        {"a;f;g;f", "a;f"},
                                                        {"a;f;w", "*"},
                                                        {"b", "*"},
                                                        {"b;g", "a;f;g"},
                                                        {"h", "*"},
                                                        {"h;w", "a;f;w"}});
  check_invariants(p, g, gt);
}

TEST_CASE("a cycle with no placed caller: the best call into a function waiting on it") {
  // c_t: main 3, h 3, x 3, y 3 (ties decided by name). x prefers y ("y" > "h"), y prefers x
  // (its only caller). h waits on x ("x" > "main") and is the only way into the cycle, so
  // main -> h is taken; then h -> x breaks the cycle.
  ccrc::profile p = test::stacks({{"main;h;x;y;x;h", 3}});
  ccrc::call_graph g(p);
  auto gt = ccrc::display_tree(p, g);
  CHECK(shape(gt) == std::map<std::string, std::string>{{"main", "*"},
                                                        {"main;h", "*"},
                                                        {"main;h;x", "*"},
                                                        {"main;h;x;y", "*"},
                                                        {"main;h;x;y;x", "main;h;x"},
                                                        {"main;h;x;h", "main;h"}});
  check_invariants(p, g, gt);
}

TEST_CASE("several roots: a function called at the top level is its own master") {
  ccrc::profile p = test::stacks({{"main;f;g", 10}, {"f;h", 1}, {"g", 1}, {"main;g", 100}});
  ccrc::call_graph g(p);
  auto gt = ccrc::display_tree(p, g);
  CHECK(shape(gt) == std::map<std::string, std::string>{{"main", "*"},
                                                        {"main;f", "f"},
                                                        {"main;g", "g"},
                                                        {"f", "*"},
                                                        {"f;g", "g"},
                                                        {"f;h", "*"},
                                                        {"g", "*"}});
  check_invariants(p, g, gt);
}

TEST_CASE("masters follow the metric asked for") {
  // By calls, f's best caller is a (c_t 10 vs 2); by time it is b (c_t 1 vs 50).
  ccrc::profile p({"calls", "time"});
  auto add = [&](std::string_view path, double calls, double time) { test::add_stack(p, path, {calls, time}); };
  add("a", 9, 0);
  add("a;f", 1, 1);
  add("b", 1, 49);
  add("b;f", 1, 1);
  ccrc::call_graph g(p);
  CHECK(shape(ccrc::display_tree(p, g, 0)).at("a;f") == "*");
  CHECK(shape(ccrc::display_tree(p, g, 1)).at("b;f") == "*");
}

TEST_CASE("random trees: one master per function, all reachable, the seed's rule wherever it reaches a root") {
  for (std::uint64_t seed = 1; seed <= 1500; ++seed) {
    test::rng r{seed};
    ccrc::profile p = test::profile_of(test::random_samples(r, 1 + r.below(40), 2 + r.below(8), 2 + r.below(12)));
    ccrc::call_graph g(p);
    std::size_t metric = r.below(2);
    auto gt = ccrc::display_tree(p, g, metric);
    check_invariants(p, g, gt);
    // The seed's choice, by brute force: the caller other than f with the largest (c_t, name).
    std::vector<ccrc::method_id> best(g.method_count(), ccrc::root_method);
    for (ccrc::method_id f : g.functions()) {
      if (g.is_top_level(f)) continue;
      for (ccrc::edge_id e : g.in_edges(f)) {
        ccrc::method_id c = g.edge(e).caller;
        if (c == f) continue;
        auto key = [&](ccrc::method_id m) { return std::pair(g.total(m, metric), std::string(g.name(m))); };
        if (best[f] == ccrc::root_method || key(best[f]) < key(c)) best[f] = c;
      }
    }
    for (ccrc::method_id f : g.functions()) {
      // Follow the best callers: if they reach a top-level function, f's master is f_best.
      ccrc::method_id x = f;
      std::size_t steps = 0;
      while (best[x] != ccrc::root_method && steps++ <= g.functions().size()) x = best[x];
      if (best[x] != ccrc::root_method) continue;  // a cycle: the fallback decides
      ccrc::node_id m = gt.master[gt.node_of[g.in_edges(f)[0]]];
      CHECK(g.edge(gt.edge_of[m]).caller == best[f]);
    }
    // Same calls read in another order: the same display tree.
    std::vector<test::sample> samples;
    for (ccrc::node_id n = 1; n < p.size(); ++n) {
      test::sample s;
      for (const auto& name : test::split(ccrc::path_string(p.tree(), n))) s.frames.push_back(name);
      s.values = {p.column(0)[n], p.column(1)[n]};
      samples.push_back(std::move(s));
    }
    std::reverse(samples.begin(), samples.end());
    ccrc::profile q = test::profile_of(samples);
    ccrc::call_graph gq(q);
    CHECK(shape(ccrc::display_tree(q, gq, metric)) == shape(gt));
  }
}

TEST_CASE("a chain of 1,000,000 nested calls through a 3-method cycle") {
  test::calls_cct t = test::call_chain(1'000'000, {"a", "b", "c"});
  ccrc::call_graph g(t.tree(), t.column<"calls">());
  auto gt = ccrc::display_tree(t, g);
  const ccrc::call_tree& d = gt.output.tree();
  REQUIRE(d.size() == 5);
  CHECK(ccrc::path_string(d, 4) == "a;b;c;a");
  CHECK(gt.master[4] == 1);
  CHECK(gt.output.get<"calls">(1) == 1);
  CHECK(gt.output.get<"calls">(4) == 333'333);
  CHECK(gt.node_map.back() == 4);
}
