// ccrc - an ensemble as a profile like any other: its statistics as metric columns, so that
// every command, the viewer and Python read, draw and search it; and how to recognise one.
#pragma once

#include <ccrc/ensemble/statistics.hpp>
#include <ccrc/tree/metric_unit.hpp>
#include <ccrc/tree/profile.hpp>

#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ccrc {

/// The statistics an ensemble profile holds for each metric M of the runs, in this order.
enum class ensemble_statistic : std::uint8_t {
  mean,     ///< M_mean: the mean of the self values (its ag() is the mean of the inclusive values)
  min,      ///< M_min: the least self value
  max,      ///< M_max
  std,      ///< M_std: the population standard deviation of the self values
  min_inc,  ///< M_min_inc: the least inclusive value (no sum of self values gives it)
  max_inc,  ///< M_max_inc
  std_inc,  ///< M_std_inc: the standard deviation of the inclusive values
};

/// The suffixes of the metrics' names, by ensemble_statistic (ccrc::statistic_suffixes, which
/// tell a metric's unit). No suffix ends another, so names made from distinct metrics never
/// meet (`x_min_inc` is only x's, whatever else the runs measure).
inline constexpr std::span<const std::string_view, 7> ensemble_suffixes = statistic_suffixes;

/// The metric of an ensemble profile counting, per context, the runs that hold it.
inline constexpr std::string_view runs_present_metric = "runs_present";

/// The ensemble as a profile: its tree (the union of the runs' contexts), and for each metric
/// M of the runs the metrics M_mean, M_min, M_max, M_std (the statistics of the self values),
/// M_min_inc, M_max_inc and M_std_inc (of the inclusive values, which no sum of self values
/// gives), then runs_present. ag(M_mean) is the mean of the inclusive values (means are
/// linear), so a chart sized by M_mean is sized by the mean run. The synthetic root holds
/// only its self statistics (0 unless the runs' roots had values of their own) and no
/// inclusive statistic nor count, as formats that write no root value (folded stacks) need:
/// the runs' totals are those of the top-level contexts. O(nodes x metrics).
///
///     ccrc::write_cctb(out, ccrc::ensemble_profile(e));  // `ccrc render` draws it
[[nodiscard]] inline profile ensemble_profile(const ensemble& e) {
  std::vector<std::string> names;
  for (const std::string& m : e.metric_names())
    for (std::string_view suffix : ensemble_suffixes) names.push_back(m + std::string(suffix));
  names.emplace_back(runs_present_metric);
  profile out(call_tree(e.tree()), std::move(names));
  for (std::size_t m = 0; m < e.metric_count(); ++m) {
    auto column = [&](ensemble_statistic s) { return out.column(m * ensemble_suffixes.size() + static_cast<std::size_t>(s)); };
    using statistic = ensemble_statistic;
    auto means = column(statistic::mean), mins = column(statistic::min), maxes = column(statistic::max),
         stds = column(statistic::std);
    for (node_id n = 0; n < e.size(); ++n) {
      value_statistics s = e.statistics(n, m, cost_scope::self);
      means[n] = s.mean, mins[n] = s.min, maxes[n] = s.max, stds[n] = s.std;
    }
    mins = column(statistic::min_inc), maxes = column(statistic::max_inc), stds = column(statistic::std_inc);
    for (node_id n = 1; n < e.size(); ++n) {
      value_statistics s = e.statistics(n, m, cost_scope::inclusive);
      mins[n] = s.min, maxes[n] = s.max, stds[n] = s.std;
    }
  }
  auto present = out.column(out.metric_count() - 1);
  for (node_id n = 1; n < e.size(); ++n) present[n] = e.present(n);
  return out;
}

/// Where an ensemble profile holds one metric's statistics: the metric's name in the runs and
/// its column for each ensemble_statistic.
struct ensemble_metric {
  std::string name;
  std::array<std::size_t, ensemble_suffixes.size()> columns{};
  [[nodiscard]] std::size_t operator[](ensemble_statistic s) const noexcept { return columns[static_cast<std::size_t>(s)]; }
};

/// The statistics an ensemble profile holds: each metric's columns, and the runs_present column.
struct ensemble_metrics {
  std::vector<ensemble_metric> metrics;
  std::size_t present = 0;

  /// The metric among `metrics` whose statistic column `column` is, if any.
  [[nodiscard]] std::optional<std::size_t> metric_of(std::size_t column) const noexcept {
    for (std::size_t i = 0; i < metrics.size(); ++i)
      for (std::size_t c : metrics[i].columns)
        if (c == column) return i;
    return std::nullopt;
  }
};

/// Whether metrics named `names` are an ensemble profile's (ensemble_profile): runs_present and,
/// for at least one M, all of M's statistics; metrics beside them are left alone. O(names^2).
[[nodiscard]] inline std::optional<ensemble_metrics> find_ensemble_metrics(const std::vector<std::string>& names) {
  auto index = [&](std::string_view name) -> std::optional<std::size_t> {
    for (std::size_t i = 0; i < names.size(); ++i)
      if (names[i] == name) return i;
    return std::nullopt;
  };
  auto present = index(runs_present_metric);
  if (!present) return std::nullopt;
  ensemble_metrics out{{}, *present};
  for (const std::string& name : names) {
    if (!name.ends_with(ensemble_suffixes[0])) continue;
    ensemble_metric m{name.substr(0, name.size() - ensemble_suffixes[0].size()), {}};
    bool whole = true;
    for (std::size_t s = 0; s < ensemble_suffixes.size() && whole; ++s) {
      auto column = index(m.name + std::string(ensemble_suffixes[s]));
      whole = column.has_value();
      if (whole) m.columns[s] = *column;
    }
    if (whole) out.metrics.push_back(std::move(m));
  }
  if (out.metrics.empty()) return std::nullopt;
  return out;
}

/// The metric of `names` that metric `name` of another profile compares with, when one profile
/// is a run and the other an ensemble: `name` itself, else `name`_mean (a run's metric in an
/// ensemble), else `name` without its `_mean` (an ensemble's mean in a run). O(names).
///
///     ccrc::counterpart_metric({"samples_mean", "samples_min"}, "samples");  // 0
[[nodiscard]] inline std::optional<std::size_t> counterpart_metric(const std::vector<std::string>& names,
                                                                   std::string_view name) {
  const std::string_view mean = ensemble_suffixes[0];
  const std::string candidates[] = {std::string(name), std::string(name) + std::string(mean),
                                    name.ends_with(mean) ? std::string(name.substr(0, name.size() - mean.size())) : std::string()};
  for (const std::string& candidate : candidates)
    for (std::size_t i = 0; i < names.size() && !candidate.empty(); ++i)
      if (names[i] == candidate) return i;
  return std::nullopt;
}

}  // namespace ccrc
