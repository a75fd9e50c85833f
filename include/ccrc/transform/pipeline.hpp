// ccrc - a sequence of transforms, applied as one, to as many profiles as needed.
#pragma once

#include <ccrc/algorithm/search.hpp>
#include <ccrc/transform/collapse_runs.hpp>
#include <ccrc/transform/eliminate_recursion.hpp>
#include <ccrc/transform/function.hpp>
#include <ccrc/transform/invert.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <numeric>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ccrc {

/// Picks the methods a transform acts on from the symbol table of the tree it is applied to:
/// method ids differ between profiles, names do not.
using method_selector = std::function<method_set(const symbol_table&)>;

/// The methods with these exact names.
[[nodiscard]] inline method_selector named(std::vector<std::string> names) {
  return [names = std::move(names)](const symbol_table& syms) { return methods_named(syms, names); };
}

/// The methods whose names match a query (see ccrc::match_methods).
[[nodiscard]] inline method_selector matching(name_query q) {
  return [q = std::move(q)](const symbol_table& syms) { return match_methods(syms, q); };
}

/// Composes two transforms' node maps: where `first` sent a node, then where `second` sent
/// that. O(nodes of the first input).
[[nodiscard]] inline std::vector<node_id> compose(std::span<const node_id> first, std::span<const node_id> second) {
  std::vector<node_id> out(first.size());
  for (std::size_t n = 0; n < first.size(); ++n) out[n] = first[n] == null_node ? null_node : second[first[n]];
  return out;
}

/// A sequence of transforms applied as one: the result is the last transform's tree, and
/// node_map goes from the input to it through every step. Steps name their methods through
/// selectors, resolved on each input's own symbol table, so one pipeline applied to two
/// profiles (two runs to compare) does the same thing to both. Cost: the sum of the steps'.
///
///     auto steps = ccrc::pipeline<ccrc::profile>()
///                      .merge_function(ccrc::named({"java.lang.Thread.run()"}))
///                      .eliminate_recursion();
///     auto old_run = steps(old_profile), new_run = steps(new_profile);
template <buildable_tree Tree>
class pipeline {
 public:
  /// One step: any function from a tree to a transformed tree.
  using step = std::function<transformed<Tree>(const Tree&)>;

  /// Appends any step: `p.then([](const auto& t) { return my_transform(t); })`.
  pipeline& then(step s) {
    steps_.push_back(std::move(s));
    return *this;
  }
  /// ccrc::invert.
  pipeline& invert(std::uint32_t max_depth = unlimited_depth) {
    return then([max_depth](const Tree& t) { return ccrc::invert(t, max_depth); });
  }
  /// ccrc::focus_function on the selected methods.
  pipeline& focus_function(method_selector s) {
    return then([s = std::move(s)](const Tree& t) { return ccrc::focus_function(t, s(t.symbols())); });
  }
  /// ccrc::merge_function on the selected methods.
  pipeline& merge_function(method_selector s) {
    return then([s = std::move(s)](const Tree& t) { return ccrc::merge_function(t, s(t.symbols())); });
  }
  /// ccrc::drop_function on the selected methods.
  pipeline& drop_function(method_selector s) {
    return then([s = std::move(s)](const Tree& t) { return ccrc::drop_function(t, s(t.symbols())); });
  }
  /// ccrc::collapse_function_subtree on the selected methods.
  pipeline& collapse_function_subtree(method_selector s) {
    return then([s = std::move(s)](const Tree& t) { return ccrc::collapse_function_subtree(t, s(t.symbols())); });
  }
  /// ccrc::collapse_runs with a grouping of method names (ccrc::package_of, or your own),
  /// kept by value.
  template <class GroupOf>
  pipeline& collapse_runs(GroupOf group_of) {
    return then([g = std::move(group_of)](const Tree& t) { return ccrc::collapse_runs(t, g); });
  }
  /// ccrc::eliminate_recursion with a policy.
  pipeline& eliminate_recursion(recursion policy = recursion::all) {
    return then([policy](const Tree& t) { return ccrc::eliminate_recursion(t, policy); });
  }

  /// Number of steps.
  [[nodiscard]] std::size_t size() const noexcept { return steps_.size(); }

  /// Applies the steps in order to `in`. With no step: a copy of `in`, every node mapped to
  /// itself.
  [[nodiscard]] transformed<Tree> operator()(const Tree& in) const {
    if (steps_.empty()) {
      transformed<Tree> r{in, std::vector<node_id>(in.size())};
      std::iota(r.node_map.begin(), r.node_map.end(), node_id{0});
      return r;
    }
    transformed<Tree> r = steps_.front()(in);
    for (std::size_t i = 1; i < steps_.size(); ++i) {
      transformed<Tree> next = steps_[i](r.output);
      r.node_map = compose(r.node_map, next.node_map);
      r.output = std::move(next.output);
    }
    return r;
  }

 private:
  std::vector<step> steps_;
};

}  // namespace ccrc
