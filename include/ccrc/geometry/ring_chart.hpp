// ccrc - Calling Context Ring Chart geometry: a view of a CCT laid out as rings of plain
// segments, for any renderer to draw (001 §3, equations (1)-(4); culling as in §7.2).
#pragma once

#include <ccrc/concepts.hpp>
#include <ccrc/config.hpp>
#include <ccrc/enum_names.hpp>
#include <ccrc/geometry/ring_index.hpp>
#include <ccrc/tree/view.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <numbers>
#include <ranges>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

namespace ccrc {

/// How a ring chart sizes its segments: the papers' three visualisations (001 §3).
enum class ring_sizing : std::uint8_t {
  equal,  ///< (1) the children of a segment share its angle equally; rings of constant width
  angle,  ///< (2) angle ∝ ag(M) of the parent's angle, the parent's self share left uncovered;
          ///< rings of constant width
  area,   ///< (3) angles as (2), radii r_i = sqrt(r_{i-1}^2 + K/π): every ring has area K, so
          ///< equal ag(M) gives equal area at any depth
};

/// The sizings' names, by value (ccrc::name_of, ccrc::enum_named).
[[nodiscard]] constexpr auto enum_names(ring_sizing) noexcept {
  return std::array<std::string_view, 3>{"equal", "angle", "area"};
}

/// The angular order of the children of a segment, clockwise from the parent's start angle.
enum class child_order : std::uint8_t {
  value,      ///< largest aggregated value first, ties in creation order
  name,       ///< by method name, ties in creation order
  insertion,  ///< creation order (the order the profiler met them)
};

/// The orders' names, by value (ccrc::name_of, ccrc::enum_named).
[[nodiscard]] constexpr auto enum_names(child_order) noexcept {
  return std::array<std::string_view, 3>{"value", "name", "insertion"};
}

/// What a segment is, and so how to draw it.
enum class segment_kind : std::uint8_t {
  center,  ///< the view root: a disc of radius r1 (r0 == 0) spanning the full circle
  arc,     ///< an annular sector: radii [r0, r1), angles [a0, a1)
  line,    ///< a segment too thin to see (its outer arc is shorter than
           ///< ring_options::min_arc_px, or empty): draw a radial line from r0 to r1 at
           ///< (a0 + a1) / 2. Its subtree was not visited. Adjacent siblings too thin to see
           ///< share one line per min_arc_px of arc (see ring_segment::contexts).
};

/// The kinds' names, by value (ccrc::name_of, ccrc::enum_named).
[[nodiscard]] constexpr auto enum_names(segment_kind) noexcept {
  return std::array<std::string_view, 3>{"center", "arc", "line"};
}

/// A position in pixels (y grows downwards, as on a screen and in SVG).
struct point {
  double x = 0;
  double y = 0;
};

/// "No segment": the parent of the center.
inline constexpr std::uint32_t no_segment = std::numeric_limits<std::uint32_t>::max();

/// One calling context of a ring chart. Plain numbers: radii in pixels from the chart's
/// center, angles in radians from twelve o'clock, growing clockwise (a point at radius r and
/// angle a is x = cx + r sin a, y = cy - r cos a). Within the chart a0 <= a1, a child's
/// angles lie within its parent's and siblings never overlap.
struct ring_segment {
  node_id node;         ///< the calling context (of a line standing for several: the first)
  std::uint32_t depth;  ///< its ring: 0 for the center, 1 for the view root's children, ...
  std::uint32_t parent; ///< index of the parent's segment in ring_layout::segments (no_segment
                        ///< for the center)
  segment_kind kind;
  double r0, r1;  ///< inner and outer radius, pixels
  double a0, a1;  ///< start and end angle, radians
  /// The calling contexts it stands for: 1; for a line, the run of adjacent siblings too
  /// thin to see that it merges (node and the next contexts - 1 siblings in chart order); for
  /// a chain (ring_options::chain_share), the nested contexts it folds, node to last.
  std::uint32_t contexts = 1;
  /// The deepest calling context it stands for, whose callees are the next ring: node itself,
  /// or the last context of a chain.
  node_id last = null_node;
};

/// The options of ring_chart, used with designated initializers:
/// `{.sizing = ccrc::ring_sizing::area, .center = {720, 450}, .outer_radius = 440}`.
/// Non-finite or negative numbers fall back to safe values (documented per field), so no
/// option can put a NaN or an infinity into a segment.
struct ring_options {
  ring_sizing sizing = ring_sizing::angle;
  child_order order = child_order::value;
  /// Position of the chart's center, pixels.
  point center{};
  /// Radius at which the deepest ring ends, pixels (not finite or < 0: 0).
  double outer_radius = 100;
  /// Radius of the center disc, pixels, at most outer_radius. Negative or not finite
  /// (the default): the center is sized like one more ring, so for equal and angle sizing it
  /// is as wide as a ring (outer_radius / (rings + 1)) and for area sizing it has a ring's
  /// area (outer_radius / sqrt(rings + 1)).
  double center_radius = -1;
  /// Where the center's full circle, and so its first child, starts: radians clockwise from
  /// twelve o'clock (not finite: 0).
  double start_angle = 0;
  /// Culling: a segment whose outer arc (r1 times its angle before padding) is shorter than
  /// this many pixels, or empty, is a line and its subtree is not visited; a run of adjacent
  /// such siblings becomes one line per min_arc_px of arc. 0: no culling (only empty
  /// segments are lines, one each); NaN: 1.
  double min_arc_px = 1;
  /// Gap between neighbouring siblings, pixels along the outer arc of their ring, taken half
  /// from each neighbour's arc (never from the ends of the parent's span, so an only child
  /// keeps its parent's angles; lines keep their whole span). A child whose arc the gaps eat
  /// entirely becomes a line.
  double padding_px = 0;
  /// Optional: ccrc::heights(tree) of the view's tree. With it the number of rings is read in
  /// O(1); without it (and without an index) ring_chart walks the view once to find its
  /// height, which makes a chart of a deep view cost O(nodes of the view) whatever it shows.
  std::span<const std::uint32_t> heights{};
  /// Fit the rings to what is shown: when culling leaves the outer rings without a visible
  /// arc (empty, or lines only), use the largest number of rings n (at least 1, at most the
  /// view's) for which ring n still holds an arc, so that the deepest ring drawn ends at
  /// outer_radius (found by bisection: O(log rings) more layouts). false: the rings are the
  /// view's (depth limit, height) whatever culling shows, so a chart keeps its rings as it is
  /// resized.
  bool fit_visible = true;
  /// Optional: a ring_index of the view's tree and the same aggregated column. It gives the
  /// heights, and with child_order::value the children already sorted with their running
  /// sums: a parent's children are then read only up to the first one too thin to see, and
  /// the chart costs what it shows. The chart is the same with or without it.
  const ring_index* index = nullptr;
  /// Chains: a context whose one callee with a value holds at least this share of its value
  /// (so that its own value is negligible, and its other callees have none) is drawn in one
  /// segment with that callee, and so on down: a run of levels that one callee holds, drawn
  /// as one ring (ring_segment::contexts, ::last), its last context's callees forming the next
  /// ring, so that the rings show where the profile branches. The depth limit then counts
  /// rings. 0 (the default): every context has a ring of its own, as in the papers;
  /// ccrc::first_view folds chains at 0.99 when that draws more of the cost.
  double chain_share = 0;
};

/// Options for a chart centered on a width x height canvas whose deepest ring touches the
/// nearer edges: center = (width / 2, height / 2), outer_radius = min(width, height) / 2.
[[nodiscard]] inline ring_options on_canvas(double width, double height, ring_options o = {}) noexcept {
  o.center = {width / 2, height / 2};
  o.outer_radius = std::min(width, height) / 2;
  return o;
}

/// A laid-out ring chart: the segments, ring by ring from the center (so parents come before
/// children), each ring in clockwise order from the start angle; and the ring radii.
struct ring_layout {
  std::vector<ring_segment> segments;
  /// radii[0] is the center's radius, radii[d] the outer radius of ring d: ring d spans
  /// [radii[d - 1], radii[d]) and radii.back() is the outer radius.
  std::vector<double> radii;
  /// The segments of ring d are segments[ring_begin[d], ring_begin[d + 1]); rings() + 2
  /// entries (a ring that culling left empty has an empty range).
  std::vector<std::size_t> ring_begin;
  point center{};
  double start_angle = 0;
  ring_sizing sizing = ring_sizing::angle;
  child_order order = child_order::value;

