// ccrc flat: the flat profile, one line per method.
#include "command.hpp"

#include <ccrc/algorithm/flat.hpp>

#include <cstdio>
#include <string>

namespace {

int run(const cli::args& a, cli::timings& t) {
  a.expect_at_most(1);
  ccrc::profile p = cli::load_profile(a.positional(0, "PROFILE"), t, a);
  std::size_t m = cli::metric_index(p, a);
  ccrc::tree_view view = cli::view_of(p, a);
  t.phase("flat");
  auto entries = ccrc::flat(view, p.column(m));
  double total = 0;
  for (const auto& e : entries) total += e.self;
  t.phase("output");
  const ccrc::symbol_table& syms = p.symbols();
  auto name = [&](ccrc::method_id id) {
    return id == 0 ? std::string_view("(root)") : syms.method_name(id);
  };
  if (a.flag("--json")) {
    cli::json j;
    j.begin_object().field("metric", p.metric_name(m)).field("total", total).key("methods").begin_array();
    for (const auto& e : entries)
      j.begin_object().field("name", name(e.method)).field("self", e.self).field("percent", e.percent).end_object();
    j.end_array().end_object();
    print(j.str() + "\n");
    return 0;
  }
  std::string out = "  percent  " + std::string(p.metric_name(m)) + "  method\n";
  for (const auto& e : entries) {
    char pct[32];
    std::snprintf(pct, sizeof pct, "%8.2f %%", e.percent);
    out += std::string(pct) + "  " + cli::format_value(e.self) + "  " + std::string(name(e.method)) + "\n";
  }
  out += "total " + cli::format_value(total) + "\n";
  print(out);
  return 0;
}

}  // namespace

const command flat_command{
    "flat",
    "the flat profile: the self metric summed per method",
    "usage: ccrc flat PROFILE [--metric NAME] [--root 'a;b;c'] [--depth N] [--json]\n"
    "\n"
    "Sums the self value of the metric over all calling contexts of each method (calling\n"
    "contexts discarded) and prints the methods by decreasing value, ties by name.\n"
    "\n"
    "  --metric NAME  the metric to sum (default: the profile's first metric)\n"
    "  --root PATH    only the subtree of the calling context PATH (frames separated by ';')\n"
    "  --depth N      only N levels below the root (or below PATH)\n"
    "  --json         {\"metric\": \"...\", \"total\": X,\n"
    "                  \"methods\": [{\"name\": \"...\", \"self\": X, \"percent\": P}, ...]}\n",
    {{"--profile", "--metric", "--root", "--depth"}, {"--json"}},
    run,
};
