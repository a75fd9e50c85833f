// Insertions keep the strong guarantee when an allocation fails: every allocation an
// insertion makes is made to fail in turn, on trees that shrink_to_fit left without their
// child index (which the insertion rebuilds first) and on trees that kept it. Its own
// program (ccrc_alloc_tests), as it replaces the global operator new.
#include <ccrc/tree/call_tree.hpp>
#include <ccrc/tree/cct.hpp>
#include <ccrc/tree/profile.hpp>

#include "alloc/allocations.hpp"

#include <doctest/doctest.h>

#include <cstddef>
#include <new>
#include <string>
#include <vector>

using test::allocations_left;

namespace {

// Everything observable of a tree: columns, child lists, and what find_child answers.
void require_same(const ccrc::call_tree& a, const ccrc::call_tree& b) {
  REQUIRE(a.size() == b.size());
  for (ccrc::node_id n = 0; n < a.size(); ++n) {
    REQUIRE(a.parent(n) == b.parent(n));
    REQUIRE(a.frame(n) == b.frame(n));
    REQUIRE(a.last_child(n) == b.last_child(n));
    REQUIRE(a.next_sibling(n) == b.next_sibling(n));
    if (n != ccrc::root_node) REQUIRE(a.find_child(a.parent(n), a.frame(n)) == n);
  }
}

// Runs insert(tree) with its k-th allocation failing, k = 0, 1, ..., until it succeeds; after
// each failure the tree must be what it was. Returns the number of allocations it needed.
template <class Tree, class Insert, class Same>
int fail_each_allocation(Tree& tree, Insert insert, Same same) {
  for (int k = 0;; ++k) {
    Tree before = tree;
    allocations_left = k;
    try {
      insert(tree);
      allocations_left = -1;
      return k;
    } catch (const std::bad_alloc&) {
      allocations_left = -1;
    }
    same(tree, before);
  }
}

// A tree with a wide parent (node 1, 40 children), a parent of 8 children (node 2) and one
// of 3 (node 3), shrunk: no child index, no spare capacity.
ccrc::call_tree shrunk_tree(std::vector<ccrc::frame_id>& frames) {
  ccrc::call_tree t;
  for (int i = 0; i < 100; ++i) frames.push_back(t.intern("f" + std::to_string(i)));
  for (int p = 0; p < 3; ++p) t.find_or_add_child(ccrc::root_node, frames[static_cast<std::size_t>(p)]);
  for (std::size_t i = 0; i < 40; ++i) t.find_or_add_child(1, frames[i]);
  for (std::size_t i = 0; i < 8; ++i) t.find_or_add_child(2, frames[i]);
  for (std::size_t i = 0; i < 3; ++i) t.find_or_add_child(3, frames[i]);
  t.shrink_to_fit();
  return t;
}

}  // namespace

TEST_CASE("an insertion into a shrunk tree that fails to allocate leaves the tree as it was") {
  std::vector<ccrc::frame_id> frames;
  ccrc::call_tree t = shrunk_tree(frames);
  REQUIRE_FALSE(t.has_child_index());
  // Under the wide parent (the index is rebuilt first), under the parent of 8 (which becomes
  // wide), under the narrow one (no index needed), then under the wide one again.
  std::size_t next = 50;  // frames no parent has yet
  for (ccrc::node_id parent : {1u, 2u, 3u, 1u}) {
    ccrc::frame_id f = frames[next++];
    std::size_t size = t.size();
    int allocations = fail_each_allocation(t, [&](ccrc::call_tree& u) { u.find_or_add_child(parent, f); }, require_same);
    CHECK(allocations >= 1);  // a shrunk tree has no room: at least the columns grow
    CHECK(t.size() == size + 1);
    CHECK(t.find_child(parent, f) == size);
    t.shrink_to_fit();
  }
}

TEST_CASE("a shrink_to_fit that fails to allocate keeps the tree, and insertions keep their guarantee") {
  for (int k = 0; k < 6; ++k) {
    std::vector<ccrc::frame_id> frames;
    ccrc::call_tree t = shrunk_tree(frames);
    for (std::size_t i = 0; i < 5; ++i) t.find_or_add_child(3, frames[20 + i]);  // spare capacity again
    ccrc::call_tree before = t;
    allocations_left = k;
    t.shrink_to_fit();  // noexcept: some columns may keep their capacity
    allocations_left = -1;
    require_same(t, before);
    // Columns of unequal capacity: each insertion still grows all of them before it changes one.
    for (std::size_t i = 0; i < 30; ++i) {
      ccrc::node_id parent = static_cast<ccrc::node_id>(1 + i % 4);
      fail_each_allocation(t, [&](ccrc::call_tree& u) { u.find_or_add_child(parent, frames[60 + i]); }, require_same);
    }
    CHECK(t.size() == before.size() + 30);
  }
}

TEST_CASE("a profile and a cct keep the strong guarantee after shrink_to_fit, metric columns included") {
  auto same_profile = [](const ccrc::profile& a, const ccrc::profile& b) {
    require_same(a.tree(), b.tree());
    for (std::size_t m = 0; m < a.metric_count(); ++m) {
      REQUIRE(a.column(m).size() == a.size());
      for (ccrc::node_id n = 0; n < a.size(); ++n) REQUIRE(a.column(m)[n] == b.column(m)[n]);
    }
  };
  ccrc::profile p({"calls", "time"});
  std::vector<ccrc::frame_id> frames;
  for (int i = 0; i < 30; ++i) frames.push_back(p.intern("f" + std::to_string(i)));
  for (std::size_t i = 0; i < 20; ++i) p.add(p.find_or_add_child(ccrc::root_node, frames[i]), std::vector<double>{1, 2.5});
  p.shrink_to_fit();
  CHECK(p.memory_bytes() == (16 + 2 * 8) * p.size() + p.tree().symbols().memory_bytes());
  for (std::size_t i = 20; i < 30; ++i)
    fail_each_allocation(p, [&](ccrc::profile& u) { u.find_or_add_child(ccrc::root_node, frames[i]); }, same_profile);
  CHECK(p.size() == 31);

  using tree = ccrc::cct<ccrc::metric<"calls">, ccrc::metric<"time", float>>;
  tree c;
  for (std::size_t i = 0; i < 20; ++i) c.get<"calls">(c.find_or_add_child(ccrc::root_node, c.intern("f" + std::to_string(i)))) = i;
  c.shrink_to_fit();
  for (int i = 20; i < 30; ++i) {
    ccrc::frame_id f = c.intern("f" + std::to_string(i));
    fail_each_allocation(c, [&](tree& u) { u.find_or_add_child(ccrc::root_node, f); }, [](const tree& a, const tree& b) {
      require_same(a.tree(), b.tree());
      for (ccrc::node_id n = 0; n < a.size(); ++n) REQUIRE(a.get<"calls">(n) == b.get<"calls">(n));
    });
  }
  CHECK(c.size() == 31);
  CHECK(c.get<"calls">(20) == 19);
}
