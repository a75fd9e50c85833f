// The front ends: call stacks abbreviated for tooltips and the render JSON. Not part of the library.
//
// A tooltip or JSON entry per segment that carried the whole call stack would make output of
// size depth x segments (a 10,000-frame chain: 88 MB of JSON). Every stack the tool prints
// is therefore its first `head` and last `tail` frames with "… N frames …" between them.
#pragma once

#include <ccrc/algorithm/depth.hpp>
#include <ccrc/tree/call_tree.hpp>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

namespace stack_text {

/// Frames shown at the outer end of an abbreviated stack (see docs/ring-charts.md).
inline constexpr std::size_t head = 3;
/// Frames shown at the inner end of an abbreviated stack.
inline constexpr std::size_t tail = 6;

/// The marker that stands for `n` elided frames: "… n frames …".
inline std::string elided(std::size_t n) { return "\xe2\x80\xa6 " + std::to_string(n) + " frames \xe2\x80\xa6"; }

/// The most code points of a frame name a stack shows: a longer name keeps its first
/// brief_head and last brief_tail code points with "…" between them.
inline constexpr std::size_t brief_head = 120, brief_tail = 40;

/// `name`, or for one of more than brief_head + brief_tail + 1 code points, its first and last
/// ones with "…" between: tooltips and paths stay linear in the segments however long the
/// names (200 contexts of 100 KB names made a 177 MB SVG). Never cuts a UTF-8 sequence.
inline std::string brief(std::string_view name) {
  if (name.size() <= brief_head + brief_tail + 1) return std::string(name);  // bytes >= code points
  auto lead = [&](std::size_t i) { return (static_cast<unsigned char>(name[i]) & 0xC0) != 0x80; };
  std::size_t points = 0;
  for (std::size_t i = 0; i < name.size(); ++i) points += lead(i);
  if (points <= brief_head + brief_tail + 1) return std::string(name);
  std::size_t head_end = 0, tail_begin = name.size();
  for (std::size_t seen = 0; head_end < name.size(); ++head_end)
    if (lead(head_end) && seen++ == brief_head) break;
  for (std::size_t seen = 0; seen < brief_tail;)
    if (lead(--tail_begin)) ++seen;
  return std::string(name.substr(0, head_end)) + "\xe2\x80\xa6" + std::string(name.substr(tail_begin));
}

/// Abbreviated call stacks of one tree's nodes. Construction O(n) (depths and, per node, its
/// outermost ancestor that is still shown); each stack O(head + tail), whatever the depth.
class abbreviator {
 public:
  explicit abbreviator(const ccrc::call_tree& t) : tree_(t), depth_(ccrc::depths(t)), anchor_(t.size()) {
    // Parents have smaller ids than their children: one forward sweep.
    for (ccrc::node_id n = 0; n < t.size(); ++n)
      anchor_[n] = n == ccrc::root_node || depth_[n] <= head ? n : anchor_[t.parent(n)];
  }

  /// The call stack of n, outermost frame first, the root left out; a stack of more than
  /// head + tail + 1 frames has its middle replaced by one entry elided(count). O(head + tail).
  [[nodiscard]] std::vector<std::string> frames(ccrc::node_id n) const {
    std::size_t depth = depth_[n];
    std::vector<std::string> out;
    if (depth <= head + tail + 1) {
      for (ccrc::node_id m = n; m != ccrc::root_node; m = tree_.parent(m)) out.push_back(brief(tree_.name(m)));
      std::reverse(out.begin(), out.end());
      return out;
    }
    for (ccrc::node_id m = anchor_[n]; m != ccrc::root_node; m = tree_.parent(m)) out.push_back(brief(tree_.name(m)));
    std::reverse(out.begin(), out.end());
    out.push_back(elided(depth - head - tail));
    std::size_t first_tail = out.size();
    ccrc::node_id m = n;
    for (std::size_t k = 0; k < tail; ++k, m = tree_.parent(m)) out.push_back(brief(tree_.name(m)));
    std::reverse(out.begin() + static_cast<std::ptrdiff_t>(first_tail), out.end());
    return out;
  }

  /// frames(n) joined by `separator` ("main;f;g"). O(head + tail).
  [[nodiscard]] std::string path(ccrc::node_id n, char separator = ';') const {
    std::string s;
    for (const auto& f : frames(n)) {
      if (!s.empty()) s += separator;
      s += f;
    }
    return s;
  }

 private:
  const ccrc::call_tree& tree_;
  std::vector<std::uint32_t> depth_;
  std::vector<ccrc::node_id> anchor_;
};

}  // namespace stack_text
