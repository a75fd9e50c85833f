// ccrc - reading a profile in any format ccrc knows, gzip or not, the format told by the content.
#pragma once

#include <ccrc/error.hpp>
#include <ccrc/formats/gzip.hpp>
#include <ccrc/formats/json.hpp>
#include <ccrc/formats/pprof.hpp>
#include <ccrc/formats/gecko.hpp>
#include <ccrc/formats/speedscope.hpp>
#include <ccrc/formats/trace_event.hpp>
#include <ccrc/formats/v8_profile.hpp>
#include <ccrc/io/read_profile.hpp>
#include <ccrc/tree/profile.hpp>

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <istream>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace ccrc::formats {

/// The formats formats::read_profile reads.
enum class format {
  folded,       ///< folded stacks (ccrc::read_folded)
  cct,          ///< ccrc's .cct text (ccrc::read_cct)
  cctb,         ///< ccrc's .cctb binary (ccrc::read_cctb)
  perf_script,  ///< the text of `perf script` (ccrc::read_perf_script)
  pprof,        ///< pprof's profile.proto (ccrc::read_pprof)
  speedscope,   ///< speedscope's JSON (ccrc::read_speedscope)
  trace_event,  ///< Trace Event Format JSON: Chrome tracing, Perfetto, clang -ftime-trace (ccrc::read_trace_events)
  v8_profile,   ///< V8's .cpuprofile and .heapprofile: Chrome, Node (ccrc::read_v8_profile)
  gecko,        ///< the Gecko profile Firefox's profiler saves (ccrc::read_gecko_profile)
  callgrind,    ///< valgrind's callgrind output, a call graph made a tree (ccrc::read_callgrind)
};

/// The name of a format, as `ccrc stats` prints it.
[[nodiscard]] constexpr std::string_view name_of(format f) noexcept {
  switch (f) {
    case format::folded: return "folded stacks";
    case format::cct: return "ccrc .cct";
    case format::cctb: return "ccrc .cctb";
    case format::perf_script: return "perf script";
    case format::pprof: return "pprof";
    case format::speedscope: return "speedscope";
    case format::trace_event: return "Trace Event";
    case format::v8_profile: return "V8 profile";
    case format::gecko: return "Gecko profile";
    case format::callgrind: return "callgrind";
  }
  return "?";
}

/// Options of formats::read_profile.
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
};

/// A JSON document or pprof message larger than read_options::max_document_bytes: what() says
/// which, and the bound.
class document_too_large : public error {
 public:
  document_too_large(std::string_view what, std::uint64_t limit)
      : error("a " + std::string(what) + " larger than " + std::to_string(limit) +
              " bytes (read_options::max_document_bytes), which its reader would hold whole"),
        what_(what),
        limit_(limit) {}
  /// "JSON document" or "pprof message".
  [[nodiscard]] const std::string& document() const noexcept { return what_; }
  [[nodiscard]] std::uint64_t limit() const noexcept { return limit_; }

 private:
  std::string what_;
  std::uint64_t limit_;
};

/// A profile as read, with what was found out about the file.
struct read_result {
  ccrc::profile profile;
  format detected = format::folded;
  bool gzip = false;  ///< the file was gzip-compressed
  /// The names of the profiles a multi-profile format's file holds (the top-level frames it
  /// put them under), in order; empty for a format that holds one.
  std::vector<std::string> profiles;
  /// What the reader repaired or ignored, one sentence each (Trace Event: unmatched ends,
  /// events left open); a user should see them.
  std::vector<std::string> warnings;
};

