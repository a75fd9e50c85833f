// The front ends (the ccrc tool, the Python module): argument parsing, profile loading, JSON
// output, output files and phase timings. Not part of the library.
#pragma once

#include "whole_file.hpp"

#include <ccrc/algorithm/search.hpp>
#include <ccrc/formats/read_any_profile.hpp>
#include <ccrc/io/json_writer.hpp>
#include <ccrc/tree/profile.hpp>
#include <ccrc/tree/view.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
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

/// How many rows a listing command prints: --top N (a whole number, or 'all'), else `fallback`.
std::size_t top_of(const args& a, std::size_t fallback);

/// The value of option `name` as a whole number of at least `least`, if given (a
/// usage_error if it is something else).
std::optional<std::uint64_t> whole(const args& a, std::string_view name, double least = 1);

/// Phase durations, printed by --timings as one JSON line on stderr.
class timings {
 public:
  using clock = std::chrono::steady_clock;
  /// Ends the current phase (if any) and starts `name`.
  void phase(std::string name);
  /// Ends the current phase.
  void stop();
  /// The phase under way ("" if none).
  [[nodiscard]] const std::string& current() const noexcept { return current_; }
  [[nodiscard]] std::string json() const;

 private:
  std::vector<std::pair<std::string, double>> phases_;
  std::string current_;
  clock::time_point start_ = clock::now(), phase_start_ = start_;
};

/// The read options the command line gives: --profile NAME|INDEX and --max-document-bytes N
/// (every command that reads a profile takes them).
ccrc::read_options read_options_of(const args& a);

/// Reads a profile with ccrc::read_profile_file (any format, gzip or not, told by the
/// content; "-" reads stdin) with read_options_of(a), every error in it (malformed content,
/// a document too large, a tree beyond its capacity, memory exhausted) a ccrc::error naming
/// the path.
ccrc::read_result load(const std::string& path, timings& t, const args& a);

/// load without the phase: safe to call from several threads at once.
ccrc::read_result read(const std::string& path, ccrc::read_options options);

/// load's profile.
ccrc::profile load_profile(const std::string& path, timings& t, const args& a);

/// A file written whole or not at all (ccrc_files::whole_file): the content goes to a
/// temporary file beside `path` (in the same directory, so that the rename stays on one file
/// system), created exclusively under a random name, and commit() renames it over `path`.
/// Until then, and if anything fails (an exception, a full disk, a file-size limit, any signal
/// but SIGKILL that ends the process), an existing file at `path` is left as it was and the
/// temporary file is removed (one left by SIGKILL, the next run writing `path` removes).
/// Where no rename can replace the destination (an existing /dev/null, a FIFO,
/// another special file, a file already open named through /proc such as /dev/stdout), the
/// content goes to it directly.
class output_file {
 public:
  /// Opens the temporary file; throws ccrc::error if it cannot be created.
  explicit output_file(std::string path);

  /// Where the content goes.
  [[nodiscard]] std::ostream& stream() noexcept { return file_.stream(); }
  /// Closes the file, checks that everything was written, and puts it in place; throws
  /// ccrc::error ("cannot write PATH: reason") otherwise.
  void commit();

 private:
  std::string path_;  // as the user wrote it, for messages
  ccrc_files::whole_file file_;
};

/// Where a chart or document goes: the file `path`, written whole (output_file), or standard
/// output for "-".
class output {
 public:
  /// Opens the temporary file beside `path`, unless `path` is "-".
  explicit output(const std::string& path);

  [[nodiscard]] bool to_stdout() const noexcept { return !file_; }
  /// Where the content goes.
  [[nodiscard]] std::ostream& stream() noexcept;
  /// Puts the file in place (output_file::commit), or flushes standard output; throws
  /// ccrc::error if anything was not written.
  void commit();

 private:
  std::optional<output_file> file_;
};

/// The largest folded-stacks or pprof output save_profile writes without --force: 1 GiB.
/// Both formats write each context with its whole stack, so they grow with depth x contexts
/// (a 200,000-deep chain with a value on every context: 160 GB of folded stacks).
inline constexpr std::uint64_t max_stack_output_bytes = std::uint64_t{1} << 30;

