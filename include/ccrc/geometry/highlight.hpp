// ccrc - highlighting a set of calling contexts (a search result) in a ring chart or an icicle.
#pragma once

#include <ccrc/concepts.hpp>
#include <ccrc/enum_names.hpp>
#include <ccrc/geometry/color.hpp>
#include <ccrc/geometry/icicle.hpp>
#include <ccrc/geometry/ring_chart.hpp>
#include <ccrc/tree/preorder_index.hpp>

#include <algorithm>
#include <bit>
#include <concepts>
#include <cstdint>
#include <ranges>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

namespace ccrc {

/// How a segment relates to a set of highlighted calling contexts.
enum class highlight_state : std::uint8_t {
  none,            ///< neither it nor any of its descendants is highlighted
  match,           ///< its calling context is highlighted (for a line standing for several
                   ///< siblings: one of them is)
  contains_match,  ///< a descendant is: draw it so that the match, perhaps culled into a line or
                   ///< cut by the depth limit, can be found
};

/// The states' names, by value (ccrc::name_of, ccrc::enum_named).
[[nodiscard]] constexpr auto enum_names(highlight_state) noexcept {
  return std::array<std::string_view, 3>{"none", "match", "contains_match"};
}

/// The fill of a matched segment: a red that white text reads on (contrast 4.8:1).
inline constexpr rgb highlight_color{0xd1, 0x3b, 0x2b};

namespace detail {

// Where each level of a chart starts in its segments (ring_begin, row_begin).
inline const std::vector<std::size_t>& level_starts(const ring_layout& chart) noexcept { return chart.ring_begin; }
inline const std::vector<std::size_t>& level_starts(const icicle_layout& chart) noexcept { return chart.row_begin; }

// Which culled line of a chart stands for a hidden child of a shown parent.
template <class Layout, class V>
class sibling_lines {
 public:
  using segment = typename decltype(Layout::segments)::value_type;

  sibling_lines(const Layout& chart, const call_tree& t, const V* ag) : chart_(chart), t_(t), values_(ag) {}

  // The segments of segments[p]'s children: contiguous in their level, in chart order, each
  // line standing for the siblings from its node up to the next segment's.
  [[nodiscard]] std::span<const segment> children_of(std::uint32_t p) const {
    const segment* segs = chart_.segments.data();
    const std::vector<std::size_t>& starts = level_starts(chart_);
    std::size_t level = segs[p].depth + 1;
    if (level + 1 >= starts.size()) return {};
    auto by_parent = [](const segment& s, std::uint32_t q) { return s.parent < q; };
    const segment* end = segs + starts[level + 1];
    const segment* first = std::lower_bound(segs + starts[level], end, p, by_parent);
    const segment* last = std::lower_bound(first, end, p + 1, by_parent);
    return {first, static_cast<std::size_t>(last - first)};
  }

  // The line among `children` (children_of a segment) that merged child c, or no_segment (c
  // is shown, or below the depth limit).
  [[nodiscard]] std::uint32_t merged_into(std::span<const segment> children, node_id c) const {
    auto after = std::upper_bound(children.begin(), children.end(), c,
                                  [&](node_id x, const segment& s) { return before(x, s.node); });
    if (after == children.begin()) return no_segment;
    const segment& s = *--after;
    return is_line(s) && s.contexts > 1 ? static_cast<std::uint32_t>(&s - chart_.segments.data()) : no_segment;
  }

 private:
  // Whether child a comes before child b in the chart's order (ring_chart's own order).
  [[nodiscard]] bool before(node_id a, node_id b) const {
    switch (chart_.order) {
      case child_order::value:
        return heavier({ring_weight(values_[a]), a}, {ring_weight(values_[b]), b});
      case child_order::name: {
        std::string_view na = t_.name(a), nb = t_.name(b);
        return na != nb ? na < nb : a < b;
      }
      case child_order::insertion: break;
    }
    return a < b;
  }

