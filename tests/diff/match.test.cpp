#include <ccrc/diff/match.hpp>
#include <ccrc/io/folded.hpp>

#include "support/diff.hpp"
#include "support/figure1.hpp"
#include "support/random.hpp"

#include <doctest/doctest.h>

#include <string>

namespace {

ccrc::profile xml_run(const char* name) {
  return ccrc::read_folded_file(std::string(CCRC_SOURCE_DIR "/examples/data/") + name);
}

// The diff node of a context of the first (second) run, by its path in that run.
ccrc::node_id of_first(const ccrc::context_matching& m, const ccrc::profile& p, std::string_view path) {
  return m.from_first[ccrc::node_at_path(p.tree(), path)];
}
ccrc::node_id of_second(const ccrc::context_matching& m, const ccrc::profile& p, std::string_view path) {
  return m.from_second[ccrc::node_at_path(p.tree(), path)];
}

// Two runs from folded text, matched; every context accounted for.
struct matched_runs {
  ccrc::profile a, b;
  ccrc::context_matching m;
};
matched_runs matched(std::string_view first, std::string_view second, const ccrc::match_options& options = {}) {
  matched_runs r{ccrc::read_folded(first), ccrc::read_folded(second), {}};
  r.m = ccrc::match_contexts(r.a.tree(), r.b.tree(), options);
  test::check_accounting(r.m, r.a.tree(), r.b.tree());
  return r;
}

}  // namespace

TEST_CASE("a tree matched with itself: every context paired with its copy, nothing moved") {
  ccrc::profile a = test::figure1(), b = test::figure1();
  ccrc::context_matching m = ccrc::match_contexts(a.tree(), b.tree());
  test::check_accounting(m, a.tree(), b.tree());
  CHECK(m.matched == 18);
  CHECK(m.added == 0);
  CHECK(m.removed == 0);
  CHECK(m.moved == 0);
  CHECK(m.bound_hits == 0);
  for (ccrc::node_id n = 1; n < a.size(); ++n) {
    ccrc::node_id d = m.from_first[n];
    CHECK(m.second_node[d] == n);  // same ids: the same tree
    CHECK(ccrc::path_string(m.tree, d) == ccrc::path_string(a.tree(), n));
  }
}

TEST_CASE("the XML example: parse is found below the inserted parse_proxy, not removed and new") {
  ccrc::profile a = xml_run("xml_old.folded"), b = xml_run("xml_new.folded");
  ccrc::context_matching m = ccrc::match_contexts(a.tree(), b.tree());
  test::check_accounting(m, a.tree(), b.tree());
  const std::string build = "BenchMark.main(String[]);SAXBuilder.build(File);SAXBuilder.build(URL);SAXBuilder.build(InputSource)";
  const std::string proxy = build + ";SAXBuilder.parse_proxy(InputSource, XMLReader)";
  ccrc::node_id parse = of_first(m, a, build + ";AbstractSAXParser.parse(InputSource)");
  CHECK(m.in_second(parse));
  CHECK(m.second_node[parse] == ccrc::node_at_path(b.tree(), proxy + ";AbstractSAXParser.parse(InputSource)"));
  CHECK(ccrc::path_string(m.tree, parse) == proxy + ";AbstractSAXParser.parse(InputSource)");
  CHECK_FALSE(m.in_first(of_second(m, b, proxy)));
  CHECK_FALSE(m.in_first(of_second(m, b, proxy + ";SAXBuilder.new_method()")));
  CHECK(m.matched == 7);  // main, build x3, parse, createParser, createContentHandler
  CHECK(m.added == 2);
  CHECK(m.removed == 0);
  CHECK(m.moved == 1);
}

TEST_CASE("a method inserted at the top: the whole tree below it still matches") {
  auto [a, b, m] = matched("main;f;g 1\nmain;h 2\n", "boot;main;f;g 1\nboot;main;h 2\n");
  CHECK(m.matched == 4);
  CHECK(m.added == 1);
  CHECK(m.moved == 1);
  CHECK(ccrc::path_string(m.tree, of_first(m, a, "main;f;g")) == "boot;main;f;g");
}

