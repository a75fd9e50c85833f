#include <ccrc/io/json_writer.hpp>

#include "support/random.hpp"

#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <string_view>

namespace {

std::string json_string(std::string_view s) {
  std::string out;
  ccrc::append_json_string(out, s);
  return out;
}

std::string json_number(double v) {
  std::string out;
  ccrc::append_json_number(out, v);
  return out;
}

// Whether `s` is a number as JSON's grammar spells one: -? (0 | [1-9][0-9]*) (. [0-9]+)?
// ([eE] [+-]? [0-9]+)?
bool json_number_grammar(std::string_view s) {
  std::size_t i = 0;
  auto digits = [&] {
    std::size_t from = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    return i - from;
  };
  if (i < s.size() && s[i] == '-') ++i;
  if (i < s.size() && s[i] == '0') ++i;
  else if (digits() == 0) return false;
  if (i < s.size() && s[i] == '.') {
    ++i;
    if (digits() == 0) return false;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (digits() == 0) return false;
  }
  return i == s.size();
}

}  // namespace

TEST_CASE("strings: quotes, backslashes and every control byte escaped, other bytes as they are") {
  CHECK(json_string("") == R"("")");
  CHECK(json_string(R"(say "hi" \o/)") == R"("say \"hi\" \\o/")");
  CHECK(json_string("a\nb\tc\rd") == R"("a\nb\tc\rd")");
  CHECK(json_string(std::string_view("\0\x01\x1f", 3)) == R"("\u0000\u0001\u001f")");
  CHECK(json_string("\x08\x0c\x1b") == R"("\u0008\u000c\u001b")");
  // Each of the 32 control bytes alone, against the escape JSON gives it (RFC 8259).
  const char* names[32] = {"\\u0000", "\\u0001", "\\u0002", "\\u0003", "\\u0004", "\\u0005", "\\u0006", "\\u0007",
                           "\\u0008", "\\t",     "\\n",     "\\u000b", "\\u000c", "\\r",     "\\u000e", "\\u000f",
                           "\\u0010", "\\u0011", "\\u0012", "\\u0013", "\\u0014", "\\u0015", "\\u0016", "\\u0017",
                           "\\u0018", "\\u0019", "\\u001a", "\\u001b", "\\u001c", "\\u001d", "\\u001e", "\\u001f"};
  for (int c = 0; c < 32; ++c) {
    CAPTURE(c);
    CHECK(json_string(std::string(1, static_cast<char>(c))) == "\"" + std::string(names[c]) + "\"");
  }
  // DEL is no control character for JSON, and valid UTF-8 passes through as it is.
  CHECK(json_string("\x7f") == "\"\x7f\"");
  CHECK(json_string("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80") == "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");
  for (int c = 0x20; c < 0x80; ++c) {
    if (c == '"' || c == '\\') continue;
    CAPTURE(c);
    const std::string byte(1, static_cast<char>(c));
    CHECK(json_string(byte) == "\"" + byte + "\"");
  }
  std::string out = "[";
  ccrc::append_json_string(out, "a");
  CHECK(out == R"([")" "a\"");  // appended, not replaced
}

