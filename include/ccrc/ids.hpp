// ccrc - the dense integer ids that name nodes, frames and methods.
#pragma once

#include <compare>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>

namespace ccrc {

/// A node of a call tree: a dense index, root = 0, and parent(n) < n for every other node.
/// A plain integer on purpose: node ids index metric columns (std::span, std::vector) and are
/// compared and subtracted (parent(n) < n) in every algorithm.
using node_id = std::uint32_t;

namespace detail {

/// A dense 32-bit id of one kind (Tag): frames and methods hold equal values whenever there
/// are no call sites, so they get distinct types, and passing or assigning one for the other
/// fails to compile (as does comparing them). An id converts to its integer implicitly, to
/// index the arrays it is dense for; an integer becomes an id only explicitly (`frame_id{3}`).
template <class Tag>
class dense_id {
 public:
  constexpr dense_id() noexcept = default;
  template <std::integral I>
  constexpr explicit dense_id(I value) noexcept : value_(static_cast<std::uint32_t>(value)) {}

  constexpr operator std::uint32_t() const noexcept { return value_; }  // NOLINT: by design
  constexpr dense_id& operator++() noexcept {
    ++value_;
    return *this;
  }

  friend constexpr bool operator==(dense_id, dense_id) noexcept = default;
  friend constexpr std::strong_ordering operator<=>(dense_id, dense_id) noexcept = default;
  template <class Other>
  friend bool operator==(dense_id, dense_id<Other>) = delete;  // a frame is no method
  template <std::same_as<std::uint32_t> NodeId>
  friend bool operator==(dense_id, NodeId) = delete;  // nor a node (null_node: null_frame, null_method)

 private:
  std::uint32_t value_ = 0;
};

struct frame_tag;
struct method_tag;

}  // namespace detail

/// A frame: a method, possibly qualified by a call site. Nodes are keyed by frame.
using frame_id = detail::dense_id<detail::frame_tag>;

/// A method (function) name. Flat profiles, search and call graphs group by method.
using method_id = detail::dense_id<detail::method_tag>;

/// "No node": the parent of the root, the end of a sibling list.
inline constexpr node_id null_node = std::numeric_limits<node_id>::max();

/// The root of every call tree.
inline constexpr node_id root_node = 0;

/// "No frame", where a frame may be missing (a failed lookup).
inline constexpr frame_id null_frame{std::numeric_limits<std::uint32_t>::max()};

/// "No method", where a method may be missing.
inline constexpr method_id null_method{std::numeric_limits<std::uint32_t>::max()};

/// The frame of the root: not a calling context, just the anchor of the top-level frames.
inline constexpr frame_id root_frame{0};

/// The method of the root's frame: the empty name, method 0 of every symbol table.
inline constexpr method_id root_method{0};

/// A tree holds at most this many nodes; one more throws ccrc::capacity_error.
inline constexpr std::uint64_t max_nodes = null_node;

}  // namespace ccrc

/// Frame and method ids hash as their integers (keys of std::unordered_map and friends).
template <class Tag>
struct std::hash<ccrc::detail::dense_id<Tag>> {
  std::size_t operator()(ccrc::detail::dense_id<Tag> id) const noexcept { return std::hash<std::uint32_t>{}(id); }
};