TEST_CASE("a removed inner method: its callees match the second run's, below it in the diff tree") {
  auto [a, b, m] = matched("a;x;c;d 1\na;x;e 1\na;k 1\n", "a;c;d 1\na;e 1\na;k 1\n");
  CHECK(m.removed == 1);
  CHECK(m.added == 0);
  CHECK(m.moved == 2);
  ccrc::node_id c = of_second(m, b, "a;c");
  CHECK(m.first_node[c] == ccrc::node_at_path(a.tree(), "a;x;c"));
  CHECK(ccrc::path_string(m.tree, c) == "a;x;c");
  CHECK(ccrc::path_string(m.tree, of_second(m, b, "a;c;d")) == "a;x;c;d");
  CHECK(ccrc::path_string(m.tree, of_second(m, b, "a;e")) == "a;x;e");
  CHECK_FALSE(m.in_second(of_first(m, a, "a;x")));
}

TEST_CASE("inserted chains longer than max_chain are not searched, and the bound is reported") {
  ccrc::profile a = ccrc::read_folded("a;c;d 1\n");
  ccrc::profile b = ccrc::read_folded("a;i1;i2;i3;c;d 1\n");
  auto m2 = ccrc::match_contexts(a.tree(), b.tree(), {.max_chain = 2});
  test::check_accounting(m2, a.tree(), b.tree());
  CHECK_FALSE(m2.in_second(of_first(m2, a, "a;c")));
  CHECK(m2.bound_hits == 1);
  auto m3 = ccrc::match_contexts(a.tree(), b.tree(), {.max_chain = 3});
  CHECK(m3.second_node[of_first(m3, a, "a;c;d")] == ccrc::node_at_path(b.tree(), "a;i1;i2;i3;c;d"));
  CHECK(m3.bound_hits == 0);
  CHECK(m3.added == 3);
  auto m0 = ccrc::match_contexts(a.tree(), b.tree(), {.max_chain = 0});
  CHECK(m0.matched == 1);
  CHECK(m0.bound_hits == 0);
}

TEST_CASE("one path must be a subsequence of the other: insertions and removals do not mix") {
  // a;x;c;d and a;c;y;d: c matches (x removed), but d's paths a,x,c,d and a,c,y,d are not
  // subsequences of each other.
  auto [a, b, m] = matched("a;x;c;d 1\n", "a;c;y;d 1\n");
  CHECK(m.second_node[of_first(m, a, "a;x;c")] == ccrc::node_at_path(b.tree(), "a;c"));
  CHECK_FALSE(m.in_second(of_first(m, a, "a;x;c;d")));
  CHECK_FALSE(m.in_first(of_second(m, b, "a;c;y;d")));
}

TEST_CASE("call sites: the same frame first, then the same method at another site, oldest first") {
  ccrc::call_tree a, b;
  ccrc::node_id main_a = a.find_or_add_child(ccrc::root_node, a.intern("main"));
  ccrc::node_id f1 = a.find_or_add_child(main_a, a.symbols().intern("f", 1));
  ccrc::node_id f2 = a.find_or_add_child(main_a, a.symbols().intern("f", 2));
  ccrc::node_id main_b = b.find_or_add_child(ccrc::root_node, b.intern("main"));
  ccrc::node_id g2 = b.find_or_add_child(main_b, b.symbols().intern("f", 2));
  ccrc::node_id g3 = b.find_or_add_child(main_b, b.symbols().intern("f", 3));
  ccrc::context_matching m = ccrc::match_contexts(a, b);
  test::check_accounting(m, a, b);
  CHECK(m.second_node[m.from_first[f2]] == g2);
  CHECK(m.second_node[m.from_first[f1]] == g3);
  CHECK(m.tree.symbols().site(m.tree.frame(m.from_first[f1])) == 3);  // the second run's frame
}

TEST_CASE("several candidates: the shallowest wins, then the first in child order") {
  auto [a, b, m] = matched("a;p 1\n", "a;x;y;p 1\na;z;p 1\na;w;p 1\n");
  CHECK(m.second_node[of_first(m, a, "a;p")] == ccrc::node_at_path(b.tree(), "a;z;p"));
  CHECK(m.matched == 2);
}

