// ccrc - the concepts at ccrc's public entry points: metric values and columns, and trees.
#pragma once

#include <ccrc/ids.hpp>

#include <concepts>
#include <ranges>
#include <string_view>
#include <type_traits>

namespace ccrc {

class call_tree;  // the trees the concepts below name (fwd.hpp declares every type)
class profile;
template <class... Metrics>
class cct;

/// A value type a metric may have: any arithmetic type but bool.
template <class T>
concept metric_value = std::is_arithmetic_v<T> && !std::is_same_v<std::remove_cv_t<T>, bool>;

/// A metric of a ccrc::cct: a type with a `value_type` (a metric_value) and a static `name`.
/// ccrc::metric<"calls"> is one; so is any struct of your own with those two members.
template <class M>
concept metric_spec = requires {
  typename M::value_type;
  { M::name } -> std::convertible_to<std::string_view>;
} && metric_value<typename M::value_type>;

/// A column of metric values indexed by node_id: a std::span, a std::vector, the result of
/// cct::column<"name">() or profile::column(i).
template <class C>
concept metric_column = std::ranges::contiguous_range<C> && std::ranges::sized_range<C> &&
                        metric_value<std::ranges::range_value_t<C>>;

/// The value type of a metric column.
template <metric_column C>
using column_value_t = std::remove_cv_t<std::ranges::range_value_t<C>>;

namespace detail {

// Stands for any callable for_each_column may be given: f(name, column).
struct column_visitor {
  template <class Column>
  void operator()(std::string_view, Column) const noexcept {}
};

template <class T>
inline constexpr bool is_cct = false;
template <class... Metrics>
inline constexpr bool is_cct<cct<Metrics...>> = true;

}  // namespace detail

/// A call tree with metric columns, as algorithms and writers read it: a ccrc::profile, a
/// ccrc::cct, or a type of your own that offers the same two members: `tree()`, the structure
/// (a const ccrc::call_tree&), and `for_each_column(f)`, calling f(name, column) for each
/// metric in order with column a std::span<const T> of one value per node.
template <class T>
concept metric_tree = requires(const T& t, detail::column_visitor f) {
  { t.tree() } -> std::same_as<const call_tree&>;
  t.for_each_column(f);
};

/// A metric_tree that ccrc can also build: a ccrc::profile or a ccrc::cct<...>. Transforms,
/// merges and the cursor create nodes and return trees of their input's type, so they take
/// one of these.
template <class T>
concept buildable_tree = metric_tree<T> && (std::same_as<T, profile> || detail::is_cct<T>);

/// A tree a ccrc::cursor walks and grows as a profiler sees calls: `find_child(node, frame)`,
/// `try_find_or_add_child(node, frame)` (null_node when the tree cannot grow; never throws)
/// and `tree()`. A ccrc::cct and a ccrc::profile are such trees.
template <class T>
concept context_tree = requires(T& t, const T& ct, node_id n, frame_id f) {
  { ct.find_child(n, f) } noexcept -> std::same_as<node_id>;
  { t.try_find_or_add_child(n, f) } noexcept -> std::same_as<node_id>;
  { ct.tree() } -> std::same_as<const call_tree&>;
};

}  // namespace ccrc
