// ccrc - regex: a bounded regular-expression matcher for searching method names.
#pragma once

#include <ccrc/error.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace ccrc {

/// Options of a ccrc::regex.
struct regex_options {
  bool ignore_case = false;  ///< ASCII letters match either case; other characters as written
};

namespace detail {

/// One step of the compiled automaton (a Thompson NFA laid out in a vector).
enum class regex_op : std::uint8_t {
  literal,            ///< consumes the code point `arg`
  set,                ///< consumes a code point of character set number `arg`
  split,              ///< continues at both `out` and `out1`
  empty,              ///< continues at `out`
  line_begin,         ///< continues if at the start of the text
  line_end,           ///< continues if at the end of the text
  word_boundary,      ///< continues between a word character and a non-word one (\b)
  not_word_boundary,  ///< continues elsewhere (\B)
  match,              ///< the pattern matched
};

inline constexpr std::uint32_t regex_hole = 0xffffffffu;  // an exit not yet connected

struct regex_step {
  regex_op op;
  std::uint32_t arg = 0;
  std::uint32_t out = regex_hole;
  std::uint32_t out1 = regex_hole;
};

// Text and pattern are read as UTF-8 code points; a byte that does not start a valid sequence
// is a unit of its own, 0x110000 + byte, so that invalid input still matches itself and `.`.
inline constexpr std::uint32_t regex_max_unit = 0x110000u + 0xffu;

inline std::uint32_t next_unit(std::string_view s, std::size_t& pos) noexcept {
  auto b0 = static_cast<unsigned char>(s[pos]);
  if (b0 < 0x80) {
    ++pos;
    return b0;
  }
  std::size_t len = (b0 & 0xe0u) == 0xc0u ? 2 : (b0 & 0xf0u) == 0xe0u ? 3 : (b0 & 0xf8u) == 0xf0u ? 4 : 0;
  std::uint32_t cp = len == 2 ? b0 & 0x1fu : len == 3 ? b0 & 0x0fu : b0 & 0x07u;
  bool valid = len != 0 && pos + len <= s.size();
  for (std::size_t k = 1; valid && k < len; ++k) {
    auto b = static_cast<unsigned char>(s[pos + k]);
    valid = (b & 0xc0u) == 0x80u;
    cp = cp << 6 | (b & 0x3fu);
  }
  std::uint32_t least = len == 2 ? 0x80u : len == 3 ? 0x800u : 0x10000u;
  if (!valid || cp < least || cp > 0x10ffffu || (cp >= 0xd800u && cp <= 0xdfffu)) {
    ++pos;
    return 0x110000u + b0;
  }
  pos += len;
  return cp;
}

inline bool regex_word(std::uint32_t c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

using regex_range = std::pair<std::uint32_t, std::uint32_t>;  // inclusive bounds

/// Sorts and merges `r`, adds the other case of ASCII letters if asked, then complements it
/// over every unit if `negated` (after case folding, as ECMAScript does: [^a] with i rejects A).
inline std::vector<regex_range> normalize_set(std::vector<regex_range> r, bool ignore_case, bool negated) {
  if (ignore_case) {
    std::size_t n = r.size();
    for (std::size_t i = 0; i < n; ++i) {
      for (auto [lo, hi, shift] : {std::tuple{std::uint32_t{'a'}, std::uint32_t{'z'}, -32},
                                   std::tuple{std::uint32_t{'A'}, std::uint32_t{'Z'}, 32}}) {
        std::uint32_t a = std::max(r[i].first, lo), b = std::min(r[i].second, hi);
        if (a <= b)
          r.emplace_back(static_cast<std::uint32_t>(static_cast<int>(a) + shift),
                         static_cast<std::uint32_t>(static_cast<int>(b) + shift));
      }
    }
  }
  std::sort(r.begin(), r.end());
  std::vector<regex_range> merged;
  for (const auto& x : r) {
    if (!merged.empty() && x.first <= merged.back().second + 1)
      merged.back().second = std::max(merged.back().second, x.second);
    else
      merged.push_back(x);
  }
  if (!negated) return merged;
  std::vector<regex_range> out;
  std::uint32_t next = 0;  // the first unit not yet covered
  for (const auto& x : merged) {
    if (x.first > next) out.emplace_back(next, x.first - 1);
    next = x.second + 1;
  }
  if (next <= regex_max_unit) out.emplace_back(next, regex_max_unit);
  return out;
}

}  // namespace detail

/// A compiled regular expression, matched without backtracking and without recursion: a
/// Thompson automaton simulated one state set at a time, so matching a text of n characters
/// costs O(pattern size x n) time and O(pattern size) memory whatever the pattern, and no
/// input can overflow the stack (std::regex of libstdc++ recurses once per character).
///
/// The syntax is the part of ECMAScript regular expressions a search box needs:
/// - literals; `.` (any character but \n, \r, U+2028, U+2029); `[abc]`, `[a-z]`, `[^...]`
///   (`[]` matches nothing, `[^]` anything); `\d \w \s \D \W \S` (ASCII: [0-9], [A-Za-z0-9_],
///   [ \t\n\v\f\r]); `\b \B` word boundaries; escapes `\. \( \\` (any punctuation), `\n \r \t
///   \f \v \0 \xHH \uHHHH`;
/// - anchors `^` and `$` (start and end of the text); groups `( )` and `(?: )`; `|`;
/// - quantifiers `* + ?`, `{m}`, `{m,}`, `{m,n}` (m, n <= 1000) and their lazy forms `*?` etc.,
///   which give the same answer, as only whether a match exists is asked.
/// Backreferences, lookaround, named groups and other escapes are refused, and so is a pattern
/// whose repetitions expand beyond 20000 steps. The text and the pattern are read as UTF-8:
/// `.` and a class match one code point (a byte outside valid UTF-8 is a character of its
/// own). ignore_case folds ASCII letters only.
///
///     ccrc::regex re("^java\\.util\\.(Hash|Tree)Map", {.ignore_case = true});
///     bool hit = re.search("java.util.HashMap.get(Object)");  // true
class regex {
 public:
  /// The largest repetition count accepted in {m,n}.
  static constexpr std::uint32_t max_repeat = 1000;
  /// The largest automaton accepted, in steps (a literal is one step; x{3} is three times x).
  static constexpr std::size_t max_steps = 20000;

