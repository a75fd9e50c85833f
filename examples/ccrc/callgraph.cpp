// ccrc callgraph: the call graph with recursion-safe self and total costs, and master callers.
#include "command.hpp"

#include <ccrc/graph/display_tree.hpp>
#include <ccrc/graph/query.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace {

using graph = ccrc::call_graph<double>;

// What the report shows: one metric, and invocation counts if the profile has a "calls" metric.
struct report {
  const graph& g;
  std::size_t metric;
  std::optional<std::size_t> calls;
  std::vector<ccrc::edge_id> masters;

  [[nodiscard]] std::string_view name(ccrc::method_id f) const {
    return f == ccrc::root_method ? std::string_view("(top level)") : g.name(f);
  }
};

// The functions to report: all, --top N of them by total, or --function NAME.
std::vector<ccrc::function_entry<double>> selected(const report& r, const cli::args& a) {
  ccrc::top_options options{.by = ccrc::rank_by::total, .metric = r.metric};
  options.count = cli::top_of(a, options.count);
  if (auto name = a.value("--function")) {
    auto f = r.g.symbols().find_method(*name);
    if (!f || !r.g.contains(*f)) throw ccrc::error("no function '" + *name + "' in the profile");
    return {ccrc::function_costs(r.g, *f, r.metric)};
  }
  return ccrc::top_functions(r.g, options);
}

void json_call(cli::json& j, const report& r, const ccrc::call_entry<double>& c, std::string_view key) {
  j.begin_object().field(key, r.name(c.function)).field("self", c.self).field("total", c.total);
  j.field("contexts", std::uint64_t{c.contexts});
  if (r.calls) j.field("calls", r.g.edge_self(c.edge, *r.calls));
  j.end_object();
}

// Streamed to stdout as it is made: one entry per function and per call, so the whole document
// of a large graph never sits in memory.
void print_json(const report& r, const std::vector<ccrc::function_entry<double>>& functions, std::string_view metric_name) {
  const graph& g = r.g;
  cli::json j([](std::string_view piece) { print(piece); });
  j.begin_object().field("metric", metric_name).field("total", g.tree_total(r.metric)).key("functions").begin_array();
  for (const auto& e : functions) {
    ccrc::method_id master = g.edge(r.masters[e.function]).caller;
    j.begin_object().field("name", g.name(e.function)).field("self", e.self).field("total", e.total);
    j.field("self_percent", e.self_percent).field("total_percent", e.total_percent);
    j.field("contexts", std::uint64_t{e.contexts});
    if (r.calls) j.field("calls", g.self(e.function, *r.calls));
    j.field("top_level", g.is_top_level(e.function)).key("master");
    if (master == ccrc::root_method)
      j.null();
    else
      j.value(g.name(master));
    j.key("callers").begin_array();
    for (const auto& c : ccrc::callers(g, e.function, r.metric))
      if (c.function != ccrc::root_method) json_call(j, r, c, "name");
    j.end_array().key("callees").begin_array();
    for (const auto& c : ccrc::callees(g, e.function, r.metric)) json_call(j, r, c, "name");
    j.end_array().end_object();
  }
  j.end_array().key("edges").begin_array();
  // Calls in order of decreasing total, then self, then caller and callee names; the
  // top-level entries are not calls between two functions.
  std::vector<ccrc::edge_id> edges = ccrc::ranked_edges(g, r.metric);
  std::erase_if(edges, [&](ccrc::edge_id e) { return g.edge(e).caller == ccrc::root_method; });
  for (ccrc::edge_id e : edges) {
    j.begin_object().field("caller", g.name(g.edge(e).caller)).field("callee", g.name(g.edge(e).callee));
    j.field("self", g.edge_self(e, r.metric)).field("total", g.edge_total(e, r.metric));
    j.field("contexts", std::uint64_t{g.edge(e).contexts});
    if (r.calls) j.field("calls", g.edge_self(e, *r.calls));
    j.end_object();
  }
  j.end_array().end_object();
  j.flush();
  print("\n");
}

std::string cell(double v) { return cli::format_value(v); }

std::string row(const std::string& total_pct, const std::string& self_pct, double total, double self,
                const std::string& count, char mark, std::string_view indent, std::string_view name) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "%8s %7s %12s %12s %12s %14s %c ", total_pct.c_str(), self_pct.c_str(),
                cell(total).c_str(), cell(self).c_str(), cell(total - self).c_str(), count.c_str(), mark);
  return std::string(buf) + std::string(indent) + std::string(name) + "\n";
}

std::string percent(double p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f%%", p);
  return buf;
}

