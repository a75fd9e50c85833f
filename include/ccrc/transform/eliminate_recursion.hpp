// ccrc - recursion elimination: a tree in which no method repeats on any call path.
#pragma once

#include <ccrc/concepts.hpp>
#include <ccrc/enum_names.hpp>
#include <ccrc/transform/transformed.hpp>
#include <ccrc/tree/view.hpp>

#include <cstdint>
#include <vector>

namespace ccrc {

/// Which repeated calls eliminate_recursion folds.
enum class recursion {
  /// The papers' Figure 8: a call to a method already on the call path goes to that
  /// method's context, and its callees hang there (the stack A B C B D becomes A B D; Firefox
  /// Profiler does the same). No method repeats on any path of the result, so its depth is
  /// at most the number of methods.
  all,
  /// Only a method calling itself: f -> f folds into one context, f -> g -> f stays.
  direct,
  /// speedscope's "collapse recursion": a call to a method already on the call path is
  /// dropped from the path and its callees hang from its caller's context (A B C B D becomes
  /// A B C D). Every path keeps its first occurrence of each method, in order, so no method
  /// repeats on a path, and a path never gets longer. The dropped call's own metrics go to the
  /// context of the method's outer occurrence (A;B above), so that, as under the other
  /// policies, each node maps to a context of its own method and the flat profile is
  /// unchanged; speedscope gives them to the caller instead (A;B;C), which changes it.
  drop_repeats,
};

/// The policies' names, by value (ccrc::name_of, ccrc::enum_named).
[[nodiscard]] constexpr auto enum_names(recursion) noexcept {
  return std::array<std::string_view, 3>{"all", "direct", "drop_repeats"};
}

/// The tree with recursive calls folded, per `policy`. Under every policy:
/// - every node's metrics go to the output node it folds into (node_map), the root's included,
///   so the total of every metric is kept exactly, and each output node's self value is the
///   sum over the input nodes mapped to it;
/// - a node maps to a context of its own method, so self values are kept per method: the flat
///   profile (ccrc::flat, per_method) of the result is the input's;
/// - a tree without (that kind of) recursion comes out as the same profile (the same contexts
///   with the same metrics), and applying the same policy twice changes nothing the second time.
/// `all` and `drop_repeats` leave no method twice on any path (depth <= number of methods);
/// `direct` leaves no method calling itself.
/// Under `all` the result is the same tree, node for node and id for id, as the papers'
/// Figure 8 (with the root's metrics kept), which is O(nodes x depth); this is O(nodes) for
/// every policy: the current output path is kept in an array by depth, each method's latest
/// context on the input path in another, both restored on the way back up. Iterative.
///
///     auto flat = ccrc::eliminate_recursion(profile);
///     // Figure 1: 12 nodes, depth 5; main;f;g has 30 calls and 270 bytecodes
template <buildable_tree Tree>
[[nodiscard]] transformed<Tree> eliminate_recursion(const Tree& in, recursion policy = recursion::all) {
  const call_tree& t = in.tree();
  const symbol_table& syms = t.symbols();
  call_tree out;  // the structure alone: metrics are added at the end, column by column
  out.symbols() = syms;
  std::vector<node_id> map(t.size(), null_node);
  map[root_node] = root_node;

  std::vector<std::uint32_t> out_depth{0};  // depth of each output node
  std::vector<node_id> path{root_node};     // path[d]: the output node at depth d on the current path
  std::vector<node_id> latest(syms.method_count(), null_node);  // per method, see below
  struct saved {
    std::uint32_t depth;
    node_id path_node;
    method_id method;
    node_id latest;
  };
  std::vector<saved> undo;  // one entry per input node on the current input path
  undo.reserve(256);

  // Where the callees of each input node go: its own output node, except for a call that
  // drop_repeats removes from the path, whose callees go where its caller's go.
  std::vector<node_id> dropped_attach;
  if (policy == recursion::drop_repeats) dropped_attach.assign(t.size(), null_node);
  std::vector<node_id>& attach = policy == recursion::drop_repeats ? dropped_attach : map;
  if (policy == recursion::drop_repeats) attach[root_node] = root_node;

  auto enter = [&](node_id n, std::uint32_t) {
    if (n == root_node) return;
    node_id parent_out = attach[t.parent(n)];
    method_id m = syms.method(t.frame(n));
    node_id o = null_node;
    if (policy == recursion::all) {
      // latest[m] is the output node of the deepest input ancestor of method m; if a node of
      // method m is on the output path, it is that one. It is on the path iff path[] says so.
      node_id w = latest[m];
      if (w != null_node && out_depth[w] <= out_depth[parent_out] && path[out_depth[w]] == w) o = w;
    } else if (policy == recursion::direct) {
      if (parent_out != root_node && out.method(parent_out) == m) o = parent_out;
    } else if (latest[m] != null_node) {
      // drop_repeats: the output path holds exactly the methods of the input path, so m is on
      // it iff an input ancestor has method m; this call is dropped, its callees stay put.
      o = latest[m];
      attach[n] = parent_out;
    }
    if (o == null_node) {
      o = out.find_or_add_child(parent_out, t.frame(n));
      if (o == out_depth.size()) out_depth.push_back(out_depth[parent_out] + 1);
      attach[n] = o;
    }
    map[n] = o;
    std::uint32_t d = out_depth[o];
    if (d == path.size()) path.push_back(o);
    undo.push_back({d, path[d], m, latest[m]});
    path[d] = o;
    latest[m] = o;
  };
  auto leave = [&](node_id n, std::uint32_t) {
    if (n == root_node) return;
    const saved& s = undo.back();
    path[s.depth] = s.path_node;
    latest[s.method] = s.latest;
    undo.pop_back();
  };
  depth_first(tree_view(t), enter, leave);
  transformed<Tree> result{detail::with_structure(in, std::move(out)), std::move(map)};
  detail::add_through(result.output, in, result.node_map);
  return result;
}

}  // namespace ccrc
