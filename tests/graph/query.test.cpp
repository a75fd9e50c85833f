#include <ccrc/graph/query.hpp>

#include "support/figure1.hpp"
#include "support/random.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>
#include <vector>

namespace {

template <class T>
ccrc::method_id method(const ccrc::call_graph<T>& g, std::string_view name) {
  auto m = g.symbols().find_method(name);
  REQUIRE(m.has_value());
  return *m;
}

template <class Entries, class Graph>
std::vector<std::string> names(const Graph& g, const Entries& entries) {
  std::vector<std::string> out;
  for (const auto& e : entries) out.emplace_back(e.function == ccrc::root_method ? "(root)" : g.name(e.function));
  return out;
}

}  // namespace

TEST_CASE("Figure 1: top functions by self and by total") {
  ccrc::profile p = test::figure1();
  ccrc::call_graph g(p.tree(), p.column("bytecodes"));
  auto by_self = ccrc::top_functions(g, {.by = ccrc::rank_by::self});
  CHECK(names(g, by_self) == std::vector<std::string>{"main", "h", "i", "g", "f"});
  CHECK(by_self[1].self == 792);
  CHECK(by_self[0].self_percent == doctest::Approx(32.92).epsilon(0.0002));
  CHECK(by_self[0].total_percent == 100);
  auto by_total = ccrc::top_functions(g, {.count = 3});
  CHECK(names(g, by_total) == std::vector<std::string>{"main", "h", "g"});
  CHECK(by_total[1].total == 1452);
  CHECK(by_total[2].total == 980);
  CHECK(by_total[2].contexts == 4);
  CHECK(by_total[1].total_percent == doctest::Approx(44.84).epsilon(0.0002));
}

TEST_CASE("Figure 1: callers and callees with the costs of the calls") {
  ccrc::profile p = test::figure1();
  ccrc::call_graph g(p);
  std::size_t bytecodes = 1;
  auto into_h = ccrc::callers(g, method(g, "h"), bytecodes);
  CHECK(names(g, into_h) == std::vector<std::string>{"main", "g", "f"});
  CHECK(into_h[0].total == 792);
  CHECK(into_h[1].total == 440);
  CHECK(into_h[1].self == 240);
  CHECK(into_h[1].contexts == 4);
  CHECK(into_h[2].self == 120);
  auto from_main = ccrc::callees(g, method(g, "main"), bytecodes);
  CHECK(names(g, from_main) == std::vector<std::string>{"f", "h", "g"});
  CHECK(from_main[0].edge == g.find_edge(method(g, "main"), method(g, "f")));
  // Calls, the other metric: 40 invocations of h from g.
  CHECK(ccrc::callers(g, method(g, "h"), 0)[1].self == 40);
  // main is called at the top level only.
  auto into_main = ccrc::callers(g, method(g, "main"));
  REQUIRE(into_main.size() == 1);
  CHECK(into_main[0].function == ccrc::root_method);
  CHECK(ccrc::callees(g, method(g, "i")).empty());
}

TEST_CASE("Figure 1: the butterfly of g") {
  ccrc::profile p = test::figure1();
  ccrc::call_graph g(p.tree(), p.column("bytecodes"));
  auto b = ccrc::butterfly(g, method(g, "g"));
  // main and f tie at total 490 and self 180: by name.
  CHECK(names(g, b.callers) == std::vector<std::string>{"f", "main", "g"});
  CHECK(b.callers[2].total == 400);
  CHECK(b.function.function == method(g, "g"));
  CHECK(b.function.self == 540);
  CHECK(b.function.total == 980);
  CHECK(names(g, b.callees) == std::vector<std::string>{"h", "g"});
  CHECK(b.callees[0].total == 440);
}

TEST_CASE("random trees: callers add up to the function, order is by total, self, name") {
  for (std::uint64_t seed = 1; seed <= 500; ++seed) {
    test::rng r{seed};
    ccrc::profile p = test::profile_of(test::random_samples(r, 1 + r.below(30), 2 + r.below(10), 2 + r.below(10)));
    ccrc::call_graph g(p);
    for (ccrc::method_id f : g.functions()) {
      auto b = ccrc::butterfly(g, f, 1);
      double self = 0;
      for (const auto& c : b.callers) self += c.self;
      CHECK(self == g.self(f, 1));
      CHECK(b.callers.size() == g.in_edges(f).size());
      CHECK(b.callees.size() == g.out_edges(f).size());
      for (const auto* list : {&b.callers, &b.callees})
        for (std::size_t k = 1; k < list->size(); ++k) {
          const auto &x = (*list)[k - 1], &y = (*list)[k];
          CHECK((x.total > y.total ||
                 (x.total == y.total && (x.self > y.self || (x.self == y.self && g.name(x.function) < g.name(y.function))))));
        }
    }
    auto top = ccrc::top_functions(g, {.by = ccrc::rank_by::self, .metric = 1});
    CHECK(top.size() == g.functions().size());
    for (std::size_t k = 1; k < top.size(); ++k) CHECK(top[k - 1].self >= top[k].self);
  }
}