TEST_CASE("strings: each byte of no valid UTF-8 sequence becomes U+FFFD, so the text is always JSON") {
  // Issue 45: `ccrc search --json` copied a query typed in Latin-1 raw into its output.
  const std::string fffd = "\xEF\xBF\xBD";
  for (int c = 0x80; c < 0x100; ++c) {  // alone, no byte from 0x80 up is a sequence
    CAPTURE(c);
    CHECK(json_string(std::string(1, static_cast<char>(c))) == "\"" + fffd + "\"");
  }
  CHECK(json_string("caf\xe9!") == "\"caf" + fffd + "!\"");                  // Latin-1
  CHECK(json_string("\xc3\xa9\xa9") == "\"\xc3\xa9" + fffd + "\"");          // a stray continuation byte
  CHECK(json_string("\xe2\x82") == "\"" + fffd + fffd + "\"");                // cut short
  CHECK(json_string("\xc0\xaf") == "\"" + fffd + fffd + "\"");                // overlong '/'
  CHECK(json_string("\xed\xa0\x80") == "\"" + fffd + fffd + fffd + "\"");    // a surrogate
  CHECK(json_string("\xf4\x90\x80\x80") == "\"" + fffd + fffd + fffd + fffd + "\"");  // beyond U+10FFFF
  CHECK(json_string("\xf4\x8f\xbf\xbf") == "\"\xf4\x8f\xbf\xbf\"");        // U+10FFFF itself
  CHECK(json_string("\xff\"") == "\"" + fffd + "\\\"\"");
}

TEST_CASE("numbers: the shortest text that reads back, integers as digits, no NaN nor infinity") {
  CHECK(json_number(0.1) == "0.1");
  CHECK(json_number(0.3) == "0.3");
  CHECK(json_number(0.1 + 0.2) == "0.30000000000000004");
  CHECK(json_number(1e300) == "1e+300");
  CHECK(json_number(-1.5e-300) == "-1.5e-300");
  CHECK(json_number(2.5e-7) == "2.5e-07");
  CHECK(json_number(5e-324) == "5e-324");  // the least subnormal
  CHECK(json_number(0.0) == "0");
  CHECK(json_number(-0.0) == "-0");
  CHECK(json_number(74000000) == "74000000");  // to_chars' shortest would be "7.4e+07"
  CHECK(json_number(-3) == "-3");
  CHECK(json_number(9007199254740994.0) == "9007199254740994");  // 2^53 + 2
  CHECK(json_number(1e18) == "1e+18");
  CHECK(json_number(std::numeric_limits<double>::max()) == "1.7976931348623157e+308");
  CHECK(json_number(std::numeric_limits<double>::quiet_NaN()) == "null");
  CHECK(json_number(std::numeric_limits<double>::infinity()) == "null");
  CHECK(json_number(-std::numeric_limits<double>::infinity()) == "null");
  std::string out = "[1,";
  ccrc::append_json_number(out, 2.5);
  CHECK(out == "[1,2.5");
}

TEST_CASE("numbers: every finite double reads back bit for bit, spelled as JSON spells a number") {
  test::rng r{35};
  for (int i = 0; i < 200000; ++i) {
    double v = std::bit_cast<double>(r.next());
    if (i % 3 == 1) v = std::trunc(std::ldexp(static_cast<double>(r.next() >> 11), static_cast<int>(r.below(80))));
    if (i % 3 == 2) v = static_cast<double>(r.below(1000000)) / 1000;  // as profiles hold times
    if (!std::isfinite(v)) continue;
    const std::string s = json_number(v);
    CAPTURE(s);
    REQUIRE(json_number_grammar(s));
    char* end = nullptr;
    const double back = std::strtod(s.c_str(), &end);  // a reader independent of the writer
    CHECK(end == s.c_str() + s.size());
    CHECK(std::bit_cast<std::uint64_t>(back) == std::bit_cast<std::uint64_t>(v));
    // Shortest: written whole if an integral value below 10^18, else in k significant digits
    // where the nearest decimal of k - 1 digits does not read back.
    if (v == std::trunc(v) && std::abs(v) < 1e18) {
      CHECK(s.find_first_of(".e") == std::string::npos);
      continue;
    }
    std::string significant;
    for (char c : s.substr(0, s.find('e')))
      if (c >= '0' && c <= '9' && (c != '0' || !significant.empty())) significant += c;
    if (significant.size() < 2) continue;
    char fewer[64];
    std::snprintf(fewer, sizeof fewer, "%.*e", static_cast<int>(significant.size()) - 2, v);
    CHECK(std::strtod(fewer, nullptr) != v);
  }
}
