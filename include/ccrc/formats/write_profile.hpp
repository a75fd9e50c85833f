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

/// The format a file named `path` is written in: .cct, .cctb, folded stacks for .folded,
/// .collapsed and .txt, pprof for .pb.gz (gzip), .pb and .pprof (bare protobuf), speedscope
/// for .speedscope.json (speedscope's and the Firefox Profiler's importers open it); nullopt for
/// any other name (formats that are read but not written, such as `perf script`, included).
/// O(length of the name).
///
///     ccrc::writable_format("cpu.pb.gz");  // profile_format::pprof
[[nodiscard]] inline std::optional<profile_format> writable_format(const std::filesystem::path& path) {
  std::optional<profile_format> f = format_of_extension(path);
  using enum profile_format;
  if (f == cctb || f == cct || f == folded || f == pprof || f == speedscope) return f;
  return std::nullopt;
}

/// Writes `p` in `f` to `out`; pprof gzip-compressed if `gzip`. Throws ccrc::error for what
/// the format cannot hold (see each writer) and for the formats that are read only (`perf
/// script`, Trace Event, V8, Gecko, callgrind).
/// O(size of the output).
inline void write_profile(std::ostream& out, const profile& p, profile_format f, bool gzip = false) {
  switch (f) {
    case profile_format::cctb: write_cctb(out, p); return;
    case profile_format::cct: write_cct(out, p); return;
    case profile_format::folded: write_folded(out, p); return;
    case profile_format::pprof: write_pprof(out, p, {.gzip = gzip}); return;
    case profile_format::speedscope: write_speedscope(out, p); return;
    case profile_format::perf_script:
    case profile_format::trace_event:
    case profile_format::v8_profile:
    case profile_format::gecko:
    case profile_format::callgrind: break;
  }
  throw error("ccrc does not write " + std::string(name_of(f)));
}

/// write_profile in the format `path`'s name asks for (writable_format; .pb.gz compressed).
/// Throws ccrc::error if the name asks for none.
inline void write_profile(std::ostream& out, const profile& p, const std::filesystem::path& path) {
  std::optional<profile_format> f = writable_format(path);
  if (!f) throw error("cannot tell the format to write from the name " + path.string());
  write_profile(out, p, *f, path.extension() == ".gz");
}

}  // namespace ccrc
