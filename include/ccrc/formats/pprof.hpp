// ccrc - pprof's profile.proto (Go's runtime/pprof, `go tool pprof`, Node's pprof, ...),
// gzip-compressed or not: read into a ccrc::profile, and written from one.
#pragma once

#include <ccrc/detail/line_reader.hpp>
#include <ccrc/detail/number_text.hpp>
#include <ccrc/detail/text.hpp>
#include <ccrc/error.hpp>
#include <ccrc/formats/gzip.hpp>
#include <ccrc/tree/profile.hpp>

#include <protozero/exception.hpp>
#include <protozero/pbf_reader.hpp>
#include <protozero/pbf_writer.hpp>
#include <protozero/varint.hpp>
#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <functional>
#include <istream>
#include <memory>
#include <new>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ccrc {

/// Options of write_pprof.
struct pprof_write_options {
  /// gzip-compress the message, as profile.proto asks of files on disk (`.pb.gz`); false
  /// writes the bare protobuf message (`go tool pprof` reads both).
  bool gzip = true;
  /// pprof values are integers: a value with a fraction is an error unless this rounds it to
  /// the nearest integer (half away from zero).
  bool round_values = false;
};

namespace formats {

namespace detail {

// profile.proto's field numbers (github.com/google/pprof, proto/profile.proto).
namespace pb {
// Profile
inline constexpr protozero::pbf_tag_type sample_type = 1, sample = 2, mapping = 3, location = 4, function = 5,
                                         string_table = 6;
// ValueType
inline constexpr protozero::pbf_tag_type type = 1, unit = 2;
// Sample
inline constexpr protozero::pbf_tag_type location_id = 1, value = 2;
// Mapping (id = 1), Location (id = 1) and Function (id = 1)
inline constexpr protozero::pbf_tag_type id = 1, mapping_filename = 5;
inline constexpr protozero::pbf_tag_type mapping_id = 2, address = 3, line = 4;
inline constexpr protozero::pbf_tag_type function_id = 1;  // in Line
inline constexpr protozero::pbf_tag_type function_name = 2, function_system_name = 3;
}  // namespace pb

// Where an id maps to an index: a dense table when the ids are small (the usual 1..n), else
// a sorted list searched by halves.
class id_index {
 public:
  static constexpr std::uint32_t none = ~std::uint32_t{0};

  // Builds from the ids in index order; returns the index of the first duplicate or none.
  std::uint32_t build(const std::vector<std::uint64_t>& ids) {
    std::uint64_t max = 0;
    for (std::uint64_t id : ids) max = std::max(max, id);
    dense_ = max <= 2 * ids.size() + 1024;
    if (dense_) {
      table_.assign(static_cast<std::size_t>(max) + 1, none);
      for (std::size_t i = 0; i < ids.size(); ++i) {
        if (table_[static_cast<std::size_t>(ids[i])] != none) return static_cast<std::uint32_t>(i);
        table_[static_cast<std::size_t>(ids[i])] = static_cast<std::uint32_t>(i);
      }
      return none;
    }
    sorted_.resize(ids.size());
    for (std::size_t i = 0; i < ids.size(); ++i) sorted_[i] = {ids[i], static_cast<std::uint32_t>(i)};
    std::sort(sorted_.begin(), sorted_.end());
    for (std::size_t i = 1; i < sorted_.size(); ++i)
      if (sorted_[i].first == sorted_[i - 1].first) return std::max(sorted_[i].second, sorted_[i - 1].second);
    return none;
  }

  [[nodiscard]] std::uint32_t find(std::uint64_t id) const noexcept {
    if (dense_) return id < table_.size() ? table_[static_cast<std::size_t>(id)] : none;
    auto it = std::lower_bound(sorted_.begin(), sorted_.end(), std::pair<std::uint64_t, std::uint32_t>{id, 0});
    return it != sorted_.end() && it->first == id ? it->second : none;
  }

 private:
  bool dense_ = true;
  std::vector<std::uint32_t> table_;
  std::vector<std::pair<std::uint64_t, std::uint32_t>> sorted_;
};

// Parses one uncompressed profile.proto message into a profile: a first pass collects the
// string table, sample types, mappings, locations and functions (fields come in any order;
// Go writes the string table last), a second builds the tree from the samples.
class pprof_parser {
 public:
  explicit pprof_parser(std::string_view message) : msg_(message) {}

  profile parse() {
    try {
      scan();
      resolve();
      read_samples();
    } catch (const protozero::exception& e) {
      fail(at_, std::string("malformed protobuf (") + e.what() + ")");
    }
    profile_.shrink_to_fit();
    return std::move(profile_);
  }

 private:
  static constexpr std::uint32_t none = id_index::none;
  using wire = protozero::pbf_wire_type;

