// ccrc - the performance evolution blueprint's numbers: two runs compared context by context.
#pragma once

#include <ccrc/concepts.hpp>
#include <ccrc/config.hpp>
#include <ccrc/diff/match.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <ranges>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace ccrc {

/// The class of a context in a diff, and the color of its box in the blueprint.
enum class diff_status : std::uint8_t {
  unchanged,        ///< |H| below the epsilon (white)
  slower,           ///< H > 0: a larger share of the second run; method not modified (light red)
  slower_modified,  ///< H > 0, method modified (red)
  faster,           ///< H < 0: a smaller share of the second run; not modified (light green)
  faster_modified,  ///< H < 0, method modified (green)
  added,            ///< only the second run has the context: "new" (yellow)
  removed,          ///< only the first run has it (grey)
};

/// The status's name in ccrc's JSON: "unchanged", "slower", "slower_modified", "faster",
/// "faster_modified", "new", "removed".
[[nodiscard]] constexpr std::string_view to_string(diff_status s) noexcept {
  switch (s) {
    case diff_status::unchanged: return "unchanged";
    case diff_status::slower: return "slower";
    case diff_status::slower_modified: return "slower_modified";
    case diff_status::faster: return "faster";
    case diff_status::faster_modified: return "faster_modified";
    case diff_status::added: return "new";
    case diff_status::removed: return "removed";
  }
  return "unchanged";
}

/// The status the same context gets when the two runs are swapped: slower and faster trade
/// places, and so do new and removed.
[[nodiscard]] constexpr diff_status mirrored(diff_status s) noexcept {
  switch (s) {
    case diff_status::slower: return diff_status::faster;
    case diff_status::slower_modified: return diff_status::faster_modified;
    case diff_status::faster: return diff_status::slower;
    case diff_status::faster_modified: return diff_status::slower_modified;
    case diff_status::added: return diff_status::removed;
    case diff_status::removed: return diff_status::added;
    case diff_status::unchanged: return diff_status::unchanged;
  }
  return s;
}

namespace detail {

// No NaN or infinity leaves the diff: a non-finite value counts as 0.
[[nodiscard]] inline double finite_or_zero(double v) noexcept { return std::isfinite(v) ? v : 0.0; }

// A metric column of any value type, read where it is, as doubles.
class column_ref {
 public:
  column_ref() = default;
  template <class T>
  explicit column_ref(const T* data) noexcept : data_(data), gather_(&gather_as<T>) {}

  // A run without this column.
  [[nodiscard]] bool empty() const noexcept { return gather_ == nullptr; }

  // out[i] = the value at node at[i], a non-finite one as 0, for each i with at[i] != null_node.
  void gather(std::span<const node_id> at, std::span<double> out) const noexcept {
    gather_(data_, at.data(), at.size(), out.data());
  }

 private:
  template <class T>
  static void gather_as(const void* data, const node_id* at, std::size_t n, double* out) noexcept {
    const T* column = static_cast<const T*>(data);
    for (std::size_t i = 0; i < n; ++i)
      if (at[i] != null_node) out[i] = finite_or_zero(static_cast<double>(column[at[i]]));
  }

  const void* data_ = nullptr;
  void (*gather_)(const void*, const node_id*, std::size_t, double*) noexcept = nullptr;
};

}  // namespace detail

/// One run's side of a diff: its tree, the self values of the compared metric at every node
/// (time, samples, bytecodes; the diff aggregates them, ag(M)) and the invocation count of
/// every context (self values: how often the context was entered). A non-finite value counts
/// as 0. It reads the columns where they are and copies nothing, so the tree and the columns
/// must outlive it: a column given as a temporary container (a std::vector made in the call)
/// is refused at compile time; a std::span, a tree's column or a named vector is fine.
struct diff_run {
  /// A run with invocation counts (both columns: one self value per node).
  template <class Metric, class Calls>
    requires metric_column<std::remove_cvref_t<Metric>> && metric_column<std::remove_cvref_t<Calls>>
  diff_run(const call_tree& t, Metric&& metric, Calls&& invocations)
      : tree(&t), values(column_of<Metric>(t, metric)), calls(column_of<Calls>(t, invocations)) {}
  /// A run without invocation counts: every width of the diff is 0.
  template <class Metric>
    requires metric_column<std::remove_cvref_t<Metric>>
  diff_run(const call_tree& t, Metric&& metric) : tree(&t), values(column_of<Metric>(t, metric)) {}

  const call_tree* tree;
  detail::column_ref values;  ///< the compared metric's self values
  detail::column_ref calls;   ///< invocations per node, or empty

