// ccrc - checks on names read from or written to text formats.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <string_view>
#include <vector>

namespace ccrc::detail {

/// The length (2 to 4) of the valid UTF-8 sequence of a code point above U+007F that starts
/// at `p` (before `end`), its code point in `cp`; 0 if the bytes there are none: a stray
/// continuation byte, a sequence cut short, an overlong form, a surrogate, beyond U+10FFFF.
inline int utf8_sequence(const unsigned char* p, const unsigned char* end, std::uint32_t& cp) noexcept {
  // Lead byte: sequence length and the smallest code point it may encode (no overlongs).
  const unsigned c = *p;
  int len;
  std::uint32_t min;
  if ((c & 0xe0) == 0xc0) len = 2, cp = c & 0x1f, min = 0x80;
  else if ((c & 0xf0) == 0xe0) len = 3, cp = c & 0x0f, min = 0x800;
  else if ((c & 0xf8) == 0xf0) len = 4, cp = c & 0x07, min = 0x10000;
  else return 0;
  if (end - p < len) return 0;
  for (int i = 1; i < len; ++i) {
    if ((p[i] & 0xc0) != 0x80) return 0;
    cp = (cp << 6) | (p[i] & 0x3f);
  }
  if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
  return len;
}

/// nullptr if `s` is valid UTF-8 with no control character (C0, DEL); otherwise why not.
/// Frame names are checked once, when first interned, so the cost is per unique name.
inline const char* check_name_text(std::string_view s) noexcept {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const auto* end = p + s.size();
  while (p != end) {
    unsigned c = *p;
    if (c < 0x80) {
      if (c < 0x20 || c == 0x7f) return "contains a control character";
      ++p;
      continue;
    }
    std::uint32_t cp = 0;
    const int len = utf8_sequence(p, end, cp);
    if (len == 0) return "is not valid UTF-8";
    if (cp < 0xa0) return "contains a control character";
    p += len;
  }
  return nullptr;
}

/// Length of the longest common prefix of a and b, compared eight bytes at a time.
[[nodiscard]] inline std::size_t common_prefix(std::string_view a, std::string_view b) noexcept {
  std::size_t n = a.size() < b.size() ? a.size() : b.size(), i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t x, y;
    std::memcpy(&x, a.data() + i, 8);
    std::memcpy(&y, b.data() + i, 8);
    if (x != y) {
      std::uint64_t diff = x ^ y;
      return i + static_cast<std::size_t>((std::endian::native == std::endian::little
                                               ? std::countr_zero(diff)
                                               : std::countl_zero(diff)) / 8);
    }
  }
  while (i < n && a[i] == b[i]) ++i;
  return i;
}

[[nodiscard]] constexpr bool is_blank(char c) noexcept { return c == ' ' || c == '\t'; }

/// The position of the first of `names` (strings or string views) equal to an earlier one, or
/// names.size() if all differ. O(m log m): a header naming 100,000 metrics, checked name by
/// name against the earlier ones, took 40 s.
template <class Names>
[[nodiscard]] std::size_t first_repeated(const Names& names) {
  std::vector<std::size_t> order(names.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  auto name = [&](std::size_t i) { return std::string_view(names[i]); };
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return name(a) != name(b) ? name(a) < name(b) : a < b;
  });
  std::size_t first = names.size();
  for (std::size_t i = 1; i < order.size(); ++i)
    if (name(order[i]) == name(order[i - 1])) first = std::min(first, order[i]);
  return first;
}

}  // namespace ccrc::detail