  /// Compiles `pattern`. O(pattern size after expanding {m,n}). Throws ccrc::error "invalid
  /// regular expression 'P': reason (at offset N)", N the byte offset in the pattern.
  explicit regex(std::string_view pattern, regex_options options = {})
      : pattern_(pattern), ignore_case_(options.ignore_case) {
    compile();
  }

  /// Whether the pattern matches somewhere in `text`, as std::regex_search answers.
  /// O(steps x characters of text) time; allocates O(steps).
  [[nodiscard]] bool search(std::string_view text) const {
    std::size_t n = steps_.size();
    std::vector<std::size_t> seen(n, 0);  // position + 1 at which a step was last added
    std::vector<std::uint32_t> current, next, stack;
    current.reserve(n);
    next.reserve(n);
    stack.reserve(n);
    std::uint32_t before = regex_none;  // the unit before the position (none at the start)
    for (std::size_t pos = 0;;) {
      std::size_t after_pos = pos;
      std::uint32_t unit = pos < text.size() ? detail::next_unit(text, after_pos) : regex_none;
      if (add(current, start_, pos, text.size(), before, unit, seen, stack)) return true;
      if (pos == text.size()) return false;
      next.clear();
      std::size_t peek = after_pos;
      std::uint32_t following = after_pos < text.size() ? detail::next_unit(text, peek) : regex_none;
      for (std::uint32_t s : current) {
        const detail::regex_step& st = steps_[s];
        if (st.op == detail::regex_op::literal ? st.arg == unit : in_set(st.arg, unit))
          if (add(next, st.out, after_pos, text.size(), unit, following, seen, stack)) return true;
      }
      std::swap(current, next);
      before = unit;
      pos = after_pos;
    }
  }

  /// The pattern as given.
  [[nodiscard]] const std::string& pattern() const noexcept { return pattern_; }

 private:
  static constexpr std::uint32_t regex_none = 0xffffffffu;  // no character (an end of the text)

  // A piece of automaton under construction: its entry, its first step (its steps are
  // first..end, contiguous, as everything built since it began belongs to it) and its exits.
  struct fragment {
    std::uint32_t start;
    std::uint32_t first;
    std::vector<std::uint32_t> holes;  // step * 2 + (0: out, 1: out1)
  };

