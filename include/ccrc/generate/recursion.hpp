// ccrc - the generator's third step: recursion, the contexts N - N' that recursive calls add
// to the skeleton.
#pragma once

#include <ccrc/detail/random.hpp>
#include <ccrc/generate/model.hpp>
#include <ccrc/generate/shape.hpp>
#include <ccrc/generate/skeleton.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ccrc::detail {

// The generated tree before it becomes a profile: ids in creation order (a parent before its
// children, the skeleton's nodes first, with their ids), each node labelled by the skeleton
// node it folds into under eliminate_recursion.
struct labelled_tree {
  std::vector<std::uint32_t> parent, label, depth;
};

// The state of the recursion step: the tree grown so far and the nodes that may start a
// recursion.
class recursion_builder {
 public:
  recursion_builder(const skeleton& sk, const cct_shape& shape, const generator_model& model, random& rng)
      : sk_(sk), shape_(shape), model_(model), rng_(rng) {}

  labelled_tree run() && {
    grow();
    return {std::move(parent_), std::move(label_), std::move(depth_)};
  }

 private:
  using u32 = std::uint32_t;
  static constexpr u32 none = generator_unset;

  // The skeleton path from ancestor-or-self at distance `up` down to s: cycle[0] is the
  // recursion target, cycle.back() == s.
  void cycle_of(u32 s, u32 length, std::vector<u32>& cycle) const {
    cycle.resize(length);
    for (u32 j = length; j-- > 0; s = sk_.parent[s]) cycle[j] = s;
  }

  // The full tree: the skeleton, plus N - N' contexts made by recursive calls. A node x of
  // the full tree is labelled by a skeleton node; its children are labelled by children of
  // label(x) (calls the recursion-free tree has too) or by ancestors-or-self of label(x)
  // (recursive calls). eliminate_recursion folds every node into its label, so the
  // recursion-free tree is the skeleton exactly.
  void grow() {
    const std::size_t total = shape_.nodes + 1;
    parent_.reserve(total);
    label_.reserve(total);
    depth_.reserve(total);
    recursive_a_.reserve(total);
    recursive_b_.reserve(total);
    recursive_a_.assign(sk_.parent.size(), none);
    recursive_b_.assign(sk_.parent.size(), none);
    parent_.assign(sk_.parent.begin(), sk_.parent.end());
    depth_.assign(sk_.depth.begin(), sk_.depth.end());
    label_.resize(sk_.parent.size());
    for (u32 i = 0; i < label_.size(); ++i) label_[i] = i;
    if (total == parent_.size()) return;

    // Recursive methods and the length of their cycle.
    const auto u = static_cast<u32>(shape_.methods);
    cycle_length_.assign(u + 1, 0);
    double kinds = model_.direct + model_.mutual + model_.delegation;
    for (u32 m = 1; m <= u; ++m) {
      if (!rng_.chance(model_.recursive_methods)) continue;
      double k = rng_.uniform() * kinds;
      cycle_length_[m] = k < model_.direct ? 1 : k < model_.direct + model_.mutual ? 2 + rng_.below(3) : 5 + rng_.below(8);
    }
    for (u32 x = 0; x < parent_.size(); ++x) consider(x);

    // The recursion that reaches depth D first, from a skeleton context deep enough that the
    // nodes it needs fit in the budget.
    std::size_t budget = total - parent_.size();
    if (shape_.max_depth > shape_.recursion_free_depth) {
      u32 x = deep_root(budget);
      u32 c = std::clamp<u32>(model_.deep_cycle, 1, depth_[x]);
      std::size_t need = shape_.max_depth - depth_[x];
      std::size_t share = std::clamp(static_cast<std::size_t>(model_.deep_share * static_cast<double>(budget)), need, budget);
      u32 reps = static_cast<u32>((need + c - 1) / c) + 1;
      expand(x, c, reps, share, shape_.max_depth);
    }
    // Then recursions at random recursive contexts (old or new) until the budget is spent.
    while (parent_.size() < total) {
      if (candidates_.empty() && nested_.empty()) more_recursive_methods();
      bool nest = !nested_.empty() && (candidates_.empty() || rng_.chance(model_.nesting));
      std::vector<u32>& from = nest ? nested_ : candidates_;
      std::size_t i = rng_.below(static_cast<u32>(from.size()));
      if (nest) {  // the shallower of three: nested recursion thins out with depth
        for (int t = 0; t < 2; ++t) {
          std::size_t j = rng_.below(static_cast<u32>(from.size()));
          if (depth_[from[j]] < depth_[from[i]]) i = j;
        }
      }
      u32 x = from[i];
      from[i] = from.back();
      from.pop_back();
      u32 c = cycle_length_[sk_.method[label_[x]]];
      u32 reps = 1 + rng_.geometric(model_.levels - 1);
      expand(x, c, reps, total - parent_.size(), 0);
    }
  }

