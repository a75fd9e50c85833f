// The front ends: ring charts and icicles drawn as SVG, HTML or JSON from a laid-out
// ccrc::ring_layout or ccrc::icicle_layout. Not part of the library: the library stops at the
// segments, these are one way to draw them.
#pragma once

#include "cli.hpp"

#include <ccrc/algorithm/search.hpp>
#include <ccrc/ensemble/variation.hpp>
#include <ccrc/geometry/color.hpp>
#include <ccrc/geometry/highlight.hpp>
#include <ccrc/geometry/icicle.hpp>
#include <ccrc/geometry/ring_chart.hpp>
#include <ccrc/tree/profile.hpp>

#include <array>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace render {

/// Everything a chart's picture shows: a ring chart's (ccrc::ring_layout) or an icicle's
/// (ccrc::icicle_layout).
template <class Layout>
struct chart_picture {
  const ccrc::profile& profile;
  const Layout& chart;
  /// ag(M) of every metric of the profile (ccrc::inclusive_columns), for the tooltips.
  const std::vector<std::vector<double>>& aggregated;
  std::size_t metric;      ///< the metric the chart is sized by
  std::string_view sizing; ///< "equal", "angle" or "area" (ccrc::ring_sizing's names)
  double width, height;    ///< the canvas, pixels
  std::string_view title;  ///< shown at the top of the legend (the profile's file name)
  /// One state per segment, or empty for no highlighting.
  std::vector<ccrc::highlight_state> highlight = {};
  ccrc::color_by colors = ccrc::color_by::method;
  /// Optional, one per segment: a fill color replacing the method's (a diff's classes).
  std::vector<ccrc::rgb> fills = {};
  /// Optional, one per segment: a line added to its tooltip.
  std::vector<std::string> notes = {};
  /// Optional: the legend's color key, (color, label) pairs, replacing the list of methods.
  std::vector<std::pair<std::string, std::string>> key = {};
  /// Optional: what the first view did (laid_out::caption), shown in the legend ...
  std::string caption = {};
  /// ... and the share of the cost it draws (laid_out::drawn; NaN: not a first view).
  double drawn = std::numeric_limits<double>::quiet_NaN();
  /// Optional: a line above the key, saying what its colors are.
  std::string key_title = {};
};

using ring_picture = chart_picture<ccrc::ring_layout>;
using icicle_picture = chart_picture<ccrc::icicle_layout>;

/// An SVG document: one element per segment (a circle for the center, a path per arc, a line
/// per culled segment) carrying a <title> tooltip with the call stack and every metric's self
/// and aggregated value; the method's name where fit_label finds room; a legend with the
/// metric, its total, the sizing and the largest methods.
std::string ring_svg(const ring_picture& picture);
/// The same for an icicle: a rect per box (the root's bar too), a line per culled segment.
std::string icicle_svg(const icicle_picture& picture);

/// An HTML page holding the SVG and a script that shows the hovered segment's tooltip text in
/// a side panel, and pins it on click.
std::string ring_html(const ring_picture& picture);
std::string icicle_html(const icicle_picture& picture);

/// The segment list as JSON (see docs/ring-charts.md for the fields).
std::string ring_json(const ring_picture& picture);
std::string icicle_json(const icicle_picture& picture);

/// What `ccrc render` draws: a view of a profile, sized by one metric, in one format, as a ring
/// chart or an icicle.
enum class format { svg, html, json };
constexpr auto enum_names(format) noexcept { return std::array<std::string_view, 3>{"svg", "html", "json"}; }
enum class chart_kind { ring, icicle };
constexpr auto enum_names(chart_kind) noexcept { return std::array<std::string_view, 2>{"ring", "icicle"}; }

/// What `ccrc render --color-by` and Python's `color_by=` color by: a method, a package
/// (ccrc::color_by), or an ensemble's variation (ccrc::variation), its names theirs.
enum class coloring { method, package, cv, imbalance };
constexpr auto enum_names(coloring) noexcept {
  return std::array<std::string_view, 4>{"method", "package", "cv", "imbalance"};
}
static_assert(ccrc::name_of(coloring::package) == ccrc::name_of(ccrc::color_by::package) &&
              ccrc::name_of(coloring::imbalance) == ccrc::name_of(ccrc::variation::imbalance));

/// The tree a chart is drawn from, as `ccrc render --tree` and Python's `tree=` name it:
/// `automatic`, the first view's choice (chains of single callees folded, recursion
/// eliminated, when that draws more of the cost: see ccrc::first_view); `contexts`, the calling
/// context tree, a ring per level; `recursion`, the tree with its recursion eliminated (chains
/// folded as for automatic).
enum class tree_choice { automatic, contexts, recursion };
constexpr auto enum_names(tree_choice) noexcept { return std::array<std::string_view, 3>{"auto", "contexts", "recursion"}; }

