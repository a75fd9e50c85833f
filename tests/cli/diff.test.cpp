#include "support/tool.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <string>

using nlohmann::json;

namespace {

const std::string data = CCRC_SOURCE_DIR "/examples/data/";
const std::string xml_pair = data + "xml_old.folded " + data + "xml_new.folded";
const std::string build = "BenchMark.main(String[]);SAXBuilder.build(File);SAXBuilder.build(URL);SAXBuilder.build(InputSource)";
const std::string proxy = build + ";SAXBuilder.parse_proxy(InputSource, XMLReader)";

const json& context(const json& j, const std::string& path) {
  for (const auto& c : j["contexts"])
    if (c["path"] == path) return c;
  FAIL("no context " << path);
  return j;
}

}  // namespace

TEST_CASE("ccrc diff --json on the XML example: parse moved below parse_proxy, build(InputSource) has H = 0") {
  auto r = test::run_tool("diff " + xml_pair + " --modified " + data + "xml_modified.txt --json");
  REQUIRE(r.status == 0);
  json j = json::parse(r.out);
  // Everything but the lists, exactly.
  json head = j;
  for (const char* list : {"contexts", "hot_path", "top"}) head.erase(list);
  CHECK(head == json::parse(R"({"metric": "ms", "new_metric": "ms", "calls_metric": "calls", "total_old": 942, "total_new": 1905,
      "epsilon": 0.0001, "max_chain": 4, "matched": 7, "new": 2, "removed": 0, "moved": 1, "bound_hits": 0})"));
  REQUIRE(j["contexts"].size() == 9);

  // build(InputSource): 100 % of both runs, H = 0 although its time doubled; same path in both.
  json b = context(j, build);
  b.erase("path");
  CHECK(b == json::parse(R"j({"parent": 2, "method": "SAXBuilder.build(InputSource)", "status": "unchanged", "old": 942,
      "new": 1905, "old_share": 1, "new_share": 1, "height": 0, "width": 0, "old_calls": 1, "new_calls": 1,
      "modified": true})j"));

  const json& parse = context(j, proxy + ";AbstractSAXParser.parse(InputSource)");
  CHECK(parse["status"] == "faster");
  CHECK(parse["old"] == 495);
  CHECK(parse["new"] == 385);
  CHECK(parse["height"].get<double>() == doctest::Approx(385.0 / 1905 - 495.0 / 942));
  CHECK(parse["old_path"] == build + ";AbstractSAXParser.parse(InputSource)");  // its path in the first run
  CHECK_FALSE(parse.contains("new_path"));
  CHECK(parse["method"] == "AbstractSAXParser.parse(InputSource)");
  CHECK(j["contexts"][parse["parent"].get<std::size_t>()]["path"] == proxy);  // its caller, by index

  const json& nm = context(j, proxy + ";SAXBuilder.new_method()");
  CHECK(nm["status"] == "new");
  CHECK(nm["old"].is_null());
  CHECK(nm["old_share"].is_null());
  CHECK(nm["old_calls"].is_null());
  CHECK(nm["new"] == 699);
  CHECK(nm["height"].get<double>() == doctest::Approx(699.0 / 1905));
  CHECK(context(j, proxy)["status"] == "new");

  REQUIRE(j["hot_path"].size() == 6);
  CHECK(j["hot_path"][4] == "SAXBuilder.parse_proxy(InputSource, XMLReader)");
  CHECK(j["hot_path"][5] == "SAXBuilder.new_method()");
  CHECK(j["top"][0]["path"] == proxy + ";SAXBuilder.new_method()");
  CHECK(j["top"][1]["status"] == "faster");
}

TEST_CASE("ccrc diff -o OUT.svg: a well-formed blueprint with the seed's colors and the numbers in tooltips") {
  std::string out = test::write_temp("blueprint.svg", "");
  auto r = test::run_tool("diff " + xml_pair + " -o " + out);
  REQUIRE(r.status == 0);
  CHECK(r.out.empty());
  CHECK(std::system(("xmllint --noout '" + out + "'").c_str()) == 0);
  std::string svg = test::read_file(out);
  CHECK(svg.find("fill=\"#f2d62e\"") != std::string::npos);  // new: yellow
  CHECK(svg.find("fill=\"#a8dd9e\"") != std::string::npos);  // faster: light green
  CHECK(svg.find("<title>SAXBuilder.new_method()\n") != std::string::npos);
  CHECK(svg.find("ms: - -&gt; 699\nshare of the run: - -&gt; 36.69 %\nH (change of share): +36.69 %") !=
        std::string::npos);
  std::size_t boxes = 0;
  for (std::size_t at = svg.find("<g><title>"); at != std::string::npos; at = svg.find("<g><title>", at + 1)) ++boxes;
  CHECK(boxes == 9);
}

