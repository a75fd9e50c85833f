// The ring-chart viewer's WebAssembly module: the library behind a small C ABI for viewer.js.
// Not part of the library. Every computation the page shows happens here (reading, ring_chart,
// hit_test, search, highlight, flat, eliminate_recursion, display_tree, fit_label); the page only draws the
// numbers it is handed and wires the controls.
//
// The page and the module exchange records in the module's memory (state.hpp: layout_request,
// layout_result, search_request), described to the page by ccrc_contract(). Strings and arrays
// handed out stay valid until the next call that changes them: a layout's record, its segment
// arrays and texts until the next ccrc_layout, a returned string until the next call returning one.
#include <ccrc/algorithm/display_name.hpp>
#include <ccrc/algorithm/flat.hpp>
#include <ccrc/algorithm/inclusive.hpp>
#include <ccrc/algorithm/name_parts.hpp>
#include <ccrc/algorithm/regex.hpp>
#include <ccrc/algorithm/search.hpp>
#include <ccrc/geometry/color.hpp>
#include <ccrc/geometry/first_view.hpp>
#include <ccrc/geometry/highlight.hpp>
#include <ccrc/geometry/hit_test.hpp>
#include <ccrc/geometry/icicle.hpp>
#include <ccrc/geometry/label.hpp>
#include <ccrc/geometry/ring_chart.hpp>
#include <ccrc/geometry/ring_index.hpp>
#include <ccrc/geometry/tooltip.hpp>
#include <ccrc/io/number.hpp>
#include <ccrc/io/read_profile.hpp>
#include <ccrc/diff/diff_ring.hpp>
#include <ccrc/ensemble/profile.hpp>
#include <ccrc/graph/display_tree.hpp>
#include <ccrc/transform/eliminate_recursion.hpp>
#include <ccrc/tree/metric_unit.hpp>
#include <ccrc/tree/path.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "state.hpp"

