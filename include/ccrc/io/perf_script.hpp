// ccrc - the text `perf script` prints after `perf record -g`: one sample header line, then
// its call chain leaf first, one frame per line, then a blank line.
#pragma once

#include <ccrc/detail/hash.hpp>
#include <ccrc/detail/line_reader.hpp>
#include <ccrc/detail/number_text.hpp>
#include <ccrc/detail/text.hpp>
#include <ccrc/error.hpp>
#include <ccrc/tree/profile.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

namespace ccrc {

/// Options of the `perf script` reader.
struct perf_script_options {
  /// A longer line is an error (it is refused as soon as this many bytes are seen).
  std::size_t max_line_bytes = std::size_t{64} << 20;
};

namespace detail {

[[nodiscard]] constexpr bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }

[[nodiscard]] constexpr bool is_hex_digit(char c) noexcept {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

[[nodiscard]] constexpr bool all_digits(std::string_view s) noexcept {
  return !s.empty() && std::all_of(s.begin(), s.end(), is_digit);
}

[[nodiscard]] constexpr bool all_hex_digits(std::string_view s) noexcept {
  return !s.empty() && std::all_of(s.begin(), s.end(), is_hex_digit);
}

// "2878.166159:" (seconds, as perf prints the sample time), or "2878:".
[[nodiscard]] constexpr bool is_perf_time(std::string_view t) noexcept {
  if (t.size() < 2 || t.back() != ':') return false;
  t.remove_suffix(1);
  std::size_t dot = t.find('.');
  if (dot == std::string_view::npos) return all_digits(t);
  return all_digits(t.substr(0, dot)) && all_digits(t.substr(dot + 1));
}

// "[001]", the cpu.
[[nodiscard]] constexpr bool is_perf_cpu(std::string_view t) noexcept {
  return t.size() >= 3 && t.front() == '[' && t.back() == ']' && all_digits(t.substr(1, t.size() - 2));
}

// "12936", "-1", or "12936/12937" (pid/tid).
[[nodiscard]] constexpr bool is_perf_id(std::string_view t) noexcept {
  auto number = [](std::string_view s) { return all_digits(s.substr(!s.empty() && s[0] == '-' ? 1 : 0)); };
  std::size_t slash = t.find('/');
  if (slash == std::string_view::npos) return number(t);
  return number(t.substr(0, slash)) && number(t.substr(slash + 1));
}

/// The fields of a sample header line, `comm [pid/]tid [[cpu]] [time:] [period] event:`;
/// `error` is null when the line is one.
struct perf_header {
  const char* error = nullptr;
  std::string_view comm;    ///< may contain blanks; empty if not printed
  std::string_view tid;     ///< the tid of pid/tid, or the one id printed; empty if none
  std::string_view period;  ///< digits, empty if not printed
  std::string_view event;   ///< without its final ':'
};

// The blank-separated words of a line, as offsets into it.
struct perf_token {
  std::size_t begin = 0, end = 0;
};

/// Splits a sample header. The event is the first word ending in ':' that is not a time
/// (event names may contain ':', as `cpu-clock:ppp:`); what follows it (a tracepoint's
/// fields, the ip of a sample without call chain) is ignored. Before it, read right to left:
/// a period (a number after the time, or, without a time, a number after another id), the
/// time, the cpu, the pid/tid; the comm is whatever precedes them. O(length).
[[nodiscard]] constexpr perf_header parse_perf_header(std::string_view line) noexcept {
  perf_header h;
  // The last words before the event: at most period, time, cpu, id and one comm word count.
  constexpr std::size_t keep = 6;
  perf_token before[keep] = {};
  std::size_t count = 0, first = std::string_view::npos;
  std::size_t time_at = std::string_view::npos;  // word index of the time, if any
  bool found = false;
  for (std::size_t i = 0; i < line.size();) {
    if (is_blank(line[i])) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < line.size() && !is_blank(line[j])) ++j;
    std::string_view word = line.substr(i, j - i);
    if (first == std::string_view::npos) first = i;
    if (word.back() == ':' && word.size() > 1 && !is_perf_time(word)) {
      h.event = word.substr(0, word.size() - 1);
      found = true;
      break;
    }
    if (time_at == std::string_view::npos && is_perf_time(word)) time_at = count;
    before[count % keep] = {i, j};
    ++count;
    i = j;
  }
  if (!found) {
    h.error = "malformed sample header: no event name ending in ':'";
    return h;
  }
  auto word = [&](std::size_t k) {
    return line.substr(before[k % keep].begin, before[k % keep].end - before[k % keep].begin);
  };
  // k: the number of words not yet assigned, counted from the left. At most five words from
  // the end are looked at (period, time, cpu, id, the comm's last), so `keep` of them do.
  std::size_t k = count;
  if (time_at != std::string_view::npos) {
    if (count - time_at > 2) {
      h.error = "malformed sample header: more than one word between the time and the event";
      return h;
    }
    if (count - time_at == 2) {
      if (!all_digits(word(count - 1))) {
        h.error = "malformed sample header: the period before the event is not a number";
        return h;
      }
      h.period = word(count - 1);
    }
    k = time_at;
  } else if (k >= 2 && all_digits(word(k - 1))) {
    std::string_view prev = word(k - 2);
    if (is_perf_cpu(prev) || (is_perf_id(prev) && (prev.find('/') != std::string_view::npos || k >= 3))) {
      h.period = word(k - 1);
      --k;
    }
  }
  if (k > 0 && is_perf_cpu(word(k - 1))) --k;
  if (k > 0 && is_perf_id(word(k - 1))) {
    std::string_view id = word(k - 1);
    h.tid = id.substr(id.find('/') == std::string_view::npos ? 0 : id.find('/') + 1);
    --k;
  }
  if (k > 0) h.comm = line.substr(first, before[(k - 1) % keep].end - first);
  if (h.comm.empty() && h.tid.empty()) h.error = "malformed sample header: no command name or thread id before the event";
  return h;
}

/// True if `start` (the first bytes of a file) reads as `perf script` output: the
/// `--header` block's first lines, or, after any '#' lines, a sample header followed by a
/// frame line (a blank, then a hex address). A folded line never ends in a word ending in
/// ':' nor is followed by an indented address, so the two are not confused. O(length).
[[nodiscard]] constexpr bool looks_like_perf_script(std::string_view start) noexcept {
  if (start.substr(0, 24) == "# ========\n# captured on") return true;
  std::size_t pos = 0;
  for (;;) {  // skip comment and blank lines
    std::size_t nl = start.find('\n', pos);
    if (nl == std::string_view::npos) return false;
    std::string_view line = start.substr(pos, nl - pos);
    bool blank = std::all_of(line.begin(), line.end(), [](char c) { return is_blank(c) || c == '\r'; });
    if (!blank && line.front() != '#') break;
    pos = nl + 1;
  }
  std::size_t nl = start.find('\n', pos);
  std::string_view header = start.substr(pos, nl - pos);
  if (header.back() == '\r') header.remove_suffix(1);
  if (header.front() == '\t' || parse_perf_header(header).error) return false;
  std::string_view next = start.substr(nl + 1);
  if (next.empty() || !is_blank(next.front())) return false;
  while (!next.empty() && is_blank(next.front())) next.remove_prefix(1);
  return !next.empty() && is_hex_digit(next.front());
}

// Parses `perf script` lines into a profile, one sample at a time.
class perf_script_parser {
 public:
  perf_script_parser() : profile_({"samples"}), values_(1, 1.0) {}

