// ccrc stats: the size of a profile, as in the papers' Table I.
#include "command.hpp"

#include <ccrc/algorithm/statistics.hpp>

#include <numeric>
#include <string>

namespace {

int run(const cli::args& a, cli::timings& t) {
  a.expect_at_most(1);
  ccrc::profile p = cli::load_profile(a.positional(0, "PROFILE"), t);
  t.phase("statistics");
  ccrc::tree_statistics s = ccrc::statistics(p.tree());
  std::vector<double> totals;
  for (std::size_t i = 0; i < p.metric_count(); ++i) {
    auto c = p.column(i);
    totals.push_back(std::accumulate(c.begin(), c.end(), 0.0));
  }
  t.phase("output");
  if (a.flag("--json")) {
    cli::json j;
    j.begin_object()
        .field("nodes", std::uint64_t{s.nodes})
        .field("max_depth", std::uint64_t{s.max_depth})
        .field("methods", std::uint64_t{s.methods})
        .key("metrics")
        .begin_array();
    for (std::size_t i = 0; i < totals.size(); ++i)
      j.begin_object().field("name", p.metric_name(i)).field("total", totals[i]).end_object();
    j.end_array().end_object();
    print(j.str() + "\n");
    return 0;
  }
  std::string out = "nodes      " + std::to_string(s.nodes) + "\nmax depth  " +
                    std::to_string(s.max_depth) + "\nmethods    " + std::to_string(s.methods) +
                    "\n";
  for (std::size_t i = 0; i < totals.size(); ++i)
    out += "total " + std::string(p.metric_name(i)) + "  " + cli::format_value(totals[i]) + "\n";
  print(out);
  return 0;
}

}  // namespace

const command stats_command{
    "stats",
    "number of calling contexts, maximum depth, methods and metric totals",
    "usage: ccrc stats PROFILE [--json]\n"
    "\n"
    "Prints the number of calling contexts (the synthetic root of a folded file is not one),\n"
    "the maximum depth (a top-level frame has depth 1), the number of distinct methods and the\n"
    "total of each metric.\n"
    "\n"
    "  --json   one JSON document: {\"nodes\": N, \"max_depth\": D, \"methods\": U,\n"
    "           \"metrics\": [{\"name\": \"...\", \"total\": X}, ...]}\n",
    {{}, {"--json"}},
    run,
};
