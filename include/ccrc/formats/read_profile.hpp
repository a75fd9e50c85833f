// ccrc - reading a profile in any format ccrc knows, gzip or not, the format told by the content.
#pragma once

#include <ccrc/error.hpp>
#include <ccrc/formats/gzip.hpp>
#include <ccrc/formats/pprof.hpp>
#include <ccrc/io/read_profile.hpp>
#include <ccrc/tree/profile.hpp>

#include <charconv>
#include <cstddef>
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
};

/// The name of a format, as `ccrc stats` prints it.
[[nodiscard]] constexpr std::string_view name_of(format f) noexcept {
  switch (f) {
    case format::folded: return "folded stacks";
    case format::cct: return "ccrc .cct";
    case format::cctb: return "ccrc .cctb";
    case format::perf_script: return "perf script";
    case format::pprof: return "pprof";
  }
  return "?";
}

/// Options of formats::read_profile.
struct read_options {
  /// Empty: every profile of a file that holds several (threads, processes, the profiles of
  /// one file), each under a top-level frame named after it. Otherwise the one whose frame has
  /// this name, or, if none has, the one at this 0-based index: its contexts become top-level.
  std::string profile;
};

/// A profile as read, with what was found out about the file.
struct read_result {
  ccrc::profile profile;
  format detected = format::folded;
  bool gzip = false;  ///< the file was gzip-compressed
  /// The names of the profiles a multi-profile format's file holds (the top-level frames it
  /// put them under), in order; empty for a format that holds one.
  std::vector<std::string> profiles;
};

namespace detail {

// True for the formats whose readers put each thread or profile under its own top-level frame.
[[nodiscard]] constexpr bool holds_profiles(format f) noexcept { return f == format::perf_script; }

[[nodiscard]] constexpr format of_core(profile_format f) noexcept {
  switch (f) {
    case profile_format::cct: return format::cct;
    case profile_format::cctb: return format::cctb;
    case profile_format::perf_script: return format::perf_script;
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

// The profile of an uncompressed `read`, whose first bytes `start` were already taken from it.
template <class Read>
read_result read_plain(std::string_view start, Read&& read) {
  if (looks_like_pprof(start)) {
    std::string message(start);
    append_all(message, read);
    return {read_pprof(message), format::pprof, false, {}};
  }
  profile_format core = detect_format(start);
  return {ccrc::detail::read_detected(core, start, read), of_core(core), false, {}};
}

// The profile `read` gives, gzip or not, whose first bytes `start` were already taken from it.
template <class Read>
read_result read_any(std::string_view start, Read&& read, const read_options& options) {
  read_result r;
  if (is_gzip(start)) {
    ccrc::detail::prefixed_source<Read&> packed{{start}, read};
    gzip_source<decltype(packed)&> unpacked(packed);
    char inner[format_detection_bytes];
    r = read_plain(ccrc::detail::read_start(unpacked, inner), unpacked);
    r.gzip = true;
  } else {
    r = read_plain(start, read);
  }
  pick_profile(r, options);
  return r;
}

}  // namespace detail

/// Reads a profile in any format ccrc knows, from its content whatever the file's name, gzip-
/// compressed or not (a .gz file is inflated as it is read). Formats: folded stacks, .cct,
/// .cctb, `perf script` text, pprof (read whole: protocol buffers are not streamed). A file of several profiles (perf script's threads) gives them
/// all, each under a top-level frame named after it, or, with read_options::profile, the
/// one picked. Throws ccrc::parse_error for malformed content (a truncated gzip stream
/// included) and ccrc::error if the file cannot be read or the picked profile is not in it.
/// O(bytes).
///
///     ccrc::formats::read_result r = ccrc::formats::read_profile("perf.script.gz");
///     // r.detected == format::perf_script, r.gzip, r.profiles: {"spin 12936", ...}
[[nodiscard]] inline read_result read_profile(const std::filesystem::path& path, const read_options& options = {}) {
  read_result r;
  std::optional<profile_format> named = format_of_extension(path);
  if (named && *named != profile_format::folded) {
    // A file named .cct, .cctb or .perf is that format, or an error (ccrc::read_profile's rule).
    r = {ccrc::read_profile(path), detail::of_core(*named), false, {}};
  } else {
    auto file = ccrc::detail::open_for_reading(path);
    ccrc::detail::file_source source{file.get()};
    char start[format_detection_bytes];
    std::string_view first = ccrc::detail::read_start(source, start);
    std::error_code ec;
    if (detect_format(first) != profile_format::cctb || !std::filesystem::is_regular_file(path, ec))
      return detail::read_any(first, source, options);
    r = {read_cctb_file(path), format::cctb, false, {}};  // read in place rather than through a pipe
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
