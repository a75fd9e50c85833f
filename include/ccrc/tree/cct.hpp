// ccrc - the calling context tree over a compile-time tuple of metrics.
#pragma once

#include <ccrc/tree/columns_base.hpp>
#include <ccrc/tree/metric.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <span>
#include <string_view>
#include <tuple>
#include <vector>

namespace ccrc {

/// A Calling Context Tree whose nodes carry the metrics `Metrics...` (each a ccrc::metric),
/// stored one contiguous column per metric beside the call_tree structure. Metrics are read
/// and written by name or index, resolved at compile time.
///
///     using profile_t = ccrc::cct<ccrc::metric<"calls">, ccrc::metric<"cpu_ns", double>>;
///     profile_t t;
///     ccrc::frame_id frames[] = {t.intern("main"), t.intern("f")};
///     ccrc::node_id f = t.add_path(frames, 20, 1.5e6);   // calls += 20, cpu_ns += 1.5e6
///     t.get<"calls">(f) += 1;                             // 21
///     std::span<const double> cpu = t.column<"cpu_ns">(); // indexed by node_id
template <class... Metrics>
class cct : public detail::columns_base<cct<Metrics...>> {
  static_assert((metric_spec<Metrics> && ...), "ccrc: each metric of a cct is a ccrc::metric<\"name\", T>");
  static_assert(sizeof...(Metrics) > 0, "ccrc: a cct needs at least one metric");
  static_assert(detail::unique_names<Metrics...>(), "ccrc: two metrics of a cct share a name");
  friend class detail::columns_base<cct>;
  using base = detail::columns_base<cct>;

 public:
  static constexpr std::size_t metric_count = sizeof...(Metrics);
  static constexpr std::array<std::string_view, metric_count> metric_names{Metrics::name...};

  /// Value type of the I-th metric.
  template <std::size_t I>
  using value_type = std::tuple_element_t<I, std::tuple<typename Metrics::value_type...>>;

  /// Index of the metric named `Name`; naming a metric the cct lacks fails to compile.
  template <fixed_string Name>
  [[nodiscard]] static constexpr std::size_t index_of() noexcept {
    constexpr std::size_t i = detail::index_of_name<Metrics...>(Name.view());
    static_assert(i < metric_count, "ccrc: this cct has no metric of that name");
    return i;
  }

  cct() { grow_columns(1); }

  /// A cct with the structure `tree`, every metric zero at every node: how a transform that
  /// builds the structure first adds the metrics afterwards.
  explicit cct(call_tree&& tree) : base(std::move(tree)) { grow_columns(this->size()); }

  /// The I-th metric column, indexed by node_id.
  template <std::size_t I>
  [[nodiscard]] std::span<value_type<I>> column() noexcept {
    return std::get<I>(columns_);
  }
  template <std::size_t I>
  [[nodiscard]] std::span<const value_type<I>> column() const noexcept {
    return std::get<I>(columns_);
  }
  /// The column of the metric named `Name`.
  template <fixed_string Name>
  [[nodiscard]] auto column() noexcept {
    return column<index_of<Name>()>();
  }
  template <fixed_string Name>
  [[nodiscard]] auto column() const noexcept {
    return column<index_of<Name>()>();
  }

  /// The I-th metric of node n, by reference.
  template <std::size_t I>
  [[nodiscard]] value_type<I>& get(node_id n) noexcept {
    return std::get<I>(columns_)[n];
  }
  template <std::size_t I>
  [[nodiscard]] value_type<I> get(node_id n) const noexcept {
    return std::get<I>(columns_)[n];
  }
  template <fixed_string Name>
  [[nodiscard]] auto& get(node_id n) noexcept {
    return get<index_of<Name>()>(n);
  }
  template <fixed_string Name>
  [[nodiscard]] auto get(node_id n) const noexcept {
    return get<index_of<Name>()>(n);
  }

  using base::add_path;
  /// Adds `values` (one per metric, in order) to the node reached by `frames` from the root,
  /// creating it: how a stack sample is recorded. Returns the node.
  node_id add_path(std::span<const frame_id> frames,
                   const typename Metrics::value_type&... values) {
    node_id n = base::add_path(frames);
    add(n, values...);
    return n;
  }

  /// Adds one value per metric to node n.
  void add(node_id n, const typename Metrics::value_type&... values) noexcept {
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      ((std::get<I>(columns_)[n] += values), ...);
    }(std::index_sequence_for<Metrics...>{});
  }

  /// Calls f(name, column) for each metric in order, column a std::span<const T>.
  template <class F>
  void for_each_column(F&& f) const {
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      (f(metric_names[I], column<I>()), ...);
    }(std::index_sequence_for<Metrics...>{});
  }

 private:
  void reserve_columns(std::size_t n) {
    std::apply([n](auto&... c) { (c.reserve(n), ...); }, columns_);
  }
  void grow_columns(std::size_t n) {
    std::apply([n](auto&... c) { (c.resize(n), ...); }, columns_);
  }
  void shrink_columns() noexcept {
    try {
      std::apply([](auto&... c) { (c.shrink_to_fit(), ...); }, columns_);
    } catch (...) {  // a request: short of memory, a column keeps its capacity
    }
  }
  [[nodiscard]] std::size_t columns_capacity() const noexcept {
    return std::apply([](const auto&... c) { return std::min({c.capacity()...}); }, columns_);
  }
  [[nodiscard]] std::size_t columns_bytes() const noexcept {
    return std::apply([](const auto&... c) { return (std::size_t{0} + ... + (c.capacity() * sizeof(c[0]))); },
                      columns_);
  }

  std::tuple<std::vector<typename Metrics::value_type>...> columns_;
};

}  // namespace ccrc
