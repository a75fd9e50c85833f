// ccrc render: a Calling Context Ring Chart, or an icicle, as SVG, HTML or JSON.
#include "command.hpp"
#include "ring_render.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>

namespace {

// The file format by extension.
render::format format_of(const std::string& path) {
  using render::format;
  auto ends_with = [&](std::string_view ext) {
    return path.size() > ext.size() && path.compare(path.size() - ext.size(), ext.size(), ext) == 0;
  };
  if (ends_with(".svg")) return format::svg;
  if (ends_with(".html") || ends_with(".htm")) return format::html;
  if (ends_with(".json")) return format::json;
  throw cli::usage_error("-o wants a file ending in .svg, .html or .json, not '" + path + "'");
}

// The value of `option`, one of Enum's names (ccrc::enum_names), or `fallback` without it.
template <ccrc::named_enum Enum>
Enum choice(const cli::args& a, std::string_view option, Enum fallback) {
  auto v = a.value(option);
  if (!v) return fallback;
  if (auto e = ccrc::enum_named<Enum>(*v)) return *e;
  std::string known;
  for (std::string_view n : enum_names(Enum{})) known += (known.empty() ? "" : ", ") + std::string(n);
  throw cli::usage_error(std::string(option) + " expects one of " + known + ", not '" + *v + "'");
}

// "WxH" in pixels.
std::pair<double, double> size_of(const cli::args& a) {
  auto v = a.value("--size");
  if (!v) return {1440, 900};
  std::size_t x = v->find('x');
  auto number = [&](std::string s) {
    std::size_t used = 0;
    double d = 0;
    try {
      d = std::stod(s, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != s.size() || !(d >= 16 && d <= 100000))
      throw cli::usage_error("--size expects WIDTHxHEIGHT in pixels, each 16-100000, not '" + *v + "'");
    return d;
  };
  if (x == std::string::npos) number("");
  return {number(v->substr(0, x)), number(v->substr(x + 1))};
}


int run(const cli::args& a, cli::timings& t) {
  a.expect_at_most(1);
  const std::string& input = a.positional(0, "PROFILE");
  auto out = a.value("-o");
  if (!out) out = a.value("--output");
  if (!out) throw cli::usage_error("missing -o OUT.svg|OUT.html|OUT.json (or -o - for standard output)");
  render::request r;
  r.format = a.value("--format") || *out == "-" ? choice(a, "--format", render::format::svg) : format_of(*out);
  r.layout = choice(a, "--layout", render::chart_kind::ring);
  r.sizing = choice(a, "--sizing", ccrc::ring_sizing::angle);
  r.order = choice(a, "--order", ccrc::child_order::value);
  // An ensemble's variation, cv unless asked otherwise; any other profile: by method.
  const auto coloring = choice(a, "--color-by", render::coloring::cv);
  r.colors = coloring == render::coloring::package ? ccrc::color_by::package : ccrc::color_by::method;
  r.variation = ccrc::enum_named<ccrc::variation>(ccrc::name_of(coloring));
  r.min_px = a.number("--min-px").value_or(1);
  r.padding = a.number("--padding").value_or(0);
  if (r.min_px < 0) throw cli::usage_error("--min-px expects a length in pixels, 0 or more");
  if (r.padding < 0) throw cli::usage_error("--padding expects a length in pixels, 0 or more");
  std::tie(r.width, r.height) = size_of(a);
  cli::refuse_output_over_input(*out, {input});

  auto tree = choice(a, "--tree", render::tree_choice::automatic);
  ccrc::profile p = cli::focused(cli::load_profile(input, t, a), t, a);
  if (tree == render::tree_choice::recursion) t.phase("eliminate_recursion");
  if (auto eliminated = render::tree_of(p, tree, r)) p = std::move(*eliminated);
  r.metric = cli::metric_index(p, a);
  r.view = cli::view_of(p, a);
  r.fit_depth = !a.value("--depth");
  r.skip_trunk = r.fit_depth && !a.value("--root") && !a.value("--focus");
  if (auto text = a.value("--highlight")) r.highlight = cli::name_query_of(*text, a);
  r.title = input == "-" ? "<stdin>" : input.substr(input.find_last_of('/') + 1);
  render::drawing d = render::draw(p, r, t);
  t.phase("write");
  cli::output file(*out);
  file.stream() << d.text;
  file.commit();
  const std::string name = file.to_stdout() ? "<stdout>" : *out;
  std::string summary = render::summary(name, d);
  // On standard output the chart is the whole output: the summary goes to stderr.
  if (file.to_stdout())
    std::fprintf(stderr, "%s\n", summary.c_str());
  else
    print(summary + "\n");
  return 0;
}

}  // namespace

const command render_command{
    "render",
    "a calling context ring chart, or an icicle, as SVG, HTML or JSON",
    "usage: ccrc render PROFILE -o OUT.svg|OUT.html|OUT.json|- [--format svg|html|json]\n"
    "                   [--layout ring|icicle] [--sizing equal|angle|area] [--metric NAME]\n"
    "                   [--focus NAME] [--root 'a;b;c'] [--depth N|all] [--min-px X] [--size WxH]\n"
    "                   [--highlight QUERY [--method|--class|--package] [-i]]\n"
    "                   [--order value|name|insertion] [--padding PX]\n"
    "                   [--color-by method|package|cv|imbalance]\n"
    "                   [--tree auto|contexts|recursion]\n"
    "\n"
    "Draws the calling contexts as rings around their caller (Moret et al.): the center is the\n"
    "view's root, each ring one level of callees, labelled with the frames' names where they fit.\n"
    "By default the chart opens where the profile branches (a chain of single callees at the top\n"
    "is shown above the chart instead) and shows as many levels as keep every ring 12 px thick;\n"
    "segments whose callees lie beyond the edge are marked there. If that draws less than half\n"
    "of the cost in segments (a deep profile), runs of single callees are drawn as one ring each\n"
    "and, for a profile of at most 500,000 contexts, recursion is eliminated, whichever draws\n"
    "more; the legend says what was done. --root and --depth say otherwise. --layout icicle\n"
    "draws the same partition as rows of boxes (a flame graph with its root on top).\n"
    "\n"
    "  -o FILE          the output; its extension chooses the format: .svg (one element per\n"
    "                   segment with a tooltip), .html (the SVG and a hover panel) or .json (the\n"
    "                   segment list); - writes to standard output (SVG unless --format says\n"
    "                   otherwise) and the summary line to stderr\n"
    "  --format F       svg, html or json, whatever OUT's extension\n"
    "  --layout L       ring (default): rings around the root; icicle: the root's bar on top,\n"
    "                   each row of callees below their caller, rows at least 16 px high\n"
    "  --sizing S       equal: callees share their caller's angle equally; angle (default):\n"
    "                   angle proportional to the aggregated metric; area: area proportional\n"
    "                   (in an icicle: equal widths, or width proportional, for angle and area);\n"
    "                   --mode S is the same\n"
    "  --metric NAME    the metric that sizes the segments (default: the first that measures\n"
    "                   time, else samples, else the profile's first)\n"
    "  --focus NAME     the contexts of the method NAME as the roots, merged\n"
    "  --root PATH      the subtree of the calling context PATH (frames separated by ';')\n"
    "  --depth N|all    N levels below the root, as in 'ccrc stats' (without --root the\n"
    "                   synthetic root is level 0, so --depth 3 shows main and two rings);\n"
    "                   all: every level, however thin the rings\n"
    "  --min-px X       segments whose outer arc (box width) is shorter than X pixels are lines\n"
    "                   and their callees are left out (default 1; 0 draws everything)\n"
    "  --size WxH       the canvas in pixels (default 1440x900): a legend on the left, the\n"
    "                   chart in the rest\n"
    "  --highlight Q    highlight the contexts whose method matches Q, as in 'ccrc search':\n"
    "                   a substring, re:REGEX or =NAME, on the part --method, --class or\n"
    "                   --package picks, -i ignoring case; the segments (or lines) that hide\n"
    "                   a match are marked too\n"
    "  --order O        callees clockwise by value (default), name, or insertion order\n"
    "  --padding PX     a gap of PX pixels between neighbouring callees (default 0)\n"
    "  --color-by C     one color per method (default) or per package/namespace (or --colour-by);\n"
    "                   an ensemble (ccrc ensemble -o) by how much each context varies over the\n"
    "                   runs: cv (std/mean, its default) or imbalance (max/mean)\n"
    "  --tree T         auto (default): as above; contexts: the calling context tree, a ring per\n"
    "                   level; recursion: with its recursion eliminated (a method called again\n"
    "                   below itself drawn in its caller's context), chains folded as for auto\n",
    {{"--profile", "-o", "--output", "--format", "--layout", "--sizing", "--metric", "--focus", "--root", "--depth", "--min-px", "--size", "--highlight", "--order",
      "--padding", "--color-by", "--tree"},
     {"--method", "--class", "--package", "-i", "--ignore-case"}},
    run,
};
