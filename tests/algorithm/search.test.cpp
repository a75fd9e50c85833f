#include <ccrc/algorithm/search.hpp>
#include <ccrc/tree/cct.hpp>

#include "support/figure1.hpp"
#include "support/random.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <set>

namespace {

std::set<std::string> paths(const ccrc::call_tree& t, const std::vector<ccrc::node_id>& nodes) {
  std::set<std::string> out;
  for (ccrc::node_id n : nodes) out.insert(ccrc::path_string(t, n));
  return out;
}

std::vector<std::string> names(const ccrc::symbol_table& syms, const ccrc::method_set& s) {
  std::vector<std::string> out;
  for (ccrc::method_id m : s.ids()) out.emplace_back(syms.method_name(m));
  return out;
}

// A profile with qualified names, one sample per line, value 10 at each leaf.
ccrc::profile qualified() {
  ccrc::profile p;
  for (std::string_view line :
       {"app.Main.main(String[]);java.util.HashMap.get(Object);java.util.HashMap.hash(Object)",
        "app.Main.main(String[]);app.Cache.get(String);java.util.HashMap.get(Object)",
        "app.Main.main(String[]);std::vector<int>::push_back(int const&)",
        "app.Main.main(String[]);app::Cache::get(int) const"})
    test::add_stack(p, line, {10});
  return p;
}

}  // namespace

TEST_CASE("match_methods works on the symbol table: name, part, substring, regex, exact, case") {
  ccrc::profile p = qualified();
  const auto& syms = p.symbols();
  using q = ccrc::name_query;
  CHECK(names(syms, ccrc::match_methods(syms, q{.text = "get"})) ==
        std::vector<std::string>{"java.util.HashMap.get(Object)", "app.Cache.get(String)", "app::Cache::get(int) const"});
  CHECK(names(syms, ccrc::match_methods(syms, q{.text = "get", .match = ccrc::name_match::exact,
                                                 .part = ccrc::name_part::method})) ==
        std::vector<std::string>{"java.util.HashMap.get(Object)", "app.Cache.get(String)", "app::Cache::get(int) const"});
  CHECK(names(syms, ccrc::match_methods(syms, q{.text = "Cache", .match = ccrc::name_match::exact,
                                                 .part = ccrc::name_part::class_name})) ==
        std::vector<std::string>{"app.Cache.get(String)", "app::Cache::get(int) const"});
  CHECK(names(syms, ccrc::match_methods(syms, q{.text = "java.util", .match = ccrc::name_match::exact,
                                                 .part = ccrc::name_part::package})) ==
        std::vector<std::string>{"java.util.HashMap.get(Object)", "java.util.HashMap.hash(Object)"});
  CHECK(names(syms, ccrc::match_methods(syms, q{.text = "^(std|app)::", .match = ccrc::name_match::regex})) ==
        std::vector<std::string>{"std::vector<int>::push_back(int const&)", "app::Cache::get(int) const"});
  CHECK(names(syms, ccrc::match_methods(syms, q{.text = "^h", .match = ccrc::name_match::regex,
                                                 .part = ccrc::name_part::method})) ==
        std::vector<std::string>{"java.util.HashMap.hash(Object)"});
  CHECK(ccrc::match_methods(syms, q{.text = "hashmap"}).empty());
  CHECK(ccrc::match_methods(syms, q{.text = "hashmap", .ignore_case = true}).size() == 2);
  CHECK(ccrc::match_methods(syms, q{.text = "HASHMAP", .match = ccrc::name_match::regex, .ignore_case = true}).size() == 2);
  CHECK(ccrc::match_methods(syms, q{}).size() == 6);  // every method, never the root's empty name
  CHECK_THROWS_WITH_AS(static_cast<void>(ccrc::match_methods(syms, q{.text = "(", .match = ccrc::name_match::regex})),
                       doctest::Contains("invalid regular expression '('"), ccrc::error);
}

