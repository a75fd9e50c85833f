// ccrc convert: from one profile format to another, chosen by the files' extensions.
#include "command.hpp"

namespace {

int run(const cli::args& a, cli::timings& t) {
  a.expect_at_most(2);
  const std::string& in = a.positional(0, "IN");
  const std::string& out = a.positional(1, "OUT");
  cli::check_output_path(out);
  ccrc::profile p = cli::load_profile(in, t, a);
  cli::save_profile(out, p, t);
  return 0;
}

}  // namespace

const command convert_command{
    "convert",
    "converts a profile between folded stacks, .cct (text) and .cctb (binary)",
    "usage: ccrc convert IN OUT\n"
    "\n"
    "Reads IN (any format ccrc reads: by extension, else by content) and writes OUT in the\n"
    "format its extension names: .cctb (binary), .cct (text), .folded, .collapsed or .txt\n"
    "(folded stacks). '-' reads stdin, or writes folded stacks to stdout. Node ids, metrics\n"
    "and call sites survive .cct and .cctb; folded stacks keep the contexts and metrics only.\n"
    "perf script text (.perf) is read, not written.\n",
    {{"--profile"}, {}},
    run,
};