 private:
  template <class C>
  static detail::column_ref column_of(const call_tree& t, const std::remove_cvref_t<C>& column) {
    static_assert(std::is_lvalue_reference_v<C> || std::ranges::borrowed_range<C>,
                  "ccrc: a diff_run reads its columns in place: give it a column that outlives it "
                  "(a std::span, a tree's column, a named vector), not a temporary container");
    CCRC_ASSERT(std::ranges::size(column) == t.size(), "ccrc: the column must have one value per node");
    return detail::column_ref(std::ranges::data(column));
  }
};

/// Options of diff.
struct diff_options {
  /// |H| below this is "unchanged": shares are fractions of the run, so 1e-4 is a hundredth
  /// of a percent of the run's total. Two runs of one program never give identical shares;
  /// raise it to the noise of the measurements.
  double epsilon = 1e-4;
  /// Methods whose source changed between the runs (exact names, as in the profiles): their
  /// slower and faster contexts are "modified".
  std::span<const std::string> modified = {};
  /// The matching's options (how deep to look for inserted and removed methods).
  match_options matching = {};
};

/// Two runs compared context by context: the matching (the diff tree and the node maps) and,
/// per diff node, the columns of Rizel's performance evolution blueprint. Values of a run a
/// context is absent from are 0. Every number is finite.
///
/// - E¹, E²: the context's aggregated metric as a share of its run's total (0 if the total
///   is 0): share_first(d), share_second(d).
/// - H = E² − E¹ for a matched context: > 0, it takes a larger share of the second run
///   (slower); < 0, a smaller one (faster). The blueprint compares shares: a context that is
///   100 % of both runs has H = 0 however much its time grew.
/// - A new context has H = E² − (the first-run share of the matched contexts directly below
///   it), and a leaf H = E²: it stands for the time that really is new, not for its
///   callees' time that moved under it. A removed context has H = (the second-run share of
///   the matched contexts directly below it) − E¹. "Directly below" looks through new (or
///   removed) callees, so two inserted methods above `parse` weigh as much as one.
/// - W = log(|Ex² − Ex¹| + 1), natural log, from the invocation counts; a new context takes
///   Ex¹ of its nearest caller present in the first run, a removed one Ex² of its nearest
///   caller present in the second. 0 without counts.
/// - status: new, removed, or for a matched context unchanged if |H| < epsilon, otherwise
///   slower or faster by the sign of H, "modified" if its method is in options.modified.
///   The synthetic root (diff node 0) is not a context and is always unchanged.
struct cct_diff {
  context_matching matching;
  double total_first = 0;   ///< T¹: the first run's total (ag of its root)
  double total_second = 0;  ///< T²
  std::vector<double> first;         ///< aggregated metric in the first run, per diff node
  std::vector<double> second;        ///< aggregated metric in the second run
  std::vector<double> calls_first;   ///< Ex¹: invocations in the first run
  std::vector<double> calls_second;  ///< Ex²
  std::vector<double> height;        ///< H
  std::vector<double> width;         ///< W
  std::vector<diff_status> status;
  std::vector<char> modified_method;  ///< per method of the diff tree: named in options.modified
  double epsilon = 0;                 ///< the epsilon the statuses were computed with

  /// The diff tree: pairs, new and removed contexts (see context_matching).
  [[nodiscard]] const call_tree& tree() const noexcept { return matching.tree; }
  /// E¹ of diff node d.
  [[nodiscard]] double share_first(node_id d) const noexcept { return share(first[d], total_first); }
  /// E² of diff node d.
  [[nodiscard]] double share_second(node_id d) const noexcept { return share(second[d], total_second); }
  /// Whether d's method is one of the modified methods.
  [[nodiscard]] bool modified(node_id d) const noexcept { return modified_method[tree().method(d)] != 0; }

 private:
  static double share(double v, double total) noexcept {
    return total == 0 ? 0.0 : detail::finite_or_zero(v / total);
  }
};

