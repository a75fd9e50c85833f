// ccrc - the label of a ring segment or an icicle box: which way it runs, how much of the name
// fits, and where. One routine for every renderer (the tool's SVG, the viewer's canvas), so
// that a chart shows the same labels however it is drawn.
#pragma once

#include <ccrc/algorithm/display_name.hpp>
#include <ccrc/enum_names.hpp>
#include <ccrc/geometry/icicle.hpp>
#include <ccrc/geometry/ring_chart.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <concepts>
#include <cstdint>
#include <numbers>
#include <string>
#include <string_view>

namespace ccrc {

/// How a label is written in a segment.
enum class label_fit : std::uint8_t {
  none,    ///< no label: not even three characters and "…" fit
  along,   ///< along the arc, curved, on the ring's middle circle; in the center disc and in an
           ///< icicle's boxes: horizontally
  across,  ///< across the rings: straight, along the segment's middle ray
};

/// The fits' names, by value (ccrc::name_of, ccrc::enum_named).
[[nodiscard]] constexpr auto enum_names(label_fit) noexcept {
  return std::array<std::string_view, 3>{"none", "along", "across"};
}

/// How labels are measured. Text is `glyph_em` of the font size wide per code point (an
/// average advance: 0.6 errs wide for common sans-serif fonts, so that what is fitted fits).
/// A label keeps `padding_px` free at each end and between its glyphs and the ring's edges.
struct label_style {
  double font_px = 11;      ///< the font size wherever the segment has room for it
  double min_font_px = 9;   ///< the smallest font size a label is written in; below it, none
  double glyph_em = 0.6;    ///< a glyph's advance, in units of the font size
  double padding_px = 2;    ///< room kept free around the text
};

namespace detail {

// The byte length of the first k code points of UTF-8 text (k at most their number).
constexpr std::size_t utf8_prefix(std::string_view s, std::size_t k) noexcept {
  std::size_t i = 0;
  for (std::size_t seen = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) continue;
    if (seen++ == k) break;
  }
  return i;
}

constexpr std::size_t code_points(std::string_view s) noexcept {
  std::size_t n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

// How many of `glyphs` code points a line of `room` pixels shows in a font of `font` pixels:
// all, or as many as fit with "…" after them if that is at least three; else 0.
constexpr std::size_t shown_glyphs(std::size_t glyphs, double room, double font, const label_style& style) noexcept {
  double advance = style.glyph_em * font;
  if (!(advance > 0) || !(room > 0)) return 0;
  if (static_cast<double>(glyphs) * advance <= room) return glyphs;
  double fit = std::floor(room / advance) - 1;  // the ellipsis takes one glyph's room
  return fit >= 3 ? static_cast<std::size_t>(fit) : 0;
}

// The text a label shows: the first `bytes` bytes of the name, then "…" if it was cut.
inline std::string label_text(std::string_view name, std::size_t bytes, bool ellipsis) {
  std::string s(name.substr(0, bytes));
  if (ellipsis) s += "\xe2\x80\xa6";
  return s;
}

}  // namespace detail

/// A segment's label: which way it runs, its text (a prefix of the name, perhaps with "…"),
/// its font size, and where its middle lies.
struct ring_label {
  label_fit fit = label_fit::none;
  /// The text is the first `bytes` bytes of the name (never cutting a UTF-8 sequence) ...
  std::size_t bytes = 0;
  /// ... followed by "…" (U+2026) when the name was cut.
  bool ellipsis = false;
  double font_px = 0;
  /// The middle of the label: along, the radius of the circle the text runs on (its vertical
  /// middle) and the angle of the text's middle; across, the point on the middle ray. In the
  /// center disc, radius 0: the chart's center.
  double radius = 0, angle = 0;
  /// Along: the text runs counter-clockwise (its middle is below the center, so it reads upright
  /// from left to right). Across: the text reads towards the center (it is on the left half).
  bool reversed = false;

  /// The text shown for `name` (the name the label was fitted to).
  [[nodiscard]] std::string text(std::string_view name) const { return detail::label_text(name, bytes, ellipsis); }
};

/// An icicle box's label: horizontal, from the box's left edge, its text (a prefix of the
/// name, perhaps with "…") and its font size.
struct box_label {
  label_fit fit = label_fit::none;  ///< along (horizontal, in the box) or none
  /// The text is the first `bytes` bytes of the name (never cutting a UTF-8 sequence) ...
  std::size_t bytes = 0;
  /// ... followed by "…" (U+2026) when the name was cut.
  bool ellipsis = false;
  double font_px = 0;
  /// Where the text starts (its left end, label_style::padding_px inside the box) and its
  /// vertical middle, pixels.
  double x = 0, y = 0;

