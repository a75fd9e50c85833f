// ccrc search: the calling contexts whose method name and metrics match a query.
#include "command.hpp"
#include "stack_text.hpp"

#include <ccrc/algorithm/inclusive.hpp>
#include <ccrc/algorithm/search.hpp>
#include <ccrc/io/number.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace {

// "--min-self 500" or "--min-self 5%" (a share of the profile's total).
std::optional<ccrc::threshold> threshold_of(const cli::args& a, std::string_view option) {
  auto v = a.value(option);
  if (!v) return std::nullopt;
  auto bound = ccrc::parse_threshold(*v);
  if (!bound) throw cli::usage_error(std::string(option) + " expects a number or a percentage, not '" + *v + "'");
  return bound;
}

int run(const cli::args& a, cli::timings& t) {
  a.expect_at_most(2);
  ccrc::profile p = cli::focused(cli::load_profile(a.positional(0, "PROFILE"), t, a), t, a);
  ccrc::search_query q{cli::name_query_of(a.positional(1, "QUERY"), a), threshold_of(a, "--min-self"),
                       threshold_of(a, "--min-total")};
  std::size_t m = cli::metric_index(p, a);
  std::size_t limit = cli::top_of(a, std::string::npos);
  ccrc::tree_view view = cli::view_of(p, a);

  t.phase("search");
  ccrc::search_result r = ccrc::search(view, p.column(m), q);
  std::vector<std::vector<double>> ag = ccrc::inclusive_columns(p);  // for the listed contexts
  // Hottest first: aggregated value of the metric, then the order of the profile.
  std::vector<ccrc::node_id> listed = r.nodes;
  std::stable_sort(listed.begin(), listed.end(), [&](ccrc::node_id x, ccrc::node_id y) { return ag[m][x] > ag[m][y]; });
  if (listed.size() > limit) listed.resize(limit);
  const ccrc::call_tree& tree = p.tree();
  std::vector<std::string> methods;
  for (ccrc::node_id n : r.nodes) methods.emplace_back(tree.name(n));
  std::sort(methods.begin(), methods.end());
  methods.erase(std::unique(methods.begin(), methods.end()), methods.end());

  t.phase("output");
  stack_text::abbreviator stacks(tree);  // listed paths stay short whatever the depth
  if (a.flag("--json")) {
    cli::json j([](std::string_view piece) { print(piece); });  // streamed: one context at a time
    j.begin_object()
        .field("query", q.name.text)
        .field("part", ccrc::name_of(q.name.part))
        .field("match", ccrc::name_of(q.name.match))
        .field("metric", p.metric_name(m))
        .field("total", r.total)
        .field("matches", std::uint64_t{r.nodes.size()})
        .field("covered", r.covered)
        .field("covered_percent", 100 * r.share())
        .key("methods")
        .begin_array();
    for (const auto& name : methods) j.value(name);
    j.end_array().key("contexts").begin_array();
    for (ccrc::node_id n : listed) {
      j.begin_object().field("path", stacks.path(n)).field("method", tree.name(n)).key("self").begin_object();
      for (std::size_t i = 0; i < p.metric_count(); ++i) j.field(p.metric_name(i), p.column(i)[n]);
      j.end_object().key("aggregated").begin_object();
      for (std::size_t i = 0; i < p.metric_count(); ++i) j.field(p.metric_name(i), ag[i][n]);
      j.end_object().end_object();
    }
    j.end_array().end_object();
    j.flush();
    print("\n");
    return 0;
  }
  std::string metric(p.metric_name(m));
  std::string out = "  aggregated        self  path    (" + metric + ")\n";
  for (ccrc::node_id n : listed) {
    char cols[64];
    std::snprintf(cols, sizeof cols, "%12s%12s  ", cli::format_value(ag[m][n]).c_str(),
                  cli::format_value(p.column(m)[n]).c_str());
    out += cols + stacks.path(n) + "\n";
    if (out.size() >= (std::size_t{1} << 20)) {
      print(out);
      out.clear();
    }
  }
  if (listed.size() < r.nodes.size()) out += "  ... " + std::to_string(r.nodes.size() - listed.size()) + " more\n";
  char pct[32];
  std::snprintf(pct, sizeof pct, "%.2f %%", 100 * r.share());
  out += std::to_string(r.nodes.size()) + (r.nodes.size() == 1 ? " context" : " contexts") + " of " +
         std::to_string(methods.size()) + (methods.size() == 1 ? " method" : " methods") + "; they cover " +
         cli::format_value(r.covered) + " of " + cli::format_value(r.total) + " " + metric + " (" + pct + ")\n";
  print(out);
  return 0;
}

}  // namespace

const command search_command{
    "search",
    "the calling contexts whose method name and metrics match a query",
    "usage: ccrc search PROFILE QUERY [--method | --class | --package] [--ignore-case]\n"
    "                   [--min-self X] [--min-total X] [--metric NAME] [--root 'a;b;c']\n"
    "                   [--focus NAME] [--depth N] [--top N] [--json]\n"
    "\n"
    "Lists the calling contexts whose method matches QUERY and whose metrics reach the\n"
    "thresholds, largest aggregated value first, and the share of the total they cover (a match\n"
    "inside another match counted once).\n"
    "\n"
    "QUERY, on the method's whole name (or the part chosen below):\n"
    "  TEXT       contains TEXT ('' matches every method)\n"
    "  re:REGEX   contains a match of the ECMAScript regular expression REGEX (^, $ anchor it;\n"
    "             backreferences and lookaround are not supported)\n"
    "  =NAME      is exactly NAME\n"
    "  --method, --class, --package   match that part of the name instead: a.b.C.m(args) and\n"
    "             a::b::C::m(args) have package (or namespace) a.b / a::b, class C, method m\n"
    "  --ignore-case, -i   compare ASCII letters regardless of case\n"
    "\n"
    "  --min-self X   only contexts whose self value is at least X; X% is that share of the\n"
    "                 profile's total (--min-self 5%)\n"
    "  --min-total X  the same on the aggregated value (the context and all it called)\n"
    "  --metric NAME  the metric of the thresholds, the order and the share (default: the first)\n"
    "  --focus NAME   search the contexts of the method NAME as the roots, merged\n"
    "  --root PATH    search the subtree of the calling context PATH (frames separated by ';')\n"
    "  --depth N      only N levels below the root (or below PATH)\n"
    "  --top N        list only the first N contexts (all are counted; --limit N alike)\n"
    "  --json         {\"query\": \"...\", \"part\": \"name\", \"match\": \"substring\", \"metric\": \"...\",\n"
    "                  \"total\": T, \"matches\": N, \"covered\": C, \"covered_percent\": P,\n"
    "                  \"methods\": [\"...\"], \"contexts\": [{\"path\": \"a;b\", \"method\": \"b\",\n"
    "                  \"self\": {\"metric\": X, ...}, \"aggregated\": {\"metric\": X, ...}}, ...]}\n",
    {{"--profile", "--min-self", "--min-total", "--metric", "--focus", "--root", "--depth", "--top"},
     {"--method", "--class", "--package", "--ignore-case", "-i", "--json"}},
    run,
};
