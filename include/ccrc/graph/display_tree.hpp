// ccrc - the display tree G_T: a call graph shown as a tree, one master node per function.
#pragma once

#include <ccrc/graph/call_graph.hpp>
#include <ccrc/transform/transformed.hpp>

#include <cstddef>
#include <queue>
#include <span>
#include <utility>
#include <vector>

namespace ccrc {

/// A call graph displayed as a tree (Kaes's G_T), as a tree of the input's type: one node
/// f_g per call g -> f of the graph, named f, and one node per top-level function. Each
/// function has one master node m(f), which has a child h_f for every function h that f calls;
/// every other node of f is a leaf that links to m(f) (`master`). Node values: node f_g holds
/// the self values of the contexts of f called from g (node_map sends each context there), so
/// the tree keeps every metric's total and its per-method (flat) profile equals the input's;
/// ccrc::inclusive over it sums the self costs of the functions shown below each master.
template <buildable_tree Tree>
struct graph_tree : transformed<Tree> {
  std::vector<edge_id> edge_of;  ///< per display node: the call it shows (null_edge for the root)
  std::vector<node_id> node_of;  ///< per edge of the graph: its display node
  std::vector<node_id> master;   ///< per display node: m(f) of its function (itself for a master)
};

/// The master of every function: master_calls(g, metric)[f] is the call g -> f whose display
/// node f_g is m(f) (the top-level call for a function called at the top level), null_edge
/// for a method that is no function of g. The rule is display_tree's. O(V + E log E).
template <metric_value T>
[[nodiscard]] std::vector<edge_id> master_calls(const call_graph<T>& g, std::size_t metric = 0) {
  CCRC_ASSERT(metric < g.metric_count(), "ccrc: no such metric in the call graph");
  std::size_t methods = g.method_count();
  // Functions ordered by (c_t, name): the callers' order decides, the callees' breaks the
  // ties between the calls of one caller in a fallback.
  auto less = [&](method_id x, method_id y) {
    if (int c = detail::larger_first(g.total(x, metric), g.total(y, metric))) return c > 0;
    return g.name(x) < g.name(y);
  };
  auto caller_less = [&](edge_id a, edge_id b) { return less(g.edge(a).caller, g.edge(b).caller); };
  auto candidate_less = [&](edge_id a, edge_id b) {
    const call_edge &x = g.edge(a), &y = g.edge(b);
    return x.caller != y.caller ? less(x.caller, y.caller) : less(x.callee, y.callee);
  };
  // The seed's choice for every function: its top-level node, or its best caller's node. A
  // self-call f -> f lies below m(f) and can never be m(f), so it is no candidate; every
  // function has one other caller (its outermost context's parent).
  std::vector<edge_id> preferred(methods, null_edge);
  for (method_id f : g.functions()) {
    edge_id best = null_edge;
    for (edge_id e : g.in_edges(f)) {
      if (g.edge(e).caller == root_method) {
        best = e;
        break;
      }
      if (g.edge(e).caller != f && (best == null_edge || caller_less(best, e))) best = e;
    }
    preferred[f] = best;
  }
  // Which functions lie on a cycle of preferred callers (f prefers g, g prefers ... f): only
  // there can growth stall for want of a placed preferred caller. Walk each chain of
  // preferred callers once; a walk that meets itself has found a cycle.
  enum : unsigned char { unseen, walking, seen };
  std::vector<unsigned char> state(methods, unseen);
  std::vector<bool> on_cycle(methods, false);
  std::vector<method_id> walk;
  for (method_id f : g.functions()) {
    walk.clear();
    method_id x = f;
    while (x != root_method && state[x] == unseen) {
      state[x] = walking;
      walk.push_back(x);
      x = preferred[x] == null_edge ? root_method : g.edge(preferred[x]).caller;
    }
    if (x != root_method && state[x] == walking)
      for (auto it = walk.rbegin(); it != walk.rend(); ++it) {
        on_cycle[*it] = true;
        if (*it == x) break;
      }
    for (method_id w : walk) state[w] = seen;
  }
  std::vector<edge_id> master(methods, null_edge);
  std::vector<method_id> expand;  // functions whose master is placed and whose callees are not yet
  using queue = std::priority_queue<edge_id, std::vector<edge_id>, decltype(candidate_less)>;
  // Calls from a placed function to an unplaced one that is not its preferred call: into a
  // function on a cycle of preferred callers, and into one that merely waits on a cycle.
  queue into_cycle(candidate_less), into_waiting(candidate_less);
  auto place = [&](method_id f, edge_id e) {
    master[f] = e;
    expand.push_back(f);
  };
  auto best_pending = [&](queue& q) {
    while (!q.empty() && master[g.edge(q.top()).callee] != null_edge) q.pop();
    return q.empty() ? null_edge : q.top();
  };
  std::size_t placed = 0;
  for (edge_id e : g.out_edges(root_method)) place(g.edge(e).callee, e);
  for (;;) {
    while (!expand.empty()) {
      method_id caller = expand.back();
      expand.pop_back();
      ++placed;
      for (edge_id e : g.out_edges(caller)) {
        method_id f = g.edge(e).callee;
        if (master[f] != null_edge) continue;
        if (preferred[f] == e)
          place(f, e);
        else
          (on_cycle[f] ? into_cycle : into_waiting).push(e);
      }
    }
    if (placed == g.functions().size()) break;
    // Every function left waits on a cycle of preferred callers: break one at the best call
    // from a placed function into the cycle. Only when no function of a cycle has a placed
    // caller (all its calls come from functions that wait on it) does the best call into a
    // waiting function open the way. (Each function has a context, whose path from the root
    // enters the unplaced functions by a call from a placed one, so there is such a call.)
    edge_id e = best_pending(into_cycle);
    if (e == null_edge) e = best_pending(into_waiting);
    CCRC_ASSERT(e != null_edge, "ccrc: a function is unreachable in the call graph");
    place(g.edge(e).callee, e);
  }
  return master;
}

/// The display tree G_T of call graph `g` of tree `in` (g built from `in`), masters chosen by
/// metric `metric` of g. The master m(f) of a function f is, in this order:
///
/// 1. its top-level node, if f is called at the top level (the seed's m(f) = f);
/// 2. otherwise f_g for the caller g other than f with the largest (c_t(g), name of g), the
///    seed's rule, when that node is in the tree: the tree grows from the top-level functions,
///    and a function's master is placed as soon as its preferred caller's master is. The
///    self-call f_f is no candidate: it lies below m(f), so it can never be m(f);
/// 3. when growth stops with functions left, each of them waits, through its chain of preferred
///    callers, on a cycle of preferred callers (mutual recursion whose best callers point at
///    each other). The stall is broken at such a cycle, at the call g -> f, g placed and f on
///    the cycle, with the largest (c_t(g), name of g, c_t(f), name of f); f_g becomes m(f) and
///    growth resumes, so the functions that merely wait on the cycle keep their preferred
///    callers. Only if no function of any cycle has a placed caller (their calls all come from
///    functions waiting on them) is the best such call into a waiting function taken instead.
///
/// So every function is expanded exactly once and reachable from the root, the seed's choice
/// stands for every function whose chain of best callers reaches a top-level function, and
/// which function is whose master depends on costs and names only. The children of a master
/// come in the order of g.out_edges() (first context first). O(V + E log E) plus O(n) to carry
/// the metrics over.
///
///     ccrc::call_graph g(p.tree(), p.column("bytecodes"));
///     auto gt = ccrc::display_tree(p, g);
///     // Figure 1: main -> {f_main -> {g_f, h_f}, g_main -> {g_g, h_g}, h_main -> {i_h}}
template <buildable_tree Tree, metric_value T>
[[nodiscard]] graph_tree<Tree> display_tree(const Tree& in, const call_graph<T>& g, std::size_t metric = 0) {
  const call_tree& t = in.tree();
  CCRC_ASSERT(&g.symbols() == &t.symbols() && g.node_edges().size() == t.size(),
              "ccrc: the call graph must be built from this tree");
  std::vector<edge_id> master_edge = master_calls(g, metric);

  graph_tree<Tree> r{{detail::empty_like(in), {}}, {null_edge}, std::vector<node_id>(g.edges().size(), null_node), {}};
  Tree& out = r.output;
  std::vector<frame_id> frame(g.method_count(), null_frame);
  // Breadth-first from the root: a master's children are created when it is expanded, after
  // their parent, so parent ids stay smaller than child ids.
  std::vector<std::pair<node_id, method_id>> expand{{root_node, root_method}};
  for (std::size_t next = 0; next < expand.size(); ++next) {
    auto [parent, caller] = expand[next];
    for (edge_id e : g.out_edges(caller)) {
      method_id f = g.edge(e).callee;
      if (frame[f] == null_frame) frame[f] = out.intern(g.name(f));
      node_id c = out.find_or_add_child(parent, frame[f]);
      r.node_of[e] = c;
      r.edge_of.push_back(e);
      if (master_edge[f] == e) expand.emplace_back(c, f);
    }
  }
  r.master.resize(r.edge_of.size());
  r.master[root_node] = root_node;
  for (node_id c = 1; c < r.edge_of.size(); ++c) r.master[c] = r.node_of[master_edge[g.edge(r.edge_of[c]).callee]];

  r.node_map.resize(t.size());
  std::span<const edge_id> node_edge = g.node_edges();
  r.node_map[root_node] = root_node;
  for (node_id n = 1; n < t.size(); ++n) r.node_map[n] = r.node_of[node_edge[n]];
  detail::add_through(out, in, r.node_map);
  return r;
}

}  // namespace ccrc
