// ccrc - the icicle (flame graph) of a view: the ring chart's partition in Cartesian
// coordinates, rows of rectangles for any renderer to draw.
#pragma once

#include <ccrc/concepts.hpp>
#include <ccrc/config.hpp>
#include <ccrc/geometry/ring_chart.hpp>
#include <ccrc/geometry/ring_index.hpp>
#include <ccrc/tree/view.hpp>

#include <algorithm>
#include <cmath>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <ranges>
#include <span>
#include <vector>

namespace ccrc {

/// What an icicle segment is, and so how to draw it. The codes are segment_kind's (0, 1, 2),
/// so that one renderer's table serves both charts.
enum class icicle_kind : std::uint8_t {
  root,  ///< the view root: a bar over the chart's whole width (what the ring's center disc is)
  box,   ///< a rectangle [x0, x1) x [y0, y1) (what a ring's arc is)
  line,  ///< a box too narrow to see (narrower than icicle_options::min_width_px, or empty):
         ///< draw a vertical line from y0 to y1 at (x0 + x1) / 2. Its subtree was not visited.
         ///< Adjacent siblings too narrow to see share one line per min_width_px of width (see
         ///< icicle_segment::contexts).
};

/// One calling context of an icicle. Plain numbers, pixels (y grows downwards): within the
/// chart x0 <= x1, y0 <= y1, a child's x-span lies within its parent's, siblings never overlap,
/// and the child is one row further from the root.
struct icicle_segment {
  node_id node;         ///< the calling context (of a line standing for several: the first)
  std::uint32_t depth;  ///< its row: 0 for the root, 1 for the view root's children, ...
  std::uint32_t parent; ///< index of the parent's segment in icicle_layout::segments
                        ///< (no_segment for the root)
  icicle_kind kind;
  double x0, x1;  ///< left and right edge
  double y0, y1;  ///< top and bottom edge: the row's
  /// The calling contexts it stands for: 1; for a line, the run of adjacent siblings too
  /// narrow to see that it merges (node and the next contexts - 1 siblings in chart order); for
  /// a chain (icicle_options::chain_share), the nested contexts it folds, node to last.
  std::uint32_t contexts = 1;
  /// The deepest calling context it stands for, whose callees are the next row: node itself,
  /// or the last context of a chain.
  node_id last = null_node;

  /// Every field equal (a chart compared with another layout of the same view).
  bool operator==(const icicle_segment&) const = default;
};

/// The options of icicle_chart, used with designated initializers:
/// `{.origin = {260, 28}, .width = 1172, .height = 864, .root_at_bottom = true}`.
/// Non-finite or negative numbers fall back to safe values (documented per field), so no
/// option can put a NaN or an infinity into a segment.
struct icicle_options {
  /// equal: children share their parent's width equally; angle (a flame graph): width ∝ ag(M)
  /// of the parent's width, its self share left uncovered at the right; area lays out as angle
  /// (rows have one height, so a box's area is already ∝ ag(M)).
  ring_sizing sizing = ring_sizing::angle;
  child_order order = child_order::value;
  /// The chart's top-left corner, pixels (not finite: 0).
  point origin{};
  /// The chart's size, pixels (not finite or < 0: 0). The root's row and every row below it
  /// share the height equally ...
  double width = 100, height = 100;
  /// ... but are at most this high, pixels (not a number or <= 0: no bound), so that a view of
  /// a few levels does not stretch them: the rows then end short of the height, stacked from
  /// the root's edge (the top, or the bottom with root_at_bottom).
  double max_row_px = std::numeric_limits<double>::infinity();
  /// The root's row at the bottom and callees above it, as a flame graph is drawn; false (the
  /// default): the root at the top, callees below, an icicle.
  bool root_at_bottom = false;
  /// Culling: a box narrower than this many pixels, or empty, is a line and its subtree is not
  /// visited; a run of adjacent such siblings becomes one line per min_width_px. 0: no culling
  /// (only empty boxes are lines, one each); NaN: 1.
  double min_width_px = 1;
  /// Gap between neighbouring siblings, pixels, taken half from each neighbour (never from the
  /// ends of the parent's span, so an only child keeps its parent's width; lines keep their
  /// whole span). A child whose width the gaps eat entirely becomes a line.
  double padding_px = 0;
  /// Optional: ccrc::heights(tree) of the view's tree, so that the number of rows is read in
  /// O(1) rather than found by walking the view.
  std::span<const std::uint32_t> heights{};
  /// Fit the rows to what is shown: when culling leaves the deepest rows without a box (empty,
  /// or lines only), use the deepest row that holds one (at least 1), so that it ends at the
  /// chart's far edge. Widths do not depend on the rows, so this costs no second layout.
  /// false: the rows are the view's (depth limit, height) whatever culling shows.
  bool fit_visible = true;
  /// Optional: a ring_index of the view's tree and the same aggregated column, as for
  /// ring_chart: the chart is the same, and costs what it shows.
  const ring_index* index = nullptr;
  /// Chains folded into one box, as ring_options::chain_share folds them into one ring
  /// segment: 0 (the default) for none.
  double chain_share = 0;
};

/// A laid-out icicle: the segments row by row from the root (so parents come before
/// children), each row from left to right; and the rows' edges.
struct icicle_layout {
  std::vector<icicle_segment> segments;
  /// The rows' edges from the top of the chart down, rows() + 2 of them: the k-th band from
  /// the top spans [edges[k], edges[k + 1]). It is row k, or row rows() - k when
  /// root_at_bottom.
  std::vector<double> edges;
  /// The segments of row d are segments[row_begin[d], row_begin[d + 1]); rows() + 2 entries.
  std::vector<std::size_t> row_begin;
  double x0 = 0, x1 = 0;  ///< the chart's left and right edge: the root's span
  bool root_at_bottom = false;
  ring_sizing sizing = ring_sizing::angle;
  child_order order = child_order::value;