/// Compares two runs: matches their contexts (match_contexts) and computes the blueprint's
/// numbers for every context of both (see cct_diff). O(n1 + n2) besides the matching. Memory:
/// the result (the diff tree, its maps, six columns of doubles), nothing else once the
/// matching is done: each run's ag(M) is summed straight into the result's column.
///
///     ccrc::cct_diff d = ccrc::diff({old_p.tree(), old_p.column("ms"), old_p.column("calls")},
///                                   {new_p.tree(), new_p.column("ms"), new_p.column("calls")},
///                                   {.modified = modified_names});
///     // XML example: build(InputSource) 942 -> 1905 ms, 100 % of both runs: H == 0
[[nodiscard]] inline cct_diff diff(const diff_run& first, const diff_run& second, const diff_options& options = {}) {
  cct_diff r;
  r.matching = match_contexts(*first.tree, *second.tree, options.matching);
  r.epsilon = options.epsilon;
  const context_matching& m = r.matching;
  const call_tree& t = m.tree;
  const std::size_t n = t.size();

  // Per diff node: a column of the run, 0 where the run lacks the context.
  auto column = [&](const detail::column_ref& values, const std::vector<node_id>& node_of) {
    std::vector<double> out(n, 0.0);
    if (!values.empty()) values.gather(node_of, out);
    return out;
  };
  // ag(M) of a run in diff node order: the self values, then the run's own reverse sweep
  // (parent(a) < a there) through its map to the diff nodes; the additions of
  // inclusive_in_place in its order, so the sums are the same to the last bit.
  auto aggregated = [&](const diff_run& run, const std::vector<node_id>& node_of, const std::vector<node_id>& from) {
    std::vector<double> out = column(run.values, node_of);
    const node_id* parent = run.tree->parents().data();
    for (std::size_t a = from.size(); a-- > 1;) out[from[parent[a]]] += out[from[a]];
    for (double& v : out) v = detail::finite_or_zero(v);  // sums of huge values
    return out;
  };
  r.first = aggregated(first, m.first_node, m.from_first);
  r.second = aggregated(second, m.second_node, m.from_second);
  r.total_first = r.first[root_node];
  r.total_second = r.second[root_node];
  r.calls_first = column(first.calls, m.first_node);
  r.calls_second = column(second.calls, m.second_node);

  // Scratch, in the output columns: height[d] first holds, for a new context, the first-run
  // share of the matched contexts directly below it (for a removed one, their second-run
  // share); children come after their parent, so a reverse sweep sees them first. width[d]
  // first holds the count of the nearest caller present in the other run: a forward sweep.
  r.height.assign(n, 0.0);
  r.width.assign(n, 0.0);
  for (node_id d = static_cast<node_id>(n); d-- > 1;) {
    node_id p = t.parent(d);
    if (!m.in_first(p)) r.height[p] += m.in_first(d) ? r.share_first(d) : r.height[d];
    else if (!m.in_second(p)) r.height[p] += m.in_second(d) ? r.share_second(d) : r.height[d];
  }
  for (node_id d = 1; d < n; ++d) {
    node_id p = t.parent(d);
    if (!m.in_first(d)) r.width[d] = m.in_first(p) ? r.calls_first[p] : r.width[p];
    else if (!m.in_second(d)) r.width[d] = m.in_second(p) ? r.calls_second[p] : r.width[p];
  }

  r.modified_method.assign(t.symbols().method_count(), 0);
  for (const std::string& name : options.modified)
    if (auto id = t.symbols().find_method(name)) r.modified_method[*id] = 1;

  r.status.resize(n);
  auto log_difference = [](double x, double y) {
    return x == y ? 0.0 : detail::finite_or_zero(std::log1p(std::abs(x - y)));
  };
  for (node_id d = 0; d < n; ++d) {
    bool in1 = m.in_first(d), in2 = m.in_second(d);
    double h, w;
    diff_status s;
    if (in1 && in2) {
      h = r.share_second(d) - r.share_first(d);
      w = log_difference(r.calls_second[d], r.calls_first[d]);
      if (d == root_node || h == 0 || std::abs(h) < options.epsilon)
        s = diff_status::unchanged;
      else if (h > 0)
        s = r.modified(d) ? diff_status::slower_modified : diff_status::slower;
      else
        s = r.modified(d) ? diff_status::faster_modified : diff_status::faster;
    } else if (in2) {
      h = r.share_second(d) - r.height[d];
      w = log_difference(r.calls_second[d], r.width[d]);
      s = diff_status::added;
    } else {
      h = r.height[d] - r.share_first(d);
      w = log_difference(r.width[d], r.calls_first[d]);
      s = diff_status::removed;
    }
    r.height[d] = detail::finite_or_zero(h);
    r.width[d] = w;
    r.status[d] = s;
  }
  return r;
}

/// A diff column seen from one run's tree: result[n] = column[from[n]] for every node n of
/// that run, with from = d.matching.from_second (or from_first). How a ring chart of the
/// second run colors its segments: `run_column(d.matching.from_second, d.status)`.
/// O(nodes of the run).
template <class T>
[[nodiscard]] std::vector<T> run_column(std::span<const node_id> from, const std::vector<T>& column) {
  std::vector<T> out(from.size());
  for (std::size_t n = 0; n < from.size(); ++n) out[n] = column[from[n]];
  return out;
}

}  // namespace ccrc
