// ccrc - a generator of calling context trees with given statistics, shaped like real programs'.
// Opt-in: not in <ccrc/ccrc.hpp>. The steps live in their own headers beside this one: shape,
// model, skeleton, methods, names, recursion, metrics.
#pragma once

#include <ccrc/config.hpp>
#include <ccrc/detail/random.hpp>
#include <ccrc/generate/methods.hpp>
#include <ccrc/generate/metrics.hpp>
#include <ccrc/generate/model.hpp>
#include <ccrc/generate/names.hpp>
#include <ccrc/generate/recursion.hpp>
#include <ccrc/generate/shape.hpp>
#include <ccrc/generate/skeleton.hpp>
#include <ccrc/tree/profile.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ccrc {
namespace detail {

// The generated tree as a profile with Java-like method names, in depth-first order (as a
// profiler creates it: a context before its callees, a subtree before the next sibling's),
// metrics still 0. new_id[x] is the profile node of generated node x.
[[nodiscard]] inline profile to_profile(const labelled_tree& t, const skeleton& sk, const method_model& mm,
                                        const cct_shape& shape, const generator_model& model,
                                        std::vector<std::uint32_t>& new_id) {
  using u32 = std::uint32_t;
  const std::size_t n = t.parent.size();
  std::vector<std::string> names = java_method_names(shape.methods, model.package, mm.class_of, mm.index_in_class);
  name_threads(names, sk.levels[1], model.package);
  symbol_table symbols;
  for (std::size_t m = 1; m <= shape.methods; ++m) symbols.intern(names[m]);  // frame m is method m
  CCRC_ASSERT(symbols.frame_count() == shape.methods + 1, "ccrc: generator: two methods share a name");
  // The columns in depth-first order, then the tree from them: no child index is ever built
  // (from_columns links the children), so the generator's peak holds none.
  std::vector<node_id> parents{null_node};
  std::vector<frame_id> frames{root_frame};
  parents.reserve(n);
  frames.reserve(n);
  new_id.resize(n);
  new_id[0] = root_node;
  {
    // Children lists (ascending ids: the skeleton's calls first, then recursive ones).
    std::vector<u32> start(n + 1, 0), kids(n);
    for (u32 x = 1; x < n; ++x) ++start[t.parent[x]];
    for (std::size_t i = 0, sum = 0; i <= n; ++i) sum = start[i] += static_cast<u32>(sum);  // block ends
    for (u32 x = static_cast<u32>(n); x-- > 1;) kids[--start[t.parent[x]]] = x;       // now block starts
    std::vector<u32> stack{0};
    while (!stack.empty()) {
      u32 x = stack.back();
      stack.pop_back();
      if (x != 0) {
        new_id[x] = static_cast<node_id>(parents.size());
        parents.push_back(new_id[t.parent[x]]);
        frames.push_back(frame_id{sk.method[t.label[x]]});
      }
      for (u32 i = start[x + 1]; i-- > start[x];) stack.push_back(kids[i]);
    }
  }
  call_tree::columns_result built = call_tree::from_columns(std::move(symbols), std::move(parents), std::move(frames));
  CCRC_ASSERT(built.repeated == null_node, "ccrc: generator: two siblings share a frame");
  profile p(std::move(built.tree), {"calls", "bytecodes"});
  return p;
}

}  // namespace detail

/// A calling context tree with the statistics of `shape`, deterministic for a seed: the
/// synthetic stand-in for a real profile when none can be had (the papers' DaCapo CCTs: see
/// ccrc::generate_dacapo). Metrics `calls` (summing to shape.calls exactly) and `bytecodes`.
///
/// The model, in three steps (knobs in ccrc::generator_model):
/// 1. A recursion-free tree of N' contexts and depth D' exactly: contexts per level follow a
///    gamma curve; each level's contexts are shared out among the level above by
///    Pareto-distributed weights that callees partly inherit (skewed fan-out, busy subtrees).
///    Methods are assigned depth-first from per-method callee lists (popular methods and the
///    caller's class), never repeating on a path; every one of the U methods gets a context.
/// 2. Recursion adds N - N' contexts: recursive methods (direct, mutual over 2-4 methods, or
///    long delegation cycles over 5-12) repeat the skeleton path from the method they call
///    back into, with branches and ribs (callees called again at each level); one recursion
///    reaches depth D exactly. Each added context repeats a context of the recursion-free
///    tree, so eliminate_recursion gives back exactly N' contexts and depth D'.
/// 3. Calls follow a log-normal cascade down the tree (hot paths), scaled to total C;
///    bytecodes are calls times a per-method size.
///
/// Node ids are in depth-first pre-order. The profile is a finished one, as the readers
/// return theirs: no spare capacity, no child index (see call_tree::shrink_to_fit). O(N log N) time, about a second for two million
/// contexts in an optimised build. Throws ccrc::error for an impossible shape (say, more
/// methods than recursion-free contexts).
///
///     ccrc::profile p = ccrc::generate_cct({.nodes = 100000, .max_depth = 80, .methods = 2000,
///                                           .calls = 1e7, .recursion_free_nodes = 50000,
///                                           .recursion_free_depth = 40});
[[nodiscard]] inline profile generate_cct(const cct_shape& shape, std::uint64_t seed = 1,
                                          const generator_model& model = {}) {
  detail::check_shape(shape);
  detail::random rng(seed ^ 0x63637263ULL);
  detail::skeleton sk = detail::skeleton_structure(detail::level_counts(shape, model), shape, model, rng);
  detail::method_model methods = detail::make_method_model(shape, model, rng);
  detail::assign_methods(sk, methods, shape, rng);
  detail::use_every_method(sk, shape, rng);
  detail::labelled_tree t = detail::add_recursion(sk, shape, model, rng);
  // The depths are no longer needed: their memory holds the new ids (two million contexts).
  std::vector<std::uint32_t> new_id = std::move(t.depth);
  profile p = detail::to_profile(t, sk, methods, shape, model, new_id);
  detail::add_metrics(p, t.parent, new_id, methods.bytecodes, shape, model, rng);
  return p;
}

}  // namespace ccrc