  /// Number of rows below the root: min(the view's depth limit, the height of its root), or
  /// fewer when culling leaves the deepest ones without a box (icicle_options::fit_visible).
  [[nodiscard]] std::size_t rows() const noexcept { return edges.size() < 2 ? 0 : edges.size() - 2; }
  /// The height of a row, pixels.
  [[nodiscard]] double row_height() const noexcept { return edges.size() < 2 ? 0 : edges[1] - edges[0]; }
  /// The segments of row d (0: the root), from left to right. A view into the layout, so not
  /// offered on a temporary one.
  [[nodiscard]] std::span<const icicle_segment> row(std::size_t d) const& noexcept {
    if (d + 1 >= row_begin.size()) return {};
    return std::span(segments).subspan(row_begin[d], row_begin[d + 1] - row_begin[d]);
  }
  std::span<const icicle_segment> row(std::size_t d) const&& = delete;
  /// Number of segments of a kind. O(segments).
  [[nodiscard]] std::size_t count(icicle_kind k) const noexcept {
    return static_cast<std::size_t>(
        std::count_if(segments.begin(), segments.end(), [k](const icicle_segment& s) { return s.kind == k; }));
  }
};

/// A laid-out chart of either projection: what highlighting and the first view take alike.
template <class Layout>
concept chart_layout = std::same_as<Layout, ring_layout> || std::same_as<Layout, icicle_layout>;

/// Whether segment s is cut off at the chart's far edge: a box on the last row whose calling
/// context has callees that the depth limit (or fitting the rows) left out, for a renderer to
/// mark. O(1).
[[nodiscard]] inline bool beyond_edge(const icicle_layout& chart, const call_tree& t, const icicle_segment& s) noexcept {
  return s.kind == icicle_kind::box && s.depth == chart.rows() && t.has_children(s.last);
}

namespace detail {

// A partition's spans as an icicle's x, pixel for pixel; the rows' y are set once the number
// of rows is known.
struct icicle_projection {
  [[nodiscard]] static double px(std::uint32_t) noexcept { return 1; }
  [[nodiscard]] static double begin(const icicle_segment& s) noexcept { return s.x0; }
  [[nodiscard]] static double end(const icicle_segment& s) noexcept { return s.x1; }
  [[nodiscard]] static bool is_line(const icicle_segment& s) noexcept { return s.kind == icicle_kind::line; }
  [[nodiscard]] static icicle_segment make(node_id n, std::uint32_t depth, std::uint32_t parent, bool shown, double x0,
                                           double x1, std::uint32_t contexts) noexcept {
    return {n, depth, parent, shown ? icicle_kind::box : icicle_kind::line, x0, x1, 0.0, 0.0, contexts, n};
  }
};


// Keeps the first `rows` rows of `chart` (laid out with `options`, at least as many rows) and
// gives them their y's: the root's row and `rows` more share options.height. Widths do not
// depend on the rows, so this is the chart of the same view cut at `rows`. O(segments).
inline void place_rows(icicle_layout& chart, std::uint32_t rows, const icicle_options& options) {
  std::vector<icicle_segment>& segs = chart.segments;
  std::size_t end = segs.size();
  while (end > 0 && segs[end - 1].depth > rows) --end;
  segs.resize(end);
  auto length = [](double x) { return std::isfinite(x) && x > 0 ? x : 0.0; };
  const double top = std::isfinite(options.origin.y) ? options.origin.y : 0.0, height = length(options.height);
  // Closed forms first + k h, the last edge set exactly: no error accumulates over many rows.
  const double bands = static_cast<double>(rows) + 1;
  const double h = options.max_row_px > 0 ? std::min(height / bands, options.max_row_px) : height / bands;
  const double used = h < height / bands ? h * bands : height;
  const double first = options.root_at_bottom ? top + height - used : top;
  chart.edges.resize(std::size_t{rows} + 2);
  for (std::size_t k = 0; k + 1 < chart.edges.size(); ++k) chart.edges[k] = first + static_cast<double>(k) * h;
  chart.edges.back() = first + used;
  for (icicle_segment& s : segs) {
    std::size_t band = options.root_at_bottom ? rows - s.depth : s.depth;
    s.y0 = chart.edges[band];
    s.y1 = chart.edges[band + 1];
  }
  chart.row_begin = level_begin(segs, rows);
}

}  // namespace detail

/// Whether a segment of either chart is a line: thin siblings merged, their callees not drawn.
[[nodiscard]] inline bool is_line(const ring_segment& s) noexcept { return detail::ring_projection::is_line(s); }
[[nodiscard]] inline bool is_line(const icicle_segment& s) noexcept { return detail::icicle_projection::is_line(s); }

/// Lays out the icicle of a view: the view root as a bar over the whole width, each calling
/// context of the view as a box in the row below its caller's (above it with root_at_bottom),
/// within its caller's x-span. The partition is ring_chart's, the same code: a box's share of
/// its parent's width is the ring segment's share of its parent's angle, with the same sizing,
/// child order, culling into lines and padding, measured in pixels of width where the ring
/// measures pixels of outer arc. Segments come row by row (parents before children), each row
/// from left to right. No NaN or infinity reaches a segment, whatever the values or options.
///
/// Rows: the view's (depth limit, height), then, with options.fit_visible, down to the deepest
/// that holds a box; the root's row and the rest share options.height equally, each at most
/// options.max_row_px high.
///
/// Cost: O(s log k) for s segments and k children per visible parent, plus the children of
/// visible parents, plus O(nodes of v) to count the rows unless options.heights or
/// options.index is given. With an index and child_order::value, only the shown children are
/// read.
///
///     auto ag = ccrc::inclusive(p.tree(), p.column("samples"));
///     auto v = ccrc::ring_chart_view(ccrc::tree_view(p.tree()), ag);
///     ccrc::icicle_layout chart = ccrc::icicle_chart(v, ag, {.width = 1440, .height = 900});
///     for (const ccrc::icicle_segment& s : chart.segments) draw_rect(s.x0, s.y0, s.x1 - s.x0, s.y1 - s.y0);
template <metric_column C>
[[nodiscard]] icicle_layout icicle_chart(const tree_view& v, const C& ag, const icicle_options& options = {}) {
  const call_tree& t = v.tree();
  CCRC_ASSERT(std::ranges::size(ag) == t.size(), "ccrc: the column must have one value per node");
  const ring_index* index = options.index;
  CCRC_ASSERT(!index || index->size() == t.size(), "ccrc: the index is of another tree");
  CCRC_ASSERT(options.heights.empty() || options.heights.size() == t.size(),
              "ccrc: heights must have one value per node");
  const double left = std::isfinite(options.origin.x) ? options.origin.x : 0.0;
  const double width = std::isfinite(options.width) && options.width > 0 ? options.width : 0.0;

  icicle_layout out;
  out.x0 = left;
  out.x1 = left + width;
  out.root_at_bottom = options.root_at_bottom;
  out.sizing = options.sizing;
  out.order = options.order;
  std::vector<icicle_segment>& segs = out.segments;
  segs.push_back({v.root(), 0, no_segment, icicle_kind::root, out.x0, out.x1, 0.0, 0.0, 1, v.root()});
  std::uint32_t rows = detail::view_levels(v, index, options.heights);
  detail::partition_scratch scratch;
  std::uint32_t deepest = detail::partition(
      t, std::ranges::data(ag), index, options.order,
      detail::partition_params_of(options.sizing, options.min_width_px, options.padding_px, options.chain_share), rows,
      detail::icicle_projection{}, segs, scratch);
  // Unlike a ring's arcs, widths do not change with the number of rows: the chart of fewer
  // rows is this one's first rows. At least one, so that a root whose callees are all too
  // narrow still shows them as lines.
  if (options.fit_visible && deepest < rows) rows = std::max(deepest, 1u);
  detail::place_rows(out, rows, options);
  return out;
}

}  // namespace ccrc
