// ccrc ensemble: many runs of a program reduced to statistics per calling context (as Thicket
// and hpcprof summarise them), the runs' distances and their clusters with an exemplar each.
#include "command.hpp"
#include "inputs.hpp"
#include "stack_text.hpp"

#include <ccrc/algorithm/display_name.hpp>
#include <ccrc/ensemble/cluster.hpp>
#include <ccrc/ensemble/ensemble_all.hpp>
#include <ccrc/ensemble/json.hpp>
#include <ccrc/ensemble/profile.hpp>
#include <ccrc/tree/metric_unit.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <limits>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

namespace {

std::string percent(double part, double whole) {
  if (!(whole != 0 && std::isfinite(part / whole))) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %%", 100 * part / whole);
  return buf;
}

// The innermost frames of n by their display names, outermost first, "…" for those above
// them: "…;(anonymous);sortNumbers;(anonymous)". O(frames).
std::string short_path(const ccrc::call_tree& t, ccrc::node_id n, std::size_t frames = 4) {
  std::vector<std::string> names;
  for (; n != ccrc::root_node && names.size() < frames; n = t.parent(n)) names.push_back(stack_text::brief(ccrc::display_name(t.name(n))));
  std::string out = n != ccrc::root_node ? "\xe2\x80\xa6" : "";
  for (auto name = names.rbegin(); name != names.rend(); ++name) out += (out.empty() ? "" : ";") + *name;
  return out;
}

// The report without --json: the runs, the whole run's spread, the contexts whose own cost
// varies most, and the clusters.
std::string report(const ccrc::ensemble& e, std::size_t metric, const std::vector<std::string>& runs, std::size_t top,
                   const ccrc::distance_matrix* d, const std::vector<ccrc::run_cluster>& clusters) {
  const std::string name = e.metric_names()[metric];
  std::size_t everywhere = 0;
  for (ccrc::node_id n = 1; n < e.size(); ++n) everywhere += e.present(n) == e.runs();
  std::string out = std::to_string(e.runs()) + " runs, " + std::to_string(e.size() - 1) + " calling contexts (" +
                    std::to_string(everywhere) + " in every run), metrics:";
  for (const auto& m : e.metric_names()) out += " " + m;
  ccrc::value_statistics total = e.statistics(ccrc::root_node, metric, ccrc::cost_scope::inclusive);
  out += "\n" + name + " of a whole run: mean " + cli::format_value(total.mean) + ", min " + cli::format_value(total.min) +
         ", max " + cli::format_value(total.max) + ", std " + cli::format_value(total.std) + " (CV " +
         percent(total.std, total.mean) + ")\n";

  // By the spread of their own values, largest first, ties in node order.
  std::vector<ccrc::node_id> order(e.size() - 1);
  std::iota(order.begin(), order.end(), ccrc::node_id{1});
  std::vector<double> spread(e.size());
  for (ccrc::node_id n : order) spread[n] = e.statistics(n, metric, ccrc::cost_scope::self).std;
  std::stable_sort(order.begin(), order.end(), [&](ccrc::node_id a, ccrc::node_id b) { return spread[a] > spread[b]; });
  const std::size_t shown = std::min(top, order.size());
  out += "\ncontexts whose own " + name + " varies most (standard deviation of the self values):\n";
  char row[256];
  std::snprintf(row, sizeof row, "%14s %14s %14s %14s %8s %9s  context\n", "mean", "min", "max", "std", "cv", "present");
  out += row;
  for (std::size_t k = 0; k < shown; ++k) {
    ccrc::node_id n = order[k];
    ccrc::value_statistics s = e.statistics(n, metric, ccrc::cost_scope::self);
    std::string present = std::to_string(e.present(n)) + "/" + std::to_string(e.runs());
    std::snprintf(row, sizeof row, "%14s %14s %14s %14s %8s %9s  ", cli::format_value(s.mean).c_str(),
                  cli::format_value(s.min).c_str(), cli::format_value(s.max).c_str(), cli::format_value(s.std).c_str(),
                  percent(s.std, s.mean).c_str(), present.c_str());
    out += row + short_path(e.tree(), n) + "\n";
  }
  if (shown < order.size())
    out += "  ... " + std::to_string(order.size() - shown) + " more (--top N or --top all to list them)\n";
  if (!d) return out;

  out += "\n" + std::to_string(clusters.size()) + (clusters.size() == 1 ? " cluster" : " clusters") +
         " of the runs by their shares of " + name + " (average linkage):\n";
  for (std::size_t c = 0; c < clusters.size(); ++c) {
    const auto& g = clusters[c];
    double sum = 0;
    for (std::size_t m : g.members) sum += (*d)(g.exemplar, m);
    char mean[64] = "";
    if (g.members.size() > 1)
      std::snprintf(mean, sizeof mean, ", %.4f from the others on average", sum / static_cast<double>(g.members.size() - 1));
    out += "  " + std::to_string(c + 1) + ". " + std::to_string(g.members.size()) + (g.members.size() == 1 ? " run" : " runs") +
           "; exemplar " + runs[g.exemplar] + mean + "\n";
    for (std::size_t m : g.members) {
      std::snprintf(row, sizeof row, "%8zu  ", m);
      out += row + runs[m] + "\n";
    }
  }
  return out;
}

int run(const cli::args& a, cli::timings& t) {
  if (a.positional().empty()) throw cli::usage_error("missing RUN: the profiles of the runs");
  auto out = a.value("-o");
  if (out) cli::check_output_path(*out);
  const bool json = a.flag("--json");
  if (json && out == "-") throw cli::usage_error("-o - and --json would both write to standard output");
  const auto groups = cli::whole(a, "--cluster");
  const auto within = a.number("--cluster-distance");
  if (within && !(*within >= 0 && *within <= 1))
    throw cli::usage_error("--cluster-distance expects a distance from 0 to 1");
  const bool clustering = groups || within;
  const std::size_t top = cli::top_of(a, 20);
  const inputs::named_inputs named = inputs::expand(a.positional(), "ensemble");
  const std::vector<std::string>& paths = named.paths;
  if (paths.empty()) throw ccrc::error("no run: the directories and lists given are empty");
  if (out) inputs::refuse_output_over(*out, named);
  const auto threads = static_cast<unsigned>(cli::whole(a, "--threads").value_or(0));

  t.phase("read and reduce");
  inputs::batch in("ensemble", paths, cli::read_options_of(a), a.flag("--keep-going"));
  std::vector<std::string> runs;           // the inputs read, in order
  std::vector<ccrc::share_vector> shares;  // their shares of the metric, to cluster them
  std::optional<std::string> metric = a.value("--metric");
  ccrc::ensemble e = ccrc::ensemble_all(
      paths.size(), [&](std::size_t i) { return in.read(i); },
      [&](std::size_t i, const ccrc::profile& r, std::span<const ccrc::node_id> map) {
        runs.push_back(paths[i]);
        // By default the first run's metric ranks and clusters them all: known before any
        // share vector is made.
        if (!metric) metric = r.metric_names()[ccrc::primary_metric(r.metric_names())];
        if (!clustering) return;
        auto m = r.find_metric(*metric);
        shares.push_back(m ? ccrc::share_vector_of(r.column(*m), map) : ccrc::share_vector{});
      },
      {.threads = threads});
  in.report_skipped();
  in.check_units(e.metric_names(), "comparing the runs");
  const std::size_t m = e.metric_index(*metric);

  std::optional<ccrc::distance_matrix> d;
  std::vector<ccrc::run_cluster> clusters;
  if (clustering) {
    t.phase("distances");
    d = ccrc::distances(shares, {.threads = threads});
    t.phase("clusters");
    clusters = ccrc::cluster_runs(*d, {.groups = groups.value_or(1),
                                       .max_distance = within.value_or(std::numeric_limits<double>::infinity())});
  }
  if (out) {
    t.phase("profile");
    cli::save_profile(*out, ccrc::ensemble_profile(e), t, a);
  }
  t.phase("output");
  if (json) {
    // Every context's whole path, as folded stacks write them: bounded as their size is.
    if (const std::uint64_t bytes = ccrc::ensemble_json_path_bytes(e); bytes > cli::max_stack_output_bytes && !a.flag("--force"))
      throw ccrc::error("the JSON would hold " + std::to_string(bytes) +
                        " bytes of paths (each context's whole stack, so it grows with depth x contexts), more than the "
                        "1 GiB written without --force: write the ensemble with -o OUT.cctb, or pass --force");
    ccrc::write_ensemble_json(std::cout, e, {.inputs = runs, .metric = *metric, .distances = d ? &*d : nullptr, .clusters = clusters});
    std::cout.flush();
  } else if (out != "-") {
    print(report(e, m, runs, top, d ? &*d : nullptr, clusters));
  }
  return 0;
}

}  // namespace

