// ccrc - many runs of a program reduced to statistics per calling context: the mean, minimum,
// maximum and standard deviation of every metric's self and inclusive values, and how many runs
// hold each context (Thicket's and hpcprof's per-context statistics).
#pragma once

#include <ccrc/algorithm/inclusive.hpp>
#include <ccrc/config.hpp>
#include <ccrc/error.hpp>
#include <ccrc/transform/merge.hpp>
#include <ccrc/tree/call_tree.hpp>
#include <ccrc/tree/profile.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ccrc {

/// Which values of a calling context a statistic is of: its own, or with all it called (ag(M)).
enum class cost_scope : std::uint8_t { self, inclusive };

/// One value's statistics over `count` runs, in the form that combines exactly: the mean and
/// m2, the sum of squared deviations from it (Welford's running update, numerically stable),
/// and the extremes. Two such of disjoint sets of runs combine into that of their union
/// (ccrc::combine), in any grouping: how threads and MPI ranks reduce their shares of the runs.
struct moments {
  double count = 0;  ///< runs (a whole number)
  double mean = 0;
  double m2 = 0;  ///< sum over the runs of (x - mean)^2
  double min = 0, max = 0;
  friend constexpr bool operator==(const moments&, const moments&) noexcept = default;
};

/// The moments of the runs of `a` and those of `b` together (Chan, Golub and LeVeque's
/// pairwise update): counts add, the mean is the weighted mean, m2 gains the squared distance
/// of the two means weighted by count_a count_b / count. Either empty: the other. O(1).
///
///     ccrc::moments ab = ccrc::combine(a, b);  // ab.count == a.count + b.count
[[nodiscard]] constexpr moments combine(const moments& a, const moments& b) noexcept {
  if (a.count == 0) return b;
  if (b.count == 0) return a;
  const double count = a.count + b.count, delta = b.mean - a.mean;
  return {count, a.mean + delta * (b.count / count), a.m2 + b.m2 + delta * delta * (a.count * b.count / count),
          std::min(a.min, b.min), std::max(a.max, b.max)};
}

/// What a user reads of a value over the runs.
struct value_statistics {
  double mean = 0, min = 0, max = 0;
  double std = 0;  ///< population standard deviation: sqrt(m2 / count)
};

/// The statistics of moments (all 0 over no run). O(1).
[[nodiscard]] inline value_statistics statistics_of(const moments& m) noexcept {
  if (m.count == 0) return {};
  return {m.mean, m.min, m.max, std::sqrt(std::max(0.0, m.m2) / m.count)};
}

/// value_statistics of every node, as columns indexed by node_id.
struct statistics_columns {
  std::vector<double> mean, min, max, std;
};

/// An ensemble: runs of one program (repetitions, MPI ranks, threads, versions) reduced to
/// statistics per calling context, as ccrc::merge reduces them to sums. Contexts are matched by
/// path as merge matches them (the ensemble's tree is their union, node ids in order of first
/// appearance), metrics by name (in order of first appearance). For every context and metric,
/// over all runs so far, the moments of its self values and of its inclusive values; a run
/// that does not hold a context counts 0 for it, as does a run without the metric.
///
/// Streaming: each run is read once, in O(its contexts x metrics) (expected) plus the moments'
/// update, and may be dropped at once; memory is the union of contexts (16 bytes of structure
/// and 8 of counts each) times 64 bytes a metric (4 doubles per scope), never N times the
/// contexts: a run that lacks a context is folded in when the context is next updated, as
/// zeros added in one step. Runs come in the order they are added; another ensemble's runs join
/// with combine().
///
///     ccrc::ensemble e;
///     for (const auto& path : paths) e.add(ccrc::read_profile_file(path).profile);
///     ccrc::value_statistics s = e.statistics(node, e.metric_index("samples"), ccrc::cost_scope::inclusive);
class ensemble {
 public:
  ensemble() = default;

  /// Adds a run; returns the ensemble's node for each of its nodes (as merge does). Every
  /// metric's inclusive values are computed from the run's columns. O(run x metrics), expected.
  /// On an exception (memory, or more than 2^32-1 contexts or runs) the ensemble stays valid,
  /// but may hold contexts of the failed run that no run counts (present 0).
  std::vector<node_id> add(const profile& run) { return add(run, inclusive_columns(run)); }

