// The papers' Figure 8, literally: the reference that eliminate_recursion must match.
#pragma once

#include <ccrc/transform/transformed.hpp>

#include <vector>

namespace test {

/// Figure 8's eliminateRecursions, transcribed: a recursive pre-order walk that, for every
/// input node, climbs the output path looking for a node of the same method
/// (findMatchingAncestor) and otherwise gets or creates a child. O(nodes x depth), recursive:
/// for the small trees of the tests only. One correction, per the design brief: the root's
/// own metrics are copied too (node_map[0] = 0).
template <class Tree>
ccrc::transformed<Tree> figure8(const Tree& in) {
  const ccrc::call_tree& t = in.tree();
  ccrc::transformed<Tree> r{ccrc::detail::empty_like(in), std::vector<ccrc::node_id>(t.size(), ccrc::null_node)};
  r.node_map[ccrc::root_node] = ccrc::root_node;
  auto find_matching_ancestor = [&](ccrc::node_id n, ccrc::method_id m) {
    for (; n != ccrc::root_node; n = r.output.tree().parent(n))
      if (r.output.tree().method(n) == m) return n;
    return ccrc::null_node;
  };
  auto eliminate = [&](auto& self, ccrc::node_id n_in, ccrc::node_id n_out) -> void {
    for (ccrc::node_id c : t.children(n_in)) {
      ccrc::node_id c_out = find_matching_ancestor(n_out, t.method(c));
      if (c_out == ccrc::null_node) c_out = r.output.find_or_add_child(n_out, t.frame(c));
      r.node_map[c] = c_out;
      self(self, c, c_out);
    }
  };
  eliminate(eliminate, ccrc::root_node, ccrc::root_node);
  ccrc::detail::add_through(r.output, in, r.node_map);
  return r;
}

}  // namespace test
