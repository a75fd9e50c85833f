#include <ccrc/transform/collapse_runs.hpp>

#include "support/figure1.hpp"
#include "support/paths.hpp"

#include <doctest/doctest.h>

#include <set>

TEST_CASE("collapse runs of java.* frames into their package") {
  ccrc::profile p = test::stacks({{"app.Main.main();java.util.HashMap.get(Object);java.util.HashMap.hash(Object)", 10},
                                  {"app.Main.main();java.util.HashMap.get(Object);app.Key.hashCode();java.util.Objects.hash(Object)", 5},
                                  {"app.Main.main();java.util.ArrayList.add(Object)", 1},
                                  {"app.Main.main();java.io.File.open()", 2}});
  auto r = ccrc::collapse_runs(p, [](std::string_view name) {
    return name.starts_with("java.") ? ccrc::package_of(name) : std::string_view();
  });
  CHECK(test::context_paths(r.output) == std::set<std::string>{"app.Main.main()", "app.Main.main();java.util",
                                               "app.Main.main();java.util;app.Key.hashCode()",
                                               "app.Main.main();java.util;app.Key.hashCode();java.util",
                                               "app.Main.main();java.io"});
  CHECK(r.output.column(0)[ccrc::node_at_path(r.output.tree(), "app.Main.main();java.util")] == 11);
  CHECK(r.output.column(0)[ccrc::node_at_path(r.output.tree(), "app.Main.main();java.io")] == 2);
  CHECK(r.node_map[ccrc::node_at_path(p.tree(), "app.Main.main();java.util.HashMap.get(Object);java.util.HashMap.hash(Object)")] ==
        ccrc::node_at_path(r.output.tree(), "app.Main.main();java.util"));
  // Every frame of a package, the program's too: package_of itself as the grouping.
  auto all = ccrc::collapse_runs(p, ccrc::package_of);
  CHECK(test::context_paths(all.output) == std::set<std::string>{"app", "app;java.util", "app;java.util;app", "app;java.util;app;java.util",
                                                 "app;java.io"});
}

TEST_CASE("collapse_runs equals its path-by-path reference on random trees") {
  using path = std::vector<std::string>;
  auto group = [](std::string_view name) -> std::string {
    int i = std::stoi(std::string(name.substr(1)));
    return i % 3 == 2 ? "" : "G" + std::to_string(i % 3);
  };
  for (std::uint64_t seed = 1; seed <= 500; ++seed) {
    test::rng r{seed};
    ccrc::profile p = test::random_profile(r, 8);
    test::check_rule(p, ccrc::collapse_runs(p, group), [&](const path& f, ccrc::node_id) -> std::optional<path> {
      path out;
      for (const auto& m : f) {
        std::string g = group(m);
        if (g.empty()) out.push_back(m);
        else if (out.empty() || out.back() != g) out.push_back(g);
      }
      return out;
    });
  }
}

TEST_CASE("collapse_runs over a chain of 1,000,000 frames of one namespace") {
  ccrc::cct<ccrc::metric<"calls">> t;
  std::vector<ccrc::frame_id> stack;
  for (int i = 0; i < 1'000'000; ++i) stack.push_back(t.intern(i % 2 ? "lib::x::a()" : "lib::y::b()"));
  t.add_path(stack, 4);
  t.get<"calls">(1) = 1;
  auto r = ccrc::collapse_runs(t, ccrc::package_of);
  CHECK(r.output.size() == 2);
  CHECK(r.output.tree().name(1) == "lib");
  CHECK(r.output.get<"calls">(1) == 5);
}
