// ccrc stats: the size of a profile, before and after recursion elimination (Table I).
#include "command.hpp"

#include <ccrc/algorithm/statistics.hpp>
#include <ccrc/transform/eliminate_recursion.hpp>

#include <string>

namespace {

// The top-level context [lost], in which the profilers count what they could not record
// (libccrc_instrument: calls of signal handlers; libccrc_sample: samples), or null_node.
ccrc::node_id lost_context(const ccrc::profile& p) {
  auto f = p.symbols().find("[lost]");
  return f ? p.tree().find_child(ccrc::root_node, *f) : ccrc::null_node;
}

int run(const cli::args& a, cli::timings& t) {
  a.expect_at_most(1);
  ccrc::read_result read = cli::load(a.positional(0, "PROFILE"), t, a);
  read.profile = cli::focused(std::move(read.profile), t, a);
  const ccrc::profile& p = read.profile;
  std::string format(ccrc::name_of(read.detected));
  if (read.gzip) format += ", gzip";
  ccrc::tree_view view = cli::view_of(p, a);
  t.phase("statistics");
  ccrc::tree_statistics s = ccrc::statistics(view);
  std::vector<double> totals(p.metric_count());
  ccrc::preorder(view, [&](ccrc::node_id n, std::uint32_t) {
    for (std::size_t i = 0; i < totals.size(); ++i) totals[i] += p.column(i)[n];
  });
  t.phase("eliminate_recursion");
  auto flat = ccrc::eliminate_recursion(p);
  ccrc::tree_view flat_view(flat.output.tree(), flat.node_map[view.root()], view.max_depth());
  ccrc::tree_statistics r = ccrc::statistics(flat_view);
  ccrc::node_id lost = lost_context(p);
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
    j.end_array()
        .key("recursion_free")
        .begin_object()
        .field("nodes", std::uint64_t{r.nodes})
        .field("max_depth", std::uint64_t{r.max_depth})
        .end_object()
        .field("format", format)
        .key("profiles")
        .begin_array();
    for (const std::string& name : read.profiles) j.value(name);
    j.end_array().key("lost").begin_object();
    for (std::size_t i = 0; lost != ccrc::null_node && i < totals.size(); ++i)
      j.field(p.metric_name(i), p.column(i)[lost]);
    j.end_object().end_object();
    print(j.str() + "\n");
    return 0;
  }
  std::string out = "nodes      " + std::to_string(s.nodes) + "\nmax depth  " + std::to_string(s.max_depth) +
                    "\nmethods    " + std::to_string(s.methods) + "\n";
  for (std::size_t i = 0; i < totals.size(); ++i)
    out += "total " + std::string(p.metric_name(i)) + "  " + cli::format_value(totals[i]) + "\n";
  if (lost != ccrc::null_node) {
    out += "lost      ";
    for (std::size_t i = 0; i < totals.size(); ++i)
      out += (i ? ", " : " ") + std::string(p.metric_name(i)) + " " + cli::format_value(p.column(i)[lost]);
    out += " (in [lost]: what the profiler could not record)\n";
  }
  out += "without recursion: nodes " + std::to_string(r.nodes) + ", max depth " + std::to_string(r.max_depth) + "\n";
  out += "format     " + format + "\n";
  for (std::size_t i = 0; i < read.profiles.size(); ++i)
    out += "profile " + std::to_string(i) + "  " + read.profiles[i] + "\n";
  print(out);
  return 0;
}

}  // namespace

const command stats_command{
    "stats",
    "calling contexts, depth, methods and totals, before and after recursion elimination",
    "usage: ccrc stats PROFILE [--profile NAME|INDEX] [--focus NAME] [--root 'a;b;c'] [--depth N]\n"
    "                  [--json]\n"
    "\n"
    "Prints the number of calling contexts (the synthetic root of a folded file is not one),\n"
    "the maximum depth (a top-level frame has depth 1), the number of distinct methods, the\n"
    "total of each metric, what the profiler could not record if it says so (the top-level\n"
    "context [lost] of libccrc_instrument and libccrc_sample), and the number of contexts and\n"
    "depth once recursion is eliminated\n"
    "(the papers' Figure 8: no method repeats on a call path), then the file's format and,\n"
    "for a file of several profiles (threads, processes), their names and indices.\n"
    "\n"
    "  --profile NAME|INDEX  only that profile of a file of several\n"
    "  --focus NAME the contexts of the method NAME as the roots, merged\n"
    "  --root PATH  only the subtree of the calling context PATH (frames separated by ';');\n"
    "               without recursion: the subtree of the context PATH maps to\n"
    "  --depth N    only N levels below the root (or below PATH)\n"
    "  --json       one JSON document: {\"nodes\": N, \"max_depth\": D, \"methods\": U,\n"
    "               \"metrics\": [{\"name\": \"...\", \"total\": X}, ...],\n"
    "               \"recursion_free\": {\"nodes\": N, \"max_depth\": D},\n"
    "               \"format\": \"...\", \"profiles\": [\"...\", ...],\n"
    "               \"lost\": {\"METRIC\": X, ...} (empty without [lost])}\n",
    {{"--profile", "--focus", "--root", "--depth"}, {"--json"}},
    run,
};
