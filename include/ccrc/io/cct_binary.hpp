// ccrc - the .cctb binary format: a calling context tree as a few arrays, loaded at memory speed.
#pragma once

#include <ccrc/concepts.hpp>
#include <ccrc/detail/hash.hpp>
#include <ccrc/detail/line_reader.hpp>
#include <ccrc/detail/portable.hpp>
#include <ccrc/io/native_format.hpp>
#include <ccrc/error.hpp>
#include <ccrc/tree/profile.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <istream>
#include <iterator>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace ccrc {

namespace detail {

/// The .cctb magic number: not text (0x89), then "CCTB", then CR LF and ^Z, which a text-mode
/// transfer would mangle (the idea of PNG's signature).
inline constexpr std::array<unsigned char, 8> cctb_magic = {0x89, 'C', 'C', 'T', 'B', 0x0d, 0x0a, 0x1a};
inline constexpr std::uint32_t cctb_version = 1;
inline constexpr std::size_t cctb_header_bytes = 64;

/// std::byteswap is C++23.
template <class T>
constexpr T byteswap(T v) noexcept {
  static_assert(std::is_unsigned_v<T>);
  T out = 0;
  for (std::size_t i = 0; i < sizeof(T); ++i, v >>= 8) out = static_cast<T>((out << 8) | (v & 0xff));
  return out;
}

/// The .cctb checksum: four lanes of multiply-xor over the little-endian 64-bit words of the
/// body (word i goes to lane i mod 4), a zero-padded last word, then a final mix with the
/// length. Not cryptographic: it catches truncation, bit rot and bad copies, at memory speed.
class cctb_checksum {
 public:
  void update(const void* data, std::size_t n) noexcept {
    const auto* p = static_cast<const unsigned char*>(data);
    length_ += n;
    if (fill_ != 0) {
      std::size_t take = std::min(n, sizeof block_ - fill_);
      std::memcpy(block_ + fill_, p, take);
      fill_ += take;
      p += take;
      n -= take;
      if (fill_ < sizeof block_) return;
      mix_block(block_);
      fill_ = 0;
    }
    for (; n >= sizeof block_; p += sizeof block_, n -= sizeof block_) mix_block(p);
    std::memcpy(block_, p, n);
    fill_ = n;
  }

  [[nodiscard]] std::uint64_t value() const noexcept {
    std::array<std::uint64_t, 4> lanes = lanes_;
    unsigned char tail[sizeof block_] = {};
    std::memcpy(tail, block_, fill_);
    for (std::size_t w = 0; w * 8 < fill_; ++w) mix(lanes[w], load(tail + 8 * w));
    return mix64(lanes[0] ^ std::rotl(lanes[1], 17) ^ std::rotl(lanes[2], 31) ^ std::rotl(lanes[3], 47) ^ length_);
  }

 private:
  static std::uint64_t load(const unsigned char* p) noexcept {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    if constexpr (std::endian::native == std::endian::big) w = byteswap(w);
    return w;
  }
  static void mix(std::uint64_t& lane, std::uint64_t w) noexcept {
    lane = (lane ^ w) * 0x9e3779b97f4a7c15ULL;
    lane ^= lane >> 32;
  }
  void mix_block(const unsigned char* p) noexcept {
    for (int w = 0; w < 4; ++w) mix(lanes_[static_cast<std::size_t>(w)], load(p + 8 * w));
  }

