// ccrc - matching the calling contexts of two runs by call-context subsequence (Rizel).
#pragma once

#include <ccrc/config.hpp>
#include <ccrc/tree/call_tree.hpp>
#include <ccrc/tree/child_lookup.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace ccrc {

/// Options of match_contexts.
struct match_options {
  /// The longest chain of inserted (or removed) inner methods searched for between a matched
  /// context and a callee that moved below them: 1 finds `build;parse` in `build;proxy;parse`,
  /// 0 matches identical paths only. Each searched level costs one visit of the nodes there,
  /// and a longer chain finds more far-fetched matches (a utility method called everywhere).
  std::uint32_t max_chain = 4;
};

/// Two calling context trees matched context by context, and the diff tree that holds them:
/// one node per matched pair, per context only the second run has ("new") and per context only
/// the first run has ("removed"), so that every context of both runs is in exactly one diff
/// node. A matched pair sits at the longer of its two paths, so the diff path of every node
/// contains the path of each run's context as a subsequence: `build;proxy;parse` holds the
/// first run's `build;parse` and the second run's `build;proxy;parse`.
///
/// The diff tree's symbol table is the second run's, with the first run's names added: a
/// diff node's frame is its own run's frame (for a pair, the frame of the run whose parent is
/// its diff parent).
struct context_matching {
  call_tree tree;                    ///< the diff tree; node 0 pairs the two synthetic roots
  std::vector<node_id> first_node;   ///< per diff node: its node in the first run, or null_node
  std::vector<node_id> second_node;  ///< per diff node: its node in the second run, or null_node
  std::vector<node_id> from_first;   ///< per node of the first run: its diff node
  std::vector<node_id> from_second;  ///< per node of the second run: its diff node
  std::size_t matched = 0;  ///< pairs, the roots' pair excluded
  std::size_t added = 0;    ///< contexts only the second run has ("new")
  std::size_t removed = 0;  ///< contexts only the first run has
  std::size_t moved = 0;    ///< pairs whose paths differ (found across inserted or removed methods)
  /// Matched contexts below which a search for moved callees stopped at max_chain levels
  /// while callees were still unmatched: a larger max_chain might match more.
  std::size_t bound_hits = 0;

  /// Whether diff node d has a context in the first (second) run.
  [[nodiscard]] bool in_first(node_id d) const noexcept { return first_node[d] != null_node; }
  [[nodiscard]] bool in_second(node_id d) const noexcept { return second_node[d] != null_node; }
};

namespace detail {

// Nodes of one side waiting for a partner, found by method: a list per method, creation order.
class wanted_nodes {
 public:
  explicit wanted_nodes(std::size_t methods) : head_(methods, none) {}

  template <class MethodOf>
  void fill(std::span<const node_id> nodes, MethodOf method_of) {
    nodes_.assign(nodes.begin(), nodes.end());
    next_.resize(nodes_.size());
    methods_.resize(nodes_.size());
    for (std::size_t i = nodes_.size(); i-- > 0;) {  // backwards: the oldest ends at the head
      method_id m = method_of(nodes_[i]);
      methods_[i] = m;
      next_[i] = head_[m];
      head_[m] = static_cast<std::uint32_t>(i);
    }
    left_ = nodes_.size();
  }

  // The oldest waiting node of method m, taken off the list; null_node if none.
  node_id take(method_id m) noexcept {
    std::uint32_t i = head_[m];
    if (i == none) return null_node;
    head_[m] = next_[i];
    --left_;
    return nodes_[i];
  }

  [[nodiscard]] std::size_t left() const noexcept { return left_; }

  void clear() noexcept {
    for (method_id m : methods_) head_[m] = none;
    left_ = 0;
  }

 private:
  static constexpr std::uint32_t none = 0xffffffffu;
  std::vector<std::uint32_t> head_;
  std::vector<std::uint32_t> next_;
  std::vector<node_id> nodes_;
  std::vector<method_id> methods_;
  std::size_t left_ = 0;
};

// The matching itself: pairs top-down, then the diff tree. See match_contexts.
class context_matcher {
 public:
  context_matcher(const call_tree& first, const call_tree& second, const match_options& options)
      : a_(first), b_(second), a_children_(first), options_(options), wanted_(0) {}

