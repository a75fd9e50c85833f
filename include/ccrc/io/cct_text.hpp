// ccrc - the .cct text format: frame names once, then one line per node, parents first.
#pragma once

#include <ccrc/concepts.hpp>
#include <ccrc/detail/line_reader.hpp>
#include <ccrc/io/native_format.hpp>
#include <ccrc/detail/number_text.hpp>
#include <ccrc/error.hpp>
#include <ccrc/tree/profile.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <istream>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace ccrc {

namespace detail {

inline constexpr std::string_view cct_text_magic = "ccrc-cct 1";

// Parses .cct lines into a call tree and metric columns, one state per section.
class cct_text_parser {
 public:
  void line(std::string_view s, std::uint64_t number) {
    number_ = number;
    switch (state_) {
      case state::magic: return magic(s);
      case state::metrics: return metrics(s);
      case state::frames: return count_line(s, "frames", frame_count_, state::frame_names);
      case state::frame_names: return frame_name(s);
      case state::sites_or_nodes: return sites_or_nodes(s);
      case state::sites: return site(s);
      case state::nodes_header: return count_line(s, "nodes", node_count_, state::nodes);
      case state::nodes: return node(s);
      case state::done:
        if (!blank(s)) fail("more lines than the " + std::to_string(node_count_) + " nodes announced");
    }
  }

  profile finish() {
    if (state_ != state::done) {
      number_ += 1;
      if (state_ == state::nodes || state_ == state::nodes_header)
        fail("the file ends after " + std::to_string(nodes_read_) + " of " + std::to_string(node_count_) + " nodes");
      fail("the file ends before its nodes (truncated, or not a .cct file)");
    }
    profile p(std::move(tree_), std::move(metric_names_));
    for (std::size_t i = 0; i < values_.size(); ++i) std::copy(values_[i].begin(), values_[i].end(), p.column(i).begin());
    p.shrink_to_fit();
    return p;
  }

 private:
  enum class state { magic, metrics, frames, frame_names, sites_or_nodes, sites, nodes_header, nodes, done };

  [[noreturn]] void fail(const std::string& reason) const { throw parse_error(number_, reason); }
  static bool blank(std::string_view s) { return s.find_first_not_of(" \t") == std::string_view::npos; }

  // The next blank-separated token of s, removed from s.
  static std::string_view token(std::string_view& s) {
    std::size_t i = 0;
    while (i < s.size() && is_blank(s[i])) ++i;
    std::size_t j = i;
    while (j < s.size() && !is_blank(s[j])) ++j;
    std::string_view t = s.substr(i, j - i);
    s.remove_prefix(j);
    return t;
  }

  // A decimal count below `limit`, or a parse error naming `what`.
  std::uint64_t count(std::string_view t, std::uint64_t limit, const char* what) const {
    std::uint64_t v = 0;
    if (t.empty() || t.size() > 19) fail(std::string("expected ") + what + ", not '" + std::string(t.substr(0, 40)) + "'");
    for (char c : t) {
      if (c < '0' || c > '9') fail(std::string("expected ") + what + ", not '" + std::string(t.substr(0, 40)) + "'");
      v = v * 10 + static_cast<std::uint64_t>(c - '0');
    }
    if (v >= limit) fail(std::string(what) + " " + std::string(t) + " is out of range");
    return v;
  }

  void magic(std::string_view s) {
    if (s.substr(0, 9) == "ccrc-cct " && s != cct_text_magic)
      fail("this is .cct version " + std::string(s.substr(9, 20)) + "; this reader knows version 1");
    if (s != cct_text_magic) fail("not a .cct file: the first line must be '" + std::string(cct_text_magic) + "'");
    state_ = state::metrics;
  }

  void metrics(std::string_view s) {
    if (token(s) != "metrics") fail("expected 'metrics NAME...' on the second line");
    for (std::string_view name = token(s); !name.empty(); name = token(s)) {
      if (const char* why = check_metric_name(name)) fail("metric name '" + std::string(name) + "' " + why);
      metric_names_.emplace_back(name);
    }
    if (metric_names_.empty()) fail("'metrics' names no metric");
    if (std::size_t k = detail::first_repeated(metric_names_); k < metric_names_.size())
      fail("metric '" + metric_names_[k] + "' is named twice");
    values_.resize(metric_names_.size());
    state_ = state::frames;
  }

