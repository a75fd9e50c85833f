// ccrc - the table of the profile formats ccrc reads, and reading a profile of any of them,
// the format told by the content.
#pragma once

#include <ccrc/detail/line_reader.hpp>
#include <ccrc/error.hpp>
#include <ccrc/fwd.hpp>
#include <ccrc/io/callgrind.hpp>
#include <ccrc/io/cct_binary.hpp>
#include <ccrc/io/cct_text.hpp>
#include <ccrc/io/folded.hpp>
#include <ccrc/io/perf_script.hpp>
#include <ccrc/transform/subtree.hpp>
#include <ccrc/tree/profile.hpp>

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <istream>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ccrc {

/// Every profile format ccrc reads, each with its row in format_table (values 0, 1, ...
/// without gaps: a new one comes last). The first five are read by the dependency-free core
/// (read_core_profile_file and its overloads); pprof and the JSON formats by read_profile_file
/// and its overloads, from
/// <ccrc/formats/read_any_profile.hpp> (simdjson, protozero, zlib). format_table says, for each,
/// its name, its file names and how it is told.
enum class profile_format : std::uint8_t {
  folded,       ///< folded stacks, "main;f;g 42" (read_folded)
  cct,          ///< ccrc's .cct text (read_cct)
  cctb,         ///< ccrc's .cctb binary (read_cctb)
  perf_script,  ///< the text of `perf script` (read_perf_script)
  callgrind,    ///< valgrind's callgrind output, a call graph made a tree (read_callgrind)
  pprof,        ///< pprof's profile.proto (read_pprof)
  speedscope,   ///< speedscope's JSON (read_speedscope)
  trace_event,  ///< Trace Event Format JSON: Chrome tracing, Perfetto, clang -ftime-trace (read_trace_events)
  v8_profile,   ///< V8's .cpuprofile and .heapprofile: Chrome, Node (read_v8_profile)
  gecko,        ///< the Gecko profile Firefox's profiler saves (read_gecko_profile)
};

/// Options of read_profile_file, read_core_profile_file and their overloads.
struct read_options {
  /// Empty: every profile of a file that holds several (threads, processes, the profiles of
  /// one file), each under a top-level frame named after it. Otherwise the one whose frame has
  /// this name, or, if none has, the one at this 0-based index: its contexts become top-level.
  std::string profile;
  /// The JSON and pprof readers hold the whole document (inflated, if gzip-compressed): a
  /// larger one is a document_too_large error, raised once this many bytes are read (or at
  /// once for a regular file larger than this), so that a gzip bomb or endless input on a
  /// pipe cannot take all memory. 2 GiB: protobuf's reference implementations refuse a message
  /// larger than that, and the browsers' JSON.parse, which speedscope, DevTools and the
  /// Firefox Profiler read these files with, takes at most 1 GiB of text.
  std::uint64_t max_document_bytes = std::uint64_t{2} << 30;
  /// The input's name in errors ("<stdin>", a URL): every ccrc::error of the read begins with
  /// it and ": ", and error::input() is it. Empty: a file's path (read_*_file), none for a
  /// stream or bytes.
  std::string input_name = {};
};

/// A profile as read, with what was found out about the file.
struct read_result {
  ccrc::profile profile;
  profile_format detected = profile_format::folded;
  bool gzip = false;  ///< the file was gzip-compressed
  /// The names of the profiles a multi-profile format's file holds (the top-level frames it
  /// put them under), in order; empty for a format that holds one.
  std::vector<std::string> profiles;
  /// What the reader repaired or ignored, one sentence each (Trace Event: unmatched ends,
  /// events left open); a user should see them.
  std::vector<std::string> warnings;
};

/// How many bytes from the start of a profile detect_format looks at: enough for the first
/// sample of a `perf script` file after a few comment lines (its `--header` block is told by
/// its first line).
inline constexpr std::size_t format_detection_bytes = 4096;

namespace detail {

// Any `read` callable (std::size_t read(char* dst, std::size_t capacity), 0 at the end) behind
// one type, so that one table of readers serves files, streams and inflated gzip. One
// indirect call per read of up to a megabyte.
struct any_source {
  void* self = nullptr;
  std::size_t (*pull)(void*, char*, std::size_t) = [](void*, char*, std::size_t) { return std::size_t{0}; };
  template <class Read>
  static any_source of(Read& read) noexcept {
    return {&read, [](void* r, char* dst, std::size_t cap) { return (*static_cast<Read*>(r))(dst, cap); }};
  }
  std::size_t operator()(char* dst, std::size_t capacity) { return pull(self, dst, capacity); }
};

}  // namespace detail

/// What a format's reader in format_table is given: the input's first bytes, already read to
/// tell its format, and the rest.
struct profile_input {
  std::string_view start;        ///< the first bytes (all of them if in_memory)
  detail::any_source rest;       ///< the bytes after `start`
  bool in_memory = false;        ///< `start` is the whole input, to be read in place
  std::size_t size = 0;          ///< the whole input's size in bytes, if known (a regular file's), else 0
  const formats::json_text* json = nullptr;  ///< the whole input, if a JSON document already read
};

/// A format's reader: the profile of `in` into `r.profile` (and `r.warnings`), per `options`.
using profile_reader = void (*)(profile_input& in, const read_options& options, read_result& r);
/// A format's writer: `p` to `out` (gzip-compressed if `gzip` and the format says how).
using profile_writer = void (*)(std::ostream& out, const profile& p, bool gzip);

namespace detail {

// A `read` callable that first hands out `in.start`, then the rest.
inline prefixed_source<any_source&> rest_of(profile_input& in) { return {{in.start}, in.rest}; }

// f(source) with a `read` callable giving the whole of `in`: in place if in memory.
template <class F>
profile read_input_with(profile_input& in, F&& f) {
  if (in.in_memory) return f(memory_source{in.start});
  return f(rest_of(in));
}

// .cctb's source (read(dst, n): exactly n bytes or a truncation error) over a `read` callable.
template <class Read>
struct cctb_source {
  Read read_bytes;
  void read(void* dst, std::size_t n) {
    auto* to = static_cast<char*>(dst);
    for (std::size_t got = 0, k; got < n; got += k)
      if ((k = read_bytes(to + got, n - got)) == 0) throw parse_error("truncated: the file ended while being read");
  }
};

// The readers of the dependency-free formats, with their default options.
inline void read_folded_input(profile_input& in, const read_options&, read_result& r) {
  r.profile = read_input_with(in, [](auto&& source) { return read_folded_from(source, {}); });
}
inline void read_cct_input(profile_input& in, const read_options&, read_result& r) {
  r.profile = read_input_with(in, [](auto&& source) { return read_cct_from(source); });
}
inline void read_perf_script_input(profile_input& in, const read_options&, read_result& r) {
  r.profile = read_input_with(in, [](auto&& source) { return read_perf_script_from(source, {}); });
}
inline void read_callgrind_input(profile_input& in, const read_options&, read_result& r) {
  r.profile = read_input_with(in, [](auto&& source) { return read_callgrind_from(source, {}); });
}
// A .cctb of known size is read straight into the profile's arrays; one of unknown size (a
// pipe) through memory.
inline void read_cctb_input(profile_input& in, const read_options&, read_result& r) {
  if (in.in_memory) {
    r.profile = read_cctb(in.start);
  } else if (in.size != 0) {
    cctb_source<prefixed_source<any_source&>> source{rest_of(in)};
    r.profile = read_cctb_from(source, in.size);
  } else {
    std::string bytes(in.start);
    char chunk[1 << 16];
    for (std::size_t n; (n = in.rest(chunk, sizeof chunk)) > 0;) bytes.append(chunk, n);
    r.profile = read_cctb(bytes);
  }
}

[[nodiscard]] constexpr bool starts_cctb(std::string_view s) noexcept {
  return s.size() >= 4 && static_cast<unsigned char>(s[0]) == 0x89 && s.substr(1, 3) == "CCT";
}
[[nodiscard]] constexpr bool starts_cct(std::string_view s) noexcept { return s.substr(0, 9) == "ccrc-cct "; }

// The top-level key of a JSON object that starts `text` ('{', blanks, a key without escapes),
// or "" if it starts otherwise.
[[nodiscard]] constexpr std::string_view first_json_key(std::string_view text) noexcept {
  std::size_t i = text.find_first_not_of(" \t\r\n");
  if (i == std::string_view::npos || text[i] != '{') return {};
  i = text.find_first_not_of(" \t\r\n", i + 1);
  if (i == std::string_view::npos || text[i] != '"') return {};
  std::size_t end = text.find_first_of("\"\\", i + 1);
  if (end == std::string_view::npos || text[end] != '"') return {};
  return text.substr(i + 1, end - i - 1);
}

// True if `start` opens a JSON object or array ('{' then '"' or '}', '[' then '{' or ']'):
// not a folded line such as "[unknown];f 1".
[[nodiscard]] constexpr bool looks_like_json(std::string_view start) noexcept {
  std::size_t i = start.find_first_not_of(" \t\r\n");
  if (i == std::string_view::npos || (start[i] != '{' && start[i] != '[')) return false;
  std::size_t j = start.find_first_not_of(" \t\r\n", i + 1);
  if (j == std::string_view::npos) return true;  // all there is; the reader will say what is wrong
  return start[i] == '{' ? start[j] == '"' || start[j] == '}' : start[j] == '{' || start[j] == ']';
}

inline constexpr std::string_view folded_names[] = {".folded", ".collapsed", ".txt"};
inline constexpr std::string_view cct_names[] = {".cct"};
inline constexpr std::string_view cctb_names[] = {".cctb"};
inline constexpr std::string_view perf_script_names[] = {".perf", ".perf-script"};
inline constexpr std::string_view callgrind_names[] = {".callgrind", "callgrind.out."};
inline constexpr std::string_view pprof_names[] = {".pb.gz", ".pb", ".pprof"};
inline constexpr std::string_view speedscope_names[] = {".speedscope.json"};
inline constexpr std::string_view v8_profile_names[] = {".cpuprofile", ".heapprofile"};

inline constexpr std::string_view trace_event_keys[] = {"traceEvents"};
inline constexpr std::string_view speedscope_keys[] = {"$schema", "shared", "profiles"};
inline constexpr std::string_view v8_profile_keys[] = {"nodes", "head"};
// Firefox writes "libs" first; "meta" also starts profiler.firefox.com's processed format,
// which the Gecko reader refuses by name; "systemHost" wraps an old DevTools recording.
inline constexpr std::string_view gecko_keys[] = {"meta", "libs", "threads", "processes", "pausedRanges", "systemHost"};

inline void write_cctb_output(std::ostream& out, const profile& p, bool) { write_cctb(out, p); }
inline void write_cct_output(std::ostream& out, const profile& p, bool) { write_cct(out, p); }
inline void write_folded_output(std::ostream& out, const profile& p, bool) { write_folded(out, p); }

}  // namespace detail

/// One row of format_table: what ccrc knows of a format.
struct format_info {
  profile_format format;
  /// Its name, as `ccrc stats` prints it and errors list it.
  std::string_view name;
  /// The file names that say it (format_of_extension): a name ending in ".x" for ".x", one
  /// starting with "x." for "x." (valgrind's callgrind.out.PID).
  std::span<const std::string_view> file_names;
  /// Its content test on the first bytes of a file (format_detection_bytes); null for the
  /// formats told otherwise: by JSON keys, by looks_like_pprof (its test needs
  /// protozero), or, for folded stacks, by no other test passing.
  bool (*detect)(std::string_view first_bytes) noexcept;
  /// For a JSON format: the top-level keys of an object that tell it (compared as written).
  std::span<const std::string_view> json_keys = {};
  /// A JSON array is this format.
  bool json_array = false;
  /// Its files hold several profiles (threads, processes), each put under a top-level frame
  /// named after it: read_options::profile picks one.
  bool holds_profiles = false;
  /// Its reader in the dependency-free core; null for the formats read_profile_file adds.
  profile_reader read = nullptr;
  /// Whether ccrc writes it (write_profile, ccrc::formats) ...
  bool written = false;
  /// ... and its writer in the core; null for the formats write_profile adds (pprof,
  /// speedscope: they need ccrc::formats' libraries).
  profile_writer write = nullptr;
};

/// The formats ccrc reads, in the order they are tested (folded stacks, the last resort, last):
/// adding a format is adding its row here and its value to profile_format (and, for one that
/// needs a dependency, its reader to formats::detail::format_readers). format_table_is_whole
/// checks at compile time that no format has two rows and the values have no gap.
inline constexpr format_info format_table[] = {
    {.format = profile_format::cctb, .name = "ccrc .cctb", .file_names = detail::cctb_names, .detect = detail::starts_cctb,
     .read = detail::read_cctb_input, .written = true, .write = detail::write_cctb_output},
    {.format = profile_format::cct, .name = "ccrc .cct", .file_names = detail::cct_names, .detect = detail::starts_cct,
     .read = detail::read_cct_input, .written = true, .write = detail::write_cct_output},
    {.format = profile_format::callgrind, .name = "callgrind", .file_names = detail::callgrind_names,
     .detect = looks_like_callgrind, .read = detail::read_callgrind_input},
    {.format = profile_format::perf_script, .name = "perf script", .file_names = detail::perf_script_names,
     .detect = detail::looks_like_perf_script, .holds_profiles = true, .read = detail::read_perf_script_input},
    {.format = profile_format::pprof, .name = "pprof", .file_names = detail::pprof_names, .detect = nullptr, .written = true},
    {.format = profile_format::trace_event, .name = "Trace Event", .file_names = {}, .detect = nullptr,
     .json_keys = detail::trace_event_keys, .json_array = true, .holds_profiles = true},
    {.format = profile_format::speedscope, .name = "speedscope", .file_names = detail::speedscope_names, .detect = nullptr,
     .json_keys = detail::speedscope_keys, .holds_profiles = true, .written = true},
    {.format = profile_format::v8_profile, .name = "V8 profile", .file_names = detail::v8_profile_names, .detect = nullptr,
     .json_keys = detail::v8_profile_keys},
    {.format = profile_format::gecko, .name = "Gecko profile", .file_names = {}, .detect = nullptr,
     .json_keys = detail::gecko_keys, .holds_profiles = true},
    {.format = profile_format::folded, .name = "folded stacks", .file_names = detail::folded_names, .detect = nullptr,
     .read = detail::read_folded_input, .written = true, .write = detail::write_folded_output},
};

/// The row of format_table of `f`. O(formats).
[[nodiscard]] constexpr const format_info& info_of(profile_format f) noexcept {
  for (const format_info& i : format_table)
    if (i.format == f) return i;
  return format_table[std::size(format_table) - 1];  // unreachable: format_table_is_whole
}

namespace detail {
// Rows for the values 0 .. rows - 1, one each, folded stacks last: two rows of one value, or
// a row of a value after a gap, fail it.
[[nodiscard]] constexpr bool format_table_is_whole() noexcept {
  for (std::size_t v = 0; v < std::size(format_table); ++v) {
    std::size_t rows = 0;
    for (const format_info& i : format_table) rows += static_cast<std::size_t>(i.format) == v;
    if (rows != 1) return false;
  }
  return format_table[std::size(format_table) - 1].format == profile_format::folded;
}
static_assert(format_table_is_whole(), "format_table: one row for each profile_format, folded stacks last");
}  // namespace detail

/// The name of a format, as `ccrc stats` prints it ("folded stacks", "perf script", "V8
/// profile"). O(formats).
[[nodiscard]] constexpr std::string_view name_of(profile_format f) noexcept { return info_of(f).name; }

/// The names of the formats of format_table that `keep` keeps, in its order, joined as a
/// list: "a, b or c". O(formats).
template <class Keep>
[[nodiscard]] std::string format_names(Keep&& keep, std::string_view last_separator = " or ") {
  std::vector<std::string_view> names;
  for (const format_info& i : format_table)
    if (keep(i)) names.push_back(i.name);
  std::string out;
  for (std::size_t k = 0; k < names.size(); ++k)
    out.append(k == 0 ? "" : k + 1 == names.size() ? last_separator : ", ").append(names[k]);
  return out;
}

/// The names of every format ccrc reads, for help texts and errors:
/// "ccrc .cctb, ccrc .cct, callgrind, ..., Gecko profile and folded stacks". O(formats).
[[nodiscard]] inline std::string format_names() {
  return format_names([](const format_info&) { return true; }, " and ");
}

/// The format of a profile that starts with `first_bytes` (its first format_detection_bytes
/// bytes, or all of it if shorter; a UTF-8 byte-order mark skipped), by format_table in its
/// order: .cctb if it starts with
/// the byte 0x89 and "CCT" (so a damaged .cctb header is reported by the .cctb reader rather
/// than misread as text), .cct if it starts with "ccrc-cct ", callgrind output if it starts
/// with "# callgrind format" or has an "events:" line before any "fn=" (looks_like_callgrind),
/// `perf script` text if it starts with the `perf script --header` block or, after '#' lines,
/// with a sample header line followed by an indented frame line
/// (detail::looks_like_perf_script); a JSON object or array (not a folded line such as
/// "[unknown];f 1") by its first key (json_keys), a JSON array being Trace Event; folded
/// stacks otherwise. nullopt for a JSON object whose first key tells no format (its other
/// keys may: read_profile_file reads them). pprof, binary, is told by looks_like_pprof
/// only. O(length of first_bytes).
///
///     ccrc::detect_format("ccrc-cct 1\n");  // profile_format::cct
///     ccrc::detect_format("main;f 42\n");   // profile_format::folded
///     ccrc::detect_format("{\"traceEvents\": []}");  // profile_format::trace_event
[[nodiscard]] constexpr std::optional<profile_format> detect_format(std::string_view first_bytes) noexcept {
  if (first_bytes.starts_with(detail::utf8_bom)) first_bytes.remove_prefix(detail::utf8_bom.size());
  if (detail::looks_like_json(first_bytes)) {
    const bool array = first_bytes[first_bytes.find_first_not_of(" \t\r\n")] == '[';
    const std::string_view key = detail::first_json_key(first_bytes);
    for (const format_info& i : format_table) {
      if (array && i.json_array) return i.format;
      for (std::string_view k : i.json_keys)
        if (!array && k == key) return i.format;
    }
    return std::nullopt;
  }
  for (const format_info& i : format_table)
    if (i.detect && i.detect(first_bytes)) return i.format;
  return profile_format::folded;
}

/// The format a file's name says (format_info::file_names): .cct, .cctb, `perf script` text
/// for .perf and .perf-script, callgrind for .callgrind and valgrind's callgrind.out.PID,
/// pprof for .pb.gz, .pb and .pprof, speedscope for .speedscope.json, V8 for .cpuprofile and
/// .heapprofile, folded stacks for .folded, .collapsed and .txt; nullopt for any other name
/// (the format is then told by the content). O(length of the name).
[[nodiscard]] inline std::optional<profile_format> format_of_extension(const std::filesystem::path& path) {
  const std::string name = path.filename().string();
  for (const format_info& i : format_table)
    for (std::string_view n : i.file_names)
      if (n.front() == '.' ? name.size() > n.size() && name.ends_with(n) : name.starts_with(n)) return i.format;
  return std::nullopt;
}

namespace detail {

// Fills `start` from `read` (less only at the end of the input) and returns what it got.
template <class Read>
std::string_view read_start(Read& read, char (&start)[format_detection_bytes]) {
  std::size_t got = 0;
  for (std::size_t n; got < sizeof start && (n = read(start + got, sizeof start - got)) > 0;) got += n;
  return {start, got};
}

// perf's binary perf.data (its magic "PERFILE2", byte-swapped by a big-endian writer, or
// version 1's "PERFFILE", then the header's size as 8 bytes, some of them 0, which no text
// has) is no text format: left to the folded reader, it would fail on its first line without
// saying what the file is.
inline void refuse_perf_data(std::string_view start) {
  std::string_view magic = start.substr(0, 8);
  if ((magic == "PERFILE2" || magic == "2ELIFREP" || magic == "PERFFILE") && start.size() >= 16 &&
      start.substr(8, 8).find('\0') != std::string_view::npos)
    throw parse_error::at_byte(0, "perf's binary perf.data, which ccrc does not read: run `perf script` on it "
                                  "(perf script -i perf.data > out.perf) and read its output");
}

// A reader added to format_table's, with its content test (if format_info's is null).
struct format_reader {
  profile_format format;
  bool (*detect)(std::string_view first_bytes) noexcept;
  profile_reader read;
};

// The readers one read_* family has beyond format_table's: none for the core's; pprof's and
// the JSON formats', gzip and JSON told by a later key for read_profile_file's.
struct reader_set {
  std::span<const format_reader> added;
  // Reads `in` if it is gzip-compressed (the inflated bytes by read_plain) and says so.
  bool (*read_gzip)(profile_input& in, std::optional<profile_format> named, const reader_set& set,
                    const read_options& options, read_result& r) = nullptr;
  // Reads a JSON document whose first key told no format.
  profile_reader read_json = nullptr;
  // What reads the formats this set does not: named in the error.
  std::string_view complete_reader;
};

[[nodiscard]] inline profile_reader reader_of(profile_format f, const reader_set& set) noexcept {
  if (profile_reader read = info_of(f).read) return read;
  for (const format_reader& a : set.added)
    if (a.format == f) return a.read;
  return nullptr;
}

// The profile of the uncompressed `in`, in the format its name says (`named`) or its content.
// A UTF-8 byte-order mark at the start is left to the readers, which skip it (so that the
// bytes their errors name are the file's).
inline void read_plain(profile_input& in, std::optional<profile_format> named, const reader_set& set,
                       const read_options& options, read_result& r) {
  const std::string_view head = in.start.substr(0, format_detection_bytes);
  refuse_perf_data(head);
  std::optional<profile_format> f;
  if (named && *named != profile_format::folded) {
    f = named;  // a name binds its format, but folded stacks' names are too common to
  } else {
    for (const format_reader& a : set.added)
      if (!f && a.detect && a.detect(head)) f = a.format;
    if (!f) f = detect_format(head);
  }
  if (!f) {
    if (!set.read_json)
      throw parse_error::at_byte(0, "a JSON document, which this reader does not read: " + std::string(set.complete_reader) +
                                        " reads it");
    set.read_json(in, options, r);
    return;
  }
  r.detected = *f;
  profile_reader read = reader_of(*f, set);
  if (!read)
    throw parse_error::at_byte(0, "a " + std::string(name_of(*f)) + " file, which this reader does not read: " +
                                      std::string(set.complete_reader) + " reads it");
  if (*f != profile_format::folded) return read(in, options, r);
  try {
    read(in, options, r);
  } catch (const parse_error& e) {
    if (e.line() != 1) throw;
    // Folded stacks are the format of last resort: a first line that is not one is more
    // likely a file of no format this reader reads, and the user should learn which were tried.
    std::string reason = std::string(e.what()).substr(std::string_view("line 1: ").size());
    std::string tried = format_names([&](const format_info& i) {
      bool added = false;
      for (const format_reader& a : set.added) added |= a.format == i.format;
      return i.format != profile_format::folded && (i.read || added);
    });
    throw parse_error(1, reason + " (no format fits: the start is not " + tried + ", and it was read as folded stacks)");
  }
}

// Applies read_options::profile to `r`: the names found, then the one picked, if any.
inline void pick_profile(read_result& r, const read_options& options) {
  if (!info_of(r.detected).holds_profiles) {
    if (!options.profile.empty())
      throw error("--profile: a " + std::string(name_of(r.detected)) + " file holds one profile");
    return;
  }
  const call_tree& t = r.profile.tree();
  std::vector<node_id> tops;
  for (node_id c : t.children(root_node)) {
    tops.push_back(c);
    r.profiles.emplace_back(t.symbols().name(t.frame(c)));
  }
  if (options.profile.empty()) return;
  std::size_t pick = tops.size();
  for (std::size_t i = 0; i < tops.size() && pick == tops.size(); ++i)
    if (r.profiles[i] == options.profile) pick = i;
  const std::string& s = options.profile;
  std::size_t index = 0;
  if (pick == tops.size() && std::from_chars(s.data(), s.data() + s.size(), index).ptr == s.data() + s.size() &&
      index < tops.size())
    pick = index;
  if (pick == tops.size()) {
    std::string names;
    for (std::size_t i = 0; i < r.profiles.size(); ++i) names += "\n  " + std::to_string(i) + ": " + r.profiles[i];
    throw error("no profile '" + s + "' in the file; it holds " + std::to_string(tops.size()) + ":" + names);
  }
  r.profile = subtree_profile(r.profile, tops[pick]);
}

// The profile of `in`, gzip or not, in the format `named`, if any, or told by its content.
inline read_result read_input(profile_input& in, std::optional<profile_format> named, const reader_set& set,
                              const read_options& options) {
  read_result r;
  if (!set.read_gzip || !set.read_gzip(in, named, set, options, r)) read_plain(in, named, set, options, r);
  pick_profile(r, options);
  return r;
}

// The three sources of a read_* family over `set`. A file is read through a buffer
// (file_source: not mapped, so that one cut short while it is read is an error, not SIGBUS).
// Each names the input in its errors (error::rethrow_in), once for every reader: the parsers
// know the line or byte, the source knows the name; an error that names its input already
// (file_source's) is left as it is.
template <class Read>
read_result read_named(const std::string& input, Read read) {
  if (input.empty()) return read();
  try {
    return read();
  } catch (const error& e) {
    if (e.input().empty()) e.rethrow_in(input);
    throw;
  }
}
inline read_result read_path(const std::filesystem::path& path, const read_options& options, const reader_set& set) {
  file_source source(path);
  return read_named(options.input_name.empty() ? path.string() : options.input_name, [&] {
    char start[format_detection_bytes];
    profile_input in{read_start(source, start), any_source::of(source), false, static_cast<std::size_t>(source.size()), nullptr};
    return read_input(in, format_of_extension(path), set, options);
  });
}
inline read_result read_stream(std::istream& stream, const read_options& options, const reader_set& set) {
  return read_named(options.input_name, [&] {
    stream_source source{&stream};
    char start[format_detection_bytes];
    profile_input in{read_start(source, start), any_source::of(source), false, 0, nullptr};
    return read_input(in, std::nullopt, set, options);
  });
}
inline read_result read_bytes(std::string_view bytes, const read_options& options, const reader_set& set) {
  return read_named(options.input_name, [&] {
    profile_input in{bytes, {}, true, bytes.size(), nullptr};
    return read_input(in, std::nullopt, set, options);
  });
}

inline constexpr reader_set core_readers{
    {}, nullptr, nullptr, "ccrc::read_profile_file (or read_profile), in <ccrc/formats/read_any_profile.hpp>,"};

}  // namespace detail

/// Reads a profile from a file in any dependency-free format (folded stacks, .cct, .cctb,
/// `perf script` text, callgrind), as read_profile_file does, for programs built without
/// simdjson, protozero and zlib (the WebAssembly viewer): the same format_table, the same
/// rules and result. A file of another format, gzip-compressed included (read as folded
/// stacks, it fails on its first line and the error lists the formats tried), is a
/// ccrc::parse_error that names read_profile_file. O(bytes).
///
///     ccrc::profile p = ccrc::read_core_profile_file("run.folded").profile;
[[nodiscard]] inline read_result read_core_profile_file(const std::filesystem::path& path, const read_options& options = {}) {
  return detail::read_path(path, options, detail::core_readers);
}

/// read_core_profile_file from a stream (a .cctb stream is read to its end first).
[[nodiscard]] inline read_result read_core_profile(std::istream& in, const read_options& options = {}) {
  return detail::read_stream(in, options, detail::core_readers);
}

/// read_core_profile_file from bytes in memory (read in place).
[[nodiscard]] inline read_result read_core_profile(std::string_view bytes, const read_options& options = {}) {
  return detail::read_bytes(bytes, options, detail::core_readers);
}

}  // namespace ccrc
