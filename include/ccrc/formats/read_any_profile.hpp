// ccrc - reading a profile in any format ccrc knows, gzip or not, the format told by the content.
#pragma once

#include <ccrc/error.hpp>
#include <ccrc/formats/gecko.hpp>
#include <ccrc/formats/gzip.hpp>
#include <ccrc/formats/json.hpp>
#include <ccrc/formats/pprof.hpp>
#include <ccrc/formats/speedscope.hpp>
#include <ccrc/formats/trace_event.hpp>
#include <ccrc/formats/v8_profile.hpp>
#include <ccrc/io/read_profile.hpp>
#include <ccrc/tree/profile.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <istream>
#include <optional>
#include <string>
#include <string_view>

namespace ccrc {

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

  [[noreturn]] void rethrow_in(const std::string& input) const override {
    document_too_large e(*this, input);
    throw e;
  }

 private:
  document_too_large(const document_too_large& e, const std::string& input)
      : error(input + ": " + e.what(), input), what_(e.what_), limit_(e.limit_) {}

  std::string what_;
  std::uint64_t limit_;
};

namespace detail {

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

// The rest of `in`, bounded by read_options::max_document_bytes for a reader that holds the
// whole document (`what`); a known size above the bound throws at once.
inline bounded_source<any_source&> bounded_rest(profile_input& in, std::string_view what, const read_options& options) {
  const std::uint64_t limit = options.max_document_bytes;
  if (in.size > limit || in.start.size() > limit) throw document_too_large(what, limit);
  return {in.rest, limit - in.start.size(), what, limit};
}

// The whole of `in` as a JSON document.
inline formats::json_text json_document(profile_input& in, const read_options& options) {
  bounded_source<any_source&> rest = bounded_rest(in, "JSON document", options);
  return in.in_memory ? formats::json_text(in.start) : formats::json_text(in.start, rest, in.size);
}

// The reader of a JSON format, given the document (read once, whichever key told its format).
template <void (*ReadJson)(const formats::json_text&, read_result&)>
void read_json_input(profile_input& in, const read_options& options, read_result& r) {
  if (in.json) return ReadJson(*in.json, r);
  ReadJson(json_document(in, options), r);
}

inline void read_speedscope_json(const formats::json_text& text, read_result& r) { r.profile = read_speedscope(text); }
inline void read_v8_profile_json(const formats::json_text& text, read_result& r) { r.profile = read_v8_profile(text); }
inline void read_gecko_json(const formats::json_text& text, read_result& r) { r.profile = read_gecko_profile(text); }
inline void read_trace_event_json(const formats::json_text& text, read_result& r) {
  trace_warnings w;
  r.profile = read_trace_events(text, {.warnings = &w});
  if (w.unmatched_ends != 0)
    r.warnings.push_back(std::to_string(w.unmatched_ends) + " end events matched no open event and were ignored");
  if (w.unclosed != 0)
    r.warnings.push_back(std::to_string(w.unclosed) + " events still open at the end were closed at the thread's last time");
  if (w.profiles_without_start != 0)
    r.warnings.push_back(std::to_string(w.profiles_without_start) +
                         " CPU profiles had chunks but no Profile event and were read under their first chunk's thread");
  if (w.summaries != 0)
    r.warnings.push_back(std::to_string(w.summaries) +
                         " clang -ftime-trace 'Total' summaries were left out: each adds up the compile's events of one "
                         "name, which the tree holds");
}

inline void read_pprof_input(profile_input& in, const read_options& options, read_result& r) {
  bounded_source<any_source&> rest = bounded_rest(in, "pprof message", options);
  if (in.in_memory) {
    r.profile = read_pprof(in.start);
    return;
  }
  std::string message(in.start);
  if (in.size) message.reserve(in.size + (std::size_t{1} << 20));  // and append_all's last, empty read
  formats::detail::append_all(message, rest);
  r.profile = read_pprof(message);
}

// The readers format_table leaves to this header, each with its content test if it has one
// that format_table could not hold.
inline constexpr format_reader format_readers[] = {
    {profile_format::pprof, looks_like_pprof, read_pprof_input},
    {profile_format::trace_event, nullptr, read_json_input<read_trace_event_json>},
    {profile_format::speedscope, nullptr, read_json_input<read_speedscope_json>},
    {profile_format::v8_profile, nullptr, read_json_input<read_v8_profile_json>},
    {profile_format::gecko, nullptr, read_json_input<read_gecko_json>},
};

// The format of a JSON document by its top-level keys (format_info::json_keys), all of them
// if the first tells none, skipping their values. The keys are found by scanning the text
// (formats::detail::walk_json_object), not by simdjson: its index of the whole document would
// cost five bytes per byte of a trace that the Trace Event reader streams (Chrome DevTools
// writes "metadata" before "traceEvents"). Keys are compared as written (one with escapes
// names no format).
[[nodiscard]] inline std::optional<profile_format> json_format_of(std::string_view bytes) {
  if (std::optional<profile_format> f = detect_format(bytes.substr(0, format_detection_bytes))) return f;
  std::size_t open = formats::detail::skip_json_space(bytes, 0);
  if (open == bytes.size() || bytes[open] != '{') return std::nullopt;
  std::optional<profile_format> found;
  try {
    (void)formats::detail::walk_json_object(bytes, open, [&](std::string_view key, std::size_t) -> std::size_t {
      for (const format_info& i : format_table)
        for (std::string_view k : i.json_keys)
          if (k == key) found = i.format;
      return found ? std::string_view::npos : 0;
    });
  } catch (const parse_error&) {
    return std::nullopt;  // malformed before a key told the format
  }
  return found;
}

// The JSON formats and the keys that tell them, for the error that none did.
inline std::string json_formats_tried() {
  std::string tried;
  for (const format_info& i : format_table) {
    if (i.json_keys.empty()) continue;
    tried.append(tried.empty() ? "" : "; ").append(i.name).append(i.json_array ? ", an array or an object with " : ", with ");
    for (std::size_t k = 0; k < i.json_keys.size(); ++k)
      tried.append(k == 0 ? "" : k + 1 == i.json_keys.size() ? " or " : ", ").append("\"").append(i.json_keys[k]).append("\"");
  }
  return tried;
}

// A JSON document whose first key told no format: read whole, then told by its other keys.
inline void read_json_told_later(profile_input& in, const read_options& options, read_result& r) {
  formats::json_text text = json_document(in, options);
  std::optional<profile_format> f = json_format_of(text.bytes());
  if (!f) throw parse_error::at_byte(0, "a JSON document of no format ccrc reads (tried: " + json_formats_tried() + ")");
  r.detected = *f;
  profile_input whole{text.bytes(), {}, true, text.bytes().size(), &text};
  for (const format_reader& a : format_readers)
    if (a.format == *f) a.read(whole, options, r);
}

inline bool read_gzip(profile_input& in, std::optional<profile_format> named, const reader_set& set,
                      const read_options& options, read_result& r) {
  if (!is_gzip(in.start)) return false;
  auto inflated = [&](auto&& packed) {
    gzip_source<decltype(packed)&> unpacked(packed);
    char start[format_detection_bytes];
    profile_input plain{read_start(unpacked, start), any_source::of(unpacked), false, 0, nullptr};
    read_plain(plain, named, set, options, r);
  };
  if (in.in_memory) inflated(memory_source{in.start});
  else inflated(rest_of(in));
  r.gzip = true;
  return true;
}

inline constexpr reader_set all_readers{format_readers, read_gzip, read_json_told_later, ""};

}  // namespace detail

