// Pairs of runs for the diff tests: random trees, and a "next version" of a tree with inner
// methods inserted and removed.
#pragma once

#include "support/random.hpp"

#include <ccrc/diff/match.hpp>
#include <ccrc/tree/profile.hpp>

#include <doctest/doctest.h>

#include <algorithm>

#include <string>
#include <vector>

namespace test {

/// The method names on the path of n, outermost first.
inline std::vector<std::string> names_on_path(const ccrc::call_tree& t, ccrc::node_id n) {
  std::vector<std::string> names;
  for (ccrc::frame_id f : t.path(n)) names.emplace_back(t.symbols().name(f));
  return names;
}

/// Whether `small` is a subsequence of `big`.
inline bool is_subsequence(const std::vector<std::string>& small, const std::vector<std::string>& big) {
  std::size_t i = 0;
  for (const auto& s : big)
    if (i < small.size() && small[i] == s) ++i;
  return i == small.size();
}

/// A random tree of `nodes` contexts whose every node has its own method ("u<id>"), so that a
/// context's method tells which context it is; metrics calls and time, random.
inline ccrc::profile unique_tree(rng& r, std::size_t nodes) {
  ccrc::profile p({"calls", "time"});
  std::vector<ccrc::node_id> made{ccrc::root_node};
  for (std::size_t k = 0; k < nodes; ++k) {
    // Prefer recent nodes as parents: deep, realistic paths rather than a flat fan.
    std::size_t back = r.below(static_cast<std::uint32_t>(std::min<std::size_t>(made.size(), 6)));
    ccrc::node_id parent = made[made.size() - 1 - back];
    ccrc::node_id n = p.find_or_add_child(parent, p.intern("u" + std::to_string(k)));
    p.column(0)[n] = 1 + r.below(50);
    p.column(1)[n] = r.below(1000);
    made.push_back(n);
  }
  return p;
}

/// What next_version did to each node of the first run.
struct version_edit {
  std::vector<char> deleted;                 ///< per node of the first run
  std::vector<std::uint32_t> inserted;       ///< per node: methods inserted right above it
  std::size_t inserted_total = 0;
};

/// A second run made from `first`: each inner node removed with probability p_delete (its
/// callees move up to its caller), a chain of 1..max_insert fresh methods ("ins<k>_<i>")
/// inserted above each node with probability p_insert; metrics copied (inserted methods get 0
/// time and as many calls as the node below them). The first run's node n is at
/// `second.find_path(path)` with the kept and inserted frames.
inline ccrc::profile next_version(const ccrc::profile& first, rng& r, double p_delete, double p_insert,
                                  std::uint32_t max_insert, version_edit* edit = nullptr) {
  const ccrc::call_tree& t = first.tree();
  version_edit e;
  e.deleted.assign(t.size(), 0);
  e.inserted.assign(t.size(), 0);
  ccrc::profile second(first.metric_names());
  std::vector<std::vector<ccrc::frame_id>> path(t.size());
  for (ccrc::node_id n = 1; n < t.size(); ++n) {
    path[n] = path[t.parent(n)];
    if (r.chance(p_insert)) {
      e.inserted[n] = 1 + r.below(max_insert);
      e.inserted_total += e.inserted[n];
      for (std::uint32_t i = 0; i < e.inserted[n]; ++i) {
        path[n].push_back(second.intern("ins" + std::to_string(n) + "_" + std::to_string(i)));
        ccrc::node_id c = second.add_path(path[n]);
        second.column(0)[c] = first.column(0)[n];
      }
    }
    if (t.has_children(n) && r.chance(p_delete)) {
      e.deleted[n] = 1;
      continue;
    }
    path[n].push_back(second.intern(t.name(n)));
    ccrc::node_id c = second.add_path(path[n]);
    for (std::size_t m = 0; m < first.metric_count(); ++m) second.column(m)[c] += first.column(m)[n];
  }
  if (edit) *edit = std::move(e);
  return second;
}

/// Checks that every context of both runs is in exactly one diff node, consistently.
inline void check_accounting(const ccrc::context_matching& m, const ccrc::call_tree& first,
                             const ccrc::call_tree& second) {
  REQUIRE(m.first_node.size() == m.tree.size());
  REQUIRE(m.second_node.size() == m.tree.size());
  std::vector<int> seen_first(first.size(), 0), seen_second(second.size(), 0);
  std::size_t both = 0, only_first = 0, only_second = 0;
  for (ccrc::node_id d = 0; d < m.tree.size(); ++d) {
    ccrc::node_id a = m.first_node[d], b = m.second_node[d];
    REQUIRE((a != ccrc::null_node || b != ccrc::null_node));
    if (a != ccrc::null_node) {
      ++seen_first[a];
      CHECK(m.from_first[a] == d);
      CHECK(m.tree.name(d) == first.name(a));
    }
    if (b != ccrc::null_node) {
      ++seen_second[b];
      CHECK(m.from_second[b] == d);
      CHECK(m.tree.name(d) == second.name(b));
    }
    if (d == ccrc::root_node) continue;
    if (a != ccrc::null_node && b != ccrc::null_node) ++both;
    else if (a != ccrc::null_node) ++only_first;
    else ++only_second;
  }
  for (int s : seen_first) REQUIRE(s == 1);
  for (int s : seen_second) REQUIRE(s == 1);
  CHECK(both == m.matched);
  CHECK(only_first == m.removed);
  CHECK(only_second == m.added);
  CHECK(m.tree.size() == 1 + both + only_first + only_second);
}

}  // namespace test
