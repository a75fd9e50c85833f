#include <ccrc/tree/call_tree.hpp>
#include <ccrc/tree/child_lookup.hpp>

#include "support/random.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <map>
#include <string>
#include <utility>
#include <vector>

TEST_CASE("a new call tree is its root") {
  ccrc::call_tree t;
  CHECK(t.size() == 1);
  CHECK(t.parent(ccrc::root_node) == ccrc::null_node);
  CHECK(t.frame(ccrc::root_node) == ccrc::root_frame);
  CHECK_FALSE(t.has_children(ccrc::root_node));
  CHECK(t.children(ccrc::root_node).empty());
  CHECK(t.depth(ccrc::root_node) == 0);
  CHECK(t.path(ccrc::root_node).empty());
}

TEST_CASE("find_or_add_child creates a context once; ids grow; children keep creation order") {
  ccrc::call_tree t;
  ccrc::frame_id main = t.intern("main"), f = t.intern("f"), g = t.intern("g"), h = t.intern("h");
  ccrc::node_id m = t.find_or_add_child(ccrc::root_node, main);
  ccrc::node_id mf = t.find_or_add_child(m, f);
  ccrc::node_id mg = t.find_or_add_child(m, g);
  ccrc::node_id mh = t.find_or_add_child(m, h);
  CHECK(t.find_or_add_child(m, g) == mg);
  CHECK(t.size() == 5);
  CHECK((m == 1 && mf == 2 && mg == 3 && mh == 4));
  CHECK(std::vector<ccrc::node_id>(t.children(m).begin(), t.children(m).end()) ==
        std::vector<ccrc::node_id>{mf, mg, mh});
  CHECK(t.first_child(m) == mf);
  CHECK(t.last_child(m) == mh);
  CHECK(t.next_sibling(mf) == mg);
  CHECK(t.next_sibling(mh) == ccrc::null_node);
  CHECK(t.next_sibling(m) == ccrc::null_node);
  CHECK(t.find_child(m, main) == ccrc::null_node);
  CHECK(t.find_child(ccrc::root_node, main) == m);
  CHECK(t.name(mg) == "g");
  CHECK(t.depth(mg) == 2);
  CHECK(t.path(mg) == std::vector<ccrc::frame_id>{main, g});
}

TEST_CASE("add_path and find_path follow a stack from the root") {
  ccrc::call_tree t;
  std::vector<ccrc::frame_id> stack = {t.intern("a"), t.intern("b"), t.intern("a")};
  ccrc::node_id leaf = t.add_path(stack);
  CHECK(t.size() == 4);
  CHECK(t.find_path(stack) == leaf);
  CHECK(t.add_path(stack) == leaf);
  stack.push_back(t.intern("c"));
  CHECK(t.find_path(stack) == ccrc::null_node);
}

TEST_CASE("a node with thousands of children finds each of them, before and after it grows wide") {
  ccrc::call_tree t;
  std::vector<ccrc::frame_id> frames;
  for (int i = 0; i < 3000; ++i) frames.push_back(t.intern("callee" + std::to_string(i)));
  ccrc::node_id parent = t.find_or_add_child(ccrc::root_node, t.intern("dispatch"));
  std::vector<ccrc::node_id> kids;
  for (std::size_t i = 0; i < frames.size(); ++i) {
    kids.push_back(t.find_or_add_child(parent, frames[i]));
    // Every child added so far is still found (the narrow-to-wide switch loses none).
    for (std::size_t j = 0; j <= i; j += 1 + i / 16) CHECK(t.find_child(parent, frames[j]) == kids[j]);
  }
  std::size_t count = 0;
  for (ccrc::node_id c : t.children(parent)) CHECK(c == kids[count++]);
  CHECK(count == 3000);
}