  std::array<std::uint64_t, 4> lanes_ = {0x243f6a8885a308d3ULL, 0x13198a2e03707344ULL, 0xa4093822299f31d0ULL,
                                         0x082efa98ec4e6c89ULL};
  unsigned char block_[32] = {};
  std::size_t fill_ = 0;
  std::uint64_t length_ = 0;
};

template <class T>
void store_le(unsigned char* p, T v) noexcept {
  if constexpr (std::endian::native == std::endian::big) v = byteswap(v);
  std::memcpy(p, &v, sizeof v);
}

template <class T>
T load_le(const unsigned char* p) noexcept {
  T v;
  std::memcpy(&v, p, sizeof v);
  if constexpr (std::endian::native == std::endian::big) v = byteswap(v);
  return v;
}

/// Converts an array just read from a little-endian file to the host's order, in place.
template <class T>
void from_le(T* data, std::size_t n) noexcept {
  if constexpr (std::endian::native == std::endian::big) {
    for (std::size_t i = 0; i < n; ++i) {
      if constexpr (std::is_floating_point_v<T>)
        data[i] = detail::bit_cast<T>(byteswap(detail::bit_cast<std::uint64_t>(data[i])));
      else if constexpr (std::is_class_v<T>)  // a frame_id
        data[i] = T{byteswap(static_cast<std::uint32_t>(data[i]))};
      else
        data[i] = byteswap(data[i]);
    }
  } else {
    static_cast<void>(data), static_cast<void>(n);
  }
}

/// Where a .cctb comes from: bytes in memory, or a C stream whose size is known.
struct cctb_memory {
  std::string_view bytes;
  void read(void* dst, std::size_t n) {
    std::memcpy(dst, bytes.data(), n);  // the size was checked against the header first
    bytes.remove_prefix(n);
  }
};
struct cctb_file {
  file_source* file;
  void read(void* dst, std::size_t n) {
    auto* to = static_cast<char*>(dst);
    for (std::size_t got = 0, k; got < n; got += k)
      if ((k = (*file)(to + got, n - got)) == 0) throw parse_error("truncated: the file ended while being read");
  }
};

// Sizes from a header, checked against the actual size before anything is allocated.
struct cctb_layout {
  std::uint64_t nodes, frames, metrics, string_bytes, checksum;
  std::uint64_t head_bytes;  // lengths, sites, strings and padding
  std::uint64_t total;
};

inline cctb_layout cctb_check_header(const unsigned char* h, std::uint64_t size) {
  if (size < cctb_magic.size() || std::memcmp(h, cctb_magic.data(), cctb_magic.size()) != 0)
    throw parse_error("not a .cctb file (no .cctb magic number at the start)");
  if (size < cctb_header_bytes) throw parse_error("truncated: " + std::to_string(size) + " bytes, less than a .cctb header");
  auto version = load_le<std::uint32_t>(h + 8);
  if (version != cctb_version)
    throw parse_error(".cctb version " + std::to_string(version) + " is not supported (this reader knows version 1)");
  if (load_le<std::uint32_t>(h + 12) != cctb_header_bytes || load_le<std::uint64_t>(h + 56) != 0)
    throw parse_error("corrupt .cctb header (header size or reserved field)");
  cctb_layout l{load_le<std::uint64_t>(h + 16), load_le<std::uint64_t>(h + 24), load_le<std::uint64_t>(h + 32),
                load_le<std::uint64_t>(h + 40), load_le<std::uint64_t>(h + 48), 0, 0};
  if (l.nodes == 0 || l.nodes > max_nodes) throw parse_error("corrupt .cctb header: " + std::to_string(l.nodes) + " nodes");
  if (l.frames >= null_node) throw parse_error("corrupt .cctb header: " + std::to_string(l.frames) + " frames");
  if (l.metrics == 0 || l.metrics > 65536) throw parse_error("corrupt .cctb header: " + std::to_string(l.metrics) + " metrics");
  // Every count is below 2^33 here, so none of these sums can overflow.
  if (l.string_bytes > size) throw parse_error("corrupt .cctb header: " + std::to_string(l.string_bytes) + " bytes of names");
  std::uint64_t head = 4 * l.metrics + 8 * l.frames + l.string_bytes;
  l.head_bytes = (cctb_header_bytes + head + 7) / 8 * 8 - cctb_header_bytes;
  l.total = cctb_header_bytes + l.head_bytes + 8 * l.nodes + 8 * l.metrics * l.nodes;
  if (size < l.total)
    throw parse_error("truncated: " + std::to_string(size) + " bytes, the header announces " + std::to_string(l.total));
  if (size > l.total)
    throw parse_error(std::to_string(size - l.total) + " bytes after the end of the .cctb data");
  return l;
}

template <class Source>
profile read_cctb_from(Source& src, std::uint64_t size) {
  unsigned char header[cctb_header_bytes] = {};
  src.read(header, static_cast<std::size_t>(std::min<std::uint64_t>(size, cctb_header_bytes)));
  cctb_layout l = cctb_check_header(header, size);
  cctb_checksum sum;
  const auto nodes = static_cast<std::size_t>(l.nodes);
  const auto frames = static_cast<std::size_t>(l.frames);
  const auto metrics = static_cast<std::size_t>(l.metrics);

  // Names: lengths, sites, then the bytes of all names.
  std::vector<unsigned char> head(static_cast<std::size_t>(l.head_bytes));
  src.read(head.data(), head.size());
  sum.update(head.data(), head.size());
  const unsigned char* lengths = head.data();
  const unsigned char* sites = lengths + 4 * (metrics + frames);
  const auto* strings = reinterpret_cast<const char*>(sites + 4 * frames);
  std::uint64_t offset = 0;
  auto next_name = [&](std::size_t i) {
    std::uint64_t n = load_le<std::uint32_t>(lengths + 4 * i);
    if (n > l.string_bytes - offset) throw parse_error("corrupt .cctb: name lengths exceed the names' bytes");
    std::string_view name(strings + offset, static_cast<std::size_t>(n));
    offset += n;
    return name;
  };
  std::vector<std::string> metric_names;
  for (std::size_t i = 0; i < metrics; ++i) {
    std::string_view name = next_name(i);
    if (const char* why = check_metric_name(name)) throw parse_error("metric name '" + std::string(name) + "' " + why);
    metric_names.emplace_back(name);
  }
  if (std::size_t k = detail::first_repeated(metric_names); k < metric_names.size())
    throw parse_error("metric '" + metric_names[k] + "' is named twice");
  symbol_table symbols;  // the structure first, then the columns at once
  for (std::size_t f = 1; f <= frames; ++f) {
    std::string_view name = next_name(metrics + f - 1);
    if (const char* why = check_frame_name(name)) throw parse_error("frame " + std::to_string(f) + ": name " + why);
    if (symbols.intern(name, load_le<std::uint32_t>(sites + 4 * (f - 1))) != f)
      throw parse_error("frame " + std::to_string(f) + " ('" + std::string(name) + "') is listed twice");
  }
  if (offset != l.string_bytes) throw parse_error("corrupt .cctb: names' bytes left over");
  for (std::size_t i = 4 * (metrics + 2 * frames) + static_cast<std::size_t>(l.string_bytes); i < head.size(); ++i)
    if (head[i] != 0) throw parse_error("corrupt .cctb: padding is not zero");

  // The structure: parents, then frames.
  std::vector<node_id> parent(nodes);
  std::vector<frame_id> frame(nodes);
  src.read(parent.data(), 4 * nodes);
  src.read(frame.data(), 4 * nodes);
  sum.update(parent.data(), 4 * nodes);
  sum.update(frame.data(), 4 * nodes);
  from_le(parent.data(), nodes);
  from_le(frame.data(), nodes);
  if (parent[0] != null_node || frame[0] != root_frame) throw parse_error("corrupt .cctb: node 0 is not a root");
  int ok = 1;  // one branch-free pass; the culprit is looked for only on failure
  for (std::size_t n = 1; n < nodes; ++n) ok &= static_cast<int>(parent[n] < n) & static_cast<int>(frame[n] - 1 < l.frames);
  if (!ok) {
    for (std::size_t n = 1; n < nodes; ++n) {
      if (parent[n] >= n)
        throw parse_error("corrupt .cctb: node " + std::to_string(n) + " has parent " + std::to_string(parent[n]) +
                          ", not an earlier node");
      if (frame[n] == 0 || frame[n] > l.frames)
        throw parse_error("corrupt .cctb: node " + std::to_string(n) + " has frame " + std::to_string(frame[n]) +
                          " (frames are 1.." + std::to_string(l.frames) + ")");
    }
  }
  auto [tree, repeated] = call_tree::from_columns(std::move(symbols), std::move(parent), std::move(frame));
  if (repeated != null_node)
    throw parse_error("corrupt .cctb: node " + std::to_string(repeated) + " repeats a sibling's frame");
  profile p(std::move(tree), std::move(metric_names));

  // The metrics, straight into the profile's columns.
  for (std::size_t i = 0; i < metrics; ++i) {
    std::span<double> column = p.column(i);
    src.read(column.data(), 8 * nodes);
    sum.update(column.data(), 8 * nodes);
    from_le(column.data(), nodes);
  }
  if (sum.value() != l.checksum) throw parse_error("checksum mismatch: the .cctb file is corrupt");
  for (std::size_t i = 0; i < metrics; ++i)
    for (double v : p.column(i))
      if (!std::isfinite(v)) throw parse_error("a metric value is not finite (NaN or infinite)");
  return p;
}

// The .cctb bytes of t, in order, given to sink(data, n) after size(total bytes) was called
// once: the checksum pass counts them.
template <metric_tree Tree, class Size, class Sink>
void write_cctb_to(const Tree& t, Size&& size, Sink&& sink) {
  const call_tree& tree = t.tree();
  const symbol_table& syms = tree.symbols();
  std::vector<std::string> metric_names = detail::native_names(t);
  const std::size_t nodes = tree.size(), frames = syms.frame_count() - 1, metrics = metric_names.size();
  t.for_each_column([&](std::string_view name, auto column) {
    if constexpr (std::is_floating_point_v<typename decltype(column)::value_type>)
      for (auto v : column)
        if (!std::isfinite(v)) throw error("metric '" + std::string(name) + "' has a non-finite value");
  });

  std::string strings;
  std::vector<unsigned char> head(4 * (metrics + 2 * frames));
  for (std::size_t i = 0; i < metrics; ++i) {
    detail::store_le(head.data() + 4 * i, static_cast<std::uint32_t>(metric_names[i].size()));
    strings += metric_names[i];
  }
  for (frame_id f{1}; f <= frames; ++f) {
    std::string_view name = syms.name(f);
    if (name.size() > 0xffffffffu) throw error("a frame name is over 4 GB");
    detail::store_le(head.data() + 4 * (metrics + f - 1), static_cast<std::uint32_t>(name.size()));
    detail::store_le(head.data() + 4 * (metrics + frames + f - 1), syms.site(f));
    strings += name;
  }
  head.insert(head.end(), strings.begin(), strings.end());
  head.resize((detail::cctb_header_bytes + head.size() + 7) / 8 * 8 - detail::cctb_header_bytes, 0);

  // The body in chunks of little-endian bytes, given to `to` (the checksum, then the sink).
  auto body = [&](auto&& to) {
    to(head.data(), head.size());
    constexpr std::size_t chunk = 8192;
    unsigned char buf[chunk * 8];
    auto ids = [&](auto column) {  // node ids, or frame ids (4 bytes each)
      if constexpr (std::endian::native == std::endian::little) {
        to(column.data(), column.size() * 4);
      } else {
        for (std::size_t i = 0; i < column.size(); i += chunk) {
          std::size_t n = std::min(chunk, column.size() - i);
          for (std::size_t j = 0; j < n; ++j) detail::store_le(buf + 4 * j, static_cast<std::uint32_t>(column[i + j]));
          to(buf, 4 * n);
        }
      }
    };
    ids(tree.parents());
    ids(tree.frames());
    t.for_each_column([&](std::string_view, auto column) {
      if constexpr (std::is_same_v<typename decltype(column)::value_type, double> &&
                    std::endian::native == std::endian::little) {
        to(column.data(), column.size() * 8);
      } else {
        for (std::size_t i = 0; i < column.size(); i += chunk) {
          std::size_t n = std::min(chunk, column.size() - i);
          for (std::size_t j = 0; j < n; ++j)
            detail::store_le(buf + 8 * j, detail::bit_cast<std::uint64_t>(static_cast<double>(column[i + j])));
          to(buf, 8 * n);
        }
      }
    });
  };
  detail::cctb_checksum sum;
  std::size_t total = detail::cctb_header_bytes;
  body([&](const void* p, std::size_t n) {
    sum.update(p, n);
    total += n;
  });

  unsigned char header[detail::cctb_header_bytes] = {};
  std::memcpy(header, detail::cctb_magic.data(), detail::cctb_magic.size());
  detail::store_le(header + 8, detail::cctb_version);
  detail::store_le(header + 12, static_cast<std::uint32_t>(detail::cctb_header_bytes));
  detail::store_le(header + 16, std::uint64_t{nodes});
  detail::store_le(header + 24, std::uint64_t{frames});
  detail::store_le(header + 32, std::uint64_t{metrics});
  detail::store_le(header + 40, std::uint64_t{strings.size()});
  detail::store_le(header + 48, sum.value());
  size(total);
  sink(header, sizeof header);
  body(sink);
}

}  // namespace detail

