// ccrc - writing a profile in the format a file name asks for.
#pragma once

#include <ccrc/error.hpp>
#include <ccrc/formats/pprof.hpp>
#include <ccrc/formats/speedscope.hpp>
#include <ccrc/io/cct_binary.hpp>
#include <ccrc/io/cct_text.hpp>
#include <ccrc/io/folded.hpp>
#include <ccrc/io/read_profile.hpp>
#include <ccrc/tree/profile.hpp>

#include <filesystem>
#include <optional>
#include <ostream>
#include <string>

namespace ccrc {

namespace formats::detail {

inline void write_pprof_output(std::ostream& out, const profile& p, bool gzip) { write_pprof(out, p, {.gzip = gzip}); }
inline void write_speedscope_output(std::ostream& out, const profile& p, bool) { write_speedscope(out, p); }

// The writers of format_table's written formats that need ccrc::formats' libraries.
struct format_writer {
  profile_format format;
  profile_writer write;
};
inline constexpr format_writer format_writers[] = {
    {profile_format::pprof, write_pprof_output},
    {profile_format::speedscope, write_speedscope_output},
};

// The writer of a written format (format_info::written): the core's, or format_writers'.
[[nodiscard]] constexpr profile_writer writer_of(profile_format f) noexcept {
  if (profile_writer w = info_of(f).write) return w;
  for (const format_writer& w : format_writers)
    if (w.format == f) return w.write;
  return nullptr;
}

// Every written format has a writer.
[[nodiscard]] constexpr bool every_written_format_has_a_writer() noexcept {
  for (const format_info& i : format_table)
    if (i.written != (writer_of(i.format) != nullptr)) return false;
  return true;
}
static_assert(every_written_format_has_a_writer(), "format_table: a format written with no writer, or the other way");

}  // namespace formats::detail

/// The format a file named `path` is written in (format_table's written formats): .cct,
/// .cctb, folded stacks for .folded, .collapsed and .txt, pprof for .pb.gz (gzip), .pb and
/// .pprof (bare protobuf), speedscope for .speedscope.json (speedscope's and the Firefox
/// Profiler's importers open it); nullopt for any other name (formats that are read but not
/// written, such as `perf script`, included). O(length of the name).
///
///     ccrc::writable_format("cpu.pb.gz");  // profile_format::pprof
[[nodiscard]] inline std::optional<profile_format> writable_format(const std::filesystem::path& path) {
  std::optional<profile_format> f = format_of_extension(path);
  if (f && info_of(*f).written) return f;
  return std::nullopt;
}

/// Writes `p` in `f` to `out`; pprof gzip-compressed if `gzip`. Throws ccrc::error for what
/// the format cannot hold (see each writer) and for the formats that are read only (`perf
/// script`, Trace Event, V8, Gecko, callgrind).
/// O(size of the output).
inline void write_profile(std::ostream& out, const profile& p, profile_format f, bool gzip = false) {
  profile_writer write = formats::detail::writer_of(f);
  if (!write) throw error("ccrc does not write " + std::string(name_of(f)));
  write(out, p, gzip);
}

/// write_profile in the format `path`'s name asks for (writable_format; .pb.gz compressed).
/// Throws ccrc::error if the name asks for none.
inline void write_profile(std::ostream& out, const profile& p, const std::filesystem::path& path) {
  std::optional<profile_format> f = writable_format(path);
  if (!f) throw error("cannot tell the format to write from the name " + path.string());
  write_profile(out, p, *f, path.extension() == ".gz");
}

}  // namespace ccrc