namespace viewer_module {
namespace {

// An icicle's rows are at most this high, as a flame graph's, whatever the canvas (as `ccrc
// render --layout icicle` draws them).
constexpr double max_row_px = 24;

// The contract's segment kinds serve both charts.
static_assert(static_cast<int>(ccrc::icicle_kind::root) == static_cast<int>(ccrc::segment_kind::center) &&
              static_cast<int>(ccrc::icicle_kind::box) == static_cast<int>(ccrc::segment_kind::arc) &&
              static_cast<int>(ccrc::icicle_kind::line) == static_cast<int>(ccrc::segment_kind::line));

// Writes a segment's place into its floats: a ring segment's radii and angles, or an icicle
// box's edges.
void put_geometry(float* f, const ccrc::ring_segment& s) {
  f[field(float_fields, "r0")] = static_cast<float>(s.r0);
  f[field(float_fields, "r1")] = static_cast<float>(s.r1);
  f[field(float_fields, "a0")] = static_cast<float>(s.a0);
  f[field(float_fields, "a1")] = static_cast<float>(s.a1);
}

void put_geometry(float* f, const ccrc::icicle_segment& s) {
  f[field(float_fields, "x0")] = static_cast<float>(s.x0);
  f[field(float_fields, "x1")] = static_cast<float>(s.x1);
  f[field(float_fields, "y0")] = static_cast<float>(s.y0);
  f[field(float_fields, "y1")] = static_cast<float>(s.y1);
}

int put_label(float* f, const ccrc::ring_label& l) {
  f[field(float_fields, "label_radius")] = static_cast<float>(l.radius);
  f[field(float_fields, "label_angle")] = static_cast<float>(l.angle);
  return (l.fit == ccrc::label_fit::along ? label_codes::along : label_codes::across) + (l.reversed ? label_codes::reversed : 0);
}

int put_label(float* f, const ccrc::box_label& l) {
  f[field(float_fields, "label_x")] = static_cast<float>(l.x);
  f[field(float_fields, "label_y")] = static_cast<float>(l.y);
  return label_codes::along;
}

// The label of a segment (ccrc::fit_label of ccrc::segment_name: the frame's display name, a
// chain's first … last): appends its text to `texts`, writes its font and place into the
// segment's floats and returns its code for the page (label_codes).
template <class Segment>
int label_of(const ccrc::call_tree& t, const Segment& s, float* f, std::string& texts) {
  // Most segments of a large chart have no room for a label: no name is shortened for them.
  if (ccrc::fit_label(s, "xxxx").fit == ccrc::label_fit::none) return 0;
  std::string name = ccrc::segment_name(t, s);
  auto l = ccrc::fit_label(s, name);
  if (l.fit == ccrc::label_fit::none) return 0;
  texts += l.text(name);
  texts += '\n';
  f[field(float_fields, "label_font")] = static_cast<float>(l.font_px);
  return put_label(f, l);
}

// Brings v.diff up to date for the tree and metric shown; leaves it empty (and says why in
// compare_note) where there is no comparison to draw.
void update_diff() {
  viewer& v = the();
  v.compare_note.clear();
  if (!v.baseline) {
    v.diff.reset();
    return;
  }
  if (v.current != v.original.get()) {
    v.compare_note = "the comparison is of the calling contexts as read";
    return;
  }
  std::string_view name = v.current->profile.metric_name(v.metric);
  // A run and an ensemble compare the run's metric with the ensemble's mean of it (`time_us`
  // with `time_us_mean`): the run against the mean run.
  auto first_metric = ccrc::counterpart_metric(v.baseline->metric_names(), name);
  if (!first_metric) {
    v.compare_note = "the first run has no metric '" + std::string(name) + "'";
    return;
  }
  if (v.diff && v.diff_metric == v.metric) return;
  const ccrc::profile& second = v.current->profile;
  v.diff = ccrc::diff({v.baseline->tree(), v.baseline->column(*first_metric)}, {second.tree(), second.column(v.metric)});
  v.diff_metric = v.metric;
  constexpr ccrc::diff_status all[] = {ccrc::diff_status::unchanged,       ccrc::diff_status::slower,
                                       ccrc::diff_status::slower_modified, ccrc::diff_status::faster,
                                       ccrc::diff_status::faster_modified, ccrc::diff_status::added,
                                       ccrc::diff_status::removed};
  std::size_t counts[std::size(all)] = {};
  for (ccrc::node_id d = 1; d < v.diff->tree().size(); ++d) ++counts[static_cast<std::size_t>(v.diff->status[d])];
  v.diff_counts = "{\"state\":\"on\",\"counts\":{";
  for (std::size_t i = 0; i < std::size(all); ++i) {
    if (i) v.diff_counts += ',';
    ccrc::append_json_string(v.diff_counts, ccrc::to_string(all[i]));
    v.diff_counts += ':' + std::to_string(counts[static_cast<std::size_t>(all[i])]);
  }
  v.diff_counts += "}}";
}

bool comparing() {
  const viewer& v = the();
  return v.diff && v.compare_note.empty();
}

void run_query() {
  viewer& v = the();
  ++v.searches;
  v.searched = v.current;
  v.search_stale = false;
  v.found = {};
  v.marks.reset();
  if (!v.query || !v.current) return;
  const ccrc::profile& p = v.current->profile;
  const shown_tree& s = *v.current;
  v.found = ccrc::search_positions(s.by_method, s.order, p.tree(), p.column(v.metric), s.ag[v.metric], *v.query);
  v.marks.emplace(s.order, std::move(v.found.positions));  // count and share stay in found
}

// The tree or the comparison changed: no layout kept is of them.
void forget_layouts() {
  the().shown.made_of.reset();
  the().before.made_of.reset();
}

std::size_t segment_count() {
  return std::visit([](const auto& chart) { return chart.segments.size(); }, the().shown.chart);
}

// Writes each segment's highlight of the current search (0 without one) into v.shown.ints,
// unless they are of it already.
void export_marks() {
  viewer& v = the();
  if (v.shown.marked_by == v.searches) return;
  std::vector<ccrc::highlight_state> marks;
  if (v.query && v.marks)
    marks = std::visit([&](const auto& chart) { return ccrc::highlight(chart, v.current->profile.tree(), v.current->ag[v.metric], *v.marks); },
                       v.shown.chart);
  for (std::size_t i = 0; i < segment_count(); ++i)
    v.shown.ints[i * ints_per_segment + field(int_fields, "highlight")] = marks.empty() ? 0 : static_cast<std::int32_t>(marks[i]);
  v.shown.marked_by = v.searches;
}

const ccrc::chart_colors& palette_of(shown_tree& s, std::size_t metric, ccrc::color_by by) {
  auto& palette = s.palettes[2 * metric + (by == ccrc::color_by::package ? 1 : 0)];
  if (!palette) palette.emplace(s.profile.tree(), s.profile.column(metric), by);
  return *palette;
}

// The coefficient of variation of each context's inclusive values of the shown metric (of the
// metric whose statistic it is, else the first), when the profile shown is an ensemble: the
// coloring `ccrc render` gives one by default. Null for another profile.
const std::vector<double>* shown_variation() {
  viewer& v = the();
  shown_tree& s = *v.current;
  if (!s.ensemble || s.ensemble->metrics.empty()) return nullptr;
  const std::size_t m = s.ensemble->metric_of(v.metric).value_or(0);
  s.variations.resize(s.ensemble->metrics.size());
  if (s.variations[m].empty()) {
    const ccrc::ensemble_metric& em = s.ensemble->metrics[m];
    s.variations[m] = ccrc::variation_of(s.profile, em, s.ag[em[ccrc::ensemble_statistic::mean]], ccrc::variation::cv);
  }
  return &s.variations[m];
}

// What the colors of an ensemble's chart mean, for its caption: the scale's bands in words.
std::string variation_caption() {
  viewer& v = the();
  const shown_tree& s = *v.current;
  const ccrc::ensemble_metric& em = s.ensemble->metrics[s.ensemble->metric_of(v.metric).value_or(0)];
  const auto present = s.profile.column(s.ensemble->present);
  const double runs = present.empty() ? 0 : *std::max_element(present.begin(), present.end());
  static constexpr const char* color_words[] = {"pale blue", "yellow", "light orange", "orange", "red", "dark red"};
  std::string out = "color: the coefficient of variation of " + em.name + " over " + ccrc::format_number(runs) + " runs (";
  const auto bands = ccrc::variation_scale(ccrc::variation::cv);
  for (std::size_t k = 0; k < bands.size() && k < std::size(color_words); ++k)
    out += std::string(k ? ", " : "") + color_words[k] + " " + std::string(bands[k].label);
  return out + ")";
}

// Fills the segment arrays and labels from `chart`, v's last layout, unhighlighted (see ccrc_highlight).
template <class Layout>
void export_chart(const Layout& chart) {
  viewer& v = the();
  const ccrc::call_tree& t = v.current->profile.tree();
  const ccrc::chart_colors& palette = palette_of(*v.current, v.metric, v.colors);
  const auto& segs = chart.segments;
  std::vector<ccrc::diff_ring_segment> classes;
  if (comparing()) classes = ccrc::diff_ring(*v.diff, chart);
  const std::vector<double>* variation = classes.empty() ? shown_variation() : nullptr;
  if (variation) v.shown.caption += (v.shown.caption.empty() ? "" : "; ") + variation_caption();
  v.shown.floats.assign(segs.size() * floats_per_segment, 0.0f);
  v.shown.ints.assign(segs.size() * ints_per_segment, 0);
  v.shown.labels.clear();
  v.shown.marked_by = 0;
  for (std::size_t i = 0; i < segs.size(); ++i) {
    const auto& s = segs[i];
    float* f = &v.shown.floats[i * floats_per_segment];
    std::int32_t* n = &v.shown.ints[i * ints_per_segment];
    n[field(int_fields, "label")] = label_of(t, s, f, v.shown.labels);
    put_geometry(f, s);
    f[field(float_fields, "height")] = classes.empty() ? 0.0f : static_cast<float>(classes[i].height);
    ccrc::rgb fill = !classes.empty() ? ccrc::diff_color(classes[i].status)
                     : variation         ? ccrc::variation_color((*variation)[s.node], ccrc::variation::cv)
                                         : palette.of(t, s.last);
    if (n[field(int_fields, "label")] != label_codes::none && ccrc::label_color(fill) != ccrc::label_color(ccrc::neutral_color))
      n[field(int_fields, "label")] += label_codes::light;
    n[field(int_fields, "node")] = static_cast<std::int32_t>(s.node);
    n[field(int_fields, "kind")] = static_cast<std::int32_t>(s.kind);
    n[field(int_fields, "depth")] = static_cast<std::int32_t>(s.depth);
    n[field(int_fields, "parent")] = s.parent == ccrc::no_segment ? -1 : static_cast<std::int32_t>(s.parent);
    n[field(int_fields, "contexts")] = static_cast<std::int32_t>(s.contexts);
    n[field(int_fields, "diff")] = classes.empty() ? 0 : 1 + static_cast<std::int32_t>(classes[i].status);
    n[field(int_fields, "fill")] = fill.r << 16 | fill.g << 8 | fill.b;
    n[field(int_fields, "edge")] = ccrc::beyond_edge(chart, t, s) ? 1 : 0;
    n[field(int_fields, "last")] = static_cast<std::int32_t>(s.last);
  }
}

// Lays out `view` (a first view when asked) on `canvas`, a ring chart's or an icicle's options,
// into v.shown (its chart, what its first view did and drew), and returns the view laid out.
template <class Options>
ccrc::tree_view lay_out(ccrc::tree_view view, bool first, bool skip_trunk, const Options& canvas) {
  viewer& v = the();
  const std::vector<double>& ag = v.current->ag[v.metric];
  v.shown.caption.clear();
  v.shown.drawn = std::numeric_limits<double>::quiet_NaN();
  if (!first) {
    v.shown.chart = ccrc::layout_of(view, ag, canvas);
    return view;
  }
  auto opening = ccrc::first_view(view, ag, canvas, {.skip_trunk = skip_trunk});
  v.shown.drawn = opening.drawn;
  // A tree without recursion says so, with the levels it took away.
  std::uint32_t as_read = 0, eliminated = 0;
  if (v.current == v.derived.get() && v.derived_of.first == static_cast<int>(ccrc::recursion::all)) {
    as_read = v.original->index[v.metric].height(ccrc::root_node);
    eliminated = v.current->index[v.metric].height(ccrc::root_node);
  }
  v.shown.chart = opening.chart ? std::move(*opening.chart) : ccrc::layout_of(opening.view, ag, canvas);
  std::visit([&](const auto& chart) { v.shown.caption = ccrc::first_view_caption(chart, as_read, eliminated); }, v.shown.chart);
  return opening.view;
}

std::string error_text(const std::exception& e) { return e.what(); }

// The layout `r` asks for, of a tree other than tree_automatic, on metric `wanted` (in range).
int layout_with(const layout_request& r, std::size_t wanted, int tree) {
  viewer& v = the();
  const ccrc::profile& original = v.original->profile;
  if (tree < 0 || tree > tree_display) {
    v.current = v.original.get();
  } else {
    std::pair<int, std::size_t> of{tree, tree == tree_display ? wanted : 0};
    if (v.derived_of != of) {
      v.derived.reset();
      v.flat_of = {};
      v.top_down = {};
      v.bottom_up = {};
      v.searched = nullptr;
      forget_layouts();
      v.derived = std::make_unique<shown_tree>(
          tree == tree_display ? ccrc::display_tree(original, ccrc::call_graph(original), wanted).output
                    : ccrc::eliminate_recursion(original, static_cast<ccrc::recursion>(tree)).output);
      v.derived_of = of;
    }
    v.current = v.derived.get();
  }
  const ccrc::profile& p = v.current->profile;
  ccrc::node_id center = ccrc::null_node;
  v.nearest_caller.reset();
  const std::string_view path = r.path ? r.path : "";
  if (!path.empty()) {
    const ccrc::path_prefix found = ccrc::nearest_node_at_path(p.tree(), path);
    if (found.node != ccrc::root_node) center = found.node;
    if (!found.whole) v.nearest_caller = ccrc::path_string(p.tree(), found.node);
  }
  // The search runs on the tree shown (node ids differ between trees) and the metric shown.
  bool stale = v.searched != v.current || v.metric != wanted;
  v.metric = wanted;
  v.colors = r.color_by == 1 ? ccrc::color_by::package : ccrc::color_by::method;
  if (stale || v.search_stale) run_query();
  update_diff();
  layout_inputs inputs{.tree = v.current == v.original.get() ? tree_as_read : tree, .metric = v.metric, .path = std::string(path),
                       .depth = r.depth, .sizing = r.sizing, .color_by = r.color_by, .chart = r.chart,
                       .width = r.width, .height = r.height, .min_px = r.min_px};
  if (v.shown.made_of != inputs) std::swap(v.shown, v.before);
  if (v.shown.made_of == inputs) return static_cast<int>(segment_count());
  v.shown.made_of.reset();
  const std::vector<double>& ag = v.current->ag[v.metric];
  auto limit = r.depth > 0 ? static_cast<std::uint32_t>(r.depth) : ccrc::unlimited_depth;
  auto sized = static_cast<ccrc::ring_sizing>(std::clamp(r.sizing, 0, 2));
  const ccrc::ring_index* index = &v.current->index[v.metric];
  ccrc::tree_view view = center == ccrc::null_node
                             ? ccrc::ring_chart_view(ccrc::tree_view(p.tree(), ccrc::root_node, limit), ag)
                             : ccrc::tree_view(p.tree(), center, limit);
  bool first = r.depth == depth_first_view, skip_trunk = center == ccrc::null_node;
  if (r.chart == chart_icicle) {
    view = lay_out(view, first, skip_trunk,
                   ccrc::icicle_options{.sizing = sized, .origin = {6, 6}, .width = std::max(0.0, r.width - 12),
                                        .height = std::max(0.0, r.height - 12), .max_row_px = max_row_px,
                                        .min_width_px = r.min_px, .index = index});
  } else {
    ccrc::ring_options o = ccrc::on_canvas(r.width, r.height, {.sizing = sized, .min_arc_px = r.min_px, .index = index});
    o.outer_radius = std::max(0.0, o.outer_radius - 6);
    view = lay_out(view, first, skip_trunk, o);
  }
  // The table of a first view is of the center's whole subtree, as `ccrc render`'s legend: the
  // depth it is cut at is the chart's room, not the user's choice.
  v.shown.view = first ? ccrc::tree_view(p.tree(), view.root()) : view;
  std::visit([](const auto& laid) { export_chart(laid); }, v.shown.chart);
  v.shown.made_of = std::move(inputs);
  v.shown.serial = ++v.layouts;
  return static_cast<int>(segment_count());
}

// The tree tree_automatic stands for on `metric`, decided at its first use by the first view of
// the whole profile on this canvas: the profile as read, unless its first view draws less than
// half of the cost and the tree without recursion draws more (ccrc::worth_eliminating_recursion,
// ccrc::prefer_eliminated, as `ccrc render` decides). The layouts it makes are kept: the view
// asked for is most often one of them.
int automatic_tree(std::size_t metric, const layout_request& asked) {
  viewer& v = the();
  v.automatic.resize(v.original->profile.metric_count());
  if (v.automatic[metric]) return *v.automatic[metric];
  layout_request whole = asked;
  whole.path = "";
  whole.depth = depth_first_view;
  layout_with(whole, metric, tree_as_read);
  const double as_read = v.shown.drawn;
  const int eliminated = static_cast<int>(ccrc::recursion::all);
  int decided = tree_as_read;
  // An ensemble's minima, maxima and deviations do not add up over a recursion: drawn as read.
  const bool ensemble = ccrc::find_ensemble_metrics(v.original->profile.metric_names()).has_value();
  if (!ensemble && ccrc::worth_eliminating_recursion(v.original->profile.size(), as_read)) {
    layout_with(whole, metric, eliminated);
    if (ccrc::prefer_eliminated(as_read, v.shown.drawn)) decided = eliminated;
  }
  v.automatic[metric] = decided;
  return decided;
}

// The record ccrc_layout and ccrc_highlight hand out, made up to date: v.shown's `count`
// segments (-1: none) and what the search found.
const layout_result* hand_out_layout(int count) {
  viewer& v = the();
  const laid_out_chart& shown = v.shown;
  const auto* ring = std::get_if<ccrc::ring_layout>(&shown.chart);
  v.result = {.center_x = ring ? ring->center.x : 0,
              .center_y = ring ? ring->center.y : 0,
              .match_share = v.found.share(),
              .floats = shown.floats.data(),
              .ints = shown.ints.data(),
              .labels = shown.labels.c_str(),
              .caption = shown.caption.c_str(),
              .nearest_caller = v.nearest_caller ? v.nearest_caller->c_str() : nullptr,
              .count = count,
              .serial = static_cast<std::int32_t>(shown.serial),
              .rings = static_cast<std::int32_t>(ring ? ring->rings() : std::get<ccrc::icicle_layout>(shown.chart).rows()),
              .matches = static_cast<std::int32_t>(v.found.count)};
  return &v.result;
}


}  // namespace
}  // namespace viewer_module

