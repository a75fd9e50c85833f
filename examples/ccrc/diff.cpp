// ccrc diff: two runs compared context by context, as JSON or as Rizel's performance
// evolution blueprint (SVG).
#include "command.hpp"
#include "blueprint_svg.hpp"
#include "ring_render.hpp"
#include "stack_text.hpp"

#include <ccrc/algorithm/depth.hpp>
#include <ccrc/diff/blueprint.hpp>
#include <ccrc/diff/diff_ring.hpp>
#include <ccrc/tree/metric_unit.hpp>
#include <ccrc/geometry/hit_test.hpp>
#include <ccrc/diff/hot_path.hpp>
#include <ccrc/diff/rank.hpp>
#include <ccrc/error.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace {

// The metrics a diff reads from both profiles.
struct metrics {
  std::string name;                   // the compared metric, in OLD
  std::string new_name;               // and in NEW (the same unless --new-metric names another)
  std::size_t old_index, new_index;
  std::optional<std::string> calls;   // the invocation counts, if any
  std::size_t old_calls = 0, new_calls = 0;
};

std::size_t index_in(const ccrc::profile& p, const std::string& name, const std::string& path) {
  try {
    return p.metric_index(name);
  } catch (const ccrc::error& e) {
    throw ccrc::error(path + ": " + e.what());
  }
}

metrics choose_metrics(const ccrc::profile& old_p, const ccrc::profile& new_p, const cli::args& a,
                       const std::string& old_path, const std::string& new_path) {
  metrics m;
  if (auto calls = a.value("--calls")) {
    m.calls = *calls;
  } else if (old_p.find_metric("calls") && new_p.find_metric("calls")) {
    m.calls = "calls";
  }
  if (m.calls) {
    m.old_calls = index_in(old_p, *m.calls, old_path);
    m.new_calls = index_in(new_p, *m.calls, new_path);
  }
  if (auto name = a.value("--metric")) {
    m.name = *name;
  } else {
    m.name = old_p.metric_name(ccrc::compared_metric(old_p.metric_names(), m.calls.value_or("")));
  }
  m.new_name = a.value("--new-metric").value_or(m.name);
  m.old_index = index_in(old_p, m.name, old_path);
  m.new_index = index_in(new_p, m.new_name, new_path);
  return m;
}

// "self_ns", or "self_ns / cpu_ns" where the runs' metrics differ.
std::string label_of(const metrics& m) {
  return m.new_name == m.name ? m.name : m.name + " / " + m.new_name;
}

// One method name a line (cli::for_each_listed), each name once: the list is streamed into a
// set, so a file naming one method ten million times costs that name, not ten million lines.
std::vector<std::string> read_modified(const std::string& path) {
  std::unordered_set<std::string> names;
  cli::for_each_listed(path, "", [&](std::string_view name) { names.emplace(name); });
  std::vector<std::string> out;
  out.reserve(names.size());
  while (!names.empty()) out.push_back(std::move(names.extract(names.begin()).value()));
  return out;
}

// The contexts the blueprint displays: the delta hot path and the `top` contexts of largest
// |H| with their callers (all of them for a diff of at most `top` contexts).
std::vector<char> shown_contexts(const ccrc::cct_diff& d, const std::vector<ccrc::node_id>& top) {
  std::vector<char> shown = ccrc::hot_path_shown(d);
  for (ccrc::node_id n : top) ccrc::show_context(d, n, shown);
  return shown;
}

// Abbreviated call stacks in the diff tree and in each run.
struct run_stacks {
  stack_text::abbreviator diff, old_run, new_run;
};

