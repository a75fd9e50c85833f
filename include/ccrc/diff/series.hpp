// ccrc - benchmarks across versions: where the time jumps (Rizel). As CSV: diff/series_csv.hpp.
#pragma once

#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

namespace ccrc {

/// One benchmark's total (time, samples, ...) at each version; a non-finite total means "not
/// measured at that version".
struct benchmark_series {
  std::string name;
  std::vector<double> totals;  ///< one per version, in version order
};

/// Several benchmarks over one sequence of versions: Rizel's Figure 6.
struct version_series {
  std::vector<std::string> versions;          ///< in order, oldest first
  std::vector<benchmark_series> benchmarks;   ///< each with one total per version
};

/// A step of one benchmark from one measured version to the next where its total jumps: the
/// pair of versions worth comparing with a blueprint.
struct series_jump {
  std::size_t benchmark;  ///< index in version_series::benchmarks
  std::size_t from, to;   ///< indices of the versions (to > from; versions between were not measured)
  double before, after;   ///< the totals at from and at to
  /// (after − before) / |before|: +1.02 for 942 -> 1905; 0 when before is 0 (the change then
  /// is not relative: see before and after).
  double relative;
};

/// Options of find_jumps.
struct jump_options {
  /// A step is a jump when |after − before| is at least this fraction of |before| (any change
  /// from 0 qualifies). Set it above the benchmarks' run-to-run noise.
  double min_relative = 0.10;
  /// ... and at least this much in absolute terms (to ignore tiny benchmarks' jitter).
  double min_absolute = 0;
};

/// The steps where a benchmark's total jumps, comparing each measured version with the
/// previous measured one: slowdowns (relative > 0) and speedups alike, ordered by the version
/// they lead to, then by benchmark. O(benchmarks x versions).
///
///     auto jumps = ccrc::find_jumps(series);   // Roassal's testFixedSize: 1.97 -> 1.98, 1.107 -> 1.108
///     for (auto& j : jumps) compare(series.versions[j.from], series.versions[j.to]);
[[nodiscard]] inline std::vector<series_jump> find_jumps(const version_series& s, const jump_options& options = {}) {
  std::vector<series_jump> jumps;
  for (std::size_t to = 1; to < s.versions.size(); ++to) {
    for (std::size_t b = 0; b < s.benchmarks.size(); ++b) {
      const std::vector<double>& t = s.benchmarks[b].totals;
      if (to >= t.size() || !std::isfinite(t[to])) continue;
      std::size_t from = to - 1;
      while (from > 0 && !std::isfinite(t[from])) --from;
      if (!std::isfinite(t[from])) continue;  // nothing measured before
      double before = t[from], after = t[to], change = std::abs(after - before);
      if (change == 0 || change < options.min_absolute) continue;
      if (before != 0 && change < options.min_relative * std::abs(before)) continue;
      double relative = before == 0 ? 0.0 : (after - before) / std::abs(before);
      jumps.push_back({b, from, to, before, after, std::isfinite(relative) ? relative : 0.0});
    }
  }
  return jumps;
}

}  // namespace ccrc