TEST_CASE("random insertions agree with a std::map reference, and parent < child holds") {
  for (std::uint64_t seed = 1; seed <= 50; ++seed) {
    test::rng r{seed};
    ccrc::call_tree t;
    std::vector<ccrc::frame_id> frames;
    for (int i = 0; i < 40; ++i) frames.push_back(t.intern("f" + std::to_string(i)));
    std::map<std::pair<ccrc::node_id, ccrc::frame_id>, ccrc::node_id> reference;
    for (int op = 0; op < 2000; ++op) {
      // Favour a few hub parents so that some nodes become wide.
      auto size = static_cast<std::uint32_t>(t.size());
      ccrc::node_id p = r.chance(0.3) ? r.below(std::min<std::uint32_t>(size, 4)) : r.below(size);
      ccrc::frame_id f = frames[r.below(40)];
      auto [it, inserted] = reference.try_emplace({p, f}, static_cast<ccrc::node_id>(t.size()));
      CHECK(t.find_child(p, f) == (inserted ? ccrc::null_node : it->second));
      CHECK(t.find_or_add_child(p, f) == it->second);
    }
    CHECK(t.size() == reference.size() + 1);
    for (ccrc::node_id n = 1; n < t.size(); ++n) {
      CHECK(t.parent(n) < n);
      CHECK(reference.at({t.parent(n), t.frame(n)}) == n);
    }
  }
}

TEST_CASE("a chain of 1,000,000 nested calls: built, measured and walked without recursion") {
  ccrc::call_tree t;
  std::vector<ccrc::frame_id> stack(1'000'000, t.intern("recurse"));
  ccrc::node_id leaf = t.add_path(stack);
  CHECK(t.size() == 1'000'001);
  CHECK(t.depth(leaf) == 1'000'000);
  CHECK(t.path(leaf).size() == 1'000'000);
  CHECK(t.find_path(stack) == leaf);
}

TEST_CASE("try_find_or_add_child reports a context it can create as its id") {
  ccrc::call_tree t;
  ccrc::frame_id a = t.intern("a");
  ccrc::node_id n = t.try_find_or_add_child(ccrc::root_node, a);
  CHECK(n == 1);
  CHECK(t.try_find_or_add_child(ccrc::root_node, a) == n);
}

