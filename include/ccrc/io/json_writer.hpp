// ccrc - writing JSON text: strings escaped, numbers in the shortest text that reads back exactly.
#pragma once

#include <ccrc/detail/number_text.hpp>
#include <ccrc/detail/text.hpp>

#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>

namespace ccrc {

/// Appends `s` as a JSON string, quotes included: '"', '\\' and the control characters
/// U+0000..U+001F escaped ("\n", "\t", "\r" by name, the others as "\u00XX"), valid UTF-8
/// as is, and each byte that is not part of a valid UTF-8 sequence as U+FFFD, the replacement
/// character, so that the text is always valid JSON (the readers refuse names that are not
/// UTF-8; a query typed on a command line or a file's name may be any bytes). O(size).
///
///     std::string out;
///     ccrc::append_json_string(out, "say \"hi\"\n");  // out: "say \"hi\"\n", quotes included
inline void append_json_string(std::string& out, std::string_view s) {
  static constexpr char hex[] = "0123456789abcdef";
  out += '"';
  std::size_t run = 0;  // start of the bytes not yet copied
  const auto* bytes = reinterpret_cast<const unsigned char*>(s.data());
  for (std::size_t i = 0; i < s.size(); ++i) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') continue;
    if (c >= 0x80) {
      std::uint32_t cp = 0;
      if (const int len = detail::utf8_sequence(bytes + i, bytes + s.size(), cp)) {
        i += static_cast<std::size_t>(len) - 1;
        continue;
      }
    }
    out.append(s.data() + run, i - run);
    run = i + 1;
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (c >= 0x80) {
          out += "\xEF\xBF\xBD";  // U+FFFD
          break;
        }
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
