// ccrc - stable colour keys: the same method (or package) gets the same colour in every chart.
#pragma once

#include <ccrc/algorithm/name_parts.hpp>
#include <ccrc/tree/call_tree.hpp>

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace ccrc {

/// A key for the colour of a name: FNV-1a over its bytes. It depends on the name alone, not on
/// ids or intern order, so a method keeps its colour across charts, runs, profiles and
/// platforms (as in the papers' figures, where a method has one colour everywhere). O(|name|).
[[nodiscard]] constexpr std::uint32_t color_key(std::string_view name) noexcept {
  std::uint32_t h = 2166136261u;
  for (char c : name) {
    h ^= static_cast<unsigned char>(c);
    h *= 16777619u;
  }
  return h;
}

/// A hue in degrees, [0, 360), spread from a colour key, for renderers that colour by hue.
[[nodiscard]] constexpr double color_hue(std::uint32_t key) noexcept {
  // Multiplicative hashing of the key's high bits: neighbouring keys land far apart.
  std::uint32_t spread = ((key >> 16) ^ key) * 0x9e3779b1u;
  return static_cast<double>(spread >> 8) * (360.0 / 16777216.0);
}

/// What a chart's colours tell apart.
enum class color_by : std::uint8_t {
  method,   ///< every method its own colour
  package,  ///< one colour per package_of(method); a method without a package keeps its own
};

/// The colour key of node n's method, by method or by package. O(|name|).
[[nodiscard]] inline std::uint32_t color_key(const call_tree& t, node_id n, color_by by = color_by::method) noexcept {
  std::string_view name = t.name(n);
  if (by == color_by::package) {
    std::string_view package = package_of(name);
    if (!package.empty()) return color_key(package);
  }
  return color_key(name);
}

}  // namespace ccrc
