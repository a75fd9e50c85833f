// ccrc demo: the papers' example, end to end.
#include "command.hpp"
#include "figure1_data.hpp"
#include "ring_render.hpp"
#include "viewer_page.hpp"

#include <ccrc/algorithm/flat.hpp>
#include <ccrc/algorithm/inclusive.hpp>
#include <ccrc/algorithm/statistics.hpp>
#include <ccrc/generate/dacapo.hpp>
#include <ccrc/io/folded.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

std::string line(const char* format, auto... values) {
  char buf[256];
  std::snprintf(buf, sizeof buf, format, values...);
  return buf;
}

// Draws the ring chart of `p` as SVG and HTML in `dir`; returns what was written.
std::string draw(const ccrc::profile& p, const std::filesystem::path& dir, const std::string& name, cli::timings& t) {
  std::string written;
  for (render::format f : {render::format::svg, render::format::html}) {
    render::request r{.metric = p.metric_index("bytecodes"), .title = name, .format = f};
    render::drawing d = render::draw(p, r, t);
    std::filesystem::path path = dir / (name + (f == render::format::svg ? ".svg" : ".html"));
    cli::output_file file(path.string());
    file.stream() << d.text;
    file.commit();
    written += "  " + render::summary(path.string(), d) + "\n";
  }
  return written;
}

int run(const cli::args& a, cli::timings& t) {
  a.expect_at_most(0);
  std::filesystem::path dir = std::filesystem::absolute(a.value("--out").value_or("ccrc-demo"));
  std::filesystem::create_directories(dir);
  t.phase("figure1");
  ccrc::profile p = ccrc::read_folded(figure1_folded);
  const auto calls = p.column("calls");
  const auto bytecodes = p.column("bytecodes");
  ccrc::tree_statistics s = ccrc::statistics(p.tree());
  std::vector<double> ag = ccrc::inclusive(p.tree(), bytecodes);
  double total_calls = 0;
  for (double c : calls) total_calls += c;

  std::string out = "== Figure 1 of Moret et al., \"Visualizing Calling Context Profiles with Ring Charts\"\n\n";
  out += line("  calling contexts %zu, maximum depth %u, methods %zu\n", s.nodes, s.max_depth, s.methods);
  out += line("  method calls %.0f, bytecodes %.0f (ag(bytecodes) of main)\n\n", total_calls, ag[1]);
  out += "  Figure 4(c), bytecodes per method:\n";
  for (const auto& e : ccrc::flat(ccrc::tree_view(p.tree()), bytecodes))
    out += line("    %-6s %6.0f  %6.2f %%\n", std::string(p.symbols().method_name(e.method)).c_str(), e.self,
                e.percent);
  out += "\n  The ring chart of Figure 3(b), angles proportional to ag(bytecodes) (open the .html to explore):\n";
  out += draw(p, dir, "figure1", t);
  std::string viewer = (dir / "figure1-viewer.html").string();
  write_viewer(viewer, p, "figure1.folded", nullptr, "");
  print(out + "  " + viewer + ": the interactive viewer (click a segment to make it the center)\n\n");
  // A DaCapo-scale profile, drawn: eclipse's 2.17 million contexts, culled to what is visible.
  t.phase("eclipse");
  ccrc::profile eclipse = ccrc::generate_dacapo("eclipse");
  print("== A DaCapo-scale ring chart: eclipse, " + std::to_string(eclipse.size() - 1) +
        " calling contexts (generated to match Table I)\n" + draw(eclipse, dir, "eclipse", t) + "\n");
  // The DaCapo scale, quickly: the smaller benchmarks of Table I and pmd, the deepest.
  std::vector<const ccrc::dacapo_benchmark*> quick;
  for (const char* name : {"lusearch", "luindex", "hsqldb", "chart", "pmd"}) quick.push_back(ccrc::find_dacapo(name));
  print(dacapo_report(quick, 1, false, t));
  print("\n(all eleven: ccrc dacapo; one as a file: ccrc generate --like eclipse -o eclipse.cctb)\n");
  return 0;
}

}  // namespace

const command demo_command{
    "demo",
    "the papers' example, end to end",
    "usage: ccrc demo [--out DIR]\n"
    "\n"
    "Loads the calling context tree of Figure 1 of the ring chart papers, prints its\n"
    "statistics and per-method aggregation (Figure 4(c)) and draws its ring chart; draws the\n"
    "ring chart of a generated DaCapo-scale CCT (eclipse, 2.17 million contexts); then\n"
    "generates five more of the papers' DaCapo CCTs and prints their Table I statistics beside\n"
    "the paper's, with ccrc's timings (the quick version of ccrc dacapo).\n"
    "\n"
    "  --out DIR  where the charts go, as SVG and HTML (default: ccrc-demo)\n",
    {{"--out"}, {}},
    run,
};
