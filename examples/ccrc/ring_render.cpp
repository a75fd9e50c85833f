#include "ring_render.hpp"

#include "cli.hpp"
#include "stack_text.hpp"
#include "svg.hpp"

#include <ccrc/algorithm/depth.hpp>
#include <ccrc/algorithm/display_name.hpp>
#include <ccrc/algorithm/flat.hpp>
#include <ccrc/geometry/first_view.hpp>
#include <ccrc/geometry/label.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>

namespace render {
namespace {

constexpr double legend_width = 260;
constexpr double margin = 8;

std::string_view name_of(const ccrc::call_tree& t, ccrc::node_id n) {
  return n == ccrc::root_node ? std::string_view("(root)") : t.name(n);
}

// The fill of segment i: its method's palette colour, or a diff's class.
ccrc::rgb fill_of(const ring_picture& pic, const ccrc::chart_colors& colors, std::size_t i) {
  return pic.fills.empty() ? colors.of(pic.profile.tree(), pic.chart.segments[i].node) : pic.fills[i];
}

// The fill and the line colour of segment i.
struct palette {
  std::string fill, line;
};

palette colours_of(const ring_picture& pic, const ccrc::chart_colors& colors, std::size_t i) {
  ccrc::rgb fill = fill_of(pic, colors, i);
  return {ccrc::hex(fill), ccrc::hex(ccrc::shade(fill, 0.6))};
}

std::string percent(double part, double whole) {
  if (!(std::isfinite(part) && std::isfinite(whole) && whole > 0)) return "";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f %%", 100 * part / whole);
  return buf;
}

// The tooltip: the call stack, one frame a line (abbreviated: see stack_text.hpp), then
// every metric. O(head + tail + metrics), whatever the depth of n.
std::string tooltip_text(const ring_picture& pic, const stack_text::abbreviator& stacks, ccrc::node_id n) {
  std::vector<std::string> frames = stacks.frames(n);
  std::string s;
  if (frames.empty()) s = "(root)\n";
  for (std::size_t i = 0; i < frames.size(); ++i) s += std::string(2 * i, ' ') + frames[i] + "\n";
  double center = pic.aggregated[pic.metric][pic.chart.segments[0].node];
  std::size_t m = 0;
  pic.profile.for_each_column([&](std::string_view metric, auto column) {
    double self = static_cast<double>(column[n]), aggregated = pic.aggregated[m][n];
    s += std::string(metric) + ": self " + cli::format_value(self) + ", aggregated " + cli::format_value(aggregated);
    if (m == pic.metric && !percent(aggregated, center).empty()) s += " (" + percent(aggregated, center) + " of the centre)";
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

void segment_element(svg::document& doc, const ring_picture& pic, const ccrc::chart_colors& colors,
                     const stack_text::abbreviator& stacks, std::size_t i) {
  const ccrc::ring_layout& chart = pic.chart;
  const ccrc::ring_segment& s = chart.segments[i];
  palette c = colours_of(pic, colors, i);
  ccrc::highlight_state h = pic.highlight.empty() ? ccrc::highlight_state::none : pic.highlight[i];
  bool dim = !pic.highlight.empty() && h == ccrc::highlight_state::none;
  bool marked = h == ccrc::highlight_state::match || (s.kind == ccrc::segment_kind::line && h != ccrc::highlight_state::none);
  switch (s.kind) {
    case ccrc::segment_kind::center:
      doc.raw("<circle").attr("cx", chart.center.x).attr("cy", chart.center.y).attr("r", s.r1);
      break;
    case ccrc::segment_kind::arc:
      doc.raw("<path").attr("d", sector_path(chart, s));
      if (s.a1 - s.a0 >= 2 * std::numbers::pi - 1e-9) doc.attr("fill-rule", "evenodd");
      break;
    case ccrc::segment_kind::line: {
      double mid = (s.a0 + s.a1) / 2;
      ccrc::point p0 = ccrc::ring_point(chart, s.r0, mid), p1 = ccrc::ring_point(chart, s.r1, mid);
      doc.raw("<line").attr("x1", p0.x).attr("y1", p0.y).attr("x2", p1.x).attr("y2", p1.y);
      doc.attr("stroke", marked ? "#d62728" : c.line).attr("stroke-width", marked ? 1.5 : 0.75);
      break;
    }
  }
  if (s.kind != ccrc::segment_kind::line) {
    doc.attr("fill", h == ccrc::highlight_state::match ? ccrc::hex(ccrc::highlight_color) : c.fill);
    if (h == ccrc::highlight_state::match) doc.attr("stroke", "#7a1a0f").attr("stroke-width", 1.2);
  }
  if (dim) doc.attr("opacity", 0.3);
  std::string tip = tooltip_text(pic, stacks, s.node);
  if (!pic.notes.empty()) tip += "\n" + pic.notes[i];
  if (s.contexts > 1)
    tip += "\n(and " + std::to_string(s.contexts - 1) + " more callees of " +
           stack_text::brief(name_of(pic.profile.tree(), chart.segments[s.parent].node)) + ", too thin to draw)";
  if (ccrc::beyond_edge(chart, pic.profile.tree(), s)) tip += "\n(its callees lie beyond the edge)";
  doc.raw(" data-node=\"").raw(std::to_string(s.node)).raw("\"><title>").text(tip).raw("</title></");
  doc.raw(s.kind == ccrc::segment_kind::center ? "circle" : s.kind == ccrc::segment_kind::arc ? "path" : "line").raw(">\n");
}

// A mark on the outer edge of each segment whose callees the depth limit leaves out: a dark
// band along its outer arc, as a flame graph marks a frame cut at its edge.
void edge_marks(svg::document& doc, const ring_picture& pic, const ccrc::chart_colors& colors) {
  const ccrc::ring_layout& chart = pic.chart;
  doc.raw("<g id=\"beyond\" fill=\"none\" stroke-width=\"3\" pointer-events=\"none\">\n");
  for (std::size_t i = 0; i < chart.segments.size(); ++i) {
    const ccrc::ring_segment& s = chart.segments[i];
    if (!ccrc::beyond_edge(chart, pic.profile.tree(), s)) continue;
    double r = s.r1 - 1.5, inset = std::min(0.5 / std::max(r, 1.0), (s.a1 - s.a0) / 4);
    doc.raw("<path").attr("d", arc_path(chart, r, s.a0 + inset, s.a1 - inset)).attr("stroke", colours_of(pic, colors, i).line).raw("/>\n");
  }
  doc.raw("</g>\n");
}

// Each segment's label where the library's fit_label finds room: the frame's display name,
// curved along the ring or straight across it, cut with "…" where only part fits.
void labels(svg::document& doc, const ring_picture& pic, const ccrc::chart_colors& colors) {
  const ccrc::ring_layout& chart = pic.chart;
  const ccrc::call_tree& t = pic.profile.tree();
  std::string defs, texts;
  for (std::size_t i = 0; i < chart.segments.size(); ++i) {
    const ccrc::ring_segment& s = chart.segments[i];
    // Most segments of a large chart have no room for a label: no name is shortened for them.
    if (ccrc::fit_label(s, "xxxx").fit == ccrc::label_fit::none) continue;
    std::string name = s.node == ccrc::root_node ? "(root)" : ccrc::display_name(t.name(s.node));
    ccrc::ring_label l = ccrc::fit_label(s, name);
    if (l.fit == ccrc::label_fit::none) continue;
    ccrc::highlight_state h = pic.highlight.empty() ? ccrc::highlight_state::none : pic.highlight[i];
    ccrc::rgb fill = h == ccrc::highlight_state::match ? ccrc::highlight_color : fill_of(pic, colors, i);
    texts += "<text";
    svg::append_attr(texts, "data-segment", static_cast<double>(i));
    svg::append_attr(texts, "font-size", l.font_px);
    if (ccrc::label_color(fill) != ccrc::rgb{0x1a, 0x1a, 0x1a}) svg::append_attr(texts, "fill", ccrc::hex(ccrc::label_color(fill)));
    if (l.fit == ccrc::label_fit::along && s.kind == ccrc::segment_kind::arc) {
      // Along the ring: on an arc of its middle circle centred on the label, drawn the way the
      // text reads (clockwise above the centre, counter-clockwise below).
      double half = std::min(s.a1 - s.a0, 2 * std::numbers::pi - 1e-3) / 2;
      std::string id = "l" + std::to_string(i);
      defs += "<path id=\"" + id + "\" d=\"" +
              arc_path(chart, l.radius, l.reversed ? l.angle + half : l.angle - half, l.reversed ? l.angle - half : l.angle + half) +
              "\"/>\n";
      texts += "><textPath href=\"#" + id + "\" startOffset=\"50%\">";
      svg::append_escaped(texts, l.text(name));
      texts += "</textPath></text>\n";
      continue;
    }
    ccrc::point at = s.kind == ccrc::segment_kind::center ? chart.center : ccrc::ring_point(chart, l.radius, l.angle);
    svg::append_attr(texts, "x", at.x);
    svg::append_attr(texts, "y", at.y);
    if (s.kind != ccrc::segment_kind::center) {
      // Across the rings: along the middle ray, read outwards on the right, inwards on the left.
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
    svg::append_escaped(texts, l.text(name));
    texts += "</text>\n";
  }
  doc.raw("<defs>\n").raw(defs).raw("</defs>\n");
  doc.raw("<g id=\"labels\" text-anchor=\"middle\" dominant-baseline=\"central\" fill=\"#1a1a1a\" pointer-events=\"none\">\n")
      .raw(texts)
      .raw("</g>\n");
}

// Above the chart, the way to its centre from the top: the trunk the first view left out,
// or a chosen centre's callers, as breadcrumbs of display names (a long way abbreviated).
void caption(svg::document& doc, const ring_picture& pic) {
  const ccrc::call_tree& t = pic.profile.tree();
  std::vector<ccrc::node_id> way;  // the centre and its callers, innermost first
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

std::string sizing_text(std::string_view mode, std::string_view metric) {
  if (mode == "equal") return "sizing: equal angles per caller";
  return std::string("sizing: ") + (mode == "area" ? "area" : "angle") + " \xe2\x88\x9d ag(" + std::string(metric) + ")";
}

void legend(svg::document& doc, const ring_picture& pic, const ccrc::chart_colors& colors) {
  const ccrc::call_tree& t = pic.profile.tree();
  const ccrc::ring_layout& chart = pic.chart;
  ccrc::node_id center = chart.segments[0].node;
  std::string_view metric = pic.profile.metric_name(pic.metric);
  std::vector<std::string> lines = {
      std::string(metric) + " total " + cli::format_value(pic.aggregated[pic.metric][center]) + " (ag of " +
          svg::shorten(center == ccrc::root_node ? "(root)" : ccrc::display_name(t.name(center)), 40) + ")",
      sizing_text(pic.mode, metric),
      std::to_string(chart.segments.size()) + " segments (" + std::to_string(chart.count(ccrc::segment_kind::line)) +
          " lines) in " + std::to_string(chart.rings()) + " rings"};
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
  if (!pic.key.empty()) {
    for (const auto& [colour, label] : pic.key) {
      doc.raw("<rect x=\"12\"").attr("y", y - 9).raw(" width=\"10\" height=\"10\" stroke=\"#888888\"").attr("fill", colour).raw("/>");
      doc.raw("<text x=\"28\"").attr("y", y).raw(">").text(label).raw("</text>\n");
      y += 16;
    }
    doc.raw("</g>\n");
    return;
  }
  // The methods by self value in the centre's subtree: the pie of the papers' Figure 4(c),
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
    doc.raw("<text x=\"28\"").attr("y", y).raw(">").text(std::string(pct) + svg::shorten(ccrc::display_name(name), 31)).raw("</text></g>\n");
    y += 16;
  }
  doc.raw("</g>\n");
}

}  // namespace

ccrc::ring_layout layout(const ccrc::profile& p, const std::vector<std::vector<double>>& ag, const request& r) {
  const std::vector<double>& column = ag[r.metric];
  std::vector<std::uint32_t> heights = ccrc::heights(p.tree());
  ccrc::ring_options o = chart_area(r.width, r.height, {.sizing = r.sizing, .order = r.order, .min_arc_px = r.min_px,
                                                        .padding_px = r.padding, .heights = heights});
  ccrc::tree_view view = r.view.value_or(ccrc::tree_view(p.tree()));
  if (!r.skip_trunk && !r.fit_depth) return ccrc::ring_chart(ccrc::ring_chart_view(view, column), column, o);
  ccrc::opening_view first = ccrc::first_view(view, column, o, {.skip_trunk = r.skip_trunk, .fit_depth = r.fit_depth});
  return first.chart ? std::move(*first.chart) : ccrc::ring_chart(first.view, column, o);
}

drawing draw(const ccrc::profile& p, const request& r, cli::timings& t) {
  t.phase("aggregate");
  std::vector<std::vector<double>> ag = ccrc::inclusive_columns(p);
  t.phase("layout");
  drawing d;
  d.chart = layout(p, ag, r);
  std::vector<ccrc::highlight_state> marks;
  if (r.highlight) {
    t.phase("highlight");
    ccrc::method_set methods = ccrc::match_methods(p.symbols(), *r.highlight);
    marks = ccrc::highlight(d.chart, p.tree(), ag[r.metric], ccrc::contexts_of(ccrc::tree_view(p.tree()), methods));
  }
  t.phase("render");
  ring_picture picture{p, d.chart, ag, r.metric, mode_names[static_cast<int>(r.sizing)], r.width, r.height, r.title,
                       std::move(marks), r.colours};
  d.text = r.format == format::svg ? ring_svg(picture) : r.format == format::html ? ring_html(picture) : ring_json(picture);
  return d;
}

std::string summary(const std::string& path, const ccrc::profile& p, const ccrc::ring_layout& chart) {
  ccrc::node_id centre = chart.segments[0].node;
  return path + ": " + std::to_string(chart.segments.size()) + " segments (" +
         std::to_string(chart.count(ccrc::segment_kind::line)) + " lines) in " + std::to_string(chart.rings()) +
         " rings around " + (centre == ccrc::root_node ? std::string("the root") : std::string(p.tree().name(centre)));
}

ccrc::ring_options chart_area(double width, double height, ccrc::ring_options options) {
  double left = std::min(legend_width, width * 0.3);
  options.center = {left + (width - left) / 2, height / 2};
  options.outer_radius = std::max(0.0, std::min(width - left, height) / 2 - margin);
  return options;
}

std::string ring_svg(const ring_picture& pic) {
  svg::document doc(pic.width, pic.height);
  ccrc::chart_colors colors(pic.profile.tree(), pic.profile.column(pic.metric), pic.colours);
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

std::string ring_html(const ring_picture& pic) {
  std::string svg = ring_svg(pic);
  svg.erase(0, svg.find("<svg"));  // inline SVG takes no XML declaration
  std::string page =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>";
  svg::append_escaped(page, pic.title);
  page +=
      " - ccrc ring chart</title>\n<style>\n"
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

std::string ring_json(const ring_picture& pic) {
  const ccrc::call_tree& t = pic.profile.tree();
  const ccrc::ring_layout& chart = pic.chart;
  const std::vector<double>& ag = pic.aggregated[pic.metric];
  auto self = pic.profile.column(pic.metric);
  // Abbreviated paths keep the document linear in the segments; `parent` rebuilds any path.
  stack_text::abbreviator stacks(t);
  cli::json j;
  j.begin_object()
      .field("width", pic.width)
      .field("height", pic.height)
      .key("center")
      .begin_array()
      .value(chart.center.x)
      .value(chart.center.y)
      .end_array()
      .field("mode", pic.mode)
      .field("metric", pic.profile.metric_name(pic.metric))
      .field("total", ag[chart.segments[0].node])
      .field("start_angle", chart.start_angle)
      .field("rings", std::uint64_t{chart.rings()})
      .key("radii")
      .begin_array();
  for (double r : chart.radii) j.value(r);
  j.end_array().key("segments").begin_array();
  static constexpr const char* kinds[] = {"center", "arc", "line"};
  static constexpr const char* states[] = {"none", "match", "contains_match"};
  for (std::size_t i = 0; i < chart.segments.size(); ++i) {
    const ccrc::ring_segment& s = chart.segments[i];
    j.begin_object()
        .field("node", std::uint64_t{s.node})
        .field("path", stacks.path(s.node))
        .field("name", name_of(t, s.node))
        .field("depth", std::uint64_t{s.depth})
        .key("parent");
    if (s.parent == ccrc::no_segment)
      j.null();
    else
      j.value(std::uint64_t{s.parent});
    j.field("r0", s.r0)
        .field("r1", s.r1)
        .field("a0", s.a0)
        .field("a1", s.a1)
        .field("kind", kinds[static_cast<int>(s.kind)])
        .field("contexts", std::uint64_t{s.contexts})
        .field("value", ag[s.node])
        .field("self", self[s.node]);
    if (!pic.highlight.empty()) j.field("highlight", states[static_cast<int>(pic.highlight[i])]);
    j.end_object();
  }
  j.end_array().end_object();
  return j.str() + "\n";
}

}  // namespace render
