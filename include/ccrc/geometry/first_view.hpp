// ccrc - the view a ring chart or an icicle opens on: where the profile branches, as deep as
// rings (rows) stay thick enough to read.
#pragma once

#include <ccrc/concepts.hpp>
#include <ccrc/geometry/icicle.hpp>
#include <ccrc/geometry/ring_chart.hpp>
#include <ccrc/tree/view.hpp>

#include <algorithm>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <numbers>
#include <optional>
#include <vector>

namespace ccrc {

/// The options of first_view.
struct first_view_options {
  /// Move the centre down the trunk (see trunk_share).
  bool skip_trunk = true;
  /// Cut the view's depth so that rings stay readable (see min_ring_px and min_coverage).
  bool fit_depth = true;
  /// The thinnest ring shown, pixels: the view is cut as deep as keeps every ring at least this
  /// thick (12 px holds a 9-10 px label along the ring).
  double min_ring_px = 12;
  /// The least height of an icicle row shown, pixels (16 px hold an 11 px label with room
  /// around it).
  double min_row_px = 16;
  /// The outermost ring (the deepest row) shown still holds visible arcs (boxes) covering at
  /// least this share of the circle (the width): deeper levels, holding only thin spikes (a
  /// few long, narrow call chains), are left beyond the edge, and the levels shown are thicker
  /// for it ...
  double min_coverage = 0.05;
  /// ... unless they are this thick already: the view keeps at least as many rings as would be
  /// this thick at equal widths (a small profile is shown whole, spikes and all) ...
  double comfortable_ring_px = 20;
  /// ... or as many icicle rows as would be this high.
  double comfortable_row_px = 20;
  /// A context with one callee holding at least this share of its aggregated value (so that
  /// its own value and its other callees are negligible) is part of the trunk above the centre.
  double trunk_share = 0.99;
};

/// A first view, the trunk it leaves out, and its chart when finding the view laid it out.
template <class Layout>
struct basic_opening_view {
  tree_view view;
  /// The contexts above the view's root that it leaves out, outermost first (from the root of
  /// the view asked for to the new root's caller): a chain of single callees, for the centre's
  /// caption or breadcrumbs. Empty when the view starts where asked.
  std::vector<node_id> trunk;
  /// The chart of `view` on the canvas asked for, when fitting the depth laid it out already
  /// (the coverage is read off a layout): a renderer draws it rather than laying out again.
  std::optional<Layout> chart;
};

/// The first view of a ring chart, and of an icicle.
using opening_view = basic_opening_view<ring_layout>;
using opening_icicle = basic_opening_view<icicle_layout>;

/// The number of rings, at least 1, that a chart laid out with `options` (sizing, outer
/// radius, centre radius) can show with every ring at least `min_ring_px` thick. Equal and
/// angle sizing have rings of one width; area sizing's rings thin outwards, so its outermost
/// ring is the thinnest. O(rings).
[[nodiscard]] inline std::uint32_t rings_that_fit(const ring_options& options, double min_ring_px) noexcept {
  if (!(min_ring_px > 0)) return unlimited_depth;
  std::uint32_t n = 1;
  // ring_radii's closed forms, for the two outermost radii of n rings.
  auto thinnest = [&](std::uint32_t rings) {
    double outer = std::isfinite(options.outer_radius) && options.outer_radius > 0 ? options.outer_radius : 0.0;
    auto k = static_cast<double>(rings);
    double r0 = std::isfinite(options.center_radius) && options.center_radius >= 0
                    ? std::min(options.center_radius, outer)
                : options.sizing == ring_sizing::area ? outer / std::sqrt(k + 1)
                                                       : outer / (k + 1);
    if (options.sizing != ring_sizing::area) return (outer - r0) / k;
    double step = (outer * outer - r0 * r0) / k;
    return outer - std::sqrt(r0 * r0 + (k - 1) * step);
  };
  while (n < 100000 && thinnest(n + 1) >= min_ring_px) ++n;
  return n;
}

/// The number of rows below the root, at least 1, that an icicle laid out with `options`
/// (its height) can show with every row at least `min_row_px` high: the root's row and n rows
/// share the height. O(1).
[[nodiscard]] inline std::uint32_t rows_that_fit(const icicle_options& options, double min_row_px) noexcept {
  if (!(min_row_px > 0)) return unlimited_depth;
  double height = std::isfinite(options.height) && options.height > 0 ? options.height : 0.0;
  double n = std::floor(height / min_row_px) - 1;
  return n >= 1 ? static_cast<std::uint32_t>(std::min(n, 1e9)) : 1u;
}

/// The chart `canvas` describes: ring_chart for a ring chart's options, icicle_chart for an
/// icicle's, so that code written for either chart (a first view's renderer) lays out with one
/// name. Costs what the chart it calls costs.
template <metric_column C>
[[nodiscard]] ring_layout layout_of(const tree_view& v, const C& ag, const ring_options& canvas) {
  return ring_chart(v, ag, canvas);
}

template <metric_column C>
[[nodiscard]] icicle_layout layout_of(const tree_view& v, const C& ag, const icicle_options& canvas) {
  return icicle_chart(v, ag, canvas);
}

namespace detail {

// How many levels a chart on `canvas` shows readably (every ring or row at least the thinnest
// the options allow), and how many a cut by coverage leaves at least (those that would be
// comfortable).
struct level_bounds {
  std::uint32_t readable, comfortable;
};

inline level_bounds level_bounds_of(const ring_options& canvas, const first_view_options& o) noexcept {
  ring_options equal_widths = canvas;
  equal_widths.sizing = ring_sizing::equal;
  return {rings_that_fit(canvas, o.min_ring_px), rings_that_fit(equal_widths, o.comfortable_ring_px)};
}

inline level_bounds level_bounds_of(const icicle_options& canvas, const first_view_options& o) noexcept {
  return {rows_that_fit(canvas, o.min_row_px), rows_that_fit(canvas, o.comfortable_row_px)};
}

// The chart of v on `canvas` with every level kept, and the share of the full circle (the
// width) that each level's arcs (boxes) cover in it: fewer rings only make arcs wider, and an
// icicle's widths do not depend on its rows, so a level's share here is at most what it is in
// the chart finally drawn.
template <class Layout>
struct coverage {
  Layout chart;
  std::vector<double> covered;
};

template <class C>
coverage<ring_layout> level_coverage(const tree_view& v, const C& ag, ring_options canvas) {
  canvas.fit_visible = false;
  coverage<ring_layout> out{layout_of(v, ag, canvas), {}};
  out.covered.assign(out.chart.rings() + 1, 0.0);
  for (const ring_segment& s : out.chart.segments)
    if (s.kind == segment_kind::arc) out.covered[s.depth] += (s.a1 - s.a0) / (2 * std::numbers::pi);
  return out;
}

template <class C>
coverage<icicle_layout> level_coverage(const tree_view& v, const C& ag, icicle_options canvas) {
  canvas.fit_visible = false;
  coverage<icicle_layout> out{layout_of(v, ag, canvas), {}};
  out.covered.assign(out.chart.rows() + 1, 0.0);
  double width = out.chart.x1 - out.chart.x0;
  for (const icicle_segment& s : out.chart.segments)
    if (s.kind == icicle_kind::box && width > 0) out.covered[s.depth] += (s.x1 - s.x0) / width;
  return out;
}

// The icicle of the same view cut at `rows` (at most chart's), as icicle_chart lays it out:
// its widths do not depend on the rows, so it is chart's first rows (down to the deepest
// holding a box, with canvas.fit_visible), placed again. O(segments).
inline icicle_layout cut_rows(icicle_layout chart, std::uint32_t rows, const icicle_options& canvas) {
  if (canvas.fit_visible) {
    std::uint32_t deepest = 0;
    for (const icicle_segment& s : chart.segments)
      if (s.kind == icicle_kind::box && s.depth <= rows) deepest = std::max(deepest, s.depth);
    rows = std::min(rows, std::max(deepest, 1u));
  }
  place_rows(chart, rows, canvas);
  return chart;
}

template <class Layout, class C, class Canvas>
basic_opening_view<Layout> first_view(const tree_view& v, const C& ag, const Canvas& canvas,
                                      const first_view_options& options) {
  const call_tree& t = v.tree();
  const auto* values = std::ranges::data(ag);
  tree_view centred = ring_chart_view(v, ag);
  basic_opening_view<Layout> out{centred, {}, {}};
  node_id root = centred.root();
  std::uint32_t limit = centred.max_depth();
  auto weight = [&](node_id n) { return ring_weight(values[n]); };
  for (;;) {
    node_id only = null_node;
    std::size_t valued = 0;
    for (node_id c : t.children(root))
      if (weight(c) > 0 && ++valued == 1) only = c;
    if (!options.skip_trunk || valued != 1 || limit <= 1 || !(weight(only) >= options.trunk_share * weight(root)))
      break;
    out.trunk.push_back(root);
    root = only;
    if (limit != unlimited_depth) --limit;
  }
  level_bounds bounds = level_bounds_of(canvas, options);
  std::uint32_t levels = options.fit_depth ? std::min(limit, bounds.readable) : limit;
  out.view = tree_view(t, root, levels);
  if (options.fit_depth && options.min_coverage > 0 && levels > 1) {
    auto [chart, covered] = level_coverage(out.view, ag, canvas);
    auto laid_out = static_cast<std::uint32_t>(covered.size() - 1);
    std::uint32_t shown = std::min({levels, laid_out, bounds.comfortable});
    for (std::uint32_t d = shown + 1; d < covered.size(); ++d)
      if (covered[d] >= options.min_coverage) shown = d;
    out.view = tree_view(t, root, shown);
    // Uncut, with a segment on its outermost level, the layout is what the chart makes of the
    // view whether or not it fits the levels to what is visible; an icicle cut is still it.
    if (shown == laid_out && covered.back() > 0)
      out.chart = std::move(chart);
    else if constexpr (std::same_as<Layout, icicle_layout>)
      out.chart = cut_rows(std::move(chart), shown, canvas);
  }
  return out;
}

}  // namespace detail

/// The view a ring chart of `v` opens on, so that a person reads it at once: centred as
/// ring_chart_view centres it, then moved down the trunk (while the centre has one callee
/// holding options.trunk_share of its value: a runtime's start-up frames, a thread's entry
/// point), and cut (within v's own depth limit) at the deepest ring that keeps every ring of a
/// chart laid out with `canvas` at least options.min_ring_px thick and whose visible arcs still
/// cover options.min_coverage of the circle (but not above the rings that would be
/// options.comfortable_ring_px thick). `ag` is the aggregated column the chart is sized by
/// (the one `canvas.index`, if given, was built with). The trunk it leaves out is returned for
/// a caption. Cost: the trunk's callees, plus one ring_chart with `canvas` (what it shows, with
/// an index).
///
///     auto ag = ccrc::inclusive(p.tree(), p.column("samples"));
///     ccrc::ring_options canvas = ccrc::on_canvas(1440, 900, {.heights = ccrc::heights(p.tree())});
///     ccrc::opening_view first = ccrc::first_view(ccrc::tree_view(p.tree()), ag, canvas);
///     ccrc::ring_layout chart = ccrc::ring_chart(first.view, ag, canvas);
template <metric_column C>
[[nodiscard]] opening_view first_view(const tree_view& v, const C& ag, const ring_options& canvas,
                                      const first_view_options& options = {}) {
  return detail::first_view<ring_layout>(v, ag, canvas, options);
}

/// The view an icicle of `v` opens on: the same trunk as a ring chart's, then as many rows as
/// keep every row of an icicle laid out with `canvas` at least options.min_row_px high, cut
/// where the deepest row's boxes stop covering options.min_coverage of the width (but not
/// above the rows that would be options.comfortable_row_px high). Cost: the trunk's callees,
/// plus one icicle_chart with `canvas`, which is handed back as the view's chart (widths do
/// not depend on the rows, so the chart of the cut view is that chart's first rows).
///
///     ccrc::icicle_options canvas{.width = 1440, .height = 900, .heights = ccrc::heights(p.tree())};
///     ccrc::opening_icicle first = ccrc::first_view(ccrc::tree_view(p.tree()), ag, canvas);
///     ccrc::icicle_layout chart = ccrc::icicle_chart(first.view, ag, canvas);
template <metric_column C>
[[nodiscard]] opening_icicle first_view(const tree_view& v, const C& ag, const icicle_options& canvas,
                                        const first_view_options& options = {}) {
  return detail::first_view<icicle_layout>(v, ag, canvas, options);
}

}  // namespace ccrc
