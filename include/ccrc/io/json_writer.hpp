// ccrc - writing JSON text: strings escaped, numbers in the shortest text that reads back exactly.
#pragma once

#include <ccrc/detail/number.hpp>

#include <cmath>
#include <string>
#include <string_view>

namespace ccrc {

/// Appends `s` as a JSON string, quotes included: '"', '\\' and the control characters
/// U+0000..U+001F escaped ("\n", "\t", "\r" by name, the others as "\u00XX"), every other
/// byte as is: the caller checks UTF-8 (the readers refuse names that are not). O(size).
///
///     std::string out;
///     ccrc::append_json_string(out, "say \"hi\"\n");  // out: "say \"hi\"\n", quotes included
inline void append_json_string(std::string& out, std::string_view s) {
  static constexpr char hex[] = "0123456789abcdef";
  out += '"';
  std::size_t run = 0;  // start of the bytes not yet copied
  for (std::size_t i = 0; i < s.size(); ++i) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.append(s.data() + run, i - run);
    run = i + 1;
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        out += "\\u00";
        out += hex[c >> 4];
        out += hex[c & 15];
    }
  }
  out.append(s.data() + run, s.size() - run);
  out += '"';
}

/// Appends `v` as a JSON number, in the shortest text that a reader (std::from_chars,
/// strtod, JavaScript's JSON.parse) reads back to the same double: an integral value below
/// 10^18 as its digits ("74000000", not to_chars' shorter "7.4e+07"), -0.0 as "-0", any other
/// in std::to_chars' shortest round-trip form ("0.1", "1e+300", "2.5e-07"). JSON has no NaN
/// nor infinity: those are written `null`, as JavaScript's JSON.stringify writes them, so a
/// reader of the output finds "no value" rather than a number. O(1), no allocation beyond
/// `out`'s growth.
///
///     std::string out;
///     ccrc::append_json_number(out, 0.1);  // out: 0.1 (not 0.10000000000000001)
inline void append_json_number(std::string& out, double v) {
  if (!std::isfinite(v)) {
    out += "null";
  } else if (v == 0 && std::signbit(v)) {
    out += "-0";  // detail::append_number writes it "0": the sign would not read back
  } else {
    detail::append_number(out, v);
  }
}

}  // namespace ccrc
