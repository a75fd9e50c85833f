// ccrc - the generator's first step: the shape of the recursion-free tree (the "skeleton"),
// contexts per level and who calls whom, before any method is assigned.
#pragma once

#include <ccrc/detail/random.hpp>
#include <ccrc/generate/model.hpp>
#include <ccrc/generate/shape.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ccrc::detail {

// A node id the generator has not set.
inline constexpr std::uint32_t generator_unset = 0xffffffffu;

// The recursion-free tree, ids in level order (the root 0, then depth 1, ...): the tree that
// eliminate_recursion gives back from the generated one.
struct skeleton {
  std::vector<std::size_t> levels;  // contexts at each depth, levels[0] = 1 (the root)
  std::vector<std::uint32_t> parent, depth, method;
  std::vector<std::uint32_t> child_begin, child_count;  // a node's children: consecutive ids
};

// Most callees a context at depth d can have: its callees avoid the d methods on its path.
[[nodiscard]] inline std::size_t fanout_cap(const cct_shape& shape, const generator_model& model, std::uint32_t d) noexcept {
  std::size_t cap = shape.methods - d;
  return d == 0 ? cap : std::min<std::size_t>(cap, std::max<std::uint32_t>(model.max_fanout, 1));
}

// L[d]: contexts at depth d of the skeleton, d = 1..D'. A gamma-shaped curve (most real
// CCTs have the bulk of their contexts at a third to a half of their depth, and a thin tail),
// its scale solved so that about `deepest_level` contexts sit at depth D'.
[[nodiscard]] inline std::vector<std::size_t> level_counts(const cct_shape& shape, const generator_model& model) {
  using u32 = std::uint32_t;
  const u32 depth = shape.recursion_free_depth;
  const std::size_t total = shape.recursion_free_nodes;
  std::vector<std::size_t> levels(depth + 1, 0);
  levels[0] = 1;
  std::size_t top = std::min<std::size_t>({std::max<u32>(model.threads, 1), total - (depth - 1), shape.methods});
  levels[1] = depth == 1 ? total : top;
  if (depth > 1) {
    std::size_t extra = total - top - (depth - 1);
    double k = std::max(1.0, model.depth_shape);
    auto weights = [&](double theta) {
      std::vector<double> w(depth + 1, 0.0);
      double max_log = -1e300;
      for (u32 d = 2; d <= depth; ++d) max_log = std::max(max_log, (k - 1) * std::log(d) - d / theta);
      for (u32 d = 2; d <= depth; ++d) w[d] = std::exp((k - 1) * std::log(d) - d / theta - max_log);
      return w;
    };
    auto tail = [&](double theta) {
      std::vector<double> w = weights(theta);
      double sum = 0;
      for (double x : w) sum += x;
      return static_cast<double>(extra) * w[depth] / sum;
    };
    double lo = 0.05, hi = 4.0 * depth;
    for (int i = 0; i < 100; ++i) {
      double mid = std::sqrt(lo * hi);
      (tail(mid) < model.deepest_level ? lo : hi) = mid;
    }
    std::vector<double> w = weights(hi);
    double sum = 0;
    for (double x : w) sum += x;
    // Largest remainder: exact total, every level at least 1.
    std::vector<std::pair<double, u32>> remainders;
    std::size_t given = 0;
    for (u32 d = 2; d <= depth; ++d) {
      double share = static_cast<double>(extra) * w[d] / sum;
      auto whole = static_cast<std::size_t>(share);
      levels[d] = 1 + whole;
      given += whole;
      remainders.emplace_back(share - static_cast<double>(whole), d);
    }
    std::sort(remainders.begin(), remainders.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    for (std::size_t i = 0; given < extra; ++i, ++given) ++levels[remainders[i % remainders.size()].second];
  }
  // Near the top a level grows at most `growth`-fold (main calls tens of methods, not
  // thousands); what a level cannot take goes to the deeper levels, in proportion.
  for (u32 d = 1; d + 1 <= depth; ++d) {
    auto cap = static_cast<std::size_t>(static_cast<double>(levels[d]) * std::max(1.0, model.growth));
    if (levels[d + 1] <= cap) continue;
    std::size_t excess = levels[d + 1] - cap, below = 0;
    levels[d + 1] = cap;
    for (u32 e = d + 2; e <= depth; ++e) below += levels[e];
    if (below == 0) {
      levels[d + 1] += excess;  // the last level: nowhere else to go
      break;
    }
    std::size_t given = 0;
    for (u32 e = d + 2; e <= depth; ++e) {
      auto share = static_cast<std::size_t>(static_cast<double>(excess) * static_cast<double>(levels[e]) / static_cast<double>(below));
      levels[e] += share;
      given += share;
    }
    levels[d + 2] += excess - given;
  }
  // A context at depth d has d methods on its path: its callees choose among the others.
  for (u32 d = 0; d < depth; ++d)
    if (levels[d + 1] > levels[d] * fanout_cap(shape, model, d))
      cannot_generate("too few methods (or too small a fan-out) for " + std::to_string(levels[d + 1]) +
                      " contexts at depth " + std::to_string(d + 1));
  return levels;
}

// The skeleton of `levels` (methods not yet assigned). Parents for each level: children go
// to the contexts of the level above in proportion to Pareto-distributed weights (most
// contexts get 0 or 1 callee, a few get hundreds), and a callee inherits part of its caller's
// weight, so busy subtrees stay busy further down.
[[nodiscard]] inline skeleton skeleton_structure(std::vector<std::size_t> levels, const cct_shape& shape,
                                                 const generator_model& model, random& rng) {
  using u32 = std::uint32_t;
  skeleton s;
  s.levels = std::move(levels);
  const std::size_t n = shape.recursion_free_nodes + 1;
  s.parent.assign(n, generator_unset);
  s.depth.assign(n, 0);
  s.child_begin.assign(n, 0);
  s.child_count.assign(n, 0);
  std::vector<double> log_weight(n, 0.0);
  std::size_t begin = 0, next = 1;  // level d occupies [begin, begin + levels[d])
  std::vector<double> cumulative;
  std::vector<u32> count;
  for (u32 d = 0; d + 1 < s.levels.size(); ++d) {
    std::size_t parents = s.levels[d], children = s.levels[d + 1];
    std::size_t cap = fanout_cap(shape, model, d);
    count.assign(parents, 0);
    if (parents == 1) {
      count[0] = static_cast<u32>(children);
    } else {
      double max_log = -1e300;
      for (std::size_t i = 0; i < parents; ++i) max_log = std::max(max_log, log_weight[begin + i]);
      cumulative.resize(parents);
      double sum = 0;
      for (std::size_t i = 0; i < parents; ++i) cumulative[i] = sum += std::exp(log_weight[begin + i] - max_log);
      // `children` sorted uniform points from exponential spacings, swept once.
      double spacing_total = 0;
      std::vector<double> points(children);
      for (auto& p : points) p = spacing_total += rng.exponential();
      spacing_total += rng.exponential();
      std::size_t parent = 0;
      std::size_t excess = 0;
      for (double p : points) {
        double x = p / spacing_total * sum;
        while (parent + 1 < parents && cumulative[parent] <= x) ++parent;
        if (count[parent] < cap) ++count[parent];
        else ++excess;
      }
      for (std::size_t tries = 0; excess > 0; ++tries) {
        std::size_t i = tries < 64 * parents ? rng.below(static_cast<u32>(parents)) : tries % parents;
        if (count[i] < cap) ++count[i], --excess;
      }
    }
    for (std::size_t i = 0; i < parents; ++i) {
      std::size_t p = begin + i;
      s.child_begin[p] = static_cast<u32>(next);
      s.child_count[p] = count[i];
      for (u32 c = 0; c < count[i]; ++c, ++next) {
        s.parent[next] = static_cast<u32>(p);
        s.depth[next] = d + 1;
        log_weight[next] = model.fanout_inherit * log_weight[p] + std::log(rng.pareto(model.fanout_alpha));
      }
    }
    begin += parents;
  }
  for (std::size_t p = begin; p < n; ++p) s.child_begin[p] = static_cast<u32>(n);
  return s;
}

}  // namespace ccrc::detail
