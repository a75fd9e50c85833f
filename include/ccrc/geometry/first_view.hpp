// ccrc - the view a ring chart or an icicle opens on: where the profile branches, as deep as
// rings (rows) stay thick enough to read, drawing where the cost goes.
#pragma once

#include <ccrc/algorithm/depth.hpp>
#include <ccrc/algorithm/inclusive.hpp>
#include <ccrc/concepts.hpp>
#include <ccrc/geometry/icicle.hpp>
#include <ccrc/geometry/ring_chart.hpp>
#include <ccrc/transform/eliminate_recursion.hpp>
#include <ccrc/tree/profile.hpp>
#include <ccrc/tree/view.hpp>

#include <algorithm>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <limits>
#include <memory>
#include <numbers>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace ccrc {

/// The options of first_view.
struct first_view_options {
  /// Move the center down the trunk (see trunk_share).
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
  /// its own value and its other callees are negligible) is part of the trunk above the center,
  /// and within the chart, when the view folds chains, part of a chain drawn as one segment.
  double trunk_share = 0.99;
  /// The view should draw at least this share of its cost (its center's aggregated value) in
  /// contexts shown as segments (drawn_share): when it draws less with a ring per level, it
  /// folds chains of single callees (ring_options::chain_share) if that draws more; and
  /// prefer_eliminated then tells whether the tree without recursion draws it better.
  double min_drawn_share = 0.5;
  /// Whether the view may fold chains to draw more of its cost (within the chart; the trunk
  /// above it is skipped whatever this says).
  bool fold_chains = true;
  /// prefer_eliminated looks at trees of at most this many contexts: eliminating recursion
  /// costs about 90 ns a context, and a larger tree's first view should cost what its chart
  /// does. ccrc::eliminate_recursion, or a viewer's tree menu, does it on request.
  std::size_t max_eliminated_contexts = 500'000;
};

/// A first view, the trunk it leaves out, and its chart when finding the view laid it out.
template <class Layout>
struct basic_first_view {
  tree_view view;
  /// The contexts above the view's root that it leaves out, outermost first (from the root of
  /// the view asked for to the new root's caller): a chain of single callees, for the center's
  /// caption or breadcrumbs. Empty when the view starts where asked.
  std::vector<node_id> trunk;
  /// The chart of `view` on the canvas asked for (with chain_share), made in fitting the depth
  /// (the coverage and the share drawn are read off it): a renderer draws it rather than
  /// laying out again. None when the depth was not fitted.
  std::optional<Layout> chart;
  /// The chain share the view is drawn with (the canvas's, or first_view_options::trunk_share
  /// when the view folds chains to draw more of its cost): a renderer that lays the view out
  /// again sets it in its options.
  double chain_share = 0;
  /// The share of the cost (the center's aggregated value) that the chart draws in segments,
  /// as drawn_share measures it; NaN when the view's depth was not fitted (no chart made).
  double drawn = std::numeric_limits<double>::quiet_NaN();
};

/// The first view of a ring chart, and of an icicle.
using first_view_ring = basic_first_view<ring_layout>;
using first_view_icicle = basic_first_view<icicle_layout>;

/// The number of rings, at least 1, that a chart laid out with `options` (sizing, outer
/// radius, center radius) can show with every ring at least `min_ring_px` thick. Equal and
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

/// The share of a chart's cost that it draws: the own value (aggregated value less the
/// callees') of every context its segments stand for (a chain's every context; not the lines',
/// too thin to see), over the aggregated value of its center. What a person sees of where the
/// cost goes; 0 for a center without value. `ag` and `index` (optional: faster) as the chart
/// was laid out with. O(contexts shown), times their callees without an index.
template <chart_layout Layout, metric_column C>
[[nodiscard]] double drawn_share(const Layout& chart, const call_tree& t, const C& ag, const ring_index* index = nullptr);

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

// A context's own weight: its aggregated weight less its callees', from the index's running
// sums when there is one. O(1) with it, O(callees) without.
template <class Values>
double own_weight(const call_tree& t, const Values* values, const ring_index* index, node_id n) {
  double callees = 0;
  if (index) {
    std::span<const double> sums = index->sums(n);
    if (!sums.empty()) callees = sums.back();
  } else {
    for (node_id c : t.children(n)) callees += ring_weight(values[c]);
  }
  return std::max(0.0, ring_weight(values[n]) - callees);
}

