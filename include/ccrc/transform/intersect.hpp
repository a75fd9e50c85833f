// ccrc - the intersection of two calling context trees: the contexts both have.
#pragma once

#include <ccrc/transform/transformed.hpp>
#include <ccrc/tree/child_lookup.hpp>

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ccrc {

/// The calling contexts two trees have in common, with each side's metrics.
/// first.output and second.output have the same structure, node for node and id for id (node n of
/// one is the context node n of the other), the metrics and symbol table of their own input;
/// first.node_map goes from `a`, second.node_map from `b`, null_node for a context the other
/// tree lacks.
template <buildable_tree Tree>
struct intersection {
  transformed<Tree> first;
  transformed<Tree> second;
};

/// The contexts (paths of frames from the root, compared by method name and call site) present
/// in both `a` and `b`: merge's counterpart, for comparing runs or finding what a set of
/// profiles shares. A context's metrics are its own self values in each tree; the roots always
/// match. Nodes come in `a`'s id order. O(size of a + frames of both), expected.
///
///     auto both = ccrc::intersect(run1, run2);
///     // both.first.output: run1's values on the shared contexts; both.second.output: run2's
template <buildable_tree Tree>
[[nodiscard]] intersection<Tree> intersect(const Tree& a, const Tree& b) {
  const call_tree& ta = a.tree();
  const call_tree& tb = b.tree();
  const symbol_table& sa = ta.symbols();
  const symbol_table& sb = tb.symbols();
  // a's frame -> b's frame of the same name and site, or null_frame: frames are keyed by
  // (a's method, site), methods matched by name once each.
  std::unordered_map<std::uint64_t, frame_id> a_frames;
  for (frame_id f{1}; f < sa.frame_count(); ++f)
    a_frames.emplace((std::uint64_t{sa.method(f)} << 32) | sa.site(f), f);
  std::vector<frame_id> to_b(sa.frame_count(), null_frame);
  for (frame_id f{1}; f < sb.frame_count(); ++f) {
    auto m = sa.find_method(sb.name(f));
    if (!m) continue;
    if (auto it = a_frames.find((std::uint64_t{*m} << 32) | sb.site(f)); it != a_frames.end()) to_b[it->second] = f;
  }

  intersection<Tree> r{{detail::empty_like(a), std::vector<node_id>(ta.size(), null_node)},
                       {detail::empty_like(b), std::vector<node_id>(tb.size(), null_node)}};
  // At most min(|a|, |b|) contexts: reserving spares the copies of growth.
  r.first.output.reserve(std::min(ta.size(), tb.size()));
  r.second.output.reserve(std::min(ta.size(), tb.size()));
  const child_lookup b_children(tb);  // b may have released its child index (shrink_to_fit)
  std::vector<node_id> in_b(ta.size(), null_node);  // the node of b with the path of a's node
  in_b[root_node] = root_node;
  r.first.node_map[root_node] = r.second.node_map[root_node] = root_node;
  for (node_id n = 1; n < ta.size(); ++n) {
    node_id pb = in_b[ta.parent(n)];
    frame_id fb = to_b[ta.frame(n)];
    if (pb == null_node || fb == null_frame) continue;
    node_id c = b_children.find(pb, fb);
    if (c == null_node) continue;
    in_b[n] = c;
    node_id p = r.first.node_map[ta.parent(n)];
    r.first.node_map[n] = r.first.output.find_or_add_child(p, ta.frame(n));
    r.second.node_map[c] = r.second.output.find_or_add_child(p, fb);
  }
  detail::add_through(r.first.output, a, r.first.node_map);
  detail::add_through(r.second.output, b, r.second.node_map);
  return r;
}

}  // namespace ccrc
