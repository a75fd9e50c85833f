#include <ccrc/algorithm/regex.hpp>
#include <ccrc/algorithm/search.hpp>

#include "support/random.hpp"

#include <doctest/doctest.h>

// std::regex is the reference on tiny inputs only. g++ 12 at -O1 with sanitizers warns,
// wrongly, of uninitialised members inside libstdc++'s own <regex> automaton.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <regex>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#include <string>
#include <vector>

namespace {
// libc++ 14's std::regex_search is no reference: it finds no match of "$" in "c".
#if defined(_LIBCPP_VERSION)
constexpr bool std_regex_is_reference = false;
#else
constexpr bool std_regex_is_reference = true;
#endif
}  // namespace

namespace {

struct example {
  const char* pattern;
  const char* text;
  bool match;
};

bool found(std::string_view pattern, std::string_view text, bool ignore_case = false) {
  return ccrc::regex(pattern, {.ignore_case = ignore_case}).search(text);
}

// The message of the error `pattern` throws ("" if none).
std::string error_of(std::string_view pattern) {
  try {
    static_cast<void>(ccrc::regex(pattern));
  } catch (const ccrc::error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("regex: each construct, matching and not") {
  const example examples[] = {
      // literals, found anywhere
      {"abc", "xxabcxx", true}, {"abc", "abxc", false}, {"", "", true}, {"", "abc", true},
      // . matches anything but line terminators
      {"a.c", "abc", true}, {"a.c", "ac", false}, {"a.c", "a\nc", false}, {"a.c", "a.c", true},
      // classes, ranges, negation, escapes inside
      {"[bx]", "abc", true}, {"[xy]", "abc", false}, {"^[a-c]+$", "cab", true}, {"^[a-c]+$", "cad", false},
      {"[^abc]", "abc", false}, {"[^abc]", "abcd", true}, {"^[-a]$", "-", true}, {"^[a-]$", "-", true},
      {"[\\]]", "]", true}, {"[\\d_]", "x_", true}, {"[\\d]", "x", false}, {"[^\\D]", "a1", true},
      {"[]", "abc", false}, {"[^]", "\n", true}, {"[.]", "a", false}, {"[.]", ".", true},
      {"^[\\b]$", "\b", true},
      // class escapes
      {"\\d", "ab7", true}, {"\\d", "abc", false}, {"^\\D+$", "abc", true}, {"^\\D+$", "a1c", false},
      {"^\\w+$", "get_Value2", true}, {"\\w", "-.;", false}, {"\\W", "ab;", true}, {"\\W", "ab_", false},
      {"a\\sb", "a b", true}, {"a\\sb", "a\tb", true}, {"a\\sb", "a_b", false}, {"^\\S+$", "a b", false},
      // character escapes
      {"a\\.b", "a.b", true}, {"a\\.b", "axb", false}, {"\\(int\\)", "f(int)", true}, {"\\\\", "a\\b", true},
      {"\\x41", "A", true}, {"\\u00e9", "caf\xc3\xa9", true}, {"\\t", "\t", true}, {"\\{", "{", true},
      {"\\$", "a$", true}, {"\\^", "a^", true}, {"\\*", "*", true}, {"\\|", "a", false},
      // anchors
      {"^ab", "abc", true}, {"^bc", "abc", false}, {"bc$", "abc", true}, {"ab$", "abc", false},
      {"^$", "", true}, {"^$", "a", false}, {"a^b", "ab", false}, {"a$|b", "ab", true},
      // word boundaries
      {"\\bget\\b", "x.get(y)", true}, {"\\bget\\b", "getter", false}, {"\\Bet", "get", true},
      {"\\Bget", "get", false},
      // groups and alternation
      {"^(ab)+$", "ababab", true}, {"^(ab)+$", "ababa", false}, {"^(?:ab|c)+$", "abcab", true},
      {"^(?:ab|c)+$", "acb", false}, {"get|put", "HashMap.put", true}, {"get|put", "HashMap.set", false},
      {"^(|a)b$", "b", true}, {"^(a|)b$", "ab", true}, {"^()$", "", true}, {"x(a|b|c|d)y", "xdy", true},
      {"x(a|b|c|d)y", "xey", false}, {"^((a)|(b(c|d)))+$", "abdbca", true},
      // quantifiers
      {"^ab*c$", "ac", true}, {"^ab*c$", "abbbc", true}, {"^ab+c$", "ac", false}, {"^ab+c$", "abc", true},
      {"^ab?c$", "abbc", false}, {"^ab?c$", "ac", true}, {"^(a*)*$", "aaa", true}, {"^(a*)+b$", "aaa", false},
      // bounded repetition
      {"^a{3}$", "aaa", true}, {"^a{3}$", "aa", false}, {"^a{3}$", "aaaa", false}, {"^a{2,}$", "a", false},
      {"^a{2,}$", "aaaaa", true}, {"^a{2,3}$", "aaa", true}, {"^a{2,3}$", "aaaa", false},
      {"^a{0}b$", "b", true}, {"^a{0}b$", "ab", false}, {"^(ab){2}$", "abab", true}, {"^(a|bc){1,2}$", "bca", true},
      {"^(a|bc){1,2}$", "bcabc", false}, {"^a{0,}$", "", true}, {"^(a{2}){2}$", "aaaa", true},
      // lazy quantifiers give the same answer
      {"^a*?b$", "aab", true}, {"^a+?$", "", false}, {"^a??b$", "ab", true}, {"^a{1,2}?$", "aa", true},
      {"^a{2,}?$", "a", false},
  };
  for (const example& e : examples) {
    CAPTURE(e.pattern);
    CAPTURE(e.text);
    CHECK(found(e.pattern, e.text) == e.match);
  }
}

TEST_CASE("regex: ignore_case folds ASCII letters, in literals and in classes") {
  CHECK(found("hashmap", "java.util.HashMap", true));
  CHECK_FALSE(found("hashmap", "java.util.HashMap"));
  CHECK(found("^[a-c]+$", "AbC", true));
  CHECK_FALSE(found("[^a]", "A", true));  // negation after folding, as in ECMAScript
  CHECK(found("[^a]", "A"));
  CHECK(found("\\x41", "a", true));
  CHECK_FALSE(found("\xc3\xa9", "\xc3\x89", true));  // é, É: not ASCII, not folded
}

TEST_CASE("regex: text and pattern are UTF-8 code points; invalid bytes are characters of their own") {
  CHECK(found("^.$", "\xc3\xa9"));  // é: one code point, two bytes
  CHECK_FALSE(found("^..$", "\xc3\xa9"));
  CHECK(found("^.$", "\xe2\x82\xac"));  // €
  CHECK(found("^.$", "\xf0\x9f\x98\x80"));  // U+1F600
  CHECK(found("^caf\xc3\xa9+$", "caf\xc3\xa9\xc3\xa9"));  // the quantifier repeats the code point
  CHECK(found("^[\xc3\xa0-\xc3\xbf]$", "\xc3\xa9"));  // [à-ÿ]
  CHECK_FALSE(found("^[^\xc3\xa9]$", "\xc3\xa9"));
  CHECK(found("^[^\xc3\xa9]$", "e"));
  CHECK(found("^.$", "\xff"));  // not UTF-8: one character
  CHECK(found("^..$", "\xc3("));  // a lead byte without its continuation, then '('
  CHECK(found("\xff", "a\xff"));
  CHECK_FALSE(found("\xff", "\xc3\xbf"));  // ÿ is not the byte 0xff
  CHECK(found("^\\W$", "\xc3\xa9"));  // \w is ASCII
}

TEST_CASE("regex: invalid patterns throw ccrc::error with the reason and the offset") {
  CHECK(error_of("(") == "invalid regular expression '(': missing ')' (at offset 0)");
  CHECK(error_of("ab(c(d)") == "invalid regular expression 'ab(c(d)': missing ')' (at offset 2)");
  const std::pair<const char*, const char*> errors[] = {
      {"a)", "unmatched ')' (at offset 1)"},
      {"*a", "nothing to repeat (at offset 0)"},
      {"a|+", "nothing to repeat (at offset 2)"},
      {"(+a)", "nothing to repeat (at offset 1)"},
      {"a**", "nothing to repeat (at offset 2)"},
      {"a*??", "nothing to repeat (at offset 3)"},
      {"^*", "nothing to repeat (at offset 1)"},
      {"\\b+", "nothing to repeat (at offset 2)"},
      {"[abc", "missing ']' (at offset 0)"},
      {"x[^", "missing ']' (at offset 1)"},
      {"[z-a]", "range out of order 'z-a' (at offset 1)"},
      {"[a-\\d]", "a range cannot start or end with a class escape (at offset 1)"},
      {"(a)\\1", "backreferences are not supported (at offset 3)"},
      {"(?<n>a)\\k<n>", "unsupported group '(?<' (at offset 0)"},
      {"a\\k<n>", "backreferences are not supported (at offset 1)"},
      {"a(?=b)", "lookahead assertions are not supported (at offset 1)"},
      {"(?!b)", "lookahead assertions are not supported (at offset 0)"},
      {"(?<=a)b", "lookbehind assertions are not supported (at offset 0)"},
      {"(?<!a)b", "lookbehind assertions are not supported (at offset 0)"},
      {"(?i)a", "unsupported group '(?i' (at offset 0)"},
      {"a\\", "trailing backslash (at offset 1)"},
      {"\\q", "unknown escape '\\q' (at offset 0)"},
      {"\\p{L}", "unknown escape '\\p' (at offset 0)"},
      {"[\\B]", "unknown escape '\\B' (at offset 1)"},
      {"\\x4", "\\x expects 2 hex digits (at offset 0)"},
      {"\\u12g4", "\\u expects 4 hex digits (at offset 0)"},
      {"\\01", "octal escapes are not supported (at offset 0)"},
      {"a{", "'{' not followed by a repetition count {m}, {m,} or {m,n} (write \\{ for a brace) (at offset 1)"},
      {"a{,2}", "'{' not followed by a repetition count"},
      {"a{2", "'{' not followed by a repetition count"},
      {"a{x}", "(at offset 1)"},
      {"a{3,2}", "repetition range out of order (at offset 1)"},
      {"a{1001}", "repetition count above 1000 (at offset 2)"},
      {"a{1,99999999999999999999}", "repetition count above 1000 (at offset 4)"},
      {"(a{1000}){1000}", "more than 20000 steps once repetitions are expanded (at offset 9)"},
      {"((a{100}){100}){100}", "more than 20000 steps"},
  };
  for (const auto& [pattern_text, message] : errors) {
    std::string pattern = pattern_text;  // clang 14 cannot capture a structured binding
    CAPTURE(pattern);
    CHECK(error_of(pattern).find(message) != std::string::npos);
    CHECK(error_of(pattern).rfind("invalid regular expression '" + pattern + "': ", 0) == 0);
  }
  CHECK(error_of("a{1000}") == "");
  CHECK(error_of("[a-z]{1000}\\d{1000}") == "");
  CHECK(error_of(std::string(20000, '(') + std::string(20000, ')')) == "");  // nesting costs no stack
  CHECK(error_of(std::string(20001, 'a')).find("pattern too large: more than 20000 steps") != std::string::npos);
}

TEST_CASE("regex: 50,000- and 1,000,000-character names through match_methods (issue 15: std::regex overflowed the stack)") {
  for (std::size_t length : {std::size_t{50'000}, std::size_t{1'000'000}}) {
    CAPTURE(length);
    ccrc::symbol_table syms;
    std::string ab;
    for (std::size_t i = 0; i < length; ++i) ab += i % 3 == 0 ? 'b' : 'a';
    syms.intern(ab + "c");  // matches at the end only
    syms.intern(ab);        // never matches
    syms.intern("c");
    ccrc::method_set m = ccrc::match_methods(syms, {.text = "(a|b)*c", .match = ccrc::name_match::regex});
    CHECK(m.size() == 2);
    CHECK(m.contains(ccrc::method_id{1}));
    CHECK_FALSE(m.contains(ccrc::method_id{2}));
    CHECK(m.contains(ccrc::method_id{3}));
    if (length > 50'000) continue;  // the rest costs seconds in a debug build
    auto anchored = ccrc::match_methods(syms, {.text = "^(a|b)*c$", .match = ccrc::name_match::regex});
    CHECK(anchored.size() == 2);
    auto none = ccrc::match_methods(syms, {.text = "^(?:a|b)+$", .match = ccrc::name_match::regex, .ignore_case = true});
    CHECK(none.size() == 1);
    CHECK(none.contains(ccrc::method_id{2}));
  }
}

namespace {

// A random pattern over {a, b, c} using every construct, groups nested at most `depth` deep.
// (A test helper of bounded depth: the recursion is the generator's, not the matcher's.)
std::string random_pattern(test::rng& r, int depth) {
  static const char* const atoms[] = {"a", "b", "c", "a", "b", ".", "[ab]", "[^a]", "[b-c]", "[^bc]",
                                      "\\w", "\\W", "\\d", "\\s", "\\S", "\\."};
  static const char* const assertions[] = {"^", "$", "\\b", "\\B"};
  static const char* const quantifiers[] = {"*", "+", "?", "{0}", "{1}", "{2}", "{0,}", "{1,}", "{2,}",
                                            "{0,1}", "{0,2}", "{1,3}", "{2,2}"};
  std::string out;
  std::uint32_t alternatives = depth > 0 && r.chance(0.3) ? 2 + r.below(2) : 1;
  for (std::uint32_t alt = 0; alt < alternatives; ++alt) {
    if (alt > 0) out += '|';
    std::uint32_t items = r.below(4);
    for (std::uint32_t i = 0; i < items; ++i) {
      std::uint32_t kind = r.below(10);
      if (kind == 0) {
        out += assertions[r.below(4)];
        continue;
      }
      if (kind <= 2 && depth > 0)
        out += (r.chance(0.5) ? "(" : "(?:") + random_pattern(r, depth - 1) + ")";
      else
        out += atoms[r.below(static_cast<std::uint32_t>(std::size(atoms)))];
      if (r.chance(0.4)) {
        out += quantifiers[r.below(static_cast<std::uint32_t>(std::size(quantifiers)))];
        if (r.chance(0.3)) out += '?';
      }
    }
  }
  return out;
}

}  // namespace

TEST_CASE("regex: same answer as std::regex_search (ECMAScript) on random patterns and strings" *
          doctest::skip(!std_regex_is_reference)) {
  test::rng r(15);
  int matches = 0, checks = 0;
  for (int round = 0; round < 2000; ++round) {
    std::string pattern = random_pattern(r, 3);
    bool ignore_case = r.chance(0.2);
    ccrc::regex ours(pattern, {.ignore_case = ignore_case});
    auto flags = std::regex::ECMAScript;
    std::regex reference(pattern, ignore_case ? flags | std::regex::icase : flags);
    for (int s = 0; s < 8; ++s) {
      std::string text;
      std::uint32_t length = r.below(13);
      for (std::uint32_t i = 0; i < length; ++i) text += "abcAB"[r.below(ignore_case ? 5 : 3)];
      CAPTURE(pattern);
      CAPTURE(ignore_case);
      CAPTURE(text);
      bool expected = std::regex_search(text, reference);
      CHECK(ours.search(text) == expected);
      matches += expected;
      ++checks;
    }
  }
  // Neither almost always nor almost never: the comparison tells something.
  CHECK(matches > checks / 5);
  CHECK(matches < checks * 4 / 5);
}