using namespace viewer_module;

/// Reads a profile (folded, .cct, .cctb, perf script or callgrind, detected from its bytes).
/// Returns 0, or 1 with the reader's message (naming the line or offset) in ccrc_error_text();
/// on error the previous profile stays.
VIEWER_API int ccrc_load(const char* bytes, std::size_t size) {
  viewer& v = the();
  try {
    auto loaded = std::make_unique<shown_tree>(std::move(ccrc::read_core_profile(std::string_view(bytes, size)).profile));
    if (loaded->profile.tree().size() < 1) throw ccrc::error("empty profile");
    // A fresh viewer for it: nothing of the last profile lingers but the first run it is
    // compared with, and the counts whose numbers name layouts and highlights (the page knows
    // what its canvases hold by a layout's serial).
    viewer fresh;
    fresh.original = std::move(loaded);
    fresh.current = fresh.original.get();
    fresh.baseline = std::move(v.baseline);
    fresh.searches = v.searches;
    fresh.layouts = v.layouts;
    v = std::move(fresh);
    return 0;
  } catch (const std::exception& e) {
    hand_out(error_text(e));
    return 1;
  } catch (...) {
    hand_out("unknown error");
    return 1;
  }
}

/// Reads a first run to compare the profile with (any format ccrc_load reads; no bytes: the
/// comparison ends). From the next layout the chart of the calling contexts is colored by
/// the diff's classes (ccrc::diff_ring) on the metric shown, matched by name. Returns 0, or
/// 1 with the reader's message in ccrc_error_text(); on error the previous first run stays.
VIEWER_API int ccrc_load_baseline(const char* bytes, std::size_t size) {
  viewer& v = the();
  try {
    std::unique_ptr<ccrc::profile> first;
    if (size > 0) first = std::make_unique<ccrc::profile>(std::move(ccrc::read_core_profile(std::string_view(bytes, size)).profile));
    v.baseline = std::move(first);
    v.diff.reset();
    forget_layouts();
    return 0;
  } catch (const std::exception& e) {
    hand_out(error_text(e));
    return 1;
  }
}

