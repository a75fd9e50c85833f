// ccrc - collapsing runs of frames of one package, namespace or library into one frame.
#pragma once

#include <ccrc/algorithm/name_parts.hpp>
#include <ccrc/transform/function.hpp>

#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace ccrc {

/// Collapses runs of frames of one group into one frame: `group_of(name)` gives the group of a
/// method name (a package, a namespace, a library: something convertible to
/// std::string_view; empty for a method that belongs to none), asked once per method. Along
/// every path, consecutive frames of one group become a single frame named by the group,
/// which receives their metrics; frames of no group stay as they are. A call from a library
/// back into the program and into the library again gives three frames. Totals are kept.
/// Firefox Profiler's "collapse library". O(nodes + methods), expected.
///
///     auto r = ccrc::collapse_runs(p, [](std::string_view name) {
///       return name.starts_with("java.") ? ccrc::package_of(name) : std::string_view();
///     });  // app.Main.run;java.util.HashMap.get;java.util.HashMap.hash -> app.Main.run;java.util
template <buildable_tree Tree, class GroupOf>
  requires std::is_convertible_v<std::invoke_result_t<GroupOf&, std::string_view>, std::string_view>
[[nodiscard]] transformed<Tree> collapse_runs(const Tree& in, GroupOf&& group_of) {
  const call_tree& t = in.tree();
  const symbol_table& syms = t.symbols();
  // The output's frame for each method's group: interned once, in method order.
  Tree out = detail::empty_like(in);
  std::vector<frame_id> group_frame(syms.method_count(), null_frame);
  for (method_id m{1}; m < syms.method_count(); ++m) {
    auto&& g = group_of(syms.method_name(m));
    std::string_view name(g);
    if (!name.empty()) group_frame[m] = out.intern(name);
  }
  std::vector<frame_id> run(t.size(), null_frame);  // the group frame n's output node stands for
  return detail::sweep_transform(in, std::move(out), root_node, [&](Tree& o, node_id n, node_id parent_out) {
    frame_id g = group_frame[t.method(n)];
    run[n] = g;
    if (g == null_frame) return o.find_or_add_child(parent_out, t.frame(n));
    if (run[t.parent(n)] == g) return parent_out;
    return o.find_or_add_child(parent_out, g);
  });
}

}  // namespace ccrc