struct request {
  std::size_t metric = 0;
  std::optional<ccrc::tree_view> view = {};  ///< default: the whole tree
  /// Open where the profile branches, its trunk above the center shown as a caption (unless a
  /// center or a depth was chosen), and as deep as keeps rings readable (unless a depth was):
  /// see ccrc::first_view.
  bool skip_trunk = true, fit_depth = true;
  ccrc::ring_sizing sizing = ccrc::ring_sizing::angle;
  ccrc::child_order order = ccrc::child_order::value;
  double min_px = 1, padding = 0;
  double width = 1440, height = 900;
  ccrc::color_by colors = ccrc::color_by::method;
  std::optional<ccrc::name_query> highlight = {};  ///< contexts to highlight, as `ccrc search` finds them
  std::string title = {};
  render::format format = format::svg;
  chart_kind layout = chart_kind::ring;
  /// The first view may fold chains of single callees, and (the whole profile's default view)
  /// be drawn from the profile with its recursion eliminated, when that draws more of the cost.
  bool fold_chains = true, eliminate_recursion = true;
  /// An ensemble profile's colors: its variation (ensemble_render.hpp); none: `colors`.
  std::optional<ccrc::variation> variation = ccrc::variation::cv;
};

/// Tells the request's first view what it may do to draw `tree` (`contexts`: nothing, a ring
/// per level; `recursion`: fold chains, nothing more to eliminate), and returns the profile
/// `p` with its recursion eliminated when `tree` asks for it (none: draw `p`).
std::optional<ccrc::profile> tree_of(const ccrc::profile& p, tree_choice tree, request& r);

/// A chart as `ccrc render` lays it out, the tree it is of, and what its first view did.
template <class Layout>
struct laid_out {
  /// The profile with its recursion eliminated, when the first view drew it from that; null:
  /// the chart is of the profile given.
  std::unique_ptr<const ccrc::profile> eliminated;
  Layout chart;
  /// What the first view did to show where the cost goes (ccrc::first_view_caption): empty
  /// when it drew the tree level by level.
  std::string caption;
  /// The share of the cost the chart draws (ccrc::drawn_share); NaN when not a first view.
  double drawn = std::numeric_limits<double>::quiet_NaN();

  [[nodiscard]] const ccrc::profile& profile(const ccrc::profile& given) const noexcept {
    return eliminated ? *eliminated : given;
  }
};

struct drawing {
  std::string text;  ///< the SVG, HTML or JSON document
  chart_kind layout = chart_kind::ring;
  ccrc::ring_layout chart;    ///< the chart drawn, for chart_kind::ring ...
  ccrc::icicle_layout icicle;  ///< ... or for chart_kind::icicle
  std::string center;          ///< the center's (root's) name, "the root" for the synthetic one
  std::string caption;         ///< what the first view did, as laid_out says
};

/// The ring chart of `request` as `ccrc render` lays it out, from ag(M) of every metric
/// (ccrc::inclusive_columns): centered by ring_chart_view, placed by chart_area; the first
/// view of the whole profile may draw it with its recursion eliminated (laid_out::eliminated,
/// whose node ids the chart's are).
laid_out<ccrc::ring_layout> layout(const ccrc::profile& p, const std::vector<std::vector<double>>& ag, const request& r);
/// The same as an icicle, placed by icicle_area.
laid_out<ccrc::icicle_layout> layout_icicle(const ccrc::profile& p, const std::vector<std::vector<double>>& ag,
                                           const request& r);

/// Lays out and draws the chart of `request` (phases "aggregate", "layout", "highlight",
/// "render" in t): the whole of `ccrc render` but reading and writing.
drawing draw(const ccrc::profile& p, const request& r, cli::timings& t);

/// "OUT: N segments (L lines) in R rings around NAME" (R rows below NAME, for an icicle), then
/// what the first view did if anything: what `ccrc render` prints.
std::string summary(const std::string& path, const drawing& d);

/// Where render places a chart on a width x height canvas: a legend column on the left, the
/// chart centered in the rest with a small margin ...
ccrc::ring_options chart_area(double width, double height, ccrc::ring_options options = {});
/// ... or an icicle filling the rest, below a line for the breadcrumbs (its rows, at most
/// 24 px high, may end short of the bottom).
ccrc::icicle_options icicle_area(double width, double height, ccrc::icicle_options options = {});

}  // namespace render
