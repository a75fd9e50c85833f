// ccrc - reading and writing metric values in text formats.
#pragma once

#include <ccrc/detail/portable.hpp>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>

namespace ccrc::detail {

/// Largest integer a double holds exactly: 2^53.
inline constexpr std::uint64_t max_exact_integer = std::uint64_t{1} << 53;

enum class number_status { ok, not_a_number, negative, inexact_integer, out_of_range };

/// Why parse_number refused a token, for an error message.
inline const char* describe(number_status s) noexcept {
  switch (s) {
    case number_status::ok: return "ok";
    case number_status::not_a_number: return "is not a number";
    case number_status::negative: return "is negative";
    case number_status::inexact_integer: return "is an integer a double cannot hold exactly (above 2^53)";
    case number_status::out_of_range: return "is out of range";
  }
  return "is invalid";
}

/// Parses a decimal count: digits with an optional sign, fraction and exponent ("42", "0.5",
/// "1e6"); no "inf", "nan", hex or leading '+'. Plain integers take a fast path.
inline number_status parse_number(std::string_view s, bool allow_negative, double& out) noexcept {
  const char* p = s.data();
  const char* end = p + s.size();
  const char* digits = (p != end && *p == '-') ? p + 1 : p;
  if (digits == end || static_cast<unsigned>(*digits - '0') > 9) return number_status::not_a_number;
  std::uint64_t v = 0;
  const char* q = digits;
  for (; q != end && q - digits < 19 && static_cast<unsigned>(*q - '0') <= 9; ++q)
    v = v * 10 + static_cast<unsigned>(*q - '0');
  if (q == end) {  // a plain integer of at most 19 digits
    // Above 2^53 only some integers are doubles (those write_folded writes are): refuse the
    // others rather than round them.
    auto d = static_cast<double>(v);
    if (v > max_exact_integer && (d >= 0x1p64 || static_cast<std::uint64_t>(d) != v))
      return number_status::inexact_integer;
    out = digits == p ? d : -d;
  } else {
    bool integer = true;
    for (const char* r = q; r != end; ++r) {
      bool digit = static_cast<unsigned>(*r - '0') <= 9;
      if (!digit && *r != '.' && *r != 'e' && *r != 'E' && *r != '+' && *r != '-')
        return number_status::not_a_number;
      integer = integer && digit;
    }
    if (integer) return number_status::inexact_integer;  // 20 digits or more
    std::errc ec = read_double(s, out);
    if (ec == std::errc::result_out_of_range) return number_status::out_of_range;
    if (ec != std::errc{}) return number_status::not_a_number;
    if (!std::isfinite(out)) return number_status::out_of_range;
  }
  if (out < 0 && !allow_negative) return number_status::negative;
  return number_status::ok;
}

/// Appends v in the shortest form that reads back to the same value: integers as digits
/// (exact), other values by write_double's shortest round-trip representation (scientific
/// for a double with an integral value of 10^18 or more: "1.2345678901234568e+19").
template <class T>
void append_number(std::string& out, T v) {
  char buf[double_chars];
  char* end;
  if constexpr (std::is_floating_point_v<T>) {
    if (v == std::trunc(v) && std::abs(v) < 1e18)
      end = std::to_chars(buf, buf + sizeof buf, static_cast<std::int64_t>(v)).ptr;
    else if (v == std::trunc(v))  // as digits it could be 20 of them, which no reader takes back
      end = write_double(buf, static_cast<double>(v), true);
    else
      end = write_double(buf, static_cast<double>(v));
  } else {
    end = std::to_chars(buf, buf + sizeof buf, v).ptr;
  }
  out.append(buf, end);
}

}  // namespace ccrc::detail
