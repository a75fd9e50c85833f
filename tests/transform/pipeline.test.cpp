#include <ccrc/transform/pipeline.hpp>

#include "support/figure1.hpp"
#include "support/random.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <numeric>

namespace {

// Figure 1 read from its lines in reverse order: the same profile, other method and node ids.
ccrc::profile figure1_reversed() {
  std::ifstream in(CCRC_SOURCE_DIR "/examples/data/figure1.folded");
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#') lines.push_back(line);
  std::reverse(lines.begin(), lines.end());
  std::string text = "# metrics: calls bytecodes\n";
  for (const auto& l : lines) text += l + "\n";
  return ccrc::read_folded(text);
}

}  // namespace

TEST_CASE("a pipeline composes its steps and their node maps") {
  ccrc::profile p = test::figure1();
  auto steps = ccrc::pipeline<ccrc::profile>().merge_function(ccrc::named({"f"})).eliminate_recursion();
  CHECK(steps.size() == 2);
  auto r = steps(p);
  auto first = ccrc::merge_function(p, ccrc::methods_named(p.symbols(), {"f"}));
  auto second = ccrc::eliminate_recursion(first.output);
  CHECK(test::canonical(r.output) == test::canonical(second.output));
  CHECK(r.node_map == ccrc::compose(first.node_map, second.node_map));
  // main;f;g;g went to main;g (f merged), then main;g;g folded into main;g.
  CHECK(r.node_map[ccrc::node_at_path(p.tree(), "main;f;g;g")] == ccrc::node_at_path(r.output.tree(), "main;g"));
  CHECK(r.output.column("bytecodes")[ccrc::node_at_path(r.output.tree(), "main;g")] == 540);
}

TEST_CASE("the same pipeline on two profiles whose ids differ does the same to both") {
  ccrc::profile a = test::figure1(), b = figure1_reversed();
  REQUIRE(a.symbols().find_method("g") != b.symbols().find_method("g"));
  auto steps = ccrc::pipeline<ccrc::profile>()
                   .collapse_function_subtree(ccrc::matching({.text = "h"}))
                   .focus_function(ccrc::named({"g"}))
                   .eliminate_recursion(ccrc::recursion::drop_repeats);
  auto ra = steps(a), rb = steps(b);
  CHECK(test::canonical(ra.output) == test::canonical(rb.output));
  CHECK(test::canonical(ra.output) == test::canonical_form{{"", {0, 0}}, {"g", {60, 540}}, {"g;h", {80, 440}}});
}

TEST_CASE("an empty pipeline copies; every step kind runs on a cct") {
  ccrc::profile p = test::figure1();
  auto same = ccrc::pipeline<ccrc::profile>()(p);
  CHECK(test::canonical(same.output) == test::canonical(p));
  std::vector<ccrc::node_id> identity(p.size());
  std::iota(identity.begin(), identity.end(), ccrc::node_id{0});
  CHECK(same.node_map == identity);

  using tree = ccrc::cct<ccrc::metric<"calls">>;
  tree t;
  for (std::string_view line : {"a::x::main();b::y::f();b::y::g();c::z::h()", "a::x::main();c::z::h();b::y::f()"})
    t.add_path(test::frames_of(t, test::sample{test::split(line), {}}), 1);
  auto steps = ccrc::pipeline<tree>()
                   .drop_function(ccrc::named({"c::z::h()"}))
                   .collapse_runs(ccrc::package_of)
                   .invert(1)
                   .then([](const tree& in) { return ccrc::eliminate_recursion(in); });
  auto r = steps(t);
  // Only a::x::main();b::y::f();b::y::g() is left: a;b, inverted one level deep: b.
  CHECK(test::canonical(r.output) == test::canonical_form{{"", {0}}, {"b", {0}}});
  CHECK(r.node_map[1] == ccrc::null_node);  // main had no self value and callees
}

TEST_CASE("pipelines agree with step-by-step application on random trees") {
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    test::rng r{seed};
    ccrc::profile p = test::profile_of(test::random_samples(r, 1 + r.below(40), 2 + r.below(5), 3 + r.below(15)));
    std::string a = test::method_name(r.below(4)), b = test::method_name(r.below(4));
    auto steps = ccrc::pipeline<ccrc::profile>().merge_function(ccrc::named({a})).drop_function(ccrc::named({b})).invert();
    auto got = steps(p);
    auto s1 = ccrc::merge_function(p, ccrc::methods_named(p.symbols(), {a}));
    auto s2 = ccrc::drop_function(s1.output, ccrc::methods_named(s1.output.symbols(), {b}));
    auto s3 = ccrc::invert(s2.output);
    CHECK(test::canonical(got.output) == test::canonical(s3.output));
    CHECK(got.node_map == ccrc::compose(ccrc::compose(s1.node_map, s2.node_map), s3.node_map));
  }
}
