// ccrc - blueprint geometry: the diff tree as boxes, callers above callees (Rizel).
#pragma once

#include <ccrc/config.hpp>
#include <ccrc/diff/diff.hpp>
#include <ccrc/diff/hot_path.hpp>
#include <ccrc/tree/view.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace ccrc {

/// Options of blueprint_chart. Lengths are in units (pixels, for an SVG at scale 1).
struct blueprint_options {
  /// The diff node at the top. The synthetic root (the default) is not a context and gets no
  /// box: its shown children form the top row.
  node_id root = root_node;
  /// Height of the box with the largest |H| of the whole diff: heights are |H| x this / max|H|.
  double max_box_height = 120;
  /// Width of the box with the largest W of the whole diff.
  double max_box_width = 60;
  /// Width of a box with W = 0 (a context executed as often in both runs): the paper's 5 pixels.
  double min_box_width = 5;
  /// Height of a box with H = 0, so that it stays visible.
  double min_box_height = 2;
  /// Room across that each box takes at least (for a label under it); 0: its own width.
  double slot_width = 0;
  double horizontal_gap = 8;  ///< between neighbouring subtrees
  double vertical_gap = 24;   ///< between rows, where the edges run
  /// Units per unit of H (share of the run) and per unit of W; 0: derived from the largest
  /// |H| and W of the diff (one O(n) pass). Give them to keep the scale fixed while the user
  /// expands and collapses.
  double height_scale = 0;
  double width_scale = 0;
};

/// "No box": the parent of a top-row box.
inline constexpr std::uint32_t no_box = std::numeric_limits<std::uint32_t>::max();

/// One displayed context of a blueprint.
struct blueprint_box {
  node_id node;            ///< the diff node (see cct_diff for its numbers)
  std::uint32_t parent;    ///< index of the caller's box, or no_box for the top row
  std::uint32_t level;     ///< row, 0 at the top
  double x, y;             ///< top-left corner; y grows downwards
  double width, height;    ///< width ∝ W (at least min_box_width), height ∝ |H|
  diff_status status;      ///< the box's color
  bool hidden_children;    ///< callees not displayed: the paper's thick border
};

/// A laid-out blueprint: boxes in pre-order (a caller before its callees, callees left to
/// right in diff-tree order) and the extent of the drawing, from (0, 0). An edge joins the
/// bottom center of boxes[b.parent] to the top center of b.
struct blueprint_layout {
  std::vector<blueprint_box> boxes;
  double width = 0;
  double height = 0;
};

