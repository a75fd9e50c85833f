// ccrc - calling contexts written as text: "main;f;g", the frame names from the root.
#pragma once

#include <ccrc/error.hpp>
#include <ccrc/tree/call_tree.hpp>
#include <ccrc/ids.hpp>

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>

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

/// The node whose calling context is `path`, frame names from the root separated by
/// `separator` ("main;f;g"; "" is the root). Throws ccrc::error naming the first frame that
/// is missing and where ("no calling context 'main;x': no frame 'x' under 'main'"): a path
/// typed by a user deserves to know which part is wrong. O(length of path), expected (plus
/// the children of each wide parent on the path, scanned, on a tree without its child index).
///
///     ccrc::node_id g = ccrc::node_at_path(t, "main;f;g");
[[nodiscard]] inline node_id node_at_path(const call_tree& t, std::string_view path, char separator = ';') {
  node_id n = root_node;
  for (std::size_t pos = 0; pos < path.size();) {
    std::size_t stop = std::min(path.find(separator, pos), path.size());
    std::string_view name = path.substr(pos, stop - pos);
    auto f = t.symbols().find(name);
    node_id child = f ? t.find_child(n, *f) : null_node;
    if (child == null_node) {
      std::string where = pos == 0 ? "at the top level" : "under '" + std::string(path.substr(0, pos - 1)) + "'";
      throw error("no calling context '" + std::string(path) + "': no frame '" + std::string(name) + "' " + where);
    }
    n = child;
    pos = stop + 1;
  }
  return n;
}

}  // namespace ccrc
