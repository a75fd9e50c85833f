#include <ccrc/tree/child_lookup.hpp>

#include "support/random.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

TEST_CASE("child_lookup finds what find_child finds, shrunk or not; it borrows the index a tree has") {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    test::rng r{seed};
    ccrc::call_tree t;
    std::vector<ccrc::frame_id> frames;
    for (int i = 0; i < 3000; ++i) frames.push_back(t.intern("f" + std::to_string(i)));
    std::map<std::pair<ccrc::node_id, ccrc::frame_id>, ccrc::node_id> reference;
    for (int op = 0; op < 4000; ++op) {  // the root and node 1 wide, the others mostly narrow
      auto size = static_cast<std::uint32_t>(t.size());
      ccrc::node_id p = r.chance(0.5) ? r.below(std::min<std::uint32_t>(size, 2)) : r.below(size);
      ccrc::frame_id f = frames[p < 2 ? r.below(3000) : r.below(16)];
      reference.try_emplace({p, f}, static_cast<ccrc::node_id>(t.size()));
      t.find_or_add_child(p, f);
    }
    for (bool shrunk : {false, true}) {
      if (shrunk) t.shrink_to_fit();
      REQUIRE(t.has_child_index() == !shrunk);
      ccrc::child_lookup lookup(t);
      CHECK((lookup.memory_bytes() == 0) == !shrunk);  // its own index only for a shrunk tree
      for (ccrc::node_id p = 0; p < t.size(); p += 1 + r.below(4)) {
        for (std::size_t i = 0; i < (p < 2 ? frames.size() : 20); ++i) {
          auto it = reference.find({p, frames[i]});
          ccrc::node_id expected = it == reference.end() ? ccrc::null_node : it->second;
          REQUIRE(lookup.find(p, frames[i]) == expected);
          REQUIRE(t.find_child(p, frames[i]) == expected);
        }
      }
    }
  }
}

TEST_CASE("child_lookup on a tree from columns, and on a tree without a wide parent") {
  ccrc::call_tree t;
  std::vector<ccrc::frame_id> frames;
  for (int i = 0; i < 50; ++i) frames.push_back(t.intern("f" + std::to_string(i)));
  for (ccrc::frame_id f : frames) t.find_or_add_child(ccrc::root_node, f);
  for (std::size_t i = 0; i < 3; ++i) t.find_or_add_child(1, frames[i]);
  std::vector<ccrc::node_id> parents(t.parents().begin(), t.parents().end());
  std::vector<ccrc::frame_id> fs(t.frames().begin(), t.frames().end());
  ccrc::call_tree u = ccrc::call_tree::from_columns(t.symbols(), parents, fs).tree;
  REQUIRE_FALSE(u.has_child_index());
  ccrc::child_lookup lookup(u);
  for (std::size_t i = 0; i < frames.size(); ++i) CHECK(lookup.find(ccrc::root_node, frames[i]) == i + 1);
  CHECK(lookup.find(1, frames[2]) == 53);
  CHECK(lookup.find(1, frames[3]) == ccrc::null_node);
  CHECK(lookup.find(2, frames[0]) == ccrc::null_node);

  ccrc::call_tree narrow;
  narrow.find_or_add_child(ccrc::root_node, narrow.intern("a"));
  narrow.shrink_to_fit();
  ccrc::child_lookup borrowed(narrow);
  CHECK(borrowed.memory_bytes() == 0);
  CHECK(borrowed.find(ccrc::root_node, *narrow.symbols().find("a")) == 1);
}
