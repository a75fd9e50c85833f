// ccrc - the concepts at ccrc's public entry points.
#pragma once

#include <ranges>
#include <type_traits>

namespace ccrc {

/// A value type a metric may have: any arithmetic type but bool.
template <class T>
concept metric_value = std::is_arithmetic_v<T> && !std::is_same_v<std::remove_cv_t<T>, bool>;

/// A column of metric values indexed by node_id: a std::span, a std::vector, the result of
/// cct::column<"name">() or profile::column(i).
template <class C>
concept metric_column = std::ranges::contiguous_range<C> && std::ranges::sized_range<C> &&
                        metric_value<std::ranges::range_value_t<C>>;

/// The value type of a metric column.
template <metric_column C>
using column_value_t = std::remove_cv_t<std::ranges::range_value_t<C>>;

}  // namespace ccrc