// The view below `root`, `limit` levels at most, as deep as stays readable on `canvas` (see
// first_view), and its chart.
template <class Layout, class C, class Canvas>
std::pair<tree_view, Layout> fit_levels(const call_tree& t, node_id root, std::uint32_t limit, const C& ag,
                                        const Canvas& canvas, const first_view_options& options) {
  level_bounds bounds = level_bounds_of(canvas, options);
  std::uint32_t levels = std::min(limit, bounds.readable);
  tree_view view(t, root, levels);
  if (options.min_coverage > 0 && levels > 1) {
    auto [chart, covered] = level_coverage(view, ag, canvas);
    auto laid_out = static_cast<std::uint32_t>(covered.size() - 1);
    std::uint32_t shown = std::min({levels, laid_out, bounds.comfortable});
    for (std::uint32_t d = shown + 1; d < covered.size(); ++d)
      if (covered[d] >= options.min_coverage) shown = d;
    view = tree_view(t, root, shown);
    // Uncut, with a segment on its outermost level, the layout is what the chart makes of the
    // view whether or not it fits the levels to what is visible; an icicle cut is still it.
    if (shown == laid_out && covered.back() > 0) return {view, std::move(chart)};
    if constexpr (std::same_as<Layout, icicle_layout>) return {view, cut_rows(std::move(chart), shown, canvas)};
  }
  return {view, layout_of(view, ag, canvas)};
}

template <class Layout, class C, class Canvas>
basic_first_view<Layout> first_view(const tree_view& v, const C& ag, const Canvas& canvas,
                                      const first_view_options& options) {
  const call_tree& t = v.tree();
  const auto* values = std::ranges::data(ag);
  tree_view centered = ring_chart_view(v, ag);
  basic_first_view<Layout> out{centered, {}, {}};
  node_id root = centered.root();
  std::uint32_t limit = centered.max_depth();
  // The trunk: the chain a chart folding chains would draw in its center.
  const double trunk = options.skip_trunk ? options.trunk_share : 0.0;
  for (node_id next; limit > 1 && (next = chain_next(t, values, canvas.index, root, trunk)) != null_node;) {
    out.trunk.push_back(root);
    root = next;
    if (limit != unlimited_depth) --limit;
  }
  out.chain_share = canvas.chain_share;
  if (!options.fit_depth) {
    out.view = tree_view(t, root, limit);
    return out;
  }
  auto [view, chart] = fit_levels<Layout>(t, root, limit, ag, canvas, options);
  double drawn = drawn_share(chart, t, ag, canvas.index);
  if (drawn < options.min_drawn_share && options.fold_chains && !(canvas.chain_share > 0)) {
    Canvas folding = canvas;
    folding.chain_share = options.trunk_share;
    auto [folded_view, folded] = fit_levels<Layout>(t, root, limit, ag, folding, options);
    double folded_drawn = drawn_share(folded, t, ag, canvas.index);
    if (folded_drawn > drawn) {
      view = folded_view;
      chart = std::move(folded);
      drawn = folded_drawn;
      out.chain_share = folding.chain_share;
    }
  }
  out.view = view;
  out.chart = std::move(chart);
  out.drawn = drawn;
  return out;
}

}  // namespace detail

template <chart_layout Layout, metric_column C>
[[nodiscard]] double drawn_share(const Layout& chart, const call_tree& t, const C& ag, const ring_index* index) {
  CCRC_ASSERT(std::ranges::size(ag) == t.size(), "ccrc: the column must have one value per node");
  const auto* values = std::ranges::data(ag);
  if (chart.segments.empty()) return 0;
  const double whole = detail::ring_weight(values[chart.segments[0].node]);
  if (!(whole > 0)) return 0;
  double own = 0;
  for (const auto& s : chart.segments) {
    if (is_line(s)) continue;
    for (node_id x = s.last;; x = t.parent(x)) {
      own += detail::own_weight(t, values, index, x);
      if (x == s.node) break;
    }
  }
  return std::min(1.0, own / whole);
}

