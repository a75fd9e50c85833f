// ccrc - fallbacks for the standard facilities some standard libraries lack: reading and
// writing doubles exactly (std::from_chars/std::to_chars), std::bit_cast.
#pragma once

#include <algorithm>
#include <bit>
#include <cerrno>
#include <charconv>
#include <clocale>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <version>

// Where std::from_chars/std::to_chars handle double, ccrc uses them; elsewhere (libc++ 14
// reads no double, which leaves __cpp_lib_to_chars undefined; libc++ 13, emscripten 3.1's,
// writes none either; Apple's libc++ writes them only from macOS 13.3 on) the C library's
// strtod/snprintf do, exactly as well.
// Define CCRC_NO_CHARCONV_DOUBLE to take the fallback everywhere.
#if defined(__cpp_lib_to_chars) && !defined(CCRC_NO_CHARCONV_DOUBLE)
#define CCRC_DETAIL_FROM_CHARS_DOUBLE 1
#else
#define CCRC_DETAIL_FROM_CHARS_DOUBLE 0
#endif
#if !defined(CCRC_NO_CHARCONV_DOUBLE) && \
    (defined(__cpp_lib_to_chars) || (defined(_LIBCPP_VERSION) && _LIBCPP_VERSION >= 14000 && !defined(__APPLE__)))
#define CCRC_DETAIL_TO_CHARS_DOUBLE 1
#else
#define CCRC_DETAIL_TO_CHARS_DOUBLE 0
#endif

namespace ccrc::detail {

/// std::bit_cast, or memcpy where the library lacks it (libc++ before 14). Not constexpr.
template <class To, class From>
[[nodiscard]] To bit_cast(const From& from) noexcept {
  static_assert(sizeof(To) == sizeof(From) && std::is_trivially_copyable_v<To> && std::is_trivially_copyable_v<From>);
#if defined(__cpp_lib_bit_cast)
  return std::bit_cast<To>(from);
#else
  To to;
  std::memcpy(&to, &from, sizeof to);
  return to;
#endif
}

/// Room write_double needs: a sign, 17 digits, a point, "e-308" and some to spare.
inline constexpr std::size_t double_chars = 32;

/// The C library's decimal point: "." unless the program called setlocale with another
/// LC_NUMERIC. strtod and snprintf follow it; ccrc's files always use '.'.
inline std::string_view c_decimal_point() noexcept {
  const char* p = std::localeconv()->decimal_point;
  return p != nullptr && *p != '\0' ? std::string_view(p) : std::string_view(".");
}

/// std::from_chars for a token that must be one whole decimal number ("-1.5e-3"; no blanks,
/// '+' sign, hex, inf or nan), through strtod: '.' is the decimal point whatever the C locale
/// says. Underflow to zero and overflow give result_out_of_range (as libstdc++'s from_chars),
/// a subnormal result is fine. O(length); allocates only for tokens over 63 characters or
/// under a locale whose decimal point is not ".".
inline std::errc read_double_fallback(std::string_view token, double& out) noexcept {
  auto number_char = [](char c) {
    return static_cast<unsigned>(c - '0') <= 9 || c == '.' || c == 'e' || c == 'E' || c == '-' || c == '+';
  };
  if (token.empty() || token[0] == '+' || !std::all_of(token.begin(), token.end(), number_char))
    return std::errc::invalid_argument;
  char small[64];
  std::string large;
  const char* text = small;
  std::string_view point = c_decimal_point();
  if (point == "." && token.size() < sizeof small) {
    std::memcpy(small, token.data(), token.size());
    small[token.size()] = '\0';
  } else {
    for (char c : token) {
      if (c == '.')
        large.append(point);
      else
        large.push_back(c);
    }
    text = large.c_str();
  }
  char* end = nullptr;
  int saved = errno;
  errno = 0;
  double v = std::strtod(text, &end);
  bool range = errno == ERANGE;
  errno = saved;
  if (end == text || *end != '\0') return std::errc::invalid_argument;
  if (range && (v == 0 || std::isinf(v))) return std::errc::result_out_of_range;
  out = v;
  return std::errc{};
}

/// Writes v at first (double_chars of room) in the fewest of 15, 16 or 17 significant digits
/// that strtod reads back to v, and returns the end; scientific notation if asked, else as %g
/// chooses. The text may be a digit longer than std::to_chars' shortest form, never inexact.
/// A locale's decimal point becomes '.'.
inline char* write_double_fallback(char* first, double v, bool scientific = false) noexcept {
  int n = 0;
  for (int digits = 15; digits <= 17; ++digits) {
    n = scientific ? std::snprintf(first, double_chars, "%.*e", digits - 1, v)
                   : std::snprintf(first, double_chars, "%.*g", digits, v);
    if (!std::isfinite(v) || std::strtod(first, nullptr) == v) break;
  }
  char* end = first + n;
  if (std::string_view point = c_decimal_point(); point != ".") {
    if (char* p = std::search(first, end, point.begin(), point.end()); p != end) {
      *p = '.';
      end = std::copy(p + point.size(), end, p + 1);
    }
  }
  // %e keeps trailing zeros: 1.00000000000000e+20 -> 1e+20, as to_chars writes it.
  if (char* e = std::find(first, end, 'e'); scientific && e != end) {
    char* keep = e;
    while (keep[-1] == '0') --keep;
    if (keep[-1] == '.') --keep;
    end = std::copy(e, end, keep);
  }
  return end;
}

/// Reads a whole token as a double: std::from_chars where the library has it for double,
/// else read_double_fallback. O(length).
inline std::errc read_double(std::string_view token, double& out) noexcept {
#if CCRC_DETAIL_FROM_CHARS_DOUBLE
  double v = 0;
  auto [ptr, ec] = std::from_chars(token.data(), token.data() + token.size(), v);
  if (ec != std::errc{}) return ec;
  if (ptr != token.data() + token.size()) return std::errc::invalid_argument;
  out = v;
  return std::errc{};
#else
  return read_double_fallback(token, out);
#endif
}

/// Writes v at first (double_chars of room) so that read_double reads it back exactly, and
/// returns the end: std::to_chars' shortest round-trip form (scientific if asked) where the
/// library has it, else write_double_fallback.
inline char* write_double(char* first, double v, bool scientific = false) noexcept {
#if CCRC_DETAIL_TO_CHARS_DOUBLE
  char* last = first + double_chars;
  return scientific ? std::to_chars(first, last, v, std::chars_format::scientific).ptr
                    : std::to_chars(first, last, v).ptr;
#else
  return write_double_fallback(first, v, scientific);
#endif
}

}  // namespace ccrc::detail
