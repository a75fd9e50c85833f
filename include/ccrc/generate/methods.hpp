// ccrc - the generator's second step: the program's methods (popularity, classes, sizes, whom
// each calls) and their assignment to the skeleton's contexts.
#pragma once

#include <ccrc/config.hpp>
#include <ccrc/detail/random.hpp>
#include <ccrc/generate/model.hpp>
#include <ccrc/generate/shape.hpp>
#include <ccrc/generate/skeleton.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <utility>
#include <vector>

namespace ccrc::detail {

// The methods 1..U of the generated program.
struct method_model {
  std::vector<double> popularity;  // cumulative Zipf weights, popularity[0] = 0
  std::vector<double> bytecodes;   // per call, the method's median
  std::vector<std::uint32_t> class_of, index_in_class;
  std::vector<std::uint32_t> class_begin;             // class c holds [class_begin[c], class_begin[c + 1])
  std::vector<std::vector<std::uint32_t>> callees;    // per method, the methods it tends to call

  // A method drawn by popularity.
  std::uint32_t popular(random& rng) const {
    double x = rng.uniform() * popularity.back();
    auto it = std::upper_bound(popularity.begin() + 1, popularity.end(), x);
    return static_cast<std::uint32_t>(
        std::min<std::ptrdiff_t>(it - popularity.begin(), static_cast<std::ptrdiff_t>(popularity.size() - 1)));
  }
};

// Popularity (Zipf over a random ranking), classes (runs of consecutive ids), bytecodes per
// call, and for each method a list of callees: mostly popular methods and its class's own.
[[nodiscard]] inline method_model make_method_model(const cct_shape& shape, const generator_model& model, random& rng) {
  using u32 = std::uint32_t;
  method_model mm;
  const auto u = static_cast<u32>(shape.methods);
  std::vector<u32> rank(u);
  for (u32 i = 0; i < u; ++i) rank[i] = i + 1;
  for (u32 i = u; i > 1; --i) std::swap(rank[i - 1], rank[rng.below(i)]);
  mm.popularity.assign(u + 1, 0.0);
  double sum = 0;
  for (u32 m = 1; m <= u; ++m) mm.popularity[m] = sum += std::pow(static_cast<double>(rank[m - 1]), -model.method_skew);
  mm.class_of.assign(u + 1, 0);
  mm.index_in_class.assign(u + 1, 0);
  mm.class_begin.assign(1, 1);
  for (u32 m = 1, c = 0; m <= u; ++c) {
    u32 size = 1 + rng.geometric(5);
    mm.class_begin.push_back(std::min(u + 1, m + size));
    for (u32 i = 0; i < size && m <= u; ++i, ++m) {
      mm.class_of[m] = c;
      mm.index_in_class[m] = i;
    }
  }
  mm.bytecodes.assign(u + 1, 0);
  for (u32 m = 1; m <= u; ++m)
    mm.bytecodes[m] = std::clamp(std::round(model.bytecodes * std::exp(0.9 * rng.normal())), 1.0, 5000.0);
  mm.callees.assign(u + 1, {});
  for (u32 m = 1; m <= u; ++m) {
    auto length = static_cast<u32>(std::min(200.0, std::round(model.callees / 3 * rng.pareto(1.5))));
    for (u32 i = 0; i < std::max<u32>(length, 1); ++i) {
      u32 c = mm.class_of[m];
      u32 first = mm.class_begin[c], size = mm.class_begin[c + 1] - first;
      mm.callees[m].push_back(size > 1 && rng.chance(model.locality) ? first + rng.below(size) : mm.popular(rng));
    }
  }
  return mm;
}

// Methods for the skeleton, depth-first: a context's callees come from its method's callee
// list (growing it when the list runs out, as virtual calls reach new targets), never a
// method already on the path (the skeleton is recursion-free) or a sibling's.
inline void assign_methods(skeleton& s, method_model& mm, const cct_shape& shape, random& rng) {
  using u32 = std::uint32_t;
  const std::size_t n = s.parent.size();
  const auto u = static_cast<u32>(shape.methods);
  s.method.assign(n, 0);
  std::vector<u32> on_path(u + 1, 0), taken_by(u + 1, generator_unset);
  auto valid = [&](u32 m, u32 parent) { return m != 0 && on_path[m] == 0 && taken_by[m] != parent; };
  auto pick = [&](u32 parent) -> u32 {
    std::vector<u32>& list = mm.callees[s.method[parent]];
    for (int t = 0; t < 6; ++t) {
      double x = rng.uniform();
      u32 m = list[static_cast<std::size_t>(x * x * static_cast<double>(list.size()))];
      if (valid(m, parent)) return m;
    }
    u32 m = 0;
    for (int t = 0; t < 6 && !valid(m, parent); ++t) m = mm.popular(rng);
    for (u32 start = rng.below(u), i = 0; !valid(m, parent) && i < u; ++i) m = 1 + (start + i) % u;
    CCRC_ASSERT(valid(m, parent), "ccrc: generator: no method left for a callee");
    if (list.size() < 400) list.push_back(m);
    return m;
  };
  auto assign_children = [&](u32 p) {
    for (u32 i = 0; i < s.child_count[p]; ++i) {
      u32 c = s.child_begin[p] + i;
      s.method[c] = p == 0 ? i + 1 : pick(p);  // top-level contexts: the thread entry points
      taken_by[s.method[c]] = p;
    }
  };
  std::vector<std::pair<u32, u32>> stack{{0, 0}};
  assign_children(0);
  while (!stack.empty()) {
    auto& [p, i] = stack.back();
    if (i < s.child_count[p]) {
      u32 c = s.child_begin[p] + i++;
      on_path[s.method[c]] = 1;
      assign_children(c);
      stack.emplace_back(c, 0);
    } else {
      on_path[s.method[p]] = 0;
      stack.pop_back();
    }
  }
}

// Every method runs somewhere: methods the walk never reached take the place of a context
// whose method appears elsewhere too (leaves first). A method that appears nowhere else can
// take any context without creating recursion or a duplicate sibling.
inline void use_every_method(skeleton& s, const cct_shape& shape, random& rng) {
  using u32 = std::uint32_t;
  const auto u = static_cast<u32>(shape.methods);
  const auto n = static_cast<u32>(s.parent.size());
  std::vector<u32> uses(u + 1, 0);
  for (u32 i = 1; i < n; ++i) ++uses[s.method[i]];
  std::vector<u32> unused;
  for (u32 m = 1; m <= u; ++m)
    if (uses[m] == 0) unused.push_back(m);
  u32 stride = 2654435761u % (n - 1);
  while (std::gcd(stride, n - 1) != 1) ++stride;
  for (int pass = 0; pass < 2 && !unused.empty(); ++pass) {
    u32 at = rng.below(n - 1);
    for (u32 k = 0; k < n - 1 && !unused.empty(); ++k, at = (at + stride) % (n - 1)) {
      u32 i = 1 + at;
      if ((pass == 0) != (s.child_count[i] == 0) || uses[s.method[i]] < 2) continue;
      --uses[s.method[i]];
      s.method[i] = unused.back();
      unused.pop_back();
    }
  }
  CCRC_ASSERT(unused.empty(), "ccrc: generator: a method without a context");
}

}  // namespace ccrc::detail
