// The default ring chart and icicle of every real profile in tests/data, as `ccrc render` draws
// them with no option but --layout: readable at first sight (issue 33's measures), and drawing
// where the cost goes (issue 42's). Rings at least 10 px thick, icicle rows 16 px high; at
// least 80 % of the segments with room for a label (80 px of arc at mid-radius and 10 px
// thick; boxes 80 px wide and 10 px high) labelled; every label the segment's name (the
// frame's display name, a chain's first … last) or a prefix of it ending in "…", never empty,
// at least 9 px, contrasting 4.5:1 with its fill; the legend's first eight colors CIE76 12
// apart; at least half of the profile's self cost in the contexts drawn as segments.
#include "support/tool.hpp"

#include <ccrc/algorithm/display_name.hpp>
#include <ccrc/geometry/color.hpp>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using nlohmann::json;

namespace {

// The real profiles of tests/data (tests/data/real_profiles.txt), relative to tests/data.
std::vector<std::string> real_profiles() {
  std::vector<std::string> out;
  std::istringstream list(test::read_file(std::string(CCRC_SOURCE_DIR) + "/tests/data/real_profiles.txt"));
  for (std::string line; std::getline(list, line);)
    if (!line.empty() && line[0] != '#') out.push_back(line);
  return out;
}

// The value of attribute `name` in the element that starts at `at` ("" if absent).
std::string attribute(const std::string& svg, std::size_t at, const std::string& name) {
  std::size_t end = svg.find('>', at);
  std::size_t pos = svg.find(" " + name + "=\"", at);
  if (pos == std::string::npos || pos > end) return "";
  pos += name.size() + 3;
  return svg.substr(pos, svg.find('"', pos) - pos);
}

std::string unescape(std::string s) {
  static const std::pair<const char*, const char*> entities[] = {
      {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&apos;", "'"}, {"&amp;", "&"}};
  for (const auto& [from, to] : entities)
    for (std::size_t pos = s.find(from); pos != std::string::npos; pos = s.find(from, pos + 1)) s.replace(pos, std::string(from).size(), to);
  return s;
}

ccrc::rgb parse_hex(const std::string& hex) {
  REQUIRE(hex.size() == 7);
  auto v = std::stoul(hex.substr(1), nullptr, 16);
  return {static_cast<std::uint8_t>(v >> 16), static_cast<std::uint8_t>(v >> 8), static_cast<std::uint8_t>(v)};
}

// The children of the <g id="..."> group, as the offsets of their start tags.
std::vector<std::size_t> elements(const std::string& svg, const std::string& group, const std::string& tag) {
  std::size_t begin = svg.find("<g id=\"" + group + "\"");
  REQUIRE(begin != std::string::npos);
  std::size_t end = svg.find("\n</g>", begin);
  std::vector<std::size_t> out;
  for (std::size_t pos = svg.find("\n<" + tag, begin); pos < end; pos = svg.find("\n<" + tag, pos + 1)) out.push_back(pos + 1);
  return out;
}

struct label {
  std::size_t segment;
  std::string text;
  double font;
  ccrc::rgb color;
};

// The labels of a default SVG: which segment, what text, what size and color.
std::vector<label> labels_of(const std::string& svg) {
  std::vector<label> out;
  for (std::size_t at : elements(svg, "labels", "text")) {
    std::size_t open = svg.find('>', at) + 1;
    std::size_t close = svg.find("</text>", open);
    std::string inner = svg.substr(open, close - open);
    if (inner.starts_with("<textPath")) inner = inner.substr(inner.find('>') + 1, inner.find("</textPath>") - inner.find('>') - 1);
    std::string fill = attribute(svg, at, "fill");
    out.push_back({std::stoul(attribute(svg, at, "data-segment")), unescape(inner), std::stod(attribute(svg, at, "font-size")),
                   fill.empty() ? ccrc::rgb{0x1a, 0x1a, 0x1a} : parse_hex(fill)});
  }
  return out;
}

// The thickness of each ring or row of a chart's JSON.
std::vector<double> level_thickness(const json& chart) {
  auto bounds = chart[chart["layout"] == "icicle" ? "edges" : "radii"].get<std::vector<double>>();
  std::vector<double> out;
  for (std::size_t d = 1; d < bounds.size(); ++d) out.push_back(bounds[d] - bounds[d - 1]);
  return out;
}

// Whether a segment has room for a label: an arc 80 px long at mid-radius and 10 px thick, a
// box 80 px wide and 10 px high.
bool roomy(const json& s) {
  if (s["kind"] == "box") return s["x1"].get<double>() - s["x0"].get<double>() >= 80 && s["y1"].get<double>() - s["y0"].get<double>() >= 10;
  if (s["kind"] != "arc") return false;
  double r0 = s["r0"], r1 = s["r1"], a0 = s["a0"], a1 = s["a1"];
  return (r0 + r1) / 2 * (a1 - a0) >= 80 && r1 - r0 >= 10;
}

// Whether the root's segment has room for its label: a center of 40 px radius, a bar of 80 px.
bool roomy_root(const json& s) {
  return s["kind"] == "center" ? s["r1"].get<double>() >= 40 : s["x1"].get<double>() - s["x0"].get<double>() >= 80;
}

void check_readable(const std::string& profile, const std::string& layout, double thinnest) {
  CAPTURE(profile);
  CAPTURE(layout);
  std::string path = std::string(CCRC_SOURCE_DIR) + "/tests/data/" + profile;
  std::string svg_file = test::write_temp("readable.svg", ""), json_file = test::write_temp("readable.json", "");
  test::run_result svg_run = test::run_tool("render '" + path + "' --layout " + layout + " -o '" + svg_file + "'");
  test::run_result json_run = test::run_tool("render '" + path + "' --layout " + layout + " -o '" + json_file + "'");
  REQUIRE_MESSAGE(svg_run.status == 0, svg_run.err);
  REQUIRE_MESSAGE(json_run.status == 0, json_run.err);
  std::string svg = test::read_file(svg_file);
  json chart = json::parse(test::read_file(json_file));
  const json& segments = chart["segments"];

  std::vector<double> levels = level_thickness(chart);
  REQUIRE(!levels.empty());
  for (double thickness : levels) CHECK(thickness >= thinnest);

  // Segment fills, in segment order.
  std::vector<std::size_t> shapes = elements(svg, "segments", "");
  REQUIRE(shapes.size() == segments.size());

  std::map<std::size_t, label> by_segment;
  for (const label& l : labels_of(svg)) {
    const json& s = segments[l.segment];
    CAPTURE(l.text);
    std::string shown = s["label"].get<std::string>();
    if (s["contexts"] == 1) CHECK(shown == (s["name"] == "(root)" ? "(root)" : ccrc::display_name(s["name"].get<std::string>())));
    CHECK(!l.text.empty());
    if (l.text != shown) {
      REQUIRE(l.text.ends_with("\xe2\x80\xa6"));
      std::string prefix = l.text.substr(0, l.text.size() - 3);
      CHECK(prefix.size() >= 3);
      CHECK(shown.starts_with(prefix));
    }
    CHECK(l.font >= 9);
    CHECK(ccrc::contrast_ratio(l.color, parse_hex(attribute(svg, shapes[l.segment], "fill"))) >= 4.5);
    by_segment.emplace(l.segment, l);
  }

  // At least 80 % of the roomy segments labelled.
  std::size_t room = 0, labelled = 0;
  for (std::size_t i = 0; i < segments.size(); ++i) {
    if (!roomy(segments[i])) continue;
    ++room;
    labelled += by_segment.count(i);
  }
  if (roomy_root(segments[0])) CHECK(by_segment.count(0) == 1);
  CHECK(labelled >= 0.8 * static_cast<double>(room));
  MESSAGE(profile << " (" << layout << "): " << levels.size() << " levels, " << labelled << " of " << room
                  << " roomy segments labelled, " << by_segment.size() << " labels");

  // Where the cost goes: at least half of the profile's self cost drawn in segments (a chain's
  // every context), as the JSON's `drawn` says.
  json stats = json::parse(test::run_tool("stats '" + path + "' --json").out);
  double total = 0, drawn = 0;
  for (const json& m : stats["metrics"])
    if (m["name"] == chart["metric"]) total = m["total"];
  for (const json& s : segments)
    if (s["kind"] != "line") drawn += s["self"].get<double>();
  CHECK(drawn / total >= 0.5);
  CHECK(chart["drawn"].get<double>() == doctest::Approx(drawn / chart["total"].get<double>()).epsilon(1e-9));
  MESSAGE(profile << " (" << layout << "): " << 100 * drawn / total << " % of the self cost drawn; " << chart["caption"].get<std::string>());

  // The legend's first eight colors told apart.
  std::vector<ccrc::rgb> swatches;
  for (std::size_t at : elements(svg, "legend", "g class=\"method\"")) {
    std::size_t rect = svg.find("<rect", at);
    swatches.push_back(parse_hex(attribute(svg, rect, "fill")));
  }
  CHECK(!swatches.empty());
  for (std::size_t i = 0; i < 8 && i < swatches.size(); ++i)
    for (std::size_t j = i + 1; j < 8 && j < swatches.size(); ++j) CHECK(ccrc::cie76(swatches[i], swatches[j]) >= 12);
}

}  // namespace

TEST_CASE("the default ring chart of every real profile in tests/data is readable at first sight") {
  std::vector<std::string> profiles = real_profiles();
  REQUIRE(profiles.size() >= 14);
  for (const std::string& profile : profiles) check_readable(profile, "ring", 10);
}

TEST_CASE("the default icicle of every real profile in tests/data is readable at first sight") {
  std::vector<std::string> profiles = real_profiles();
  REQUIRE(profiles.size() >= 14);
  for (const std::string& profile : profiles) check_readable(profile, "icicle", 16);
}