/// The comparison of the last layout, as JSON: {"state": "none"} without a first run;
/// {"state": "off", "why": "..."} when the chart shown cannot be colored by it; or
/// {"state": "on", "counts": {"slower": N, ...}} with the number of contexts of each class
/// (ccrc::to_string's names) over both runs.
VIEWER_API const char* ccrc_compare_info() {
  const viewer& v = the();
  if (!v.baseline) return hand_out("{\"state\":\"none\"}");
  if (comparing()) return v.diff_counts.c_str();
  std::string out = "{\"state\":\"off\",\"why\":";
  ccrc::append_json_string(out, v.compare_note);
  return hand_out(out + "}");
}

/// The message of the last failure (ccrc_load, ccrc_load_baseline, ccrc_search).
VIEWER_API const char* ccrc_error_text() { return the().text.c_str(); }

/// The profile's metrics and size, as JSON: {"metrics": [...], "primary": the metric shown
/// unless asked (ccrc::primary_metric), "contexts": N, "methods": M}.
VIEWER_API const char* ccrc_profile_info() {
  viewer& v = the();
  if (!v.original) return hand_out("null");
  const ccrc::profile& p = v.original->profile;
  std::string s = "{\"metrics\":[";
  for (std::size_t m = 0; m < p.metric_count(); ++m) {
    if (m) s += ',';
    ccrc::append_json_string(s, p.metric_name(m));
  }
  s += "],\"primary\":" + std::to_string(ccrc::primary_metric(p.metric_names())) +
       ",\"contexts\":" + std::to_string(p.tree().size() - 1) +
       ",\"methods\":" + std::to_string(p.symbols().method_count() - 1) + "}";
  return hand_out(std::move(s));
}