TEST_CASE("docs/diff.md's blueprint is the one the documented command renders") {
  // docs/diff.md: ccrc diff examples/data/xml_old.folded examples/data/xml_new.folded
  //                 --modified examples/data/xml_modified.txt -o examples/data/xml_blueprint.svg
  std::string out = test::write_temp("xml_blueprint.svg", "");
  auto r = test::run_tool("diff " + xml_pair + " --modified " + data + "xml_modified.txt -o " + out);
  REQUIRE(r.status == 0);
  CHECK(test::read_file(out) == test::read_file(data + "xml_blueprint.svg"));
}

TEST_CASE("ccrc diff -o OUT.json writes the document --json prints") {
  std::string out = test::write_temp("diff.json", "");
  auto r = test::run_tool("diff " + xml_pair + " -o " + out);
  REQUIRE(r.status == 0);
  auto printed = test::run_tool("diff " + xml_pair + " --json");
  CHECK(test::read_file(out) == printed.out);
}

TEST_CASE("ccrc diff without -o or --json prints the totals, the hot path and the largest changes") {
  auto r = test::run_tool("diff " + xml_pair);
  REQUIRE(r.status == 0);
  CHECK(r.out.rfind("ms: 942 -> 1905\ncontexts: 7 matched (1 moved), 2 new, 0 removed\n", 0) == 0);
  CHECK(r.out.find("   +36.69 %  new             SAXBuilder.new_method()\n") != std::string::npos);
  CHECK(r.out.find("   -32.34 %  faster          " + proxy + ";AbstractSAXParser.parse(InputSource)\n") !=
        std::string::npos);
}

TEST_CASE("ccrc diff on single-metric profiles: no counts, every width 0; a removed subtree") {
  std::string a = test::write_temp("a.folded", "main;f;g 5\nmain;h 5\n");
  std::string b = test::write_temp("b.folded", "main;h 5\n");
  auto r = test::run_tool("diff " + a + " " + b + " --json --epsilon 0.01 --max-chain 0");
  REQUIRE(r.status == 0);
  json j = json::parse(r.out);
  CHECK(j["metric"] == "samples");
  CHECK(j["calls_metric"].is_null());
  CHECK(j["epsilon"] == 0.01);
  CHECK(j["max_chain"] == 0);
  CHECK(j["removed"] == 2);
  CHECK(context(j, "main;f")["status"] == "removed");
  CHECK(context(j, "main;f")["height"] == -0.5);
  CHECK(context(j, "main;f;g")["new"].is_null());
  CHECK(context(j, "main;h")["status"] == "slower");
  CHECK(context(j, "main;h")["height"] == 0.5);
  for (const auto& c : j["contexts"]) CHECK(c["width"] == 0);
}

TEST_CASE("ccrc diff --new-metric: runs that name their time differently (instrumented self_ns, sampled cpu_ns)") {
  std::string a = test::write_temp("instrumented.folded", "# metrics: calls self_ns\nmain 1 10\nmain;f 4 30\nmain;g 2 60\n");
  std::string b = test::write_temp("sampled.folded", "# metrics: samples cpu_ns\nmain;f 3 300\nmain;g 7 700\n");
  auto r = test::run_tool("diff " + a + " " + b + " --metric self_ns --new-metric cpu_ns --json");
  REQUIRE(r.status == 0);
  json j = json::parse(r.out);
  CHECK(j["metric"] == "self_ns");
  CHECK(j["new_metric"] == "cpu_ns");
  CHECK(j["calls_metric"].is_null());  // the sampled run has no counts
  CHECK(j["total_old"] == 100);
  CHECK(j["total_new"] == 1000);
  CHECK(j["matched"] == 3);
  CHECK(context(j, "main;f")["old_share"] == 0.3);
  CHECK(context(j, "main;f")["new_share"] == 0.3);
  CHECK(context(j, "main;f")["status"] == "unchanged");
  CHECK(context(j, "main;g")["height"] == doctest::Approx(0.1));
  auto text = test::run_tool("diff " + a + " " + b + " --metric self_ns --new-metric cpu_ns");
  CHECK(text.out.rfind("self_ns / cpu_ns: 100 -> 1000\ncontexts: 3 matched (0 moved), 0 new, 0 removed\n", 0) == 0);
  // A metric NEW lacks is named with NEW's path.
  auto bad = test::run_tool("diff " + a + " " + b + " --metric self_ns --new-metric self_ns");
  CHECK(bad.status != 0);
  CHECK(bad.err.find(b + ": ") != std::string::npos);
  CHECK(bad.err.find("self_ns") != std::string::npos);
}

