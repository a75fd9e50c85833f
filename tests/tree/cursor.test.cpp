#include <ccrc/tree/cursor.hpp>
#include <ccrc/tree/cct.hpp>

#include "support/chain.hpp"
#include "support/figure1.hpp"
#include "support/random.hpp"

#include <doctest/doctest.h>

#include <map>
#include <utility>
#include <vector>

namespace {

using test::calls_cct;

// The Java program of the papers' Figure 1(a), run with a profiler's cursor: every method
// entry counts one invocation in the current calling context.
struct figure1_program {
  calls_cct& t;
  ccrc::cursor<calls_cct> c{t};
  ccrc::frame_id main_ = t.intern("main"), f_ = t.intern("f"), g_ = t.intern("g"),
                 h_ = t.intern("h"), i_ = t.intern("i");

  void enter(ccrc::frame_id frame) {
    c.enter(frame);
    c.add<"calls">(1);
  }
  void main() {
    enter(main_);
    for (int j = 0; j < 20; j++) {
      f(j);
      g(j);
      for (int k = 1; k < j / 2; k++) h(k);
    }
    c.exit();
  }
  void f(int n) {
    enter(f_);
    int k = g(n);
    k = h(k) * k;
    c.exit();
  }
  int g(int n) {
    enter(g_);
    int r = n % 2 == 0 ? h(n / 2) : g(n + 1);
    c.exit();
    return r;
  }
  void i(int) {
    enter(i_);
    c.exit();
  }
  int h(int n) {
    enter(h_);
    i(n);
    c.exit();
    return n - 1;
  }
};

}  // namespace

TEST_CASE("running Figure 1's program under a cursor yields Figure 1's CCT and invocation counts") {
  calls_cct t;
  figure1_program{t}.main();
  ccrc::profile expected = test::figure1();
  CHECK(t.size() == expected.size());
  for (ccrc::node_id n = 1; n < expected.size(); ++n) {
    std::string path = ccrc::path_string(expected.tree(), n);
    CAPTURE(path);
    CHECK(static_cast<double>(t.get<"calls">(ccrc::node_at_path(t.tree(), path))) == expected.column("calls")[n]);
  }
}

TEST_CASE("cursor replay and add_path build the same tree from the same stack samples") {
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    test::rng r{seed};
    auto samples = test::random_samples(r, 50, 6, 12, 1);
    ccrc::profile by_path = test::profile_of(samples, 1);
    ccrc::profile by_cursor({"m0"});
    ccrc::cursor c(by_cursor);
    for (const auto& s : samples) {
      for (const auto& f : s.frames) c.enter(by_cursor.intern(f));
      by_cursor.column(0)[c.node()] += s.values[0];
      for (std::size_t k = 0; k < s.frames.size(); ++k) c.exit();
    }
    CHECK(c.node() == ccrc::root_node);
    CHECK(test::canonical(by_cursor) == test::canonical(by_path));
  }
}

TEST_CASE("an exit at the root is ignored and counted") {
  calls_cct t;
  ccrc::cursor c(t);
  c.exit();
  c.enter(t.intern("a"));
  c.exit();
  c.exit();
  CHECK(c.node() == ccrc::root_node);
  CHECK(c.unbalanced_exits() == 2);
}

namespace {

// A tree that refuses to grow past `limit` nodes, as an exhausted one would.
struct full_tree {
  calls_cct inner;
  std::size_t limit;
  const ccrc::call_tree& tree() const noexcept { return inner.tree(); }
  ccrc::node_id find_child(ccrc::node_id p, ccrc::frame_id f) const noexcept { return inner.find_child(p, f); }
  ccrc::node_id try_find_or_add_child(ccrc::node_id p, ccrc::frame_id f) noexcept {
    return inner.size() >= limit ? ccrc::null_node : inner.try_find_or_add_child(p, f);
  }
  template <ccrc::fixed_string Name>
  auto& get(ccrc::node_id n) {
    return inner.get<Name>(n);
  }
};

}  // namespace

TEST_CASE("contexts a full tree cannot hold land on their deepest recorded caller, and are counted") {
  full_tree t{{}, 3};
  ccrc::frame_id a = t.inner.intern("a"), b = t.inner.intern("b"), x = t.inner.intern("x");
  ccrc::cursor c(t);
  c.enter(a);
  c.enter(b);  // the tree is now full: root, a, b
  c.enter(x);  // lost: stays at b
  c.add<"calls">(1);
  c.enter(x);  // lost again
  c.add<"calls">(1);
  CHECK(c.node() == 2);
  CHECK(c.truncated() == 2);
  c.exit();
  c.exit();
  CHECK(c.node() == 2);  // back at b after leaving the two lost levels
  c.exit();
  CHECK(c.node() == 1);
  CHECK(t.inner.get<"calls">(2) == 2);
  CHECK(t.inner.size() == 3);
}

