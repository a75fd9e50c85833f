// ccrc - search: the calling contexts whose method name and metrics match a query.
#pragma once

#include <ccrc/algorithm/inclusive.hpp>
#include <ccrc/algorithm/name_parts.hpp>
#include <ccrc/algorithm/regex.hpp>
#include <ccrc/concepts.hpp>
#include <ccrc/error.hpp>
#include <ccrc/tree/method_set.hpp>
#include <ccrc/tree/view.hpp>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ccrc {

/// Which part of a method name a query looks at (see ccrc::split_name).
enum class name_part {
  name,        ///< the whole name, arguments included
  package,     ///< the package or namespace: "java.util", "std::chrono"
  class_name,  ///< the class: "HashMap"
  method,      ///< the method alone: "get"
};

/// How a query's text matches.
enum class name_match {
  substring,  ///< the text occurs in the part
  regex,      ///< a regular expression found in the part (ccrc::regex: ECMAScript's syntax without
              ///< backreferences or lookaround; anchor it with ^ and $)
  exact,      ///< the part is the text
};

/// A query on method names. The empty substring matches every method.
struct name_query {
  std::string text{};
  name_match match = name_match::substring;
  name_part part = name_part::name;
  bool ignore_case = false;
};

/// A lower bound on a metric: an absolute value, or a share of the whole tree's total
/// (share = true, value 0.05 for 5 %).
struct threshold {
  double value = 0;
  bool share = false;
};

/// A search: a name query, and optional lower bounds on a context's self value and on its
/// aggregated value ag(M), both inclusive (value >= bound).
struct search_query {
  name_query name{};
  std::optional<threshold> min_self{};
  std::optional<threshold> min_total{};
};

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
  [[nodiscard]] double share() const noexcept {
    double s = covered / total;
    return total == 0 || !std::isfinite(s) ? 0.0 : s;
  }
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
  search_result r;
  r.methods = match_methods(t.symbols(), q.name);
  std::vector<double> ag(std::ranges::begin(self), std::ranges::end(self));
  inclusive_in_place(t, std::span(ag));
  r.total = ag[root_node];
  auto bound = [&](const threshold& b) { return b.share ? b.value * r.total : b.value; };
  double min_self = q.min_self ? bound(*q.min_self) : 0, min_total = q.min_total ? bound(*q.min_total) : 0;
  auto matches = [&](node_id n) {
    return n != root_node && r.methods.contains(t.method(n)) &&
           (!q.min_self || static_cast<double>(self[n]) >= min_self) && (!q.min_total || ag[n] >= min_total);
  };
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

}  // namespace ccrc
