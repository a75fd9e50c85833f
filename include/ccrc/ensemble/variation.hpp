// ccrc - an ensemble's variation as colors: how much each context's cost varies over the
// runs (coefficient of variation, or imbalance), in bands a legend can name.
#pragma once

#include <ccrc/enum_names.hpp>
#include <ccrc/ensemble/profile.hpp>
#include <ccrc/geometry/color.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string_view>
#include <vector>

namespace ccrc {

/// What an ensemble's chart is colored by: how much a context's inclusive cost varies.
enum class variation : std::uint8_t {
  cv,         ///< coefficient of variation, std / mean: 0 for a cost the same in every run
  imbalance,  ///< max / mean (hpcprof's and MPI's load imbalance): 1 for a cost the same in every run
};

/// The variations' names, by value (ccrc::name_of, ccrc::enum_named).
[[nodiscard]] constexpr auto enum_names(variation) noexcept { return std::array<std::string_view, 2>{"cv", "imbalance"}; }

/// One band of a variation scale: values from `from` (up to the next band's) take `color`.
struct variation_band {
  double from;
  rgb color;
  std::string_view label;
};

namespace detail {

// From steady to wild: a pale blue, then yellow, orange and red.
inline constexpr rgb variation_colors[] = {{0xd6, 0xe6, 0xf2}, {0xfd, 0xf0, 0xa6}, {0xfd, 0xc8, 0x63},
                                           {0xf9, 0x8e, 0x3f}, {0xc8, 0x34, 0x1f}, {0x8c, 0x00, 0x1a}};
inline constexpr std::array<variation_band, 6> cv_scale = {{{0, variation_colors[0], "CV under 5 %"},
                                                             {0.05, variation_colors[1], "5-10 %"},
                                                             {0.1, variation_colors[2], "10-20 %"},
                                                             {0.2, variation_colors[3], "20-50 %"},
                                                             {0.5, variation_colors[4], "50-100 %"},
                                                             {1, variation_colors[5], "100 % and more"}}};
inline constexpr std::array<variation_band, 6> imbalance_scale = {{{0, variation_colors[0], "max/mean under 1.05"},
                                                                    {1.05, variation_colors[1], "1.05-1.1"},
                                                                    {1.1, variation_colors[2], "1.1-1.25"},
                                                                    {1.25, variation_colors[3], "1.25-1.5"},
                                                                    {1.5, variation_colors[4], "1.5-2"},
                                                                    {2, variation_colors[5], "2 and more"}}};

}  // namespace detail

/// The scale of a variation measure: six bands from steady (a pale blue) through yellow and
/// orange to dark red, labelled for a legend; a value below the first band's `from` takes the
/// first. CV: under 5 %, 5-10 %, 10-20 %, 20-50 %, 50-100 %, 100 % and more; imbalance: under
/// 1.05, 1.05-1.1, 1.1-1.25, 1.25-1.5, 1.5-2, 2 and more. Text on each is readable in
/// label_color(band.color).
[[nodiscard]] constexpr std::span<const variation_band> variation_scale(variation v) noexcept {
  return v == variation::cv ? std::span<const variation_band>(detail::cv_scale) : std::span<const variation_band>(detail::imbalance_scale);
}

/// The color of a variation value on its scale; neutral_color for NaN (no cost to vary).
/// O(bands).
[[nodiscard]] inline rgb variation_color(double value, variation v) noexcept {
  if (std::isnan(value)) return neutral_color;
  auto bands = variation_scale(v);
  std::size_t k = 0;
  while (k + 1 < bands.size() && value >= bands[k + 1].from) ++k;
  return bands[k].color;
}

/// The variation of every node's inclusive values of metric `m` in an ensemble profile `p`
/// (found by find_ensemble_metrics): std / mean or max / mean, the mean being `mean_inclusive`
/// (ag(M_mean): the mean of the inclusive values). NaN where the mean is not above 0 (no cost:
/// nothing varies) and at the synthetic root, which holds no inclusive statistic. O(nodes).
///
///     auto ag = ccrc::inclusive(p.tree(), p.column(m[ccrc::ensemble_statistic::mean]));
///     auto cv = ccrc::variation_of(p, m, ag, ccrc::variation::cv);
[[nodiscard]] inline std::vector<double> variation_of(const profile& p, const ensemble_metric& m,
                                                      std::span<const double> mean_inclusive, variation v) {
  const auto spread = p.column(m[v == variation::cv ? ensemble_statistic::std_inc : ensemble_statistic::max_inc]);
  std::vector<double> out(p.size(), std::numeric_limits<double>::quiet_NaN());
  for (node_id n = 1; n < p.size(); ++n)
    if (mean_inclusive[n] > 0) out[n] = spread[n] / mean_inclusive[n];
  return out;
}

}  // namespace ccrc
