// The ccrc tool: what a command is, and the commands there are.
#pragma once

#include "cli.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

/// One `ccrc NAME ...` command. Every command also accepts --help and --timings.
struct command {
  std::string_view name;
  std::string_view summary;  ///< one line, for `ccrc --help`
  std::string_view usage;    ///< the full help text, for `ccrc NAME --help`
  cli::option_spec options;
  /// Runs the command; returns the exit status. Output goes to stdout.
  int (*run)(const cli::args&, cli::timings&);
};

extern const command stats_command;
extern const command flat_command;
extern const command search_command;
extern const command render_command;
extern const command callgraph_command;
extern const command diff_command;
extern const command demo_command;
extern const command generate_command;
extern const command convert_command;
extern const command merge_command;
extern const command ensemble_command;
extern const command symbolize_command;
extern const command dacapo_command;
extern const command view_command;

namespace ccrc {
struct dacapo_benchmark;
}

/// The report of `ccrc dacapo` for some of Table I's benchmarks (text, or JSON): what the
/// demo shows a quick version of. Each benchmark is a phase of `t`.
std::string dacapo_report(const std::vector<const ccrc::dacapo_benchmark*>& benchmarks, std::uint64_t seed, bool json,
                          cli::timings& t);

/// Writes s to stdout.
void print(std::string_view s);