  struct string_ref {  // an index into the string table, and where the file gives it
    std::int64_t index = 0;
    const char* at = nullptr;
  };
  struct value_type_rec {
    string_ref type, unit;
    const char* at;
  };
  struct mapping_rec {
    string_ref filename;
  };
  struct function_rec {
    string_ref name, system_name;
    frame_id frame{0};  // interned on first use (0, the root frame: not yet)
  };
  struct location_rec {
    std::uint64_t mapping_id = 0;
    const char* mapping_at = nullptr;
    std::uint64_t address = 0;
    std::uint32_t lines_begin = 0, lines_end = 0;            // in lines_
    std::uint32_t frames_begin = none, frames_end = none;    // in location_frames_, once used
    frame_id address_frame{0};
  };
  struct line_rec {
    std::uint64_t function_id = 0;  // then, after resolve(), the function's index or none
    const char* at = nullptr;
  };

  [[noreturn]] void fail(const char* at, const std::string& reason) const {
    std::uint64_t offset = at && at >= msg_.data() ? static_cast<std::uint64_t>(at - msg_.data()) : 0;
    throw parse_error::at_byte(offset, reason);
  }

  // Steps `m` to its next field, noting where the field starts (for errors).
  bool next(protozero::pbf_reader& m) {
    at_ = m.data().data();
    return m.next();
  }

  static const char* wire_name(wire w) noexcept {
    switch (w) {
      case wire::varint: return "varint";
      case wire::fixed64: return "64-bit";
      case wire::length_delimited: return "length-delimited";
      case wire::fixed32: return "32-bit";
      default: return "unknown";
    }
  }

  void expect(const protozero::pbf_reader& m, wire w, const char* field) const {
    if (m.wire_type() != w)
      fail(at_, std::string(field) + " has wire type " + wire_name(m.wire_type()) + ", expected " + wire_name(w));
  }

  std::int64_t get_int64(protozero::pbf_reader& m, const char* field) {
    expect(m, wire::varint, field);
    return m.get_int64();
  }
  std::uint64_t get_uint64(protozero::pbf_reader& m, const char* field) {
    expect(m, wire::varint, field);
    return m.get_uint64();
  }
  string_ref get_string_ref(protozero::pbf_reader& m, const char* field) {
    const char* at = at_;
    return {get_int64(m, field), at};
  }
  protozero::pbf_reader get_message(protozero::pbf_reader& m, const char* field) {
    expect(m, wire::length_delimited, field);
    return protozero::pbf_reader(m.get_view());
  }

  // First pass: everything but the samples.
  void scan() {
    protozero::pbf_reader m(msg_.data(), msg_.size());
    while (next(m)) {
      switch (m.tag()) {
        case pb::sample_type: {
          const char* at = at_;
          auto v = get_message(m, "Profile.sample_type");
          value_type_rec rec{{}, {}, at};
          while (next(v)) {
            if (v.tag() == pb::type) rec.type = get_string_ref(v, "ValueType.type");
            else if (v.tag() == pb::unit) rec.unit = get_string_ref(v, "ValueType.unit");
            else v.skip();
          }
          sample_types_.push_back(rec);
          break;
        }
        case pb::sample:
          expect(m, wire::length_delimited, "Profile.sample");
          m.skip();
          break;
        case pb::mapping: {
          mapping_ats_.push_back(at_);
          auto v = get_message(m, "Profile.mapping");
          mapping_rec rec;
          std::uint64_t id = 0;
          while (next(v)) {
            if (v.tag() == pb::id) id = get_uint64(v, "Mapping.id");
            else if (v.tag() == pb::mapping_filename) rec.filename = get_string_ref(v, "Mapping.filename");
            else v.skip();
          }
          mapping_ids_.push_back(id);
          mappings_.push_back(rec);
          break;
        }
        case pb::location: {
          location_ats_.push_back(at_);
          auto v = get_message(m, "Profile.location");
          location_rec rec;
          std::uint64_t id = 0;
          rec.lines_begin = static_cast<std::uint32_t>(lines_.size());
          while (next(v)) {
            switch (v.tag()) {
              case pb::id: id = get_uint64(v, "Location.id"); break;
              case pb::mapping_id:
                rec.mapping_at = at_;
                rec.mapping_id = get_uint64(v, "Location.mapping_id");
                break;
              case pb::address: rec.address = get_uint64(v, "Location.address"); break;
              case pb::line: {
                auto l = get_message(v, "Location.line");
                line_rec line;
                while (next(l)) {
                  if (l.tag() == pb::function_id) {
                    line.at = at_;
                    line.function_id = get_uint64(l, "Line.function_id");
                  } else {
                    l.skip();
                  }
                }
                if (lines_.size() >= none) fail(at_, "too many lines");
                lines_.push_back(line);
                break;
              }
              default: v.skip();
            }
          }
          rec.lines_end = static_cast<std::uint32_t>(lines_.size());
          location_ids_.push_back(id);
          locations_.push_back(rec);
          break;
        }
        case pb::function: {
          function_ats_.push_back(at_);
          auto v = get_message(m, "Profile.function");
          function_rec rec;
          std::uint64_t id = 0;
          while (next(v)) {
            if (v.tag() == pb::id) id = get_uint64(v, "Function.id");
            else if (v.tag() == pb::function_name) rec.name = get_string_ref(v, "Function.name");
            else if (v.tag() == pb::function_system_name) rec.system_name = get_string_ref(v, "Function.system_name");
            else v.skip();
          }
          function_ids_.push_back(id);
          functions_.push_back(rec);
          break;
        }
        case pb::string_table: {
          expect(m, wire::length_delimited, "Profile.string_table");
          auto s = m.get_view();
          strings_.emplace_back(s.data(), s.size());
          break;
        }
        default: m.skip();
      }
    }
  }