/// Lays out the shown part of a diff as Rizel's performance evolution blueprint: a top-down
/// tree of boxes, one row per level (rows as tall as their tallest box), each caller centered
/// above the span of its callees' subtrees. A context is displayed if shown[d] is non-zero and
/// its caller is displayed (the root option is always displayed); the caller owns `shown`
/// and changes it with show_children, show_subtree, hide_subtree, show_context, or
/// hot_path_shown for Rizel's first view. No NaN or infinity in any box.
///
/// O(displayed boxes and their children) with both scales given, plus O(n) otherwise.
///
///     std::vector<char> shown = ccrc::hot_path_shown(d);
///     ccrc::show_children(d, d.tree().parent(tallest), shown);
///     ccrc::blueprint_layout b = ccrc::blueprint_chart(d, shown);
[[nodiscard]] inline blueprint_layout blueprint_chart(const cct_diff& d, std::span<const char> shown,
                                                const blueprint_options& options = {}) {
  const call_tree& t = d.tree();
  CCRC_ASSERT(shown.size() == t.size(), "ccrc: one shown flag per diff node");
  CCRC_ASSERT(options.root < t.size(), "ccrc: the blueprint's root is not a diff node");
  auto scale = [&](double given, const std::vector<double>& column, double largest) {
    if (given > 0) return given;
    double top = 0;
    for (std::size_t n = 1; n < column.size(); ++n) top = std::max(top, std::abs(column[n]));
    return top > 0 ? largest / top : 0.0;
  };
  double hs = scale(options.height_scale, d.height, options.max_box_height);
  double ws = scale(options.width_scale, d.width, options.max_box_width);
  auto finite = [](double v) { return detail::finite_or_zero(v); };

  blueprint_layout out;
  std::vector<std::uint32_t> open;  // per node on the current path: its box, or no_box
  bool synthetic = options.root == root_node;
  auto enter = [&](node_id n, std::uint32_t level) {
    std::uint32_t parent = open.empty() ? no_box : open.back();
    if (n == options.root ? synthetic : !shown[n]) {
      if (n != options.root && parent != no_box) out.boxes[parent].hidden_children = true;
      open.push_back(no_box);
      return n == options.root;  // the synthetic root's children may be shown
    }
    open.push_back(static_cast<std::uint32_t>(out.boxes.size()));
    out.boxes.push_back({n, parent, level - (synthetic ? 1 : 0), 0, 0,
                         finite(std::max(options.min_box_width, d.width[n] * ws)),
                         finite(std::max(options.min_box_height, std::abs(d.height[n]) * hs)), d.status[n], false});
    return true;
  };
  depth_first(tree_view(t, options.root), enter, [&](node_id, std::uint32_t) { open.pop_back(); });

  // Rows: each as tall as its tallest box.
  std::vector<double> row_top;
  for (const blueprint_box& b : out.boxes) {
    if (b.level >= row_top.size()) row_top.resize(b.level + 1, 0.0);
    row_top[b.level] = std::max(row_top[b.level], b.height);
  }
  double y = 0;
  for (double& r : row_top) {
    double h = r;
    r = y;
    y += h + options.vertical_gap;
  }
  out.height = row_top.empty() ? 0 : y - options.vertical_gap;

  // Subtree extents, callees before callers (reverse pre-order), then positions, callers
  // before callees: each caller centered over its callees' spans laid side by side.
  const std::size_t count = out.boxes.size();
  std::vector<double> extent(count), callees(count, 0.0), next_left(count);
  std::vector<std::uint32_t> callee_count(count, 0);
  for (std::size_t i = count; i-- > 0;) {
    const blueprint_box& b = out.boxes[i];
    double own = std::max(b.width, options.slot_width);
    double below = callees[i] + options.horizontal_gap * (callee_count[i] > 0 ? callee_count[i] - 1 : 0);
    extent[i] = std::max(own, below);
    callees[i] = below;
    if (b.parent != no_box) {
      callees[b.parent] += extent[i];
      ++callee_count[b.parent];
    }
  }
  double top_left = 0;
  for (std::size_t i = 0; i < count; ++i) {
    blueprint_box& b = out.boxes[i];
    double left;
    if (b.parent == no_box) {
      left = top_left;
      top_left += extent[i] + options.horizontal_gap;
    } else {
      left = next_left[b.parent];
      next_left[b.parent] += extent[i] + options.horizontal_gap;
    }
    b.x = finite(left + (extent[i] - b.width) / 2);
    b.y = row_top[b.level];
    next_left[i] = left + (extent[i] - callees[i]) / 2;
  }
  out.width = count == 0 ? 0 : top_left - options.horizontal_gap;
  return out;
}

/// Rizel's first view: the delta hot path shown, every other context hidden. One flag per
/// diff node, for blueprint_chart. O(n).
[[nodiscard]] inline std::vector<char> hot_path_shown(const cct_diff& d) {
  std::vector<char> shown(d.tree().size(), 0);
  for (node_id n : delta_hot_path(d)) shown[n] = 1;
  return shown;
}

/// Shows the callees of n ("showing up children nodes"). O(children).
inline void show_children(const cct_diff& d, node_id n, std::vector<char>& shown) {
  for (node_id c : d.tree().children(n)) shown[c] = 1;
}

/// Shows every context below n ("recursively showing up all children"). O(subtree).
inline void show_subtree(const cct_diff& d, node_id n, std::vector<char>& shown) {
  preorder(tree_view(d.tree(), n), [&](node_id c, std::uint32_t) { shown[c] = 1; });
}

/// Hides every context below n, n itself staying ("recursively hiding all children").
/// O(subtree).
inline void hide_subtree(const cct_diff& d, node_id n, std::vector<char>& shown) {
  preorder(tree_view(d.tree(), n), [&](node_id c, std::uint32_t) { shown[c] = c == n ? shown[c] : 0; });
}

/// Shows n and all its callers, so that n is displayed (a context picked from
/// rank_by_height, a search result). O(depth).
inline void show_context(const cct_diff& d, node_id n, std::vector<char>& shown) {
  for (; n != root_node && n != null_node; n = d.tree().parent(n)) shown[n] = 1;
}

}  // namespace ccrc
