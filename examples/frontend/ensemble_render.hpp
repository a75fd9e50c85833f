// The front ends: an ensemble profile's charts colored by its variation (docs/ensemble.md).
// Not part of the library.
#pragma once

#include <ccrc/ensemble/variation.hpp>
#include <ccrc/geometry/color.hpp>
#include <ccrc/ids.hpp>
#include <ccrc/tree/profile.hpp>

#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace render {

/// What an ensemble's chart shows beside its segments: a fill and a tooltip line per segment,
/// and the legend's key (the scale's bands) under its title.
struct variation_look {
  std::vector<ccrc::rgb> fills;
  std::vector<std::string> notes;
  std::vector<std::pair<std::string, std::string>> key;
  std::string key_title;
};

/// The look of the segments `nodes` of a chart of `p` sized by `metric`, if `p` is an ensemble
/// profile (ccrc::find_ensemble_metrics): each filled by the variation `v` of its metric's
/// inclusive values (of the metric whose statistic `metric` is, else the first), its tooltip
/// giving min / mean / max / std of its own and its inclusive values and the runs holding it.
/// `ag`: inclusive_columns(p). Nothing for another profile.
std::optional<variation_look> variation_look_of(const ccrc::profile& p, const std::vector<std::vector<double>>& ag,
                                                std::size_t metric, std::span<const ccrc::node_id> nodes, ccrc::variation v);

}  // namespace render