  /// add with the run's inclusive columns given, one per metric of the run in its order (as
  /// ccrc::inclusive_columns makes them): a reader thread may compute them beside the adding.
  std::vector<node_id> add(const profile& run, std::span<const std::vector<double>> inclusive) {
    CCRC_ASSERT(inclusive.size() == run.metric_count(), "ccrc: one inclusive column per metric of the run");
    if (runs_ == std::numeric_limits<std::uint32_t>::max()) throw capacity_error("an ensemble holds at most 2^32-1 runs");
    const std::vector<std::size_t> to = adopt_metrics(run.metric_names());
    reserve_for(run.size());
    std::vector<node_id> map;
    try {
      map = detail::merge_structure(tree_, run.tree());
    } catch (...) {
      grow();  // the contexts made before the failure, with nothing counted
      throw;
    }
    grow();
    std::vector<const double*> self(names_.size(), nullptr), with_callees(names_.size(), nullptr);
    for (std::size_t i = 0; i < to.size(); ++i) {
      self[to[i]] = run.column(i).data();
      with_callees[to[i]] = inclusive[i].data();
    }
    for (std::size_t m = 0; m < names_.size(); ++m) {
      add_values(columns_[2 * m], map, self[m]);
      add_values(columns_[2 * m + 1], map, with_callees[m]);
    }
    for (node_id u : map) {
      seen_[u] = runs_ + 1;
      ++present_[u];
    }
    ++runs_;
    return map;
  }

  /// Adds the runs of `later` after this ensemble's own: the result is, up to rounding, the
  /// ensemble of all of them added in order (same contexts, ids and metrics as adding them in
  /// order gives). O(later's contexts x metrics), expected.
  void combine(const ensemble& later) {
    CCRC_ASSERT(&later != this, "ccrc: cannot combine an ensemble with itself");
    if (later.runs_ == 0) return;
    if (std::uint64_t{runs_} + later.runs_ > std::numeric_limits<std::uint32_t>::max())
      throw capacity_error("an ensemble holds at most 2^32-1 runs");
    const std::vector<std::size_t> to = adopt_metrics(later.names_);
    std::vector<std::optional<std::size_t>> from(names_.size());
    for (std::size_t i = 0; i < to.size(); ++i) from[to[i]] = i;
    reserve_for(later.size());
    std::vector<node_id> map;
    try {
      map = detail::merge_structure(tree_, later.tree_);
    } catch (...) {
      grow();
      throw;
    }
    grow();
    const moments none{static_cast<double>(later.runs_), 0, 0, 0, 0};  // a metric later lacks: zeros
    for (std::size_t c = 0; c < columns_.size(); ++c) {
      const auto scope = static_cast<cost_scope>(c % 2);
      for (node_id v = 0; v < map.size(); ++v) {
        const node_id u = map[v];
        moments b = from[c / 2] ? later.at(v, *from[c / 2], scope) : none;
        store(columns_[c], u, ccrc::combine(settled(columns_[c], u), b));
      }
    }
    for (node_id v = 0; v < map.size(); ++v) {
      seen_[map[v]] = runs_ + later.runs_;
      present_[map[v]] += later.present_[v];
    }
    runs_ += later.runs_;
  }

  /// An ensemble from its parts, as a reduction elsewhere (MPI ranks) leaves them: the union of
  /// the contexts, the metrics' names, the number of runs, how many runs hold each context,
  /// and for each metric m the moments of every node's self values (columns[2m]) and inclusive
  /// values (columns[2m + 1]), each over all the runs. O(nodes x metrics).
  [[nodiscard]] static ensemble from_moments(call_tree structure, std::vector<std::string> metrics, std::size_t runs,
                                             std::vector<std::uint32_t> present,
                                             const std::vector<std::vector<moments>>& columns) {
    if (runs > std::numeric_limits<std::uint32_t>::max()) throw capacity_error("an ensemble holds at most 2^32-1 runs");
    CCRC_ASSERT(present.size() == structure.size() && columns.size() == 2 * metrics.size(),
                "ccrc: a count per node and two columns of moments per metric");
    ensemble e;
    e.tree_ = std::move(structure);
    e.names_ = std::move(metrics);
    e.runs_ = static_cast<std::uint32_t>(runs);
    e.present_ = std::move(present);
    e.seen_.assign(e.tree_.size(), e.runs_);
    for (const std::vector<moments>& in : columns) {
      CCRC_ASSERT(in.size() == e.tree_.size(), "ccrc: moments for every node");
      moment_columns& c = e.columns_.emplace_back();
      for (const moments& m : in) {
        c.mean.push_back(m.mean);
        c.m2.push_back(m.m2);
        c.min.push_back(m.min);
        c.max.push_back(m.max);
      }
    }
    return e;
  }

