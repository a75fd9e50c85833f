#include "ring_render.hpp"

#include "cli.hpp"
#include "stack_text.hpp"
#include "svg.hpp"

#include <ccrc/algorithm/depth.hpp>
#include <ccrc/algorithm/flat.hpp>
#include <ccrc/geometry/label.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>

namespace render {
namespace {

constexpr double legend_width = 260;
constexpr double margin = 8;
constexpr double label_font = 11;

std::string_view name_of(const ccrc::call_tree& t, ccrc::node_id n) {
  return n == ccrc::root_node ? std::string_view("(root)") : t.name(n);
}

// The method without its package, class and arguments: "java.util.HashMap.get(Object)" -> "get".
std::string_view short_name(std::string_view name) {
  std::string_view base = name.substr(0, name.find('('));
  std::size_t cut = base.rfind("::");
  cut = cut == std::string_view::npos ? base.rfind('.') : cut + 1;
  return cut == std::string_view::npos || cut + 1 >= base.size() ? base : base.substr(cut + 1);
}

// Code points of UTF-8 text: what a label's width grows with.
double glyphs(std::string_view s) { return static_cast<double>(svg::code_points(s)); }

// "#rrggbb" of a colour given as hue (degrees), saturation and lightness (0-1).
std::string hex_colour(double hue, double saturation, double lightness) {
  double c = (1 - std::abs(2 * lightness - 1)) * saturation;
  double h = std::fmod(hue, 360.0) / 60;
  double x = c * (1 - std::abs(std::fmod(h, 2.0) - 1));
  double r = 0, g = 0, b = 0;
  if (h < 1) r = c, g = x;
  else if (h < 2) r = x, g = c;
  else if (h < 3) g = c, b = x;
  else if (h < 4) g = x, b = c;
  else if (h < 5) r = x, b = c;
  else r = c, b = x;
  double m = lightness - c / 2;
  char buf[8];
  auto byte = [&](double v) { return static_cast<unsigned>(std::lround(std::clamp(v + m, 0.0, 1.0) * 255)); };
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", byte(r), byte(g), byte(b));
  return buf;
}

struct palette {
  std::string fill, line;
};

palette colours_of(const ring_picture& pic, ccrc::node_id n) {
  if (n == ccrc::root_node) return {"#e4e4e4", "#9a9a9a"};
  double hue = ccrc::color_hue(ccrc::color_key(pic.profile.tree(), n, pic.colours));
  return {hex_colour(hue, 0.55, 0.72), hex_colour(hue, 0.55, 0.38)};
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

void segment_element(svg::document& doc, const ring_picture& pic, const stack_text::abbreviator& stacks, std::size_t i) {
  const ccrc::ring_layout& chart = pic.chart;
  const ccrc::ring_segment& s = chart.segments[i];
  palette c = colours_of(pic, s.node);
  if (!pic.fills.empty()) c = {pic.fills[i], pic.fills[i]};
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
    doc.attr("fill", h == ccrc::highlight_state::match ? "#e8412c" : c.fill);
    if (h == ccrc::highlight_state::match) doc.attr("stroke", "#7a1a0f").attr("stroke-width", 1.2);
  }
  if (dim) doc.attr("opacity", 0.3);
  std::string tip = tooltip_text(pic, stacks, s.node);
  if (!pic.notes.empty()) tip += "\n" + pic.notes[i];
  if (s.contexts > 1)
    tip += "\n(and " + std::to_string(s.contexts - 1) + " more callees of " +
           std::string(name_of(pic.profile.tree(), chart.segments[s.parent].node)) + ", too thin to draw)";
  doc.raw(" data-node=\"").raw(std::to_string(s.node)).raw("\"><title>").text(tip).raw("</title></");
  doc.raw(s.kind == ccrc::segment_kind::center ? "circle" : s.kind == ccrc::segment_kind::arc ? "path" : "line").raw(">\n");
}

// The method's name (or, failing that, its short name) where it fits.
void label_element(svg::document& doc, const ring_picture& pic, const ccrc::ring_segment& s) {
  std::string_view full = name_of(pic.profile.tree(), s.node);
  constexpr double glyph = 0.6 * label_font, height = label_font + 2;
  for (std::string_view text : {full, short_name(full)}) {
    ccrc::label_fit fit = ccrc::fit_label(s, glyph * glyphs(text) + 4, height);
    if (fit == ccrc::label_fit::none) continue;
    double mid = (s.a0 + s.a1) / 2, turn = std::fmod(mid, 2 * std::numbers::pi);
    if (turn < 0) turn += 2 * std::numbers::pi;
    ccrc::point at = s.kind == ccrc::segment_kind::center ? pic.chart.center
                                                          : ccrc::ring_point(pic.chart, (s.r0 + s.r1) / 2, mid);
    double degrees = 0;
    if (s.kind != ccrc::segment_kind::center && fit == ccrc::label_fit::along)
      degrees = mid * 180 / std::numbers::pi + (turn > std::numbers::pi / 2 && turn < 3 * std::numbers::pi / 2 ? 180 : 0);
    else if (s.kind != ccrc::segment_kind::center)
      degrees = mid * 180 / std::numbers::pi - 90 + (turn > std::numbers::pi ? 180 : 0);
    doc.raw("<text").attr("x", at.x).attr("y", at.y);
    if (degrees != 0) {
      std::string rotate = "rotate(";
      svg::append_number(rotate, std::fmod(degrees, 360.0));
      rotate += ' ';
      svg::append_number(rotate, at.x);
      rotate += ' ';
      svg::append_number(rotate, at.y);
      doc.attr("transform", rotate + ")");
    }
    doc.raw(">").text(text).raw("</text>\n");
    return;
  }
}

std::string sizing_text(std::string_view mode, std::string_view metric) {
  if (mode == "equal") return "sizing: equal angles per caller";
  return std::string("sizing: ") + (mode == "area" ? "area" : "angle") + " \xe2\x88\x9d ag(" + std::string(metric) + ")";
}

void legend(svg::document& doc, const ring_picture& pic) {
  const ccrc::call_tree& t = pic.profile.tree();
  const ccrc::ring_layout& chart = pic.chart;
  ccrc::node_id center = chart.segments[0].node;
  std::string_view metric = pic.profile.metric_name(pic.metric);
  std::vector<std::string> lines = {
      std::string(metric) + " total " + cli::format_value(pic.aggregated[pic.metric][center]) + " (ag of " +
          std::string(name_of(t, center)) + ")",
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
  // The methods by self value in the centre's subtree: the pie of the papers' Figure 4(c).
  doc.raw("<text x=\"12\"").attr("y", y).raw(">").text("self " + std::string(metric) + " per method:").raw("</text>\n");
  y += 18;
  auto entries = ccrc::flat(ccrc::tree_view(t, center), pic.profile.column(pic.metric));
  for (std::size_t k = 0; k < entries.size() && k < 12; ++k) {
    std::string_view name = entries[k].method == 0 ? std::string_view("(root)") : t.symbols().method_name(entries[k].method);
    std::string shown = svg::shorten(name, 31);  // 30 characters and "…"
    double hue = ccrc::color_hue(pic.colours == ccrc::color_by::package && !ccrc::package_of(name).empty()
                                      ? ccrc::color_key(ccrc::package_of(name))
                                      : ccrc::color_key(name));
    doc.raw("<rect x=\"12\"").attr("y", y - 9).raw(" width=\"10\" height=\"10\"").attr("fill", hex_colour(hue, 0.55, 0.72)).raw("/>");
    char pct[32];
    std::snprintf(pct, sizeof pct, "%6.2f %%  ", entries[k].percent);
    doc.raw("<text x=\"28\"").attr("y", y).raw(">").text(std::string(pct) + shown).raw("</text>\n");
    y += 16;
  }
  doc.raw("</g>\n");
}

}  // namespace

ccrc::ring_layout layout(const ccrc::profile& p, const std::vector<std::vector<double>>& ag, const request& r) {
  std::vector<std::uint32_t> heights = ccrc::heights(p.tree());
  ccrc::tree_view view = ccrc::ring_chart_view(r.view.value_or(ccrc::tree_view(p.tree())), ag[r.metric]);
  return ccrc::ring_chart(view, ag[r.metric],
                          chart_area(r.width, r.height, {.sizing = r.sizing, .order = r.order, .min_arc_px = r.min_px,
                                                         .padding_px = r.padding, .heights = heights}));
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
  doc.raw("<g id=\"segments\" stroke=\"#ffffff\" stroke-width=\"0.5\">\n");
  stack_text::abbreviator stacks(pic.profile.tree());
  for (std::size_t i = 0; i < pic.chart.segments.size(); ++i) segment_element(doc, pic, stacks, i);
  doc.raw("</g>\n<g id=\"labels\" font-size=\"11\" text-anchor=\"middle\" dominant-baseline=\"central\" "
          "fill=\"#1a1a1a\" pointer-events=\"none\">\n");
  for (const auto& s : pic.chart.segments)
    if (s.kind != ccrc::segment_kind::line) label_element(doc, pic, s);
  doc.raw("</g>\n");
  legend(doc, pic);
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