/// Writes `t` (a ccrc::profile or ccrc::cct) in the .cctb binary format: a 64-byte header
/// (magic, version, counts, checksum), the metric and frame names, then the parent and frame
/// of every node and each metric column (as IEEE doubles), all little-endian; node ids are
/// kept. The layout is in docs/formats.md. Throws ccrc::error for what the format cannot hold
/// (an empty or non-UTF-8 name, a metric name with a blank, a non-finite value). O(N), two
/// passes (the checksum, then the bytes); it holds nothing but the names.
///
///     std::ofstream out("profile.cctb", std::ios::binary);
///     ccrc::write_cctb(out, tree);
template <metric_tree Tree>
void write_cctb(std::ostream& out, const Tree& t) {
  detail::write_cctb_to(t, [](std::size_t) {}, [&](const void* p, std::size_t n) {
    out.write(static_cast<const char*>(p), static_cast<std::streamsize>(n));
  });
  if (!out) throw error("write error");
}

/// The .cctb bytes of `t` (what write_cctb writes) in a string of exactly their size, for a
/// tree to send or to embed: unlike writing to a std::ostringstream, whose buffer doubles as
/// it grows (up to twice the bytes, three times while it copies), it allocates the string
/// once, sized by the checksum pass. Throws as write_cctb. O(N).
///
///     std::string bytes = ccrc::cctb_bytes(tree);  // 8 + 8 x metrics bytes a context, plus the names
///     ccrc::profile back = ccrc::read_cctb(bytes);
template <metric_tree Tree>
[[nodiscard]] std::string cctb_bytes(const Tree& t) {
  std::string bytes;
  detail::write_cctb_to(t, [&](std::size_t total) { bytes.reserve(total); }, [&](const void* p, std::size_t n) {
    bytes.append(static_cast<const char*>(p), n);
  });
  return bytes;
}

