// ccrc generate: a synthetic profile with the statistics of a DaCapo CCT, or of your choice.
#include "command.hpp"

#include <ccrc/generate/dacapo.hpp>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

namespace {

constexpr std::uint64_t max_contexts = 1'000'000'000;

int run(const cli::args& a, cli::timings& t) {
  a.expect_at_most(0);
  auto out = a.value("-o");
  if (!out) throw cli::usage_error("missing -o FILE");
  cli::check_output_path(*out);
  std::uint64_t seed = cli::whole(a, "--seed", 0).value_or(1);
  ccrc::cct_shape shape;
  ccrc::generator_model model;
  std::string what;
  if (auto like = a.value("--like")) {
    for (std::string_view o : {"--nodes", "--depth", "--methods", "--calls", "--recursion-free-nodes", "--recursion-free-depth"})
      if (a.value(o)) throw cli::usage_error(std::string(o) + " and --like exclude each other (use --scale)");
    const ccrc::dacapo_benchmark* b = ccrc::find_dacapo(*like);
    if (!b) {
      std::string known;
      for (const auto& d : ccrc::dacapo_benchmarks) known += (known.empty() ? "" : ", ") + std::string(d.name);
      throw cli::usage_error("--like: no benchmark '" + *like + "' (known: " + known + ")");
    }
    shape = b->shape;
    model = b->model;
    what = std::string(b->name);
    if (a.value("--scale") && a.value("--contexts")) throw cli::usage_error("--scale and --contexts exclude each other");
    if (auto scale = a.number("--scale")) {
      if (!(*scale > 0) || *scale > 1000) throw cli::usage_error("--scale expects a factor above 0 (and at most 1000)");
      shape = ccrc::scaled(shape, *scale);
      what += " x" + cli::format_value(*scale, 4);
    }
    if (auto contexts = cli::whole(a, "--contexts")) {
      // A billion contexts take about 70 GB to generate; node ids are 32-bit.
      if (*contexts > max_contexts)
        throw cli::usage_error("--contexts expects at most " + std::to_string(max_contexts) + " contexts");
      // The row scaled by N / its nodes: llround(nodes x (N / nodes)) is N exactly, the
      // rounding error of the factor being a few units in the last place.
      shape = ccrc::scaled(shape, static_cast<double>(*contexts) / static_cast<double>(shape.nodes));
    }
  } else {
    if (a.value("--scale")) throw cli::usage_error("--scale needs --like");
    if (a.value("--contexts")) throw cli::usage_error("--contexts needs --like (else give --nodes)");
    auto nodes = cli::whole(a, "--nodes"), depth = cli::whole(a, "--depth"), methods = cli::whole(a, "--methods");
    if (!nodes || !depth || !methods) throw cli::usage_error("give --like NAME, or --nodes, --depth and --methods");
    if (*depth >= ccrc::unlimited_depth) throw cli::usage_error("--depth is too large");
    shape.nodes = *nodes;
    shape.max_depth = static_cast<std::uint32_t>(*depth);
    shape.methods = *methods;
    shape.calls = static_cast<double>(cli::whole(a, "--calls").value_or(100 * *nodes));
    // Without recursion-free targets: half the contexts come from recursion, the
    // recursion-free tree half as deep (within what the other numbers allow).
    std::uint64_t free_nodes = cli::whole(a, "--recursion-free-nodes").value_or(std::min(*nodes, std::max(*methods, (*nodes + 1) / 2)));
    shape.recursion_free_nodes = free_nodes;
    std::uint64_t free_depth = cli::whole(a, "--recursion-free-depth").value_or(
        free_nodes == *nodes ? *depth : std::min({*methods, free_nodes, std::max<std::uint64_t>(1, (*depth + 1) / 2)}));
    if (free_depth >= ccrc::unlimited_depth) throw cli::usage_error("--recursion-free-depth is too large");
    shape.recursion_free_depth = static_cast<std::uint32_t>(free_depth);
    what = "custom";
  }
  t.phase("generate");
  ccrc::profile p = ccrc::generate_cct(shape, seed, model);
  cli::save_profile(*out, p, t, a);
  if (*out != "-") {
    print(what + " (seed " + std::to_string(seed) + "): " + std::to_string(shape.nodes) + " contexts, depth " +
          std::to_string(shape.max_depth) + ", " + std::to_string(shape.methods) + " methods, " +
          cli::format_value(shape.calls) + " calls; without recursion " + std::to_string(shape.recursion_free_nodes) +
          " contexts, depth " + std::to_string(shape.recursion_free_depth) + " -> " + *out + "\n");
  }
  return 0;
}

}  // namespace

const command generate_command{
    "generate",
    "a synthetic profile shaped like one of the papers' DaCapo CCTs (Table I), or as you say",
    "usage: ccrc generate --like NAME [--scale F | --contexts N] [--seed S] -o FILE\n"
    "       ccrc generate --nodes N --depth D --methods U [--calls C]\n"
    "                     [--recursion-free-nodes N2] [--recursion-free-depth D2] [--seed S] -o FILE\n"
    "\n"
    "Generates a calling context tree with exactly the given statistics, deterministic for a\n"
    "seed, with metrics calls and bytecodes (the model is described in docs/generator.md).\n"
    "\n"
    "  --like NAME   a row of Table I: antlr, bloat, chart, eclipse, fop, hsqldb, jython,\n"
    "                luindex, lusearch, pmd or xalan\n"
    "  --scale F     with --like: F times the contexts and calls, the same depths\n"
    "  --contexts N  with --like: exactly N contexts (at most 10^9), the contexts and calls\n"
    "                scaled by N over the row's contexts, the same depths\n"
    "  --nodes N     calling contexts\n"
    "  --depth D     maximum depth\n"
    "  --methods U   distinct methods\n"
    "  --calls C     the total of metric calls (default: 100 per context)\n"
    "  --recursion-free-nodes N2, --recursion-free-depth D2\n"
    "                contexts and depth after recursion elimination (default: half of each)\n"
    "  --seed S      the random seed (default 1)\n"
    "  -o FILE       the output; its extension says the format: .cctb (binary), .cct (text),\n"
    "                .folded (folded stacks: large for deep trees), .pb.gz (pprof); '-'\n"
    "                writes folded stacks to stdout\n"
    "  --force       writes folded stacks or pprof above 1 GiB (see convert)\n",
    {{"--like", "--scale", "--contexts", "--nodes", "--depth", "--methods", "--calls", "--recursion-free-nodes",
      "--recursion-free-depth", "--seed", "-o"},
     {"--force"}},
    run,
};