  /// Runs added so far.
  [[nodiscard]] std::size_t runs() const noexcept { return runs_; }
  /// The union of the runs' calling contexts (node 0: the synthetic root, in every run).
  [[nodiscard]] const call_tree& tree() const noexcept { return tree_; }
  [[nodiscard]] const symbol_table& symbols() const noexcept { return tree_.symbols(); }
  /// Nodes, the root included.
  [[nodiscard]] std::size_t size() const noexcept { return tree_.size(); }

  [[nodiscard]] const std::vector<std::string>& metric_names() const noexcept { return names_; }
  [[nodiscard]] std::size_t metric_count() const noexcept { return names_.size(); }
  [[nodiscard]] std::optional<std::size_t> find_metric(std::string_view name) const noexcept {
    auto at = std::find(names_.begin(), names_.end(), name);
    if (at == names_.end()) return std::nullopt;
    return static_cast<std::size_t>(at - names_.begin());
  }
  /// The metric called `name`; throws ccrc::error listing the metrics if absent.
  [[nodiscard]] std::size_t metric_index(std::string_view name) const {
    if (auto i = find_metric(name)) return *i;
    throw detail::no_metric(name, names_, "the runs have");
  }

  /// How many runs hold context n.
  [[nodiscard]] std::uint32_t present(node_id n) const noexcept { return present_[n]; }
  /// present(n) of every node.
  [[nodiscard]] std::span<const std::uint32_t> present() const noexcept { return present_; }

  /// The moments of node n's self or inclusive values of a metric over all runs. O(1).
  [[nodiscard]] moments at(node_id n, std::size_t metric, cost_scope scope) const noexcept {
    return settled(columns_[2 * metric + static_cast<std::size_t>(scope)], n);
  }
  /// statistics_of(at(n, metric, scope)). O(1).
  [[nodiscard]] value_statistics statistics(node_id n, std::size_t metric, cost_scope scope) const noexcept {
    return statistics_of(at(n, metric, scope));
  }
  /// statistics() of every node. O(nodes).
  [[nodiscard]] statistics_columns columns(std::size_t metric, cost_scope scope) const {
    statistics_columns out;
    for (auto* c : {&out.mean, &out.min, &out.max, &out.std}) c->reserve(size());
    for (node_id n = 0; n < size(); ++n) {
      value_statistics s = statistics(n, metric, scope);
      out.mean.push_back(s.mean);
      out.min.push_back(s.min);
      out.max.push_back(s.max);
      out.std.push_back(s.std);
    }
    return out;
  }

  /// Releases spare capacity, as a finished profile does: the tree loses its child index
  /// (rebuilt by the next add that needs it).
  void shrink_to_fit() noexcept {
    tree_.shrink_to_fit();
    try {
      seen_.shrink_to_fit();
      present_.shrink_to_fit();
      for (auto& c : columns_)
        for (auto* v : {&c.mean, &c.m2, &c.min, &c.max}) v->shrink_to_fit();
    } catch (...) {  // a request: short of memory, the columns keep their capacity
    }
  }

  /// Heap bytes held: the structure, the symbols, the counts and the moments.
  [[nodiscard]] std::size_t memory_bytes() const noexcept {
    std::size_t bytes = tree_.memory_bytes() + (seen_.capacity() + present_.capacity()) * sizeof(std::uint32_t);
    for (const auto& c : columns_) bytes += (c.mean.capacity() + c.m2.capacity() + c.min.capacity() + c.max.capacity()) * sizeof(double);
    return bytes;
  }

 private:
  // The moments of one metric's values of one scope, by node, each over the seen_[n] runs
  // counted at n so far (the runs since lack the context: zeros, folded in when it is next
  // updated or read).
  struct moment_columns {
    std::vector<double> mean, m2, min, max;
  };

  // The moments of column c at node u over all runs_ runs: those that lacked u since it was
  // last counted add zeros.
  [[nodiscard]] moments settled(const moment_columns& c, node_id u) const noexcept {
    moments m{static_cast<double>(runs_), c.mean[u], c.m2[u], c.min[u], c.max[u]};
    if (runs_ == 0) return {};
    if (const std::uint32_t seen = seen_[u]; seen < runs_) zeros_after(m, seen);
    return m;
  }