/// Reads a .cctb file's bytes into a profile, node ids as written. Every count is checked
/// against the size before anything is allocated, every parent, frame and name is checked,
/// and the checksum must match: a truncated or corrupt file throws ccrc::parse_error (the
/// reason in what()), never a crash or a half-read tree. O(N), about a gigabyte a second.
///
///     ccrc::profile p = ccrc::read_cctb_file("eclipse.cctb");
[[nodiscard]] inline profile read_cctb(std::string_view bytes) {
  detail::cctb_memory src{bytes};
  return detail::read_cctb_from(src, bytes.size());
}

/// read_cctb from a stream (read to its end first).
[[nodiscard]] inline profile read_cctb(std::istream& in) {
  std::string bytes(std::istreambuf_iterator<char>(in), {});
  return read_cctb(bytes);
}

/// read_cctb from a file: a regular file read straight into the profile's arrays, anything
/// else (a pipe) to its end first; throws ccrc::error if it cannot be opened or shrinks while
/// it is read (detail::file_source).
[[nodiscard]] inline profile read_cctb_file(const std::filesystem::path& path) {
  detail::file_source file(path);
  if (file.size() == 0) {
    std::string bytes;
    char chunk[1 << 16];
    for (std::size_t n; (n = file(chunk, sizeof chunk)) > 0;) bytes.append(chunk, n);
    return read_cctb(bytes);
  }
  detail::cctb_file src{&file};
  return detail::read_cctb_from(src, file.size());
}

}  // namespace ccrc
