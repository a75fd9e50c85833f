// ccrc - search: the calling contexts whose method name and metrics match a query.
#pragma once

#include <ccrc/algorithm/inclusive.hpp>
#include <ccrc/algorithm/name_parts.hpp>
#include <ccrc/algorithm/regex.hpp>
#include <ccrc/concepts.hpp>
#include <ccrc/detail/number_text.hpp>
#include <ccrc/enum_names.hpp>
#include <ccrc/error.hpp>
#include <ccrc/tree/method_set.hpp>
#include <ccrc/tree/preorder_index.hpp>
#include <ccrc/tree/view.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ccrc {

/// Which part of a method name a query looks at (see ccrc::split_name).
enum class name_part {
  name,        ///< the whole name, arguments included
  package,     ///< the package or namespace: "java.util", "std::chrono"
  class_name,  ///< the class: "HashMap"
  method,      ///< the method alone: "get"
};

/// The parts' names, by value (ccrc::name_of, ccrc::enum_named).
[[nodiscard]] constexpr auto enum_names(name_part) noexcept {
  return std::array<std::string_view, 4>{"name", "package", "class", "method"};
}

/// How a query's text matches.
enum class name_match {
  substring,  ///< the text occurs in the part
  regex,      ///< a regular expression found in the part (ccrc::regex: ECMAScript's syntax without
              ///< backreferences or lookaround; anchor it with ^ and $)
  exact,      ///< the part is the text
};

/// The matches' names, by value (ccrc::name_of, ccrc::enum_named).
[[nodiscard]] constexpr auto enum_names(name_match) noexcept {
  return std::array<std::string_view, 3>{"substring", "regex", "exact"};
}

/// A query on method names. The empty substring matches every method.
struct name_query {
  std::string text{};
  name_match match = name_match::substring;
  name_part part = name_part::name;
  bool ignore_case = false;
  friend bool operator==(const name_query&, const name_query&) = default;
};

/// A lower bound on a metric: an absolute value, or a share of the whole tree's total
/// (share = true, value 0.05 for 5 %).
struct threshold {
  double value = 0;
  bool share = false;
  friend bool operator==(const threshold&, const threshold&) = default;
};

/// A search: a name query, and optional lower bounds on a context's self value and on its
/// aggregated value ag(M), both inclusive (value >= bound).
struct search_query {
  name_query name{};
  std::optional<threshold> min_self{};
  std::optional<threshold> min_total{};
  friend bool operator==(const search_query&, const search_query&) = default;
};

/// A name query as the tool, the viewer and Python take one in a single text: "re:REGEX" a
/// regular expression, "=NAME" the exact name, anything else a substring; on `part`. O(text).
///
///     ccrc::parse_name_query("=java.util.HashMap.get(Object)");  // an exact match
[[nodiscard]] inline name_query parse_name_query(std::string_view text, name_part part = name_part::name,
                                                 bool ignore_case = false) {
  name_match match = name_match::substring;
  if (text.starts_with("re:")) {
    match = name_match::regex;
    text.remove_prefix(3);
  } else if (text.starts_with("=")) {
    match = name_match::exact;
    text.remove_prefix(1);
  }
  return {std::string(text), match, part, ignore_case};
}

/// A bound as the tool, the viewer and Python take one: "500" a value, "5%" a share of the
/// total (0.05); nullopt when the text is no number ("", "abc", "inf", "5 %"). O(text).
[[nodiscard]] inline std::optional<threshold> parse_threshold(std::string_view text) noexcept {
  const bool share = text.ends_with('%');
  if (share) text.remove_suffix(1);
  double value = 0;
  if (detail::parse_number(text, true, value) != detail::number_status::ok) return std::nullopt;
  return threshold{share ? value / 100 : value, share};
}

namespace detail {
// covered / total, 0 when the total is 0 or the quotient not finite.
[[nodiscard]] inline double share_of(double covered, double total) noexcept {
  double s = covered / total;
  return total == 0 || !std::isfinite(s) ? 0.0 : s;
}
}  // namespace detail