  // One open group: the alternatives already closed and the sequence being built.
  struct group {
    std::vector<fragment> alternatives;
    std::optional<fragment> sequence;
    std::uint32_t first;
    std::size_t open;  // offset of its '(' (for "missing ')'")
  };

  [[noreturn]] void fail(const std::string& reason, std::size_t offset) const {
    throw error("invalid regular expression '" + pattern_ + "': " + reason + " (at offset " +
                std::to_string(offset) + ")");
  }

  std::uint32_t emit(detail::regex_op op, std::size_t offset, std::uint32_t arg = 0) {
    if (steps_.size() >= max_steps)
      fail("pattern too large: more than " + std::to_string(max_steps) + " steps once repetitions are expanded", offset);
    steps_.push_back({op, arg});
    return static_cast<std::uint32_t>(steps_.size() - 1);
  }

  fragment single(detail::regex_op op, std::size_t offset, std::uint32_t arg = 0) {
    std::uint32_t s = emit(op, offset, arg);
    return {s, s, {s * 2}};
  }

  void patch(const std::vector<std::uint32_t>& holes, std::uint32_t target) {
    for (std::uint32_t h : holes) (h % 2 == 0 ? steps_[h / 2].out : steps_[h / 2].out1) = target;
  }

  fragment concat(fragment a, fragment b) {
    patch(a.holes, b.start);
    return {a.start, a.first, std::move(b.holes)};
  }

  fragment loop(fragment f, bool at_least_once, std::size_t offset) {  // f* or f+
    std::uint32_t s = emit(detail::regex_op::split, offset);
    steps_[s].out = f.start;
    patch(f.holes, s);
    return {at_least_once ? f.start : s, f.first, {s * 2 + 1}};
  }

  fragment optional(fragment f, std::size_t offset) {  // f?
    std::uint32_t s = emit(detail::regex_op::split, offset);
    steps_[s].out = f.start;
    f.holes.push_back(s * 2 + 1);
    return {s, f.first, std::move(f.holes)};
  }

  // f{min,max} (max == regex_none: unbounded): copies of f's steps, chained.
  fragment repeat(fragment f, std::uint32_t min, std::uint32_t max, std::size_t offset) {
    if (max == 0) return single(detail::regex_op::empty, offset);  // f's steps stay, unreachable
    if (min == 0 && max == regex_none) return loop(std::move(f), false, offset);
    std::uint32_t copies = max == regex_none ? min : max;
    auto length = static_cast<std::uint32_t>(steps_.size() - f.first);
    if (steps_.size() + std::uint64_t{copies - 1} * length + copies > max_steps)
      fail("pattern too large: more than " + std::to_string(max_steps) + " steps once repetitions are expanded", offset);
    std::vector<fragment> parts{f};
    for (std::uint32_t c = 1; c < copies; ++c) {
      auto shift = static_cast<std::uint32_t>(steps_.size() - f.first);
      for (std::uint32_t i = 0; i < length; ++i) {
        detail::regex_step st = steps_[f.first + i];
        if (st.out != detail::regex_hole) st.out += shift;
        if (st.out1 != detail::regex_hole) st.out1 += shift;
        steps_.push_back(st);
      }
      fragment copy{f.start + shift, f.first + shift, f.holes};
      for (std::uint32_t& h : copy.holes) h += 2 * shift;
      parts.push_back(std::move(copy));
    }
    for (std::uint32_t c = 0; c < copies; ++c) {
      if (max == regex_none && c + 1 == copies)
        parts[c] = loop(std::move(parts[c]), true, offset);
      else if (c >= min)
        parts[c] = optional(std::move(parts[c]), offset);
    }
    fragment out = std::move(parts[0]);
    for (std::uint32_t c = 1; c < copies; ++c) out = concat(std::move(out), std::move(parts[c]));
    out.first = f.first;
    return out;
  }

  // The alternatives of a group joined by a chain of splits.
  fragment alternate(group& g, std::size_t offset) {
    if (!g.sequence) g.sequence = single(detail::regex_op::empty, offset);
    g.alternatives.push_back(std::move(*g.sequence));
    fragment out = std::move(g.alternatives.back());
    for (std::size_t i = g.alternatives.size() - 1; i-- > 0;) {
      std::uint32_t s = emit(detail::regex_op::split, offset);
      steps_[s].out = g.alternatives[i].start;
      steps_[s].out1 = out.start;
      out.holes.insert(out.holes.end(), g.alternatives[i].holes.begin(), g.alternatives[i].holes.end());
      out.start = s;
    }
    out.first = g.first;
    return out;
  }