TEST_CASE("all contexts of one method in one call") {
  ccrc::profile p = test::figure1();
  ccrc::method_id g = *p.symbols().find_method("g");
  auto nodes = ccrc::contexts_of(ccrc::tree_view(p.tree()), {g});
  CHECK(paths(p.tree(), nodes) == std::set<std::string>{"main;f;g", "main;f;g;g", "main;g", "main;g;g"});
  CHECK(std::is_sorted(nodes.begin(), nodes.end()));
  // Within a view: the subtree of f.
  auto under_f = ccrc::contexts_of(ccrc::tree_view(p.tree(), ccrc::node_at_path(p.tree(), "main;f")), {g});
  CHECK(paths(p.tree(), under_f) == std::set<std::string>{"main;f;g", "main;f;g;g"});
}

TEST_CASE("search on Figure 1: g's contexts cover 980 of 3238 bytecodes, nested ones once") {
  ccrc::profile p = test::figure1();
  auto r = ccrc::search(ccrc::tree_view(p.tree()), p.column("bytecodes"), {.name = {.text = "g"}});
  CHECK(paths(p.tree(), r.nodes) == std::set<std::string>{"main;f;g", "main;f;g;g", "main;g", "main;g;g"});
  CHECK(r.total == 3238);
  CHECK(r.covered == 980);  // ag(main;f;g) + ag(main;g); the inner g;g are inside them
  CHECK(r.share() == doctest::Approx(980.0 / 3238));
  // h and i: main;h (792) holds main;h;i; the others sit under f and g.
  auto hi = ccrc::search(ccrc::tree_view(p.tree()), p.column("bytecodes"),
                         {.name = {.text = "^(h|i)$", .match = ccrc::name_match::regex}});
  CHECK(hi.nodes.size() == 12);
  CHECK(hi.covered == 1452);  // every h, i context: 792 + 660
}

TEST_CASE("method_contexts of Figure 1, and the search through it and the preorder: the same result") {
  ccrc::profile p = test::figure1();
  ccrc::method_contexts by_method(p.tree());
  CHECK(by_method.size() == 18);
  auto g = by_method.of(p.symbols().find_method("g").value());
  CHECK(paths(p.tree(), {g.begin(), g.end()}) ==
        std::set<std::string>{"main;f;g", "main;f;g;g", "main;g", "main;g;g"});
  CHECK(std::is_sorted(g.begin(), g.end()));
  CHECK(by_method.of(ccrc::method_id{0}).empty());  // the root is no context
  auto ag = ccrc::inclusive(p.tree(), p.column("bytecodes"));
  ccrc::preorder_index order(p.tree());
  auto r = ccrc::search(by_method, order, p.tree(), p.column("bytecodes"), ag, {.name = {.text = "g"}});
  CHECK(paths(p.tree(), r.nodes) == std::set<std::string>{"main;f;g", "main;f;g;g", "main;g", "main;g;g"});
  CHECK(r.covered == 980);
  CHECK(r.total == 3238);
  auto hi = ccrc::search(by_method, order, p.tree(), p.column("bytecodes"), ag,
                         {.name = {.text = "^(h|i)$", .match = ccrc::name_match::regex}});
  CHECK(hi.nodes.size() == 12);
  CHECK(hi.covered == 1452);
  // As positions: Figure 1's tree is numbered in preorder, so g's contexts are at their ids.
  ccrc::method_positions positions(p.tree(), order);
  CHECK(positions.size() == 18);
  auto gp = positions.of(p.symbols().find_method("g").value());
  CHECK(std::vector<std::uint32_t>(gp.begin(), gp.end()) == std::vector<std::uint32_t>(g.begin(), g.end()));
  auto marked = ccrc::search_positions(positions, order, p.tree(), p.column("bytecodes"), ag, {.name = {.text = "g"}});
  CHECK(marked.count == 4);
  CHECK(marked.covered == 980);
  CHECK(marked.total == 3238);
}