/// What a search found, ready to highlight: the matching methods and contexts, and the share
/// of the total they cover.
struct search_result {
  method_set methods;          ///< methods whose names match (matched once each, on the table)
  std::vector<node_id> nodes;  ///< matching calling contexts of the view, ascending ids
  double total = 0;            ///< the metric's total over the whole tree, ag(M) of the root
  /// Sum of ag(M) over the matching contexts that have no matching ancestor in the view: a
  /// match nested in another match is counted once, within the outer one.
  double covered = 0;

  /// covered / total: the share of the whole profile the matches account for (0 when the
  /// total is 0 or not finite, so no NaN reaches a caption).
  [[nodiscard]] double share() const noexcept { return detail::share_of(covered, total); }
};

namespace detail {

inline std::string lower_ascii(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

inline std::string_view part_of(std::string_view name, name_part part) noexcept {
  if (part == name_part::name) return name;
  name_parts p = split_name(name);
  return part == name_part::package ? p.package : part == name_part::class_name ? p.class_name : p.method;
}

}  // namespace detail

/// The methods of `syms` whose name (or name part) matches `q`: each method is tested once,
/// however many contexts it has. The root's empty name never matches. O(methods x name
/// length); a regular expression costs O(its steps x name length) per name (ccrc::regex).
/// Throws ccrc::error for an invalid regular expression.
///
///     ccrc::method_set gets = ccrc::match_methods(p.symbols(), {.text = "get", .part = ccrc::name_part::method});
[[nodiscard]] inline method_set match_methods(const symbol_table& syms, const name_query& q) {
  std::optional<regex> re;
  if (q.match == name_match::regex) re.emplace(q.text, regex_options{.ignore_case = q.ignore_case});
  std::string text = q.ignore_case ? detail::lower_ascii(q.text) : q.text;
  std::string lowered;
  method_set s;
  for (method_id m{1}; m < syms.method_count(); ++m) {
    std::string_view part = detail::part_of(syms.method_name(m), q.part);
    bool hit;
    if (re) {
      hit = re->search(part);
    } else {
      if (q.ignore_case) part = lowered = detail::lower_ascii(part);
      hit = q.match == name_match::exact ? part == text : part.find(text) != std::string_view::npos;
    }
    if (hit) s.insert(m);
  }
  return s;
}

/// Every calling context of the view whose method is in `methods`, ascending ids: "all
/// contexts of this method" is `contexts_of(v, {m})`. O(nodes of v).
[[nodiscard]] inline std::vector<node_id> contexts_of(const tree_view& v, const method_set& methods) {
  const call_tree& t = v.tree();
  std::vector<node_id> out;
  preorder(v, [&](node_id n, std::uint32_t) {
    if (n != root_node && methods.contains(t.method(n))) out.push_back(n);
  });
  std::sort(out.begin(), out.end());
  return out;
}

namespace detail {

// The node test of a search: method, self value and ag(M) against the query's bounds.
template <class Self, class Ag>
struct search_test {
  const call_tree& t;
  const method_set& methods;
  const Self& self;
  const Ag& ag;
  bool has_min_self = false, has_min_total = false;  // (not optionals: gcc 12 -O2 warns on them)
  double min_self = 0, min_total = 0;