  std::uint32_t add_set(std::vector<detail::regex_range> ranges, bool negated) {
    ranges = detail::normalize_set(std::move(ranges), ignore_case_, negated);
    auto index = static_cast<std::uint32_t>(set_begin_.size() - 1);
    ranges_.insert(ranges_.end(), ranges.begin(), ranges.end());
    set_begin_.push_back(static_cast<std::uint32_t>(ranges_.size()));
    return index;
  }

  [[nodiscard]] bool in_set(std::uint32_t set, std::uint32_t unit) const noexcept {
    auto first = ranges_.begin() + static_cast<std::ptrdiff_t>(set_begin_[set]);
    auto last = ranges_.begin() + static_cast<std::ptrdiff_t>(set_begin_[set + 1]);
    auto it = std::upper_bound(first, last, unit, [](std::uint32_t u, const detail::regex_range& r) { return u < r.first; });
    return it != first && std::prev(it)->second >= unit;
  }

  // The ranges of \d \w \s (their complement if the letter is upper case); false for others.
  static bool class_escape(char c, std::vector<detail::regex_range>& out) {
    std::vector<detail::regex_range> r;
    switch (c | 0x20) {
      case 'd': r = {{'0', '9'}}; break;
      case 'w': r = {{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}}; break;
      case 's': r = {{'\t', '\r'}, {' ', ' '}}; break;
      default: return false;
    }
    if (c >= 'A' && c <= 'Z') r = detail::normalize_set(std::move(r), false, true);
    out.insert(out.end(), r.begin(), r.end());
    return true;
  }

  std::uint32_t hex(std::size_t& i, std::size_t digits, std::size_t at) const {
    std::uint32_t v = 0;
    for (std::size_t k = 0; k < digits; ++k, ++i) {
      char c = i < pattern_.size() ? pattern_[i] : '\0';
      int d = c >= '0' && c <= '9' ? c - '0' : (c | 0x20) >= 'a' && (c | 0x20) <= 'f' ? (c | 0x20) - 'a' + 10 : -1;
      if (d < 0) fail("\\" + std::string(1, pattern_[at + 1]) + " expects " + std::to_string(digits) + " hex digits", at);
      v = v * 16 + static_cast<std::uint32_t>(d);
    }
    return v;
  }

  // The escape at pattern_[i] == '\\' standing for one character; i moves past it. Class
  // escapes and assertions are handled by the callers before.
  std::uint32_t escaped_character(std::size_t& i, bool in_class) const {
    std::size_t at = i++;
    if (i >= pattern_.size()) fail("trailing backslash", at);
    char c = pattern_[i];
    switch (c) {
      case 'n': ++i; return '\n';
      case 'r': ++i; return '\r';
      case 't': ++i; return '\t';
      case 'f': ++i; return '\f';
      case 'v': ++i; return '\v';
      case 'x': ++i; return hex(i, 2, at);
      case 'u': ++i; return hex(i, 4, at);
      case '0':
        if (i + 1 < pattern_.size() && pattern_[i + 1] >= '0' && pattern_[i + 1] <= '9')
          fail("octal escapes are not supported", at);
        ++i;
        return 0;
      default: break;
    }
    if (in_class && c == 'b') {  // [\b] is a backspace in ECMAScript
      ++i;
      return '\b';
    }
    if ((c >= '1' && c <= '9') || c == 'k') fail("backreferences are not supported", at);
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
      fail("unknown escape '\\" + std::string(1, c) + "'", at);
    return detail::next_unit(pattern_, i);  // \. \( \\ and any other punctuation: itself
  }