  context_matching run() {
    context_matching r;
    r.tree.symbols() = b_.symbols();  // second-run frames keep their ids in the diff tree
    symbol_table& syms = r.tree.symbols();
    const symbol_table& a_syms = a_.symbols();
    frame_a_.assign(a_syms.frame_count(), root_frame);
    for (frame_id f{1}; f < frame_a_.size(); ++f) frame_a_[f] = syms.intern(a_syms.name(f), a_syms.site(f));
    method_a_.resize(a_syms.method_count());
    for (method_id m{0}; m < method_a_.size(); ++m) method_a_[m] = syms.intern_method(a_syms.method_name(m));
    frame_to_a_.assign(syms.frame_count(), null_frame);
    for (frame_id f{0}; f < frame_a_.size(); ++f) frame_to_a_[frame_a_[f]] = f;
    wanted_ = wanted_nodes(syms.method_count());

    match_a_.assign(a_.size(), null_node);
    match_b_.assign(b_.size(), null_node);
    below_removed_.assign(b_.size(), 0);

    pair(root_node, root_node);
    pairs_.push_back({root_node, root_node, 0});
    while (!pairs_.empty()) {
      pending p = pairs_.back();
      pairs_.pop_back();
      std::size_t pushed = pairs_.size();
      match_children(p, r);
      // The first child on top: pre-order, close to the order the trees were built in.
      std::reverse(pairs_.begin() + static_cast<std::ptrdiff_t>(pushed), pairs_.end());
    }
    build(r);
    return r;
  }

 private:
  struct pending {
    node_id a, b;
    // Which path is longer so far: 0 equal, +1 the second run's (methods were inserted),
    // -1 the first run's (methods were removed). Only the longer side may grow further, so
    // that one path stays a subsequence of the other.
    std::int8_t longer;
  };

  method_id method_a(node_id n) const noexcept { return method_a_[a_.method(n)]; }
  method_id method_b(node_id n) const noexcept { return b_.method(n); }

  void pair(node_id a, node_id b) noexcept {
    match_a_[a] = b;
    match_b_[b] = a;
  }

  void match_children(const pending& p, context_matching& r) {
    // 1. Same frame (method and call site): the tree's own child lookup.
    unmatched_b_.clear();
    std::size_t a_children = 0, paired = 0;
    for (node_id cb : b_.children(p.b)) {
      frame_id fa = frame_to_a_[b_.frame(cb)];
      node_id ca = fa == null_frame ? null_node : a_children_.find(p.a, fa);
      if (ca != null_node) {
        pair(ca, cb);
        pairs_.push_back({ca, cb, p.longer});
        ++paired;
      } else {
        unmatched_b_.push_back(cb);
      }
    }
    if (unmatched_b_.empty()) return;
    unmatched_a_.clear();
    for (node_id ca : a_.children(p.a)) {
      ++a_children;
      if (match_a_[ca] == null_node) unmatched_a_.push_back(ca);
    }
    if (a_children == paired) return;

    // 2. Same method at another call site, oldest first.
    wanted_.fill(unmatched_a_, [&](node_id n) { return method_a(n); });
    for (node_id cb : unmatched_b_) {
      node_id ca = wanted_.take(method_b(cb));
      if (ca == null_node) continue;
      pair(ca, cb);
      pairs_.push_back({ca, cb, p.longer});
    }
    wanted_.clear();
    keep_unmatched();
    if (options_.max_chain == 0 || unmatched_a_.empty() || unmatched_b_.empty()) return;

    // 3. Callees that moved below inserted methods (searched in the second run), then below
    //    removed ones (in the first run). A node of the second run that heads an inserted
    //    chain is new: it cannot also be matched below a removed method.
    bool cut_a = false, cut_b = false;
    if (p.longer >= 0) {
      chain_head_.assign(unmatched_b_.size(), 0);
      wanted_.fill(unmatched_a_, [&](node_id n) { return method_a(n); });
      cut_a = search(b_, unmatched_b_, [&](node_id n) { return method_b(n); },
                     [&](node_id found, node_id partner, std::size_t head) {
                       pair(partner, found);
                       pairs_.push_back({partner, found, 1});
                       chain_head_[head] = 1;
                       ++r.moved;
                     });
      wanted_.clear();
      std::size_t keep = 0;
      for (std::size_t i = 0; i < unmatched_b_.size(); ++i)
        if (!chain_head_[i]) unmatched_b_[keep++] = unmatched_b_[i];
      unmatched_b_.resize(keep);
      keep_unmatched();
    }
    if (p.longer <= 0 && !unmatched_a_.empty() && !unmatched_b_.empty()) {
      wanted_.fill(unmatched_b_, [&](node_id n) { return method_b(n); });
      cut_b = search(a_, unmatched_a_, [&](node_id n) { return method_a(n); },
                     [&](node_id found, node_id partner, std::size_t) {
                       pair(found, partner);
                       below_removed_[partner] = 1;
                       pairs_.push_back({found, partner, -1});
                       ++r.moved;
                     });
      wanted_.clear();
      keep_unmatched();
    }
    // Callees still unmatched on the side a cut search was looking for.
    if ((cut_a && !unmatched_a_.empty()) || (cut_b && !unmatched_b_.empty())) ++r.bound_hits;
  }