/// Lays out what `request` asks for (layout_request, state.hpp; docs/viewer.md lists its
/// fields): the ring chart (chart_ring) or the icicle (chart_icicle: a flame graph, root on
/// top) on a width x height canvas (CSS pixels), centered on the calling context `path` (frames
/// separated by ';'; empty: the profile's top, as ring_chart_view picks it; naming no context
/// of the tree shown: its nearest caller, which the result's nearest_caller names: "" for the
/// top), `depth` levels below it (depth_all; as `ccrc render --depth`; depth_first_view:
/// ccrc::first_view, from where the profile branches when no path is given, as deep as rings
/// or rows stay readable), sized per `sizing` by `metric`, of the `tree`: as the first view of
/// the whole profile chooses (tree_automatic: as read, or its recursion eliminated when that
/// draws more of the cost; decided once per metric), the profile as read (tree_as_read), with
/// its recursion eliminated under a ccrc::recursion policy, or its call graph's display tree
/// (tree_display, masters chosen by `metric`); colored per `color_by`. Segments thinner than
/// min_px are lines. Returns the layout's record (layout_result: count -1, with the message in
/// ccrc_error_text(), without a profile or on failure); ccrc_highlight then highlights the
/// search, if any. The last two layouts are kept: asked again for one of them, it is handed
/// back (with the serial it had).
VIEWER_API const layout_result* ccrc_layout(const layout_request* request) {
  viewer& v = the();
  if (!v.original || !request) return hand_out_layout(-1);
  try {
    const layout_request& r = *request;
    const std::size_t metrics = v.original->profile.metric_count();
    auto wanted = r.metric >= 0 && static_cast<std::size_t>(r.metric) < metrics ? static_cast<std::size_t>(r.metric) : 0;
    const int tree = r.tree == tree_automatic ? automatic_tree(wanted, r) : r.tree;
    return hand_out_layout(layout_with(r, wanted, tree));
  } catch (const std::exception& e) {
    hand_out(error_text(e));
    return hand_out_layout(-1);
  }
}

