#include <ccrc/transform/merge_all.hpp>

#include "support/figure1.hpp"
#include "support/random.hpp"

#include <doctest/doctest.h>

#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace {

// The inputs merged one after the other, in order: what merge_all must equal.
ccrc::profile merged_in_order(const std::vector<ccrc::profile>& inputs) {
  ccrc::profile out = inputs.front();
  for (std::size_t i = 1; i < inputs.size(); ++i) ccrc::merge(out, inputs[i]);
  return out;
}

// Node for node, frame for frame, column for column: the same tree, not only the same profile.
void check_identical(const ccrc::profile& a, const ccrc::profile& b) {
  REQUIRE(a.size() == b.size());
  REQUIRE(a.metric_names() == b.metric_names());
  REQUIRE(a.symbols().frame_count() == b.symbols().frame_count());
  for (ccrc::frame_id f{1}; f < a.symbols().frame_count(); ++f) CHECK(a.symbols().name(f) == b.symbols().name(f));
  for (ccrc::node_id n = 0; n < a.size(); ++n) {
    CHECK(a.tree().parent(n) == b.tree().parent(n));
    CHECK(a.tree().frame(n) == b.tree().frame(n));
    CHECK(a.tree().next_sibling(n) == b.tree().next_sibling(n));
    for (std::size_t m = 0; m < a.metric_count(); ++m) CHECK(a.column(m)[n] == b.column(m)[n]);
  }
}

// Random profiles whose metric columns differ: input i has m0.. m{1 + i % 3}, in turn rotated.
std::vector<ccrc::profile> random_inputs(test::rng& r, std::size_t count) {
  std::vector<ccrc::profile> inputs;
  for (std::size_t i = 0; i < count; ++i) {
    ccrc::profile p = test::profile_of(test::random_samples(r, 1 + r.below(25), 2 + r.below(8), 2 + r.below(9), 2 + i % 3),
                                       2 + i % 3);
    inputs.push_back(std::move(p));
  }
  return inputs;
}

}  // namespace

TEST_CASE("merge_all of Figure 1 three times triples every metric, on any number of threads") {
  std::vector<ccrc::profile> three(3, test::figure1());
  for (unsigned threads : {1u, 2u, 3u, 8u}) {
    ccrc::profile all = ccrc::merge_all(three, {.threads = threads});
    CHECK(all.size() == test::figure1().size());
    CHECK(all.column("bytecodes")[ccrc::node_at_path(all.tree(), "main;h;i")] == 3 * 360);
    CHECK(test::totals(all) == std::vector<double>{3 * 345, 3 * 3238});
  }
}

TEST_CASE("merge_all says how many threads ran: those asked, at most one per input") {
  // Issue 45: a thread the system would not start ended the merge with std::system_error;
  // now the threads started share the work, and the caller learns how many there were (the
  // tool's merge, limited so that only some start, in tests/cli/merge.test.cpp).
  std::vector<ccrc::profile> three(3, test::figure1());
  for (auto [asked, ran] : {std::pair{1u, 1u}, {2u, 2u}, {3u, 3u}, {8u, 3u}}) {
    const unsigned threads = asked;  // clang 14's lambdas (CAPTURE's) take no structured binding
    CAPTURE(threads);
    unsigned started = 0;
    ccrc::profile all = ccrc::merge_all(three, {.threads = asked, .threads_started = &started});
    CHECK(started == ran);
    CHECK(test::totals(all) == std::vector<double>{3 * 345, 3 * 3238});
  }
}

TEST_CASE("merge_all equals merging one after the other, node for node, on random trees") {
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    test::rng r{seed};
    std::vector<ccrc::profile> inputs = random_inputs(r, 1 + r.below(40));
    ccrc::profile expected = merged_in_order(inputs);
    for (unsigned threads : {1u, 2u, 5u}) {
      INFO("seed " << seed << ", " << inputs.size() << " inputs, " << threads << " threads");
      check_identical(ccrc::merge_all(inputs, {.threads = threads}), expected);
    }
  }
}