  // Drops the nodes matched since the lists were made.
  void keep_unmatched() {
    std::erase_if(unmatched_a_, [&](node_id n) { return match_a_[n] != null_node; });
    std::erase_if(unmatched_b_, [&](node_id n) { return match_b_[n] != null_node; });
  }

  // Breadth-first below `heads` (nodes of tree t), level by level up to max_chain levels,
  // matching each node whose method is wanted with the oldest wanted partner; below a matched
  // node it does not descend (its subtree is that pair's). Returns true if it stopped at the
  // bound with partners still wanted and nodes left unexplored.
  template <class MethodOf, class OnMatch>
  bool search(const call_tree& t, std::span<const node_id> heads, MethodOf method_of, OnMatch on_match) {
    frontier_.clear();
    for (std::size_t i = 0; i < heads.size(); ++i) frontier_.push_back({heads[i], i});
    for (std::uint32_t level = 1; level <= options_.max_chain; ++level) {
      next_.clear();
      for (auto [n, head] : frontier_) {
        for (node_id c : t.children(n)) {
          node_id partner = wanted_.take(method_of(c));
          if (partner != null_node) {
            on_match(c, partner, head);
            if (wanted_.left() == 0) return false;
          } else {
            next_.push_back({c, head});
          }
        }
      }
      if (next_.empty()) return false;
      std::swap(frontier_, next_);
    }
    for (auto [n, head] : frontier_)
      if (t.has_children(n)) return true;
    return false;
  }

