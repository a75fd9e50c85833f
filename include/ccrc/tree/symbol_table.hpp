// ccrc - the symbol table: interns method names and frames to dense ids.
#pragma once

#include <ccrc/detail/hash.hpp>
#include <ccrc/detail/prefetch.hpp>
#include <ccrc/error.hpp>
#include <ccrc/ids.hpp>

#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ccrc {

/// Interns method names to dense method_ids and frames (a method, optionally qualified by a
/// call site) to dense frame_ids, so that nodes store 4-byte keys and search, flat profiles
/// and call graphs work on the table instead of on every node.
///
/// Method 0 is the empty name and frame 0 its site-less frame: the root's. Ids are assigned in
/// first-intern order, so interning the same names in the same order gives the same ids.
/// Returned names stay valid for the table's lifetime (interning never moves them).
///
///     ccrc::symbol_table syms;
///     ccrc::frame_id f = syms.intern("java.util.HashMap.get(Object)");
///     assert(syms.intern("java.util.HashMap.get(Object)") == f && syms.name(f).size() == 30);
class symbol_table {
 public:
  /// Call site of a frame interned without one.
  static constexpr std::uint32_t no_site = 0;

  symbol_table() {
    slots_.assign(16, slot{null_method, 0});
    intern_method({});
    frames_.push_back({root_method, no_site});
    plain_frame_[0] = root_frame;
  }

  /// The frame of `name` without a call site. Expected O(|name|).
  frame_id intern(std::string_view name) {
    method_id m = intern_method(name);
    if (plain_frame_[m] == null_frame) plain_frame_[m] = add_frame(m, no_site);
    return plain_frame_[m];
  }

  /// The frame of `name` called from `site` (a bytecode index, a line, an address: the
  /// profiler's choice). Frames of one method at different sites are different CCT keys.
  frame_id intern(std::string_view name, std::uint32_t site) {
    if (site == no_site) return intern(name);
    method_id m = intern_method(name);
    auto [it, inserted] = sited_frames_.try_emplace(key(m, site), null_frame);
    if (inserted) it->second = add_frame(m, site);
    return it->second;
  }

  /// The method id of `name`, created if new. Expected O(|name|).
  method_id intern_method(std::string_view name) { return intern_method(name, hash_of(name)); }

  /// The site-less frames of `names`, interned in order: what intern() of each in turn
  /// returns, but each name's place in the table is fetched several names ahead, so that a
  /// million names new to a table larger than the caches wait for memory a few at a time
  /// rather than one after another. The table first makes room for every name as if new:
  /// meant for names that mostly are. Expected O(total length).
  std::vector<frame_id> intern_all(std::span<const std::string_view> names) {
    std::size_t capacity = slots_.size();  // room for all: no growing while fetching ahead
    while (2 * (method_names_.size() + names.size()) > capacity) capacity *= 2;
    if (capacity != slots_.size()) rehash(capacity);
    constexpr std::size_t ahead = 16;
    std::uint32_t hashes[ahead];
    std::vector<frame_id> frames(names.size());
    for (std::size_t i = 0; i < names.size() + ahead; ++i) {
      if (i >= ahead) {  // name j, its slot fetched `ahead` names ago
        const std::size_t j = i - ahead;
        const method_id m = intern_method(names[j], hashes[j % ahead]);
        if (plain_frame_[m] == null_frame) plain_frame_[m] = add_frame(m, no_site);
        frames[j] = plain_frame_[m];
      }
      if (i < names.size()) {
        hashes[i % ahead] = hash_of(names[i]);
        detail::prefetch(&slots_[hashes[i % ahead] & (slots_.size() - 1)]);
      }
    }
    return frames;
  }

  /// The site-less frame of `name`, if interned.
  [[nodiscard]] std::optional<frame_id> find(std::string_view name) const noexcept {
    auto m = find_method(name);
    if (!m || plain_frame_[*m] == null_frame) return std::nullopt;
    return plain_frame_[*m];
  }