  /// Number of rings around the center: min(the view's depth limit, the height of its root),
  /// or fewer when culling would leave the outer ones without an arc (ring_options::fit_visible).
  [[nodiscard]] std::size_t rings() const noexcept { return radii.empty() ? 0 : radii.size() - 1; }
  /// The segments of ring d (0: the center), in clockwise order. A view into the layout, so
  /// not offered on a temporary one.
  [[nodiscard]] std::span<const ring_segment> ring(std::size_t d) const& noexcept {
    if (d + 1 >= ring_begin.size()) return {};
    return std::span(segments).subspan(ring_begin[d], ring_begin[d + 1] - ring_begin[d]);
  }
  std::span<const ring_segment> ring(std::size_t d) const&& = delete;
  /// Number of segments of a kind. O(segments).
  [[nodiscard]] std::size_t count(segment_kind k) const noexcept {
    return static_cast<std::size_t>(
        std::count_if(segments.begin(), segments.end(), [k](const ring_segment& s) { return s.kind == k; }));
  }
};

/// The point at radius r and angle a of a chart (x = cx + r sin a, y = cy - r cos a).
[[nodiscard]] inline point ring_point(const ring_layout& chart, double r, double a) noexcept {
  return {chart.center.x + r * std::sin(a), chart.center.y - r * std::cos(a)};
}

/// Whether segment s is cut off at the chart's edge: an arc on the outermost ring whose
/// calling context has callees that the depth limit (or fitting the rings) left out, for a
/// renderer to mark. O(1).
[[nodiscard]] inline bool beyond_edge(const ring_layout& chart, const call_tree& t, const ring_segment& s) noexcept {
  return s.kind == segment_kind::arc && s.depth == chart.rings() && t.has_children(s.last);
}

/// The ring radii of a chart with `rings` rings around a center (see ring_layout::radii):
/// constant width c for equal and angle sizing (r_i = r_{i-1} + c), constant ring area K for
/// area sizing (r_i = sqrt(r_{i-1}^2 + K/π), equation (4)), with c or K chosen so that the
/// last ring ends at `outer_radius`. `center_radius` as in ring_options. O(rings).
[[nodiscard]] inline std::vector<double> ring_radii(ring_sizing sizing, double outer_radius,
                                                    double center_radius, std::size_t rings) {
  double outer = std::isfinite(outer_radius) && outer_radius > 0 ? outer_radius : 0.0;
  auto n = static_cast<double>(rings);
  double r0;
  if (std::isfinite(center_radius) && center_radius >= 0)
    r0 = std::min(center_radius, outer);
  else
    r0 = sizing == ring_sizing::area ? outer / std::sqrt(n + 1) : outer / (n + 1);
  std::vector<double> radii(rings + 1);
  radii[0] = r0;
  // Closed forms r0 + i c and sqrt(r0^2 + i K/π), rather than the recurrences: no error
  // accumulates over hundreds of rings. The last radius is set exactly.
  double step = sizing == ring_sizing::area ? (outer * outer - r0 * r0) / n : (outer - r0) / n;
  for (std::size_t i = 1; i < rings; ++i) {
    auto k = static_cast<double>(i);
    radii[i] = sizing == ring_sizing::area ? std::sqrt(r0 * r0 + k * step) : r0 + k * step;
  }
  if (rings > 0) radii[rings] = outer;
  return radii;
}

/// The view a ring chart of `v` should be drawn from, so that the center is a calling context:
/// if v's root is the synthetic root of a tree with a single top-level frame and no value of
/// its own (ag(root) == ag(frame): a folded file of one program), the subtree of that frame
/// (main, as in the papers' figures) with one level less, so that the depth limit still
/// counts levels below the synthetic root; v itself otherwise (several top-level frames, a
/// root with its own value, a depth limit of 0, or a view rooted elsewhere). O(1).
///
///     auto ag = ccrc::inclusive(p.tree(), p.column("bytecodes"));
///     ccrc::tree_view v = ccrc::ring_chart_view(ccrc::tree_view(p.tree()), ag);  // main
template <metric_column C>
[[nodiscard]] tree_view ring_chart_view(const tree_view& v, const C& ag) noexcept {
  const call_tree& t = v.tree();
  if (v.root() != root_node || v.max_depth() == 0) return v;
  node_id top = t.first_child(root_node);
  if (top == null_node || t.next_sibling(top) != null_node) return v;
  const auto* values = std::ranges::data(ag);
  if (!(static_cast<double>(values[root_node]) == static_cast<double>(values[top]))) return v;
  return tree_view(t, top, v.max_depth() == unlimited_depth ? unlimited_depth : v.max_depth() - 1);
}

namespace detail {

// The height of v's root within v (levels below it, at most v.max_depth()); stops descending
// once the depth limit is reached. O(nodes of v).
inline std::uint32_t view_height(const tree_view& v) {
  std::uint32_t h = 0;
  preorder(v, [&](node_id, std::uint32_t level) {
    h = std::max(h, level);
    return h < v.max_depth();
  });
  return h;
}

// Sorts one parent's (weight, child) pairs into chart order.
inline void sort_children(const call_tree& t, std::vector<std::pair<double, node_id>>& kids, child_order order) {
  switch (order) {
    case child_order::value:
      std::sort(kids.begin(), kids.end(), heavier);
      break;
    case child_order::name:
      std::sort(kids.begin(), kids.end(), [&t](const auto& a, const auto& b) {
        std::string_view na = t.name(a.second), nb = t.name(b.second);
        return na != nb ? na < nb : a.second < b.second;
      });
      break;
    case child_order::insertion:
      break;
  }
}

// The numbers that are the same for every parent of a partition.
struct partition_params {
  ring_sizing sizing;
  double min_px;       // culling: a child shorter than this, pixels, is a line
  double padding;      // gap between siblings, pixels
  double chain_share;  // chains folded (ring_options::chain_share): 0 for none
};

// The options of a chart as its partition takes them: a NaN threshold is 1 px, a negative one
// 0; padding that is not a positive finite number is none; a chain share outside (0, 1] folds
// no chain.
[[nodiscard]] inline partition_params partition_params_of(ring_sizing sizing, double min_px, double padding,
                                                          double chain_share) noexcept {
  return {sizing, std::isnan(min_px) ? 1.0 : std::max(min_px, 0.0), std::isfinite(padding) && padding > 0 ? padding : 0.0,
          chain_share > 0 && chain_share <= 1 ? chain_share : 0.0};
}

// The next context of a chain below n: n's one callee with a value, when it holds at least
// `share` of n's value; null_node otherwise (and for a share of 0). With the index, whose
// children are sorted heaviest first, O(1); else O(children of n).
template <class Values>
[[nodiscard]] node_id chain_next(const call_tree& t, const Values* values, const ring_index* index, node_id n,
                                 double share) {
  const double whole = ring_weight(values[n]);
  if (!(share > 0) || !(whole > 0)) return null_node;
  node_id only = null_node;
  if (index) {
    std::span<const node_id> kids = index->children(n);
    if (kids.empty() || (kids.size() > 1 && ring_weight(values[kids[1]]) > 0)) return null_node;
    only = kids[0];
  } else {
    for (node_id c : t.children(n)) {
      if (!(ring_weight(values[c]) > 0)) continue;
      if (only != null_node) return null_node;
      only = c;
    }
  }
  return only != null_node && ring_weight(values[only]) >= share * whole ? only : null_node;
}

// The levels of a chart of v before culling: min(the depth limit, the height of v's root),
// read from the index or the heights if given, else found by walking v.
[[nodiscard]] inline std::uint32_t view_levels(const tree_view& v, const ring_index* index,
                                               std::span<const std::uint32_t> heights) {
  return index              ? std::min(v.max_depth(), index->height(v.root()))
         : !heights.empty() ? std::min(v.max_depth(), heights[v.root()])
                            : view_height(v);
}

// Appends the segments of the children of segs[i]: `ids` in chart order with the running sums
// of their weights. `monotone`: the children are by decreasing weight, so once one is too thin
// to see all the rest are, and runs of them are cut by binary search.
//
// This partition is the one every chart of a view shares: children's spans [s0, s1) within
// their parent's, in the parent's units (ring_chart's radians, icicle_chart's pixels). The
// projection `proj` is all that differs: proj.px(depth) is how many pixels a unit of span is
// at the level's culling edge (a ring's outer radius; 1 for an icicle's x), proj.begin and
// proj.end read a segment's span, proj.is_line tells a line, and proj.make builds a segment.
template <class Segment, class Projection, class Values>
void place_children(std::vector<Segment>& segs, std::size_t i, std::span<const node_id> ids,
                    std::span<const double> sums, const Values* values, const partition_params& p,
                    const Projection& proj, bool monotone) {
  const Segment s = segs[i];  // a copy: appending may reallocate
  const std::size_t n = ids.size();
  const bool equal = p.sizing == ring_sizing::equal;
  const std::uint32_t depth = s.depth + 1;
  const double s0 = proj.begin(s), s1 = proj.end(s), alpha = s1 - s0, px = proj.px(depth);
  const double denominator = std::max(ring_weight(values[s.node]), sums[n - 1]);
  const double gap = p.padding > 0 && px > 0 ? p.padding / px : 0.0;
  // Where child k starts (k == n: where the last one ends), before padding.
  auto boundary = [&](std::size_t k) {
    if (k == 0) return s0;
    if (equal) return k == n ? s1 : std::min(s0 + alpha * (static_cast<double>(k) / static_cast<double>(n)), s1);
    return denominator > 0 ? std::min(s0 + alpha * (sums[k - 1] / denominator), s1) : s0;
  };
  // Visibility from the weight itself, not from differences of sums: exactly monotone.
  auto visible = [&](std::size_t k) {
    double length = equal ? px * (alpha / static_cast<double>(n))
                    : denominator > 0 ? px * (alpha * (ring_weight(values[ids[k]]) / denominator))
                                      : 0.0;
    return length > 0 && length >= p.min_px;
  };
  auto long_enough = [&](std::size_t first, std::size_t last) {
    return px * (boundary(last + 1) - boundary(first)) >= p.min_px;
  };
  auto parent = static_cast<std::uint32_t>(i);
  for (std::size_t k = 0; k < n;) {
    if (visible(k)) {
      double b0 = boundary(k), b1 = boundary(k + 1);
      double a0 = k > 0 ? b0 + gap / 2 : b0, a1 = k + 1 < n ? b1 - gap / 2 : b1;
      if (a1 > a0)
        segs.push_back(proj.make(ids[k], depth, parent, true, a0, a1, 1));
      else
        segs.push_back(proj.make(ids[k], depth, parent, false, b0, b1, 1));
      ++k;
      continue;
    }
    // A run of siblings too thin to see: one line, ended once it is min_px long, before a
    // visible sibling, or at the last child.
    std::size_t last = k;
    if (monotone) {
      std::size_t lo = k, hi = n - 1;  // the first `last` in [lo, hi] long enough, or n - 1
      while (lo < hi) {
        std::size_t mid = lo + (hi - lo) / 2;
        if (long_enough(k, mid))
          hi = mid;
        else
          lo = mid + 1;
      }
      last = lo;
    } else {
      while (!long_enough(k, last) && last + 1 < n && !visible(last + 1)) ++last;
    }
    segs.push_back(proj.make(ids[k], depth, parent, false, boundary(k), boundary(last + 1),
                             static_cast<std::uint32_t>(last - k + 1)));
    k = last + 1;
  }
}

// What a partition's layout reuses from one parent to the next.
struct partition_scratch {
  std::vector<std::pair<double, node_id>> kids;  // (weight, child) of one parent
  std::vector<node_id> ids;
  std::vector<double> sums;
};

// Lays out the partition below segs[0], the view root's segment (the only one in segs), at
// most `levels` levels deep. The segment list is its own queue: level d is complete before
// level d + 1 is read, and a parent's children are appended in chart order, so each level
// comes out in span order. Returns the deepest level that holds a segment other than a line
// (0 if none does).
template <class Segment, class Projection, class Values>
std::uint32_t partition(const call_tree& t, const Values* values, const ring_index* index, child_order order,
                        const partition_params& params, std::uint32_t levels, const Projection& proj,
                        std::vector<Segment>& segs, partition_scratch& scratch) {
  const bool indexed = index && order == child_order::value;
  for (std::size_t i = 0; i < segs.size(); ++i) {
    if (proj.is_line(segs[i])) continue;
    // A chain's segment stands for its contexts down to the last, whose callees come next;
    // its span stays its first context's, so the gap its callees leave is the chain's own value.
    node_id last = segs[i].node;
    std::uint32_t folded = 1;
    for (node_id next; (next = chain_next(t, values, index, last, params.chain_share)) != null_node; ++folded) last = next;
    segs[i].last = last;
    segs[i].contexts = folded;
    if (segs[i].depth >= levels || !t.has_children(last)) continue;
    if (indexed) {
      place_children(segs, i, index->children(last), index->sums(last), values, params, proj, true);
      continue;
    }
    scratch.kids.clear();
    for (node_id c : t.children(last)) scratch.kids.emplace_back(ring_weight(values[c]), c);
    sort_children(t, scratch.kids, order);
    scratch.ids.clear();
    scratch.sums.clear();
    double sum = 0;  // in chart order, as ring_index sums: the same doubles either way
    for (const auto& [weight, child] : scratch.kids) {
      scratch.ids.push_back(child);
      scratch.sums.push_back(sum += weight);
    }
    place_children(segs, i, std::span<const node_id>(scratch.ids), std::span<const double>(scratch.sums), values,
                   params, proj, order == child_order::value);
  }
  std::size_t last = segs.size() - 1;
  while (last > 0 && proj.is_line(segs[last])) --last;
  return segs[last].depth;
}

// The start of each level's segments in a partition laid out level by level (see
// ring_layout::ring_begin): levels + 2 entries.
template <class Segment>
[[nodiscard]] std::vector<std::size_t> level_begin(const std::vector<Segment>& segs, std::uint32_t levels) {
  std::vector<std::size_t> begin(std::size_t{levels} + 2, segs.size());
  for (std::size_t i = segs.size(); i-- > 0;) begin[segs[i].depth] = i;
  return begin;
}

// A partition's spans as a ring chart's angles, its levels as rings.
struct ring_projection {
  const std::vector<double>* radii;
  [[nodiscard]] double px(std::uint32_t depth) const noexcept { return (*radii)[depth]; }
  [[nodiscard]] static double begin(const ring_segment& s) noexcept { return s.a0; }
  [[nodiscard]] static double end(const ring_segment& s) noexcept { return s.a1; }
  [[nodiscard]] static bool is_line(const ring_segment& s) noexcept { return s.kind == segment_kind::line; }
  [[nodiscard]] ring_segment make(node_id n, std::uint32_t depth, std::uint32_t parent, bool shown, double a0,
                                  double a1, std::uint32_t contexts) const noexcept {
    return {n, depth, parent, shown ? segment_kind::arc : segment_kind::line, (*radii)[depth - 1], (*radii)[depth],
            a0, a1, contexts, n};
  }
};

}  // namespace detail

/// Lays out the ring chart of a view: the view root as the center disc, each calling context
/// of the view as a ring segment around its caller's, sized by `ag` (the aggregated metric,
/// ccrc::inclusive of the complete tree: selecting a subtree or cutting the depth does not
/// recompute it). Segments come ring by ring (parents before children), each ring clockwise.
///
/// Sizing: equation (1), (2) or (4) of the papers, see ring_sizing. Values that are zero,
/// negative, NaN or infinite weigh nothing: such a child gets an empty span at its place and
/// becomes (part of) a line. A parent whose children's positive values add up to more than
/// its own ag (a negative self value) shares its span in proportion to the children's sum, so
/// a child never leaves its parent's span. No NaN or infinity reaches a segment, whatever the
/// values or options.
///
/// Culling: a child whose outer arc is shorter than options.min_arc_px is not visited further;
/// adjacent such siblings are merged into lines of about min_arc_px each, so the number of
/// segments is bounded by what the canvas can show. Rings: the view's (depth limit, height),
/// then, with options.fit_visible, the most whose outermost ring still holds an arc, so that
/// the deepest ring drawn ends at the outer radius.
///
/// Cost: O(s log k) for s segments and k children per visible parent, plus the children of
/// visible parents (read to size and sort them), plus O(nodes of v) to count the rings unless
/// options.heights or options.index is given; times O(log rings) when fitting drops rings. With
/// an index and child_order::value, only the shown children are read: a chart of a 10^7-node
/// CCT costs what a 10^4-node one does.
///
///     auto ag = ccrc::inclusive(p.tree(), p.column("bytecodes"));
///     auto h = ccrc::heights(p.tree());
///     auto v = ccrc::ring_chart_view(ccrc::tree_view(p.tree()), ag);
///     ccrc::ring_layout chart = ccrc::ring_chart(v, ag, ccrc::on_canvas(1440, 900, {.heights = h}));
template <metric_column C>
[[nodiscard]] ring_layout ring_chart(const tree_view& v, const C& ag, const ring_options& options = {}) {
  const call_tree& t = v.tree();
  CCRC_ASSERT(std::ranges::size(ag) == t.size(), "ccrc: the column must have one value per node");
  const auto* values = std::ranges::data(ag);
  const ring_index* index = options.index;
  CCRC_ASSERT(!index || index->size() == t.size(), "ccrc: the index is of another tree");
  CCRC_ASSERT(options.heights.empty() || options.heights.size() == t.size(),
              "ccrc: heights must have one value per node");
  constexpr double full_circle = 2 * std::numbers::pi;
  double start = std::isfinite(options.start_angle) ? options.start_angle : 0.0;
  point center = options.center;
  if (!std::isfinite(center.x)) center.x = 0;
  if (!std::isfinite(center.y)) center.y = 0;

  std::uint32_t rings = detail::view_levels(v, index, options.heights);
  ring_layout out;
  out.center = center;
  out.start_angle = start;
  out.sizing = options.sizing;
  out.order = options.order;
  const detail::partition_params params =
      detail::partition_params_of(options.sizing, options.min_arc_px, options.padding_px, options.chain_share);
  std::vector<ring_segment>& segs = out.segments;
  detail::partition_scratch scratch;
  // Lays the chart out with n rings; returns the deepest ring that holds an arc (the center's
  // 0 if none does).
  auto lay_out = [&](std::uint32_t n) {
    out.radii = ring_radii(options.sizing, options.outer_radius, options.center_radius, n);
    segs.clear();
    segs.push_back({v.root(), 0, no_segment, segment_kind::center, 0.0, out.radii[0], start, start + full_circle, 1, v.root()});
    return detail::partition(t, values, index, options.order, params, n, detail::ring_projection{&out.radii}, segs,
                             scratch);
  };
  std::uint32_t deepest = lay_out(rings);
  if (options.fit_visible && deepest < rings) {
    // Culling left the outer rings without an arc. With fewer rings every ring is wider, so
    // every arc stays an arc and the deepest ring keeps its arcs: "ring n holds an arc when
    // laid out with n rings" is true up to some n, false beyond. Find that n between
    // `deepest` (true) and `rings` (false) by bisection, one layout a step; at least one ring,
    // so that a center whose callees are all too thin still shows them as lines.
    std::uint32_t lo = std::max(deepest, 1u), hi = rings - 1, laid = rings;
    while (lo < hi) {
      std::uint32_t mid = lo + (hi - lo + 1) / 2;
      laid = mid;
      if (lay_out(mid) == mid)
        lo = mid;
      else
        hi = mid - 1;
    }
    if (laid != lo) lay_out(lo);
    rings = lo;
  }
  out.ring_begin = detail::level_begin(segs, rings);
  return out;
}

}  // namespace ccrc