  // The diff tree, top-down from the roots' pair. The children of a diff node: for a pair,
  // its second-run children that are new or paired with a first-run child of its own, then
  // its first-run children that are removed; for a new node, all its second-run children;
  // for a removed node, all its first-run children. Each pair is reached once: through its
  // second-run parent when that parent is its partner's parent's partner or new, through its
  // first-run parent when that one is removed.
  void build(context_matching& r) {
    // The pairs with a removed callee: only their first-run children need a look.
    removed_callees_.assign(a_.size(), 0);
    std::size_t matched = 0;
    for (node_id a = 1; a < a_.size(); ++a) {
      if (match_a_[a] == null_node)
        removed_callees_[a_.parent(a)] = 1;
      else
        ++matched;
    }
    r.from_first.assign(a_.size(), null_node);
    r.from_second.assign(b_.size(), null_node);
    r.first_node.assign(1, root_node);
    r.second_node.assign(1, root_node);
    r.from_first[root_node] = root_node;
    r.from_second[root_node] = root_node;
    r.matched = matched;
    r.removed = a_.size() - 1 - matched;
    r.added = b_.size() - 1 - matched;
    std::size_t total = 1 + matched + r.removed + r.added;
    r.tree.reserve(total);
    r.first_node.reserve(total);
    r.second_node.reserve(total);

    std::vector<node_id> stack{root_node};
    auto add = [&](node_id parent, frame_id f, node_id a, node_id b) {
      std::size_t before = r.tree.size();
      node_id d = r.tree.find_or_add_child(parent, f);
      CCRC_ASSERT(r.tree.size() == before + 1, "ccrc: two contexts of the diff tree share a frame");
      r.first_node.push_back(a);
      r.second_node.push_back(b);
      if (a != null_node) r.from_first[a] = d;
      if (b != null_node) r.from_second[b] = d;
      stack.push_back(d);
    };
    while (!stack.empty()) {
      node_id d = stack.back();
      stack.pop_back();
      std::size_t pushed = stack.size();
      node_id a = r.first_node[d], b = r.second_node[d];
      if (b != null_node) {
        for (node_id cb : b_.children(b)) {
          if (a != null_node && below_removed_[cb]) continue;  // its diff parent is a removed node
          add(d, b_.frame(cb), match_b_[cb], cb);
        }
      }
      if (a != null_node && (b == null_node || removed_callees_[a])) {
        for (node_id ca : a_.children(a)) {
          node_id cb = match_a_[ca];
          if (b != null_node && cb != null_node) continue;  // reached through the second run
          add(d, frame_a_[a_.frame(ca)], ca, cb);
        }
      }
      std::reverse(stack.begin() + static_cast<std::ptrdiff_t>(pushed), stack.end());  // pre-order
    }
    r.tree.shrink_to_fit();  // built: its child index goes (the columns were reserved exactly)
  }

  const call_tree& a_;
  const call_tree& b_;
  child_lookup a_children_;  // the first run may have released its child index
  match_options options_;
  std::vector<frame_id> frame_a_;     // first-run frame -> diff tree frame
  std::vector<method_id> method_a_;   // first-run method -> diff tree method
  std::vector<frame_id> frame_to_a_;  // diff tree frame -> first-run frame, or null_node
  std::vector<node_id> match_a_, match_b_;
  std::vector<char> removed_callees_;  // per first-run node: some child is unmatched
  std::vector<char> below_removed_;    // per second-run node: paired below a removed method
  std::vector<pending> pairs_;
  std::vector<node_id> unmatched_a_, unmatched_b_;
  std::vector<char> chain_head_;
  std::vector<std::pair<node_id, std::size_t>> frontier_, next_;
  wanted_nodes wanted_;
};

}  // namespace detail

/// Matches the contexts of a first and a second run of a program (two versions, two inputs)
/// as Rizel's performance evolution blueprint does: two contexts match when the method path of
/// one is a subsequence of the other's, so that an inner method inserted between a caller and
/// its callee (`build;parse` becoming `build;parse_proxy;parse`) or removed is found, instead
/// of declaring the callee's whole subtree new.
///
/// How: top-down from the two roots, for each matched pair, its children are paired by frame,
/// then by method (another call site, oldest first). Children still unmatched on both sides
/// are searched for below each other: a first-run callee is looked for breadth-first among the
/// descendants of the second run's unmatched children, up to options.max_chain levels (the
/// inserted methods), shallowest first and in child order; then the reverse, for methods
/// removed in the second run. A pair whose second-run path is already the longer one only
/// searches for further insertions (and the reverse), so that of every matched pair one path
/// is a subsequence of the other, as the paper defines it. The matching is greedy: the first
/// partner found wins; it is deterministic (same inputs, same result, same node ids).
///
/// O(n1 + n2) expected when few contexts move; every searched level visits each node there
/// at most once per search, so at worst O((n1 + n2) x max_chain). Iterative: a chain of a
/// million levels is fine. Memory: the diff tree and a few ids per node.
///
///     ccrc::context_matching m = ccrc::match_contexts(old_run.tree(), new_run.tree());
///     ccrc::node_id d = m.from_first[parse];       // the diff node of the first run's parse
///     assert(m.in_second(d));                      // matched: parse moved below parse_proxy
[[nodiscard]] inline context_matching match_contexts(const call_tree& first, const call_tree& second,
                                                     const match_options& options = {}) {
  return detail::context_matcher(first, second, options).run();
}

}  // namespace ccrc