  const Layout& chart_;
  const call_tree& t_;
  const V* values_;
};

}  // namespace detail

/// The highlight state of every segment of `chart`, a ring chart or an icicle (laid out from a
/// view of `t` with the aggregated column `ag`) for the calling contexts `matches`: `match` for a segment standing
/// for one of them (a chain: for one of its contexts), `contains_match` for a segment with one among its descendants in the tree
/// (shown or not), `none` otherwise. Matches outside the chart's view change nothing;
/// duplicates are fine. O(s log s + m d log s) for s segments and m matches at most d levels
/// below the chart; with m >= max(n / 256, 64) for a tree of n nodes, at most
/// O(s log s + n log s), each hidden context walked once (and 4 bytes a node).
///
///     std::vector<ccrc::node_id> hits = search(p, "HashMap");  // any search
///     auto state = ccrc::highlight(chart, p.tree(), ag, hits);  // one per segment
template <chart_layout Layout, metric_column C>
[[nodiscard]] std::vector<highlight_state> highlight(const Layout& chart, const call_tree& t, const C& ag,
                                                     std::span<const node_id> matches) {
  CCRC_ASSERT(std::ranges::size(ag) == t.size(), "ccrc: the column must have one value per node");
  const auto& segs = chart.segments;
  // Segment of a node (a chain's every context included): an open-addressing table of at
  // least twice the contexts shown, so that the lookups of every match and every hidden
  // context walked stay O(1) and in cache.
  std::size_t shown = 0;
  for (const auto& s : segs) shown += is_line(s) ? 1 : s.contexts;
  std::size_t slots = std::bit_ceil(2 * shown + 2);
  std::vector<std::pair<node_id, std::uint32_t>> table(slots, {null_node, no_segment});
  auto slot = [&](node_id n) {
    std::size_t i = (std::size_t{n} * 0x9E3779B1u) & (slots - 1);
    while (table[i].first != n && table[i].first != null_node) i = (i + 1) & (slots - 1);
    return i;
  };
  auto enter = [&](node_id n, std::size_t i) {
    std::size_t k = slot(n);
    if (table[k].first == null_node) table[k] = {n, static_cast<std::uint32_t>(i)};
  };
  for (std::size_t i = 0; i < segs.size(); ++i) {
    enter(segs[i].node, i);
    if (!is_line(segs[i]))
      for (node_id x = segs[i].last; x != segs[i].node; x = t.parent(x)) enter(x, i);
  }
  auto segment_of = [&](node_id n) { return table[slot(n)].second; };
  detail::sibling_lines lines(chart, t, std::ranges::data(ag));
  std::vector<highlight_state> state(segs.size(), highlight_state::none);
  // Below a shown context, a hidden one is reached from every match beneath it: with many
  // matches, remember for each hidden context walked the child of its nearest shown ancestor
  // (`outside`: none), so that no context is walked twice. O(n) to set up (a memset), worth
  // it once there is a match per 256 nodes (and 64 at least, so that small trees walk).
  constexpr node_id unknown = null_node - 1, outside = null_node;
  std::vector<node_id> memo;
  if (matches.size() >= std::max<std::size_t>(t.size() / 256, 64)) memo.assign(t.size(), unknown);
  std::vector<node_id> walked;
  for (node_id m : matches) {
    CCRC_ASSERT(m < t.size(), "ccrc: a match is not a node of the tree");
    // The nearest shown context n at or above m, and its child `below` on the path to m when
    // m itself is culled or below the depth limit.
    node_id n = m, below = null_node;
    std::uint32_t i = segment_of(m);
    if (i == no_segment) {
      walked.clear();
      for (node_id x = m;;) {  // x is hidden
        if (!memo.empty() && memo[x] != unknown) {
          below = memo[x];
          break;
        }
        walked.push_back(x);
        if (x == root_node) {
          below = outside;
          break;
        }
        if (segment_of(t.parent(x)) != no_segment) {
          below = x;
          break;
        }
        x = t.parent(x);
      }
      if (!memo.empty())
        for (node_id w : walked) memo[w] = below;
      if (below == outside) continue;  // not in the view
      i = segment_of(n = t.parent(below));
    }
    std::uint32_t up = i;           // where the contains_match walk starts
    if (n == m) {
      state[i] = highlight_state::match;
      up = segs[i].parent;
    } else if (!is_line(segs[i]) && n == segs[i].last) {
      // n is shown and the child `below` is not: merged into a line with other siblings?
      std::uint32_t line = lines.merged_into(lines.children_of(i), below);
      if (line != no_segment) {
        if (below == m)
          state[line] = highlight_state::match;
        else if (state[line] == highlight_state::none)
          state[line] = highlight_state::contains_match;
      }
    }
    // Every marked segment has its ancestors marked already: stop at the first one.
    for (; up != no_segment && state[up] == highlight_state::none; up = segs[up].parent)
      state[up] = highlight_state::contains_match;
  }
  return state;
}

/// Per node of a tree, how it relates to a set of highlighted calling contexts: `match`, or
/// `contains_match` for a node with a match below it (a match with matches below stays a
/// match). Made once per set (a search), it highlights every chart of the tree laid out
/// afterwards in O(its segments) rather than walking up from every match again: what a viewer
/// keeps while the user navigates. The matches are a bitmap over the tree's preorder with a
/// count per 64 positions, so that "a match below n" is a count over n's range; O(m + n / 64)
/// to make for m matches, 1.5 bits a node. The index must outlive the marks.
///
///     ccrc::preorder_index order(p.tree());                  // once per tree
///     ccrc::highlight_marks marks(order, found.nodes);        // once per search
///     auto state = ccrc::highlight(chart, p.tree(), ag, marks);  // once per layout
class highlight_marks {
 public:
  highlight_marks(const preorder_index& order, std::span<const node_id> matches)
      : order_(&order), bits_(order.size() / 64 + 1, 0), before_(bits_.size(), 0) {
    for (node_id m : matches) {
      CCRC_ASSERT(m < order.size(), "ccrc: a match is not a node of the tree");
      std::uint32_t at = order.position(m);
      bits_[at / 64] |= std::uint64_t{1} << (at % 64);
    }
    count_before();
  }
  /// The marks of the matches a bitmap over the preorder names (bit `at` set: the node at
  /// position `at` matches), as search_positions finds them: no node is looked up.
  highlight_marks(const preorder_index& order, std::vector<std::uint64_t> positions)
      : order_(&order), bits_(std::move(positions)) {
    CCRC_ASSERT(bits_.size() <= order.size() / 64 + 1, "ccrc: a match is not a node of the tree");
    bits_.resize(order.size() / 64 + 1, 0);
    before_.assign(bits_.size(), 0);
    count_before();
  }
  [[nodiscard]] highlight_state operator[](node_id n) const noexcept {
    std::uint32_t at = order_->position(n);
    if (is_match(at)) return highlight_state::match;
    return matches_before(order_->end(n)) > matches_before(at + 1) ? highlight_state::contains_match
                                                                   : highlight_state::none;
  }
  /// Number of nodes: the size of the tree marked.
  [[nodiscard]] std::size_t size() const noexcept { return order_->size(); }