/// Highlights the current search (see ccrc_search) in the last layout, unless it is already:
/// a layout leaves its segments' highlight to this call, which a page showing a table instead
/// of the chart does not make. A search moves no segment, so a search alone needs only this.
/// Returns the last layout's record with what the search found brought up to date (count -1
/// without a layout).
VIEWER_API const layout_result* ccrc_highlight() {
  viewer& v = the();
  if (!v.current || !v.shown.view) return hand_out_layout(-1);
  try {
    if (v.searched != v.current || v.search_stale) run_query();
    export_marks();
    return hand_out_layout(static_cast<int>(segment_count()));
  } catch (const std::exception& e) {
    hand_out(error_text(e));
    return hand_out_layout(-1);
  }
}

/// The contract between the module and the page, as JSON: the fields of a segment's records
/// ("floats", "ints": their order in the arrays), and the codes of every enum the page passes
/// or reads: "kind" (ccrc::segment_kind), "highlight" (ccrc::highlight_state), "label"
/// (label_codes), "sizing" (ccrc::ring_sizing), "tree" (ccrc_layout's trees), "color"
/// (ccrc::color_by), "depth" (ccrc_layout's depths), "part" (ccrc::name_part), "table"
/// (ccrc_table's kinds), "chart" (ccrc_layout's charts); and the records the page and the module
/// exchange ("records": layout_request, layout_result, search_request: each field's type and
/// offset, and the record's size). viewer.js takes every offset and code from it.
VIEWER_API const char* ccrc_contract() {
  auto names = [](std::string& out, std::span<const std::string_view> fields) {
    out += '[';
    for (std::size_t i = 0; i < fields.size(); ++i) {
      if (i) out += ',';
      ccrc::append_json_string(out, fields[i]);
    }
    out += ']';
  };
  auto codes = [](std::string& out, std::initializer_list<std::pair<std::string_view, int>> entries) {
    out += '{';
    bool first = true;
    for (const auto& [name, code] : entries) {
      if (!first) out += ',';
      first = false;
      ccrc::append_json_string(out, name);
      out += ':' + std::to_string(code);
    }
    out += '}';
  };
  auto code = [](auto e) { return static_cast<int>(e); };
  // A library enumeration's codes, named as its table names them (ccrc::enum_names).
  auto enum_codes = [](std::string& out, auto e) {
    out += '{';
    const auto table = enum_names(e);
    for (std::size_t i = 0; i < table.size(); ++i) {
      if (i) out += ',';
      ccrc::append_json_string(out, table[i]);
      out += ':' + std::to_string(i);
    }
    out += '}';
  };
  // A record's size and fields: "name": {"size": bytes, "fields": {"field": [type, offset], ...}}.
  auto record = [](std::string& out, std::string_view name, std::size_t size, std::span<const record_field> fields) {
    ccrc::append_json_string(out, name);
    out += ":{\"size\":" + std::to_string(size) + ",\"fields\":{";
    for (std::size_t i = 0; i < fields.size(); ++i) {
      if (i) out += ',';
      ccrc::append_json_string(out, fields[i].name);
      out += ":[";
      ccrc::append_json_string(out, fields[i].type);
      out += ',' + std::to_string(fields[i].offset) + ']';
    }
    out += "}}";
  };
  std::string out = "{\"floats\":";
  names(out, float_fields);
  out += ",\"ints\":";
  names(out, int_fields);
  out += ",\"kind\":";
  enum_codes(out, ccrc::segment_kind{});
  out += ",\"highlight\":";
  enum_codes(out, ccrc::highlight_state{});
  out += ",\"label\":";
  codes(out, {{"none", label_codes::none}, {"along", label_codes::along}, {"across", label_codes::across},
              {"reversed", label_codes::reversed}, {"light", label_codes::light}});
  out += ",\"sizing\":";
  enum_codes(out, ccrc::ring_sizing{});
  out += ",\"tree\":";
  codes(out, {{"auto", tree_automatic}, {"contexts", tree_as_read}, {"recursion", code(ccrc::recursion::all)}, {"recursion-direct", code(ccrc::recursion::direct)},
              {"recursion-repeats", code(ccrc::recursion::drop_repeats)}, {"callgraph", tree_display}});
  out += ",\"color\":";
  enum_codes(out, ccrc::color_by{});
  out += ",\"depth\":";
  codes(out, {{"auto", depth_first_view}, {"all", depth_all}});
  out += ",\"part\":";
  enum_codes(out, ccrc::name_part{});
  out += ",\"table\":";
  codes(out, {{"calltree", table_top_down}, {"bottomup", table_bottom_up}});
  out += ",\"chart\":";
  codes(out, {{"ring", chart_ring}, {"icicle", chart_icicle}});
  out += ",\"records\":{";
  record(out, "layout_request", sizeof(layout_request), layout_request_fields);
  out += ',';
  record(out, "layout_result", sizeof(layout_result), layout_result_fields);
  out += ',';
  record(out, "search_request", sizeof(search_request), search_request_fields);
  return hand_out(out + "}}");
}

