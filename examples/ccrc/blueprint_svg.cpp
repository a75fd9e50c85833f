#include "blueprint_svg.hpp"

#include "stack_text.hpp"
#include "svg.hpp"

#include <ccrc/diff/blueprint.hpp>

#include <algorithm>
#include <cstdio>

namespace blueprint {

std::string fill_of(ccrc::diff_status s) {
  return s == ccrc::diff_status::unchanged ? "#ffffff" : ccrc::hex(ccrc::diff_color(s));
}

std::string number_text(double v) { return cli::format_value(v, 2); }

std::string percent_text(double share, bool sign) {
  char buf[48];
  std::snprintf(buf, sizeof buf, sign ? "%+.2f %%" : "%.2f %%", 100 * share);
  return buf;
}

namespace {

// The label under a box: the name if it fits in `room` characters, else without the
// arguments ("SAXBuilder.parse_proxy(…)"), else cut. The tooltip has the full name.
std::string short_label(std::string_view name, std::size_t room) {
  std::string s(name);
  if (svg::code_points(s) > room && name.find('(') != std::string_view::npos)
    s = std::string(name.substr(0, name.find('('))) + (name.find("()") != std::string_view::npos ? "()" : "(…)");
  return svg::shorten(s, room);
}

std::string tooltip(const ccrc::cct_diff& d, const stack_text::abbreviator& stacks, std::string_view metric,
                    const std::optional<std::string>& calls, ccrc::node_id n) {
  const ccrc::context_matching& match = d.matching;
  bool in_old = match.in_first(n), in_new = match.in_second(n);
  auto value = [](bool present, double v) { return present ? number_text(v) : std::string("-"); };
  auto share = [](bool present, double v) { return present ? percent_text(v) : std::string("-"); };
  std::string s = std::string(d.tree().name(n)) + "\n" + stacks.path(n) + "\n";
  s += "status: " + std::string(ccrc::to_string(d.status[n])) + (d.modified(n) ? " (method modified)" : "") + "\n";
  s += std::string(metric) + ": " + value(in_old, d.first[n]) + " -> " + value(in_new, d.second[n]) + "\n";
  s += "share of the run: " + share(in_old, d.share_first(n)) + " -> " + share(in_new, d.share_second(n)) + "\n";
  s += "H (change of share): " + percent_text(d.height[n], true) + "\n";
  if (calls)
    s += *calls + ": " + value(in_old, d.calls_first[n]) + " -> " + value(in_new, d.calls_second[n]) + "\n";
  s += "W = log(|calls difference| + 1): " + number_text(d.width[n]);
  return s;
}

}  // namespace

std::string file_name(const std::string& path) { return path.substr(path.find_last_of('/') + 1); }

std::string to_svg(const ccrc::cct_diff& d, std::string_view metric, const std::optional<std::string>& calls,
                   const std::vector<char>& shown, const std::string& old_name, const std::string& new_name) {
  constexpr double margin = 20, header = 74, label_room = 26, slot = 170, font = 10;
  ccrc::blueprint_options options{.slot_width = slot, .horizontal_gap = 14, .vertical_gap = 48};
  ccrc::blueprint_layout bp = ccrc::blueprint_chart(d, shown, options);
  double width = std::max(bp.width + 2 * margin, 800.0);
  double height = header + bp.height + label_room + 2 * margin;
  svg::document doc(width, height);

  // Title, legend and how to read the picture.
  auto text = [&](double x, double y, double size, std::string_view s) {
    doc.raw("<text").attr("x", x).attr("y", y).attr("font-size", size).raw(">").text(s).raw("</text>\n");
  };
  text(margin, margin + 4, 14,
       "Performance evolution blueprint, " + std::string(metric) + ": " + number_text(d.total_first) + " (" + file_name(old_name) +
           ") -> " + number_text(d.total_second) + " (" + file_name(new_name) + ")");
  double x = margin;
  for (const auto& st : styles) {
    doc.raw("<rect").attr("x", x).attr("y", margin + 16).attr("width", 12.0).attr("height", 12.0);
    doc.attr("fill", fill_of(st.status)).attr("stroke", "#333").raw("/>\n");
    text(x + 16, margin + 26, font, st.label);
    x += 108;
  }
  text(margin, margin + 46, font,
       "height: |H|, the change of the context's share of its run (new share - old share); width: "
       "log(|calls difference| + 1), at least 5; thick border: callees not shown");

  double top = margin + header;
  auto cx = [&](const ccrc::blueprint_box& b) { return margin + b.x + b.width / 2; };
  doc.raw("<g stroke=\"#777\" stroke-width=\"1\">\n");
  for (const auto& b : bp.boxes) {
    if (b.parent == ccrc::no_box) continue;
    const auto& p = bp.boxes[b.parent];
    doc.raw("<line").attr("x1", cx(p)).attr("y1", top + p.y + p.height + label_room);
    doc.attr("x2", cx(b)).attr("y2", top + b.y).raw("/>\n");
  }
  doc.raw("</g>\n");
  auto room = static_cast<std::size_t>(slot / (font * 0.58));
  stack_text::abbreviator stacks(d.tree());
  for (const auto& b : bp.boxes) {
    double bottom = top + b.y + b.height;
    doc.raw("<g><title>").text(tooltip(d, stacks, metric, calls, b.node)).raw("</title>");
    doc.raw("<rect").attr("x", margin + b.x).attr("y", top + b.y).attr("width", b.width).attr("height", b.height);
    doc.attr("fill", fill_of(b.status)).attr("stroke", "#222").attr("stroke-width", b.hidden_children ? 3.0 : 1.0);
    doc.raw("/><text").attr("x", cx(b)).attr("y", bottom + 11).attr("font-size", font).raw(" text-anchor=\"middle\">");
    doc.text(short_label(d.tree().name(b.node), room)).raw("</text>");
    doc.raw("<text").attr("x", cx(b)).attr("y", bottom + 22).attr("font-size", font - 1).attr("fill", "#555");
    doc.raw(" text-anchor=\"middle\">").text("H " + percent_text(d.height[b.node], true)).raw("</text></g>\n");
  }
  return doc.finish();
}

}  // namespace blueprint