  // x can start a recursion: its method recurses, its label is deep enough for the cycle, and
  // there is room below it.
  void consider(u32 x) {
    u32 c = cycle_length_[sk_.method[label_[x]]];
    if (c != 0 && sk_.depth[label_[x]] >= c && depth_[x] < shape_.max_depth)
      (x < sk_.parent.size() ? candidates_ : nested_).push_back(x);
  }

  // When the candidates run out: one more method recurses directly (or a method whose cycle
  // is too long for its contexts becomes direct); rescan.
  void more_recursive_methods() {
    const auto u = static_cast<u32>(shape_.methods);
    for (u32 tries = 0; candidates_.empty() && nested_.empty() && tries < 4 * u; ++tries) {
      u32 m = tries < 2 * u ? 1 + rng_.below(u) : 1 + tries % u;
      if (cycle_length_[m] == 1) continue;
      cycle_length_[m] = 1;
      for (u32 x = 0; x < parent_.size(); ++x)
        if (sk_.method[label_[x]] == m) consider(x);
      // consider() may list contexts whose recursive call exists: expand() checks.
    }
    if (candidates_.empty() && nested_.empty()) cannot_generate("no room for " + std::to_string(shape_.nodes) + " contexts within depth " + std::to_string(shape_.max_depth));
  }

  u32 deep_root(std::size_t budget) {
    const u32 d1 = shape_.recursion_free_depth;
    const auto n = static_cast<u32>(sk_.parent.size());
    std::vector<u32> pool;
    for (u32 x = 1; x < n; ++x)
      if (2 * sk_.depth[x] >= d1 && shape_.max_depth - sk_.depth[x] <= budget) pool.push_back(x);
    if (pool.empty())
      for (u32 x = 1; x < n; ++x)
        if (sk_.depth[x] == d1) pool.push_back(x);
    return pool[rng_.below(static_cast<u32>(pool.size()))];
  }

  u32 add_node(u32 parent, u32 label) {
    auto x = static_cast<u32>(parent_.size());
    parent_.push_back(parent);
    label_.push_back(label);
    depth_.push_back(depth_[parent] + 1);
    recursive_a_.push_back(none);
    recursive_b_.push_back(none);
    consider(x);
    return x;
  }