/// The view a ring chart of `v` opens on, so that a person reads it at once and sees where the
/// cost goes: centered as ring_chart_view centers it, then moved down the trunk (while the
/// center has one callee holding options.trunk_share of its value: a runtime's start-up
/// frames, a thread's entry point), and cut (within v's own depth limit) at the deepest ring
/// that keeps every ring of a chart laid out with `canvas` at least options.min_ring_px thick
/// and whose visible arcs still cover options.min_coverage of the circle (but not above the
/// rings that would be options.comfortable_ring_px thick). If that chart draws less than
/// options.min_drawn_share of the cost in its segments (drawn_share: a deep profile whose hot
/// contexts lie beyond the edge), the view folds chains (ring_options::chain_share at
/// options.trunk_share: a run of levels that one callee holds is one ring) and is fitted again,
/// kept if it draws more. `ag` is the aggregated column the chart is sized by (the one
/// `canvas.index`, if given, was built with). The trunk is returned for a caption, the chart
/// for drawing (with its chain share, for laying it out again) and the share it draws. Cost:
/// the trunk's callees, plus one or two ring_charts with `canvas` and drawn_share of each
/// (what they show, with an index).
///
///     auto ag = ccrc::inclusive(p.tree(), p.column("samples"));
///     ccrc::ring_options canvas = ccrc::on_canvas(1440, 900, {.heights = ccrc::heights(p.tree())});
///     ccrc::first_view_ring first = ccrc::first_view(ccrc::tree_view(p.tree()), ag, canvas);
///     draw(*first.chart);  // or ccrc::ring_chart(first.view, ag, {canvas with first.chain_share})
template <metric_column C>
[[nodiscard]] first_view_ring first_view(const tree_view& v, const C& ag, const ring_options& canvas,
                                      const first_view_options& options = {}) {
  return detail::first_view<ring_layout>(v, ag, canvas, options);
}

/// The view an icicle of `v` opens on: the same trunk as a ring chart's, then as many rows as
/// keep every row of an icicle laid out with `canvas` at least options.min_row_px high, cut
/// where the deepest row's boxes stop covering options.min_coverage of the width (but not
/// above the rows that would be options.comfortable_row_px high), chains folded as a ring
/// chart's are when that draws more of the cost. Cost: the trunk's callees, plus one or two
/// icicle_charts with `canvas`, handed back as the view's chart (widths do not depend on the
/// rows, so the chart of the cut view is that chart's first rows).
///
///     ccrc::icicle_options canvas{.width = 1440, .height = 900, .heights = ccrc::heights(p.tree())};
///     ccrc::first_view_icicle first = ccrc::first_view(ccrc::tree_view(p.tree()), ag, canvas);
///     draw(*first.chart);
template <metric_column C>
[[nodiscard]] first_view_icicle first_view(const tree_view& v, const C& ag, const icicle_options& canvas,
                                        const first_view_options& options = {}) {
  return detail::first_view<icicle_layout>(v, ag, canvas, options);
}

/// Whether a first view drawing `drawn` of its cost (first_view_ring::drawn) on a tree of
/// `contexts` contexts should be tried on the tree with its recursion eliminated: when it
/// draws less than options.min_drawn_share and the tree is small enough to transform at once
/// (options.max_eliminated_contexts). O(1).
[[nodiscard]] inline bool worth_eliminating_recursion(std::size_t contexts, double drawn,
                                                      const first_view_options& options = {}) noexcept {
  return options.fit_depth && drawn < options.min_drawn_share && contexts <= options.max_eliminated_contexts;
}

/// Whether to draw a first view of the tree with its recursion eliminated, drawing `eliminated`
/// of its cost, rather than the view as read, drawing `as_read`: when it draws at least a tenth
/// more of the cost, so that the tree changes only for what it shows. O(1).
[[nodiscard]] inline bool prefer_eliminated(double as_read, double eliminated) noexcept {
  return eliminated >= as_read + 0.1;
}

