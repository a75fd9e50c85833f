// ccrc - Brendan Gregg's folded (collapsed) stacks: "main;f;g 42", outermost frame first.
#pragma once

#include <ccrc/concepts.hpp>
#include <ccrc/detail/line_reader.hpp>
#include <ccrc/detail/number_text.hpp>
#include <ccrc/detail/text.hpp>
#include <ccrc/error.hpp>
#include <ccrc/tree/profile.hpp>
#include <ccrc/tree/view.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <istream>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace ccrc {

/// Options of the folded reader.
struct folded_options {
  /// A longer line is an error (it is refused as soon as this many bytes are seen).
  std::size_t max_line_bytes = detail::default_max_line_bytes;
  /// Accept negative counts (differential profiles); off by default, where one is an error.
  bool allow_negative = false;
  /// Refuse a line whose last frame ends in a blank and a number-like token once a
  /// `# metrics:` header fixed the count columns: with `# metrics: a b`, `main 1 2 3` is
  /// otherwise frame `main 1` with a = 2, b = 3 (frames may contain blanks), which may be a
  /// line with one count too many. Off by default.
  bool strict = false;
};

namespace detail {

// Parses folded lines into a profile. Consecutive lines of a folded file usually share a
// prefix (files are sorted, or written depth-first), so the frames the previous line
// already resolved are reused without hashing: a memcmp replaces most of the parsing.
class folded_parser {
 public:
  explicit folded_parser(const folded_options& options) : options_(options) {}

  void line(std::string_view s, std::uint64_t number) {
    number_ = number;
    while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
    if (s.empty()) return;
    if (s.front() == '#') return comment(s);
    if (!profile_) start(count_trailing_numbers(s));
    std::string_view stack = split_counts(s);
    if (options_.strict && from_header_) check_unambiguous(stack);
    add_to_sums();
    node_id n = resolve(stack);
    profile_->add(n, values_);
  }

  profile finish() {
    if (!profile_) start(1);
    profile_->shrink_to_fit();
    return std::move(*profile_);
  }

 private:
  [[noreturn]] void fail(const std::string& reason) const { throw parse_error(number_, reason); }

  // "# metrics: calls bytecodes" names the count columns; other comment lines are ignored.
  void comment(std::string_view s) {
    s.remove_prefix(1);
    while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
    constexpr std::string_view key = "metrics:";
    if (s.substr(0, key.size()) != key) return;
    if (profile_) fail("the '# metrics:' header must come before the first stack");
    std::vector<std::string> names;
    for (std::size_t i = key.size(); i < s.size();) {
      if (is_blank(s[i])) {
        ++i;
        continue;
      }
      std::size_t j = i;
      while (j < s.size() && !is_blank(s[j])) ++j;
      std::string name(s.substr(i, j - i));
      if (check_name_text(name)) fail("metric name '" + name + "' is not printable text");
      names.push_back(std::move(name));
      i = j;
    }
    if (names.empty()) fail("the '# metrics:' header names no metric");
    if (std::size_t k = first_repeated(names); k < names.size()) fail("metric '" + names[k] + "' is named twice");
    profile_.emplace(std::move(names));
    values_.resize(profile_->metric_count());
    sums_.resize(values_.size());
    from_header_ = true;
  }

  // The counts of each metric summed as magnitudes, refused at the line where that sum is no
  // longer finite: below it, no context's value, no ag(M) and no total can overflow a double
  // (a stack seen twice adds up; negative counts too), as the speedscope reader refuses.
  void add_to_sums() {
    for (std::size_t i = 0; i < values_.size(); ++i) {
      sums_[i] += std::fabs(values_[i]);
      if (!std::isfinite(sums_[i]))
        fail("the counts of metric '" + std::string(profile_->metric_name(i)) + "' add up to more than a double holds");
    }
  }

