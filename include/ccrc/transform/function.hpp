// ccrc - the transforms that act on every context of some functions: focus on them, merge them
// into their callers, drop them, collapse their subtrees; and renaming the frames.
#pragma once

#include <ccrc/transform/transformed.hpp>
#include <ccrc/tree/method_set.hpp>

#include <string_view>
#include <utility>
#include <vector>

namespace ccrc {

namespace detail {

// The skeleton of the function transforms: one forward sweep over the input ids, parents
// before children, where place(out, n, parent_out) returns the output node of input node n
// given the output node of its parent (null_node if the parent was dropped), creating it in
// `out` as needed, or null_node to drop n. Then every metric goes through the map. `out`
// starts as detail::empty_like(in), possibly with more frames interned; it is reserved to the
// input's size, which these transforms never exceed, to spare the copies of growth.
template <buildable_tree Tree, class Place>
transformed<Tree> sweep_transform(const Tree& in, Tree out, node_id root_out, Place&& place) {
  const call_tree& t = in.tree();
  transformed<Tree> r{std::move(out), std::vector<node_id>(t.size(), null_node)};
  r.output.reserve(t.size());
  r.node_map[root_node] = root_out;
  for (node_id n = 1; n < t.size(); ++n) r.node_map[n] = place(r.output, n, r.node_map[t.parent(n)]);
  add_through(r.output, in, r.node_map);
  return r;
}

template <buildable_tree Tree, class Place>
transformed<Tree> sweep_transform(const Tree& in, node_id root_out, Place&& place) {
  return sweep_transform(in, empty_like(in), root_out, std::forward<Place>(place));
}

}  // namespace detail

/// Focus on functions: every outermost context of a method in `methods` becomes a top-level
/// context, with its callees below it as they were; contexts outside every occurrence are
/// dropped, and so are the root's own metrics. Occurrences reached by different paths merge,
/// so the result's ag of a focused function is the sum of ag over its outermost contexts;
/// inner (recursive) occurrences stay where they are. Firefox Profiler's "focus on function".
/// O(nodes), expected.
///
///     auto r = ccrc::focus_function(p, ccrc::methods_named(p.symbols(), {"g"}));
///     // Figure 1: one top-level g with ag(bytecodes) 980 = ag(main;f;g) + ag(main;g)
template <buildable_tree Tree>
[[nodiscard]] transformed<Tree> focus_function(const Tree& in, const method_set& methods) {
  const call_tree& t = in.tree();
  return detail::sweep_transform(in, null_node, [&](Tree& out, node_id n, node_id parent_out) {
    if (parent_out != null_node) return out.find_or_add_child(parent_out, t.frame(n));
    if (methods.contains(t.method(n))) return out.find_or_add_child(root_node, t.frame(n));
    return null_node;
  });
}

/// Merges functions into their callers: every context of a method in `methods` disappears,
/// its self metrics go to its caller's context and its callees hang from that context
/// (merging with same-named callees there). Totals are kept. Firefox Profiler's and
/// speedscope's "merge function". O(nodes), expected.
///
///     auto r = ccrc::merge_function(p, ccrc::methods_named(p.symbols(), {"g"}));
///     // Figure 1: main;f gets g's 180 + 90 bytecodes; main;f;h gathers g's h
template <buildable_tree Tree>
[[nodiscard]] transformed<Tree> merge_function(const Tree& in, const method_set& methods) {
  const call_tree& t = in.tree();
  return detail::sweep_transform(in, root_node, [&](Tree& out, node_id n, node_id parent_out) {
    return methods.contains(t.method(n)) ? parent_out : out.find_or_add_child(parent_out, t.frame(n));
  });
}

/// Drops every context that contains a method in `methods`: its contexts and everything
/// they called vanish with their metrics (their callers keep their own self values).
/// Firefox Profiler's "drop samples with this function". O(nodes), expected.
template <buildable_tree Tree>
[[nodiscard]] transformed<Tree> drop_function(const Tree& in, const method_set& methods) {
  const call_tree& t = in.tree();
  return detail::sweep_transform(in, root_node, [&](Tree& out, node_id n, node_id parent_out) {
    if (parent_out == null_node || methods.contains(t.method(n))) return null_node;
    return out.find_or_add_child(parent_out, t.frame(n));
  });
}

/// Collapses the subtree of functions into them: a context of a method in `methods` keeps
/// its place and receives the metrics of everything below it, which disappears (a method's
/// cost, callees included, as one frame). Totals are kept; below an outer occurrence, inner
/// ones are collapsed into it too. Firefox Profiler's "collapse function". O(nodes), expected.
template <buildable_tree Tree>
[[nodiscard]] transformed<Tree> collapse_function_subtree(const Tree& in, const method_set& methods) {
  const call_tree& t = in.tree();
  std::vector<char> collapsed(t.size(), 0);  // n's callees fold into n's output node
  return detail::sweep_transform(in, root_node, [&](Tree& out, node_id n, node_id parent_out) {
    node_id p = t.parent(n);
    if (collapsed[p]) {
      collapsed[n] = 1;
      return parent_out;
    }
    collapsed[n] = methods.contains(t.method(n));
    return out.find_or_add_child(parent_out, t.frame(n));
  });
}

/// Renames every frame to `rename(name)` (a string, or anything a std::string_view is made
/// of): contexts whose frames become one name under one caller become one context, their
/// metrics summed, so the totals are kept; call sites are kept. For names resolved after the
/// run (addresses symbolized), shortened (arguments, offsets or paths removed) or anonymised.
/// `rename` is called once per frame. O(nodes + frames), expected.
///
///     auto r = ccrc::rename_frames(p, [](std::string_view name) { return name.substr(0, name.find('(')); });
template <buildable_tree Tree, class Rename>
transformed<Tree> rename_frames(const Tree& in, Rename&& rename) {
  const symbol_table& syms = in.symbols();
  Tree out = detail::with_metrics_of(in);
  std::vector<frame_id> frame_map(syms.frame_count(), root_frame);
  for (frame_id f{1}; f < syms.frame_count(); ++f)
    frame_map[f] = out.symbols().intern(std::string_view(rename(syms.name(f))), syms.site(f));
  const call_tree& t = in.tree();
  return detail::sweep_transform(in, std::move(out), root_node, [&](Tree& o, node_id n, node_id parent) {
    return o.find_or_add_child(parent, frame_map[t.frame(n)]);
  });
}

}  // namespace ccrc
