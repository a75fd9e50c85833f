#include "support/tool.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <map>
#include <numbers>

using nlohmann::json;

namespace {

// Renders to a temporary file and returns its contents (and the run, for the status).
struct rendered {
  test::run_result run;
  std::string text;
};

rendered render(const std::string& args, const std::string& out_name) {
  std::string out = test::write_temp(out_name, "");
  rendered r{test::run_tool("render " + args + " -o '" + out + "'"), {}};
  r.text = test::read_file(out);
  return r;
}

json render_json(const std::string& args) {
  rendered r = render(args, "chart.json");
  REQUIRE_MESSAGE(r.run.status == 0, r.run.err);
  return json::parse(r.text);
}

std::map<std::string, json> by_path(const json& chart) {
  std::map<std::string, json> out;
  for (const auto& s : chart["segments"]) out[s["path"].get<std::string>()] = s;
  return out;
}

double span(const json& s) { return s["a1"].get<double>() - s["a0"].get<double>(); }

// xmllint's verdict on a file: 0 when it is well-formed XML.
int xmllint(const std::string& text, const std::string& name) {
  std::string path = test::write_temp(name, text);
  return std::system(("xmllint --noout '" + path + "' 2>&1").c_str());
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("ccrc render -o chart.json: Figure 3(b) as a segment list, in the documented shape") {
  json j = render_json(test::figure1_path + " --metric bytecodes");
  CHECK(j["width"] == 1440);
  CHECK(j["height"] == 900);
  REQUIRE(j["center"].size() == 2);
  CHECK(j["mode"] == "angle");
  CHECK(j["metric"] == "bytecodes");
  CHECK(j["total"] == 3238);
  CHECK(j["rings"] == 5);
  REQUIRE(j["radii"].size() == 6);
  REQUIRE(j["segments"].size() == 18);
  double outer = j["radii"][5];
  CHECK(outer == doctest::Approx(442));  // (900 - 2 * 8) / 2: the chart fills the height
  for (std::size_t d = 1; d < 6; ++d)
    CHECK(j["radii"][d].get<double>() - j["radii"][d - 1].get<double>() == doctest::Approx(outer / 6));
  const json& center = j["segments"][0];
  CHECK(center["kind"] == "center");
  CHECK(center["path"] == "main");
  CHECK(center["depth"] == 0);
  CHECK(center["value"] == 3238);
  CHECK(center["parent"].is_null());
  for (const auto& s : j["segments"]) {
    for (const char* field : {"node", "path", "depth", "r0", "r1", "a0", "a1", "kind", "value", "contexts"})
      CHECK_MESSAGE(s.contains(field), field);
    for (const char* number : {"r0", "r1", "a0", "a1", "value"}) CHECK(s[number].is_number());
  }
  auto s = by_path(j);
  CHECK(s["main;f"]["depth"] == 1);
  CHECK(s["main;f"]["kind"] == "arc");
  CHECK(s["main;f"]["value"] == 890);
  CHECK(s["main;f"]["self"] == 180);
  const double full = 2 * std::numbers::pi;
  CHECK(span(s["main;f"]) / full == doctest::Approx(890.0 / 3238));
  CHECK(span(s["main;g"]) / full == doctest::Approx(490.0 / 3238));
  CHECK(span(s["main;h"]) / full == doctest::Approx(792.0 / 3238));
  CHECK(s["main;f;g;g;h;i"]["depth"] == 5);
}

TEST_CASE("ccrc render --sizing equal and --mode area (--sizing's first name)") {
  auto s = by_path(render_json(test::figure1_path + " --metric bytecodes --sizing equal"));
  for (const char* callee : {"main;f", "main;g", "main;h"}) CHECK(span(s[callee]) == doctest::Approx(2 * std::numbers::pi / 3));
  json area = render_json(test::figure1_path + " --metric bytecodes --mode area");
  CHECK(area["mode"] == "area");
  auto r = area["radii"].get<std::vector<double>>();
  for (std::size_t d = 1; d < r.size(); ++d) CHECK(r[d] * r[d] - r[d - 1] * r[d - 1] == doctest::Approx(r[0] * r[0]));
}

TEST_CASE("ccrc render --depth 3 is Figure 4(b), --root at main's f is Figure 4(a)") {
  json b = render_json(test::figure1_path + " --metric bytecodes --depth 3");
  CHECK(b["segments"].size() == 9);
  CHECK(b["rings"] == 2);
  CHECK(b["segments"][0]["path"] == "main");
  json a = render_json(test::figure1_path + " --metric bytecodes --root 'main;f'");
  CHECK(a["segments"].size() == 9);
  CHECK(a["segments"][0]["path"] == "main;f");
  CHECK(a["total"] == 890);
  auto s = by_path(a);
  CHECK(s["main;f;g;g;h;i"]["depth"] == 4);
  CHECK(span(s["main;f;g"]) / (2 * std::numbers::pi) == doctest::Approx(490.0 / 890));
}

TEST_CASE("ccrc render --min-px: thin segments become lines without callees") {
  // Radius 122 (a 150 px legend, 8 px margin), rings 20.3 px: g's arc in ring 1 is 39 px long.
  json j = render_json(test::figure1_path + " --metric bytecodes --min-px 60 --size 500x260");
  auto s = by_path(j);
  std::size_t lines = 0;
  for (const auto& seg : j["segments"]) {
    if (seg["kind"] != "line") continue;
    ++lines;
    if (seg["contexts"] == 1) CHECK(seg["r1"].get<double>() * span(seg) < 60);
  }
  CHECK(lines > 0);
  CHECK(j["segments"].size() < 18);
  // No segment hangs below a line.
  for (const auto& seg : j["segments"])
    if (!seg["parent"].is_null()) CHECK(j["segments"][seg["parent"].get<std::size_t>()]["kind"] != "line");
  json all = render_json(test::figure1_path + " --metric bytecodes --min-px 0 --size 500x260");
  CHECK(all["segments"].size() == 18);
}

TEST_CASE("ccrc render -o chart.svg: well-formed, one element and tooltip per segment, a legend") {
  rendered r = render(test::figure1_path + " --metric bytecodes --size 800x500", "chart.svg");
  REQUIRE(r.run.status == 0);
  CHECK(r.run.out.find("18 segments (0 lines) in 5 rings around main") != std::string::npos);
  CHECK(xmllint(r.text, "check.svg") == 0);
  CHECK(count(r.text, "data-node=") == 18);
  CHECK(count(r.text, "<title>") == 18 + 5);  // the segments' and the legend's five methods'
  CHECK(count(r.text, "<circle") == 1);
  CHECK(count(r.text, "<path d=") == 17);
  // The tooltip of main;f: the call stack, then both metrics, self and aggregated.
  CHECK(r.text.find("<title>main\n  f\ncalls: self 20, aggregated 130\nbytecodes: self 180, aggregated 890 "
                    "(27.49 % of the center)</title>") != std::string::npos);
  CHECK(r.text.find("bytecodes total 3238 (ag of main)") != std::string::npos);
  CHECK(r.text.find(">main</text>") != std::string::npos);  // the center's label fits
  for (const char* bad : {"\"nan", "\"-nan", "\"inf", "\"-inf", " nan", " inf", "NaN"}) CHECK(r.text.find(bad) == std::string::npos);
}

TEST_CASE("ccrc render -o chart.html: the SVG and a script, well-formed") {
  rendered r = render(test::figure1_path + " --metric bytecodes", "chart.html");
  REQUIRE(r.run.status == 0);
  CHECK(r.text.rfind("<!DOCTYPE html>", 0) == 0);
  CHECK(xmllint(r.text, "check.html") == 0);
  CHECK(r.text.find("<script>") != std::string::npos);
  CHECK(count(r.text, "<svg") == 1);
  CHECK(r.text.find("<?xml") == std::string::npos);
}

TEST_CASE("ccrc render --highlight: matches, and the segments hidden matches lie under") {
  json j = render_json(test::figure1_path + " --metric bytecodes --highlight h --depth 2");
  auto s = by_path(j);
  CHECK(s["main;h"]["highlight"] == "match");
  CHECK(s["main"]["highlight"] == "contains_match");
  CHECK(s["main;f"]["highlight"] == "contains_match");  // main;f;h is below the depth limit
  CHECK(s["main;g"]["highlight"] == "contains_match");
  rendered svg = render(test::figure1_path + " --highlight h", "highlight.svg");
  CHECK(svg.run.status == 0);
  CHECK(xmllint(svg.text, "check-highlight.svg") == 0);
  CHECK(svg.text.find("highlighted segments") != std::string::npos);
}

TEST_CASE("ccrc render on degenerate profiles (empty, all zero, two top-level frames): valid output") {
  std::string empty = test::write_temp("empty.folded", "# metrics: x\n");
  json j = render_json(empty);
  CHECK(j["segments"].size() == 1);
  CHECK(j["segments"][0]["path"] == "");
  CHECK(j["rings"] == 0);
  rendered svg = render(empty, "empty.svg");
  CHECK(xmllint(svg.text, "check-empty.svg") == 0);

  std::string zero = test::write_temp("zero.folded", "main;a 0\nmain;b 0\nmain;b;c 0\n");
  j = render_json(zero);
  CHECK(j["segments"].size() == 2);  // a and b weigh nothing: one empty line for both
  CHECK(j["segments"][1]["kind"] == "line");
  CHECK(j["segments"][1]["contexts"] == 2);
  CHECK(j["segments"][1]["a0"] == j["segments"][1]["a1"]);
  svg = render(zero, "zero.svg");
  CHECK(xmllint(svg.text, "check-zero.svg") == 0);

  std::string two = test::write_temp("two.folded", "main;a 1\nthread;b 3\n");
  j = render_json(two);
  CHECK(j["segments"][0]["path"] == "");  // two top-level frames: the synthetic root is the center
  CHECK(j["segments"].size() == 5);
}

TEST_CASE("ccrc render --layout icicle -o chart.json: Figure 1's boxes, exactly") {
  json j = render_json(test::figure1_path + " --metric bytecodes --layout icicle");
  CHECK(j["layout"] == "icicle");
  CHECK(j["width"] == 1440);
  CHECK(j["mode"] == "angle");
  CHECK(j["total"] == 3238);
  // The legend's 260 px on the left, 28 px for the breadcrumbs on top, 8 px margins: the
  // chart is 1164 px wide from (268, 28), main's bar and five rows of 24 px (864 px would
  // leave 144 px a row: rows are at most 24 px).
  CHECK(j["x0"] == 268);
  CHECK(j["x1"] == 1432);
  CHECK(j["root_at_bottom"] == false);
  CHECK(j["rows"] == 5);
  auto edges = j["edges"].get<std::vector<double>>();
  REQUIRE(edges.size() == 7);
  for (std::size_t k = 0; k < edges.size(); ++k) CHECK(edges[k] == doctest::Approx(28 + 24.0 * static_cast<double>(k)));
  REQUIRE(j["segments"].size() == 18);
  const json& main = j["segments"][0];
  CHECK(main["kind"] == "root");
  CHECK(main["path"] == "main");
  CHECK(main["parent"].is_null());
  // Each box from the bytecodes of its elder siblings and its callers' elder siblings: x0 =
  // 268 + 1164 * before / 3238, as wide as its ag.
  const std::map<std::string, std::pair<double, double>> boxes = {
      {"main", {0, 3238}},          {"main;f", {0, 890}},         {"main;h", {890, 792}},     {"main;g", {1682, 490}},
      {"main;f;g", {0, 490}},       {"main;f;h", {490, 220}},     {"main;h;i", {890, 360}},   {"main;g;g", {1682, 200}},
      {"main;g;h", {1882, 110}},    {"main;f;g;g", {0, 200}},     {"main;f;g;h", {200, 110}}, {"main;f;h;i", {490, 100}},
      {"main;g;g;h", {1682, 110}},  {"main;g;h;i", {1882, 50}},   {"main;f;g;g;h", {0, 110}}, {"main;f;g;h;i", {200, 50}},
      {"main;g;g;h;i", {1682, 50}}, {"main;f;g;g;h;i", {0, 50}}};
  auto s = by_path(j);
  for (const auto& [path_text, box] : boxes) {
    const std::string& path = path_text;  // clang 14 cannot capture a structured binding
    CAPTURE(path);
    REQUIRE(s.count(path) == 1);
    const json& seg = s[path];
    double depth = seg["depth"].get<double>();
    CHECK(seg["x0"].get<double>() == doctest::Approx(268 + 1164 * box.first / 3238));
    CHECK(seg["x1"].get<double>() - seg["x0"].get<double>() == doctest::Approx(1164 * box.second / 3238));
    CHECK(seg["y0"].get<double>() == doctest::Approx(28 + 24 * depth));
    CHECK(seg["y1"].get<double>() == doctest::Approx(52 + 24 * depth));
    CHECK(seg["value"] == box.second);
    if (path != "main") CHECK(seg["kind"] == "box");
  }
  CHECK(s["main;f;g;g;h;i"]["depth"] == 5);
  // --sizing equal: thirds of main's width.
  auto equal = by_path(render_json(test::figure1_path + " --metric bytecodes --layout icicle --sizing equal"));
  for (const char* callee : {"main;f", "main;g", "main;h"})
    CHECK(equal[callee]["x1"].get<double>() - equal[callee]["x0"].get<double>() == doctest::Approx(388));
}

TEST_CASE("ccrc render --layout icicle -o chart.svg: a rect and a tooltip per box, labels from the left, a legend") {
  rendered r = render(test::figure1_path + " --metric bytecodes --layout icicle --depth 3 --highlight =i", "icicle.svg");
  REQUIRE(r.run.status == 0);
  CHECK(r.run.out.find("9 segments (0 lines) in 2 rows below main") != std::string::npos);
  CHECK(xmllint(r.text, "check-icicle.svg") == 0);
  CHECK(count(r.text, "data-node=") == 9);
  std::string segments = r.text.substr(r.text.find("<g id=\"segments\""));
  segments = segments.substr(0, segments.find("</g>"));
  CHECK(count(segments, "<rect x=") == 9);
  CHECK(r.text.find("<title>main\n  f\ncalls: self 20, aggregated 130\nbytecodes: self 180, aggregated 890 "
                    "(27.49 % of the center)</title>") != std::string::npos);
  // The boxes of row 2 with callees are marked at their bottom edge; main;h;i is a leaf.
  std::string beyond = r.text.substr(r.text.find("<g id=\"beyond\""));
  beyond = beyond.substr(0, beyond.find("</g>"));
  CHECK(count(beyond, "<line") == 4);
  CHECK(count(r.text, "(its callees lie beyond the edge)") == 4);
  CHECK(r.text.find("text-anchor=\"start\"") != std::string::npos);
  CHECK(r.text.find(">main</text>") != std::string::npos);
  CHECK(r.text.find("sizing: width \xe2\x88\x9d ag(bytecodes)") != std::string::npos);
  CHECK(r.text.find("1 highlighted segments") != std::string::npos);  // main;h;i: the other i lie below row 2
  rendered html = render(test::figure1_path + " --layout icicle", "icicle.html");
  REQUIRE(html.run.status == 0);
  CHECK(xmllint(html.text, "check-icicle.html") == 0);
  CHECK(html.text.find(" - ccrc icicle</title>") != std::string::npos);
  auto bad = test::run_tool("render " + test::figure1_path + " -o x.svg --layout pie");
  CHECK(bad.status == 2);
  CHECK(bad.err.find("--layout expects one of ring, icicle, not 'pie'") != std::string::npos);
}

TEST_CASE("ccrc render: bad arguments exit 2, bad input 1") {
  CHECK(test::run_tool("render " + test::figure1_path).status == 2);  // no -o
  auto r = test::run_tool("render " + test::figure1_path + " -o chart.png");
  CHECK(r.status == 2);
  CHECK(r.err.find("-o wants a file ending in .svg, .html or .json") != std::string::npos);
  r = test::run_tool("render " + test::figure1_path + " -o x.svg --mode pie");  // the alias, named as the option
  CHECK(r.status == 2);
  CHECK(r.err.find("--sizing expects one of equal, angle, area, not 'pie'") != std::string::npos);
  CHECK(test::run_tool("render " + test::figure1_path + " -o x.svg --size 100").status == 2);
  CHECK(test::run_tool("render " + test::figure1_path + " -o x.svg --size 0x100").status == 2);
  CHECK(test::run_tool("render " + test::figure1_path + " -o x.svg --min-px -1").status == 2);
  CHECK(test::run_tool("render " + test::figure1_path + " -o x.svg --order random").status == 2);
  r = test::run_tool("render " + test::figure1_path + " -o /nonexistent/dir/x.svg");
  CHECK(r.status == 1);
  CHECK(r.err == "ccrc render: cannot write /nonexistent/dir/x.svg: No such file or directory\n");
  r = test::run_tool("render " + test::figure1_path + " -o x.svg --root 'main;x'");
  CHECK(r.status == 1);
  r = test::run_tool("render --help");
  CHECK(r.status == 0);
  CHECK(r.out.find("--highlight QUERY") != std::string::npos);
}