  search_test(const call_tree& tree, const search_result& r, const Self& s, const Ag& a, const search_query& q)
      : t(tree), methods(r.methods), self(s), ag(a) {
    auto bound = [&](const threshold& b) { return b.share ? b.value * r.total : b.value; };
    if ((has_min_self = q.min_self.has_value())) min_self = bound(*q.min_self);
    if ((has_min_total = q.min_total.has_value())) min_total = bound(*q.min_total);
  }
  // Whether n, whose method is known to match, passes the thresholds.
  [[nodiscard]] bool passes(node_id n) const {
    return (!has_min_self || static_cast<double>(self[n]) >= min_self) &&
           (!has_min_total || static_cast<double>(ag[n]) >= min_total);
  }
  [[nodiscard]] bool operator()(node_id n) const { return n != root_node && methods.contains(t.method(n)) && passes(n); }
};

template <metric_column C>
search_result search_with(const tree_view& v, const C& self, std::span<const double> ag, const search_query& q) {
  const call_tree& t = v.tree();
  search_result r;
  r.methods = match_methods(t.symbols(), q.name);
  r.total = ag[root_node];
  search_test matches(t, r, self, ag, q);
  if (v.root() == root_node && v.max_depth() == unlimited_depth) {
    // The whole tree: a sweep in id order (parents first) beats walking the links.
    std::vector<char> in_match(t.size(), 0);  // n matches or has a matching ancestor
    for (node_id n = 1; n < t.size(); ++n) {
      char outer = in_match[t.parent(n)];
      if (matches(n)) {
        if (!outer) r.covered += ag[n];
        r.nodes.push_back(n);
        outer = 1;
      }
      in_match[n] = outer;
    }
    return r;
  }
  std::size_t inside = 0;  // matching contexts on the current path
  depth_first(
      v,
      [&](node_id n, std::uint32_t) {
        if (!matches(n)) return;
        if (inside++ == 0) r.covered += ag[n];
        r.nodes.push_back(n);
      },
      [&](node_id n, std::uint32_t) {
        if (matches(n)) --inside;
      });
  std::sort(r.nodes.begin(), r.nodes.end());
  return r;
}

}  // namespace detail

/// The calling contexts of the view that match `q`, with `self` the metric the thresholds,
/// the total and the covered share read (one value per node; ag(M) is computed on the
/// complete tree, as views never recompute it). Names are matched on the symbol table first
/// (match_methods), then one pass over the view tests each node's method and metrics.
/// O(nodes of the tree + methods x name length); allocates one double per node for ag(M).
///
///     auto r = ccrc::search(ccrc::tree_view(p.tree()), p.column("bytecodes"), {.name = {.text = "g"}});
///     // Figure 1: the 4 contexts of g; the 2 outermost cover 980 of 3238 bytecodes (30.27 %)
template <metric_column C>
[[nodiscard]] search_result search(const tree_view& v, const C& self, const search_query& q) {
  const call_tree& t = v.tree();
  CCRC_ASSERT(std::ranges::size(self) == t.size(), "ccrc: the column must have one value per node");
  std::vector<double> ag(std::ranges::begin(self), std::ranges::end(self));
  inclusive_in_place(t, std::span(ag));
  return detail::search_with(v, self, std::span<const double>(ag), q);
}

namespace detail {

// The numbers 1..n-1 of a tree of n nodes grouped by the method of node node_of(i), each
// group ascending: the calling contexts of every method as ids (node_of the identity) or as
// preorder positions (node_of the preorder's at). A counting sort: O(nodes + methods).
class method_groups {
 public:
  template <class NodeOf>
  method_groups(const call_tree& t, NodeOf node_of) : start_(std::size_t{t.symbols().method_count()} + 1, 0) {
    for (node_id n = 1; n < t.size(); ++n) ++start_[std::size_t{t.method(n)} + 1];
    std::partial_sum(start_.begin(), start_.end(), start_.begin());
    items_.resize(start_.back());
    std::vector<std::uint32_t> next(start_.begin(), start_.end() - 1);
    for (std::uint32_t i = 1; i < t.size(); ++i) items_[next[t.method(node_of(i))]++] = i;
  }
  [[nodiscard]] std::span<const std::uint32_t> of(method_id m) const noexcept {
    if (std::size_t{m} + 1 >= start_.size()) return {};
    return std::span(items_).subspan(start_[m], start_[std::size_t{m} + 1] - start_[m]);
  }
  [[nodiscard]] std::size_t size() const noexcept { return items_.size(); }