/// Reads a profile in any format ccrc knows (format_table: folded stacks, .cct, .cctb,
/// `perf script` text, callgrind, pprof, speedscope and Trace Event JSON, V8's .cpuprofile
/// and .heapprofile, Firefox's Gecko profile), gzip-compressed or not (inflated as it is
/// read). The file is opened once, so a pipe (/dev/stdin, <(...)) reads whole. A name that
/// says a format (format_of_extension: `.cct`, `.cctb`, `.perf`, `.callgrind`, `.pb.gz`,
/// `.cpuprofile`, ...) binds it: anything else in the file is a ccrc::parse_error from that
/// format's reader, never a guess (so a `perf script` of a recording without -g, which
/// detection does not recognise, is read by naming it .perf); folded stacks' names (.txt ...)
/// do not bind. Any other file's format is told by its content (detect_format, pprof by
/// looks_like_pprof, a JSON object by any of its top-level keys). pprof and the JSON formats
/// are read whole, up to read_options::max_document_bytes: the parsers work on the document in
/// memory. A file of several profiles (the threads of perf script, Trace Event and Gecko
/// files, the profiles of a speedscope file) gives them all, each under a top-level frame
/// named after it, or, with read_options::profile, the one picked. Throws ccrc::parse_error
/// for malformed content (a truncated gzip stream included; a first line that is no folded
/// stack lists the formats tried), document_too_large for a JSON or pprof document above the
/// bound, and ccrc::error if the file cannot be read or the picked profile is not in it: what()
/// begins with the path (or read_options::input_name) and names the line or byte, and
/// error::input() is that name. O(bytes).
///
///     ccrc::read_result r = ccrc::read_profile_file("perf.script.gz");
///     // r.detected == profile_format::perf_script, r.gzip, r.profiles: {"spin 12936", ...}
[[nodiscard]] inline read_result read_profile_file(const std::filesystem::path& path, const read_options& options = {}) {
  return detail::read_path(path, options, detail::all_readers);
}

/// read_profile_file from a stream: the format told by the content alone; errors name
/// read_options::input_name, if given.
[[nodiscard]] inline read_result read_profile(std::istream& in, const read_options& options = {}) {
  return detail::read_stream(in, options, detail::all_readers);
}

/// read_profile_file from bytes in memory (the text formats are read in place); errors name
/// read_options::input_name, if given.
///
///     ccrc::read_result r = ccrc::read_profile("main;f 3\nmain;g 4\n");  // folded stacks
[[nodiscard]] inline read_result read_profile(std::string_view bytes, const read_options& options = {}) {
  return detail::read_bytes(bytes, options, detail::all_readers);
}

}  // namespace ccrc