TEST_CASE("NaN costs rank last and no percentage is NaN or infinite") {
  ccrc::profile p;
  auto add = [&](std::string_view path, double v) { test::add_stack(p, path, {v}); };
  add("a", 1);
  add("b", std::nan(""));
  add("c", 0);
  ccrc::call_graph g(p);
  auto top = ccrc::top_functions(g, {.by = ccrc::rank_by::self});
  CHECK(names(g, top) == std::vector<std::string>{"a", "c", "b"});
  for (const auto& e : top) {
    CHECK(std::isfinite(e.self_percent));
    CHECK(std::isfinite(e.total_percent));
  }
  ccrc::profile zero;
  ccrc::frame_id f[] = {zero.intern("f")};
  zero.add_path(f, std::vector<double>{0});
  ccrc::call_graph gz(zero);
  CHECK(ccrc::top_functions(gz)[0].total_percent == 0);
}

TEST_CASE("Figure 1: the costs of one function") {
  ccrc::profile p = test::figure1();
  ccrc::call_graph g(p);
  auto h = ccrc::function_costs(g, method(g, "h"), 1);  // bytecodes
  CHECK(h.function == method(g, "h"));
  CHECK(h.contexts == 6);
  CHECK(h.self == 792);    // 60 + 60 + 120 + 60 + 60 + 432
  CHECK(h.total == 1452);  // h and i everywhere: nothing calls h below an h
  CHECK(h.self_percent == doctest::Approx(100.0 * 792 / 3238));
  CHECK(h.total_percent == doctest::Approx(100.0 * 1452 / 3238));
  auto calls = ccrc::function_costs(g, method(g, "g"));  // calls: 20 + 10 + 20 + 10
  CHECK(calls.self == 60);
  // What top_functions lists for it.
  auto top = ccrc::top_functions(g, {.metric = 1});
  CHECK(top[1].function == h.function);
  CHECK(top[1].total == h.total);
  CHECK(top[1].self_percent == h.self_percent);
}

TEST_CASE("Figure 1: every call ranked by total, self, then caller and callee name") {
  ccrc::profile p = test::figure1();
  ccrc::call_graph g(p);
  std::vector<std::string> order;
  for (ccrc::edge_id e : ccrc::ranked_edges(g, 1))
    order.push_back(std::string(g.name(g.edge(e).caller)) + "->" + std::string(g.name(g.edge(e).callee)));
  // Totals: ->main 3238, main->f 890, main->h 792, h->i 660, f->g and main->g 490 with self
  // 180 both (f before main), g->h 440, g->g 400 (its outermost calls: 200 twice), f->h 220.
  CHECK(order == std::vector<std::string>{"->main", "main->f", "main->h", "h->i", "f->g", "main->g", "g->h",
                                          "g->g", "f->h"});
}

TEST_CASE("random trees: ranked_edges is a strict order of every edge") {
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    test::rng r{seed};
    ccrc::profile p = test::profile_of(test::random_samples(r, 1 + r.below(30), 2 + r.below(10), 2 + r.below(10)));
    ccrc::call_graph g(p);
    std::vector<ccrc::edge_id> ranked = ccrc::ranked_edges(g, 1);
    REQUIRE(ranked.size() == g.edges().size());
    std::vector<char> seen(ranked.size(), 0);
    for (ccrc::edge_id e : ranked) seen[e] = 1;
    CHECK(std::count(seen.begin(), seen.end(), 1) == static_cast<std::ptrdiff_t>(ranked.size()));
    for (std::size_t k = 1; k < ranked.size(); ++k) {
      ccrc::edge_id x = ranked[k - 1], y = ranked[k];
      auto key = [&](ccrc::edge_id e) {
        return std::tuple(-g.edge_total(e, 1), -g.edge_self(e, 1), g.name(g.edge(e).caller), g.name(g.edge(e).callee));
      };
      CHECK(key(x) < key(y));
    }
  }
}
