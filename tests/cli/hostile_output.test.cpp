// SVG, HTML and JSON output for hostile names and deep stacks (issue 15, defects 3 and 4):
// well-formed XML and valid UTF-8 whatever the names, and size linear in the segments
// whatever the depth.
#include "support/tool.hpp"
#include "svg.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <string>

namespace {

// True when `s` is well-formed UTF-8 (no overlong forms, surrogates or code points beyond
// U+10FFFF): a direct reading of RFC 3629's table, independent of the writer's decoder.
bool valid_utf8(const std::string& s) {
  std::size_t i = 0;
  auto at = [&](std::size_t k) { return k < s.size() ? static_cast<unsigned char>(s[k]) : 0u; };
  auto cont = [&](std::size_t k, unsigned lo = 0x80, unsigned hi = 0xbf) { return at(k) >= lo && at(k) <= hi; };
  while (i < s.size()) {
    unsigned b = at(i);
    if (b < 0x80) i += 1;
    else if (b >= 0xc2 && b <= 0xdf && cont(i + 1)) i += 2;
    else if (b == 0xe0 && cont(i + 1, 0xa0) && cont(i + 2)) i += 3;
    else if (((b >= 0xe1 && b <= 0xec) || b == 0xee || b == 0xef) && cont(i + 1) && cont(i + 2)) i += 3;
    else if (b == 0xed && cont(i + 1, 0x80, 0x9f) && cont(i + 2)) i += 3;
    else if (b == 0xf0 && cont(i + 1, 0x90) && cont(i + 2) && cont(i + 3)) i += 4;
    else if (b >= 0xf1 && b <= 0xf3 && cont(i + 1) && cont(i + 2) && cont(i + 3)) i += 4;
    else if (b == 0xf4 && cont(i + 1, 0x80, 0x8f) && cont(i + 2) && cont(i + 3)) i += 4;
    else return false;
  }
  return true;
}

bool have_xmllint() { return std::system("xmllint --version >/dev/null 2>&1") == 0; }

// xmllint's verdict on a file (0: well-formed); `html` parses it as HTML instead.
int xmllint(const std::string& path, bool html = false) {
  return std::system(("xmllint --noout " + std::string(html ? "--html " : "") + "'" + path + "' 2>&1").c_str());
}

std::string repeat(const std::string& s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

const std::string fffe = "\xef\xbf\xbe", ffff = "\xef\xbf\xbf", e_acute = "\xc3\xa9", cjk = "\xe6\xbc\xa2";

// Frames named with U+FFFE and U+FFFF, and long names of two- and three-byte characters whose
// cut (legend, blueprint labels) falls inside a sequence when counted in bytes.
std::string hostile_folded(int scale) {
  std::string e40 = "z" + repeat(e_acute, 40), c40 = "zz" + repeat(cjk, 40);  // odd byte offsets
  return "main;a" + fffe + "b;" + e40 + " " + std::to_string(10 * scale) + "\n" +  //
         "main;x" + ffff + ";" + c40 + " " + std::to_string(20 * scale) + "\n" +   //
         "main;" + e40 + "." + c40 + "(int) 7\n" +                                  //
         "main;q" + e_acute + repeat("y", 29) + e_acute + " 5\n";
}

}  // namespace

TEST_CASE("svg::append_escaped: XML's special characters escaped, forbidden code points and bad UTF-8 replaced") {
  auto esc = [](const std::string& s) {
    std::string out;
    svg::append_escaped(out, s);
    return out;
  };
  const std::string fffd = "\xef\xbf\xbd";
  CHECK(esc("a<b>&\"'") == "a&lt;b&gt;&amp;&quot;&apos;");
  CHECK(esc("x" + fffe + "y" + ffff) == "x" + fffd + "y" + fffd);
  CHECK(esc(std::string("t\x01\tn\n")) == "t" + fffd + "\tn\n");
  CHECK(esc("\xc2\x85") == fffd);                  // C1 control NEL
  CHECK(esc("\xc3") == fffd);                      // cut sequence
  CHECK(esc("\xc0\xaf") == fffd + fffd);           // overlong '/'
  CHECK(esc("\xed\xa0\x80") == fffd + fffd + fffd);  // a surrogate: three stray bytes
  CHECK(esc(e_acute + cjk + "\xf0\x9f\x98\x80") == e_acute + cjk + "\xf0\x9f\x98\x80");
  CHECK(esc("\xef\xbf\xbd") == fffd);
}

TEST_CASE("svg::shorten: cut between characters, with an ellipsis, counted in code points") {
  CHECK(svg::shorten("abc", 3) == "abc");
  CHECK(svg::shorten("abcd", 3) == "ab\xe2\x80\xa6");
  CHECK(svg::shorten(repeat(e_acute, 40), 31) == repeat(e_acute, 30) + "\xe2\x80\xa6");
  CHECK(svg::shorten(repeat(cjk, 5), 5) == repeat(cjk, 5));
  CHECK(svg::shorten(repeat(cjk, 6), 5) == repeat(cjk, 4) + "\xe2\x80\xa6");
  CHECK(svg::shorten("ab", 0) == "\xe2\x80\xa6");
  CHECK(svg::code_points(e_acute + cjk + "a") == 3);
}

TEST_CASE("ccrc render -o x.svg / x.html with U+FFFE, U+FFFF and long multi-byte names: well-formed XML, valid UTF-8") {
  std::string in = test::write_temp("hostile.folded", hostile_folded(1));
  for (const char* ext : {"svg", "html"}) {
    CAPTURE(ext);
    std::string out = test::write_temp(std::string("hostile-render.") + ext, "");
    auto r = test::run_tool("render '" + in + "' -o '" + out + "'");
    REQUIRE_MESSAGE(r.status == 0, r.err);
    std::string text = test::read_file(out);
    CHECK(valid_utf8(text));
    CHECK(text.find(fffe) == std::string::npos);
    CHECK(text.find(ffff) == std::string::npos);
    CHECK(text.find("z" + repeat(e_acute, 29) + "\xe2\x80\xa6") != std::string::npos);  // the legend's cut
    if (have_xmllint()) CHECK(xmllint(out, std::string(ext) == "html") == 0);
  }
}

TEST_CASE("ccrc diff -o x.svg (blueprint and ring) with U+FFFE, U+FFFF and long multi-byte names: well-formed, valid UTF-8") {
  std::string old_in = test::write_temp("hostile-old.folded", hostile_folded(1));
  std::string new_in = test::write_temp("hostile-new.folded", hostile_folded(3));
  for (const char* chart : {"blueprint", "ring"}) {
    CAPTURE(chart);
    std::string out = test::write_temp(std::string("hostile-diff-") + chart + ".svg", "");
    auto r = test::run_tool("diff '" + old_in + "' '" + new_in + "' --chart " + chart + " -o '" + out + "'");
    REQUIRE_MESSAGE(r.status == 0, r.err);
    std::string text = test::read_file(out);
    CHECK(valid_utf8(text));
    CHECK(text.find(fffe) == std::string::npos);
    CHECK(text.find(ffff) == std::string::npos);
    if (have_xmllint()) CHECK(xmllint(out) == 0);
  }
}

namespace {

// One folded line: a chain of `depth` frames f0;f1;...
std::string chain_folded(int depth) {
  std::string line;
  for (int i = 0; i < depth; ++i) line += (i ? ";f" : "f") + std::to_string(i);
  return line + " 1\n";
}

}  // namespace

TEST_CASE("ccrc render of a 20,000-frame chain: JSON and SVG linear in the segments, paths abbreviated") {
  constexpr int depth = 20000;
  std::string in = test::write_temp("chain.folded", chain_folded(depth));
  std::string json_out = test::write_temp("chain.json", ""), svg_out = test::write_temp("chain.svg", "");
  // Every ring one pixel wide, so that all 20,000 frames are segments.
  std::string size = " --size 41000x41000 --min-px 0 --depth all";
  auto r = test::run_tool("render '" + in + "'" + size + " -o '" + json_out + "'");
  REQUIRE_MESSAGE(r.status == 0, r.err);
  std::string json = test::read_file(json_out);
  std::size_t segments = 0;
  for (std::size_t pos = json.find("\"node\""); pos != std::string::npos; pos = json.find("\"node\"", pos + 1)) ++segments;
  CHECK(segments == depth);
  CHECK(json.size() < 600 * segments);
  // The deepest segment: the first 3 frames, the elided count, the last 6 (by hand: 20,000 -
  // 3 - 6 = 19,991 left out).
  CHECK(json.find("\"path\": \"f0;f1;f2;\xe2\x80\xa6 19991 frames \xe2\x80\xa6;f19994;f19995;f19996;f19997;f19998;f19999\"") !=
        std::string::npos);
  // A stack of 10 frames is whole, one of 11 abbreviated.
  CHECK(json.find("\"path\": \"f0;f1;f2;f3;f4;f5;f6;f7;f8;f9\"") != std::string::npos);
  CHECK(json.find("\"path\": \"f0;f1;f2;\xe2\x80\xa6 2 frames \xe2\x80\xa6;f5;f6;f7;f8;f9;f10\"") != std::string::npos);

  r = test::run_tool("render '" + in + "'" + size + " -o '" + svg_out + "'");
  REQUIRE_MESSAGE(r.status == 0, r.err);
  std::string svg = test::read_file(svg_out);
  CHECK(svg.size() < 600 * segments);
  CHECK(svg.find("\xe2\x80\xa6 19991 frames \xe2\x80\xa6") != std::string::npos);
}

TEST_CASE("ccrc diff chain chain -o d.svg on a 20,000-frame chain completes with a small file") {
  constexpr int depth = 20000;
  std::string in = test::write_temp("diff-chain.folded", chain_folded(depth));
  std::string out = test::write_temp("diff-chain.svg", "");
  auto r = test::run_tool("diff '" + in + "' '" + in + "' -o '" + out + "'");
  REQUIRE_MESSAGE(r.status == 0, r.err);
  std::string svg = test::read_file(out);
  CHECK(svg.size() > 0);
  CHECK(svg.size() < 600 * std::size_t{depth});
  if (have_xmllint()) CHECK(xmllint(out) == 0);
}

TEST_CASE("ccrc search and diff --json on a 20,000-frame chain: paths abbreviated, callers by index, size linear") {
  constexpr int depth = 20000;
  std::string in = test::write_temp("search-chain.folded", chain_folded(depth));
  // By hand: 20,000 - 3 - 6 = 19,991 frames left out of the deepest context's path.
  const std::string deepest = "f0;f1;f2;\xe2\x80\xa6 19991 frames \xe2\x80\xa6;f19994;f19995;f19996;f19997;f19998;f19999";

  auto r = test::run_tool("search '" + in + "' =f19999 --json");
  REQUIRE_MESSAGE(r.status == 0, r.err);
  nlohmann::json s = nlohmann::json::parse(r.out);
  REQUIRE(s["contexts"].size() == 1);
  CHECK(s["contexts"][0]["path"] == deepest);
  // Every context matches 'f': 20,000 lines of text, each short.
  r = test::run_tool("search '" + in + "' f");
  REQUIRE_MESSAGE(r.status == 0, r.err);
  CHECK(r.out.find(deepest + "\n") != std::string::npos);
  CHECK(r.out.size() < 200 * std::size_t{depth});

  r = test::run_tool("diff '" + in + "' '" + in + "' --json");
  REQUIRE_MESSAGE(r.status == 0, r.err);
  CHECK(r.out.size() < 600 * std::size_t{depth});
  nlohmann::json d = nlohmann::json::parse(r.out);
  const nlohmann::json& contexts = d["contexts"];
  REQUIRE(contexts.size() == depth);
  CHECK(contexts[0]["parent"].is_null());
  bool chained = true;
  for (std::size_t k = 1; k < contexts.size(); ++k) chained = chained && contexts[k]["parent"] == k - 1;
  CHECK(chained);
  CHECK(contexts[depth - 1]["method"] == "f19999");
  CHECK(contexts[depth - 1]["path"] == deepest);
  CHECK(d["top"].size() > 0);
}