  // A class [...] at pattern_[i] == '['; i moves past its ']'.
  std::uint32_t character_class(std::size_t& i) {
    std::size_t open = i++;
    bool negated = i < pattern_.size() && pattern_[i] == '^';
    if (negated) ++i;
    std::vector<detail::regex_range> ranges;
    // One member: a character, or (false) the ranges of a class escape added to `ranges`.
    auto member = [&](std::uint32_t& c) {
      if (pattern_[i] == '\\' && i + 1 < pattern_.size() && class_escape(pattern_[i + 1], ranges)) {
        i += 2;
        return false;
      }
      c = pattern_[i] == '\\' ? escaped_character(i, true) : detail::next_unit(pattern_, i);
      return true;
    };
    for (;;) {
      if (i >= pattern_.size()) fail("missing ']'", open);
      if (pattern_[i] == ']') {
        ++i;
        break;
      }
      std::size_t at = i;
      std::uint32_t lo = 0, hi = 0;
      bool single = member(lo);
      if (i + 1 < pattern_.size() && pattern_[i] == '-' && pattern_[i + 1] != ']') {
        ++i;
        if (!single || !member(hi)) fail("a range cannot start or end with a class escape", at);
        if (hi < lo) fail("range out of order '" + pattern_.substr(at, i - at) + "'", at);
        ranges.emplace_back(lo, hi);
      } else if (single) {
        ranges.emplace_back(lo, lo);
      }
    }
    return add_set(std::move(ranges), negated);
  }

  // {m}, {m,} or {m,n} at pattern_[i] == '{'; i moves past it. max == regex_none: unbounded.
  std::pair<std::uint32_t, std::uint32_t> counts(std::size_t& i) const {
    std::size_t open = i++;
    auto number = [&]() -> std::optional<std::uint32_t> {
      std::size_t from = i;
      std::uint32_t v = 0;
      while (i < pattern_.size() && pattern_[i] >= '0' && pattern_[i] <= '9') {
        v = std::min<std::uint32_t>(v * 10 + static_cast<std::uint32_t>(pattern_[i] - '0'), max_repeat + 1);
        ++i;
      }
      if (i == from) return std::nullopt;
      if (v > max_repeat) fail("repetition count above " + std::to_string(max_repeat), from);
      return v;
    };
    const char* bad = "'{' not followed by a repetition count {m}, {m,} or {m,n} (write \\{ for a brace)";
    std::optional<std::uint32_t> min = number();
    if (!min) fail(bad, open);
    std::uint32_t max = *min;
    if (i < pattern_.size() && pattern_[i] == ',') {
      ++i;
      std::optional<std::uint32_t> m = number();
      max = m ? *m : regex_none;
    }
    if (i >= pattern_.size() || pattern_[i] != '}') fail(bad, open);
    ++i;
    if (max < *min) fail("repetition range out of order", open);
    return {*min, max};
  }

