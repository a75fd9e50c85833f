// ccrc - calling contexts written as text: "main;f;g", the frame names from the root.
#pragma once

#include <ccrc/error.hpp>
#include <ccrc/tree/call_tree.hpp>
#include <ccrc/ids.hpp>

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

namespace ccrc {

/// The calling context of n as text: the frame names from the outermost to n, joined by
/// `separator` ("main;f;g"); "" for the root. node_at_path reads it back when no name holds
/// the separator. O(depth + length of the text), one string.
///
///     ccrc::path_string(t, n);       // "main;f;g"
///     ccrc::path_string(t, n, '/');  // "main/f/g"
[[nodiscard]] inline std::string path_string(const call_tree& t, node_id n, char separator = ';') {
  std::string s;
  for (frame_id f : t.path(n)) {
    if (!s.empty()) s += separator;
    s += t.symbols().name(f);
  }
  return s;
}

/// How far a path goes in a tree (nearest_node_at_path).
struct path_prefix {
  node_id node = root_node;  ///< the context of the longest prefix of the path that names one (the root for none)
  bool whole = true;         ///< the whole path names it
};

namespace detail {

// nearest_node_at_path, and where in `path` the first frame that names no context starts
// (path.size() if none does not).
inline std::pair<path_prefix, std::size_t> walk_path(const call_tree& t, std::string_view path, char separator) {
  path_prefix found;
  for (std::size_t pos = 0; pos < path.size();) {
    std::size_t stop = std::min(path.find(separator, pos), path.size());
    auto f = t.symbols().find(path.substr(pos, stop - pos));
    node_id child = f ? t.find_child(found.node, *f) : null_node;
    if (child == null_node) {
      found.whole = false;
      return {found, pos};
    }
    found.node = child;
    pos = stop + 1;
  }
  return {found, path.size()};
}

}  // namespace detail

/// The node whose calling context is `path`, frame names from the root separated by
/// `separator` ("main;f;g"; "" is the root). Throws ccrc::error naming the first frame that
/// is missing and where ("no calling context 'main;x': no frame 'x' under 'main'"): a path
/// typed by a user deserves to know which part is wrong. O(length of path), expected (plus
/// the children of each wide parent on the path, scanned, on a tree without its child index).
///
///     ccrc::node_id g = ccrc::node_at_path(t, "main;f;g");
[[nodiscard]] inline node_id node_at_path(const call_tree& t, std::string_view path, char separator = ';') {
  const auto [found, pos] = detail::walk_path(t, path, separator);
  if (found.whole) return found.node;
  const std::size_t stop = std::min(path.find(separator, pos), path.size());
  std::string where = pos == 0 ? "at the top level" : "under '" + std::string(path.substr(0, pos - 1)) + "'";
  throw error("no calling context '" + std::string(path) + "': no frame '" + std::string(path.substr(pos, stop - pos)) +
              "' " + where);
}

/// The context of the longest prefix of `path` that names one: "main;f" for "main;f;x;y"
/// when main;f calls no x, the root when no top-level frame is the path's first; with
/// `whole`, node_at_path's node when the path names a context. For a path that may be stale
/// (a link to a view of another run, or of the tree shown another way): its nearest caller
/// there. O(length of path), expected.
///
///     ccrc::path_prefix p = ccrc::nearest_node_at_path(t, "main;f;gone");  // main;f, not whole
[[nodiscard]] inline path_prefix nearest_node_at_path(const call_tree& t, std::string_view path, char separator = ';') {
  return detail::walk_path(t, path, separator).first;
}

}  // namespace ccrc
