#include <ccrc/algorithm/inclusive.hpp>
#include <ccrc/concepts.hpp>
#include <ccrc/geometry/tooltip.hpp>
#include <ccrc/io/folded.hpp>
#include <ccrc/transform/eliminate_recursion.hpp>
#include <ccrc/tree/cct.hpp>
#include <ccrc/tree/cursor.hpp>
#include <ccrc/tree/profile.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <span>
#include <sstream>
#include <string_view>
#include <vector>

namespace {

using calls_cct = ccrc::cct<ccrc::metric<"calls">, ccrc::metric<"time", double>>;

// A metric of one's own: any type with a value_type and a name.
struct cpu_ns {
  using value_type = double;
  static constexpr std::string_view name = "cpu_ns";
};

// Stands in for a tree of the user's own: only what ccrc::metric_tree asks for (the structure
// and one column), so the algorithms below prove they ask for nothing more.
struct archetype_tree {
  ccrc::call_tree structure;
  std::vector<double> samples;
  [[nodiscard]] const ccrc::call_tree& tree() const noexcept { return structure; }
  template <class F>
  void for_each_column(F&& f) const {
    f(std::string_view("samples"), std::span<const double>(samples));
  }
};

// Whether the calls compile (a requires-expression checks them only inside a template).
template <class T>
concept recursion_eliminable = requires(const T& t) { ccrc::eliminate_recursion(t); };
template <class T>
concept cursor_walkable = requires(T& t) { ccrc::cursor<T>(t); };

}  // namespace

TEST_CASE("metric values and metric specs") {
  static_assert(ccrc::metric_value<std::uint64_t> && ccrc::metric_value<float> && ccrc::metric_value<const int>);
  static_assert(!ccrc::metric_value<bool> && !ccrc::metric_value<std::string_view> && !ccrc::metric_value<int*>);
  static_assert(ccrc::metric_spec<ccrc::metric<"calls">> && ccrc::metric_spec<cpu_ns>);
  static_assert(!ccrc::metric_spec<double> && !ccrc::metric_spec<archetype_tree>);
  static_assert(ccrc::metric_column<std::vector<double>> && ccrc::metric_column<std::span<const std::uint32_t>>);
  static_assert(!ccrc::metric_column<std::vector<bool>> && !ccrc::metric_column<std::vector<std::string_view>>);
  // A cct over a metric of one's own.
  ccrc::cct<ccrc::metric<"calls">, cpu_ns> t;
  ccrc::frame_id main = t.intern("main");
  ccrc::node_id n = t.add_path(std::span(&main, 1), 2, 0.5);
  CHECK(t.get<"cpu_ns">(n) == 0.5);
  CHECK(t.get<"calls">(n) == 2);
}

TEST_CASE("the tree concepts: the library's trees model them, other types do not") {
  static_assert(ccrc::metric_tree<ccrc::profile> && ccrc::metric_tree<calls_cct> && ccrc::metric_tree<archetype_tree>);
  static_assert(!ccrc::metric_tree<ccrc::call_tree> && !ccrc::metric_tree<int> && !ccrc::metric_tree<std::vector<double>>);
  static_assert(ccrc::buildable_tree<ccrc::profile> && ccrc::buildable_tree<calls_cct>);
  static_assert(!ccrc::buildable_tree<archetype_tree> && !ccrc::buildable_tree<ccrc::call_tree>);
  static_assert(ccrc::context_tree<ccrc::profile> && ccrc::context_tree<calls_cct>);
  static_assert(!ccrc::context_tree<ccrc::call_tree> && !ccrc::context_tree<archetype_tree>);
  // Entry points refuse what their concept refuses, at the call.
  static_assert(recursion_eliminable<ccrc::profile> && !recursion_eliminable<archetype_tree>);
  static_assert(cursor_walkable<calls_cct> && !cursor_walkable<ccrc::call_tree>);
}

TEST_CASE("writers and tooltips read a tree of one's own through metric_tree alone") {
  archetype_tree a;
  ccrc::frame_id main = a.structure.intern("main"), f = a.structure.intern("f");
  ccrc::node_id m = a.structure.find_or_add_child(ccrc::root_node, main);
  ccrc::node_id mf = a.structure.find_or_add_child(m, f);
  a.samples = {0, 3, 4};
  std::ostringstream out;
  ccrc::write_folded(out, a);
  CHECK(out.str() == "# metrics: samples\nmain 3\nmain;f 4\n");
  auto ag = ccrc::inclusive_columns(a);
  REQUIRE(ag.size() == 1);
  CHECK(ag[0] == std::vector<double>{7, 7, 4});
  ccrc::node_tooltip tip = ccrc::tooltip(a, ag, mf);
  CHECK(tip.call_stack == std::vector<std::string_view>{"main", "f"});
  REQUIRE(tip.metrics.size() == 1);
  CHECK(tip.metrics[0].self == 4);
  CHECK(tip.metrics[0].aggregated == 4);
}