  void line(std::string_view s, std::uint64_t number) {
    number_ = number;
    while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
    if (s.empty()) return end_sample();
    if (s.front() == '#') return;  // the --header block, or a comment perf leaves in a record
    // Frames are indented; a header may be too (perf pads the comm), but only outside a sample.
    if (s.front() == '\t' || (s.front() == ' ' && in_sample_)) return frame(s);
    end_sample();
    header(s);
  }

  profile finish() {
    end_sample();
    profile_.shrink_to_fit();
    return std::move(profile_);
  }

 private:
  [[noreturn]] void fail(const std::string& reason) const { throw parse_error(number_, reason); }

  void header(std::string_view s) {
    perf_header h = parse_perf_header(s);
    if (h.error) fail(h.error);
    name_.assign(h.comm);
    if (!h.comm.empty() && !h.tid.empty()) name_ += ' ';
    name_ += h.tid;
    stack_.clear();
    stack_.push_back(frame_of(name_));
    values_[0] = 1;
    if (!h.period.empty()) {
      if (!profile_.find_metric("period")) {
        profile_.add_metric("period");
        values_.resize(2);
      }
      number_status st = parse_number(h.period, false, values_[1]);
      if (st != number_status::ok) fail("period '" + std::string(h.period.substr(0, 40)) + "' " + describe(st));
    } else if (values_.size() == 2) {
      values_[1] = 0;  // a sample that prints no period adds none
    }
    in_sample_ = true;
  }