TEST_CASE("memory: the structure costs about 16 bytes a node plus the child index") {
  ccrc::call_tree t;
  test::rng r{7};
  std::vector<ccrc::frame_id> frames;
  for (int i = 0; i < 100; ++i) frames.push_back(t.intern("m" + std::to_string(i)));
  t.reserve(100'001);
  while (t.size() < 100'001) t.find_or_add_child(r.below(static_cast<std::uint32_t>(t.size())), frames[r.below(100)]);
  double per_node = static_cast<double>(t.memory_bytes() - t.symbols().memory_bytes()) / static_cast<double>(t.size());
  CHECK(per_node >= 16.0);
  CHECK(per_node < 28.0);
}

TEST_CASE("from_columns builds the tree find_or_add_child builds, wide parents included, and finds repeated frames") {
  for (std::uint64_t seed = 1; seed <= 100; ++seed) {
    test::rng r{seed};
    ccrc::call_tree t;
    std::vector<ccrc::frame_id> frames;
    for (std::uint32_t i = 0; i < 2 + r.below(60); ++i) frames.push_back(t.intern("m" + std::to_string(i)));
    std::uint32_t size = 1 + r.below(3000);
    while (t.size() < size) {  // often under the root and recent nodes: wide and narrow parents
      std::uint32_t n = static_cast<std::uint32_t>(t.size());
      ccrc::node_id parent = r.chance(0.3) ? r.below(std::min<std::uint32_t>(n, 3)) : n - 1 - r.below(std::min<std::uint32_t>(n, 20));
      t.find_or_add_child(parent, frames[r.below(static_cast<std::uint32_t>(frames.size()))]);
    }
    std::vector<ccrc::node_id> parents(t.parents().begin(), t.parents().end());
    std::vector<ccrc::frame_id> fs(t.frames().begin(), t.frames().end());
    auto [u, repeated] = ccrc::call_tree::from_columns(t.symbols(), parents, fs);
    REQUIRE(repeated == ccrc::null_node);
    REQUIRE(u.size() == t.size());
    for (ccrc::node_id n = 0; n < t.size(); ++n) {
      CHECK(u.parent(n) == t.parent(n));
      CHECK(u.last_child(n) == t.last_child(n));
      CHECK(u.next_sibling(n) == t.next_sibling(n));
      CHECK(u.find_child(t.parent(n) == ccrc::null_node ? 0 : t.parent(n), t.frame(n)) == (n == 0 ? ccrc::null_node : n));
    }
    for (ccrc::frame_id f : frames) CHECK(u.find_child(ccrc::root_node, f) == t.find_child(ccrc::root_node, f));
    // A finished tree: no child index if a parent is wide, until an insertion needs one.
    bool wide = false;
    for (ccrc::node_id n = 0; n < t.size(); ++n) wide = wide || std::distance(t.children(n).begin(), t.children(n).end()) > 8;
    CHECK(u.has_child_index() == !wide);
    CHECK(u.memory_bytes() == 16 * u.size() + u.symbols().memory_bytes());
    ccrc::frame_id extra = u.intern("extra");
    ccrc::node_id added = u.find_or_add_child(ccrc::root_node, extra);
    CHECK(added == t.size());
    for (ccrc::frame_id f : frames) CHECK(u.find_child(ccrc::root_node, f) == t.find_child(ccrc::root_node, f));
    CHECK(u.find_child(ccrc::root_node, extra) == added);
    // Repeat a node's frame under its parent: narrow or wide, found; of two, the first by id.
    if (t.size() > 2) {
      ccrc::node_id victim = 2 + r.below(static_cast<std::uint32_t>(t.size() - 2));
      ccrc::node_id sibling = t.first_child(t.parent(victim));
      if (sibling != victim) {
        fs[victim] = t.frame(sibling);
        CHECK(ccrc::call_tree::from_columns(t.symbols(), parents, fs).repeated == victim);
        ccrc::node_id other = 2 + r.below(static_cast<std::uint32_t>(t.size() - 2));
        ccrc::node_id other_sibling = t.first_child(t.parent(other));
        if (other_sibling != other && other_sibling != victim) {
          fs[other] = t.frame(other_sibling);
          CHECK(ccrc::call_tree::from_columns(t.symbols(), parents, fs).repeated == std::min(victim, other));
        }
      }
    }
  }
}

namespace {

// A random tree grown against a std::map reference, with a few hub parents of thousands of
// children (wide) besides many narrow ones; every op is checked against the reference.
struct reference_tree {
  ccrc::call_tree tree;
  std::vector<ccrc::frame_id> frames;
  std::map<std::pair<ccrc::node_id, ccrc::frame_id>, ccrc::node_id> children;
  test::rng r;

  explicit reference_tree(std::uint64_t seed) : r{seed} {
    for (int i = 0; i < 4000; ++i) frames.push_back(tree.intern("f" + std::to_string(i)));
  }

  // A parent: the root 40 % of the time, one of the other hubs (nodes 1 and 2) 15 %, else any.
  ccrc::node_id some_parent() {
    auto size = static_cast<std::uint32_t>(tree.size());
    if (r.chance(0.4)) return ccrc::root_node;
    return r.chance(0.25) ? r.below(std::min<std::uint32_t>(size, 3)) : r.below(size);
  }
  // Hubs draw from all 4,000 frames, others from 12: narrow parents see repeats too.
  ccrc::frame_id some_frame(ccrc::node_id p) {
    return frames[p < 3 ? r.below(4000) : r.below(12)];
  }

  void add(int ops) {
    for (int op = 0; op < ops; ++op) {
      ccrc::node_id p = some_parent();
      ccrc::frame_id f = some_frame(p);
      auto [it, inserted] = children.try_emplace({p, f}, static_cast<ccrc::node_id>(tree.size()));
      REQUIRE(tree.find_child(p, f) == (inserted ? ccrc::null_node : it->second));
      REQUIRE(tree.find_or_add_child(p, f) == it->second);
    }
  }

  // Every context is found by find_child and a child_lookup, and so are misses: each
  // parent asked for frames it lacks, the hubs for all 4,000.
  void check_lookups() {
    ccrc::child_lookup lookup(tree);
    REQUIRE(tree.size() == children.size() + 1);
    for (auto [key, n] : children) {
      REQUIRE(tree.find_child(key.first, key.second) == n);
      REQUIRE(lookup.find(key.first, key.second) == n);
      REQUIRE(tree.parent(n) == key.first);
    }
    for (ccrc::node_id p = 0; p < tree.size(); p += 1 + p / 8) {
      std::size_t tries = p < 3 ? frames.size() : 12;
      for (std::size_t i = 0; i < tries; ++i) {
        auto it = children.find({p, frames[i]});
        ccrc::node_id expected = it == children.end() ? ccrc::null_node : it->second;
        REQUIRE(tree.find_child(p, frames[i]) == expected);
        REQUIRE(lookup.find(p, frames[i]) == expected);
      }
    }
  }
};

std::vector<ccrc::node_id> child_list(const ccrc::call_tree& t, ccrc::node_id n) {
  return {t.children(n).begin(), t.children(n).end()};
}

}  // namespace

TEST_CASE("shrink_to_fit: lookups and insertions before and after it agree with a reference, wide parents included") {
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    reference_tree t(seed);
    t.add(5000);
    t.check_lookups();
    std::size_t widest = 0;
    for (ccrc::node_id p = 0; p < 3; ++p) widest = std::max(widest, child_list(t.tree, p).size());
    REQUIRE(widest > 1000);  // the hubs are wide: thousands of children
    REQUIRE(t.tree.has_child_index());

    std::vector<std::vector<ccrc::node_id>> lists;
    for (ccrc::node_id n = 0; n < t.tree.size(); ++n) lists.push_back(child_list(t.tree, n));
    t.tree.shrink_to_fit();
    CHECK_FALSE(t.tree.has_child_index());
    // 16 bytes a node and the symbols: no spare capacity, no index.
    CHECK(t.tree.memory_bytes() == 16 * t.tree.size() + t.tree.symbols().memory_bytes());
    for (ccrc::node_id n = 0; n < t.tree.size(); ++n) REQUIRE(child_list(t.tree, n) == lists[n]);
    t.check_lookups();  // find_child scans the hubs, child_lookup indexes them

    // Lookups of existing contexts through find_or_add_child, on a narrow parent then on a
    // hub: the first keeps the tree as it is, the second rebuilds the index.
    auto narrow = std::find_if(t.children.begin(), t.children.end(), [&](const auto& e) {
      return e.first.first >= 3 && child_list(t.tree, e.first.first).size() < 8;
    });
    REQUIRE(narrow != t.children.end());
    CHECK(t.tree.find_or_add_child(narrow->first.first, narrow->first.second) == narrow->second);
    CHECK_FALSE(t.tree.has_child_index());
    auto hub = t.children.begin();  // under the root: a hub
    CHECK(t.tree.find_or_add_child(hub->first.first, hub->first.second) == hub->second);
    CHECK(t.tree.has_child_index());
    CHECK(t.tree.size() == t.children.size() + 1);

    // Shrunk again, then grown: the first insertion needing the index brings it back.
    t.tree.shrink_to_fit();
    t.add(3000);
    CHECK(t.tree.has_child_index());
    t.check_lookups();
    for (ccrc::node_id n = 1; n < t.tree.size(); ++n) REQUIRE(t.tree.parent(n) < n);
  }
}

TEST_CASE("shrink_to_fit: a parent that becomes wide after it, and build_child_index") {
  ccrc::call_tree t;
  std::vector<ccrc::frame_id> frames;
  for (int i = 0; i < 40; ++i) frames.push_back(t.intern("f" + std::to_string(i)));
  ccrc::node_id hub = t.find_or_add_child(ccrc::root_node, frames[0]);
  ccrc::node_id narrow = t.find_or_add_child(ccrc::root_node, frames[1]);
  for (int i = 0; i < 20; ++i) t.find_or_add_child(hub, frames[static_cast<std::size_t>(i)]);
  for (int i = 0; i < 8; ++i) t.find_or_add_child(narrow, frames[static_cast<std::size_t>(i)]);
  t.shrink_to_fit();
  CHECK_FALSE(t.has_child_index());
  // narrow has 8 children: its 9th makes it wide, so the index comes back first, whole.
  ccrc::node_id ninth = t.find_or_add_child(narrow, frames[30]);
  CHECK(t.has_child_index());
  CHECK(t.find_child(narrow, frames[30]) == ninth);
  for (int i = 0; i < 20; ++i) CHECK(t.find_child(hub, frames[static_cast<std::size_t>(i)]) == 3 + static_cast<ccrc::node_id>(i));
  t.shrink_to_fit();
  t.build_child_index();
  CHECK(t.has_child_index());
  for (int i = 0; i < 8; ++i) CHECK(t.parent(t.find_child(narrow, frames[static_cast<std::size_t>(i)])) == narrow);
  // A tree without a wide parent keeps an (empty) index: nothing to rebuild.
  ccrc::call_tree small;
  small.find_or_add_child(ccrc::root_node, small.intern("a"));
  small.shrink_to_fit();
  CHECK(small.has_child_index());
}