  /// f(c, mark) for each child c of n (a node of t, the tree indexed) that is marked, in id
  /// order, until f returns false. Runs of children holding no match are skipped: from one
  /// match to the next through the bitmap (O(log(n / 64)) at most), then to n's child holding
  /// it in twice the fewer of the children skipped and the levels from n down to the match.
  template <std::predicate<node_id, highlight_state> F>
  void for_each_marked_child(const call_tree& t, node_id n, F&& f) const {
    const std::uint32_t end = order_->end(n);
    std::uint32_t at = order_->position(n) + 1;  // the next child's position
    for (std::uint32_t p; (p = next_match(at, end)) < end;) {
      // The child holding the match, by two walks in step: along n's children from the next
      // one, and up from the match; the shorter ends it (so it costs twice the fewer of the
      // children skipped and the levels below n).
      node_id c = order_->at(at);
      if (order_->end(c) <= p)
        for (node_id below = order_->at(p);; below = t.parent(below)) {
          if (t.parent(below) == n) {
            c = below;
            break;
          }
          c = order_->at(order_->end(c));
          if (order_->end(c) > p) break;
        }
      if (!f(c, order_->position(c) == p ? highlight_state::match : highlight_state::contains_match)) return;
      at = order_->end(c);
    }
  }

 private:
  void count_before() {
    for (std::size_t w = 1; w < bits_.size(); ++w)
      before_[w] = before_[w - 1] + static_cast<std::uint32_t>(std::popcount(bits_[w - 1]));
  }
  [[nodiscard]] bool is_match(std::uint32_t at) const noexcept { return (bits_[at / 64] >> (at % 64) & 1) != 0; }
  // The first match at a position in [from, end), or end: in from's word or the next few, or
  // else in the word the counts say holds the next match.
  [[nodiscard]] std::uint32_t next_match(std::uint32_t from, std::uint32_t end) const noexcept {
    if (from >= end) return end;
    std::size_t word = from / 64;
    std::uint64_t bits = bits_[word] & ~((std::uint64_t{1} << (from % 64)) - 1);
    for (std::size_t last = std::min(word + 8, std::size_t{end} / 64); bits == 0 && word < last;) bits = bits_[++word];
    if (bits == 0) {
      const std::uint32_t k = matches_before(from);
      if (k == matches_before(end)) return end;
      word = static_cast<std::size_t>(std::upper_bound(before_.begin(), before_.end(), k) - before_.begin()) - 1;
      bits = bits_[word];
    }
    return std::min(end, static_cast<std::uint32_t>(word * 64 + static_cast<std::size_t>(std::countr_zero(bits))));
  }
  // Matches at positions below `at`.
  [[nodiscard]] std::uint32_t matches_before(std::uint32_t at) const noexcept {
    std::uint64_t low = (std::uint64_t{1} << (at % 64)) - 1;
    return before_[at / 64] + static_cast<std::uint32_t>(std::popcount(bits_[at / 64] & low));
  }