// The JSON document, streamed to `out` as it is made, so that the JSON of a diff of millions
// of contexts (hundreds of megabytes) never sits in memory whole: the scalar fields, the
// contexts one object at a time, then the hot path and the top contexts. Each context names
// its caller by index and carries an abbreviated path (stack_text.hpp), so the size stays
// linear in the contexts whatever the depth.
void write_json(const cli::json::sink& out, const ccrc::cct_diff& d, const run_stacks& stacks, const metrics& m,
                const std::vector<ccrc::node_id>& hot, const std::vector<ccrc::node_id>& top, std::uint32_t max_chain) {
  const ccrc::call_tree& t = d.tree();
  const ccrc::context_matching& match = d.matching;
  cli::json j(out);
  j.begin_object().field("metric", m.name).field("new_metric", m.new_name).key("calls_metric");
  if (m.calls) j.value(*m.calls);
  else j.null();
  j.field("total_old", d.total_first)
      .field("total_new", d.total_second)
      .field("epsilon", d.epsilon)
      .field("max_chain", std::uint64_t{max_chain})
      .field("matched", std::uint64_t{match.matched})
      .field("new", std::uint64_t{match.added})
      .field("removed", std::uint64_t{match.removed})
      .field("moved", std::uint64_t{match.moved})
      .field("bound_hits", std::uint64_t{match.bound_hits})
      .key("contexts")
      .begin_array();

  // Pre-order. A run's own path differs from the diff tree's below an inserted or removed
  // method (the run's path skips the other run's methods): counted on the way down.
  constexpr std::uint64_t the_root = ~std::uint64_t{0};
  std::vector<std::uint64_t> index_of_open;  // per open node: its index in "contexts"
  std::uint64_t next_index = 0;
  std::size_t news = 0, removeds = 0;  // inserted and removed methods on the current path
  auto number_or_null = [&](bool present, double v) -> cli::json& { return present ? j.value(v) : j.null(); };
  auto enter = [&](ccrc::node_id n, std::uint32_t) {
    if (n == ccrc::root_node) {
      index_of_open.push_back(the_root);
      return;
    }
    bool in_old = match.in_first(n), in_new = match.in_second(n);
    if (!in_old) ++news;
    if (!in_new) ++removeds;
    j.begin_object().key("parent");
    if (index_of_open.back() == the_root) j.null();
    else j.value(index_of_open.back());
    j.field("method", t.name(n))
        .field("path", stacks.diff.path(n))
        .field("status", ccrc::to_string(d.status[n]))
        .key("old");
    index_of_open.push_back(next_index++);
    number_or_null(in_old, d.first[n]).key("new");
    number_or_null(in_new, d.second[n]).key("old_share");
    number_or_null(in_old, d.share_first(n)).key("new_share");
    number_or_null(in_new, d.share_second(n)).field("height", d.height[n]).field("width", d.width[n]).key("old_calls");
    number_or_null(in_old && m.calls, d.calls_first[n]).key("new_calls");
    number_or_null(in_new && m.calls, d.calls_second[n]).field("modified", d.modified(n));
    if (in_old && news > 0) j.field("old_path", stacks.old_run.path(match.first_node[n]));
    if (in_new && removeds > 0) j.field("new_path", stacks.new_run.path(match.second_node[n]));
    j.end_object();
  };
  auto leave = [&](ccrc::node_id n, std::uint32_t) {
    index_of_open.pop_back();
    if (n == ccrc::root_node) return;
    if (!match.in_first(n)) --news;
    if (!match.in_second(n)) --removeds;
  };
  ccrc::depth_first(ccrc::tree_view(t), enter, leave);

  j.end_array().key("hot_path").begin_array();
  for (ccrc::node_id n : hot) j.value(t.name(n));
  j.end_array().key("top").begin_array();
  for (ccrc::node_id n : top)
    j.begin_object()
        .field("path", stacks.diff.path(n))
        .field("status", ccrc::to_string(d.status[n]))
        .field("height", d.height[n])
        .end_object();
  j.end_array().end_object();
  j.flush();
  out("\n");
}

// ---- Text for a terminal.

// Lists the first `listed` contexts of `top`.
std::string text_of(const ccrc::cct_diff& d, const metrics& m, const std::vector<ccrc::node_id>& hot,
                    const std::vector<ccrc::node_id>& top, std::size_t listed) {
  const ccrc::context_matching& match = d.matching;
  std::string out = label_of(m) + ": " + blueprint::number_text(d.total_first) + " -> " + blueprint::number_text(d.total_second) + "\n";
  out += "contexts: " + std::to_string(match.matched) + " matched (" + std::to_string(match.moved) + " moved), " +
         std::to_string(match.added) + " new, " + std::to_string(match.removed) + " removed\n";
  if (match.bound_hits > 0)
    out += "searches for inserted or removed methods stopped at --max-chain below " +
           std::to_string(match.bound_hits) + " contexts\n";
  auto line = [&](ccrc::node_id n, std::string_view what) {
    char h[32];
    std::snprintf(h, sizeof h, "%+8.2f %%", 100 * d.height[n]);
    std::string status(ccrc::to_string(d.status[n]));
    status.resize(16, ' ');
    out += std::string("  ") + h + "  " + status + std::string(what) + "\n";
  };
  out += "\ndelta hot path (H, status, method):\n";
  for (ccrc::node_id n : hot) line(n, d.tree().name(n));
  out += "\nlargest changes of share (H, status, context):\n";
  stack_text::abbreviator stacks(d.tree());
  for (std::size_t i = 0; i < top.size() && i < listed; ++i)
    if (d.height[top[i]] != 0) line(top[i], stacks.path(top[i]));
  return out;
}