  // "\t    55d4c3a0113d compute+0x2f (/tmp/spin)": address, symbol[+offset], (dso).
  void frame(std::string_view s) {
    if (!in_sample_) fail("frame line outside a sample (no sample header line before it)");
    while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
    // A frame line's bytes tell its frame, and lines repeat (a thread's outer frames, sample
    // after sample): a line seen before costs a hash and a compare, not a parse and a lookup.
    const std::uint64_t h = hash_bytes(s);
    seen_line& seen = seen_lines_[h & (seen_lines_.size() - 1)];
    if (seen.hash == h && seen.frame != null_frame && seen.text == s) {
      stack_.push_back(seen.frame);
      return;
    }
    std::size_t space = s.find_first_of(" \t");
    std::string_view address = s.substr(0, space);
    if (!all_hex_digits(address))
      fail("frame line: '" + std::string(address.substr(0, 40)) + "' is not a hexadecimal address");
    std::string_view rest = space == std::string_view::npos ? std::string_view{} : s.substr(space);
    while (!rest.empty() && is_blank(rest.front())) rest.remove_prefix(1);
    std::string_view symbol = rest, dso;
    if (std::size_t open = dso_open(rest); open != std::string_view::npos) {
      dso = rest.substr(open + 1, rest.size() - open - 2);
      symbol = rest.substr(0, open);
      while (!symbol.empty() && is_blank(symbol.back())) symbol.remove_suffix(1);
    }
    const frame_id f = frame_of(frame_name(address, strip_offset(symbol), dso));
    stack_.push_back(f);
    seen.hash = h;
    seen.frame = f;
    seen.text.assign(s);
  }

  // Where the dso's '(' is in "compute+0x1d (/opt/app/prog (deleted))": the one that closes
  // the ')' at the end, parentheses inside counted (a replaced binary's "(deleted)", JIT's
  // "(/memfd:doublemapper (deleted))"), at the start or after a blank; npos for none.
  static std::size_t dso_open(std::string_view rest) {
    if (rest.empty() || rest.back() != ')') return std::string_view::npos;
    std::size_t depth = 0;
    for (std::size_t i = rest.size(); i-- > 0;) {
      if (rest[i] == ')') {
        ++depth;
      } else if (rest[i] == '(' && --depth == 0) {
        return i == 0 || is_blank(rest[i - 1]) ? i : std::string_view::npos;
      }
    }
    return std::string_view::npos;
  }

  // "compute+0x2f" -> "compute": the offset varies from sample to sample within a function.
  static std::string_view strip_offset(std::string_view symbol) {
    std::size_t plus = symbol.rfind("+0x");
    if (plus != std::string_view::npos && plus > 0 && all_hex_digits(symbol.substr(plus + 3)))
      symbol = symbol.substr(0, plus);
    return symbol;
  }

  // The symbol as perf prints it; an unknown one keeps its dso, which is all that tells two
  // apart; with neither symbol nor dso (`-F ip`), the address.
  std::string_view frame_name(std::string_view address, std::string_view symbol, std::string_view dso) {
    if (!symbol.empty() && symbol != "[unknown]") return symbol;
    if (symbol.empty() && dso.empty()) return address;
    name_.assign("[unknown]");
    if (!dso.empty()) name_.append(" (").append(dso).append(")");
    return name_;
  }

  frame_id frame_of(std::string_view name) {
    if (auto f = profile_.symbols().find(name)) return *f;
    if (const char* why = check_name_text(name)) fail("frame name " + std::string(why) + " (binary data?)");
    return profile_.intern(name);
  }