namespace detail {

// True for the formats whose readers put each thread or profile under its own top-level frame.
[[nodiscard]] constexpr bool holds_profiles(format f) noexcept {
  return f == format::perf_script || f == format::speedscope || f == format::trace_event || f == format::gecko;
}

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

// The JSON format whose top-level key `key` is, if it tells one.
[[nodiscard]] constexpr std::optional<format> json_format_of_key(std::string_view key) noexcept {
  if (key == "traceEvents") return format::trace_event;
  if (key == "$schema" || key == "shared" || key == "profiles") return format::speedscope;
  if (key == "nodes" || key == "head") return format::v8_profile;
  // Firefox writes "libs" first; "meta" also starts profiler.firefox.com's processed format,
  // which the Gecko reader refuses by name; "systemHost" wraps an old DevTools recording.
  if (key == "libs" || key == "meta" || key == "threads" || key == "processes" || key == "pausedRanges" ||
      key == "systemHost")
    return format::gecko;
  return std::nullopt;
}

// The format of a JSON document: an array is a Trace Event list; an object is told by its
// top-level keys (the first, usually; else all of them, skipping their values). The keys are
// found by scanning the text (formats::detail::walk_json_object), not by simdjson: its index
// of the whole document would cost five bytes per byte of a trace that the Trace Event reader
// streams (Chrome DevTools writes "metadata" before "traceEvents"). Keys are compared as
// written (one with escapes names no format).
[[nodiscard]] inline std::optional<format> json_format_of(const json_text& text) {
  std::string_view bytes = text.bytes();
  if (ccrc::formats::detail::first_json_byte(bytes) == '[') return format::trace_event;
  if (auto f = json_format_of_key(first_json_key(bytes))) return f;
  std::size_t open = bytes.find_first_not_of(" \t\r\n");
  if (open == std::string_view::npos || bytes[open] != '{') return std::nullopt;
  std::optional<format> found;
  try {
    (void)ccrc::formats::detail::walk_json_object(bytes, open, [&](std::string_view key, std::size_t) -> std::size_t {
      found = json_format_of_key(key);
      return found ? std::string_view::npos : 0;
    });
  } catch (const parse_error&) {
    return std::nullopt;  // malformed before a key told the format
  }
  return found;
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

// The profile of a JSON document.
[[nodiscard]] inline read_result read_json(const json_text& text) {
  std::optional<format> f = json_format_of(text);
  if (!f)
    throw parse_error::at_byte(0, "a JSON document of no format ccrc reads (tried: Trace Event, an array or an "
                                  "object with \"traceEvents\"; speedscope, with \"$schema\", \"shared\" or \"profiles\"; V8, with \"nodes\" or \"head\"; "
                                  "Gecko, with \"meta\", \"libs\" or \"threads\")");
  if (*f == format::speedscope) return {read_speedscope(text), *f, false, {}, {}};
  if (*f == format::v8_profile) return {read_v8_profile(text), *f, false, {}, {}};
  if (*f == format::gecko) return {read_gecko_profile(text), *f, false, {}, {}};
  trace_warnings w;
  read_result r{read_trace_events(text, {.warnings = &w}), *f, false, {}, {}};
  if (w.unmatched_ends != 0)
    r.warnings.push_back(std::to_string(w.unmatched_ends) + " end events matched no open event and were ignored");
  if (w.unclosed != 0)
    r.warnings.push_back(std::to_string(w.unclosed) + " events still open at the end were closed at the thread's last time");
  if (w.profiles_without_start != 0)
    r.warnings.push_back(std::to_string(w.profiles_without_start) +
                         " CPU profiles had chunks but no Profile event and were read under their first chunk's thread");
  return r;
}

[[nodiscard]] constexpr format of_core(profile_format f) noexcept {
  switch (f) {
    case profile_format::cct: return format::cct;
    case profile_format::cctb: return format::cctb;
    case profile_format::perf_script: return format::perf_script;
    case profile_format::callgrind: return format::callgrind;
    case profile_format::folded: break;
  }
  return format::folded;
}

// The subtree of `top` (a child of the root) as a profile of its own: its callees become
// top-level, its self metrics the root's. One pass in id order (parent(n) < n).
[[nodiscard]] inline ccrc::profile subtree_profile(const ccrc::profile& p, node_id top) {
  const call_tree& from = p.tree();
  ccrc::profile out(p.metric_names());
  std::vector<node_id> map(from.size(), null_node);
  map[top] = root_node;
  for (node_id n = top + 1; n < from.size(); ++n) {
    node_id parent = map[from.parent(n)];
    if (parent == null_node) continue;
    frame_id f = from.frame(n);
    map[n] = out.find_or_add_child(parent, out.symbols().intern(from.symbols().name(f), from.symbols().site(f)));
  }
  for (std::size_t i = 0; i < p.metric_count(); ++i) {
    std::span<const double> in = p.column(i);
    std::span<double> to = out.column(i);
    for (node_id n = top; n < from.size(); ++n)
      if (map[n] != null_node) to[map[n]] += in[n];
  }
  return out;
}

// Applies read_options::profile to `r`: the names found, then the one picked, if any.
inline void pick_profile(read_result& r, const read_options& options) {
  if (!holds_profiles(r.detected)) {
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

// A `read` callable giving what `read` gives, up to `left` bytes in all: a byte more is a
// document_too_large (the bytes of a read are counted once it returns: at most one read,
// 1 MiB, more is held).
template <class Read>
struct bounded_source {
  Read read;
  std::uint64_t left;
  std::string_view what;
  std::uint64_t limit;
  std::size_t operator()(char* dst, std::size_t capacity) {
    const std::size_t n = read(dst, capacity);
    if (n > left) throw document_too_large(what, limit);
    left -= n;
    return n;
  }
};

// The profile of an uncompressed `read`, whose first bytes `start` were already taken from it;
// `size`, if known (a regular file's), sizes the buffers of the formats read whole.
template <class Read>
read_result read_plain(std::string_view start, Read&& read, const read_options& options, std::size_t size = 0) {
  const bool pprof = looks_like_pprof(start);
  if (pprof || looks_like_json(start)) {
    const std::string_view what = pprof ? "pprof message" : "JSON document";
    const std::uint64_t limit = options.max_document_bytes;
    if (size > limit || start.size() > limit) throw document_too_large(what, limit);
    bounded_source<Read&> bounded{read, limit - start.size(), what, limit};
    if (!pprof) return read_json(json_text(start, bounded, size));
    std::string message(start);
    if (size) message.reserve(size + (std::size_t{1} << 20));  // and append_all's last, empty read
    append_all(message, bounded);
    return {read_pprof(message), format::pprof, false, {}, {}};
  }
  profile_format core = detect_format(start);
  if (core != profile_format::folded) return {ccrc::detail::read_detected(core, start, read), of_core(core), false, {}, {}};
  try {
    return {ccrc::detail::read_detected(core, start, read), format::folded, false, {}, {}};
  } catch (const parse_error& e) {
    if (e.line() != 1) throw;
    // Folded stacks are the format of last resort: a first line that is not one is more
    // likely a file of no format ccrc reads, and the user should learn which were tried.
    std::string reason = std::string(e.what()).substr(std::string_view("line 1: ").size());
    throw parse_error(1, reason + " (no format fits: the start is not .cctb, .cct, callgrind, perf script, pprof, or JSON of "
                                  "Trace Event, speedscope, V8 or Gecko, and it was read as folded stacks)");
  }
}

// The profile `read` gives, gzip or not, whose first bytes `start` were already taken from it
// (`size`: its size in bytes, if known).
template <class Read>
read_result read_any(std::string_view start, Read&& read, const read_options& options, std::size_t size = 0) {
  read_result r;
  if (is_gzip(start)) {
    ccrc::detail::prefixed_source<Read&> packed{{start}, read};
    gzip_source<decltype(packed)&> unpacked(packed);
    char inner[format_detection_bytes];
    r = read_plain(ccrc::detail::read_start(unpacked, inner), unpacked, options);
    r.gzip = true;
  } else {
    r = read_plain(start, read, options, size);
  }
  pick_profile(r, options);
  return r;
}

}  // namespace detail

/// Reads a profile in any format ccrc knows, from its content whatever the file's name, gzip-
/// compressed or not (a .gz file is inflated as it is read). Formats: folded stacks, .cct,
/// .cctb, `perf script` text, pprof, speedscope and Trace Event JSON, V8's .cpuprofile and
/// .heapprofile, Firefox's Gecko profile (pprof and the JSON formats are read whole, up to
/// read_options::max_document_bytes: the parsers work on the document in memory). A file of
/// several profiles (the threads of perf script, Trace Event and Gecko files, the profiles of
/// a speedscope file) gives them all, each under a top-level frame named after it, or, with
/// read_options::profile, the one picked. Throws ccrc::parse_error for malformed content (a
/// truncated gzip stream included), document_too_large for a JSON or pprof document above
/// the bound, and ccrc::error if the file cannot be read or the picked profile is not in it.
/// O(bytes).
///
///     ccrc::formats::read_result r = ccrc::formats::read_profile("perf.script.gz");
///     // r.detected == format::perf_script, r.gzip, r.profiles: {"spin 12936", ...}
[[nodiscard]] inline read_result read_profile(const std::filesystem::path& path, const read_options& options = {}) {
  read_result r;
  std::optional<profile_format> named = format_of_extension(path);
  if (named && *named != profile_format::folded) {
    // A file named .cct, .cctb or .perf is that format, or an error (ccrc::read_profile's rule).
    r = {ccrc::read_profile(path), detail::of_core(*named), false, {}, {}};
  } else if (ccrc::detail::mapped_file map(path);
             map && detect_format(map.bytes().substr(0, format_detection_bytes)) != profile_format::cctb) {
    // The first bytes stay where they lie, before the rest: the text readers split the file in place.
    std::string_view first = map.bytes().substr(0, format_detection_bytes);
    ccrc::detail::memory_source rest{map.bytes().substr(first.size()), &map};
    return detail::read_any(first, rest, options, map.bytes().size());
  } else {
    auto file = ccrc::detail::open_for_reading(path);
    ccrc::detail::file_source source{file.get()};
    char start[format_detection_bytes];
    std::string_view first = ccrc::detail::read_start(source, start);
    std::size_t size = ccrc::detail::regular_file_size(path);
    if (detect_format(first) != profile_format::cctb || size == 0) return detail::read_any(first, source, options, size);
    r = {read_cctb_file(path), format::cctb, false, {}, {}};  // read in place rather than through a pipe
  }
  detail::pick_profile(r, options);
  return r;
}

/// formats::read_profile from a stream.
[[nodiscard]] inline read_result read_profile(std::istream& in, const read_options& options = {}) {
  ccrc::detail::stream_source source{&in};
  char start[format_detection_bytes];
  return detail::read_any(ccrc::detail::read_start(source, start), source, options);
}

}  // namespace ccrc::formats
