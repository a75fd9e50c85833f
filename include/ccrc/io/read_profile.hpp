// ccrc - reading a profile of any format ccrc reads, the format told by the content.
#pragma once

#include <ccrc/detail/line_reader.hpp>
#include <ccrc/error.hpp>
#include <ccrc/io/callgrind.hpp>
#include <ccrc/io/cct_binary.hpp>
#include <ccrc/io/cct_text.hpp>
#include <ccrc/io/folded.hpp>
#include <ccrc/io/perf_script.hpp>
#include <ccrc/tree/profile.hpp>

#include <cstddef>
#include <cstdio>
#include <filesystem>
#include <istream>
#include <optional>
#include <string>
#include <string_view>

namespace ccrc {

/// The profile formats read_profile reads.
enum class profile_format {
  folded,  ///< folded stacks, "main;f;g 42" (read_folded)
  cct,     ///< the .cct text format (read_cct)
  cctb,    ///< the .cctb binary format (read_cctb)
  perf_script,  ///< the text of `perf script` (read_perf_script)
  callgrind,    ///< valgrind's callgrind output (read_callgrind)
};

/// How many bytes from the start of a profile detect_format looks at: enough for the first
/// sample of a `perf script` file after a few comment lines (its `--header` block is told by
/// its first line).
inline constexpr std::size_t format_detection_bytes = 4096;

/// The format of a profile that starts with `first_bytes` (its first format_detection_bytes
/// bytes, or all of it if shorter): .cctb if it starts with the byte 0x89 and "CCT" (so a
/// damaged .cctb header is reported by the .cctb reader rather than misread as text), .cct if
/// it starts with "ccrc-cct ", callgrind output if it starts with "# callgrind format" or has
/// an "events:" line before any "fn=" (looks_like_callgrind), `perf script` text if it starts with the `perf script --header`
/// block or, after '#' lines, with a sample header line followed by an indented frame line
/// (detail::looks_like_perf_script), folded stacks otherwise. O(length of first_bytes).
///
///     ccrc::detect_format("ccrc-cct 1\n");  // profile_format::cct
///     ccrc::detect_format("main;f 42\n");   // profile_format::folded
///     ccrc::detect_format("a.out 7 1.5: cycles:\n\t4005d0 main+0x8 (a.out)\n");  // perf_script
[[nodiscard]] constexpr profile_format detect_format(std::string_view first_bytes) noexcept {
  if (first_bytes.size() >= 4 && static_cast<unsigned char>(first_bytes[0]) == 0x89 && first_bytes.substr(1, 3) == "CCT")
    return profile_format::cctb;
  if (first_bytes.substr(0, 9) == "ccrc-cct ") return profile_format::cct;
  if (looks_like_callgrind(first_bytes)) return profile_format::callgrind;
  if (detail::looks_like_perf_script(first_bytes)) return profile_format::perf_script;
  return profile_format::folded;
}

/// The format a file name's extension names: .cct, .cctb, `perf script` text for .perf and
/// .perf-script, callgrind for .callgrind and valgrind's callgrind.out.PID, or folded stacks
/// for .folded, .collapsed and .txt; nullopt for any other
/// extension (read_profile then detects the format from the content; a writer has no format
/// to choose). O(length of the name).
[[nodiscard]] inline std::optional<profile_format> format_of_extension(const std::filesystem::path& path) {
  std::filesystem::path ext = path.extension();
  if (ext == ".cct") return profile_format::cct;
  if (ext == ".cctb") return profile_format::cctb;
  if (ext == ".perf" || ext == ".perf-script") return profile_format::perf_script;
  if (ext == ".callgrind" || path.filename().string().starts_with("callgrind.out.")) return profile_format::callgrind;
  if (ext == ".folded" || ext == ".collapsed" || ext == ".txt") return profile_format::folded;
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

// The profile in `format` whose first bytes `start` were already taken from `read`.
template <class Read>
profile read_detected(profile_format format, std::string_view start, Read&& read) {
  refuse_perf_data(start);
  if (format == profile_format::cctb) {
    std::string bytes(start);
    char chunk[1 << 16];
    for (std::size_t n; (n = read(chunk, sizeof chunk)) > 0;) bytes.append(chunk, n);
    return read_cctb(bytes);
  }
  prefixed_source<Read&> source{{start}, read};
  if (format == profile_format::cct) return read_cct_from(source);
  if (format == profile_format::perf_script) return read_perf_script_from(source, {});
  if (format == profile_format::callgrind) return read_callgrind_from(source, {});
  return read_folded_from(source, {});
}

}  // namespace detail

/// Reads a profile from a file in any format ccrc reads. The rule: a file named `.cct`,
/// `.cctb`, `.perf` or `.perf-script` must be in that format (anything else in it is a
/// ccrc::parse_error, as from read_cct_file, read_cctb_file or read_perf_script_file, never a
/// guess; so a `perf script` of a recording without -g, which detection does not recognise,
/// is read by naming it .perf); any other file's format is detected from its content
/// (detect_format), so a .cctb, .cct or perf file may have any other name and a folded file
/// any name but those. The file is opened once, so a pipe (/dev/stdin, <(...))
/// reads whole. Throws ccrc::error if the file cannot be opened and ccrc::parse_error for
/// malformed content (what() names the line; the path is the caller's to add). O(bytes).
///
///     ccrc::profile p = ccrc::read_profile("run.folded");
[[nodiscard]] inline profile read_profile(const std::filesystem::path& path) {
  std::optional<profile_format> named = format_of_extension(path);
  if (named == profile_format::cctb) return read_cctb_file(path);
  if (named == profile_format::cct) return read_cct_file(path);
  if (named == profile_format::perf_script) return read_perf_script_file(path);
  if (named == profile_format::callgrind) return read_callgrind_file(path);
  if (detail::mapped_file map(path); map) {
    // The first bytes stay where they lie, before the rest: the text readers split the file in place.
    std::string_view first = map.bytes().substr(0, format_detection_bytes);
    detail::memory_source rest{map.bytes().substr(first.size()), &map};
    if (profile_format format = detect_format(first); format != profile_format::cctb)
      return detail::read_detected(format, first, rest);
  }
  auto file = detail::open_for_reading(path);
  detail::file_source source{file.get()};
  char start[format_detection_bytes];
  std::string_view first = detail::read_start(source, start);
  profile_format format = detect_format(first);
  if (format == profile_format::cctb) {
    // A regular file is read into the profile's arrays in place; a pipe through memory.
    std::error_code ec;
    if (std::filesystem::is_regular_file(path, ec)) return read_cctb_file(path);
  }
  return detail::read_detected(format, first, source);
}

/// Reads a profile from a stream in any format ccrc reads, detected from its content
/// (detect_format); a .cctb stream is read to its end first. Throws ccrc::parse_error for
/// malformed content and ccrc::error if the stream fails. O(bytes).
///
///     ccrc::profile p = ccrc::read_profile(std::cin);
[[nodiscard]] inline profile read_profile(std::istream& in) {
  detail::stream_source source{&in};
  char start[format_detection_bytes];
  std::string_view first = detail::read_start(source, start);
  return detail::read_detected(detect_format(first), first, source);
}

}  // namespace ccrc