  // Adds the sample: its thread frame, then its frames outermost first. The frames it shares
  // from the root with the previous sample (consecutive samples of a thread mostly share
  // their outer frames) take that sample's contexts instead of a child lookup each.
  void end_sample() {
    if (!in_sample_) return;
    in_sample_ = false;
    std::reverse(stack_.begin() + 1, stack_.end());
    std::size_t shared = 0;
    while (shared < stack_.size() && shared < previous_.size() && stack_[shared] == previous_[shared]) ++shared;
    contexts_.resize(shared);
    node_id n = shared ? contexts_.back() : root_node;
    for (std::size_t i = shared; i < stack_.size(); ++i) contexts_.push_back(n = profile_.find_or_add_child(n, stack_[i]));
    previous_.swap(stack_);  // stack_ is refilled by the next header
    profile_.add(n, values_);
  }

  profile profile_;
  std::vector<double> values_;     // samples (1), then period if the profile has it
  std::vector<frame_id> stack_;    // thread frame, then the sample's frames leaf first
  std::vector<frame_id> previous_;  // the previous sample's, outermost first
  std::vector<node_id> contexts_;   // and their contexts
  std::string name_;               // scratch for built names
  struct seen_line {
    std::uint64_t hash = 0;
    frame_id frame = null_frame;
    std::string text;  // after its indent
  };
  std::vector<seen_line> seen_lines_ = std::vector<seen_line>(4096);  // direct-mapped by hash
  bool in_sample_ = false;
  std::uint64_t number_ = 0;
};

template <class Read>
profile read_perf_script_from(Read&& read, const perf_script_options& options) {
  perf_script_parser parser;
  for_each_line(read, options.max_line_bytes,
                [&](std::string_view line, std::uint64_t number) { parser.line(line, number); });
  return parser.finish();
}

}  // namespace detail

/// Reads the text `perf script` prints for a `perf record -g` recording, with or without
/// `--header`, pid, cpu, time and period: each sample is a header line
/// `comm [pid/]tid [[cpu]] [time:] [period] event:` followed by its frames leaf first,
/// `addr symbol+0xoff (dso)`, and a blank line.
///
/// - Tree: every sample's stack, outermost frame first, under one frame naming its thread,
///   `comm tid` (`spin 12936`; the comm or the id alone when only one is printed), so threads
///   stay apart and a stack seen twice adds up.
/// - Frames: the symbol as perf prints it (demangled by default), `+0x..` offset stripped; the
///   dso is not part of the name, except for `[unknown]`, named `[unknown] (dso)` with the dso
///   as printed (`[unknown] ([unknown])`, `[unknown] (/usr/lib/libc.so.6)`); a frame with no
///   symbol nor dso is named by its address. The dso is the parenthesis that closes the line,
///   matched from the end with those inside it: a replaced binary's `compute+0x1d
///   (/opt/app/prog (deleted))` is `compute`. A UTF-8 byte-order mark at the start is skipped.
/// - Metrics: `samples` (1 per sample) and, if any header prints one, `period`, the sum of
///   the periods (a sample printing none adds 0). Events are not told apart. A sample with no
///   frame lines counts on its thread frame. Empty input: an empty profile, metric `samples`.
/// - Lines starting with '#' are skipped; errors throw ccrc::parse_error naming the line: a
///   header without an event name ending in ':' or without a comm or thread id, a period that
///   is not a number, a frame line before any header or whose first word is not a hex address,
///   a name with control characters or invalid UTF-8, a line over max_line_bytes.
///
/// O(bytes), one pass, memory O(tree + longest line + deepest stack).
///
///     ccrc::profile p = ccrc::read_perf_script(
///         "a.out 7 1.5: 100 cycles:\n\t4005d0 f+0x10 (a.out)\n\t4005f0 main+0x8 (a.out)\n");
///     // path "a.out 7;main;f": samples 1, period 100
[[nodiscard]] inline profile read_perf_script(std::string_view text, const perf_script_options& options = {}) {
  return detail::read_perf_script_from(detail::memory_source{text}, options);
}

/// read_perf_script from a stream.
[[nodiscard]] inline profile read_perf_script(std::istream& in, const perf_script_options& options = {}) {
  return detail::read_perf_script_from(detail::stream_source{&in}, options);
}

/// read_perf_script from a file; throws ccrc::error if it cannot be opened or shrinks
/// while it is read (detail::file_source).
[[nodiscard]] inline profile read_perf_script_file(const std::filesystem::path& path, const perf_script_options& options = {}) {
  return detail::read_perf_script_from(detail::file_source(path), options);
}

}  // namespace ccrc
