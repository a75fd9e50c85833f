// ccrc - the colors of a chart: a categorical palette whose entries are told apart, given to
// the heaviest methods (or packages) first, and the color of a label on each.
#pragma once

#include <ccrc/algorithm/flat.hpp>
#include <ccrc/algorithm/name_parts.hpp>
#include <ccrc/concepts.hpp>
#include <ccrc/config.hpp>
#include <ccrc/enum_names.hpp>
#include <ccrc/tree/call_tree.hpp>
#include <ccrc/tree/view.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ccrc {

/// A color in sRGB, 8 bits a channel.
struct rgb {
  std::uint8_t r = 0, g = 0, b = 0;
  friend constexpr bool operator==(rgb, rgb) noexcept = default;
};

/// "#rrggbb".
[[nodiscard]] inline std::string hex(rgb c) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string s = "#";
  for (std::uint8_t v : {c.r, c.g, c.b}) {
    s += digits[v >> 4];
    s += digits[v & 15];
  }
  return s;
}

/// A key for the color of a name: FNV-1a over its bytes. It depends on the name alone, not on
/// ids or intern order. O(|name|).
[[nodiscard]] constexpr std::uint32_t color_key(std::string_view name) noexcept {
  std::uint32_t h = 2166136261u;
  for (char c : name) {
    h ^= static_cast<unsigned char>(c);
    h *= 16777619u;
  }
  return h;
}

/// What a chart's colors tell apart.
enum class color_by : std::uint8_t {
  method,   ///< every method its own color
  package,  ///< one color per package_of(method); a method without a package keeps its own
};

/// The colorings' names, by value (ccrc::name_of, ccrc::enum_named).
[[nodiscard]] constexpr auto enum_names(color_by) noexcept {
  return std::array<std::string_view, 2>{"method", "package"};
}

/// The name that node n's color follows: its method's, or its package's (ccrc::package_of;
/// the method's own name when it has none). O(|name|).
[[nodiscard]] inline std::string_view color_name(std::string_view method_name, color_by by) noexcept {
  if (by == color_by::package) {
    std::string_view package = package_of(method_name);
    if (!package.empty()) return package;
  }
  return method_name;
}

/// The color key of node n's method, by method or by package. O(|name|).
[[nodiscard]] inline std::uint32_t color_key(const call_tree& t, node_id n, color_by by = color_by::method) noexcept {
  return color_key(color_name(t.name(n), by));
}

/// A categorical palette of 20 colors light enough for dark text (contrast at least 7:1 with
/// #1a1a1a) and told apart: any two differ by a CIE76 ΔE*ab of at least 16.7, any two of the
/// first eight by at least 29 (12 is "clearly different" at a glance). Chosen greedily, each
/// entry the farthest in CIELAB from those before it among the sRGB colors on a grid of step
/// 15 with L* in [68, 86] and chroma in [24, 42], starting from a light orange.
inline constexpr std::array<rgb, 20> categorical_palette{{
    {0xf0, 0xb4, 0x78}, {0x3c, 0xb4, 0xf0}, {0x69, 0xc3, 0x96}, {0xff, 0xb4, 0xf0}, {0x3c, 0xe1, 0xf0},
    {0xf0, 0x96, 0x96}, {0xc3, 0xd2, 0x87}, {0xa5, 0xa5, 0xf0}, {0xb4, 0xd2, 0xff}, {0x69, 0xb4, 0xb4},
    {0xd2, 0x96, 0xb4}, {0xc3, 0xb4, 0x87}, {0xb4, 0xe1, 0xb4}, {0xff, 0xc3, 0xb4}, {0x2d, 0xc3, 0xb4},
    {0x78, 0xb4, 0xd2}, {0xe1, 0xc3, 0xf0}, {0x96, 0xe1, 0xd2}, {0xc3, 0x96, 0xd2}, {0x87, 0xe1, 0xff},
}};

/// The fill of what is no method: the synthetic root.
inline constexpr rgb neutral_color{0xe4, 0xe4, 0xe4};

namespace detail {

inline double linear_channel(std::uint8_t v) noexcept {
  double c = v / 255.0;
  return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

}  // namespace detail

/// WCAG 2's relative luminance of a color, 0 (black) to 1 (white).
[[nodiscard]] inline double relative_luminance(rgb c) noexcept {
  return 0.2126 * detail::linear_channel(c.r) + 0.7152 * detail::linear_channel(c.g) +
         0.0722 * detail::linear_channel(c.b);
}

/// WCAG 2's contrast ratio of two colors, 1 to 21 (text wants at least 4.5).
[[nodiscard]] inline double contrast_ratio(rgb a, rgb b) noexcept {
  double la = relative_luminance(a), lb = relative_luminance(b);
  return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

/// The CIE76 color difference of two sRGB colors: the distance of their CIELAB coordinates
/// (D65 white). About 2.3 is just noticeable; 12 and more tell two categories apart at a glance.
[[nodiscard]] inline double cie76(rgb a, rgb b) noexcept {
  auto lab = [](rgb c) {
    double r = detail::linear_channel(c.r), g = detail::linear_channel(c.g), bl = detail::linear_channel(c.b);
    double x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * bl) / 0.95047;
    double y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * bl;
    double z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * bl) / 1.08883;
    auto f = [](double t) { return t > 216.0 / 24389 ? std::cbrt(t) : (24389.0 / 27 * t + 16) / 116; };
    return std::array<double, 3>{116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))};
  };
  auto p = lab(a), q = lab(b);
  return std::hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
}