  void count_line(std::string_view s, std::string_view key, std::uint64_t& n, state next) {
    std::string_view k = token(s);
    if (k != key) fail("expected '" + std::string(key) + " N', not '" + std::string(k.substr(0, 40)) + "'");
    n = count(token(s), key == "nodes" ? max_nodes + 1 : null_node, "a count");
    if (key == "nodes" && n == 0) fail("a tree has at least its root: 'nodes 0' is not valid");
    if (!token(s).empty()) fail("unexpected text after the count");
    state_ = next;
    if (next == state::frame_names && n == 0) state_ = state::sites_or_nodes;
    if (next == state::nodes) {
      tree_.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(n, 1 << 20)));
      for (auto& v : values_) v.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(n, 1 << 20)));
    }
  }

  void frame_name(std::string_view s) {
    if (const char* why = check_frame_name(s))
      fail("frame " + std::to_string(names_.size() + 1) + ": name " + why);
    names_.emplace_back(s);
    if (names_.size() == frame_count_) state_ = state::sites_or_nodes;
  }

  void sites_or_nodes(std::string_view s) {
    std::string_view rest = s;
    if (token(rest) != "sites") {
      intern_frames();
      return count_line(s, "nodes", node_count_, state::nodes);
    }
    sites_.assign(names_.size(), 0);
    site_count_ = count(token(rest), null_node, "a count");
    if (!token(rest).empty()) fail("unexpected text after the count");
    state_ = state::sites;
    if (site_count_ == 0) {
      intern_frames();
      state_ = state::nodes_header;
    }
  }

  void site(std::string_view s) {
    auto f = count(token(s), frame_count_ + 1, "a frame number");
    if (f == 0) fail("frame 0 (the root) has no call site");
    sites_[static_cast<std::size_t>(f - 1)] = static_cast<std::uint32_t>(count(token(s), std::uint64_t{1} << 32, "a call site"));
    if (!token(s).empty()) fail("unexpected text after the call site");
    if (++sites_read_ == site_count_) {
      intern_frames();
      state_ = state::nodes_header;
    }
  }

  void intern_frames() {
    for (std::size_t i = 0; i < names_.size(); ++i) {
      std::uint32_t site = sites_.empty() ? 0 : sites_[i];
      if (tree_.symbols().intern(names_[i], site) != i + 1)
        fail("frame " + std::to_string(i + 1) + " ('" + names_[i] + "') is listed twice");
    }
    std::vector<std::string>().swap(names_);
  }

  void node(std::string_view s) {
    std::string_view parent_text = token(s), frame_text = token(s);
    node_id expected = static_cast<node_id>(nodes_read_);
    if (nodes_read_ == 0) {
      if (parent_text != "-1" || frame_text != "0") fail("the first node is the root: '-1 0' then its values");
    } else {
      std::uint64_t parent = count(parent_text, max_nodes, "a parent node");
      if (parent >= nodes_read_) fail("parent " + std::to_string(parent) + " is not an earlier node");
      std::uint64_t frame = count(frame_text, max_nodes, "a frame number");
      if (frame == 0 || frame > frame_count_)
        fail("frame " + std::to_string(frame) + " is not listed (a node has a frame 1.." + std::to_string(frame_count_) + ")");
      if (tree_.find_or_add_child(static_cast<node_id>(parent), static_cast<frame_id>(frame)) != expected)
        fail("node " + std::to_string(expected) + " repeats a sibling's frame (same parent, same frame)");
    }
    for (auto& column : values_) {
      std::string_view t = token(s);
      double v;
      number_status st = parse_number(t, true, v);
      if (st != number_status::ok) {
        if (t.empty()) fail("expected " + std::to_string(values_.size()) + " metric values after the parent and frame");
        fail("value '" + std::string(t.substr(0, 40)) + "' " + describe(st));
      }
      column.push_back(v);
    }
    if (!token(s).empty()) fail("more than " + std::to_string(values_.size()) + " metric values");
    if (++nodes_read_ == node_count_) state_ = state::done;
  }

  state state_ = state::magic;
  std::uint64_t number_ = 0;
  std::vector<std::string> metric_names_, names_;
  std::vector<std::uint32_t> sites_;
  std::uint64_t frame_count_ = 0, site_count_ = 0, sites_read_ = 0, node_count_ = 0, nodes_read_ = 0;
  call_tree tree_;
  std::vector<std::vector<double>> values_;
};

template <class Read>
profile read_cct_from(Read&& read) {
  cct_text_parser parser;
  // Every line ends with a newline: a file cut inside its last number is caught.
  char last = '\n';
  std::uint64_t lines = 0;
  auto tracked = [&](char* dst, std::size_t cap) {
    std::size_t n = read(dst, cap);
    if (n != 0) last = dst[n - 1];
    return n;
  };
  // Frame names are at most 64 MiB, like folded lines; node lines are short.
  for_each_line(tracked, default_max_line_bytes, [&](std::string_view line, std::uint64_t number) {
    lines = number;
    parser.line(line, number);
  });
  if (last != '\n') throw parse_error(lines, "the last line has no newline (a truncated file?)");
  return parser.finish();
}

}  // namespace detail