  const preorder_index* order_;
  std::vector<std::uint64_t> bits_;   // by position in preorder; one word more than needed,
  std::vector<std::uint32_t> before_;  // so that the end of the root's range has one too
};

/// highlight() from marks made once for the matches: the same states, at the cost of the chart
/// (its segments, and the marked callees of the parents of its culled lines, each found as
/// highlight_marks::for_each_marked_child finds it) instead of the matches.
template <chart_layout Layout, metric_column C>
[[nodiscard]] std::vector<highlight_state> highlight(const Layout& chart, const call_tree& t, const C& ag,
                                                     const highlight_marks& marks) {
  CCRC_ASSERT(marks.size() == t.size(), "ccrc: the marks are of another tree");
  const auto& segs = chart.segments;
  std::vector<highlight_state> state(segs.size());
  for (std::size_t i = 0; i < segs.size(); ++i) {
    state[i] = marks[segs[i].node];
    // A chain is a match when any of its contexts is.
    if (!is_line(segs[i]))
      for (node_id x = segs[i].last; x != segs[i].node && state[i] == highlight_state::contains_match; x = t.parent(x))
        if (marks[x] == highlight_state::match) state[i] = highlight_state::match;
  }
  // A line standing for several siblings takes the strongest mark among them: read the
  // marked callees of each parent of such a line once.
  detail::sibling_lines lines(chart, t, std::ranges::data(ag));
  std::uint32_t scanned = no_segment;
  for (std::size_t i = 0; i < segs.size(); ++i) {
    const auto& s = segs[i];
    if (!is_line(s) || s.contexts <= 1 || s.parent == scanned) continue;
    scanned = s.parent;
    auto children = lines.children_of(scanned);
    auto open = std::count_if(children.begin(), children.end(), [&](const auto& c) {  // lines not yet a match
      return is_line(c) && c.contexts > 1 &&
             state[static_cast<std::size_t>(&c - segs.data())] != highlight_state::match;
    });
    if (open == 0) continue;
    marks.for_each_marked_child(t, segs[scanned].last, [&](node_id c, highlight_state m) {
      std::uint32_t line = lines.merged_into(children, c);
      if (line == no_segment || state[line] == highlight_state::match) return true;
      state[line] = m;
      return m != highlight_state::match || --open > 0;
    });
  }
  return state;
}

}  // namespace ccrc
