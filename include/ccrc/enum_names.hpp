// ccrc - the names of the library's options, one table per enumeration, so that the tool, the
// viewer and Python spell every option the same way.
#pragma once

#include <array>  // the tables beside each enumeration are arrays
#include <cstddef>
#include <optional>
#include <ranges>
#include <string_view>
#include <type_traits>

namespace ccrc {

/// An enumeration whose values 0, 1, ... have names: `enum_names(E{})`, declared beside the
/// enumeration (and found by argument-dependent lookup), returns them in the order of the
/// values, as the tool's options, the viewer's page and Python's keywords spell them.
template <class E>
concept named_enum = std::is_enum_v<E> && requires {
  { enum_names(E{}) } -> std::ranges::random_access_range;
};

/// The name of `e` ("" for a value outside the table). O(1).
///
///     ccrc::name_of(ccrc::ring_sizing::area);  // "area"
template <named_enum E>
[[nodiscard]] constexpr std::string_view name_of(E e) noexcept {
  const auto names = enum_names(E{});
  const auto i = static_cast<std::size_t>(e);
  return i < std::ranges::size(names) ? std::string_view(names[i]) : std::string_view();
}

/// The value of E named `name`, or nullopt. O(names).
///
///     ccrc::enum_named<ccrc::name_part>("class");  // name_part::class_name
template <named_enum E>
[[nodiscard]] constexpr std::optional<E> enum_named(std::string_view name) noexcept {
  const auto names = enum_names(E{});
  for (std::size_t i = 0; i < std::ranges::size(names); ++i)
    if (names[i] == name) return static_cast<E>(i);
  return std::nullopt;
}

}  // namespace ccrc