TEST_CASE("methods only inserted, or only removed: every surviving first-run context is found") {
  for (std::uint64_t seed = 1; seed <= 600; ++seed) {
    test::rng r{seed};
    ccrc::profile a = test::unique_tree(r, 1 + r.below(120));
    bool inserting = seed % 2 == 0;
    test::version_edit e;
    ccrc::profile b = inserting ? test::next_version(a, r, 0.0, 0.2, 3, &e) : test::next_version(a, r, 0.25, 0.0, 1, &e);
    ccrc::context_matching m = ccrc::match_contexts(a.tree(), b.tree(), {.max_chain = inserting ? 3u : 64u});
    test::check_accounting(m, a.tree(), b.tree());
    std::size_t deleted = 0;
    for (ccrc::node_id n = 1; n < a.size(); ++n) {
      if (e.deleted[n]) ++deleted;
      ccrc::node_id d = m.from_first[n];
      REQUIRE(m.in_second(d) == !e.deleted[n]);
      if (m.in_second(d)) CHECK(b.tree().name(m.second_node[d]) == a.tree().name(n));  // the same context
    }
    CHECK(m.removed == deleted);
    CHECK(m.added == e.inserted_total);
    if (inserting) CHECK(m.bound_hits == 0);
  }
}

TEST_CASE("random insertions and deletions on recursive random trees: every context accounted for once") {
  for (std::uint64_t seed = 1; seed <= 400; ++seed) {
    test::rng r{seed};
    ccrc::profile a = test::profile_of(test::random_samples(r, 1 + r.below(60), 1 + r.below(8), 1 + r.below(10)));
    ccrc::profile b = test::next_version(a, r, 0.2, 0.2, 3);
    ccrc::context_matching m = ccrc::match_contexts(a.tree(), b.tree(), {.max_chain = 1 + r.below(4)});
    test::check_accounting(m, a.tree(), b.tree());
    for (ccrc::node_id d = 1; d < m.tree.size(); ++d) {
      if (!m.in_first(d) || !m.in_second(d)) continue;
      auto pa = test::names_on_path(a.tree(), m.first_node[d]), pb = test::names_on_path(b.tree(), m.second_node[d]);
      auto pd = test::names_on_path(m.tree, d);
      CHECK((test::is_subsequence(pa, pb) || test::is_subsequence(pb, pa)));
      CHECK(pd.size() == std::max(pa.size(), pb.size()));  // the pair sits at the longer path
      CHECK((test::is_subsequence(pa, pd) && test::is_subsequence(pb, pd)));
    }
    // Deterministic, ids included.
    auto chain = static_cast<std::uint32_t>(m.matched % 4 + 1);
    ccrc::context_matching again = ccrc::match_contexts(a.tree(), b.tree(), {.max_chain = chain});
    ccrc::context_matching same = ccrc::match_contexts(a.tree(), b.tree(), {.max_chain = chain});
    CHECK(again.first_node == same.first_node);
    CHECK(again.second_node == same.second_node);
  }
}

TEST_CASE("a shrunk first run (no child index, wide parents) matches as it does with its index; the diff tree is shrunk") {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    test::rng r{seed};
    ccrc::profile a = test::profile_of(test::random_samples(r, 200 + r.below(200), 40, 1 + r.below(5)));
    ccrc::profile b = test::next_version(a, r, 0.1, 0.1, 2);
    ccrc::context_matching with_index = ccrc::match_contexts(a.tree(), b.tree());
    ccrc::profile shrunk = a;
    shrunk.shrink_to_fit();
    ccrc::context_matching without = ccrc::match_contexts(shrunk.tree(), b.tree());
    CHECK(without.first_node == with_index.first_node);
    CHECK(without.second_node == with_index.second_node);
    CHECK(without.moved == with_index.moved);
    const ccrc::call_tree& d = without.tree;
    CHECK(d.memory_bytes() == 16 * d.size() + d.symbols().memory_bytes());
    for (ccrc::node_id n = 1; n < d.size(); ++n) REQUIRE(d.find_child(d.parent(n), d.frame(n)) == n);
  }
}

TEST_CASE("a chain a million levels deep, with a method inserted near the top") {
  constexpr std::size_t depth = 1'000'000;
  ccrc::call_tree a, b;
  ccrc::frame_id fa = a.intern("f"), fb = b.intern("f"), boot = b.intern("boot");
  ccrc::node_id na = a.find_or_add_child(ccrc::root_node, a.intern("main"));
  ccrc::node_id nb = b.find_or_add_child(b.find_or_add_child(ccrc::root_node, boot), b.intern("main"));
  for (std::size_t i = 0; i < depth; ++i) {
    na = a.find_or_add_child(na, fa);
    nb = b.find_or_add_child(nb, fb);
  }
  ccrc::context_matching m = ccrc::match_contexts(a, b);
  CHECK(m.matched == depth + 1);
  CHECK(m.added == 1);
  CHECK(m.second_node[m.from_first[na]] == nb);
  CHECK(m.tree.size() == depth + 3);
}