  std::string_view str(string_ref r) const {
    if (r.index < 0 || static_cast<std::uint64_t>(r.index) >= strings_.size()) {
      if (r.at == nullptr && r.index == 0) return {};  // absent: the empty string
      fail(r.at, "string index " + std::to_string(r.index) + " is out of range (the string table has " +
                     std::to_string(strings_.size()) + " strings)");
    }
    return strings_[static_cast<std::size_t>(r.index)];
  }

  // A string that becomes a name (of a metric, a frame): valid UTF-8, no control characters.
  std::string_view text(string_ref r, const char* what) const {
    std::string_view s = str(r);
    if (const char* why = ccrc::detail::check_name_text(s)) fail(r.at, std::string(what) + " " + why);
    return s;
  }

  void index(id_index& idx, const std::vector<std::uint64_t>& ids, const std::vector<const char*>& ats,
             const char* what) {
    for (std::size_t i = 0; i < ids.size(); ++i)
      if (ids[i] == 0) fail(ats[i], std::string(what) + " has no id (ids are nonzero)");
    std::uint32_t dup = idx.build(ids);
    if (dup != none) fail(ats[dup], std::string("two ") + what + "s with id " + std::to_string(ids[dup]));
  }

  // Between the passes: ids indexed and checked, string indices checked, the metrics named.
  void resolve() {
    if (strings_.empty() && (!sample_types_.empty() || !functions_.empty() || !mappings_.empty()))
      strings_.emplace_back();  // a table without its "" entry is as good as empty
    index(mapping_index_, mapping_ids_, mapping_ats_, "mapping");
    index(location_index_, location_ids_, location_ats_, "location");
    index(function_index_, function_ids_, function_ats_, "function");
    for (const auto& m : mappings_) (void)str(m.filename);
    for (const auto& f : functions_) (void)str(f.name), (void)str(f.system_name);
    for (const auto& l : locations_)
      if (l.mapping_id != 0 && mapping_index_.find(l.mapping_id) == none)
        fail(l.mapping_at, "mapping id " + std::to_string(l.mapping_id) + " names no mapping");
    for (auto& line : lines_) {
      if (line.function_id == 0) {
        line.function_id = none;
        continue;
      }
      std::uint32_t f = function_index_.find(line.function_id);
      if (f == none) fail(line.at, "function id " + std::to_string(line.function_id) + " names no function");
      line.function_id = f;
    }
    std::vector<std::string> names;
    for (std::size_t i = 0; i < sample_types_.size(); ++i) {
      const auto& t = sample_types_[i];
      std::string_view type = text(t.type, "sample type"), unit = text(t.unit, "sample unit");
      std::string name = type.empty() ? "value" + std::to_string(i + 1) : std::string(type);
      if (!unit.empty()) name.append("_").append(unit);
      if (std::find(names.begin(), names.end(), name) != names.end())
        fail(t.at, "two sample types named '" + name + "'");
      names.push_back(std::move(name));
    }
    counted_ = names.empty();
    if (counted_) names.emplace_back("samples");
    profile_ = profile(std::move(names));
    values_.assign(profile_.metric_count(), counted_ ? 1.0 : 0.0);
  }

  // The frame of an inlined or physical line: its function's name (its system name if that is
  // empty), or the location's address if the line has neither.
  frame_id line_frame(location_rec& loc, std::uint64_t function) {
    if (function != none) {
      function_rec& f = functions_[static_cast<std::size_t>(function)];
      if (f.frame != root_frame) return f.frame;
      string_ref r = str(f.name).empty() ? f.system_name : f.name;
      std::string_view name = text(r, "function name");
      if (!name.empty()) return f.frame = profile_.intern(name);
    }
    return address_frame(loc);
  }

  // "0x4005d0 (/usr/bin/a.out)": an unsymbolised location, by address and mapping file.
  frame_id address_frame(location_rec& loc) {
    if (loc.address_frame != root_frame) return loc.address_frame;
    static constexpr char hex[] = "0123456789abcdef";
    std::string name = "0x";
    int shift = 60;
    while (shift > 0 && ((loc.address >> shift) & 0xf) == 0) shift -= 4;
    for (; shift >= 0; shift -= 4) name += hex[(loc.address >> shift) & 0xf];
    if (loc.mapping_id != 0) {
      string_ref file = mappings_[mapping_index_.find(loc.mapping_id)].filename;
      std::string_view f = text(file, "mapping file name");
      if (!f.empty()) name.append(" (").append(f).append(")");
    }
    return loc.address_frame = profile_.intern(name);
  }