  /// The method named `name`, if interned.
  [[nodiscard]] std::optional<method_id> find_method(std::string_view name) const noexcept {
    method_id m = slots_[find_slot(name, hash_of(name))].method;
    if (m == null_method) return std::nullopt;
    return m;
  }

  [[nodiscard]] method_id method(frame_id f) const noexcept { return frames_[f].method; }
  [[nodiscard]] std::uint32_t site(frame_id f) const noexcept { return frames_[f].site; }
  /// Name of the method of frame `f`.
  [[nodiscard]] std::string_view name(frame_id f) const noexcept {
    return method_names_[frames_[f].method];
  }
  [[nodiscard]] std::string_view method_name(method_id m) const noexcept {
    return method_names_[m];
  }

  /// Number of frames, root frame included: valid frame ids are [0, frame_count()).
  [[nodiscard]] std::size_t frame_count() const noexcept { return frames_.size(); }
  /// Number of methods, the root's empty name included.
  [[nodiscard]] std::size_t method_count() const noexcept { return method_names_.size(); }

  /// Heap bytes held (an estimate: string and deque bookkeeping are approximated).
  [[nodiscard]] std::size_t memory_bytes() const noexcept {
    std::size_t bytes = slots_.capacity() * sizeof(slot) +
                        plain_frame_.capacity() * sizeof(frame_id) +
                        frames_.capacity() * sizeof(frame_info) +
                        sited_frames_.size() * 32;
    for (const auto& s : method_names_) bytes += sizeof(std::string) + s.capacity();
    return bytes;
  }

 private:
  struct frame_info {
    method_id method;
    std::uint32_t site;
  };

  static std::uint64_t key(method_id m, std::uint32_t site) noexcept {
    return (std::uint64_t{m} << 32) | site;
  }

  frame_id add_frame(method_id m, std::uint32_t site) {
    if (frames_.size() >= null_frame) throw capacity_error("too many frames");
    frames_.push_back({m, site});
    return frame_id{frames_.size() - 1};
  }

  // A method in the open-addressing table, beside its name's hash: probing past other names
  // then reads nothing of theirs but the slot (one cache miss per probe, not three), and the
  // table grows without reading a name.
  struct slot {
    method_id method;
    std::uint32_t hash;
  };

  static std::uint32_t hash_of(std::string_view name) noexcept {
    return static_cast<std::uint32_t>(detail::hash_bytes(name));
  }

  method_id intern_method(std::string_view name, std::uint32_t h) {
    slot& at = slots_[find_slot(name, h)];
    if (at.method != null_method) return at.method;
    if (method_names_.size() >= null_method) throw capacity_error("too many methods");
    auto m = static_cast<method_id>(method_names_.size());
    method_names_.emplace_back(name);
    plain_frame_.push_back(null_frame);
    at = {m, h};
    if (2 * method_names_.size() > slots_.size()) rehash(2 * slots_.size());
    return m;
  }

  // Linear probing from the hash's low bits.
  std::size_t find_slot(std::string_view name, std::uint32_t h) const noexcept {
    std::size_t mask = slots_.size() - 1;
    for (std::size_t i = h & mask;; i = (i + 1) & mask) {
      const slot& s = slots_[i];
      if (s.method == null_method || (s.hash == h && method_names_[s.method] == name)) return i;
    }
  }

  void rehash(std::size_t capacity) {
    std::vector<slot> old(capacity, slot{null_method, 0});
    old.swap(slots_);
    std::size_t mask = capacity - 1;
    for (const slot& s : old) {
      if (s.method == null_method) continue;
      std::size_t i = s.hash & mask;
      while (slots_[i].method != null_method) i = (i + 1) & mask;
      slots_[i] = s;
    }
  }

  std::deque<std::string> method_names_;  // a deque: growing it never moves a name
  std::vector<slot> slots_;
  std::vector<frame_id> plain_frame_;  // method -> its site-less frame, or null_frame
  std::vector<frame_info> frames_;
  std::unordered_map<std::uint64_t, frame_id> sited_frames_;
};

}  // namespace ccrc