const command ensemble_command{
    "ensemble",
    "many runs as statistics per calling context; the runs' distances and clusters",
    "usage: ccrc ensemble RUN... [--metric NAME] [--cluster K] [--cluster-distance D] [--json] [-o OUT]\n"
    "                     [--top N|all] [--threads N] [--keep-going] [--profile NAME|INDEX] [--force]\n"
    "\n"
    "Reads every RUN (any format ccrc reads; a directory: its files, by name; @LIST: a file naming\n"
    "one input per line) and reduces the runs to statistics per calling context, contexts matched\n"
    "by path and metrics by name as `ccrc merge` matches them: for every metric, the mean, min,\n"
    "max and standard deviation (over the N runs: a run without the context counts 0) of its self\n"
    "values and of its inclusive values, and how many runs hold the context. Prints the runs, the\n"
    "spread of a whole run and the contexts whose own cost varies most (see docs/ensemble.md).\n"
    "\n"
    "  --metric NAME     the metric the report ranks by and the runs are clustered by (default:\n"
    "                    the first run's first that measures time, else samples, else its first)\n"
    "  --cluster K       clusters the runs into K groups, average linkage over the distance of\n"
    "                    two runs (half the L1 distance between their shares of the metric: 0\n"
    "                    alike, 1 nothing in common); each group's exemplar is its member with\n"
    "                    the least summed distance to the others\n"
    "  --cluster-distance D  merges groups only while they are at most D apart (with --cluster:\n"
    "                    whichever stops first)\n"
    "  --json            one JSON document: runs, inputs, metrics, contexts (path, parent, present,\n"
    "                    self and inclusive statistics per metric) and with clusters metric,\n"
    "                    distance (N x N) and clusters (members, exemplar); see docs/cli.md\n"
    "  -o OUT            writes the ensemble as a profile (format by OUT's name, as convert):\n"
    "                    per metric M, M_mean, M_min, M_max, M_std (of the self values),\n"
    "                    M_min_inc, M_max_inc, M_std_inc (of the inclusive values), then\n"
    "                    runs_present; render, view, flat and search read it as any profile\n"
    "  --top N           contexts the report lists (default 20; all: every one)\n"
    "  --threads N       threads reading the runs (default: one per core); the result is the\n"
    "                    same, bit for bit, whatever N\n"
    "  --keep-going      skips a run that cannot be read (naming it and why) instead of stopping\n"
    "  --profile        picks one profile of each input, as for the other commands\n"
    "  --force           writes folded stacks, pprof or JSON paths above 1 GiB\n",
    {{"-o", "--metric", "--cluster", "--cluster-distance", "--top", "--threads", "--profile"},
     {"--json", "--keep-going", "--force"}},
    run,
};
