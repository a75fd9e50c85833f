// The ccrc tool: argument parsing, profile loading, JSON output and phase timings shared by
// the commands. Not part of the library.
#pragma once

#include <ccrc/algorithm/search.hpp>
#include <ccrc/tree/profile.hpp>
#include <ccrc/tree/view.hpp>

#include <chrono>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cli {

/// A mistake on the command line: reported with the command's usage, exit status 2.
struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The options a command accepts: the ones that take a value, and the flags.
struct option_spec {
  std::vector<std::string_view> with_value;
  std::vector<std::string_view> flags;
};

/// Parsed arguments of one command: positionals in order, options by name ("--metric").
class args {
 public:
  args(std::vector<std::string_view> argv, const option_spec& spec);

  [[nodiscard]] const std::vector<std::string>& positional() const noexcept { return positional_; }
  /// The positional at `i`, or a usage_error naming it as `what`.
  [[nodiscard]] const std::string& positional(std::size_t i, std::string_view what) const;
  [[nodiscard]] bool flag(std::string_view name) const { return flags_.count(std::string(name)) != 0; }
  [[nodiscard]] std::optional<std::string> value(std::string_view name) const;
  /// The option's value as a number (a usage_error if it is not one).
  [[nodiscard]] std::optional<double> number(std::string_view name) const;
  /// Fails if there are more positionals than `n`.
  void expect_at_most(std::size_t n) const;

 private:
  std::vector<std::string> positional_;
  std::map<std::string, std::string, std::less<>> values_;
  std::map<std::string, bool, std::less<>> flags_;
};

/// Phase durations, printed by --timings as one JSON line on stderr.
class timings {
 public:
  using clock = std::chrono::steady_clock;
  /// Ends the current phase (if any) and starts `name`.
  void phase(std::string name);
  /// Ends the current phase.
  void stop();
  [[nodiscard]] std::string json() const;

 private:
  std::vector<std::pair<std::string, double>> phases_;
  std::string current_;
  clock::time_point start_ = clock::now(), phase_start_ = start_;
};

/// Loads a profile, choosing the reader by extension and content ("-" reads stdin): `.cct`
/// and `.cctb` files must be what their extension says; any other file is a .cctb or .cct
/// file if it starts like one, and folded stacks otherwise.
ccrc::profile load_profile(const std::string& path, timings& t);

/// Writes a profile in the format its extension names: .cct, .cctb, or folded stacks for
/// .folded, .collapsed and .txt ("-": folded stacks on stdout). Another extension is a
/// usage_error.
void save_profile(const std::string& path, const ccrc::profile& p, timings& t);

/// The usage_error save_profile would throw for `path`, thrown before any work is done.
void check_output_path(const std::string& path);

/// The metric a command works on: --metric NAME, or the profile's first metric.
std::size_t metric_index(const ccrc::profile& p, const args& a);

/// The node at a path of frame names from the root ("a;b;c"; "" is the root), or a
/// ccrc::error naming the first frame that is missing.
ccrc::node_id node_at_path(const ccrc::call_tree& t, std::string_view path);

/// The path of frame names from the root to n, as node_at_path reads it ("" for the root).
std::string path_of(const ccrc::call_tree& t, ccrc::node_id n);

/// A method-name query written on the command line: "re:REGEX", "=NAME" or a substring;
/// --method, --class or --package pick the part of the name, -i or --ignore-case ignores
/// case (for the commands that accept those options).
ccrc::name_query name_query_of(const std::string& text, const args& a);

/// The part of the profile a command looks at: --root 'a;b;c' (default: the whole tree) and
/// --depth N (levels below the root; default: all).
ccrc::tree_view view_of(const ccrc::profile& p, const args& a);

/// A JSON document built front to back; numbers print exactly (integers without a fraction),
/// and a non-finite number prints as null, so the output is always valid JSON.
class json {
 public:
  json& begin_object();
  json& end_object();
  json& begin_array();
  json& end_array();
  json& key(std::string_view k);
  json& value(std::string_view s);
  json& value(const char* s) { return value(std::string_view(s)); }
  json& value(double v);
  json& value(std::uint64_t v);
  json& value(bool b);
  json& null();
  /// Shorthand for key(k).value(v).
  template <class T>
  json& field(std::string_view k, const T& v) {
    return key(k).value(v);
  }
  [[nodiscard]] const std::string& str() const noexcept { return out_; }

 private:
  void separate();
  std::string out_;
  std::vector<bool> first_;  // per open container: no element written yet
  bool after_key_ = false;
};

/// Appends `s` as a JSON string literal.
void append_json_string(std::string& out, std::string_view s);

/// Formats a metric value for text output: integers exactly, others with `decimals`.
std::string format_value(double v, int decimals = 2);

}  // namespace cli
