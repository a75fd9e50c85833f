#include "ensemble_render.hpp"

#include "cli.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace render {
namespace {

std::string percent(double part, double whole) {
  if (!(whole > 0 && std::isfinite(part / whole))) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %%", 100 * part / whole);
  return buf;
}

std::string spread(double mean, double min, double max, double std) {
  return "mean " + cli::format_value(mean) + ", min " + cli::format_value(min) + ", max " + cli::format_value(max) +
         ", std " + cli::format_value(std) + " (CV " + percent(std, mean) + ")";
}

}  // namespace

std::optional<variation_look> variation_look_of(const ccrc::profile& p, const std::vector<std::vector<double>>& ag,
                                                std::size_t metric, std::span<const ccrc::node_id> nodes, ccrc::variation v) {
  auto found = ccrc::find_ensemble_metrics(p.metric_names());
  if (!found) return std::nullopt;
  const ccrc::ensemble_metric& m = found->metrics[found->metric_of(metric).value_or(0)];
  using stat = ccrc::ensemble_statistic;
  const std::vector<double>& mean_inclusive = ag[m[stat::mean]];
  std::vector<double> variation = ccrc::variation_of(p, m, mean_inclusive, v);
  auto column = [&](stat s) { return p.column(m[s]); };
  auto present = p.column(found->present);
  // The ensemble's runs: the root holds no count (folded stacks cannot), so the most any
  // context is in (a top-level context of runs of one program is in all of them).
  const double runs = *std::max_element(present.begin(), present.end());
  const std::string of_runs = " of " + cli::format_value(runs) + " runs";

  variation_look out;
  for (ccrc::node_id n : nodes) {
    out.fills.push_back(ccrc::variation_color(variation[n], v));
    if (n == ccrc::root_node) {
      out.notes.push_back(m.name + " of the mean run: " + cli::format_value(mean_inclusive[n]));
      continue;
    }
    out.notes.push_back(m.name + " over the runs: own " +
                        spread(column(stat::mean)[n], column(stat::min)[n], column(stat::max)[n], column(stat::std)[n]) +
                        "\nwith callees " +
                        spread(mean_inclusive[n], column(stat::min_inc)[n], column(stat::max_inc)[n], column(stat::std_inc)[n]) +
                        "\npresent in " + cli::format_value(present[n]) + of_runs);
  }
  for (const ccrc::variation_band& band : ccrc::variation_scale(v)) out.key.emplace_back(ccrc::hex(band.color), band.label);
  out.key.emplace_back(ccrc::hex(ccrc::neutral_color), "no cost");
  out.key_title = std::string(v == ccrc::variation::cv ? "color: std/mean of " : "color: max/mean of ") + m.name +
                  " with callees," + of_runs;
  return out;
}

}  // namespace render