TEST_CASE("ccrc diff --timings: reading both profiles is one phase") {
  auto r = test::run_tool("diff " + xml_pair + " --json --timings");
  REQUIRE(r.status == 0);
  json t = json::parse(r.err);
  CHECK(t["phases_ms"].contains("read"));
  CHECK(t["phases_ms"].contains("diff"));
  CHECK(t["phases_ms"].size() == 4);
}

TEST_CASE("ccrc diff errors: usage (exit 2) and bad input (exit 1)") {
  auto missing = test::run_tool("diff " + data + "xml_old.folded");
  CHECK(missing.status == 2);
  CHECK(missing.err.rfind("ccrc diff: missing NEW\n\nusage: ccrc diff OLD NEW", 0) == 0);
  auto png = test::run_tool("diff " + xml_pair + " -o out.png");
  CHECK(png.status == 2);
  CHECK(png.err.rfind("ccrc diff: -o expects a file ending in .svg or .json (or .html with --chart ring), or -, not 'out.png'\n", 0) == 0);
  auto chain = test::run_tool("diff " + xml_pair + " --max-chain 1.5");
  CHECK(chain.status == 2);
  auto metric = test::run_tool("diff " + xml_pair + " --metric bytecodes");
  CHECK(metric.status == 1);
  CHECK(metric.err == "ccrc diff: " + data + "xml_old.folded: no metric named 'bytecodes' (this profile has: calls, ms)\n");
  auto modified = test::run_tool("diff " + xml_pair + " --modified /nonexistent/list.txt");
  CHECK(modified.status == 1);
  CHECK(modified.err == "ccrc diff: cannot open /nonexistent/list.txt\n");
  auto unwritable = test::run_tool("diff " + xml_pair + " -o /nonexistent/dir/out.svg");
  CHECK(unwritable.status == 1);
  CHECK(unwritable.err == "ccrc diff: cannot write /nonexistent/dir/out.svg: No such file or directory\n");
}

TEST_CASE("ccrc diff --chart ring: the second run's ring chart colored by class, H in the tooltips") {
  std::string out = test::write_temp("diff_ring.svg", "");
  auto r = test::run_tool("diff " + xml_pair + " --modified " + data + "xml_modified.txt --chart ring -o " + out);
  REQUIRE(r.status == 0);
  CHECK(std::system(("xmllint --noout '" + out + "'").c_str()) == 0);
  std::string svg = test::read_file(out);
  std::size_t new_method = svg.find("SAXBuilder.new_method()\ncalls: self 1, aggregated 1\nms: self 699");
  REQUIRE(new_method != std::string::npos);
  CHECK(svg.find("H +36.69 %, new</title>", new_method) != std::string::npos);
  CHECK(svg.rfind("fill=\"#f2d62e\"", new_method) != std::string::npos);  // new: yellow
  CHECK(svg.find("H -32.34 %, faster</title>") != std::string::npos);    // parse
  CHECK(svg.find(">slower, modified</text>") != std::string::npos);      // the legend is the classes'
  // The ring chart of the pair in docs/diff.md is the one this command renders.
  CHECK(svg == test::read_file(data + "xml_diff_ring.svg"));
  auto html = test::run_tool("diff " + xml_pair + " --chart ring -o " + test::write_temp("diff_ring.html", ""));
  CHECK(html.status == 0);
  auto bad = test::run_tool("diff " + xml_pair + " --chart pie -o " + out);
  CHECK(bad.status == 2);
  auto blueprint_html = test::run_tool("diff " + xml_pair + " -o " + test::write_temp("blueprint.html", ""));
  CHECK(blueprint_html.status == 2);
}
