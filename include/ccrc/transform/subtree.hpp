// ccrc - the subtree under one context as a profile of its own (re-rooting).
#pragma once

#include <ccrc/config.hpp>
#include <ccrc/ids.hpp>
#include <ccrc/tree/profile.hpp>

#include <cstddef>
#include <span>
#include <vector>

namespace ccrc {

/// The subtree of `p` under `top` as a profile of its own: `top`'s callees become top-level
/// contexts, `top`'s own metrics the new root's, every metric kept (read_profile picks one
/// thread or profile of a file with it). Frames keep their names and call sites; node ids
/// are renumbered in id order. O(size of `p`): one pass in id order (a parent's id is below
/// its children's), one vector of node ids.
///
///     // p: main;f 3, main;f;g 4, other 1
///     ccrc::profile f = ccrc::subtree_profile(p, ccrc::node_at_path(p.tree(), "main;f"));
///     // f: root 3, g 4
[[nodiscard]] inline profile subtree_profile(const profile& p, node_id top) {
  const call_tree& from = p.tree();
  CCRC_ASSERT(top < from.size(), "subtree_profile: no such node");
  profile out(p.metric_names());
  std::vector<node_id> map(from.size(), null_node);
  map[top] = root_node;
  for (node_id n = top + 1; n < from.size(); ++n) {
    node_id parent = map[from.parent(n)];
    if (parent == null_node) continue;
    frame_id f = from.frame(n);
    map[n] = out.find_or_add_child(parent, out.symbols().intern(from.symbols().name(f), from.symbols().site(f)));
  }
  for (std::size_t i = 0; i < p.metric_count(); ++i) {
    std::span<const double> in = p.column(i);
    std::span<double> to = out.column(i);
    for (node_id n = top; n < from.size(); ++n)
      if (map[n] != null_node) to[map[n]] += in[n];
  }
  return out;
}

}  // namespace ccrc