 private:
  std::vector<std::uint32_t> start_;  // method m's items are items_[start_[m], start_[m + 1])
  std::vector<std::uint32_t> items_;
};

// The indexed searches' common start: the preconditions, the matching methods and the total.
template <class C, class A>
search_result indexed_search_start(std::size_t indexed, const preorder_index& order, const call_tree& t, const C& self,
                                   const A& ag, const search_query& q) {
  CCRC_ASSERT(std::ranges::size(self) == t.size() && std::ranges::size(ag) == t.size(),
              "ccrc: the columns must have one value per node");
  CCRC_ASSERT(indexed + 1 == t.size() && order.size() == t.size(), "ccrc: an index is of another tree");
  search_result r;
  r.methods = match_methods(t.symbols(), q.name);
  r.total = static_cast<double>(ag[root_node]);
  return r;
}

}  // namespace detail

/// The calling contexts of every method of a tree, each method's in ascending ids: built once
/// per tree, it lets a search of the whole tree visit only the contexts of the methods that
/// match (what a viewer searching as the user types needs). O(nodes) to build; 4 bytes a node
/// and 4 a method.
///
///     ccrc::method_contexts by_method(p.tree());
///     for (ccrc::node_id n : by_method.of(m)) ...;  // every context of method m
class method_contexts {
 public:
  explicit method_contexts(const call_tree& t) : groups_(t, [](node_id n) { return n; }) {}
  /// The calling contexts of m, ascending ids (none for the root's method).
  [[nodiscard]] std::span<const node_id> of(method_id m) const noexcept { return groups_.of(m); }
  /// Number of contexts indexed: the tree's nodes but the root.
  [[nodiscard]] std::size_t size() const noexcept { return groups_.size(); }

 private:
  detail::method_groups groups_;
};

/// The calling contexts of every method of a tree as positions in its preorder, each method's
/// ascending: what search_positions reads instead of method_contexts, so that it never looks
/// a context's position up in the preorder index (on a tree of millions of nodes each such
/// look-up is a cache miss). O(nodes) to build; 4 bytes a node and 4 a method.
///
///     ccrc::preorder_index order(p.tree());
///     ccrc::method_positions by_method(p.tree(), order);
///     for (std::uint32_t at : by_method.of(m)) ...;  // order.at(at) is a context of method m
class method_positions {
 public:
  method_positions(const call_tree& t, const preorder_index& order)
      : groups_(t, [&order](std::uint32_t at) { return order.at(at); }) {
    CCRC_ASSERT(order.size() == t.size(), "ccrc: the preorder is of another tree");
  }
  /// The positions of m's calling contexts, ascending (none for the root's method).
  [[nodiscard]] std::span<const std::uint32_t> of(method_id m) const noexcept { return groups_.of(m); }
  /// Number of contexts indexed: the tree's nodes but the root.
  [[nodiscard]] std::size_t size() const noexcept { return groups_.size(); }

