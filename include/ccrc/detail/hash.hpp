// ccrc - hashing for the symbol table and the child index.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

namespace ccrc::detail {

/// A strong 64-bit finaliser (the splitmix64 output function).
[[nodiscard]] constexpr std::uint64_t mix64(std::uint64_t x) noexcept {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

/// Hash of a byte string, eight bytes per step. Names are short (10-100 bytes) and hashed
/// once per frame token of a parsed file, so the loop must not go byte by byte.
[[nodiscard]] inline std::uint64_t hash_bytes(std::string_view s) noexcept {
  constexpr std::uint64_t k = 0x9e3779b97f4a7c15ULL;
  std::uint64_t h = k ^ s.size();
  const char* p = s.data();
  std::size_t n = s.size();
  for (; n >= 8; p += 8, n -= 8) {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    h = (h ^ w) * k;
    h ^= h >> 32;
  }
  if (n != 0) {
    std::uint64_t w = 0;
    std::memcpy(&w, p, n);
    h = (h ^ w) * k;
  }
  return mix64(h);
}


}  // namespace ccrc::detail