  void compile() {
    set_begin_.push_back(0);
    std::vector<group> groups(1, group{{}, std::nullopt, 0, 0});
    std::optional<fragment> last;  // the atom a quantifier would apply to
    auto flush = [&] {
      if (!last) return;
      std::optional<fragment>& seq = groups.back().sequence;
      seq = seq ? concat(std::move(*seq), std::move(*last)) : std::move(*last);
      last.reset();
    };
    auto atom = [&](fragment f) {
      flush();
      last = std::move(f);
    };
    auto assertion = [&](detail::regex_op op, std::size_t at) {  // not quantifiable
      atom(single(op, at));
      flush();
    };
    const std::string& p = pattern_;
    for (std::size_t i = 0; i < p.size();) {
      std::size_t at = i;
      char c = p[i];
      if (c == '(') {
        flush();
        if (p.compare(i, 3, "(?:") == 0) {
          i += 3;
        } else if (p.compare(i, 3, "(?=") == 0 || p.compare(i, 3, "(?!") == 0) {
          fail("lookahead assertions are not supported", at);
        } else if (p.compare(i, 4, "(?<=") == 0 || p.compare(i, 4, "(?<!") == 0) {
          fail("lookbehind assertions are not supported", at);
        } else if (p.compare(i, 2, "(?") == 0) {
          fail("unsupported group '(?" + (i + 2 < p.size() ? std::string(1, p[i + 2]) : "") + "'", at);
        } else {
          ++i;
        }
        groups.push_back({{}, std::nullopt, static_cast<std::uint32_t>(steps_.size()), at});
      } else if (c == ')') {
        if (groups.size() == 1) fail("unmatched ')'", at);
        flush();
        fragment g = alternate(groups.back(), at);
        groups.pop_back();
        last = std::move(g);
        ++i;
      } else if (c == '|') {
        flush();
        group& g = groups.back();
        g.alternatives.push_back(g.sequence ? std::move(*g.sequence) : single(detail::regex_op::empty, at));
        g.sequence.reset();
        ++i;
      } else if (c == '*' || c == '+' || c == '?' || c == '{') {
        if (!last) fail("nothing to repeat", at);
        if (c == '{') {
          auto [min, max] = counts(i);
          last = repeat(std::move(*last), min, max, at);
        } else {
          ++i;
          last = c == '?' ? optional(std::move(*last), at) : loop(std::move(*last), c == '+', at);
        }
        if (i < p.size() && p[i] == '?') ++i;  // lazy: the same answer to "is there a match"
        flush();
      } else if (c == '^' || c == '$') {
        assertion(c == '^' ? detail::regex_op::line_begin : detail::regex_op::line_end, at);
        ++i;
      } else if (c == '.') {
        atom(single(detail::regex_op::set, at, add_set({{'\n', '\n'}, {'\r', '\r'}, {0x2028, 0x2029}}, true)));
        ++i;
      } else if (c == '[') {
        std::uint32_t set = character_class(i);
        atom(single(detail::regex_op::set, at, set));
      } else if (c == '\\' && i + 1 < p.size() && (p[i + 1] == 'b' || p[i + 1] == 'B')) {
        assertion(p[i + 1] == 'b' ? detail::regex_op::word_boundary : detail::regex_op::not_word_boundary, at);
        i += 2;
      } else {
        std::vector<detail::regex_range> ranges;
        if (c == '\\' && i + 1 < p.size() && class_escape(p[i + 1], ranges)) {
          i += 2;
          atom(single(detail::regex_op::set, at, add_set(std::move(ranges), false)));
          continue;
        }
        std::uint32_t u = c == '\\' ? escaped_character(i, false) : detail::next_unit(p, i);
        bool letter = (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z');
        atom(ignore_case_ && letter ? single(detail::regex_op::set, at, add_set({{u, u}}, false))
                                    : single(detail::regex_op::literal, at, u));
      }
    }
    if (groups.size() > 1) fail("missing ')'", groups.back().open);
    flush();
    fragment whole = alternate(groups.back(), p.size());
    patch(whole.holes, emit(detail::regex_op::match, p.size()));
    start_ = whole.start;
  }

  // Adds step s and every step reachable from it without consuming a character to `list`,
  // at byte position pos between the units `before` and `unit`. True if the match is reached.
  bool add(std::vector<std::uint32_t>& list, std::uint32_t s, std::size_t pos, std::size_t size,
           std::uint32_t before, std::uint32_t unit, std::vector<std::size_t>& seen,
           std::vector<std::uint32_t>& stack) const {
    if (seen[s] == pos + 1) return false;
    seen[s] = pos + 1;
    if (steps_[s].op == detail::regex_op::literal || steps_[s].op == detail::regex_op::set) {
      list.push_back(s);  // the common case, without the stack
      return false;
    }
    stack.assign(1, s);
    while (!stack.empty()) {
      const detail::regex_step& st = steps_[stack.back()];
      std::uint32_t self = stack.back();
      stack.pop_back();
      bool go = true;
      switch (st.op) {
        case detail::regex_op::match: return true;
        case detail::regex_op::literal:
        case detail::regex_op::set:
          list.push_back(self);
          go = false;
          break;
        case detail::regex_op::line_begin: go = pos == 0; break;
        case detail::regex_op::line_end: go = pos == size; break;
        case detail::regex_op::word_boundary:
        case detail::regex_op::not_word_boundary: {
          bool boundary = (before != regex_none && detail::regex_word(before)) != (unit != regex_none && detail::regex_word(unit));
          go = boundary == (st.op == detail::regex_op::word_boundary);
          break;
        }
        default: break;
      }
      if (!go) continue;
      for (std::uint32_t o : {st.op == detail::regex_op::split ? st.out1 : detail::regex_hole, st.out}) {
        if (o == detail::regex_hole || seen[o] == pos + 1) continue;
        seen[o] = pos + 1;
        stack.push_back(o);
      }
    }
    return false;
  }

  std::string pattern_;
  bool ignore_case_;
  std::vector<detail::regex_step> steps_;
  std::vector<detail::regex_range> ranges_;   // the character sets' ranges, one run per set
  std::vector<std::uint32_t> set_begin_;      // set k is ranges_[set_begin_[k] .. set_begin_[k+1])
  std::uint32_t start_ = 0;
};

}  // namespace ccrc
