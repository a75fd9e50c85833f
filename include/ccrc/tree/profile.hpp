// ccrc - a calling context tree whose metrics are chosen at run time, as files name them.
#pragma once

#include <ccrc/detail/text.hpp>
#include <ccrc/tree/columns_base.hpp>
#include <ccrc/error.hpp>

#include <algorithm>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ccrc {

namespace detail {

/// The error for a metric `name` that `names` lack, listing them: "no metric named 'x' (this
/// profile has: a, b)", `whose` saying whose they are.
inline error no_metric(std::string_view name, const std::vector<std::string>& names, std::string_view whose) {
  std::string known;
  for (const auto& n : names) known += (known.empty() ? "" : ", ") + n;
  return error("no metric named '" + std::string(name) + "' (" + std::string(whose) + ": " + known + ")");
}

}  // namespace detail

/// A calling context tree with a run-time list of named metrics, each a column of double
/// indexed by node_id: what the readers return and the ccrc tool works on. Integers are exact
/// up to 2^53 (readers reject an integer count a double cannot hold rather than round it).
/// For metrics fixed at compile time (a profiler's own tree) use ccrc::cct.
///
///     ccrc::profile p({"calls", "bytecodes"});
///     ccrc::frame_id frames[] = {p.intern("main"), p.intern("f")};
///     double values[] = {20, 180};
///     ccrc::node_id f = p.add_path(frames, values);
///     assert(p.column("bytecodes")[f] == 180);
class profile : public detail::columns_base<profile> {
  friend class detail::columns_base<profile>;
  using base = detail::columns_base<profile>;

 public:
  /// A profile with the given metrics (at least one; names unique and non-empty).
  explicit profile(std::vector<std::string> metric_names = {"samples"}) { set_metrics(std::move(metric_names)); }

  /// A profile over an existing structure, every metric zero at every node: how a reader that
  /// builds the structure first (ccrc::read_cctb) avoids growing the columns node by node.
  profile(call_tree&& tree, std::vector<std::string> metric_names) : base(std::move(tree)) {
    set_metrics(std::move(metric_names));
  }

  [[nodiscard]] std::size_t metric_count() const noexcept { return names_.size(); }
  [[nodiscard]] const std::vector<std::string>& metric_names() const noexcept { return names_; }
  [[nodiscard]] std::string_view metric_name(std::size_t i) const noexcept { return names_[i]; }

  /// Index of the metric called `name`, if any.
  [[nodiscard]] std::optional<std::size_t> find_metric(std::string_view name) const noexcept {
    for (std::size_t i = 0; i < names_.size(); ++i)
      if (names_[i] == name) return i;
    return std::nullopt;
  }

  /// Index of the metric called `name`; throws ccrc::error listing the metrics if absent.
  [[nodiscard]] std::size_t metric_index(std::string_view name) const {
    if (auto i = find_metric(name)) return *i;
    throw detail::no_metric(name, names_, "this profile has");
  }

  /// Adds a metric, zero at every node; returns its index.
  std::size_t add_metric(std::string name) {
    if (name.empty()) throw error("a metric needs a name");
    if (find_metric(name)) throw error("two metrics named '" + name + "'");
    columns_.emplace_back(size(), 0.0);
    names_.push_back(std::move(name));
    return names_.size() - 1;
  }

  [[nodiscard]] std::span<double> column(std::size_t i) noexcept { return columns_[i]; }
  [[nodiscard]] std::span<const double> column(std::size_t i) const noexcept { return columns_[i]; }
  [[nodiscard]] std::span<double> column(std::string_view name) { return columns_[metric_index(name)]; }
  [[nodiscard]] std::span<const double> column(std::string_view name) const {
    return columns_[metric_index(name)];
  }

  using base::add_path;
  /// Adds `values` (one per metric, in order) to the node reached by `frames` from the root,
  /// creating it. Returns the node.
  node_id add_path(std::span<const frame_id> frames, std::span<const double> values) {
    CCRC_ASSERT(values.size() == metric_count(), "ccrc: one value per metric");
    node_id n = base::add_path(frames);
    add(n, values);
    return n;
  }

  /// Adds one value per metric to node n.
  void add(node_id n, std::span<const double> values) noexcept {
    for (std::size_t i = 0; i < values.size(); ++i) columns_[i][n] += values[i];
  }

  /// Calls f(name, column) for each metric in order, column a std::span<const double>.
  template <class F>
  void for_each_column(F&& f) const {
    for (std::size_t i = 0; i < names_.size(); ++i) f(std::string_view(names_[i]), column(i));
  }

 private:
  // A new profile's metrics, each a zero column: checked at once (O(m log m)), not one by one
  // as add_metric does.
  void set_metrics(std::vector<std::string> names) {
    if (names.empty()) throw error("a profile needs at least one metric");
    for (const auto& name : names)
      if (name.empty()) throw error("a metric needs a name");
    if (std::size_t i = detail::first_repeated(names); i < names.size()) throw error("two metrics named '" + names[i] + "'");
    columns_.reserve(names.size());
    for (std::size_t i = 0; i < names.size(); ++i) columns_.emplace_back(size(), 0.0);
    names_ = std::move(names);
  }

  void reserve_columns(std::size_t n) {
    for (auto& c : columns_) c.reserve(n);
  }
  void grow_columns(std::size_t n) {
    for (auto& c : columns_) c.resize(n);
  }
  void shrink_columns() noexcept {
    try {
      for (auto& c : columns_) c.shrink_to_fit();
    } catch (...) {  // a request: short of memory, a column keeps its capacity
    }
  }
  [[nodiscard]] std::size_t columns_capacity() const noexcept {
    std::size_t smallest = columns_[0].capacity();
    for (const auto& c : columns_) smallest = std::min(smallest, c.capacity());
    return smallest;
  }
  [[nodiscard]] std::size_t columns_bytes() const noexcept {
    std::size_t bytes = 0;
    for (const auto& c : columns_) bytes += c.capacity() * sizeof(double);
    return bytes;
  }

  std::vector<std::string> names_;
  std::vector<std::vector<double>> columns_;
};

}  // namespace ccrc
