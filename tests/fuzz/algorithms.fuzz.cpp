// libFuzzer harness: reads a folded input (at most 64 KB, so that one run stays short) and runs
// the main algorithms on it: inclusive values, statistics, recursion elimination under every
// policy, the call graph and its display tree, ring charts with and without a ring_index,
// search by substring (swept, and through the indexes, highlighted from marks and by walking
// up) and by regular expression, a diff against a perturbed copy, and the
// write_folded/read_folded round trip. A ccrc::error is the expected answer to bad input (or
// a bad pattern); anything else is a finding, as is a broken property checked here.
//
// The pattern searched for: the rest of the first line if it is a comment ("# re"), else the
// first frame name, so the fuzzer controls it.
#include "fuzz.hpp"

#include <ccrc/algorithm/depth.hpp>
#include <ccrc/algorithm/inclusive.hpp>
#include <ccrc/algorithm/regex.hpp>
#include <ccrc/algorithm/search.hpp>
#include <ccrc/algorithm/statistics.hpp>
#include <ccrc/diff/diff.hpp>
#include <ccrc/diff/match.hpp>
#include <ccrc/error.hpp>
#include <ccrc/geometry/highlight.hpp>
#include <ccrc/geometry/ring_chart.hpp>
#include <ccrc/geometry/ring_index.hpp>
#include <ccrc/graph/call_graph.hpp>
#include <ccrc/graph/display_tree.hpp>
#include <ccrc/io/folded.hpp>
#include <ccrc/transform/eliminate_recursion.hpp>
#include <ccrc/tree/view.hpp>

#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>

namespace {

constexpr std::size_t max_input = 64 * 1024;

std::string pattern_of(std::string_view text) {
  std::string_view line = text.substr(0, text.find('\n'));
  if (line.starts_with("#")) return std::string(line.substr(std::min<std::size_t>(line.size(), 2)));
  return std::string(line.substr(0, line.find_first_of("; ")));
}

// A deterministic pseudo-random number per node, from the input's size: which perturbation
// a node gets.
std::uint32_t mix(std::uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return static_cast<std::uint32_t>(x);
}

// A "next version" of p: some inner frames dropped (their callees move up), a fresh frame
// inserted above some nodes, some values doubled. Parents come before children in node ids.
ccrc::profile perturbed(const ccrc::profile& p, std::uint64_t seed) {
  const ccrc::call_tree& t = p.tree();
  ccrc::profile q(p.metric_names());
  std::vector<ccrc::node_id> map(t.size(), ccrc::root_node);
  for (ccrc::node_id n = 1; n < t.size(); ++n) {
    std::uint32_t r = mix(seed * 0x9e3779b97f4a7c15ULL + n);
    ccrc::node_id at = map[t.parent(n)];
    if (r % 7 == 0) at = q.find_or_add_child(at, q.intern("inserted" + std::to_string(r % 3)));
    if (r % 5 == 0 && t.has_children(n)) {
      map[n] = at;  // dropped: its metrics go to its caller
    } else {
      map[n] = q.find_or_add_child(at, q.intern(t.name(n)));
    }
    for (std::size_t m = 0; m < p.metric_count(); ++m) q.column(m)[map[n]] += p.column(m)[n] * (r % 3 == 0 ? 2 : 1);
  }
  return q;
}

void run_algorithms(const ccrc::profile& p, std::string_view text) {
  const ccrc::call_tree& t = p.tree();
  const ccrc::tree_view view(t);
  const ccrc::tree_statistics stats = ccrc::statistics(view);
  fuzz::check(stats.nodes + 1 == t.size());
  const std::vector<std::uint32_t> heights = ccrc::heights(t);
  fuzz::check(heights[ccrc::root_node] == stats.max_depth);

  for (auto policy : {ccrc::recursion::all, ccrc::recursion::direct, ccrc::recursion::drop_repeats}) {
    auto flat = ccrc::eliminate_recursion(p, policy);
    fuzz::check(flat.node_map.size() == t.size());
    fuzz::check(flat.output.tree().size() <= t.size());
    for (std::size_t m = 0; m < p.metric_count(); ++m)
      fuzz::check(fuzz::same_total(fuzz::total(p, m), fuzz::total(flat.output, m)));
    ccrc::tree_statistics s = ccrc::statistics(flat.output.tree());
    if (policy != ccrc::recursion::direct) fuzz::check(s.max_depth <= s.methods);
    fuzz::check(s.max_depth <= stats.max_depth);
  }

  if (p.metric_count() == 0) return;
  const std::size_t metric = p.metric_count() - 1;
  std::vector<double> ag = ccrc::inclusive(t, p.column(metric));

  ccrc::call_graph g(p);
  auto shown = ccrc::display_tree(p, g, metric);
  fuzz::check(shown.edge_of.size() == shown.output.tree().size());

  ccrc::tree_view ring_view = ccrc::ring_chart_view(view, ag);
  ccrc::ring_layout plain = ccrc::ring_chart(ring_view, ag, ccrc::on_canvas(800, 600, {.heights = heights}));
  ccrc::ring_index index(t, ag);
  ccrc::ring_layout indexed_chart = ccrc::ring_chart(ring_view, ag, ccrc::on_canvas(800, 600, {.index = &index}));
  ccrc::ring_layout leaves = ccrc::ring_chart(view, ag, {.sizing = ccrc::ring_sizing::area, .min_arc_px = 0});
  (void)plain;
  (void)leaves;

  const std::string pattern = pattern_of(text);
  const ccrc::search_query query{.name = {.text = pattern, .ignore_case = true}};
  ccrc::search_result swept = ccrc::search(view, p.column(metric), query);
  // Through the indexes a viewer keeps: the same contexts and share; highlighted from marks
  // as by walking up from every match.
  ccrc::preorder_index order(t);
  ccrc::search_result indexed = ccrc::search(ccrc::method_contexts(t), order, t, p.column(metric), ag, query);
  fuzz::check(indexed.nodes == swept.nodes);
  double scale = 0;  // the sums differ in order (ids, preorder): by rounding only
  for (ccrc::node_id n : indexed.nodes) scale += std::abs(ag[n]);
  fuzz::check(!std::isfinite(scale) || std::abs(indexed.covered - swept.covered) <= 1e-9 * scale);
  fuzz::check(ccrc::highlight(indexed_chart, t, ag, ccrc::highlight_marks(order, indexed.nodes)) ==
              ccrc::highlight(indexed_chart, t, ag, indexed.nodes));
  try {
    (void)ccrc::search(view, p.column(metric), {.name = {.text = pattern, .match = ccrc::name_match::regex}});
  } catch (const ccrc::error&) {
    // a pattern the regex engine refuses
  }

  ccrc::profile next = perturbed(p, text.size());
  ccrc::cct_diff d = ccrc::diff({t, p.column(metric), p.column(0)}, {next.tree(), next.column(metric), next.column(0)});
  fuzz::check(d.matching.from_first.size() == t.size());
  fuzz::check(d.matching.from_second.size() == next.tree().size());
  for (ccrc::node_id n = 0; n < t.size(); ++n) fuzz::check(d.matching.first_node[d.matching.from_first[n]] == n);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > max_input) return 0;
  const std::string_view text = fuzz::text_of(data, size);
  ccrc::profile p;
  try {
    p = ccrc::read_folded(text, {.allow_negative = true});
  } catch (const ccrc::error&) {
    return 0;
  }
  run_algorithms(p, text);

  std::ostringstream out;
  ccrc::write_folded(out, p);
  fuzz::check_round_trip(p, ccrc::read_folded(out.str(), {.allow_negative = true}), false);
  return 0;
}