/// The path of a node of the tree shown ("main;f"), for the URL and the breadcrumbs.
VIEWER_API const char* ccrc_path(int node) {
  viewer& v = the();
  if (!v.current || node < 0 || static_cast<std::size_t>(node) >= v.current->profile.tree().size()) return hand_out("");
  return hand_out(ccrc::path_string(v.current->profile.tree(), static_cast<ccrc::node_id>(node)));
}

/// The name of a frame for people (ccrc::display_name), for the breadcrumbs and the table.
VIEWER_API const char* ccrc_display_name(const char* name) { return hand_out(ccrc::display_name(name ? name : "")); }

/// The segment at canvas point (x, y) of the last layout, or -1.
VIEWER_API int ccrc_hit(double x, double y) {
  auto i = std::visit([&](const auto& chart) { return ccrc::hit_test(chart, x, y); }, the().shown.chart);
  return i ? static_cast<int>(*i) : -1;
}

/// What the tooltip of segment i shows, as JSON: {"stack": [...], "metrics": [{"name", "self",
/// "aggregated"}], "share": ag / ag(center) of the shown metric, "contexts": k (the siblings a
/// line stands for, else 1), "chain": k (the stack's innermost frames a chain stands for, else
/// 1; its self values summed over them)}.
VIEWER_API const char* ccrc_tooltip(int segment) {
  viewer& v = the();
  if (!v.current || segment < 0 || static_cast<std::size_t>(segment) >= segment_count()) return hand_out("null");
  auto [tip, node, contexts, center] = std::visit([&](const auto& chart) {
    const auto& s = chart.segments[static_cast<std::size_t>(segment)];
    const bool line = ccrc::is_line(s);
    return std::tuple(line ? ccrc::tooltip(v.current->profile, v.current->ag, s.node) : ccrc::tooltip(v.current->profile, v.current->ag, s),
                      s.node, line ? s.contexts : 1u, chart.segments[0].node);
  }, v.shown.chart);
  std::string out = "{\"stack\":[";
  for (std::size_t i = 0; i < tip.call_stack.size(); ++i) {
    if (i) out += ',';
    ccrc::append_json_string(out, tip.call_stack[i]);
  }
  out += "],\"metrics\":[";
  for (std::size_t i = 0; i < tip.metrics.size(); ++i) {
    out += i ? ",{\"name\":" : "{\"name\":";
    ccrc::append_json_string(out, tip.metrics[i].metric);
    out += ",\"self\":";
    ccrc::append_json_number(out, tip.metrics[i].self);
    out += ",\"aggregated\":";
    ccrc::append_json_number(out, tip.metrics[i].aggregated);
    out += '}';
  }
  const std::vector<double>& ag = v.current->ag[v.metric];
  out += "],\"share\":";
  ccrc::append_json_number(out, ag[center] > 0 ? ag[node] / ag[center] : 0);
  out += ",\"contexts\":" + std::to_string(contexts) + ",\"chain\":" + std::to_string(tip.chain);
  if (comparing()) {
    ccrc::node_id d = v.diff->matching.from_second[node];
    out += ",\"diff\":{\"status\":";
    ccrc::append_json_string(out, ccrc::to_string(v.diff->status[d]));
    out += ",\"height\":";
    ccrc::append_json_number(out, v.diff->height[d]);
    out += ",\"first\":";
    ccrc::append_json_number(out, v.diff->share_first(d));
    out += ",\"second\":";
    ccrc::append_json_number(out, v.diff->share_second(d));
    out += '}';
  }
  out += '}';
  return hand_out(std::move(out));
}

