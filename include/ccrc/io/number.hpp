// ccrc - numbers in text, written exactly and read back strictly, as the text formats do.
#pragma once

#include <ccrc/detail/number_text.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

namespace ccrc {

/// Appends `v` in the shortest form that parse_number reads back to the same value: an
/// integer type as its digits, a double with an integral value below 10^18 as plain digits
/// ("1066"), a larger integral one in scientific form ("1e+70"), any other in std::to_chars'
/// shortest round-trip form ("0.25", "1e-07"); a non-finite double as "inf", "-inf" or
/// "nan", which no reader takes. What the folded writer writes. O(1), no allocation beyond
/// `out`'s growth.
///
///     std::string s = "total ";
///     ccrc::append_number(s, 3238.0);  // "total 3238"
template <class T>
  requires std::is_arithmetic_v<T> && (!std::is_same_v<T, bool>)
void append_number(std::string& out, T v) {
  detail::append_number(out, v);
}

/// `v` as append_number writes it: ccrc::format_number(0.1) == "0.1",
/// ccrc::format_number(1e70) == "1e+70". O(1), one small string.
[[nodiscard]] inline std::string format_number(double v) {
  std::string s;
  detail::append_number(s, v);
  return s;
}

/// The number `s` spells, as the text readers accept a count: digits with an optional '-',
/// fraction and exponent ("42", "-0.5", "1e6"); nullopt for anything else, including blanks,
/// a leading '+', "inf", "nan", hex, a value out of the range of double, and an integer of
/// more than 2^53 that a double cannot hold exactly (it would be rounded silently). Reads
/// back everything append_number writes for a finite value. O(size of s), no allocation.
///
///     ccrc::parse_number("1e6");  // 1000000.0
///     ccrc::parse_number("5%");   // nullopt
[[nodiscard]] inline std::optional<double> parse_number(std::string_view s) noexcept {
  double v = 0;
  if (detail::parse_number(s, true, v) != detail::number_status::ok) return std::nullopt;
  return v;
}

}  // namespace ccrc