TEST_CASE("merge_all does not depend on the order of the inputs, but for ids") {
  test::rng r{7};
  std::vector<ccrc::profile> inputs = random_inputs(r, 30);
  test::canonical_form forward = test::canonical(ccrc::merge_all(inputs, {.threads = 2}));
  std::vector<ccrc::profile> backward(inputs.rbegin(), inputs.rend());
  ccrc::profile reversed = ccrc::merge_all(backward, {.threads = 2});
  // Columns come in order of first appearance: compare by name.
  ccrc::profile aligned = merged_in_order(inputs);
  CHECK(test::canonical(aligned) == forward);
  ccrc::profile realigned(aligned.metric_names());
  ccrc::merge(realigned, reversed);
  CHECK(test::canonical(realigned) == forward);
}

TEST_CASE("merge_all calls make once per input, and moves what it returns") {
  std::vector<int> calls(100, 0);
  ccrc::profile all = ccrc::merge_all(calls.size(), [&](std::size_t i) {
    ++calls[i];  // each index goes to exactly one thread
    ccrc::profile p({"samples"});
    p.add_path(std::vector<ccrc::frame_id>{p.intern("main"), p.intern("f" + std::to_string(i % 10))},
               std::vector<double>{1});
    return p;
  }, {.threads = 4});
  CHECK(calls == std::vector<int>(100, 1));
  CHECK(all.size() == 12);
  CHECK(all.column("samples")[ccrc::node_at_path(all.tree(), "main;f3")] == 10);
}

TEST_CASE("merge_all rethrows the error of the lowest failing input, on any number of threads") {
  for (unsigned threads : {1u, 2u, 4u}) {
    try {
      (void)ccrc::merge_all(std::size_t{50}, [&](std::size_t i) {
        if (i == 20 || i == 45) throw std::runtime_error("input " + std::to_string(i));
        return test::figure1();
      }, {.threads = threads});
      FAIL("no exception");
    } catch (const std::runtime_error& e) {
      // 45 may fail first on another thread, but the run holding 20 was handed out before, and
      // a run, once started, goes on to its end or its first error.
      CHECK(std::string(e.what()) == "input 20");
    }
  }
}

TEST_CASE("merge_all of no trees is an empty tree; of one, a copy") {
  std::vector<ccrc::profile> none;
  CHECK(ccrc::merge_all(none).size() == 1);
  std::vector<ccrc::profile> one{test::figure1()};
  CHECK(test::canonical(ccrc::merge_all(one)) == test::canonical(test::figure1()));
}

TEST_CASE("merge_all works for typed trees too") {
  std::vector<ccrc::cct<ccrc::metric<"samples">>> trees(9);
  for (std::size_t i = 0; i < trees.size(); ++i)
    trees[i].add_path(std::vector<ccrc::frame_id>{trees[i].intern("main"), trees[i].intern(i % 2 ? "odd" : "even")}, 1);
  auto all = ccrc::merge_all(trees, {.threads = 3});
  CHECK(all.size() == 4);
  CHECK(all.get<"samples">(ccrc::node_at_path(all.tree(), "main;even")) == 5);
  CHECK(all.get<"samples">(ccrc::node_at_path(all.tree(), "main;odd")) == 4);
}

TEST_CASE("merge_all skips the inputs for which make returns no tree") {
  test::rng r{11};
  std::vector<ccrc::profile> inputs = random_inputs(r, 40);
  std::vector<ccrc::profile> kept;
  for (std::size_t i = 0; i < inputs.size(); ++i)
    if (i < 6 || (i >= 12 && i % 3 == 1)) kept.push_back(inputs[i]);  // 4 threads: runs [7, 10), [10, 12) skipped whole
  for (unsigned threads : {1u, 4u}) {
    ccrc::profile all = ccrc::merge_all(inputs.size(), [&](std::size_t i) -> std::optional<ccrc::profile> {
      if (i < 6 || (i >= 12 && i % 3 == 1)) return inputs[i];
      return std::nullopt;
    }, {.threads = threads});
    check_identical(all, merged_in_order(kept));
  }
  ccrc::profile none = ccrc::merge_all(std::size_t{5}, [](std::size_t) { return std::optional<ccrc::profile>(); });
  CHECK(none.size() == 1);
}
