// ccrc - the unit a metric's name states, and metrics that measure one quantity in two units.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ccrc {

/// What a metric's name says it measures: its stem and the unit of its suffix.
struct metric_unit {
  enum class quantity { count, time, bytes };
  std::string_view stem;  ///< the name without the unit: `time` of `time_us`, `cpu` of `cpu_nanoseconds`
  std::string_view unit;  ///< `nanoseconds`, `microseconds`, `milliseconds`, `seconds`, `bytes`, or `none`
  quantity measures = quantity::count;
};

/// The suffixes of the statistics of a metric over many runs, as an ensemble profile names
/// them (`time_us_mean`: ccrc/ensemble/profile.hpp): the mean, min, max and standard deviation
/// of the self values, and the min, max and standard deviation of the inclusive values. No
/// suffix ends another.
inline constexpr std::string_view statistic_suffixes[] = {"_mean", "_min", "_max", "_std", "_min_inc", "_max_inc", "_std_inc"};

/// The unit of a metric from its name, as profilers name them: a name ending in `_ns`, `_us`,
/// `_ms`, `_s`, `nanoseconds`, `microseconds`, `milliseconds`, `seconds` or `bytes`
/// (`time_us`, `cpu_nanoseconds`, `alloc_space_bytes`, `self_ns`) is a time or a size in that
/// unit; any other name (`calls`, `samples`, `samples_count`) counts something, unit `none`. A
/// statistic of a metric over runs is in its unit (`time_us_std`: microseconds).
///
///     ccrc::unit_of_metric("time_us");  // {.stem = "time", .unit = "microseconds", .measures = time}
[[nodiscard]] constexpr metric_unit unit_of_metric(std::string_view name) noexcept {
  using enum metric_unit::quantity;
  for (std::string_view statistic : statistic_suffixes)
    if (name.size() > statistic.size() && name.ends_with(statistic)) {
      name.remove_suffix(statistic.size());
      break;
    }
  struct suffix {
    std::string_view text, unit;
    metric_unit::quantity measures;
  };
  constexpr suffix suffixes[] = {
      {"nanoseconds", "nanoseconds", time}, {"_ns", "nanoseconds", time},   {"microseconds", "microseconds", time},
      {"_us", "microseconds", time},        {"milliseconds", "milliseconds", time}, {"_ms", "milliseconds", time},
      {"seconds", "seconds", time},         {"_s", "seconds", time},        {"bytes", "bytes", bytes},
  };
  for (const suffix& s : suffixes) {
    if (!name.ends_with(s.text)) continue;
    std::string_view stem = name.substr(0, name.size() - s.text.size());
    if (stem.ends_with('_')) stem.remove_suffix(1);
    return {stem, s.unit, s.measures};
  }
  return {name, "none", count};
}

/// Whether two metrics measure one quantity in different units (`time_us` and `time_ns`,
/// `cpu_ms` and `cpu_nanoseconds`): summing them as two columns would split one measure in two,
/// so a merge refuses them. Names that differ in their stem are different metrics.
[[nodiscard]] constexpr bool disagree_in_unit(std::string_view a, std::string_view b) noexcept {
  metric_unit x = unit_of_metric(a), y = unit_of_metric(b);
  return x.stem == y.stem && x.measures == y.measures && x.unit != y.unit;
}

/// The first pair of `names` (in order of the second) that disagree_in_unit, as indexes.
[[nodiscard]] inline std::optional<std::pair<std::size_t, std::size_t>> unit_disagreement(
    const std::vector<std::string>& names) noexcept {
  for (std::size_t j = 1; j < names.size(); ++j)
    for (std::size_t i = 0; i < j; ++i)
      if (disagree_in_unit(names[i], names[j])) return std::pair{i, j};
  return std::nullopt;
}

/// The metric a view ranks by when none is asked for, as a reader of a profile expects: the
/// first of `names` that measures time (by its unit, or named `time`, `cpu` or `wall`), else
/// the first counting samples (`samples`, `samples_count`), else the first; 0 without names.
/// An instrumented profile (`calls`, `self_ns`) ranks by `self_ns`, not by its calls. O(names).
///
///     ccrc::primary_metric(p.metric_names());  // 1 for {"calls", "self_ns"}
[[nodiscard]] inline std::size_t primary_metric(const std::vector<std::string>& names) noexcept {
  auto rank = [](std::string_view name) {
    if (unit_of_metric(name).measures == metric_unit::quantity::time || name == "time" || name == "cpu" || name == "wall")
      return 2;
    return name.starts_with("sample") ? 1 : 0;
  };
  std::size_t best = 0;
  for (std::size_t i = 1; i < names.size(); ++i)
    if (rank(names[i]) > rank(names[best])) best = i;
  return best;
}

/// The metric two runs are compared by when none is asked for (ccrc::diff's cost): the
/// primary_metric of the first run's `names` other than its invocation counts `calls` ("" for
/// none), or the counts if they are its only metric. An index into `names`. O(names).
///
///     ccrc::compared_metric({"calls", "bytecodes"}, "calls");  // 1
[[nodiscard]] inline std::size_t compared_metric(const std::vector<std::string>& names, std::string_view calls) {
  std::vector<std::string> costs;
  std::vector<std::size_t> at;
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] != calls) {
      costs.push_back(names[i]);
      at.push_back(i);
    }
  return costs.empty() ? 0 : at[primary_metric(costs)];
}

}  // namespace ccrc
