// ccrc - a small deterministic random number generator for the CCT generator.
#pragma once

#include <ccrc/detail/hash.hpp>

#include <cmath>
#include <cstdint>

namespace ccrc::detail {

/// splitmix64 with the distributions the generator draws from. The same seed gives the same
/// sequence of integers on every platform; the real-valued draws go through std::log and
/// std::cos, so they agree wherever the C library rounds those the same way (everywhere that
/// matters here: the generator's calibrated statistics do not depend on the last bit).
class random {
 public:
  explicit random(std::uint64_t seed) noexcept : state_(seed) {}

  std::uint64_t next() noexcept {
    return mix64(state_ += 0x9e3779b97f4a7c15ULL);
  }

  /// Uniform in [0, 1).
  double uniform() noexcept { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  /// Uniform in (0, 1]: safe to take the logarithm of.
  double uniform_open() noexcept { return static_cast<double>((next() >> 11) + 1) * 0x1.0p-53; }
  /// Uniform in [0, n), n > 0 (Lemire's multiply-shift: no modulo bias worth the name for n < 2^32).
  std::uint32_t below(std::uint32_t n) noexcept {
    return static_cast<std::uint32_t>(((next() >> 32) * n) >> 32);
  }
  bool chance(double p) noexcept { return uniform() < p; }
  /// Exponential with mean 1.
  double exponential() noexcept { return -std::log(uniform_open()); }
  /// Standard normal (Box-Muller; the second value is dropped for simplicity).
  double normal() noexcept {
    return std::sqrt(-2 * std::log(uniform_open())) * std::cos(6.283185307179586 * uniform());
  }
  /// Pareto with minimum 1 and tail exponent alpha: P(X > x) = x^-alpha.
  double pareto(double alpha) noexcept { return std::pow(uniform_open(), -1 / alpha); }
  /// Geometric on {0, 1, ...} with the given mean.
  std::uint32_t geometric(double mean) noexcept {
    if (mean <= 0) return 0;
    double x = std::floor(std::log(uniform_open()) / std::log(mean / (mean + 1)));
    return x > 1e9 ? 1000000000u : static_cast<std::uint32_t>(x);
  }

 private:
  std::uint64_t state_;
};

}  // namespace ccrc::detail