  // A recursion from x: `reps` repetitions of the cycle (the skeleton path from the target
  // down to label(x)), each repetition possibly calling back early (a branch) and calling some
  // of its callees again (ribs). At most `budget` nodes, none deeper than D. Depth-first with
  // the cycle's next node on top of the stack, so the cycle reaches its depth before ribs
  // grow; with `reach`, ribs never take the nodes the cycle needs to get there.
  void expand(u32 x, u32 c, u32 reps, std::size_t budget, u32 reach) {
    const u32 max_depth = shape_.max_depth;
    if (depth_[x] >= max_depth || budget == 0) return;
    cycle_of(label_[x], c, cycle_);
    if (!add_recursive_call(x, cycle_[0])) return;
    std::size_t left = budget - 1;
    u32 deepest = depth_[x] + 1;
    work_.clear();
    work_.push_back({add_node(x, cycle_[0]), 0, reps - 1, none});
    auto room = [&](u32 parent) {
      std::size_t need = reach > deepest ? reach - deepest : 0;
      return left > need && depth_[parent] < max_depth;
    };
    while (!work_.empty() && left > 0) {
      work_item it = work_.back();
      work_.pop_back();
      u32 y = it.node;
      if (it.rib != none) {
        if (it.rib > 0 && rng_.chance(0.6)) add_ribs(y, none, it.rib, left, room);
        continue;
      }
      // The cycle continues, or calls back into its target once more.
      u32 spine = none, position = 0, more = it.reps;
      if (it.position + 1 < c) spine = cycle_[it.position + 1], position = it.position + 1;
      else if (it.reps > 0) spine = cycle_[0], more = it.reps - 1;
      u32 spine_node = none;
      if (spine != none && depth_[y] < max_depth) {
        --left;
        spine_node = add_node(y, spine);
        deepest = std::max(deepest, depth_[spine_node]);
        if (position == 0) add_recursive_call(y, spine);
      }
      if (it.position + 1 < c && rng_.chance(model_.branches / static_cast<double>(c - 1)) && room(y)) {
        --left;
        add_recursive_call(y, cycle_[0]);
        work_.push_back({add_node(y, cycle_[0]), 0, rng_.geometric(model_.levels - 1), none});
      }
      if (rng_.chance(model_.ribs)) add_ribs(y, spine, model_.rib_depth, left, room);
      if (spine_node != none) work_.push_back({spine_node, position, more, none});
    }
  }

  // Calls some callees of label(y) again under y (not `skip`, the cycle's next node), each
  // repeating `rib - 1` further levels.
  template <class Room>
  void add_ribs(u32 y, u32 skip, u32 rib, std::size_t& left, Room& room) {
    u32 s = label_[y], count = sk_.child_count[s];
    if (count == 0) return;
    u32 want = std::min(count, 1 + rng_.geometric(1.0));
    u32 start = rng_.below(count);
    for (u32 i = 0; i < count && want > 0 && room(y); ++i) {
      u32 child = sk_.child_begin[s] + (start + i) % count;
      if (child == skip) continue;
      --want;
      --left;
      work_.push_back({add_node(y, child), 0, 0, rib - 1});
    }
  }

  // Records that x calls back into `target`; false if it already does (siblings are unique),
  // or already makes two recursive calls (one as part of the recursion that created it, one
  // as the start of another: enough for any node).
  bool add_recursive_call(u32 x, u32 target) {
    if (recursive_a_[x] == target || recursive_b_[x] == target || recursive_b_[x] != none) return false;
    (recursive_a_[x] == none ? recursive_a_[x] : recursive_b_[x]) = target;
    return true;
  }

  const skeleton& sk_;
  const cct_shape& shape_;
  const generator_model& model_;
  random& rng_;
  std::vector<u32> cycle_length_;  // per method: 0, or the methods in the cycle it calls back along
  // the full tree
  std::vector<u32> parent_, label_, depth_;
  std::vector<u32> candidates_, nested_;  // nodes that may start a recursion: skeleton, added
  std::vector<u32> recursive_a_, recursive_b_;  // labels of a node's recursive calls (two at most)
  struct work_item {
    u32 node, position, reps, rib;  // rib: levels of callees left to repeat; none on the cycle
  };
  std::vector<work_item> work_;
  std::vector<u32> cycle_;
};

// The skeleton `sk` (methods assigned) grown to shape.nodes contexts by recursive calls.
[[nodiscard]] inline labelled_tree add_recursion(const skeleton& sk, const cct_shape& shape,
                                                 const generator_model& model, random& rng) {
  return recursion_builder(sk, shape, model, rng).run();
}

}  // namespace ccrc::detail
