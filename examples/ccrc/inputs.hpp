// The ccrc tool: the many inputs of `merge` and `ensemble`. Not part of the library.
#pragma once

#include "cli.hpp"

#include <atomic>
#include <chrono>
#include <cstddef>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace inputs {

/// The input files the arguments name, and the list files among them.
struct named_inputs {
  std::vector<std::string> paths;  ///< each file once, in the order first named
  std::vector<std::string> lists;  ///< the @LIST files read
};

/// The input files `arguments` name: each is a profile, a directory (its files, by name) or
/// @LIST (a file naming one input per line, a profile or a directory: cli::for_each_listed,
/// streamed). A file named again is read once, and "ccrc COMMAND: N inputs named again, read
/// once" said on stderr: a set of names, so that a list naming one file ten million times
/// holds it once. Throws ccrc::error for a list that cannot be read.
named_inputs expand(const std::vector<std::string>& arguments, std::string_view command);

/// Refuses an output `out` that is one of the inputs or lists (cli::refuse_output_over_input).
void refuse_output_over(const std::string& out, const named_inputs& in);

/// The inputs of a command over many profiles, read on any threads: an unreadable one stops
/// the command, or with keep_going is skipped and reported; "ccrc COMMAND: read 120 of 1000
/// inputs (3 s)" on stderr at most once a second while they are read.
class batch {
 public:
  batch(std::string command, std::vector<std::string> paths, ccrc::read_options options, bool keep_going);

  [[nodiscard]] const std::vector<std::string>& paths() const noexcept { return paths_; }

  /// Input i's profile (cli::read: a ccrc::error names the input); with keep_going, an empty
  /// optional for one that cannot be read, the reason kept. Safe from several threads, each i
  /// once.
  std::optional<ccrc::profile> read(std::size_t i);

  /// Names the skipped inputs and their number on stderr; throws ccrc::error if all were.
  void report_skipped() const;

  /// Refuses metrics `names` (of the merge or the ensemble of the inputs) that include one
  /// quantity in two units (time_us from one input, time_ns from another), naming the first
  /// input that brought each: summed, or compared, as two columns they would split one measure
  /// in two. Checked on the result, so the inputs named do not depend on the threads. `doing`
  /// ends the advice: "convert one of them before merging".
  void check_units(const std::vector<std::string>& names, std::string_view doing) const;

 private:
  using clock = std::chrono::steady_clock;
  std::string command_;
  std::vector<std::string> paths_;
  ccrc::read_options options_;
  bool keep_going_;
  std::vector<std::string> errors_;                // why input i was skipped
  std::vector<std::vector<std::string>> metrics_;  // input i's metrics
  std::atomic<std::size_t> done_{0};
  std::mutex m_;
  clock::time_point start_ = clock::now(), last_ = start_;
};

}  // namespace inputs
