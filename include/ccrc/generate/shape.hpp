// ccrc - the statistics of a calling context tree (the papers' Table I): what the generator is
// asked for, and what a profile measures.
#pragma once

#include <ccrc/algorithm/statistics.hpp>
#include <ccrc/error.hpp>
#include <ccrc/transform/eliminate_recursion.hpp>
#include <ccrc/tree/profile.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

namespace ccrc {

/// The statistics a generated calling context tree has: the columns of the papers' Table I.
/// Counts exclude the synthetic root; a top-level frame has depth 1.
struct cct_shape {
  std::size_t nodes = 0;                   ///< N, calling contexts
  std::uint32_t max_depth = 0;             ///< D
  std::size_t methods = 0;                 ///< U, distinct methods
  double calls = 0;                        ///< C, the sum of metric `calls` (>= N: each context ran)
  std::size_t recursion_free_nodes = 0;    ///< N', contexts after eliminate_recursion
  std::uint32_t recursion_free_depth = 0;  ///< D', maximum depth after eliminate_recursion
};

/// `shape` with `factor` times the contexts and calls, the same depths, and the methods and
/// depths capped where the smaller tree could not hold them: for scaling a benchmark's shape
/// from 10^4 to 10^7 contexts. O(1).
///
///     auto big = ccrc::scaled(ccrc::find_dacapo("pmd")->shape, 10);  // 8 million contexts
[[nodiscard]] inline cct_shape scaled(const cct_shape& shape, double factor) {
  auto times = [&](std::size_t n) { return std::max<std::size_t>(1, static_cast<std::size_t>(std::llround(static_cast<double>(n) * factor))); };
  cct_shape s = shape;
  s.nodes = times(shape.nodes);
  s.recursion_free_nodes = std::min(s.nodes, times(shape.recursion_free_nodes));
  s.methods = std::min(shape.methods, s.recursion_free_nodes);
  s.recursion_free_depth = static_cast<std::uint32_t>(
      std::min<std::size_t>({shape.recursion_free_depth, s.methods, s.recursion_free_nodes}));
  s.max_depth = static_cast<std::uint32_t>(
      std::min<std::size_t>(shape.max_depth, s.recursion_free_depth + (s.nodes - s.recursion_free_nodes)));
  if (s.nodes > s.recursion_free_nodes) s.max_depth = std::max<std::uint32_t>(s.max_depth, 2);
  s.calls = std::max(static_cast<double>(s.nodes), std::round(shape.calls * factor));
  return s;
}

/// The shape of a profile, measured: statistics, the total of its metric `calls` (0 if it has
/// none) and the statistics after eliminate_recursion. What a generated tree is checked
/// against, and what `ccrc stats` prints. O(N), plus the elimination's O(N).
///
///     ccrc::cct_shape s = ccrc::shape_of(ccrc::generate_dacapo("pmd"));  // s.max_depth == 416
[[nodiscard]] inline cct_shape shape_of(const profile& p) {
  tree_statistics s = statistics(p.tree());
  cct_shape shape{.nodes = s.nodes, .max_depth = s.max_depth, .methods = s.methods};
  if (auto calls = p.find_metric("calls"))
    for (double c : p.column(*calls)) shape.calls += c;
  tree_statistics r = statistics(eliminate_recursion(p).output.tree());
  shape.recursion_free_nodes = r.nodes;
  shape.recursion_free_depth = r.max_depth;
  return shape;
}

namespace detail {

// The generator's one error: no tree has the shape asked for (or the model cannot reach it).
[[noreturn]] inline void cannot_generate(const std::string& why) {
  throw error("cannot generate this CCT: " + why);
}

// Whether a tree of `shape` can exist at all; throws (cannot_generate) saying why not.
inline void check_shape(const cct_shape& s) {
  auto n = static_cast<double>(s.nodes);
  if (s.nodes == 0 || s.methods == 0 || s.max_depth == 0) cannot_generate("nodes, methods and depth must be positive");
  if (s.nodes >= max_nodes / 2) cannot_generate("too many nodes");
  if (s.recursion_free_nodes == 0 || s.recursion_free_nodes > s.nodes)
    cannot_generate("the recursion-free nodes must be between 1 and the nodes");
  if (s.recursion_free_depth == 0 || s.recursion_free_depth > s.max_depth)
    cannot_generate("the recursion-free depth must be between 1 and the depth");
  if (s.methods > s.recursion_free_nodes) cannot_generate("every method needs a context: methods <= recursion-free nodes");
  if (s.recursion_free_depth > s.methods)
    cannot_generate("no method repeats on a recursion-free path: recursion-free depth <= methods");
  if (s.recursion_free_depth > s.recursion_free_nodes) cannot_generate("recursion-free depth <= recursion-free nodes");
  if (s.max_depth - s.recursion_free_depth > s.nodes - s.recursion_free_nodes)
    cannot_generate("reaching depth D from D' takes at least D - D' recursive contexts");
  if (s.nodes > s.recursion_free_nodes && s.max_depth < 2) cannot_generate("recursion needs a depth of 2 or more");
  if (!(s.calls >= n) || s.calls > 1e15) cannot_generate("calls must be at least the number of nodes (and below 1e15)");
}

}  // namespace detail
}  // namespace ccrc
