#include <ccrc/tree/call_tree.hpp>

#include "support/random.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
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
    // Repeat a node's frame under its parent: narrow or wide, found.
    if (t.size() > 2) {
      ccrc::node_id victim = 2 + r.below(static_cast<std::uint32_t>(t.size() - 2));
      ccrc::node_id sibling = t.first_child(t.parent(victim));
      if (sibling != victim) {
        fs[victim] = t.frame(sibling);
        CHECK(ccrc::call_tree::from_columns(t.symbols(), parents, fs).repeated == victim);
      }
    }
  }
}