/// Writes `t` (a ccrc::profile or ccrc::cct) in the .cct text format, node ids kept:
///
///     ccrc-cct 1
///     metrics calls bytecodes
///     frames 2               then that many frame names, one a line (frame 1, 2, ...)
///     main
///     f
///     nodes 3                then one line per node, node 0 (the root) first:
///     -1 0 0 0               parent, frame, one value per metric
///     0 1 1 1066
///     1 2 20 180
///
/// A `sites K` section with K lines `FRAME SITE` follows the names when frames have call
/// sites. Values are written exactly (integers up to 2^53 as digits, others in their shortest
/// round-trip form). Throws ccrc::error for what the format cannot hold: an empty name or one
/// with a control character, a metric name with a blank, a name (or the line of metric names)
/// longer than the 64 MiB read_cct accepts in a line, a non-finite value. O(N); memory 1 MiB.
template <metric_tree Tree>
void write_cct(std::ostream& out, const Tree& t) {
  const call_tree& tree = t.tree();
  const symbol_table& syms = tree.symbols();
  std::vector<std::string> metric_names = detail::native_names(t);
  std::string buf(detail::cct_text_magic);
  buf += "\nmetrics";
  for (const auto& name : metric_names) buf.append(" ").append(name);
  const auto too_long = [](std::string_view what, std::size_t bytes) {
    return error(std::string(what) + " is " + std::to_string(bytes) + " bytes, longer than the " +
                 std::to_string(detail::default_max_line_bytes) + " read_cct accepts in a line: write .cctb");
  };
  if (buf.size() - detail::cct_text_magic.size() - 1 > detail::default_max_line_bytes)
    throw too_long("the line of metric names", buf.size() - detail::cct_text_magic.size() - 1);
  for (frame_id f{1}; f < syms.frame_count(); ++f)
    if (syms.name(f).size() > detail::default_max_line_bytes)
      throw too_long("frame name '" + std::string(syms.name(f).substr(0, 80)) + "...'", syms.name(f).size());
  buf += "\nframes " + std::to_string(syms.frame_count() - 1) + "\n";
  auto flush = [&] {
    out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
    buf.clear();
  };
  auto flush_full = [&] {
    if (buf.size() >= (std::size_t{1} << 20)) flush();
  };
  std::size_t sited = 0;
  for (frame_id f{1}; f < syms.frame_count(); ++f) {
    buf.append(syms.name(f)).append("\n");
    sited += syms.site(f) != symbol_table::no_site;
    flush_full();
  }
  if (sited != 0) {
    buf += "sites " + std::to_string(sited) + "\n";
    for (frame_id f{1}; f < syms.frame_count(); ++f) {
      if (syms.site(f) != symbol_table::no_site) buf += std::to_string(f) + " " + std::to_string(syms.site(f)) + "\n";
      flush_full();
    }
  }
  buf += "nodes " + std::to_string(tree.size()) + "\n";
  char digits[16];
  for (node_id n = 0; n < tree.size(); ++n) {
    if (n == root_node) {
      buf += "-1 0";
    } else {
      buf.append(digits, std::to_chars(digits, digits + sizeof digits, tree.parent(n)).ptr);
      buf += ' ';
      buf.append(digits, std::to_chars(digits, digits + sizeof digits, static_cast<std::uint32_t>(tree.frame(n))).ptr);
    }
    t.for_each_column([&](std::string_view name, auto column) {
      auto v = static_cast<double>(column[n]);
      if (!std::isfinite(v)) throw error("metric '" + std::string(name) + "' has a non-finite value");
      buf += ' ';
      detail::append_exact(buf, v);
    });
    buf += '\n';
    flush_full();
  }
  flush();
  if (!out) throw error("write error");
}

/// Reads a .cct text profile, node ids as written. Strict: every section in its place, counts
/// that match, parents before children, frames that exist, no two siblings with one frame,
/// values that are finite numbers; anything else throws ccrc::parse_error naming the line.
/// Every line ends with a newline (so a cut inside the last number is caught); blank lines
/// after the last node are ignored. O(bytes), one pass, memory O(tree).
///
///     ccrc::profile p = ccrc::read_cct("ccrc-cct 1\nmetrics samples\nframes 1\nmain\nnodes 2\n-1 0 0\n0 1 5\n");
[[nodiscard]] inline profile read_cct(std::string_view text) { return detail::read_cct_from(detail::memory_source{text}); }

/// read_cct from a stream.
[[nodiscard]] inline profile read_cct(std::istream& in) { return detail::read_cct_from(detail::stream_source{&in}); }

/// read_cct from a file; throws ccrc::error if it cannot be opened or shrinks
/// while it is read (detail::file_source).
[[nodiscard]] inline profile read_cct_file(const std::filesystem::path& path) {
  return detail::read_cct_from(detail::file_source(path));
}

}  // namespace ccrc
