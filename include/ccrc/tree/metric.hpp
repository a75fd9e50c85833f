// ccrc - compile-time metric descriptors: a name and an arithmetic value type.
#pragma once

#include <ccrc/fwd.hpp>

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

namespace ccrc {

/// A string usable as a template argument: the name of a metric, `metric<"calls">`.
template <std::size_t N>
struct fixed_string {
  char chars[N]{};

  constexpr fixed_string(const char (&s)[N]) noexcept { std::copy_n(s, N, chars); }  // NOLINT
  [[nodiscard]] constexpr std::string_view view() const noexcept { return {chars, N - 1}; }
  constexpr bool operator==(const fixed_string&) const = default;
  template <std::size_t M>
  constexpr bool operator==(const fixed_string<M>&) const noexcept {
    return false;
  }
};

/// A metric of a CCT: `metric<"calls">` counts in uint64_t, `metric<"cpu_ns", double>`.
template <fixed_string Name, metric_value T = std::uint64_t>
struct metric {
  using value_type = T;
  static constexpr std::string_view name = Name.view();
};

namespace detail {

template <class... Metrics>
constexpr bool unique_names() {
  constexpr std::string_view names[] = {Metrics::name..., {}};
  for (std::size_t i = 0; i < sizeof...(Metrics); ++i)
    for (std::size_t j = i + 1; j < sizeof...(Metrics); ++j)
      if (names[i] == names[j]) return false;
  return true;
}

// Index of the metric named `name` in the pack, or the pack's size if absent.
template <class... Metrics>
constexpr std::size_t index_of_name(std::string_view name) {
  constexpr std::string_view names[] = {Metrics::name..., {}};
  std::size_t i = 0;
  while (i < sizeof...(Metrics) && names[i] != name) ++i;
  return i;
}

}  // namespace detail
}  // namespace ccrc
