// ccrc dacapo: the papers' Table I beside ccrc's generated CCTs, with ccrc's timings.
#include "command.hpp"
#include "ring_render.hpp"

#include <ccrc/algorithm/depth.hpp>
#include <ccrc/algorithm/inclusive.hpp>
#include <ccrc/generate/dacapo.hpp>
#include <ccrc/geometry/ring_chart.hpp>
#include <ccrc/io/cct_binary.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <streambuf>
#include <string>
#include <vector>

namespace {

// 1234567 -> "1,234,567".
std::string grouped(double v) {
  std::string digits = cli::format_value(v, 0), out;
  std::size_t start = digits[0] == '-' ? 1 : 0;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > start && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string cell(const std::string& s, int width) {
  std::string out(static_cast<std::size_t>(std::max(0, width - static_cast<int>(s.size()))), ' ');
  return out + s;
}

// A stream that only counts what it is given.
class counting_buffer : public std::streambuf {
 protected:
  std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
  int_type overflow(int_type c) override { return c; }
};

struct measured {
  const ccrc::dacapo_benchmark* benchmark;
  ccrc::cct_shape shape;
  double generate_ms, statistics_ms, eliminate_ms, write_ms, read_ms, layout_ms;
  std::size_t segments;
  std::size_t cctb_bytes;
};

measured measure(const ccrc::dacapo_benchmark& b, std::uint64_t seed) {
  using clock = std::chrono::steady_clock;
  auto ms = [](clock::time_point from) { return std::chrono::duration<double, std::milli>(clock::now() - from).count(); };
  measured m{&b, {}, 0, 0, 0, 0, 0, 0, 0, 0};
  auto t = clock::now();
  ccrc::profile p = ccrc::generate_cct(b.shape, seed, b.model);
  m.generate_ms = ms(t);
  t = clock::now();
  ccrc::tree_statistics s = ccrc::statistics(p.tree());
  m.shape = {.nodes = s.nodes, .max_depth = s.max_depth, .methods = s.methods};
  for (double c : p.column("calls")) m.shape.calls += c;
  m.statistics_ms = ms(t);
  t = clock::now();
  auto flat = ccrc::eliminate_recursion(p);
  m.eliminate_ms = ms(t);
  ccrc::tree_statistics r = ccrc::statistics(flat.output.tree());
  m.shape.recursion_free_nodes = r.nodes;
  m.shape.recursion_free_depth = r.max_depth;
  counting_buffer sink;  // the writer's time, not a string's growth
  std::ostream counted(&sink);
  t = clock::now();
  ccrc::write_cctb(counted, p);
  m.write_ms = ms(t);
  std::string bytes = ccrc::cctb_bytes(p);
  m.cctb_bytes = bytes.size();
  t = clock::now();
  ccrc::profile back = ccrc::read_cctb(bytes);
  m.read_ms = ms(t);
  if (back.size() != p.size()) throw ccrc::error(".cctb round trip lost nodes");
  // The papers' rendering: the whole CCT at 1440x900, angles proportional to ag(bytecodes),
  // segments under a pixel drawn as lines: the chart `ccrc render --depth all` draws. ag and heights come
  // with the profile, as there.
  std::vector<double> ag = ccrc::inclusive(p.tree(), p.column("bytecodes"));
  std::vector<std::uint32_t> heights = ccrc::heights(p.tree());
  t = clock::now();
  ccrc::ring_layout chart = ccrc::ring_chart(ccrc::ring_chart_view(ccrc::tree_view(p.tree()), ag), ag,
                                             render::chart_area(1440, 900, {.heights = heights}));
  m.layout_ms = ms(t);
  m.segments = chart.segments.size();
  return m;
}

std::string text_report(const std::vector<measured>& rows, std::uint64_t seed) {
  std::string out = "== Table I of Moret et al., \"Visualizing and Exploring Profiles with Calling Context Ring\n"
                    "   Charts\", beside the CCTs ccrc generates to match it (seed " +
                    std::to_string(seed) + ")\n\n";
  out += "                      method calls   methods      nodes  depth | without recursion: nodes  depth\n";
  for (const measured& m : rows) {
    const ccrc::cct_shape& p = m.benchmark->shape;
    const ccrc::cct_shape& g = m.shape;
    auto row = [&](const char* who, const ccrc::cct_shape& s) {
      std::string name(m.benchmark->name);
      name.resize(10, ' ');
      return name + who + cell(grouped(s.calls), 24 - static_cast<int>(std::string_view(who).size())) +
             cell(grouped(static_cast<double>(s.methods)), 10) + cell(grouped(static_cast<double>(s.nodes)), 11) +
             cell(std::to_string(s.max_depth), 7) + cell(grouped(static_cast<double>(s.recursion_free_nodes)), 27) +
             cell(std::to_string(s.recursion_free_depth), 7) + "\n";
    };
    out += row("paper", p);
    std::string mine = row("ccrc", g);
    mine.replace(0, 10, std::string(10, ' '));
    out += mine;
  }
  out += "\n== ccrc on this machine (ms, wall clock), and the papers' render time\n\n";
  out += "           generate  statistics  eliminate    .cctb   .cctb     .cctb |  ring layout (segments)  paper's render\n"
         "                                 recursion    write    read      size |  1440x900, culled         (Table 1, 2010)\n";
  for (const measured& m : rows) {
    char line[256];
    std::snprintf(line, sizeof line, "%-9s %9.1f %11.1f %10.1f %8.1f %7.1f %6.1f MB |  %11.1f (%6zu) %19.0f\n",
                  std::string(m.benchmark->name).c_str(), m.generate_ms, m.statistics_ms, m.eliminate_ms, m.write_ms,
                  m.read_ms, static_cast<double>(m.cctb_bytes) / 1e6, m.layout_ms, m.segments, m.benchmark->render_ms);
    out += line;
  }
  out += "\nring layout: the geometry of the whole CCT, angles proportional to ag(bytecodes), arcs under a\n"
         "pixel drawn as lines (ccrc render's settings, no ring_index). The papers' render times include\n"
         "drawing, on a 2.33 GHz Core 2 Duo with Java Swing.\n";
  return out;
}

std::string json_report(const std::vector<measured>& rows, std::uint64_t seed) {
  cli::json j;
  j.begin_object().field("seed", seed).key("benchmarks").begin_array();
  auto shape = [&](const char* key, const ccrc::cct_shape& s) {
    j.key(key)
        .begin_object()
        .field("method_calls", s.calls)
        .field("methods", std::uint64_t{s.methods})
        .field("nodes", std::uint64_t{s.nodes})
        .field("max_depth", std::uint64_t{s.max_depth})
        .field("recursion_free_nodes", std::uint64_t{s.recursion_free_nodes})
        .field("recursion_free_max_depth", std::uint64_t{s.recursion_free_depth})
        .end_object();
  };
  for (const measured& m : rows) {
    j.begin_object().field("name", m.benchmark->name);
    shape("paper", m.benchmark->shape);
    shape("generated", m.shape);
    j.key("timings_ms")
        .begin_object()
        .field("generate", m.generate_ms)
        .field("statistics", m.statistics_ms)
        .field("eliminate_recursion", m.eliminate_ms)
        .field("write_cctb", m.write_ms)
        .field("read_cctb", m.read_ms)
        .field("ring_layout", m.layout_ms)
        .end_object()
        .field("ring_segments", std::uint64_t{m.segments})
        .field("cctb_bytes", std::uint64_t{m.cctb_bytes})
        .field("paper_render_ms", m.benchmark->render_ms)
        .end_object();
  }
  j.end_array().end_object();
  return j.str() + "\n";
}

int run(const cli::args& a, cli::timings& t) {
  a.expect_at_most(0);
  std::uint64_t seed = 1;
  if (auto s = a.number("--seed")) {
    if (*s < 0 || *s != std::floor(*s) || *s > 1e18) throw cli::usage_error("--seed expects a whole number");
    seed = static_cast<std::uint64_t>(*s);
  }
  std::vector<const ccrc::dacapo_benchmark*> chosen;
  if (auto only = a.value("--only")) {
    for (std::size_t pos = 0; pos <= only->size();) {
      std::size_t comma = std::min(only->find(',', pos), only->size());
      std::string name = only->substr(pos, comma - pos);
      const ccrc::dacapo_benchmark* b = ccrc::find_dacapo(name);
      if (!b) throw cli::usage_error("--only: no benchmark '" + name + "'");
      chosen.push_back(b);
      pos = comma + 1;
    }
  } else {
    for (const auto& b : ccrc::dacapo_benchmarks) chosen.push_back(&b);
  }
  print(dacapo_report(chosen, seed, a.flag("--json"), t));
  return 0;
}

}  // namespace

std::string dacapo_report(const std::vector<const ccrc::dacapo_benchmark*>& benchmarks, std::uint64_t seed, bool json,
                          cli::timings& t) {
  std::vector<measured> rows;
  for (const ccrc::dacapo_benchmark* b : benchmarks) {
    t.phase(std::string(b->name));
    rows.push_back(measure(*b, seed));
  }
  t.phase("output");
  return json ? json_report(rows, seed) : text_report(rows, seed);
}

const command dacapo_command{
    "dacapo",
    "the papers' Table I beside the generated DaCapo CCTs, with ccrc's timings",
    "usage: ccrc dacapo [--only NAME,NAME...] [--seed S] [--json]\n"
    "\n"
    "Generates the eleven CCTs of Table I (Moret et al.; `ccrc generate --like NAME` makes\n"
    "one), prints the paper's statistics beside the generated trees' (method calls, methods,\n"
    "nodes, depth, and nodes and depth after recursion elimination), then ccrc's time to\n"
    "generate, measure, eliminate recursion, write and read each as .cctb, and to lay out its\n"
    "ring chart at 1440x900, beside the papers' render time (Table 1 of the 2010 paper). Takes\n"
    "a few seconds in an optimised build.\n"
    "\n"
    "  --only LIST  some benchmarks only, say --only pmd,jython\n"
    "  --seed S     the generator's seed (default 1)\n"
    "  --json       one JSON document: {\"seed\": S, \"benchmarks\": [{\"name\": ..., \"paper\": {...},\n"
    "               \"generated\": {...}, \"timings_ms\": {...}, \"cctb_bytes\": B, \"paper_render_ms\": T}]},\n"
    "               shapes with method_calls, methods, nodes, max_depth, recursion_free_nodes,\n"
    "               recursion_free_max_depth; ring_segments: the segments of the layout\n",
    {{"--only", "--seed"}, {"--json"}},
    run,
};