TEST_CASE("search thresholds: self and aggregated, absolute and as a share of the total") {
  ccrc::profile p = test::figure1();
  ccrc::tree_view all(p.tree());
  auto bytecodes = p.column("bytecodes");
  // Every method, aggregated value >= 490.
  auto big = ccrc::search(all, bytecodes, {.min_total = ccrc::threshold{490}});
  CHECK(paths(p.tree(), big.nodes) == std::set<std::string>{"main", "main;f", "main;g", "main;f;g", "main;h"});
  CHECK(big.covered == 3238);  // main holds them all
  // As a share: ag >= 25 % of 3238 = 809.5.
  auto quarter = ccrc::search(all, bytecodes, {.min_total = ccrc::threshold{0.25, true}});
  CHECK(paths(p.tree(), quarter.nodes) == std::set<std::string>{"main", "main;f"});
  // Self >= 360 bytecodes, among h and i only.
  auto self = ccrc::search(all, bytecodes, {.name = {.text = "^[hi]$", .match = ccrc::name_match::regex},
                                            .min_self = ccrc::threshold{360}});
  CHECK(paths(p.tree(), self.nodes) == std::set<std::string>{"main;h", "main;h;i"});
  CHECK(self.covered == 792);
  // Self >= 10 % of the total, on calls (345): 34.5 -> main;h and main;h;i (72 each).
  auto calls = ccrc::search(all, p.column("calls"), {.min_self = ccrc::threshold{0.10, true}});
  CHECK(paths(p.tree(), calls.nodes) == std::set<std::string>{"main;h", "main;h;i"});
  CHECK(calls.share() == doctest::Approx(144.0 / 345));
}

TEST_CASE("a query and a bound as one text: re:, =, a substring; N and N%") {
  using ccrc::name_match;
  CHECK(ccrc::parse_name_query("re:^[hi]$") == ccrc::name_query{"^[hi]$", name_match::regex});
  CHECK(ccrc::parse_name_query("=main") == ccrc::name_query{"main", name_match::exact});
  CHECK(ccrc::parse_name_query("Hash") == ccrc::name_query{"Hash", name_match::substring});
  // Only the first prefix counts: "=re:x" is the exact name "re:x"; "re" alone is a substring.
  CHECK(ccrc::parse_name_query("=re:x") == ccrc::name_query{"re:x", name_match::exact});
  CHECK(ccrc::parse_name_query("re") == ccrc::name_query{"re", name_match::substring});
  CHECK(ccrc::parse_name_query("", ccrc::name_part::method, true) ==
        ccrc::name_query{"", name_match::substring, ccrc::name_part::method, true});
  CHECK(ccrc::parse_threshold("500") == ccrc::threshold{500, false});
  CHECK(ccrc::parse_threshold("25%") == ccrc::threshold{0.25, true});
  CHECK(ccrc::parse_threshold("-1e3") == ccrc::threshold{-1000, false});
  for (const char* bad : {"", "%", "abc", "5 %", "inf", "nan", "+5", "0x10", "5%%"}) {
    CAPTURE(bad);
    CHECK(!ccrc::parse_threshold(bad));
  }
  // Parsed, they find what the structured query finds.
  ccrc::profile p = test::figure1();
  auto parsed = ccrc::search(ccrc::tree_view(p.tree()), p.column("bytecodes"),
                             {.name = ccrc::parse_name_query("re:^[hi]$"), .min_self = ccrc::parse_threshold("360")});
  CHECK(paths(p.tree(), parsed.nodes) == std::set<std::string>{"main;h", "main;h;i"});
}

TEST_CASE("search over a view: only its contexts, ag and total still the whole tree's") {
  ccrc::profile p = test::figure1();
  ccrc::tree_view f = ccrc::tree_view(p.tree(), ccrc::node_at_path(p.tree(), "main;f")).limit_depth(1);
  auto r = ccrc::search(f, p.column("bytecodes"), {.name = {.text = "h"}});
  CHECK(paths(p.tree(), r.nodes) == std::set<std::string>{"main;f;h"});
  CHECK(r.covered == 220);
  CHECK(r.total == 3238);
}

TEST_CASE("search with nothing to find, and a total of 0: a share of 0, never NaN") {
  ccrc::profile p = test::figure1();
  auto none = ccrc::search(ccrc::tree_view(p.tree()), p.column("calls"), {.name = {.text = "zzz"}});
  CHECK(none.nodes.empty());
  CHECK(none.covered == 0);
  CHECK(none.share() == 0);
  std::vector<double> zeros(p.size(), 0.0);
  auto zero = ccrc::search(ccrc::tree_view(p.tree()), zeros, {.name = {.text = "g"}});
  CHECK(zero.nodes.size() == 4);
  CHECK(zero.share() == 0);
}

