// The papers' Figure 8, literally (recursive, O(nodes x depth)): the baselines of recursion
// elimination.
#pragma once

#include <ccrc/tree/profile.hpp>

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

// On ccrc's containers: not a copy but the very reference the tests check
// ccrc::eliminate_recursion against, so the baseline measured is the one verified to give the
// same tree. It measures the algorithm alone.
#include "../../tests/support/figure8.hpp"

namespace bench {
using test::figure8;

/// A CCT as the papers' Java implementation holds one (Figure 8's `Node`): an object per node
/// with its method's name as a string, its metrics and a hash map of children by name.
struct object_node {
  object_node* parent = nullptr;
  std::string method;
  std::vector<double> metrics;
  std::unordered_map<std::string, std::unique_ptr<object_node>> children;

  object_node* get_or_create_child(const std::string& name, std::size_t metric_count) {
    auto& slot = children[name];
    if (!slot) {
      slot = std::make_unique<object_node>();
      slot->parent = this;
      slot->method = name;
      slot->metrics.assign(metric_count, 0.0);
    }
    return slot.get();
  }
};

/// A profile as objects (children in creation order, as ccrc keeps them).
inline std::unique_ptr<object_node> objects_of(const ccrc::profile& p) {
  const ccrc::call_tree& t = p.tree();
  std::vector<object_node*> node(t.size());
  auto root = std::make_unique<object_node>();
  node[ccrc::root_node] = root.get();
  for (ccrc::node_id n = 0; n < t.size(); ++n) {
    if (n != ccrc::root_node) node[n] = node[t.parent(n)]->get_or_create_child(std::string(t.name(n)), p.metric_count());
    for (std::size_t i = 0; i < p.metric_count(); ++i) node[n]->metrics.push_back(p.column(i)[n]);
  }
  return root;
}

/// Figure 8 on objects, transcribed: eliminateRec walks the input in pre-order and, for each
/// node, findMatchingAncestor climbs the output path comparing method names as strings.
/// (Like the tests' reference, it also copies the root's own metrics.)
inline std::unique_ptr<object_node> figure8_on_objects(const object_node& in) {
  auto out = std::make_unique<object_node>();
  out->metrics = in.metrics;
  auto find_matching_ancestor = [](object_node* n, const std::string& id) -> object_node* {
    for (; n != nullptr && n->parent != nullptr; n = n->parent)
      if (n->method == id) return n;
    return nullptr;
  };
  auto eliminate = [&](auto& self, const object_node& n_in, object_node* n_out) -> void {
    for (const auto& [name, child] : n_in.children) {
      object_node* c_out = find_matching_ancestor(n_out, name);
      if (c_out == nullptr) c_out = n_out->get_or_create_child(name, child->metrics.size());
      for (std::size_t i = 0; i < child->metrics.size(); ++i) c_out->metrics[i] += child->metrics[i];
      self(self, *child, c_out);
    }
  };
  eliminate(eliminate, in, out.get());
  return out;
}

}  // namespace bench