/// A profile's first view, and the tree it is drawn from.
template <class Layout>
struct basic_profile_view {
  /// The profile with its recursion eliminated (recursion::all), when the view is drawn from
  /// it; null: from the profile as read. Its address is stable: the view points into it.
  std::unique_ptr<const profile> eliminated;
  /// The first view (of eliminated's tree when set).
  basic_first_view<Layout> first;
  /// Levels below the root of the profile as read and of the tree drawn, when eliminated
  /// (for a caption: "recursion eliminated: 259 → 69 levels").
  std::uint32_t levels_as_read = 0, levels_eliminated = 0;

  /// The profile the view is drawn from.
  [[nodiscard]] const profile& drawn_from(const profile& as_read) const noexcept { return eliminated ? *eliminated : as_read; }
};

using profile_view = basic_profile_view<ring_layout>;
using profile_icicle = basic_profile_view<icicle_layout>;

/// The first view of a whole profile's chart (first_view of its tree, sized by `metric`, whose
/// aggregated column is `ag`), drawn from the profile as read, or from it with its recursion
/// eliminated when worth_eliminating_recursion and prefer_eliminated say so: the papers'
/// answer for a deep profile of recursive code, whose hot contexts then come within the rings.
/// Cost: first_view's, plus, when tried, eliminate_recursion (O(n)), an aggregation and a
/// second first_view.
///
///     auto ag = ccrc::inclusive(p.tree(), p.column(m));
///     ccrc::profile_view first = ccrc::first_view(p, m, ag, canvas);
///     const ccrc::profile& shown = first.drawn_from(p);  // the chart's node ids are its
template <class Canvas>
[[nodiscard]] auto first_view(const profile& p, std::size_t metric, std::span<const double> ag, const Canvas& canvas,
                              const first_view_options& options = {}) {
  using Layout = decltype(layout_of(tree_view(p.tree()), ag, canvas));
  basic_profile_view<Layout> out{nullptr, detail::first_view<Layout>(tree_view(p.tree()), ag, canvas, options)};
  if (!worth_eliminating_recursion(p.size(), out.first.drawn, options)) return out;
  auto eliminated = std::make_unique<const profile>(eliminate_recursion(p).output);
  const call_tree& t = eliminated->tree();
  std::vector<double> eliminated_ag = inclusive(t, eliminated->column(metric));
  std::vector<std::uint32_t> eliminated_heights = heights(t);
  Canvas on_eliminated = canvas;
  on_eliminated.index = nullptr;
  on_eliminated.heights = eliminated_heights;
  auto first = detail::first_view<Layout>(tree_view(t), eliminated_ag, on_eliminated, options);
  if (!prefer_eliminated(out.first.drawn, first.drawn)) return out;
  out.levels_as_read = canvas.heights.empty() ? heights(p.tree())[root_node] : canvas.heights[root_node];
  out.levels_eliminated = eliminated_heights[root_node];
  out.eliminated = std::move(eliminated);
  out.first = std::move(first);
  return out;
}

/// What a first view did to show where the cost goes, in words for a caption, the parts
/// joined by "; ": "recursion eliminated: 259 → 69 levels" (when `levels_eliminated` is not
/// 0), "14 levels of one callee shown as one ring", "9 runs of single callees (120 levels)
/// shown as one ring each" (a row each, in an icicle). Empty when it did neither. O(segments).
template <chart_layout Layout>
[[nodiscard]] std::string first_view_caption(const Layout& chart, std::uint32_t levels_as_read = 0,
                                             std::uint32_t levels_eliminated = 0) {
  std::string out;
  if (levels_eliminated > 0)
    out = "recursion eliminated: " + std::to_string(levels_as_read) + " \xe2\x86\x92 " + std::to_string(levels_eliminated) + " levels";
  std::size_t chains = 0, levels = 0;
  for (const auto& s : chart.segments)
    if (!is_line(s) && s.contexts > 1) {
      ++chains;
      levels += s.contexts;
    }
  if (chains == 0) return out;
  const char* unit = std::same_as<Layout, ring_layout> ? "ring" : "row";
  if (!out.empty()) out += "; ";
  if (chains == 1)
    out += std::to_string(levels) + " levels of one callee shown as one " + unit;
  else
    out += std::to_string(chains) + " runs of single callees (" + std::to_string(levels) + " levels) shown as one " +
           unit + " each";
  return out;
}

}  // namespace ccrc