  // m, of `seen` runs, with the zeros of the m.count - seen runs that lacked its context: the
  // pairwise update with a group of mean 0 and m2 0. (A node never counted holds 0 throughout.)
  static void zeros_after(moments& m, double seen) noexcept {
    m.m2 += m.mean * m.mean * (seen * (m.count - seen) / m.count);
    m.mean = m.mean * (seen / m.count);
    m.min = std::min(m.min, 0.0);
    m.max = std::max(m.max, 0.0);
  }

  static void store(moment_columns& c, node_id u, const moments& m) noexcept {
    c.mean[u] = m.mean;
    c.m2[u] = m.m2;
    c.min[u] = m.min;
    c.max[u] = m.max;
  }

  // Run runs_'s values x[n] (0 if x is null: the run lacks the metric) added at map[n]: the
  // zeros of the runs that lacked the context since it was counted, then Welford's update.
  void add_values(moment_columns& c, std::span<const node_id> map, const double* x) noexcept {
    const double k = runs_;
    for (std::size_t n = 0; n < map.size(); ++n) {
      const node_id u = map[n];
      const double value = x ? x[n] : 0.0;
      if (runs_ == 0) {
        store(c, u, {1, value, 0, value, value});
        continue;
      }
      moments m{k, c.mean[u], c.m2[u], c.min[u], c.max[u]};
      if (const std::uint32_t seen = seen_[u]; seen < runs_) zeros_after(m, seen);
      const double delta = value - m.mean;
      m.mean += delta / (k + 1);
      m.m2 += delta * (value - m.mean);
      m.min = std::min(m.min, value);
      m.max = std::max(m.max, value);
      store(c, u, m);
    }
  }

  // The index in names_ of each of `names`, adding those the ensemble lacks (zero so far in
  // every run: mean, m2, min and max 0 at every node).
  std::vector<std::size_t> adopt_metrics(const std::vector<std::string>& names) {
    std::vector<std::size_t> to;
    to.reserve(names.size());
    for (const std::string& name : names) {
      if (auto i = find_metric(name)) {
        to.push_back(*i);
        continue;
      }
      // Both columns made, with the others' capacity (grow() must not allocate), before
      // anything is added: an exception leaves the ensemble as it was.
      moment_columns zeros[2];
      for (moment_columns& c : zeros)
        for (auto* v : {&c.mean, &c.m2, &c.min, &c.max}) {
          v->reserve(seen_.capacity());
          v->assign(size(), 0.0);
        }
      std::string copy = name;
      columns_.reserve(columns_.size() + 2);
      names_.reserve(names_.size() + 1);
      names_.push_back(std::move(copy));
      columns_.push_back(std::move(zeros[0]));
      columns_.push_back(std::move(zeros[1]));
      to.push_back(names_.size() - 1);
    }
    return to;
  }

  // Room in every column for `more` nodes beyond the tree's, growing geometrically, so that
  // grow() cannot fail.
  void reserve_for(std::size_t more) {
    const std::size_t needed = size() + more;
    if (seen_.capacity() >= needed && present_.capacity() >= needed) return;
    const std::size_t room = std::max(needed, 2 * seen_.capacity());
    seen_.reserve(room);
    present_.reserve(room);
    for (auto& c : columns_)
      for (auto* v : {&c.mean, &c.m2, &c.min, &c.max}) v->reserve(room);
  }

  // Every column as long as the tree: new nodes counted in no run yet.
  void grow() noexcept {
    seen_.resize(size(), 0);
    present_.resize(size(), 0);
    for (auto& c : columns_)
      for (auto* v : {&c.mean, &c.m2, &c.min, &c.max}) v->resize(size(), 0.0);
  }

  call_tree tree_;
  std::vector<std::string> names_;
  std::uint32_t runs_ = 0;
  std::vector<std::uint32_t> seen_ = std::vector<std::uint32_t>(1, 0);     // runs counted at each node
  std::vector<std::uint32_t> present_ = std::vector<std::uint32_t>(1, 0);  // runs holding each node
  std::vector<moment_columns> columns_;  // 2m: metric m's self values; 2m + 1: its inclusive values
};

}  // namespace ccrc
