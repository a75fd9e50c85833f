// ccrc - the hash index from (parent, frame) to child, kept only for wide parents.
#pragma once

#include <ccrc/detail/hash.hpp>
#include <ccrc/ids.hpp>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ccrc::detail {

/// Open addressing over node ids. The key of a stored node n is (parent[n], frame[n]), read
/// from the tree's own columns, so a slot costs 4 bytes and the index holds no copy of them.
class child_index {
 public:
  [[nodiscard]] node_id find(node_id parent, frame_id frame, const node_id* parents,
                             const frame_id* frames) const noexcept {
    if (slots_.empty()) return null_node;
    std::size_t mask = slots_.size() - 1;
    for (std::size_t i = hash(parent, frame) & mask;; i = (i + 1) & mask) {
      node_id n = slots_[i];
      if (n == null_node || (frames[n] == frame && parents[n] == parent)) return n;
    }
  }

  /// Makes room for `extra` more entries; the only member that allocates.
  void reserve_more(std::size_t extra, const node_id* parents, const frame_id* frames) {
    std::size_t needed = 2 * (size_ + extra);  // load factor <= 1/2
    if (needed <= slots_.size()) return;
    std::vector<node_id> old(std::bit_ceil(needed < 64 ? std::size_t{64} : needed), null_node);
    old.swap(slots_);
    size_ = 0;
    for (node_id n : old)
      if (n != null_node) insert(n, parents, frames);
  }

  /// Inserts node n (not yet present); needs a prior reserve_more.
  void insert(node_id n, const node_id* parents, const frame_id* frames) noexcept {
    std::size_t mask = slots_.size() - 1;
    std::size_t i = hash(parents[n], frames[n]) & mask;
    while (slots_[i] != null_node) i = (i + 1) & mask;
    slots_[i] = n;
    ++size_;
  }

  /// Empties the index and frees its slots.
  void release() noexcept {
    std::vector<node_id>().swap(slots_);  // not `= {}`: that assigns an empty list, keeping the capacity
    size_ = 0;
  }

  /// Number of entries.
  [[nodiscard]] std::size_t size() const noexcept { return size_; }

  [[nodiscard]] std::size_t memory_bytes() const noexcept {
    return slots_.capacity() * sizeof(node_id);
  }

 private:
  static std::uint64_t hash(node_id parent, frame_id frame) noexcept {
    return mix64((std::uint64_t{parent} << 32) | frame);
  }

  std::vector<node_id> slots_;
  std::size_t size_ = 0;
};

}  // namespace ccrc::detail