  /// The text shown for `name` (the name the label was fitted to).
  [[nodiscard]] std::string text(std::string_view name) const { return detail::label_text(name, bytes, ellipsis); }
};

/// The label of segment `s` for `name`: along the arc (curved on the ring's middle circle) if
/// the whole name fits there, else across the rings if it fits there, else the way that shows
/// more of it, cut with "…" after at least three characters; none if neither shows three. A
/// ring thinner than the font leaves the font smaller, down to style.min_font_px. The center
/// disc takes a horizontal label. A line, or an empty name, gets none. A full ring's label is
/// centered at twelve o'clock. O(|name|), no allocation.
///
///     ccrc::ring_label l = ccrc::fit_label(seg, name);
///     if (l.fit != ccrc::label_fit::none) draw(l.text(name), l.font_px, l.radius, l.angle);
[[nodiscard]] inline ring_label fit_label(const ring_segment& s, std::string_view name, const label_style& style = {}) {
  ring_label out;
  const double pad = std::isfinite(style.padding_px) ? std::max(style.padding_px, 0.0) : 0.0;
  const double max_font = style.font_px, min_font = std::max(style.min_font_px, 0.0);
  if (name.empty() || s.kind == segment_kind::line || !(max_font >= min_font) || !(min_font > 0)) return out;
  const std::size_t glyphs = detail::code_points(name);
  constexpr double full_circle = 2 * std::numbers::pi;
  auto accept = [&](label_fit fit, std::size_t shown, double font) {
    out.fit = fit;
    out.bytes = detail::utf8_prefix(name, shown);
    out.ellipsis = shown < glyphs;
    out.font_px = font;
  };
  if (s.kind == segment_kind::center) {
    // A horizontal line of text through the center: its room is the chord at its top and bottom.
    double half_height = max_font / 2 + pad, r = s.r1;
    double room = r > half_height ? 2 * std::sqrt(r * r - half_height * half_height) - 2 * pad : 0;
    if (std::size_t shown = detail::shown_glyphs(glyphs, room, max_font, style)) accept(label_fit::along, shown, max_font);
    return out;
  }
  const double span = std::min(s.a1 - s.a0, full_circle), thickness = s.r1 - s.r0;
  if (!(span > 0) || !(thickness > 0)) return out;
  // Along: the ring's thickness bounds the font, its middle circle's arc the length.
  double along_font = std::min(max_font, thickness - pad);
  double mid = (s.r0 + s.r1) / 2;
  std::size_t along = along_font >= min_font ? detail::shown_glyphs(glyphs, mid * span - 2 * pad, along_font, style) : 0;
  // Across: the span at the text's inner end bounds the font, the ring's thickness the length.
  double across_font = std::min(max_font, (s.r0 + pad) * span - pad);
  std::size_t across =
      across_font >= min_font ? detail::shown_glyphs(glyphs, thickness - 2 * pad, across_font, style) : 0;
  if (along == glyphs || (along >= across && along > 0)) {
    accept(label_fit::along, along, along_font);
    out.radius = mid;
    out.angle = span >= full_circle - 1e-9 ? 0.0 : (s.a0 + s.a1) / 2;
  } else if (across > 0) {
    accept(label_fit::across, across, across_font);
    out.radius = mid;
    out.angle = (s.a0 + s.a1) / 2;
  } else {
    return out;
  }
  double turn = std::fmod(out.angle, full_circle);
  if (turn < 0) turn += full_circle;
  out.reversed = out.fit == label_fit::along ? turn > std::numbers::pi / 2 && turn < 3 * std::numbers::pi / 2
                                             : turn > std::numbers::pi;
  return out;
}

/// The label of icicle box `s` for `name`: horizontal, starting at the box's left edge, the
/// whole name if it fits the box's width, else cut with "…" after at least three characters;
/// none if not even that fits. A row thinner than the font leaves the font smaller, down to
/// style.min_font_px. The root's bar is labelled as a box. A line, or an empty name, gets
/// none. The glyphs are measured as fit_label measures a ring's. O(|name|), no allocation.
///
///     ccrc::box_label l = ccrc::fit_label(box, name);
///     if (l.fit != ccrc::label_fit::none) draw_text(l.text(name), l.font_px, l.x, l.y);
[[nodiscard]] inline box_label fit_label(const icicle_segment& s, std::string_view name, const label_style& style = {}) {
  box_label out;
  const double pad = std::isfinite(style.padding_px) ? std::max(style.padding_px, 0.0) : 0.0;
  const double min_font = std::max(style.min_font_px, 0.0);
  if (name.empty() || s.kind == icicle_kind::line || !(style.font_px >= min_font) || !(min_font > 0)) return out;
  // The row's height bounds the font, the box's width the length.
  const double font = std::min(style.font_px, s.y1 - s.y0 - pad);
  if (!(font >= min_font)) return out;
  const std::size_t glyphs = detail::code_points(name);
  const std::size_t shown = detail::shown_glyphs(glyphs, s.x1 - s.x0 - 2 * pad, font, style);
  if (shown == 0) return out;
  return {label_fit::along, detail::utf8_prefix(name, shown), shown < glyphs, font, s.x0 + pad, (s.y0 + s.y1) / 2};
}

/// The name segment `s` of a chart of `t` is labelled with, before it is fitted: its frame's
/// display name (ccrc::display_name; "(root)" for the synthetic root), or for a chain (a
/// segment standing for several nested contexts, ring_options::chain_share) its first and last
/// frame's with the count of the contexts between, "first …12… last" ("first … last" when
/// none is between). O(length of the names, levels of a chain).
template <class Segment>
  requires std::same_as<Segment, ring_segment> || std::same_as<Segment, icicle_segment>
[[nodiscard]] std::string segment_name(const call_tree& t, const Segment& s) {
  auto name = [&](node_id n) { return n == root_node ? std::string("(root)") : display_name(t.name(n)); };
  if (is_line(s) || s.contexts <= 1) return name(s.node);
  std::string between = s.contexts > 2 ? "\xe2\x80\xa6" + std::to_string(s.contexts - 2) + "\xe2\x80\xa6" : "\xe2\x80\xa6";
  return name(s.node) + " " + between + " " + name(s.last);
}

}  // namespace ccrc