// ---- The diff ring chart: the second run's ring chart, colored by the diff's classes.

std::string ring_of(const ccrc::cct_diff& d, const ccrc::profile& new_p, const metrics& m, const std::string& new_path,
                    bool html) {
  std::vector<std::vector<double>> ag = ccrc::inclusive_columns(new_p);
  // The classes are of the second run's contexts: chains may fold, recursion stays.
  ccrc::ring_layout chart = render::layout(new_p, ag, {.metric = m.new_index, .eliminate_recursion = false}).chart;
  std::string title = "diff: " + blueprint::file_name(new_path);
  render::ring_picture pic{new_p, chart, ag, m.new_index, "angle", 1440, 900, title, {}};
  for (const ccrc::diff_ring_segment& s : ccrc::diff_ring(d, chart)) {
    pic.fills.push_back(ccrc::diff_color(s.status));
    pic.notes.push_back("H " + blueprint::percent_text(s.height, true) + ", " + std::string(ccrc::to_string(s.status)));
  }
  for (const auto& st : blueprint::styles)
    if (st.status != ccrc::diff_status::removed) pic.key.emplace_back(ccrc::hex(ccrc::diff_color(st.status)), st.label);
  return html ? render::ring_html(pic) : render::ring_svg(pic);
}

std::uint32_t whole_number(const cli::args& a, std::string_view option, double fallback) {
  double v = a.number(option).value_or(fallback);
  if (v < 0 || v != std::floor(v) || v > 1e9)
    throw cli::usage_error(std::string(option) + " expects a whole number, not '" + *a.value(option) + "'");
  return static_cast<std::uint32_t>(v);
}

int run(const cli::args& a, cli::timings& t) {
  a.expect_at_most(2);
  const std::string& old_path = a.positional(0, "OLD");
  const std::string& new_path = a.positional(1, "NEW");
  auto out_path = a.value("-o");
  std::string chart = a.value("--chart").value_or("blueprint");
  if (chart != "blueprint" && chart != "ring") throw cli::usage_error("--chart expects blueprint or ring, not '" + chart + "'");
  bool html = out_path && out_path->ends_with(".html");
  bool to_json_file = out_path && out_path->ends_with(".json");
  bool to_stdout = out_path == "-";  // the SVG
  if (out_path && !to_stdout && !out_path->ends_with(".svg") && !to_json_file && !(html && chart == "ring"))
    throw cli::usage_error("-o expects a file ending in .svg or .json (or .html with --chart ring), or -, not '" + *out_path +
                           "'");
  if (to_stdout && a.flag("--json")) throw cli::usage_error("-o - and --json both write to standard output: choose one");
  double epsilon = a.number("--epsilon").value_or(1e-4);
  if (epsilon < 0) throw cli::usage_error("--epsilon expects a number >= 0");
  std::uint32_t max_chain = whole_number(a, "--max-chain", 4);
  std::size_t top_count = cli::top_of(a, 40);
  std::vector<std::string> inputs{old_path, new_path};
  if (auto file = a.value("--modified")) inputs.push_back(*file);
  if (out_path) cli::refuse_output_over_input(*out_path, inputs);
  std::vector<std::string> modified;
  if (auto file = a.value("--modified")) modified = read_modified(*file);

  ccrc::profile old_p = cli::load_profile(old_path, t, a);
  ccrc::profile new_p = cli::load_profile(new_path, t, a);
  metrics m = choose_metrics(old_p, new_p, a, old_path, new_path);

  t.phase("diff");
  auto run_of = [&](const ccrc::profile& p, std::size_t metric, std::size_t calls) {
    return m.calls ? ccrc::diff_run(p.tree(), p.column(metric), p.column(calls)) : ccrc::diff_run(p.tree(), p.column(metric));
  };
  ccrc::cct_diff d = ccrc::diff(run_of(old_p, m.old_index, m.old_calls), run_of(new_p, m.new_index, m.new_calls),
                                {.epsilon = epsilon, .modified = modified, .matching = {.max_chain = max_chain}});
  t.phase("rank");
  std::vector<ccrc::node_id> hot = ccrc::delta_hot_path(d);
  std::vector<ccrc::node_id> top = ccrc::rank_by_height(d, top_count);

  t.phase("output");
  std::optional<cli::output> file;
  if (out_path) file.emplace(*out_path);
  if (a.flag("--json") || to_json_file)
    write_json([&](std::string_view piece) {
      if (a.flag("--json")) print(piece);
      if (to_json_file) file->stream().write(piece.data(), static_cast<std::streamsize>(piece.size()));
    }, d, run_stacks{stack_text::abbreviator(d.tree()), stack_text::abbreviator(old_p.tree()),
                     stack_text::abbreviator(new_p.tree())}, m, hot, top, max_chain);
  if (file && !to_json_file)
    file->stream() << (chart == "ring" ? ring_of(d, new_p, m, new_path, html)
                                       : blueprint::to_svg(d, label_of(m), m.calls, shown_contexts(d, top), old_path, new_path));
  if (file) file->commit();
  if (!a.flag("--json") && !out_path) print(text_of(d, m, hot, top, a.value("--top") ? top_count : 10));
  return 0;
}

}  // namespace