/// The color for text on `fill`: near-black (#1a1a1a) or white, whichever contrasts more.
[[nodiscard]] inline rgb label_color(rgb fill) noexcept {
  constexpr rgb dark{0x1a, 0x1a, 0x1a}, light{0xff, 0xff, 0xff};
  return contrast_ratio(fill, dark) >= contrast_ratio(fill, light) ? dark : light;
}

/// `c` darkened towards black: each channel times `factor` (0-1), for outlines and lines.
[[nodiscard]] inline rgb shade(rgb c, double factor) noexcept {
  auto scale = [&](std::uint8_t v) { return static_cast<std::uint8_t>(std::lround(std::clamp(factor, 0.0, 1.0) * v)); };
  return {scale(c.r), scale(c.g), scale(c.b)};
}

/// The colors of a profile's charts: one categorical_palette entry per method (or package),
/// the heaviest first. Methods are ranked by their self value summed over the whole tree (the
/// flat profile: the order of a chart's legend), largest first, ties by name, NaN last; the
/// k-th gets palette entry k, so the methods a legend lists first are told apart, and those
/// beyond the palette take the entry their name's color_key picks. By package: packages ranked by the sum of their methods' self values. A
/// method has the same color in every view of the tree and metric. O(nodes + methods) to
/// build; one byte per method.
///
///     ccrc::chart_colors colors(p.tree(), p.column("samples"));
///     ccrc::rgb fill = colors.of(p.tree(), node);
class chart_colors {
 public:
  chart_colors() = default;

  template <metric_column C>
  chart_colors(const call_tree& t, const C& self, color_by by = color_by::method)
      : chart_colors(t.symbols(), std::span<const column_value_t<C>>(per_method(tree_view(t), self)), by) {}

  /// The same from each method's self value summed over the tree (ccrc::per_method), for a
  /// caller that has them already. O(methods).
  template <class T>
  chart_colors(const symbol_table& symbols, std::span<const T> per_method_self, color_by by = color_by::method)
      : index_(symbols.method_count()) {
    CCRC_ASSERT(per_method_self.size() == index_.size(), "ccrc: one value per method of the table");
    constexpr std::size_t n = categorical_palette.size();
    // Every group's weight (a method's, or by package its package's), then the heaviest n
    // groups by a partial sort: not a sort of every method.
    std::vector<double> weight(index_.size(), 0.0);
    for (method_id m{1}; m < index_.size(); ++m) weight[m] = static_cast<double>(per_method_self[m]);
    std::vector<method_id> group(index_.size(), root_method);  // a group's first method
    if (by == color_by::package) {
      std::unordered_map<std::string_view, method_id> first;
      for (method_id m{1}; m < index_.size(); ++m) {
        auto [at, added] = first.try_emplace(color_name(symbols.method_name(m), by), m);
        group[m] = at->second;
        if (!added) weight[at->second] += weight[m];
      }
    } else {
      for (method_id m{1}; m < index_.size(); ++m) group[m] = m;
    }
    std::vector<method_id> ranked;
    for (method_id m{1}; m < index_.size(); ++m)
      if (group[m] == m) ranked.push_back(m);
    auto heavier = [&](method_id a, method_id b) {
      bool a_nan = std::isnan(weight[a]), b_nan = std::isnan(weight[b]);
      if (a_nan != b_nan) return b_nan;
      if (!a_nan && weight[a] != weight[b]) return weight[a] > weight[b];
      return color_name(symbols.method_name(a), by) < color_name(symbols.method_name(b), by);
    };
    std::size_t top = std::min(n, ranked.size());
    std::partial_sort(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(top), ranked.end(), heavier);
    std::vector<std::uint8_t> rank(index_.size(), 0xff);
    for (std::size_t k = 0; k < top; ++k) rank[ranked[k]] = static_cast<std::uint8_t>(k);
    for (method_id m{0}; m < index_.size(); ++m) {
      std::uint8_t r = rank[group[m]];
      index_[m] = r != 0xff && m != root_method
                      ? r
                      : static_cast<std::uint8_t>(color_key(color_name(symbols.method_name(m), by)) % n);
    }
  }

  /// The palette entry of method m. O(1).
  [[nodiscard]] std::size_t index(method_id m) const noexcept { return index_[m]; }
  /// The color of method m. O(1).
  [[nodiscard]] rgb of(method_id m) const noexcept { return categorical_palette[index_[m]]; }
  /// The color of node n of the tree: its method's, neutral_color for the synthetic root. O(1).
  [[nodiscard]] rgb of(const call_tree& t, node_id n) const noexcept {
    return n == root_node ? neutral_color : of(t.method(n));
  }

 private:
  std::vector<std::uint8_t> index_;
};

}  // namespace ccrc