  // Strict mode: the last frame must not end in what reads as one more count.
  void check_unambiguous(std::string_view stack) const {
    std::size_t frame = stack.rfind(';');
    std::string_view last = stack.substr(frame == std::string_view::npos ? 0 : frame + 1);
    std::size_t space = last.find_last_of(" \t");
    double ignored;
    if (space != std::string_view::npos &&
        parse_number(last.substr(space + 1), true, ignored) != number_status::not_a_number)
      fail("frame '" + std::string(last.substr(0, 80)) + "' ends in a number: one count more than the " +
           std::to_string(values_.size()) + " the '# metrics:' header names? (strict mode)");
  }

  // Without a header, the first stack line decides how many counts a line has.
  std::size_t count_trailing_numbers(std::string_view s) const {
    std::size_t k = 0;
    for (;;) {
      std::size_t space = s.find_last_of(" \t");
      if (space == std::string_view::npos) break;
      double ignored;
      if (parse_number(s.substr(space + 1), true, ignored) == number_status::not_a_number) break;
      ++k;
      s = s.substr(0, space);
      while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
    }
    if (k == 0) fail("missing count: a line is 'frame;frame;... count'");
    return k;
  }

  void start(std::size_t k) {
    std::vector<std::string> names;
    if (k == 1) names.emplace_back("samples");
    for (std::size_t i = 1; k > 1 && i <= k; ++i) names.push_back("metric_" + std::to_string(i));
    profile_.emplace(std::move(names));
    values_.resize(k);
    sums_.resize(k);
  }

  // Parses the counts, right to left, into values_; returns the stack before them.
  std::string_view split_counts(std::string_view s) {
    for (std::size_t i = values_.size(); i-- > 0;) {
      std::size_t space = s.find_last_of(" \t");
      std::string_view token = s.substr(space == std::string_view::npos ? 0 : space + 1);
      number_status st = parse_number(token, options_.allow_negative, values_[i]);
      if (st != number_status::ok) {
        if (st == number_status::not_a_number || space == std::string_view::npos)
          fail(values_.size() == 1 ? "missing count: '" + std::string(token.substr(0, 40)) +
                                         "' is not a number"
                                   : "expected " + std::to_string(values_.size()) +
                                         " counts at the end of the line; '" +
                                         std::string(token.substr(0, 40)) + "' is not a number");
        fail("count '" + std::string(token.substr(0, 40)) + "' " + describe(st));
      }
      if (space == std::string_view::npos) fail("missing stack before the counts");
      s = s.substr(0, space);
      while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
    }
    if (s.empty()) fail("missing stack before the counts");
    return s;
  }

  // The node of `stack`, reusing the frames shared with the previous line.
  node_id resolve(std::string_view stack) {
    std::size_t common = common_prefix(stack, prev_);
    // Frames of the previous line whose ';' lies in the common prefix are the same frames.
    std::size_t reused = 0;
    while (reused < prev_ends_.size() && prev_ends_[reused] < common && prev_[prev_ends_[reused]] == ';')
      ++reused;
    prev_nodes_.resize(reused);
    prev_ends_.resize(reused);
    std::size_t pos = reused == 0 ? 0 : prev_ends_.back() + 1;
    node_id n = reused == 0 ? root_node : prev_nodes_.back();
    for (;;) {
      std::size_t stop = stack.find(';', pos);
      if (stop == std::string_view::npos) stop = stack.size();
      n = profile_->find_or_add_child(n, frame_of(stack.substr(pos, stop - pos)));
      prev_nodes_.push_back(n);
      prev_ends_.push_back(stop);
      if (stop == stack.size()) break;
      pos = stop + 1;
    }
    prev_.assign(stack);
    return n;
  }

  frame_id frame_of(std::string_view name) {
    if (name.empty()) fail("empty frame name (';;', or ';' at the start or end of the stack)");
    if (auto f = profile_->symbols().find(name)) return *f;
    if (const char* why = check_name_text(name))
      fail("frame name " + std::string(why) + " (binary data?)");
    return profile_->intern(name);
  }