TEST_CASE("search agrees with a per-node reference on random trees") {
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    test::rng r{seed};
    ccrc::profile p = test::profile_of(test::random_samples(r, 1 + r.below(60), 3 + r.below(8), 12));
    auto self = p.column(0);
    std::vector<double> ag = ccrc::inclusive(p.tree(), self);
    std::string digit = std::to_string(r.below(10));
    ccrc::search_query q{.name = {.text = digit}, .min_total = ccrc::threshold{static_cast<double>(r.below(2000))}};
    auto got = ccrc::search(ccrc::tree_view(p.tree()), self, q);
    std::vector<ccrc::node_id> want;
    double covered = 0;
    for (ccrc::node_id n = 1; n < p.size(); ++n) {
      auto match = [&](ccrc::node_id k) {
        return p.tree().name(k).find(digit) != std::string_view::npos && ag[k] >= q.min_total->value;
      };
      if (!match(n)) continue;
      want.push_back(n);
      bool nested = false;
      for (ccrc::node_id a = p.tree().parent(n); a != ccrc::root_node; a = p.tree().parent(a)) nested |= match(a);
      if (!nested) covered += ag[n];
    }
    CHECK(got.nodes == want);
    CHECK(got.covered == doctest::Approx(covered));
    // The same through the link-walking path views take (a depth limit no node reaches).
    auto walked = ccrc::search(ccrc::tree_view(p.tree()).limit_depth(1000), self, q);
    CHECK(walked.nodes == want);
    CHECK(walked.covered == doctest::Approx(covered));
    // And through the method index, with ag given.
    auto indexed = ccrc::search(ccrc::method_contexts(p.tree()), ccrc::preorder_index(p.tree()), p.tree(), self, ag, q);
    CHECK(indexed.nodes == want);
    CHECK(indexed.covered == doctest::Approx(covered));
    // And as positions in preorder, with and without the threshold: the same contexts.
    ccrc::preorder_index order(p.tree());
    ccrc::method_positions by_method(p.tree(), order);
    for (bool bound : {true, false}) {
      ccrc::search_query query = q;
      if (!bound) query.min_total.reset();
      auto listed = ccrc::search(ccrc::tree_view(p.tree()), self, query);
      auto marked = ccrc::search_positions(by_method, order, p.tree(), self, ag, query);
      std::vector<ccrc::node_id> at_positions;
      for (std::uint32_t at = 0; at < p.size(); ++at)
        if (marked.positions[at / 64] >> (at % 64) & 1) at_positions.push_back(order.at(at));
      std::sort(at_positions.begin(), at_positions.end());
      CHECK(at_positions == listed.nodes);
      CHECK(marked.count == listed.nodes.size());
      CHECK(marked.covered == doctest::Approx(listed.covered));
      CHECK(marked.share() == listed.share());
    }
  }
}

TEST_CASE("search walks a chain of 1,000,000 levels; nested matches counted once") {
  ccrc::cct<ccrc::metric<"calls">> t;
  std::vector<ccrc::frame_id> stack(1'000'000, t.intern("r"));
  ccrc::node_id leaf = t.add_path(stack, 1);
  t.get<"calls">(1) = 5;
  auto r = ccrc::search(ccrc::tree_view(t.tree()), t.column<"calls">(), {.name = {.text = "r"}});
  CHECK(r.nodes.size() == 1'000'000);
  CHECK(r.nodes.back() == leaf);
  CHECK(r.covered == 6);
  CHECK(r.share() == 1);
  auto ag = ccrc::inclusive(t.tree(), t.column<"calls">());
  ccrc::preorder_index order(t.tree());  // a chain of 1,000,000: built without a stack
  auto indexed =
      ccrc::search(ccrc::method_contexts(t.tree()), order, t.tree(), t.column<"calls">(), ag, {.name = {.text = "r"}});
  CHECK(indexed.nodes == r.nodes);
  CHECK(indexed.covered == 6);
}
