// The properties of every display name (ccrc::display_name), checked name by name.
#pragma once

#include <ccrc/algorithm/display_name.hpp>

#include <doctest/doctest.h>

#include <cstddef>
#include <string>
#include <string_view>

namespace test {

/// Whether `s` is well-formed UTF-8 (no overlong forms, surrogates or code points past
/// U+10FFFF), read byte by byte as RFC 3629's table says.
inline bool valid_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    unsigned char c = b(i);
    std::size_t n = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    for (std::size_t k = 1; k < n; ++k)
      if ((b(i + k) & 0xc0) != 0x80) return false;
    if ((c == 0xe0 && b(i + 1) < 0xa0) || (c == 0xed && b(i + 1) > 0x9f) || (c == 0xf0 && b(i + 1) < 0x90) ||
        (c == 0xf4 && b(i + 1) > 0x8f))
      return false;
    i += n;
  }
  return true;
}

/// A frame that is only a URL or an absolute path: its display name is a file's name, which
/// may read as a dotted name in turn ("ExtensionUtils.sys.mjs" gives "sys.mjs").
inline bool names_a_file(std::string_view full) {
  return full.find(' ') == std::string_view::npos &&
         (full.find("://") != std::string_view::npos || full.starts_with('/'));
}

/// Checks what holds for every name: the display name is empty only for an empty name, no
/// longer than the name, and well-formed UTF-8 where the name is (no sequence is split).
/// Returns the display name.
inline std::string check_display_name(std::string_view full) {
  std::string shown = ccrc::display_name(full);
  if (shown.empty() != full.empty() || shown.size() > full.size() || (valid_utf8(full) && !valid_utf8(shown))) {
    CAPTURE(full);
    CAPTURE(shown);
    FAIL_CHECK("a display name that is empty, longer than its name, or cuts a UTF-8 sequence");
  }
  return shown;
}

/// Checks the above, and that a display name is its own display name, as it holds for the
/// names the readers write (not for names made up of random parts): except a file's name.
inline void check_display_name_of_frame(std::string_view full) {
  std::string shown = check_display_name(full);
  if (!names_a_file(full) && ccrc::display_name(shown) != shown) {
    CAPTURE(full);
    CAPTURE(shown);
    FAIL_CHECK("a display name that is not its own display name");
  }
}

}  // namespace test
