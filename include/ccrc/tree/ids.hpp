// ccrc - the dense integer ids that name nodes, frames and methods.
#pragma once

#include <cstdint>
#include <limits>

namespace ccrc {

/// A node of a call tree: a dense index, root = 0, and parent(n) < n for every other node.
/// Plain integers on purpose: they index metric columns (std::span, std::vector) directly.
using node_id = std::uint32_t;

/// A frame: a method, possibly qualified by a call site. Nodes are keyed by frame.
using frame_id = std::uint32_t;

/// A method (function) name. Flat profiles, search and call graphs group by method.
using method_id = std::uint32_t;

/// "No node": the parent of the root, the end of a sibling list.
inline constexpr node_id null_node = std::numeric_limits<node_id>::max();

/// The root of every call tree.
inline constexpr node_id root_node = 0;

/// The frame of the root: not a calling context, just the anchor of the top-level frames.
inline constexpr frame_id root_frame = 0;

/// A tree holds at most this many nodes; one more throws ccrc::capacity_error.
inline constexpr std::uint64_t max_nodes = null_node;

}  // namespace ccrc
