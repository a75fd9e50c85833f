// ccrc flat: the flat profile, one line per method: self and total.
#include "command.hpp"

#include <ccrc/algorithm/flat.hpp>

#include <cmath>
#include <cstdio>
#include <string>

namespace {

int run(const cli::args& a, cli::timings& t) {
  a.expect_at_most(1);
  std::size_t top = cli::top_of(a, 20);
  ccrc::profile p = cli::focused(cli::load_profile(a.positional(0, "PROFILE"), t, a), t, a);
  std::size_t m = cli::metric_index(p, a);
  ccrc::tree_view view = cli::view_of(p, a);
  t.phase("flat");
  auto column = p.column(m);
  std::vector<double> totals = ccrc::per_method_total(view, column);
  auto entries = ccrc::flat(view, column);
  double total = 0;
  for (const auto& e : entries) total += e.self;
  const std::size_t left_out = entries.size() > top ? entries.size() - top : 0;
  entries.resize(entries.size() - left_out);
  t.phase("output");
  const ccrc::symbol_table& syms = p.symbols();
  auto name = [&](ccrc::method_id id) {
    return id == 0 ? std::string_view("(root)") : syms.method_name(id);
  };
  auto share = [&](double v) { return total == 0 || !std::isfinite(total) ? 0.0 : 100 * v / total; };
  if (a.flag("--json")) {
    cli::json j;
    j.begin_object().field("metric", p.metric_name(m)).field("total", total).key("methods").begin_array();
    for (const auto& e : entries)
      j.begin_object()
          .field("name", name(e.method))
          .field("self", e.self)
          .field("percent", e.percent)
          .field("total", totals[e.method])
          .field("total_percent", share(totals[e.method]))
          .end_object();
    j.end_array().field("left_out", std::uint64_t{left_out}).end_object();
    print(j.str() + "\n");
    return 0;
  }
  std::string metric(p.metric_name(m));
  char head[160];
  std::snprintf(head, sizeof head, "%14s %8s %14s %8s  method    (%s)\n", "self", "self%", "total", "total%", metric.c_str());
  std::string out = head;
  for (const auto& e : entries) {
    char row[160];
    std::snprintf(row, sizeof row, "%14s %7.2f%% %14s %7.2f%%  ", cli::format_value(e.self).c_str(), e.percent,
                  cli::format_value(totals[e.method]).c_str(), share(totals[e.method]));
    out += row + std::string(name(e.method)) + "\n";
  }
  if (left_out > 0) out += "  ... " + std::to_string(left_out) + " more (--top N or --top all to list them)\n";
  out += "total " + cli::format_value(total) + "\n";
  print(out);
  return 0;
}

}  // namespace

const command flat_command{
    "flat",
    "the flat profile: self and total per method, recursion counted once",
    "usage: ccrc flat PROFILE [--metric NAME] [--top N|all] [--focus NAME] [--root 'a;b;c'] [--depth N]\n"
    "                 [--json]\n"
    "\n"
    "Per method, over all its calling contexts: self, the sum of its own values; total, the\n"
    "sum over its outermost contexts of everything they did (a recursive method's inner\n"
    "contexts are inside an outer one: recursion counted once), each with its share of the\n"
    "view's total. Methods by decreasing self, ties by name; the first 20, and how many are\n"
    "left out.\n"
    "\n"
    "  --metric NAME  the metric (default: the first that measures time, else samples, else\n"
    "                 the profile's first)\n"
    "  --top N        list N methods (default 20; all: every method)\n"
    "  --focus NAME   the contexts of the method NAME as the roots, merged\n"
    "  --root PATH    only the subtree of the calling context PATH (frames separated by ';')\n"
    "  --depth N      only N levels below the root (or below PATH)\n"
    "  --json         {\"metric\": \"...\", \"total\": X, \"methods\": [{\"name\": \"...\", \"self\": X,\n"
    "                  \"percent\": P, \"total\": X, \"total_percent\": P}, ...], \"left_out\": N}\n",
    {{"--profile", "--metric", "--top", "--focus", "--root", "--depth"}, {"--json"}},
    run,
};
