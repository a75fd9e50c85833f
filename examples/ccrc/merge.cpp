// ccrc merge: many profiles into one, read and merged on every core.
#include "command.hpp"
#include "inputs.hpp"

#include <ccrc/transform/merge_all.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace {

// Counts a context in each input that has it: a "runs" column of 1s (0 at the root), unless
// the input already counts them (the output of an earlier merge --runs).
void count_runs(ccrc::profile& p) {
  if (p.find_metric("runs")) return;
  auto runs = p.column(p.add_metric("runs"));
  std::fill(runs.begin() + 1, runs.end(), 1.0);
}

int run(const cli::args& a, cli::timings& t) {
  auto out = a.value("-o");
  if (!out) throw cli::usage_error("missing -o OUT");
  cli::check_output_path(*out);
  if (a.positional().empty()) throw cli::usage_error("missing IN: the profiles to merge");
  const inputs::named_inputs named = inputs::expand(a.positional(), "merge");
  const std::vector<std::string>& paths = named.paths;
  if (paths.empty()) throw ccrc::error("no input to merge: the directories and lists given are empty");
  inputs::refuse_output_over(*out, named);
  // More threads than inputs would have nothing to do.
  const std::optional<std::uint64_t> asked = cli::whole(a, "--threads");
  const auto threads = static_cast<unsigned>(std::min<std::uint64_t>(asked.value_or(0), paths.size()));
  const bool runs = a.flag("--runs");

  t.phase("read and merge");
  inputs::batch in("merge", paths, cli::read_options_of(a), a.flag("--keep-going"));
  unsigned started = 0;
  ccrc::profile merged = ccrc::merge_all(paths.size(), [&](std::size_t i) {
    std::optional<ccrc::profile> p = in.read(i);
    if (p && runs) count_runs(*p);
    return p;
  }, {.threads = threads, .threads_started = &started});
  if (asked && started < threads)
    std::fprintf(stderr, "ccrc merge: --threads %llu: the system started %u of the %u threads wanted, no more; "
                 "they did the work\n", static_cast<unsigned long long>(*asked), started, threads);
  in.report_skipped();
  in.check_units(merged.metric_names(), "merging");
  cli::save_profile(*out, merged, t, a);
  return 0;
}

}  // namespace

const command merge_command{
    "merge",
    "merges many profiles into one, on every core",
    "usage: ccrc merge IN... -o OUT [--threads N] [--runs] [--keep-going] [--profile NAME|INDEX]\n"
    "                  [--force]\n"
    "\n"
    "Reads every IN (any format ccrc reads) and writes to OUT the profile in which each calling\n"
    "context holds the sum of its metrics over the inputs. An IN may be a profile, a directory\n"
    "(the files in it, by name) or @LIST, a file naming one input per line (a profile or a\n"
    "directory). A file named twice is merged once. OUT may not be an input. Metrics are matched\n"
    "by name; one an input lacks counts as zero there; one quantity in two units (time_us in one\n"
    "input, time_ns in another) is refused. The result is the same, context ids\n"
    "included, whatever the number of threads. OUT is written as its name asks (see convert).\n"
    "\n"
    "  --threads N    threads reading and merging (default: one per core; at most one per\n"
    "                 input; fewer, said on stderr, if the system starts no more)\n"
    "  --runs         adds a metric 'runs': how many inputs hold each context (summed, if an\n"
    "                 input is itself a merge made with --runs)\n"
    "  --keep-going   skips an input that cannot be read (naming it and why) instead of\n"
    "                 stopping at it; fails only when none can be read\n"
    "  --profile      picks one profile of each input, as for the other commands\n"
    "  --force        writes folded stacks or pprof above 1 GiB (see convert)\n",
    {{"-o", "--threads", "--profile"}, {"--runs", "--keep-going", "--force"}},
    run,
};
