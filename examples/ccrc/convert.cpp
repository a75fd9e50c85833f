// ccrc convert: from one profile format to another, the output's chosen by its name.
#include "command.hpp"

namespace {

int run(const cli::args& a, cli::timings& t) {
  // `-o OUT` is the spelling of the command-line contract (DESIGN.md); `IN OUT` came first
  // and stays.
  const auto o = a.value("-o");
  a.expect_at_most(o ? 1 : 2);
  const std::string& in = a.positional(0, "IN");
  const std::string& out = o ? *o : a.positional(1, "OUT");
  cli::check_output_path(out);
  cli::refuse_output_over_input(out, {in});
  ccrc::profile p = cli::load_profile(in, t, a);
  cli::save_profile(out, p, t, a);
  return 0;
}

}  // namespace

const command convert_command{
    "convert",
    "converts a profile: any format ccrc reads, to folded, .cct, .cctb, pprof or speedscope",
    "usage: ccrc convert IN -o OUT [--profile NAME|INDEX] [--force]   (or: ccrc convert IN OUT)\n"
    "\n"
    "Reads IN (any format ccrc reads, gzip or not, told by its content) and writes OUT in the\n"
    "format its name asks for: .cctb (binary), .cct (text), .folded, .collapsed or .txt\n"
    "(folded stacks), .pb.gz (pprof, gzip-compressed), .pb or .pprof (pprof),\n"
    ".speedscope.json (speedscope, one profile per metric). '-' reads stdin, or writes folded\n"
    "stacks to stdout. Node ids, metrics and call sites survive .cct and .cctb; folded stacks,\n"
    "pprof and speedscope keep the contexts and metrics (pprof: integers only; speedscope: no\n"
    "negative values). perf script text is read, not written. --profile picks one profile of a\n"
    "file of several.\n"
    "\n"
    "Folded stacks and pprof write every context with a value with its whole stack: their size\n"
    "grows with depth x contexts. One that would exceed 1 GiB (its size is computed first) is\n"
    "refused, with its size, unless --force is given; .cctb and speedscope grow with the\n"
    "contexts alone.\n",
    {{"--profile", "-o"}, {"--force"}},
    run,
};