  folded_options options_;
  bool from_header_ = false;  // the count columns were named by a '# metrics:' header
  std::optional<profile> profile_;
  std::vector<double> values_;
  std::vector<double> sums_;  // per metric: the magnitudes of its counts so far
  std::uint64_t number_ = 0;
  std::string prev_;                 // stack text of the previous line
  std::vector<node_id> prev_nodes_;  // node of each of its frames
  std::vector<std::size_t> prev_ends_;  // offset of the byte after each of its frames
};

template <class Read>
profile read_folded_from(Read&& read, const folded_options& options) {
  folded_parser parser(options);
  for_each_line(read, options.max_line_bytes,
                [&](std::string_view line, std::uint64_t number) { parser.line(line, number); });
  return parser.finish();
}

}  // namespace detail

/// Reads a folded-stacks profile: one line per stack, frames separated by ';' outermost
/// first, then one or more counts separated by blanks. Frames may contain spaces.
///
/// - Counts: integers or decimals ("42", "0.25", "1e6"); negative only with allow_negative.
/// - Metrics: a comment line `# metrics: calls bytecodes` before the first stack names the
///   columns; without it, one column is called `samples` and several `metric_1`, `metric_2`...
///   (their number taken from the first stack line). Other lines starting with '#' and blank
///   lines are ignored.
/// - A stack seen twice adds up; every frame line's counts are the self metrics of its last
///   frame. The top-level frames hang under the synthetic root (node 0).
/// - Errors throw ccrc::parse_error naming the line: missing or non-numeric count, negative
///   count, an integer a double cannot hold exactly, counts of a metric whose sum overflows a
///   double (at the line where it does), empty frame, control characters or invalid UTF-8 (binary
///   junk), a line over max_line_bytes, a misplaced header. Nothing is skipped silently.
///
/// O(bytes), one pass, memory O(tree + longest line).
///
///     ccrc::profile p = ccrc::read_folded("main;f 20 180\nmain;g 20 180\n");
///     // p.metric_names() == {"metric_1", "metric_2"}, 3 nodes besides the root
[[nodiscard]] inline profile read_folded(std::string_view text, const folded_options& options = {}) {
  return detail::read_folded_from(detail::memory_source{text}, options);
}

/// read_folded from a stream.
[[nodiscard]] inline profile read_folded(std::istream& in, const folded_options& options = {}) {
  return detail::read_folded_from(detail::stream_source{&in}, options);
}

/// read_folded from a file, read through a buffer (detail::file_source: a regular file as it
/// was when opened; one that shrinks while it is read, being written again, is a ccrc::error
/// naming it); throws ccrc::error if it cannot be opened.
[[nodiscard]] inline profile read_folded_file(const std::filesystem::path& path, const folded_options& options = {}) {
  return detail::read_folded_from(detail::file_source(path), options);
}