const command diff_command{
    "diff",
    "two runs compared context by context: JSON, or the performance evolution blueprint",
    "usage: ccrc diff OLD NEW [-o OUT.svg|OUT.json|-] [--json] [--chart blueprint|ring] [--metric NAME]\n"
    "                 [--new-metric NAME] [--calls NAME] [--modified FILE] [--epsilon X]\n"
    "                 [--max-chain N] [--top N]\n"
    "\n"
    "Matches the calling contexts of two runs (OLD, the first, and NEW, the second: two\n"
    "versions, two inputs) and compares them as Rizel's performance evolution blueprint does.\n"
    "Two contexts match when the method path of one is a subsequence of the other's, so a\n"
    "method inserted between a caller and its callee (or removed) is found. Per context:\n"
    "H = new share - old share of the run's total (> 0: slower, it takes a larger part of the\n"
    "run; < 0: faster), W = log(|new calls - old calls| + 1), and a status: slower_modified,\n"
    "slower, faster_modified, faster, new, removed or unchanged. The blueprint compares\n"
    "shares: a context that is 100 % of both runs has H = 0 however much its time grew.\n"
    "Prints a summary: the totals, the delta hot path (from the top, the callee of largest\n"
    "|H|) and the contexts of largest |H|.\n"
    "\n"
    "  -o OUT.svg      write the blueprint: boxes with height |H| and width W, callers above\n"
    "                  callees, colored by status, numbers in tooltips; it shows the delta\n"
    "                  hot path and the --top contexts with their callers\n"
    "  --chart ring    with -o OUT.svg or OUT.html: draw instead the ring chart of NEW with each\n"
    "                  segment colored by its context's status, H in the tooltips\n"
    "  -o OUT.json     write the JSON document (below) to a file\n"
    "  -o -            write the SVG (the blueprint, or the ring with --chart ring) to standard\n"
    "                  output\n"
    "  --json          print the JSON document: {\"metric\": \"...\", \"new_metric\": \"...\",\n"
    "                  \"calls_metric\": \"...\",\n"
    "                  \"total_old\": X, \"total_new\": Y, \"epsilon\": E, \"max_chain\": N,\n"
    "                  \"matched\": N, \"new\": N, \"removed\": N, \"moved\": N, \"bound_hits\": N,\n"
    "                  \"contexts\": [{\"path\": \"a;b\", \"status\": \"...\", \"old\": X1, \"new\": X2,\n"
    "                  \"old_share\": E1, \"new_share\": E2, \"height\": H, \"width\": W,\n"
    "                  \"old_calls\": C1, \"new_calls\": C2, \"modified\": false}, ...],\n"
    "                  \"hot_path\": [\"a\", \"b\", ...], \"top\": [{\"path\", \"status\", \"height\"}]}\n"
    "                  (null for a value of a run the context is absent from)\n"
    "  --metric NAME   the metric compared (default: of those that are not the counts, the\n"
    "                  first that measures time, else samples, else the first)\n"
    "  --new-metric NAME  NEW's metric, where the runs name it differently (default: the\n"
    "                  same as --metric): an instrumented self_ns against a sampled cpu_ns\n"
    "  --calls NAME    the invocation counts, for W (default: 'calls' if both runs have it;\n"
    "                  without counts every width is 0)\n"
    "  --modified FILE the methods whose source changed, one name a line ('#' comments)\n"
    "  --epsilon X     |H| below X is unchanged (default 0.0001: a hundredth of a percent)\n"
    "  --max-chain N   the longest chain of inserted or removed methods searched (default 4)\n"
    "  --top N|all     how many contexts of largest |H| to list and show (default: 10 listed,\n"
    "                  40 shown in the blueprint and in the JSON's \"top\")\n",
    {{"--profile", "-o", "--chart", "--metric", "--new-metric", "--calls", "--modified", "--epsilon", "--max-chain", "--top"}, {"--json"}},
    run,
};