/// Writes a profile in the format its name asks for (ccrc::writable_format: .cct,
/// .cctb, .pb.gz, or folded stacks for .folded, .collapsed and .txt; "-": folded stacks on
/// stdout). Another name is a usage_error. Folded stacks or pprof above
/// max_stack_output_bytes (the size computed first, O(contexts)) are a ccrc::error giving
/// the size and the formats that do not grow with depth, unless `a` has --force.
void save_profile(const std::string& path, const ccrc::profile& p, timings& t, const args& a);

/// The usage_error save_profile would throw for `path`, thrown before any work is done.
void check_output_path(const std::string& path);

/// Refuses, before any work is done, an output that is one of the command's inputs: a
/// ccrc::error ("cannot write OUT: it is the input IN ...") when `out` and one of `inputs`
/// name one regular file (following links: the same device and inode), which writing the
/// output would replace. "-", a file not there yet and anything but a regular file (a
/// device, a FIFO: written in place) are never one. O(inputs) stat calls.
void refuse_output_over_input(const std::string& out, const std::vector<std::string>& inputs);

/// Calls each(name) for each name the list file `path` holds, one a line, streamed (a line
/// at a time in memory, whatever the list's size): blanks around a name trimmed; blank lines,
/// lines starting with '#' and a UTF-8 byte-order mark at the start skipped. `what` names
/// the list in errors before its path ("the list of inputs", or "" for the path alone): a
/// ccrc::error if it cannot be opened or read, or is a directory.
void for_each_listed(const std::string& path, std::string_view what, const std::function<void(std::string_view)>& each);

/// The metric a command works on: --metric NAME, or ccrc::primary_metric (a time metric, else
/// samples, else the first).
std::size_t metric_index(const ccrc::profile& p, const args& a);

/// The profile with --focus NAME applied (ccrc::focus_function: the outermost contexts of the
/// method NAME become the roots, merged), or `p` itself without --focus. A name that is no
/// method of the profile is a ccrc::error.
ccrc::profile focused(ccrc::profile p, timings& t, const args& a);

/// A method-name query written on the command line: "re:REGEX", "=NAME" or a substring;
/// --method, --class or --package pick the part of the name, -i or --ignore-case ignores
/// case (for the commands that accept those options).
ccrc::name_query name_query_of(const std::string& text, const args& a);

/// The part of the profile a command looks at: --root 'a;b;c' (default: the whole tree) and
/// --depth N (levels below the root; default: all).
ccrc::tree_view view_of(const ccrc::profile& p, const args& a);

/// A JSON document built front to back; numbers print exactly (integers without a fraction),
/// and a non-finite number prints as null, so the output is always valid JSON. Held whole in
/// a string (str()), or streamed: handed to a sink in pieces of about a megabyte as it is
/// written, so a document of any size takes bounded memory.
class json {
 public:
  /// Where a streamed document goes, piece by piece.
  using sink = std::function<void(std::string_view)>;

  /// A document held in memory, read with str().
  json() = default;
  /// A streamed document: every piece goes to `to`; flush() sends the rest (not the
  /// destructor: a document left by an exception is not completed).
  explicit json(sink to) : sink_(std::move(to)) {}

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
  /// The document so far (of a document held in memory).
  [[nodiscard]] const std::string& str() const noexcept { return out_; }
  /// Sends what is buffered to the sink (of a streamed document).
  void flush();

 private:
  void separate();
  void written() {
    if (sink_ && out_.size() >= (std::size_t{1} << 20)) flush();
  }
  std::string out_;
  sink sink_;
  std::vector<bool> first_;  // per open container: no element written yet
  bool after_key_ = false;
};

/// Appends `s` as a JSON string literal (the library's, shared with its JSON writers and the
/// viewer).
using ccrc::append_json_string;

/// Formats a metric value for text output: integral values exactly at any magnitude ("3238",
/// "1e+70"), others with `decimals`; "n/a" for a non-finite value.
std::string format_value(double v, int decimals = 2);

}  // namespace cli
