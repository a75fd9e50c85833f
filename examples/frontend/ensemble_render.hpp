// The front ends: an ensemble profile's charts coloured by its variation (docs/ensemble.md).
// Not part of the library.
#pragma once

#include "ring_render.hpp"

#include <ccrc/ensemble/variation.hpp>

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

/// Paints `pic` (a ring chart's or an icicle's) by variation_look_of, if its profile is an
/// ensemble.
template <class Layout>
void paint_variation(chart_picture<Layout>& pic, ccrc::variation v) {
  std::vector<ccrc::node_id> nodes;
  nodes.reserve(pic.chart.segments.size());
  for (const auto& s : pic.chart.segments) nodes.push_back(s.node);
  auto look = variation_look_of(pic.profile, pic.aggregated, pic.metric, nodes, v);
  if (!look) return;
  pic.fills = std::move(look->fills);
  pic.notes = std::move(look->notes);
  pic.key = std::move(look->key);
  pic.key_title = std::move(look->key_title);
}

}  // namespace render