/// Highlights the calling contexts a search finds (ccrc::search over the whole tree shown), as
/// `request` asks (search_request, state.hpp): `text` as `ccrc search` takes its query
/// (ccrc::parse_name_query: a substring, "re:REGEX" or "=NAME") against the whole name,
/// package, class or method (`part`, ccrc::name_part's code), ignoring case if asked; contexts
/// whose aggregated value of the shown metric is below `min_total` (as `ccrc search
/// --min-total` takes it, ccrc::parse_threshold: "500", "5%"; empty: no bound) are left out.
/// An empty query with no bound clears it. Takes effect in the next ccrc_layout or
/// ccrc_highlight (their record counts what it finds); returns 1 for a search, 0 when cleared,
/// or -1 with the message in ccrc_error_text() for a bad regular expression or bound (then
/// nothing is highlighted).
VIEWER_API int ccrc_search(const search_request* request) {
  viewer& v = the();
  const search_request r = request ? *request : search_request{};
  const std::string_view bound = r.min_total ? r.min_total : "";
  ccrc::search_query q{.name = ccrc::parse_name_query(r.text ? r.text : "", static_cast<ccrc::name_part>(std::clamp(r.part, 0, 3)),
                                                      r.ignore_case != 0)};
  try {
    if (!bound.empty()) {
      q.min_total = ccrc::parse_threshold(bound);
      if (!q.min_total) throw ccrc::error("minimum: expects a number or a percentage, not '" + std::string(bound) + "'");
    }
    if (q.name.match == ccrc::name_match::regex) [[maybe_unused]] ccrc::regex check(q.name.text, {.ignore_case = q.name.ignore_case});
  } catch (const std::exception& e) {
    v.query.reset();
    v.search_stale = true;
    hand_out(error_text(e));
    return -1;
  }
  if (q.name.text.empty() && !q.min_total) {
    v.search_stale = v.search_stale || v.query.has_value();
    v.query.reset();
    return 0;
  }
  // The page asks again after every navigation: the same query on the same tree is found.
  v.search_stale = v.search_stale || v.query != q;
  v.query = q;
  return 1;
}

/// The flat profile of the view laid out last (its center's subtree within the depth limit),
/// by the shown metric's self values, largest first, at most `limit` methods, as JSON:
/// [[method id, name, self, percent, color (0xrrggbb, as the chart's)], ...].
VIEWER_API const char* ccrc_flat(int limit) {
  viewer& v = the();
  if (!v.current || !v.shown.view) return hand_out("[]");
  auto key = std::tuple(static_cast<const shown_tree*>(v.current), v.shown.view->root(), v.shown.view->max_depth(), v.metric, limit, v.colors);
  if (key == v.flat_of) return v.flat.c_str();
  const ccrc::profile& p = v.current->profile;
  auto entries = ccrc::flat(*v.shown.view, p.column(v.metric), {.count = static_cast<std::size_t>(std::max(limit, 0))});
  std::string out = "[";
  for (std::size_t k = 0; k < entries.size() && k < static_cast<std::size_t>(std::max(limit, 0)); ++k) {
    if (k) out += ',';
    out += '[' + std::to_string(entries[k].method) + ',';
    ccrc::append_json_string(out, entries[k].method == 0 ? std::string_view("(root)")
                                                   : p.symbols().method_name(entries[k].method));
    out += ',';
    ccrc::append_json_number(out, static_cast<double>(entries[k].self));
    out += ',';
    ccrc::append_json_number(out, entries[k].percent);
    ccrc::rgb c = entries[k].method == ccrc::root_method ? ccrc::neutral_color
                                                         : palette_of(*v.current, v.metric, v.colors).of(entries[k].method);
    out += ',' + std::to_string(c.r << 16 | c.g << 8 | c.b) + ']';
  }
  out += ']';
  v.flat = std::move(out);
  v.flat_of = key;
  return v.flat.c_str();
}