  // The frames of location i, outermost (the physical caller, last line) first.
  std::pair<std::uint32_t, std::uint32_t> location_frames(std::uint32_t i) {
    location_rec& loc = locations_[i];
    if (loc.frames_begin == none) {
      auto begin = location_frames_.size();
      if (loc.lines_begin == loc.lines_end) location_frames_.push_back(address_frame(loc));
      for (std::uint32_t l = loc.lines_end; l-- > loc.lines_begin;)
        location_frames_.push_back(line_frame(loc, lines_[l].function_id));
      if (location_frames_.size() >= none) fail(location_ats_[i], "too many frames");
      loc.frames_begin = static_cast<std::uint32_t>(begin);
      loc.frames_end = static_cast<std::uint32_t>(location_frames_.size());
    }
    return {loc.frames_begin, loc.frames_end};
  }

  // Second pass: each sample's stack, root first, and its values.
  void read_samples() {
    protozero::pbf_reader m(msg_.data(), msg_.size());
    while (next(m)) {
      if (m.tag() == pb::sample && m.wire_type() == wire::length_delimited) sample(m.get_view());
      else m.skip();
    }
  }

  void sample(protozero::data_view view) {
    const char* sample_at = at_;
    const char* ids_at = nullptr;
    ids_.clear();
    std::size_t count = 0;
    protozero::pbf_reader s(view);
    while (next(s)) {
      if (s.tag() == pb::location_id) {
        if (!ids_at) ids_at = at_;
        if (s.wire_type() == wire::length_delimited) {
          for (std::uint64_t id : s.get_packed_uint64()) ids_.push_back(id);
        } else {
          ids_.push_back(get_uint64(s, "Sample.location_id"));
        }
      } else if (s.tag() == pb::value) {
        if (s.wire_type() == wire::length_delimited) {
          for (std::int64_t v : s.get_packed_int64()) value(count++, v);
        } else {
          value(count++, get_int64(s, "Sample.value"));
        }
      } else {
        s.skip();
      }
    }
    if (count != (counted_ ? 0 : values_.size()))
      fail(sample_at, "a sample has " + std::to_string(count) + " values for " +
                          std::to_string(counted_ ? 0 : values_.size()) + " sample types");
    // Consecutive samples often share their outer locations (depth-first output, or a loop's
    // samples): walk the tree only from where this sample parts from the previous one.
    std::size_t count_ids = ids_.size(), keep = 0;
    std::size_t common = std::min(count_ids, previous_.size());
    while (keep < common && ids_[count_ids - 1 - keep] == previous_[previous_.size() - 1 - keep]) ++keep;
    nodes_.resize(keep);
    node_id n = keep == 0 ? root_node : nodes_[keep - 1];
    for (std::size_t k = count_ids - keep; k-- > 0;) {
      std::uint32_t loc = location_index_.find(ids_[k]);
      if (loc == none) fail(ids_at, "location id " + std::to_string(ids_[k]) + " names no location");
      auto [b, e] = location_frames(loc);
      for (std::uint32_t f = b; f < e; ++f) n = profile_.find_or_add_child(n, location_frames_[f]);
      nodes_.push_back(n);
    }
    std::swap(ids_, previous_);
    profile_.add(n, values_);
  }

  void value(std::size_t i, std::int64_t v) {
    if (counted_ || i >= values_.size()) return;  // the count is checked after the sample
    auto magnitude = v < 0 ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
    if (magnitude > ccrc::detail::max_exact_integer)
      fail(at_, "value " + std::to_string(v) + " is an integer a double cannot hold exactly (above 2^53)");
    values_[i] = static_cast<double>(v);
  }

  std::string_view msg_;
  const char* at_ = nullptr;  // start of the field being read
  std::vector<std::string_view> strings_;
  std::vector<value_type_rec> sample_types_;
  std::vector<mapping_rec> mappings_;
  std::vector<std::uint64_t> mapping_ids_;
  std::vector<const char*> mapping_ats_;
  std::vector<location_rec> locations_;
  std::vector<std::uint64_t> location_ids_;
  std::vector<const char*> location_ats_;
  std::vector<line_rec> lines_;
  std::vector<function_rec> functions_;
  std::vector<std::uint64_t> function_ids_;
  std::vector<const char*> function_ats_;
  id_index mapping_index_, location_index_, function_index_;
  std::vector<frame_id> location_frames_;
  bool counted_ = false;  // no sample types: metric `samples`, 1 per sample
  profile profile_;
  std::vector<double> values_;
  std::vector<std::uint64_t> ids_, previous_;  // this sample's location ids and the last one's
  std::vector<node_id> nodes_;  // the node after each of previous_'s locations, outermost first
};

// Every byte `read` gives.
template <class Read>
void append_all(std::string& out, Read& read) {
  constexpr std::size_t chunk = std::size_t{1} << 20;
  for (;;) {
    std::size_t old = out.size();
    if (out.capacity() - old < chunk) out.reserve(2 * out.capacity() + chunk);
    out.resize(old + chunk);
    std::size_t got = read(out.data() + old, chunk);
    out.resize(old + got);
    if (got == 0) return;
  }
}

template <class Read>
profile read_pprof_from(Read&& read) {
  char head[2];
  std::size_t got = 0;
  while (got < sizeof head) {
    std::size_t n = read(head + got, sizeof head - got);
    if (n == 0) break;
    got += n;
  }
  std::string message;
  ccrc::detail::prefixed_source<Read&> whole{{std::string_view(head, got)}, read};
  if (is_gzip({head, got})) {
    auto inflated = std::make_unique<gzip_source<decltype(whole)&>>(whole);  // 64 KiB: not on the stack
    append_all(message, *inflated);
  } else {
    append_all(message, whole);
  }
  return pprof_parser(message).parse();
}

}  // namespace detail

}  // namespace formats

