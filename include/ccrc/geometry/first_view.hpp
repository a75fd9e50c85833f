// ccrc - the view a ring chart opens on: where the profile branches, as deep as rings stay
// thick enough to read.
#pragma once

#include <ccrc/concepts.hpp>
#include <ccrc/geometry/ring_chart.hpp>
#include <ccrc/tree/view.hpp>

#include <algorithm>
#include <cmath>
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
  /// The outermost ring shown still holds visible arcs covering at least this share of the
  /// circle: deeper rings, holding only thin spikes (a few long, narrow call chains), are left
  /// beyond the edge, and the rings shown are thicker for it ...
  double min_coverage = 0.05;
  /// ... unless they are this thick already: the view keeps at least as many rings as would be
  /// this thick at equal widths (a small profile is shown whole, spikes and all).
  double comfortable_ring_px = 20;
  /// A context with one callee holding at least this share of its aggregated value (so that
  /// its own value and its other callees are negligible) is part of the trunk above the centre.
  double trunk_share = 0.99;
};

/// A first view and the trunk it leaves out.
struct opening_view {
  tree_view view;
  /// The contexts above the view's root that it leaves out, outermost first (from the root of
  /// the view asked for to the new root's caller): a chain of single callees, for the centre's
  /// caption or breadcrumbs. Empty when the view starts where asked.
  std::vector<node_id> trunk;
  /// ring_chart(view, ag, canvas), when fitting the depth laid it out already (the coverage
  /// is read off a layout): a renderer draws it rather than laying the view out again.
  std::optional<ring_layout> chart;
};

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

/// The view a ring chart of `v` opens on, so that a person reads it at once: centred as
/// ring_chart_view centres it, then moved down the trunk (while the centre has one callee
/// holding options.trunk_share of its value: a runtime's start-up frames, a thread's entry
/// point), and cut (within v's own depth limit) at the deepest ring that keeps every ring of a
/// chart laid out with `canvas` at least options.min_ring_px thick and whose visible arcs still
/// cover options.min_coverage of the circle (but not above the rings that would be
/// options.comfortable_ring_px thick). `ag` is the aggregated column the chart is sized by
/// (the one `canvas.index`, if given, was built with). The trunk it leaves out is returned for
/// a caption, and the chart when fitting the depth laid it out. Cost: the trunk's callees, plus
/// one ring_chart with `canvas` (what it shows, with an index).
///
///     auto ag = ccrc::inclusive(p.tree(), p.column("samples"));
///     ccrc::ring_options canvas = ccrc::on_canvas(1440, 900, {.heights = ccrc::heights(p.tree())});
///     ccrc::opening_view first = ccrc::first_view(ccrc::tree_view(p.tree()), ag, canvas);
///     ccrc::ring_layout chart = ccrc::ring_chart(first.view, ag, canvas);
template <metric_column C>
[[nodiscard]] opening_view first_view(const tree_view& v, const C& ag, const ring_options& canvas,
                                      const first_view_options& options = {}) {
  const call_tree& t = v.tree();
  const auto* values = std::ranges::data(ag);
  tree_view centred = ring_chart_view(v, ag);
  opening_view out{centred, {}, {}};
  node_id root = centred.root();
  std::uint32_t limit = centred.max_depth();
  auto weight = [&](node_id n) { return detail::ring_weight(values[n]); };
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
  std::uint32_t rings = options.fit_depth ? std::min(limit, rings_that_fit(canvas, options.min_ring_px)) : limit;
  out.view = tree_view(t, root, rings);
  if (options.fit_depth && options.min_coverage > 0 && rings > 1) {
    // The arcs of each ring, laid out with every ring kept: fewer rings only make them wider,
    // so a ring's coverage here is at most what it is in the chart finally drawn.
    ring_options all = canvas;
    all.fit_visible = false;
    ring_layout chart = ring_chart(out.view, ag, all);
    std::vector<double> covered(chart.rings() + 1, 0.0);
    for (const ring_segment& s : chart.segments)
      if (s.kind == segment_kind::arc) covered[s.depth] += s.a1 - s.a0;
    ring_options equal_widths = canvas;
    equal_widths.sizing = ring_sizing::equal;
    std::uint32_t shown = std::min({rings, static_cast<std::uint32_t>(chart.rings()),
                                    rings_that_fit(equal_widths, options.comfortable_ring_px)});
    for (std::uint32_t d = shown + 1; d < covered.size(); ++d)
      if (covered[d] >= options.min_coverage * 2 * std::numbers::pi) shown = d;
    out.view = tree_view(t, root, shown);
    // Uncut, with an arc on its outermost ring, the layout is what ring_chart makes of the view
    // whether or not it fits the rings to what is visible.
    if (shown == chart.rings() && covered.back() > 0) out.chart = std::move(chart);
  }
  return out;
}

}  // namespace ccrc