// ruby-prof's graph report: per function, its callers, the function with its share of the
// total, its callees; "calls" is this call's count over the function's (or the callee's) own.
// Printed a megabyte at a time.
void print_text(const report& r, const std::vector<ccrc::function_entry<double>>& functions, std::string_view metric_name) {
  const graph& g = r.g;
  auto count = [&](ccrc::edge_id e, ccrc::method_id of) {
    if (r.calls) return cell(g.edge_self(e, *r.calls)) + "/" + cell(g.self(of, *r.calls));
    return std::to_string(g.edge(e).contexts) + "/" + std::to_string(g.contexts(of));
  };
  std::string rule(80, '-');
  std::string out = "call graph of " + std::string(metric_name) + ": total " + cell(g.tree_total(r.metric)) + ", " +
                    std::to_string(g.functions().size()) + " functions, " +
                    std::to_string(g.edges().size() - g.out_edges(ccrc::root_method).size()) + " calls between them\n\n";
  char head[160];
  std::snprintf(head, sizeof head, "%8s %7s %12s %12s %12s %14s   name\n", "%total", "%self", "total", "self", "child",
                r.calls ? "calls" : "contexts");
  out += head + rule + "\n";
  for (const auto& e : functions) {
    for (const auto& c : ccrc::callers(g, e.function, r.metric))
      out += row("", "", c.total, c.self, count(c.edge, e.function), r.masters[e.function] == c.edge ? '*' : ' ',
                 "  ", r.name(c.function));
    std::string own = r.calls ? cell(g.self(e.function, *r.calls)) : std::to_string(e.contexts);
    out += row(percent(e.total_percent), percent(e.self_percent), e.total, e.self, own, ' ', "", g.name(e.function));
    for (const auto& c : ccrc::callees(g, e.function, r.metric))
      out += row("", "", c.total, c.self, count(c.edge, c.function), ' ', "    ", g.name(c.function));
    out += rule + "\n";
    if (out.size() >= (std::size_t{1} << 20)) {
      print(out);
      out.clear();
    }
  }
  out += "* the caller whose node is the function's master in the display tree; a top-level function is its own.\n";
  print(out);
}

int run(const cli::args& a, cli::timings& t) {
  a.expect_at_most(1);
  ccrc::profile p = cli::load_profile(a.positional(0, "PROFILE"), t, a);
  std::size_t metric = cli::metric_index(p, a);
  t.phase("call_graph");
  graph g(p);
  t.phase("masters");
  report r{g, metric, p.find_metric("calls"), ccrc::master_calls(g, metric)};
  t.phase("output");
  auto functions = selected(r, a);
  if (a.flag("--json")) print_json(r, functions, p.metric_name(metric));
  else print_text(r, functions, p.metric_name(metric));
  return 0;
}

}  // namespace

const command callgraph_command{
    "callgraph",
    "the call graph: self and total cost per function and call, recursion counted once",
    "usage: ccrc callgraph PROFILE [--metric NAME] [--top N] [--function NAME] [--json]\n"
    "\n"
    "Merges the calling contexts of each function into one vertex (Kaes's call graph). Per\n"
    "function: self, its own cost in all its contexts; total, the cost of its outermost\n"
    "contexts with their callees, so recursion is counted once. Per call caller -> callee:\n"
    "the callee's self and total cost in the calls from that caller (total at the outermost\n"
    "such call on each path). The master of a function is the caller under which the display\n"
    "tree expands it: the caller with the largest (total, name), cycles broken as documented.\n"
    "Text output: one block per function, largest total first: its callers, the function, its\n"
    "callees (ruby-prof's graph report); calls are counted by a metric named 'calls' if the\n"
    "profile has one, else by calling contexts.\n"
    "\n"
    "  --metric NAME    the metric of the costs (default: the profile's first metric)\n"
    "  --top N          only the N functions with the largest total (default: all)\n"
    "  --function NAME  only this function\n"
    "  --json           {\"metric\": \"...\", \"total\": X, \"functions\": [{\"name\": \"...\", \"self\": X,\n"
    "                   \"total\": X, \"self_percent\": P, \"total_percent\": P, \"contexts\": N,\n"
    "                   [\"calls\": N,] \"top_level\": B, \"master\": \"caller\" or null,\n"
    "                   \"callers\": [{\"name\": \"...\", \"self\": X, \"total\": X, \"contexts\": N\n"
    "                   [, \"calls\": N]}, ...], \"callees\": [...]}, ...],\n"
    "                   \"edges\": [{\"caller\": \"...\", \"callee\": \"...\", \"self\": X, \"total\": X,\n"
    "                   \"contexts\": N [, \"calls\": N]}, ...]}\n",
    {{"--profile", "--metric", "--top", "--function"}, {"--json"}},
    run,
};