/// True if `start` (the first bytes of an uncompressed message, as many as are at hand)
/// reads as the start of a profile.proto message: it holds a control byte (text holds none;
/// a message's tags and lengths are small numbers), every field is well formed (a valid tag
/// and wire type), a field of Profile (1 to 16) has that field's wire type, and every message
/// field of Profile wholly in `start` is itself a sequence of well-formed fields; the last
/// field may be cut short. Any field may come first: Go writes time_nanos (9) before
/// sample_type, and a field Profile does not have (one added to profile.proto since, or a
/// writer's own) is legal protobuf, as read_pprof reads it anywhere. A heuristic for format
/// detection (protobuf carries no magic number); text and JSON fail it. For gzip input, ask
/// is_gzip first and look at the inflated bytes. O(length).
[[nodiscard]] inline bool looks_like_pprof(std::string_view start) noexcept {
  using wire = protozero::pbf_wire_type;
  // Tags and lengths are small numbers: a message has control bytes where text has none.
  auto control = [](char c) { return static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r'; };
  if (std::none_of(start.begin(), start.end(), control)) return false;
  protozero::pbf_reader m(start.data(), start.size());
  bool any = false;
  try {
    while (m.next()) {
      protozero::pbf_tag_type t = m.tag();
      any = true;
      if (t > 16) {  // not a field of Profile: skipped, as the reader skips it
        m.skip();
        continue;
      }
      bool scalar = t == 7 || t == 8 || t == 9 || t == 10 || t == 12 || t == 14 || t == 15;
      bool repeated_scalar = t == 13;  // comment: packed or not
      wire w = m.wire_type();
      if (scalar ? w != wire::varint
                 : repeated_scalar ? w != wire::varint && w != wire::length_delimited : w != wire::length_delimited)
        return false;
      bool message = (t >= 1 && t <= 5) || t == 11 || t == 16;
      if (!message) {
        m.skip();
        continue;
      }
      protozero::pbf_reader inner(m.get_view());  // throws end_of_buffer if cut short: fine
      try {
        while (inner.next()) inner.skip();
      } catch (const protozero::exception&) {
        return false;  // a whole message that is not one
      }
    }
  } catch (const protozero::end_of_buffer_exception&) {
    return any;  // cut short by the end of what is at hand
  } catch (const protozero::exception&) {
    return false;
  }
  return any;
}

/// Reads a pprof profile (profile.proto, as Go's runtime/pprof, `go tool pprof`, Node's and
/// many other profilers write it), gzip-compressed (detected by its 1f 8b magic) or not.
///
/// - Metrics: one per `sample_type`, named `type_unit` (`samples_count`, `cpu_nanoseconds`,
///   `alloc_space_bytes`), `type` alone when the unit is empty, `value<i>` (1-based) for an
///   empty type. Values are int64 and may be negative (diff profiles): they are kept as they
///   are. Samples with the same stack add up; an all-zero sample still adds its path (`go tool
///   pprof` drops those). No sample type at all: one metric `samples`,
///   1 per sample.
/// - Tree: each sample's `location_id`s, leaf first in the file, reversed; a location with
///   several `line`s (inlined calls, line[0] the innermost) gives one frame per line, the last
///   line (the physical caller) outermost. A sample without locations counts on the root.
/// - Frames: the function name (its system name if the name is empty), without file or line,
///   so that all the lines of a function are one frame, as `go tool pprof -traces` prints
///   them. A location without lines (unsymbolised), or a line without a named function, is
///   named by its address in hex and its mapping's file, `0x4005d0 (/usr/bin/a.out)`
///   (`0x4005d0` without a mapping file). Labels, mappings' other fields, period, times and
///   comments are not read.
/// - Errors throw ccrc::parse_error::at_byte with the offset in the uncompressed message of
///   the field at fault: a truncated message or field, a bad wire type or tag, a string index
///   out of range, a sample naming an unknown location, a line an unknown function, a location
///   an unknown mapping, a zero or repeated id, a sample whose value count differs from the
///   sample types', a value above 2^53 in magnitude, two sample types of one name, a name or
///   metric name with control characters or invalid UTF-8. A corrupt or truncated gzip
///   stream throws at its compressed offset.
///
/// O(bytes + tree): two passes over the message (fields may come in any order: Go writes the
/// string table last); consecutive samples sharing outer locations walk the tree only from
/// where they part (samples in random order walk their whole depth: about 15 times slower on
/// 10^6 contexts, the tree's lookups missing the caches). Memory: the uncompressed message,
/// the tree, and O(locations + functions + strings).
///
///     std::string bytes = read_file("cpu.pb.gz");
///     ccrc::profile p = ccrc::read_pprof(bytes);
///     // p.metric_names() == {"samples_count", "cpu_nanoseconds"}
///     // path "runtime.main;main.main;main.work;main.leaf" (leaf inlined into work)
[[nodiscard]] inline profile read_pprof(std::string_view bytes) {
  if (is_gzip(bytes)) return formats::detail::read_pprof_from(ccrc::detail::memory_source{bytes});
  return formats::detail::pprof_parser(bytes).parse();
}

/// read_pprof from a stream.
[[nodiscard]] inline profile read_pprof(std::istream& in) {
  return formats::detail::read_pprof_from(ccrc::detail::stream_source{&in});
}

/// read_pprof from a file; throws ccrc::error if it cannot be opened or shrinks
/// while it is read (detail::file_source).
[[nodiscard]] inline profile read_pprof_file(const std::filesystem::path& path) {
  return formats::detail::read_pprof_from(ccrc::detail::file_source(path));
}

namespace formats::detail {

// The type and unit a metric name is written as: split at its last '_' (`cpu_nanoseconds`),
// which read_pprof joins again; a name without an inner '_' is the type, with no unit.
inline std::pair<std::string_view, std::string_view> split_metric_name(std::string_view name) noexcept {
  std::size_t at = name.rfind('_');
  if (at == std::string_view::npos || at == 0 || at + 1 == name.size()) return {name, {}};
  return {name.substr(0, at), name.substr(at + 1)};
}

// The metrics' columns of `p`, every value and name checked as write_pprof requires, before
// anything is written.
inline std::vector<std::span<const double>> checked_pprof_columns(const profile& p, const pprof_write_options& options) {
  std::vector<std::span<const double>> columns;
  for (std::size_t m = 0; m < p.metric_count(); ++m) {
    std::string_view name = p.metric_name(m);
    if (const char* why = ccrc::detail::check_name_text(name))
      throw error("pprof: metric name '" + std::string(name) + "' " + why);
    columns.push_back(p.column(m));
    for (double v : columns.back()) {
      if (!std::isfinite(v)) throw error("pprof: metric '" + std::string(name) + "' has a non-finite value");
      if (options.round_values) v = std::round(v);
      if (v != std::trunc(v))
        throw error("pprof: metric '" + std::string(name) + "' has a value with a fraction (" + std::to_string(v) +
                    "); pprof values are integers");
      if (std::fabs(v) > static_cast<double>(ccrc::detail::max_exact_integer))
        throw error("pprof: metric '" + std::string(name) + "' has a value above 2^53");
    }
  }
  const call_tree& tree = p.tree();
  std::vector<char> checked(p.symbols().frame_count(), 0);
  for (node_id n = 1; n < tree.size(); ++n) {
    const frame_id f = tree.frame(n);
    if (checked[f]) continue;
    checked[f] = 1;
    std::string_view name = p.symbols().name(f);
    if (name.empty()) throw error("pprof: an empty frame name (pprof would read it as an unnamed function)");
    if (const char* why = ccrc::detail::check_name_text(name))
      throw error("pprof: frame name '" + std::string(name.substr(0, 80)) + "' " + why);
  }
  return columns;
}

// The location ids of the current path, root side first, as a sample writes them: their
// encoded sizes (bytes(k): of the first k ids) and, when `encode`, the ids themselves,
// encoded leaf first in the last bytes of a buffer that grows towards its front, so that a
// sample copies them rather than encoding them again.
class pprof_path {
 public:
  explicit pprof_path(bool encode) : encode_(encode) {}
  void push(std::uint64_t id) {
    sizes_.push_back(sizes_.back() + static_cast<std::uint64_t>(protozero::length_of_varint(id)));
    if (!encode_) return;
    char encoded[10];
    const auto size = static_cast<std::size_t>(protozero::add_varint_to_buffer(encoded, id));
    if (first_ < size) {
      const std::size_t used = leaf_first_.size() - first_;
      std::vector<char> larger(2 * leaf_first_.size());
      std::memcpy(larger.data() + larger.size() - used, leaf_first_.data() + first_, used);
      first_ = larger.size() - used;
      leaf_first_.swap(larger);
    }
    first_ -= size;
    std::memcpy(leaf_first_.data() + first_, encoded, size);
  }
  void pop() {
    sizes_.pop_back();
    first_ = leaf_first_.size() - static_cast<std::size_t>(sizes_.back());
  }
  // The encoded size of the whole path's ids, and (when encoding) those bytes, leaf first.
  [[nodiscard]] std::uint64_t bytes() const noexcept { return sizes_.back(); }
  [[nodiscard]] std::string_view leaf_first() const noexcept {
    return {leaf_first_.data() + first_, leaf_first_.size() - first_};
  }

 private:
  bool encode_;
  std::vector<std::uint64_t> sizes_{0};
  std::vector<char> leaf_first_ = std::vector<char>(64);
  std::size_t first_ = 64;
};

// write_pprof's message, front to back, handed to a sink in pieces of about 1 MiB; with no
// sink, only counted (pprof_size): the samples' location ids, which grow with depth x
// samples, are then added up rather than encoded. The fields but the samples go through
// protozero, in the buffer between the samples: its writer holds no state between fields,
// so the buffer can be emptied then.
class pprof_message_writer {
 public:
  using sink_type = std::function<void(std::string_view)>;

  pprof_message_writer(const profile& p, const pprof_write_options& options, const sink_type& sink)
      : p_(p), options_(options), sink_(sink), columns_(checked_pprof_columns(p, options)), message_(buf_),
        location_of_(p.symbols().frame_count(), 0), path_(static_cast<bool>(sink)) {}

  // The whole message; returns its bytes.
  std::uint64_t write() {
    sample_types();
    samples();
    locations_and_functions();
    for (std::string_view s : strings_) {
      message_.add_string(pb::string_table, s.data(), s.size());
      flush(piece);
    }
    flush(0);
    return bytes_;
  }

 private:
  static constexpr std::size_t piece = std::size_t{1} << 20;

  void flush(std::size_t at_least) {
    if (buf_.size() < at_least) return;
    bytes_ += buf_.size();
    if (sink_) sink_(buf_);
    buf_.clear();
  }
  // The string table: "" first, then metric types and units, then function names.
  std::uint64_t intern(std::string_view s) {
    auto [it, added] = string_index_.try_emplace(s, strings_.size());
    if (added) strings_.push_back(s);
    return it->second;
  }
  // Locations by frame: one per distinct name.
  std::uint64_t location(frame_id f) {
    if (location_of_[f] != 0) return location_of_[f];
    std::string_view name = p_.symbols().name(f);
    auto [it, added] = location_of_name_.try_emplace(name, function_name_.size() + 1);
    if (added) function_name_.push_back(intern(name));
    return location_of_[f] = it->second;
  }
  // As protozero writes an int64: the varint of its two's complement.
  [[nodiscard]] std::uint64_t value(std::size_t m, node_id n) const {
    const double v = columns_[m][n];
    return static_cast<std::uint64_t>(static_cast<std::int64_t>(options_.round_values ? std::round(v) : v));
  }
  void varint(std::uint64_t v) { protozero::add_varint_to_buffer(&buf_, v); }
  static std::uint64_t varint_bytes(std::uint64_t v) { return static_cast<std::uint64_t>(protozero::length_of_varint(v)); }
  void key(protozero::pbf_tag_type tag) {
    varint((std::uint64_t{tag} << 3) | static_cast<std::uint64_t>(protozero::pbf_wire_type::length_delimited));
  }

  void sample_types() {
    for (std::size_t m = 0; m < columns_.size(); ++m) {
      auto [type, unit] = split_metric_name(p_.metric_name(m));
      protozero::pbf_writer vt(message_, pb::sample_type);
      vt.add_int64(pb::type, static_cast<std::int64_t>(intern(type)));
      if (!unit.empty()) vt.add_int64(pb::unit, static_cast<std::int64_t>(intern(unit)));
    }
  }

  // A sample of context n, the current path's: its fields sized before they are written
  // (packed location_id and value), the ids of the path leaf first.
  void sample(node_id n) {
    const std::uint64_t ids = path_.bytes();
    std::uint64_t values = 0;
    for (std::size_t m = 0; m < columns_.size(); ++m) values += varint_bytes(value(m, n));
    const std::uint64_t length = (ids != 0 ? 1 + varint_bytes(ids) + ids : 0) + 1 + varint_bytes(values) + values;
    key(pb::sample);
    varint(length);
    if (ids != 0) {
      key(pb::location_id);
      varint(ids);
      if (sink_) {
        for (std::string_view rest = path_.leaf_first(); !rest.empty();) {
          const std::size_t count = std::min(rest.size(), piece);
          buf_.append(rest.data(), count);
          rest.remove_prefix(count);
          flush(piece);
        }
      } else {
        bytes_ += ids;
      }
    }
    key(pb::value);
    varint(values);
    for (std::size_t m = 0; m < columns_.size(); ++m) varint(value(m, n));
    flush(piece);
  }
  [[nodiscard]] bool nonzero(node_id n) const {
    return std::any_of(columns_.begin(), columns_.end(), [n](std::span<const double> c) { return c[n] != 0; });
  }

  // A sample per context with a value, and per leaf: depth-first, without recursion.
  void samples() {
    const call_tree& tree = p_.tree();
    if (nonzero(root_node)) sample(root_node);
    node_id n = tree.first_child(root_node);
    while (n != null_node) {
      path_.push(location(tree.frame(n)));
      if (nonzero(n) || !tree.has_children(n)) sample(n);
      if (tree.has_children(n)) {
        n = tree.first_child(n);
        continue;
      }
      while (n != root_node) {
        path_.pop();
        node_id next = tree.next_sibling(n);
        if (next != null_node) {
          n = next;
          break;
        }
        n = tree.parent(n);
      }
      if (n == root_node) break;
    }
  }

  // A location of one line per function, then the functions.
  void locations_and_functions() {
    for (std::uint64_t id = 1; id <= function_name_.size(); ++id) {
      {
        protozero::pbf_writer loc(message_, pb::location);
        loc.add_uint64(pb::id, id);
        protozero::pbf_writer line(loc, pb::line);
        line.add_uint64(pb::function_id, id);
      }
      flush(piece);
    }
    for (std::uint64_t id = 1; id <= function_name_.size(); ++id) {
      {
        protozero::pbf_writer fn(message_, pb::function);
        fn.add_uint64(pb::id, id);
        fn.add_int64(pb::function_name, static_cast<std::int64_t>(function_name_[id - 1]));
      }
      flush(piece);
    }
  }

  const profile& p_;
  const pprof_write_options& options_;
  const sink_type& sink_;
  std::vector<std::span<const double>> columns_;
  std::string buf_;
  std::uint64_t bytes_ = 0;
  protozero::pbf_writer message_;
  std::vector<std::string_view> strings_{std::string_view{}};
  std::unordered_map<std::string_view, std::uint64_t> string_index_{{std::string_view{}, 0}};
  std::vector<std::uint64_t> location_of_;
  std::unordered_map<std::string_view, std::uint64_t> location_of_name_;
  std::vector<std::uint64_t> function_name_;  // string index of location i + 1's function
  pprof_path path_;
};

// write_pprof's message (see pprof_message_writer); returns its bytes. Everything write_pprof
// refuses is refused before the first piece.
inline std::uint64_t write_pprof_message(const profile& p, const pprof_write_options& options,
                                         const std::function<void(std::string_view)>& sink) {
  return pprof_message_writer(p, options, sink).write();
}

}  // namespace formats::detail

/// Writes `p` as a pprof profile (profile.proto), gzip-compressed unless options.gzip is
/// false, so that `go tool pprof` and read_pprof open it.
///
/// - One `sample_type` per metric, its name split at the last '_' into type and unit
///   (`cpu_nanoseconds` -> cpu, nanoseconds; `alloc_space_bytes` -> alloc_space, bytes); a
///   name without an inner '_' is the type, with an empty unit. read_pprof joins them again,
///   so the metric names come back as they were.
/// - One function, and one location with one line naming it, per distinct frame name (no
///   mapping, no address); ids 1, 2, ... in order of first use, depth-first.
/// - One sample per context with a non-zero metric and per leaf (all-zero ones too, so that
///   every path comes back), its `location_id`s the path leaf first, its values the
///   context's own (self) values; values on the root give a sample without locations.
///   Written depth-first; the string table last, as Go writes it. Each sample holds its
///   context's whole stack: the message grows with the depth times the samples
///   (pprof_size tells how much before writing).
/// - Throws ccrc::error, before writing anything, for what pprof cannot hold or read_pprof
///   would read back differently: a non-finite value, a value with a fraction (unless
///   options.round_values), a value above 2^53 in magnitude, an empty frame name, a frame or
///   metric name with control characters or invalid UTF-8. Frames of one name with different
///   call sites become one function.
///
/// O(tree + total depth of the written samples); streamed: memory O(tree), 1 MiB of the
/// message and zlib's state, whatever the message's size.
///
///     std::ofstream out("cpu.pb.gz", std::ios::binary);
///     ccrc::write_pprof(out, p);   // go tool pprof -top cpu.pb.gz
inline void write_pprof(std::ostream& out, const profile& p, const pprof_write_options& options = {}) {
  auto checked = [&] {
    if (!out) throw error("pprof: write error");
  };
  if (options.gzip) {
    gzip_writer gzip(out);
    formats::detail::write_pprof_message(p, options, [&](std::string_view bytes) {
      gzip.write(bytes);
      checked();
    });
    gzip.finish();
  } else {
    formats::detail::write_pprof_message(p, options, [&](std::string_view bytes) {
      out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
      checked();
    });
  }
  checked();
}

/// The bytes of the message write_pprof writes for `p` with `options` (before gzip), without
/// writing it (or what it would throw). Each sample holds its context's whole stack, about
/// two bytes a frame: a 200,000-deep chain with a value on every context is 40 GB.
/// O(tree): the stacks are measured, not encoded.
///
///     if (ccrc::pprof_size(p) > (std::uint64_t{1} << 30)) { /* write .cctb instead */ }
[[nodiscard]] inline std::uint64_t pprof_size(const profile& p, const pprof_write_options& options = {}) {
  return formats::detail::write_pprof_message(p, options, {});
}

}  // namespace ccrc
