// ccrc - the generator's last step: the metrics of the generated tree, calls along hot paths
// and bytecodes per call.
#pragma once

#include <ccrc/detail/random.hpp>
#include <ccrc/generate/model.hpp>
#include <ccrc/generate/shape.hpp>
#include <ccrc/tree/profile.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace ccrc::detail {

// Columns `calls` (0) and `bytecodes` (1) of p, whose node new_id[x] is the generated node x
// (parent[x] its parent, x > parent[x]); frame m of p is method m, of `method_bytecodes[m]`
// bytecodes per call.
inline void add_metrics(profile& p, const std::vector<std::uint32_t>& parent, const std::vector<std::uint32_t>& new_id,
                        const std::vector<double>& method_bytecodes, const cct_shape& shape,
                        const generator_model& model, random& rng) {
  using u32 = std::uint32_t;
  const std::size_t n = parent.size();
  // log(calls) drifts from caller to callee (loops multiply, rare paths divide), floored at
  // one call; then calls = 1 + floor(k (e^lc - 1)) with k making the total exactly C.
  std::span<double> calls = p.column(0), bytecodes = p.column(1);
  std::vector<float> log_calls(n, 0.0f);
  const double cap = std::log(std::max(2.0, shape.calls / 50));
  double sum = 0;
  node_id hottest = 1;
  for (u32 x = 1; x < n; ++x) {
    double lc = parent[x] == 0 ? 0.0 : log_calls[parent[x]] + model.call_drift + model.call_spread * rng.normal();
    lc = std::clamp(lc, 0.0, cap);
    log_calls[x] = static_cast<float>(lc);
    double w = calls[new_id[x]] = std::expm1(lc);
    sum += w;
    if (w > calls[hottest]) hottest = new_id[x];
  }
  double k = sum > 0 ? (shape.calls - static_cast<double>(n - 1)) / sum : 0;
  double total = 0;
  for (std::size_t i = 1; i < n; ++i) total += calls[i] = 1 + std::floor(k * calls[i]);
  calls[hottest] += std::round(shape.calls - total);
  // Bytecodes per call vary around the method's size (branches taken, loop trip counts).
  for (std::size_t i = 1; i < n; ++i)
    bytecodes[i] = std::max(1.0, std::round(calls[i] * method_bytecodes[p.tree().frame(static_cast<node_id>(i))] *
                                            (0.75 + 0.5 * rng.uniform())));
}

}  // namespace ccrc::detail