namespace detail {

// write_folded's output: written to `out` (Write), or counted only (folded_size): the paths,
// whose length grows with depth x contexts, are then measured rather than built. Every check
// is made either way, each before the line it concerns. Returns the bytes.
template <bool Write, metric_tree Tree>
std::uint64_t write_folded_to(std::ostream* out, const Tree& t) {
  const call_tree& tree = t.tree();
  const std::size_t max_line = default_max_line_bytes;
  std::string buf = "# metrics:";
  t.for_each_column([&](std::string_view name, auto column) {
    if (name.find_first_of(" \t") != std::string_view::npos || check_name_text(name))
      throw error("metric name '" + std::string(name.substr(0, 80)) + "' cannot be written to a folded file");
    buf.append(" ").append(name);
    if (column[root_node] != 0)
      throw error("the root has metrics of its own, which a folded file cannot hold");
  });
  if (buf.size() > max_line)
    throw error("the '# metrics:' line would be longer than the " + std::to_string(max_line) +
                " bytes read_folded accepts in a line");
  buf += '\n';

  std::uint64_t bytes = 0;
  auto flush = [&] {
    bytes += buf.size();
    if constexpr (Write) out->write(buf.data(), static_cast<std::streamsize>(buf.size()));
    buf.clear();
  };
  std::vector<char> checked(tree.symbols().frame_count(), 0);
  std::vector<std::size_t> length_at(1, 0);  // path length at each level
  std::string path;                          // built only when written
  preorder(tree_view(tree), [&](node_id n, std::uint32_t level) {
    if (level == 0) return;
    frame_id f = tree.frame(n);
    std::string_view name = tree.name(n);
    if (!checked[f]) {
      if (name.empty() || name.find(';') != std::string_view::npos || check_name_text(name))
        throw error("frame '" + std::string(name.substr(0, 80)) + "' cannot be written to a folded file");
      checked[f] = 1;
    }
    if (level == 1 && name.front() == '#')
      throw error("top-level frame '" + std::string(name.substr(0, 80)) + "' would read back as a comment");
    const std::size_t length = length_at[level - 1] + (level > 1 ? 1 : 0) + name.size();
    // The lines of its subtree are longer still, and it has one (a leaf's at least): refused
    // now, before the path grows further.
    if (length > max_line)
      throw error("the stack of '" + std::string(name.substr(0, 80)) + "' (depth " + std::to_string(level) + ") is " +
                  std::to_string(length) + " bytes, more than the " + std::to_string(max_line) +
                  " read_folded accepts in a line: write .cctb or speedscope, whose size does not grow with the depth");
    length_at.resize(level + 1);
    length_at[level] = length;
    if constexpr (Write) {
      path.resize(length_at[level - 1]);
      if (level > 1) path += ';';
      path += name;
    }

    bool emit = !tree.has_children(n);
    t.for_each_column([&](std::string_view, auto column) { emit = emit || column[n] != 0; });
    if (!emit) return;
    if (is_blank(name.back()))
      throw error("frame '" + std::string(name.substr(0, 80)) + "' ends in a blank, which a folded line cannot hold");
    if constexpr (Write) buf += path;
    else bytes += length;
    const std::size_t counts_at = buf.size();
    t.for_each_column([&](std::string_view, auto column) {
      if constexpr (std::is_floating_point_v<typename decltype(column)::value_type>)
        if (!std::isfinite(column[n]))
          throw error("non-finite metric value at '" + std::string(name.substr(0, 80)) + "' (depth " +
                      std::to_string(level) + ")");
      buf += ' ';
      append_number(buf, column[n]);
    });
    // Checked before the line leaves the buffer.
    if (const std::size_t line = length + (buf.size() - counts_at); line > max_line)
      throw error("the line of '" + std::string(name.substr(0, 80)) + "' (depth " + std::to_string(level) + ") is " +
                  std::to_string(line) + " bytes, more than the " + std::to_string(max_line) +
                  " read_folded accepts in a line: write .cctb or speedscope, whose size does not grow with the depth");
    buf += '\n';
    if (buf.size() >= (std::size_t{1} << 20)) flush();
  });
  flush();
  if (Write && !*out) throw error("write error");
  return bytes;
}

}  // namespace detail

/// Writes `t` (a ccrc::profile or ccrc::cct) as folded stacks, depth-first, preceded by a
/// `# metrics:` header: one line for every node with a non-zero metric and for every leaf,
/// so that read_folded gives back the same contexts with the same metrics. Each line holds
/// its context's whole stack: the output grows with the depth times the contexts written
/// (folded_size tells how much before writing). Throws ccrc::error for what the format
/// cannot hold (rather than writing something that would read back differently): metrics on
/// the root, a frame name with ';' or a control character, a line ending in a frame whose
/// name ends in a blank, a non-finite value, a metric name with a blank, a line longer than
/// read_folded accepts by default (folded_options::max_line_bytes, 64 MiB: long names on a
/// deep stack). O(total length of the written paths); memory: the longest path and 1 MiB.
template <metric_tree Tree>
void write_folded(std::ostream& out, const Tree& t) {
  (void)detail::write_folded_to<true>(&out, t);
}

/// The bytes write_folded writes for `t`, without writing them (or what it would throw). A
/// folded file holds every written context's whole stack, so the size is up to depth x
/// contexts x name length: a 200,000-deep chain of one-letter names with a value on every
/// context is 40 GB.
/// O(contexts x metrics): the paths are measured, not built.
///
///     if (ccrc::folded_size(p) > (std::uint64_t{1} << 30)) { /* write .cctb instead */ }
template <metric_tree Tree>
[[nodiscard]] std::uint64_t folded_size(const Tree& t) {
  return detail::write_folded_to<false>(nullptr, t);
}

}  // namespace ccrc
