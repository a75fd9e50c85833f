#include "ring_render.hpp"

#include "cli.hpp"
#include "ensemble_render.hpp"
#include "stack_text.hpp"
#include "svg.hpp"

#include <ccrc/algorithm/depth.hpp>
#include <ccrc/algorithm/display_name.hpp>
#include <ccrc/algorithm/flat.hpp>
#include <ccrc/geometry/first_view.hpp>
#include <ccrc/geometry/label.hpp>
#include <ccrc/geometry/tooltip.hpp>
#include <ccrc/transform/eliminate_recursion.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <type_traits>

namespace render {
namespace {

constexpr double legend_width = 260;
constexpr double margin = 8;
constexpr double caption_height = 28;  // above an icicle: the breadcrumbs' line
constexpr double max_row = 24;         // an icicle's rows, as a flame graph's, whatever the height

std::string_view name_of(const ccrc::call_tree& t, ccrc::node_id n) {
  return n == ccrc::root_node ? std::string_view("(root)") : t.name(n);
}

// What differs between the two charts' pictures, beside their shapes: words.
using ccrc::is_line;

std::string levels_text(const ccrc::ring_layout& chart) { return std::to_string(chart.rings()) + " rings"; }
std::string levels_text(const ccrc::icicle_layout& chart) { return std::to_string(chart.rows()) + " rows"; }

template <class Layout>
std::size_t lines_in(const Layout& chart) {
  return static_cast<std::size_t>(
      std::count_if(chart.segments.begin(), chart.segments.end(), [](const auto& s) { return is_line(s); }));
}

// The fill of segment i: its method's palette color, or a diff's class.
template <class Layout>
ccrc::rgb fill_of(const chart_picture<Layout>& pic, const ccrc::chart_colors& colors, std::size_t i) {
  return pic.fills.empty() ? colors.of(pic.profile.tree(), pic.chart.segments[i].last) : pic.fills[i];
}

// The fill and the line color of segment i.
struct palette {
  std::string fill, line;
};

template <class Layout>
palette colors_of(const chart_picture<Layout>& pic, const ccrc::chart_colors& colors, std::size_t i) {
  ccrc::rgb fill = fill_of(pic, colors, i);
  return {ccrc::hex(fill), ccrc::hex(ccrc::shade(fill, 0.6))};
}

std::string percent(double part, double whole) {
  if (!(std::isfinite(part) && std::isfinite(whole) && whole > 0)) return "";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f %%", 100 * part / whole);
  return buf;
}

// The tooltip of a segment: the call stack (of a chain: to its last context), one frame a
// line (abbreviated: see stack_text.hpp), then every metric (a chain's self value summed over
// its contexts). O(head + tail + metrics), whatever the depth, times a chain's contexts.
template <class Layout, class Segment>
std::string tooltip_text(const chart_picture<Layout>& pic, const stack_text::abbreviator& stacks, const Segment& seg) {
  const ccrc::node_id n = seg.node;
  const bool chain = !is_line(seg) && seg.contexts > 1;
  std::vector<std::string> frames = stacks.frames(chain ? seg.last : n);
  std::string s;
  if (frames.empty()) s = "(root)\n";
  for (std::size_t i = 0; i < frames.size(); ++i) s += std::string(2 * i, ' ') + frames[i] + "\n";
  if (chain)
    s += "(its last " + std::to_string(seg.contexts) + " frames, a run of single callees, drawn as one segment)\n";
  double center = pic.aggregated[pic.metric][pic.chart.segments[0].node];
  std::size_t m = 0;
  const ccrc::call_tree& t = pic.profile.tree();
  pic.profile.for_each_column([&](std::string_view metric, auto column) {
    double self = chain ? ccrc::segment_value(t, column, seg) : static_cast<double>(column[n]);
    double aggregated = pic.aggregated[m][n];
    s += std::string(metric) + ": self " + cli::format_value(self) + ", aggregated " + cli::format_value(aggregated);
    if (m == pic.metric && !percent(aggregated, center).empty()) s += " (" + percent(aggregated, center) + " of the center)";
    s += "\n";
    ++m;
  });
  s.pop_back();
  return s;
}

void append_point(std::string& d, const ccrc::ring_layout& chart, double r, double a) {
  ccrc::point p = ccrc::ring_point(chart, r, a);
  svg::append_number(d, p.x);
  d += ',';
  svg::append_number(d, p.y);
}

void append_arc(std::string& d, const ccrc::ring_layout& chart, double r, double a, bool large, bool clockwise) {
  d += " A";
  svg::append_number(d, r);
  d += ',';
  svg::append_number(d, r);
  d += large ? " 0 1," : " 0 0,";
  d += clockwise ? "1 " : "0 ";
  append_point(d, chart, r, a);
}

// The outline of an annular sector; a full ring is two circles filled even-odd.
std::string sector_path(const ccrc::ring_layout& chart, const ccrc::ring_segment& s) {
  std::string d;
  if (s.a1 - s.a0 >= 2 * std::numbers::pi - 1e-9) {
    for (double r : {s.r1, s.r0}) {
      if (r <= 0) continue;
      d += d.empty() ? "M" : " M";
      append_point(d, chart, r, s.a0);
      append_arc(d, chart, r, s.a0 + std::numbers::pi, false, true);
      append_arc(d, chart, r, s.a0, false, true);
      d += " Z";
    }
    return d;
  }
  bool large = s.a1 - s.a0 > std::numbers::pi;
  d = "M";
  append_point(d, chart, s.r1, s.a0);
  append_arc(d, chart, s.r1, s.a1, large, true);
  d += " L";
  append_point(d, chart, s.r0, s.a1);
  if (s.r0 > 0) append_arc(d, chart, s.r0, s.a0, large, false);
  d += " Z";
  return d;
}

// An arc of radius r from angle a0 to a1 (clockwise if a1 > a0), as a path of its own.
std::string arc_path(const ccrc::ring_layout& chart, double r, double a0, double a1) {
  std::string d = "M";
  append_point(d, chart, r, a0);
  append_arc(d, chart, r, a1, std::abs(a1 - a0) > std::numbers::pi, a1 > a0);
  return d;
}

void line_stroke(svg::document& doc, bool marked, const palette& c) {
  doc.attr("stroke", marked ? "#d62728" : c.line).attr("stroke-width", marked ? 1.5 : 0.75);
}

// Opens segment s's element with its geometry (and a line's stroke); returns its tag.
const char* open_shape(svg::document& doc, const ccrc::ring_layout& chart, const ccrc::ring_segment& s, bool marked,
                       const palette& c) {
  switch (s.kind) {
    case ccrc::segment_kind::center:
      doc.raw("<circle").attr("cx", chart.center.x).attr("cy", chart.center.y).attr("r", s.r1);
      return "circle";
    case ccrc::segment_kind::arc:
      doc.raw("<path").attr("d", sector_path(chart, s));
      if (s.a1 - s.a0 >= 2 * std::numbers::pi - 1e-9) doc.attr("fill-rule", "evenodd");
      return "path";
    case ccrc::segment_kind::line: break;
  }
  double mid = (s.a0 + s.a1) / 2;
  ccrc::point p0 = ccrc::ring_point(chart, s.r0, mid), p1 = ccrc::ring_point(chart, s.r1, mid);
  doc.raw("<line").attr("x1", p0.x).attr("y1", p0.y).attr("x2", p1.x).attr("y2", p1.y);
  line_stroke(doc, marked, c);
  return "line";
}

const char* open_shape(svg::document& doc, const ccrc::icicle_layout&, const ccrc::icicle_segment& s, bool marked,
                       const palette& c) {
  if (s.kind != ccrc::icicle_kind::line) {
    doc.raw("<rect").attr("x", s.x0).attr("y", s.y0).attr("width", s.x1 - s.x0).attr("height", s.y1 - s.y0);
    return "rect";
  }
  double mid = (s.x0 + s.x1) / 2;
  doc.raw("<line").attr("x1", mid).attr("y1", s.y0).attr("x2", mid).attr("y2", s.y1);
  line_stroke(doc, marked, c);
  return "line";
}

template <class Layout>
void segment_element(svg::document& doc, const chart_picture<Layout>& pic, const ccrc::chart_colors& colors,
                     const stack_text::abbreviator& stacks, std::size_t i) {
  const Layout& chart = pic.chart;
  const auto& s = chart.segments[i];
  palette c = colors_of(pic, colors, i);
  ccrc::highlight_state h = pic.highlight.empty() ? ccrc::highlight_state::none : pic.highlight[i];
  bool dim = !pic.highlight.empty() && h == ccrc::highlight_state::none;
  bool marked = h == ccrc::highlight_state::match || (is_line(s) && h != ccrc::highlight_state::none);
  const char* tag = open_shape(doc, chart, s, marked, c);
  if (!is_line(s)) {
    doc.attr("fill", h == ccrc::highlight_state::match ? ccrc::hex(ccrc::highlight_color) : c.fill);
    if (h == ccrc::highlight_state::match) doc.attr("stroke", "#7a1a0f").attr("stroke-width", 1.2);
  }
  if (dim) doc.attr("opacity", 0.3);
  std::string tip = tooltip_text(pic, stacks, s);
  if (!pic.notes.empty()) tip += "\n" + pic.notes[i];
  if (s.contexts > 1)
    tip += "\n(and " + std::to_string(s.contexts - 1) + " more callees of " +
           stack_text::brief(name_of(pic.profile.tree(), chart.segments[s.parent].node)) + ", too thin to draw)";
  if (ccrc::beyond_edge(chart, pic.profile.tree(), s)) tip += "\n(its callees lie beyond the edge)";
  doc.raw(" data-node=\"").raw(std::to_string(s.node)).raw("\"><title>").text(tip).raw("</title></").raw(tag).raw(">\n");
}

// A segment's edge mark: a dark band along its outer arc (the box's edge towards its callees),
// as a flame graph marks a frame cut at its edge.
void edge_mark(svg::document& doc, const ccrc::ring_layout& chart, const ccrc::ring_segment& s, const std::string& color) {
  double r = s.r1 - 1.5, inset = std::min(0.5 / std::max(r, 1.0), (s.a1 - s.a0) / 4);
  doc.raw("<path").attr("d", arc_path(chart, r, s.a0 + inset, s.a1 - inset)).attr("stroke", color).raw("/>\n");
}

void edge_mark(svg::document& doc, const ccrc::icicle_layout& chart, const ccrc::icicle_segment& s,
               const std::string& color) {
  double y = chart.root_at_bottom ? s.y0 + 1.5 : s.y1 - 1.5, inset = std::min(0.5, (s.x1 - s.x0) / 4);
  doc.raw("<line").attr("x1", s.x0 + inset).attr("y1", y).attr("x2", s.x1 - inset).attr("y2", y);
  doc.attr("stroke", color).raw("/>\n");
}

// A mark on the far edge of each segment whose callees the depth limit leaves out.
template <class Layout>
void edge_marks(svg::document& doc, const chart_picture<Layout>& pic, const ccrc::chart_colors& colors) {
  const Layout& chart = pic.chart;
  doc.raw("<g id=\"beyond\" fill=\"none\" stroke-width=\"3\" pointer-events=\"none\">\n");
  for (std::size_t i = 0; i < chart.segments.size(); ++i)
    if (ccrc::beyond_edge(chart, pic.profile.tree(), chart.segments[i]))
      edge_mark(doc, chart, chart.segments[i], colors_of(pic, colors, i).line);
  doc.raw("</g>\n");
}

// Places label l of segment i (attributes, text, closing tag): along a ring, curved on an arc
// of its middle circle centered on the label (defined in `defs`), drawn the way the text reads
// (clockwise above the center, counter-clockwise below); across the rings, along the middle
// ray, read outwards on the right, inwards on the left; in the center, horizontally.
void place_label(std::string& texts, std::string& defs, const ccrc::ring_layout& chart, const ccrc::ring_segment& s,
                 const ccrc::ring_label& l, std::size_t i, const std::string& text) {
  if (l.fit == ccrc::label_fit::along && s.kind == ccrc::segment_kind::arc) {
    double half = std::min(s.a1 - s.a0, 2 * std::numbers::pi - 1e-3) / 2;
    std::string id = "l" + std::to_string(i);
    defs += "<path id=\"" + id + "\" d=\"" +
            arc_path(chart, l.radius, l.reversed ? l.angle + half : l.angle - half, l.reversed ? l.angle - half : l.angle + half) +
            "\"/>\n";
    texts += "><textPath href=\"#" + id + "\" startOffset=\"50%\">";
    svg::append_escaped(texts, text);
    texts += "</textPath></text>\n";
    return;
  }
  ccrc::point at = s.kind == ccrc::segment_kind::center ? chart.center : ccrc::ring_point(chart, l.radius, l.angle);
  svg::append_attr(texts, "x", at.x);
  svg::append_attr(texts, "y", at.y);
  if (s.kind != ccrc::segment_kind::center) {
    double degrees = l.angle * 180 / std::numbers::pi - 90 + (l.reversed ? 180 : 0);
    std::string rotate = "rotate(";
    svg::append_number(rotate, std::fmod(degrees, 360.0));
    rotate += ' ';
    svg::append_number(rotate, at.x);
    rotate += ' ';
    svg::append_number(rotate, at.y);
    svg::append_attr(texts, "transform", rotate + ")");
  }
  texts += ">";
  svg::append_escaped(texts, text);
  texts += "</text>\n";
}

// In a box: horizontally, from its left edge.
void place_label(std::string& texts, std::string&, const ccrc::icicle_layout&, const ccrc::icicle_segment&,
                 const ccrc::box_label& l, std::size_t, const std::string& text) {
  svg::append_attr(texts, "x", l.x);
  svg::append_attr(texts, "y", l.y);
  texts += ">";
  svg::append_escaped(texts, text);
  texts += "</text>\n";
}

constexpr const char* label_anchor(const ccrc::ring_layout&) { return "middle"; }
constexpr const char* label_anchor(const ccrc::icicle_layout&) { return "start"; }

// Each segment's label where the library's fit_label finds room: the frame's display name,
// cut with "…" where only part fits.
template <class Layout>
void labels(svg::document& doc, const chart_picture<Layout>& pic, const ccrc::chart_colors& colors) {
  const Layout& chart = pic.chart;
  const ccrc::call_tree& t = pic.profile.tree();
  std::string defs, texts;
  for (std::size_t i = 0; i < chart.segments.size(); ++i) {
    const auto& s = chart.segments[i];
    // Most segments of a large chart have no room for a label: no name is shortened for them.
    if (ccrc::fit_label(s, "xxxx").fit == ccrc::label_fit::none) continue;
    std::string name = ccrc::segment_name(t, s);
    auto l = ccrc::fit_label(s, name);
    if (l.fit == ccrc::label_fit::none) continue;
    ccrc::highlight_state h = pic.highlight.empty() ? ccrc::highlight_state::none : pic.highlight[i];
    ccrc::rgb fill = h == ccrc::highlight_state::match ? ccrc::highlight_color : fill_of(pic, colors, i);
    texts += "<text";
    svg::append_attr(texts, "data-segment", static_cast<double>(i));
    svg::append_attr(texts, "font-size", l.font_px);
    if (ccrc::label_color(fill) != ccrc::rgb{0x1a, 0x1a, 0x1a}) svg::append_attr(texts, "fill", ccrc::hex(ccrc::label_color(fill)));
    place_label(texts, defs, chart, s, l, i, l.text(name));
  }
  doc.raw("<defs>\n").raw(defs).raw("</defs>\n");
  doc.raw("<g id=\"labels\" text-anchor=\"").raw(label_anchor(chart))
      .raw("\" dominant-baseline=\"central\" fill=\"#1a1a1a\" pointer-events=\"none\">\n")
      .raw(texts)
      .raw("</g>\n");
}

// Above the chart, the way to its center from the top: the trunk the first view left out,
// or a chosen center's callers, as breadcrumbs of display names (a long way abbreviated).
template <class Layout>
void caption(svg::document& doc, const chart_picture<Layout>& pic) {
  const ccrc::call_tree& t = pic.profile.tree();
  std::vector<ccrc::node_id> way;  // the center and its callers, innermost first
  for (ccrc::node_id n = pic.chart.segments[0].node; n != ccrc::root_node; n = t.parent(n)) way.push_back(n);
  if (way.size() <= 1) return;
  std::reverse(way.begin(), way.end());
  constexpr std::size_t head = 2, tail = 5;
  std::string line;
  for (std::size_t k = 0; k < way.size(); ++k) {
    if (k == head && way.size() > head + tail + 1) {
      line += " \xe2\x80\xba " + stack_text::elided(way.size() - head - tail);
      k = way.size() - tail - 1;
      continue;
    }
    line += (k == 0 ? "" : " \xe2\x80\xba ") + svg::shorten(ccrc::display_name(t.name(way[k])), 32);
  }
  double left = std::min(legend_width, pic.width * 0.3);
  doc.raw("<text id=\"trunk\" font-size=\"12\" fill=\"#444444\"").attr("x", left + margin).attr("y", 18).raw(">");
  doc.text(line).raw("</text>\n");
}

// The words of `text` in lines of at most `most` code points (a longer word on a line of its
// own), a new line after each "; ": a caption in the legend's column.
std::vector<std::string> wrapped(std::string_view text, std::size_t most) {
  std::vector<std::string> out;
  while (!text.empty()) {
    std::size_t end = std::min(text.find("; "), text.size());
    std::string line;
    for (std::string_view part = text.substr(0, end); !part.empty();) {
      std::size_t gap = std::min(part.find(' '), part.size());
      std::string_view word = part.substr(0, gap);
      if (!line.empty() && svg::code_points(line) + 1 + svg::code_points(word) > most) out.push_back(std::exchange(line, ""));
      line += (line.empty() ? "" : " ") + std::string(word);
      part.remove_prefix(std::min(part.size(), gap + 1));
    }
    out.push_back(std::move(line));
    text.remove_prefix(std::min(text.size(), end + 2));
  }
  return out;
}

std::string sizing_text(const ccrc::ring_layout&, std::string_view sizing, std::string_view metric) {
  if (sizing == "equal") return "sizing: equal angles per caller";
  return std::string("sizing: ") + (sizing == "area" ? "area" : "angle") + " \xe2\x88\x9d ag(" + std::string(metric) + ")";
}

// An icicle's rows have one height: area sizing is width sizing.
std::string sizing_text(const ccrc::icicle_layout&, std::string_view sizing, std::string_view metric) {
  if (sizing == "equal") return "sizing: equal widths per caller";
  return "sizing: width \xe2\x88\x9d ag(" + std::string(metric) + ")";
}

// Where the chart begins on the left: the legend's text ends before it.
double chart_left(const ccrc::ring_layout& chart) { return chart.center.x - (chart.radii.empty() ? 0 : chart.radii.back()); }
double chart_left(const ccrc::icicle_layout& chart) { return chart.x0; }

template <class Layout>
void legend(svg::document& doc, const chart_picture<Layout>& pic, const ccrc::chart_colors& colors) {
  const ccrc::call_tree& t = pic.profile.tree();
  const Layout& chart = pic.chart;
  ccrc::node_id center = chart.segments[0].node;
  std::string_view metric = pic.profile.metric_name(pic.metric);
  // How many glyphs of a name fit in a legend line from x, after `used` others and before the
  // chart (12 px text, a glyph taken as 0.6 em as labels are): an icicle starts right of the
  // legend's column, a ring leaves room beside it.
  auto room = [&](double x, std::size_t used, std::size_t most) {
    double glyphs = std::floor((chart_left(chart) - margin - x) / (0.6 * 12)) - static_cast<double>(used);
    return static_cast<std::size_t>(std::clamp(glyphs, 8.0, static_cast<double>(most)));
  };
  std::string total = std::string(metric) + " total " + cli::format_value(pic.aggregated[pic.metric][center]) + " (ag of ";
  std::vector<std::string> lines = {
      total + svg::shorten(center == ccrc::root_node ? "(root)" : ccrc::display_name(t.name(center)),
                           room(12, svg::code_points(total) + 1, 40)) + ")",
      sizing_text(chart, pic.sizing, metric),
      std::to_string(chart.segments.size()) + " segments (" + std::to_string(lines_in(chart)) + " lines) in " +
          levels_text(chart)};
  for (std::string& line : wrapped(pic.caption, room(12, 0, 60))) lines.push_back(std::move(line));
  if (!pic.highlight.empty())
    lines.push_back(std::to_string(std::count(pic.highlight.begin(), pic.highlight.end(), ccrc::highlight_state::match)) +
                    " highlighted segments");
  doc.raw("<g id=\"legend\" font-size=\"12\" fill=\"#222222\">\n<text x=\"12\" y=\"24\" font-size=\"14\" font-weight=\"bold\">")
      .text(pic.title)
      .raw("</text>\n");
  double y = 44;
  for (const auto& line : lines) {
    doc.raw("<text x=\"12\"").attr("y", y).raw(">").text(line).raw("</text>\n");
    y += 17;
  }
  y += 10;
  if (!pic.key_title.empty()) {
    doc.raw("<text x=\"12\"").attr("y", y).raw(">").text(pic.key_title).raw("</text>\n");
    y += 18;
  }
  if (!pic.key.empty()) {
    for (const auto& [color, label] : pic.key) {
      doc.raw("<rect x=\"12\"").attr("y", y - 9).raw(" width=\"10\" height=\"10\" stroke=\"#888888\"").attr("fill", color).raw("/>");
      doc.raw("<text x=\"28\"").attr("y", y).raw(">").text(label).raw("</text>\n");
      y += 16;
    }
    doc.raw("</g>\n");
    return;
  }
  // The methods by self value in the center's subtree: the pie of the papers' Figure 4(c),
  // each by its display name (its full name in the swatch's tooltip).
  doc.raw("<text x=\"12\"").attr("y", y).raw(">").text("self " + std::string(metric) + " per method:").raw("</text>\n");
  y += 18;
  auto entries = ccrc::flat(ccrc::tree_view(t, center), pic.profile.column(pic.metric), {.count = 12});
  for (std::size_t k = 0; k < entries.size(); ++k) {
    std::string_view name = entries[k].method == ccrc::root_method ? std::string_view("(root)") : t.symbols().method_name(entries[k].method);
    ccrc::rgb fill = entries[k].method == ccrc::root_method ? ccrc::neutral_color : colors.of(entries[k].method);
    doc.raw("<g class=\"method\"><title>").text(stack_text::brief(name)).raw("</title>");
    doc.raw("<rect x=\"12\"").attr("y", y - 9).raw(" width=\"10\" height=\"10\"").attr("fill", ccrc::hex(fill)).raw("/>");
    char pct[32];
    std::snprintf(pct, sizeof pct, "%6.2f %%  ", entries[k].percent);
    doc.raw("<text x=\"28\"").attr("y", y).raw(">").text(std::string(pct) + svg::shorten(ccrc::display_name(name), room(28, 10, 31))).raw("</text></g>\n");
    y += 16;
  }
  doc.raw("</g>\n");
}

// The SVG of a chart: its segments, edge marks, labels, breadcrumbs and legend.
template <class Layout>
std::string svg_of(const chart_picture<Layout>& pic) {
  svg::document doc(pic.width, pic.height);
  ccrc::chart_colors colors(pic.profile.tree(), pic.profile.column(pic.metric), pic.colors);
  doc.raw("<g id=\"segments\" stroke=\"#ffffff\" stroke-width=\"0.5\">\n");
  stack_text::abbreviator stacks(pic.profile.tree());
  for (std::size_t i = 0; i < pic.chart.segments.size(); ++i) segment_element(doc, pic, colors, stacks, i);
  doc.raw("</g>\n");
  edge_marks(doc, pic, colors);
  labels(doc, pic, colors);
  caption(doc, pic);
  legend(doc, pic, colors);
  return doc.finish();
}

template <class Layout>
std::string html_of(const chart_picture<Layout>& pic, std::string_view what) {
  std::string svg = svg_of(pic);
  svg.erase(0, svg.find("<svg"));  // inline SVG takes no XML declaration
  std::string page =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>";
  svg::append_escaped(page, pic.title);
  page += " - ccrc ";
  page += what;
  page +=
      "</title>\n<style>\n"
      "body { font-family: sans-serif; margin: 0; display: flex; }\n"
      "#info { margin: 12px; white-space: pre; font-family: monospace; font-size: 13px; min-width: 24em; }\n"
      "#segments > :hover { stroke: #000000; stroke-width: 1.5; }\n"
      "#segments > .pinned { stroke: #000000; stroke-width: 2.5; }\n"
      "</style>\n</head>\n<body>\n<div id=\"chart\">\n";
  page += svg;
  page +=
      "</div>\n<div id=\"info\">Point at a segment: its call stack and metrics show here.\n"
      "Click to pin them; click again to release.</div>\n"
      "<script>\n"
      "const info = document.getElementById('info');\n"
      "let pinned = null;\n"
      "const describe = (el) => el.querySelector('title').textContent;\n"
      "for (const el of document.querySelectorAll('#segments > [data-node]')) {\n"
      "  el.addEventListener('mouseenter', () => { if (!pinned) info.textContent = describe(el); });\n"
      "  el.addEventListener('click', () => {\n"
      "    if (pinned) pinned.classList.remove('pinned');\n"
      "    pinned = pinned === el ? null : el;\n"
      "    if (pinned) { pinned.classList.add('pinned'); info.textContent = describe(el); }\n"
      "  });\n"
      "}\n"
      "</script>\n</body>\n</html>\n";
  return page;
}

// The JSON fields of each chart's geometry: the chart's, then one segment's.
void geometry_fields(cli::json& j, const ccrc::ring_layout& chart) {
  j.key("center")
      .begin_array()
      .value(chart.center.x)
      .value(chart.center.y)
      .end_array()
      .field("start_angle", chart.start_angle)
      .field("rings", std::uint64_t{chart.rings()})
      .key("radii")
      .begin_array();
  for (double r : chart.radii) j.value(r);
  j.end_array();
}

void geometry_fields(cli::json& j, const ccrc::icicle_layout& chart) {
  j.field("x0", chart.x0)
      .field("x1", chart.x1)
      .field("root_at_bottom", chart.root_at_bottom)
      .field("rows", std::uint64_t{chart.rows()})
      .key("edges")
      .begin_array();
  for (double e : chart.edges) j.value(e);
  j.end_array();
}

void geometry_fields(cli::json& j, const ccrc::ring_segment& s) {
  static constexpr const char* kinds[] = {"center", "arc", "line"};
  j.field("r0", s.r0).field("r1", s.r1).field("a0", s.a0).field("a1", s.a1).field("kind", kinds[static_cast<int>(s.kind)]);
}

void geometry_fields(cli::json& j, const ccrc::icicle_segment& s) {
  static constexpr const char* kinds[] = {"root", "box", "line"};
  j.field("x0", s.x0).field("x1", s.x1).field("y0", s.y0).field("y1", s.y1).field("kind", kinds[static_cast<int>(s.kind)]);
}

template <class Layout>
std::string json_of(const chart_picture<Layout>& pic, std::string_view layout) {
  const ccrc::call_tree& t = pic.profile.tree();
  const Layout& chart = pic.chart;
  const std::vector<double>& ag = pic.aggregated[pic.metric];
  auto self = pic.profile.column(pic.metric);
  // Abbreviated paths keep the document linear in the segments; `parent` rebuilds any path.
  stack_text::abbreviator stacks(t);
  cli::json j;
  j.begin_object()
      .field("layout", layout)
      .field("width", pic.width)
      .field("height", pic.height)
      .field("mode", pic.sizing)  // the JSON's key since its first version
      .field("metric", pic.profile.metric_name(pic.metric))
      .field("total", ag[chart.segments[0].node])
      .field("caption", pic.caption)
      .field("drawn", pic.drawn);
  geometry_fields(j, chart);
  j.key("segments").begin_array();
  static constexpr const char* states[] = {"none", "match", "contains_match"};
  for (std::size_t i = 0; i < chart.segments.size(); ++i) {
    const auto& s = chart.segments[i];
    j.begin_object()
        .field("node", std::uint64_t{s.node})
        .field("path", stacks.path(s.node))
        .field("name", name_of(t, s.node))
        .field("label", ccrc::segment_name(t, s))
        .field("last", std::uint64_t{s.last})
        .field("depth", std::uint64_t{s.depth})
        .key("parent");
    if (s.parent == ccrc::no_segment)
      j.null();
    else
      j.value(std::uint64_t{s.parent});
    geometry_fields(j, s);
    j.field("contexts", std::uint64_t{s.contexts}).field("value", ag[s.node]);
    j.field("self", is_line(s) ? static_cast<double>(self[s.node]) : ccrc::segment_value(t, self, s));
    if (!pic.highlight.empty()) j.field("highlight", states[static_cast<int>(pic.highlight[i])]);
    j.end_object();
  }
  j.end_array().end_object();
  return j.str() + "\n";
}

// The chart `ccrc render` draws on `canvas` (a ring chart's or an icicle's options): the
// first view, laid out in finding it, unless a depth and a center were both chosen; of the
// whole profile's default view, perhaps with its recursion eliminated.
template <class Options>
auto first_chart(const ccrc::profile& p, const std::vector<double>& column, const request& r, const Options& canvas) {
  laid_out<decltype(ccrc::layout_of(ccrc::tree_view(p.tree()), column, canvas))> out;
  ccrc::tree_view view = r.view.value_or(ccrc::tree_view(p.tree()));
  if (!r.skip_trunk && !r.fit_depth) {
    out.chart = ccrc::layout_of(ccrc::ring_chart_view(view, column), column, canvas);
    return out;
  }
  const ccrc::first_view_options options{.skip_trunk = r.skip_trunk, .fit_depth = r.fit_depth, .fold_chains = r.fold_chains};
  if (r.eliminate_recursion && r.skip_trunk) {
    auto first = ccrc::first_view(p, r.metric, column, canvas, options);
    out.eliminated = std::move(first.eliminated);
    out.chart = std::move(*first.first.chart);
    out.drawn = first.first.drawn;
    out.caption = ccrc::first_view_caption(out.chart, first.levels_as_read, first.levels_eliminated);
    return out;
  }
  auto first = ccrc::first_view(view, column, canvas, options);
  out.chart = first.chart ? std::move(*first.chart) : ccrc::layout_of(first.view, column, canvas);
  out.drawn = first.drawn;
  out.caption = ccrc::first_view_caption(out.chart);
  return out;
}

template <class Layout>
std::string document_of(const chart_picture<Layout>& pic, format f) {
  bool ring = std::is_same_v<Layout, ccrc::ring_layout>;
  switch (f) {
    case format::svg: return svg_of(pic);
    case format::html: return html_of(pic, ring ? "ring chart" : "icicle");
    case format::json: break;
  }
  return json_of(pic, ring ? "ring" : "icicle");
}

// Paints `pic` (a ring chart's or an icicle's) by variation_look_of, if its profile is an
// ensemble.
template <class Layout>
void paint_variation(chart_picture<Layout>& pic, ccrc::variation v) {
  std::vector<ccrc::node_id> nodes;
  nodes.reserve(pic.chart.segments.size());
  for (const auto& s : pic.chart.segments) nodes.push_back(s.node);
  auto look = variation_look_of(pic.profile, pic.aggregated, pic.metric, nodes, v);
  if (!look) return;
  pic.fills = std::move(look->fills);
  pic.notes = std::move(look->notes);
  pic.key = std::move(look->key);
  pic.key_title = std::move(look->key_title);
}

// Highlights and draws a laid-out chart of `p` (whose aggregated columns are `ag`), or of the
// tree its first view drew instead.
template <class Layout>
std::string draw_chart(const ccrc::profile& p, const std::vector<std::vector<double>>& ag, const laid_out<Layout>& laid,
                       const request& r, cli::timings& t) {
  const ccrc::profile& shown = laid.profile(p);
  std::vector<std::vector<double>> shown_ag;
  if (laid.eliminated) shown_ag = ccrc::inclusive_columns(shown);
  const std::vector<std::vector<double>>& columns = laid.eliminated ? shown_ag : ag;
  std::vector<ccrc::highlight_state> marks;
  if (r.highlight) {
    t.phase("highlight");
    ccrc::method_set methods = ccrc::match_methods(shown.symbols(), *r.highlight);
    std::vector<ccrc::node_id> found = ccrc::contexts_of(ccrc::tree_view(shown.tree()), methods);
    marks = ccrc::highlight(laid.chart, shown.tree(), columns[r.metric], found);
  }
  t.phase("render");
  std::string_view sizing = ccrc::name_of(r.sizing);
  chart_picture<Layout> pic{shown, laid.chart, columns, r.metric, sizing, r.width, r.height, r.title, std::move(marks), r.colors};
  pic.caption = laid.caption;
  pic.drawn = laid.drawn;
  if (r.variation) paint_variation(pic, *r.variation);
  return document_of(pic, r.format);
}

}  // namespace

laid_out<ccrc::ring_layout> layout(const ccrc::profile& p, const std::vector<std::vector<double>>& ag, const request& r) {
  const std::vector<double>& column = ag[r.metric];
  std::vector<std::uint32_t> heights = ccrc::heights(p.tree());
  ccrc::ring_options o = chart_area(r.width, r.height, {.sizing = r.sizing, .order = r.order, .min_arc_px = r.min_px,
                                                        .padding_px = r.padding, .heights = heights});
  return first_chart(p, column, r, o);
}

laid_out<ccrc::icicle_layout> layout_icicle(const ccrc::profile& p, const std::vector<std::vector<double>>& ag,
                                           const request& r) {
  const std::vector<double>& column = ag[r.metric];
  std::vector<std::uint32_t> heights = ccrc::heights(p.tree());
  ccrc::icicle_options o = icicle_area(r.width, r.height, {.sizing = r.sizing, .order = r.order, .max_row_px = max_row,
                                                           .min_width_px = r.min_px, .padding_px = r.padding,
                                                           .heights = heights});
  return first_chart(p, column, r, o);
}

drawing draw(const ccrc::profile& p, const request& r, cli::timings& t) {
  t.phase("aggregate");
  std::vector<std::vector<double>> ag = ccrc::inclusive_columns(p);
  t.phase("layout");
  drawing d;
  d.layout = r.layout;
  auto finish = [&](auto&& laid, auto& chart) {
    d.text = draw_chart(p, ag, laid, r, t);
    ccrc::node_id center = laid.chart.segments[0].node;
    d.center = center == ccrc::root_node ? "the root" : std::string(laid.profile(p).tree().name(center));
    d.caption = std::move(laid.caption);
    chart = std::move(laid.chart);
  };
  if (r.layout == chart_kind::icicle)
    finish(layout_icicle(p, ag, r), d.icicle);
  else
    finish(layout(p, ag, r), d.chart);
  return d;
}

std::optional<ccrc::profile> tree_of(const ccrc::profile& p, tree_choice tree, request& r) {
  // An ensemble's minima, maxima and deviations do not add up when recursive calls are merged
  // into their caller's: it is drawn as its runs called.
  const bool ensemble = ccrc::find_ensemble_metrics(p.metric_names()).has_value();
  r.fold_chains = tree != tree_choice::contexts;
  r.eliminate_recursion = tree == tree_choice::automatic && !ensemble;
  if (tree != tree_choice::recursion) return std::nullopt;
  if (ensemble)
    throw cli::usage_error("--tree recursion: an ensemble's minima, maxima and deviations do not add up over a recursion; "
                           "draw it with --tree auto or contexts");
  return std::move(ccrc::eliminate_recursion(p).output);
}

std::string summary(const std::string& path, const drawing& d) {
  bool icicle = d.layout == chart_kind::icicle;
  std::size_t segments = icicle ? d.icicle.segments.size() : d.chart.segments.size();
  std::size_t lines = icicle ? lines_in(d.icicle) : lines_in(d.chart);
  std::string out = path + ": " + std::to_string(segments) + " segments (" + std::to_string(lines) + " lines) in " +
                    (icicle ? levels_text(d.icicle) + " below " : levels_text(d.chart) + " around ") + d.center;
  return d.caption.empty() ? out : out + "; " + d.caption;
}

ccrc::ring_options chart_area(double width, double height, ccrc::ring_options options) {
  double left = std::min(legend_width, width * 0.3);
  options.center = {left + (width - left) / 2, height / 2};
  options.outer_radius = std::max(0.0, std::min(width - left, height) / 2 - margin);
  return options;
}

ccrc::icicle_options icicle_area(double width, double height, ccrc::icicle_options options) {
  double left = std::min(legend_width, width * 0.3);
  double top = std::min(caption_height, height * 0.1);
  options.origin = {left + margin, top};
  options.width = std::max(0.0, width - left - 2 * margin);
  options.height = std::max(0.0, height - top - margin);
  return options;
}

std::string ring_svg(const ring_picture& pic) { return svg_of(pic); }
std::string icicle_svg(const icicle_picture& pic) { return svg_of(pic); }
std::string ring_html(const ring_picture& pic) { return html_of(pic, "ring chart"); }
std::string icicle_html(const icicle_picture& pic) { return html_of(pic, "icicle"); }
std::string ring_json(const ring_picture& pic) { return json_of(pic, "ring"); }
std::string icicle_json(const icicle_picture& pic) { return json_of(pic, "icicle"); }

}  // namespace render