 private:
  detail::method_groups groups_;
};

/// What search_positions finds: search_result's figures, with the matches as a bitmap over the
/// preorder rather than a list of nodes (what highlight_marks is made of).
struct position_search_result {
  method_set methods;                    ///< methods whose names match
  std::vector<std::uint64_t> positions;  ///< bit `at` set: the context at preorder position `at` matches
  std::size_t count = 0;                 ///< number of matching contexts
  double total = 0;                      ///< ag(M) of the root
  double covered = 0;                    ///< as search_result::covered
  /// covered / total, as search_result::share.
  [[nodiscard]] double share() const noexcept { return detail::share_of(covered, total); }
};

/// search() of the whole tree for a caller that wants the matches marked, not listed (a viewer
/// highlighting them: `ccrc::highlight_marks(order, std::move(r.positions))`): the same
/// matches, count and covered share as the indexed search(), with each method's contexts read
/// as positions, so that only the outermost matches (and, with thresholds, every match) are
/// looked up in the tree. O(methods x name length + k + n / 64) for k contexts of the matching
/// methods; one bit a node.
///
///     ccrc::method_positions by_method(p.tree(), order);  // once per tree
///     auto r = ccrc::search_positions(by_method, order, p.tree(), p.column("bytecodes"), ag, {.name = {.text = "g"}});
template <metric_column C, metric_column A>
[[nodiscard]] position_search_result search_positions(const method_positions& by_method, const preorder_index& order,
                                                      const call_tree& t, const C& self, const A& ag,
                                                      const search_query& q) {
  search_result found = detail::indexed_search_start(by_method.size(), order, t, self, ag, q);
  detail::search_test matches(t, found, self, ag, q);
  const bool thresholds = q.min_self.has_value() || q.min_total.has_value();
  position_search_result r;
  r.positions.assign(t.size() / 64 + 1, 0);
  for (method_id m : found.methods.ids())
    for (std::uint32_t at : by_method.of(m))
      if (!thresholds || matches.passes(order.at(at))) {
        r.positions[at / 64] |= std::uint64_t{1} << (at % 64);
        ++r.count;
      }
  // In preorder, each outermost match comes before the matches nested in it.
  std::uint32_t outer_end = 0;
  for (std::size_t w = 0; w < r.positions.size(); ++w)
    for (std::uint64_t b = r.positions[w]; b != 0; b &= b - 1) {
      auto at = static_cast<std::uint32_t>(w * 64 + static_cast<std::size_t>(std::countr_zero(b)));
      if (at < outer_end) continue;
      node_id n = order.at(at);
      r.covered += static_cast<double>(ag[n]);
      outer_end = order.end(n);
    }
  r.methods = std::move(found.methods);
  r.total = found.total;
  return r;
}

/// search() of the whole tree `t` through its indexes, with ag(M) given (`ag`, one value per
/// node, as ccrc::inclusive computes it) rather than computed: the same result as
/// search(tree_view(t), self, q), at the cost of the matching contexts instead of the tree.
/// `by_method` lists the contexts of the matching methods; `order` tells which matches are
/// nested in others (a match inside the subtree range of an earlier one, in preorder), so that
/// no match walks up to its callers. O(methods x name length + k + n / 32) for k contexts of
/// the matching methods; 2 bits a node of scratch.
///
///     ccrc::method_contexts by_method(p.tree());  // once per tree
///     ccrc::preorder_index order(p.tree());
///     auto ag = ccrc::inclusive(p.tree(), p.column("bytecodes"));
///     auto r = ccrc::search(by_method, order, p.tree(), p.column("bytecodes"), ag, {.name = {.text = "g"}});
template <metric_column C, metric_column A>
[[nodiscard]] search_result search(const method_contexts& by_method, const preorder_index& order, const call_tree& t,
                                   const C& self, const A& ag, const search_query& q) {
  search_result r = detail::indexed_search_start(by_method.size(), order, t, self, ag, q);
  detail::search_test matches(t, r, self, ag, q);
  // The matches as two bitmaps, by id (read back, they are the ascending result) and by
  // position in preorder (read back, each outermost match comes before the matches nested in
  // it: those lie below the end of its range).
  std::vector<std::uint64_t> by_id((t.size() + 63) / 64, 0), by_position(by_id.size(), 0);
  auto set = [](std::vector<std::uint64_t>& bits, std::uint32_t i) { bits[i / 64] |= std::uint64_t{1} << (i % 64); };
  auto each = [](const std::vector<std::uint64_t>& bits, auto&& f) {
    for (std::size_t w = 0; w < bits.size(); ++w)
      for (std::uint64_t b = bits[w]; b != 0; b &= b - 1)
        f(static_cast<std::uint32_t>(w * 64 + static_cast<std::size_t>(std::countr_zero(b))));
  };
  std::size_t found = 0;
  for (method_id m : r.methods.ids())
    for (node_id n : by_method.of(m))
      if (matches.passes(n)) {
        set(by_id, n);
        set(by_position, order.position(n));
        ++found;
      }
  r.nodes.reserve(found);
  each(by_id, [&](std::uint32_t n) { r.nodes.push_back(n); });
  std::uint32_t outer_end = 0;  // the end of the range of the last outermost match
  each(by_position, [&](std::uint32_t at) {
    if (at < outer_end) return;
    node_id n = order.at(at);
    r.covered += static_cast<double>(ag[n]);
    outer_end = order.end(n);
  });
  return r;
}

}  // namespace ccrc