namespace {

// Replays random stacks (of `seed`) through a cursor that enters each frame with enter, and
// through one that enters it with enter_b(cursor, tree, frame): after every entry both stand on
// the same context, and they build the same tree, which is returned.
template <class Enter>
calls_cct replay_beside_enter(std::uint64_t seed, Enter enter_b) {
  test::rng r{seed};
  auto samples = test::random_samples(r, 60, 5, 8, 1);
  calls_cct plain, other;
  ccrc::cursor<calls_cct> a(plain), b(other);
  for (const auto& s : samples) {
    for (const auto& f : s.frames) {
      a.enter(plain.intern(f));
      a.add<"calls">(1);
      enter_b(b, other, other.intern(f));
      b.add<"calls">(1);
      CHECK(b.node() == a.node());
    }
    for (std::size_t k = 0; k < s.frames.size(); ++k) {
      a.exit();
      b.exit();
    }
  }
  CHECK(test::canonical(plain) == test::canonical(other));
  return other;
}

}  // namespace

TEST_CASE("enter_existing steps like enter into contexts that exist, and leaves the others to enter") {
  // A profiler's hot path: enter_existing first, enter (which may allocate) only when it
  // declines; enter_existing never adds a node.
  for (std::uint64_t seed = 1; seed <= 100; ++seed) {
    std::size_t declined = 0;
    calls_cct t = replay_beside_enter(seed, [&](ccrc::cursor<calls_cct>& b, calls_cct& tree, ccrc::frame_id f) {
      std::size_t before = tree.size();
      if (b.enter_existing(f)) {
        CHECK(tree.size() == before);
        return;
      }
      CHECK(tree.size() == before);
      ++declined;
      b.enter(f);
      CHECK(tree.size() == before + 1);
    });
    CHECK(declined == t.size() - 1);  // once per context: the call that created it
  }
}

TEST_CASE("enter_existing counts a lost level without allocating when the tree is full") {
  full_tree t{{}, 2};
  ccrc::frame_id a = t.inner.intern("a"), b = t.inner.intern("b");
  ccrc::cursor c(t);
  CHECK_FALSE(c.enter_existing(a));  // a does not exist yet
  c.enter(a);                        // the tree is now full: root, a
  c.exit();
  CHECK(c.enter_existing(a));
  CHECK_FALSE(c.enter_existing(b));
  c.enter(b);  // lost: the tree cannot hold it
  CHECK(c.truncated() == 1);
  CHECK(c.enter_existing(b));  // below a lost level: lost too, without a lookup
  CHECK(c.truncated() == 2);
  CHECK(c.node() == 1);
  c.exit();
  c.exit();
  c.exit();
  CHECK(c.node() == ccrc::root_node);
}

TEST_CASE("enter_child with a cache of the steps taken builds the tree enter builds") {
  // A profiler's cache: the context each (context, frame) led to last, entered with
  // enter_child; the lookup is enter's, on a miss only.
  for (std::uint64_t seed = 1; seed <= 100; ++seed) {
    std::map<std::pair<ccrc::node_id, ccrc::frame_id>, ccrc::node_id> steps;
    std::size_t hits = 0, entries = 0;
    calls_cct t = replay_beside_enter(seed, [&](ccrc::cursor<calls_cct>& b, calls_cct&, ccrc::frame_id f) {
      ++entries;
      if (auto it = steps.find({b.node(), f}); it != steps.end()) {
        b.enter_child(it->second);
        ++hits;
        return;
      }
      ccrc::node_id from = b.node();
      b.enter(f);
      steps[{from, f}] = b.node();
    });
    CHECK(hits == entries - (t.size() - 1));  // a miss per context: the call that created it
  }
}

TEST_CASE("exit_to with a profiler's stack of contexts returns where exit returns") {
  // The contexts of the open calls kept beside the cursor: exit_to the one below the top.
  for (std::uint64_t seed = 1; seed <= 100; ++seed) {
    std::vector<ccrc::node_id> open{ccrc::root_node};
    calls_cct plain, known;
    test::rng r{seed};
    auto samples = test::random_samples(r, 60, 5, 8, 1);
    ccrc::cursor<calls_cct> a(plain), b(known);
    for (const auto& s : samples) {
      for (const auto& f : s.frames) {
        a.enter(plain.intern(f));
        b.enter(known.intern(f));
        open.push_back(b.node());
      }
      for (std::size_t k = 0; k < s.frames.size(); ++k) {
        a.exit();
        open.pop_back();
        b.exit_to(open.back());
        CHECK(b.node() == a.node());
      }
    }
    CHECK(b.node() == ccrc::root_node);
    b.exit_to(ccrc::root_node);  // at the root: ignored and counted, as exit()
    CHECK(b.unbalanced_exits() == 1);
  }
}

TEST_CASE("enter_child below a lost level counts one more lost level") {
  full_tree t{{}, 2};
  ccrc::frame_id a = t.inner.intern("a"), b = t.inner.intern("b");
  ccrc::cursor c(t);
  c.enter(a);
  c.exit();  // the tree is full: root, a
  c.enter(b);  // lost
  c.enter_child(1);  // would be a's context, were no level lost
  CHECK(c.truncated() == 2);
  CHECK(c.node() == ccrc::root_node);
  c.exit_to(ccrc::root_node);  // leaves a lost level: stays where it is
  CHECK(c.node() == ccrc::root_node);
  c.exit();
  c.enter_child(1);
  CHECK(c.node() == 1);
}
