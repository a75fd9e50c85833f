// ccrc - speedscope's own JSON format (https://www.speedscope.app/file-format-schema.json):
// frames shared by every profile, then `sampled` and `evented` profiles over their indices.
#pragma once

#include <ccrc/concepts.hpp>
#include <ccrc/detail/line_reader.hpp>
#include <ccrc/detail/number_text.hpp>
#include <ccrc/detail/text.hpp>
#include <ccrc/error.hpp>
#include <ccrc/formats/json.hpp>
#include <ccrc/io/json_writer.hpp>
#include <ccrc/tree/metric_unit.hpp>
#include <ccrc/tree/profile.hpp>
#include <ccrc/tree/view.hpp>

#include <simdjson.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <istream>
#include <limits>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

namespace ccrc {

/// Options of read_speedscope.
struct speedscope_options {
  /// The large arrays (frames, samples, weights, events) are parsed in pieces of about this
  /// many bytes (whole elements), so that simdjson's buffers follow the piece, not the file.
  /// The result does not depend on it; tests make it tiny.
  std::size_t piece_bytes = std::size_t{1} << 20;
};

/// Options of write_speedscope.
struct speedscope_write_options {
  /// The file's `name`, which speedscope shows as the title.
  std::string name = "ccrc";
};

namespace detail {

inline constexpr std::string_view speedscope_schema = "https://www.speedscope.app/file-format-schema.json";

/// The metric a profile's `unit` is read into: the unit's own name, except `none` (counts,
/// usually samples) read as `samples`; empty for a unit the schema does not list.
[[nodiscard]] constexpr std::string_view speedscope_metric_of_unit(std::string_view unit) noexcept {
  if (unit == "none") return "samples";
  if (unit == "nanoseconds" || unit == "microseconds" || unit == "milliseconds" || unit == "seconds" ||
      unit == "bytes")
    return unit;
  return {};
}

/// The unit written for a metric, from its name (ccrc::unit_of_metric): `nanoseconds` for
/// `cpu_nanoseconds` or `self_ns`, `microseconds` for `time_us`, `bytes` for
/// `alloc_space_bytes`; `none` for a count.
[[nodiscard]] constexpr std::string_view speedscope_unit_of_metric(std::string_view metric) noexcept {
  return unit_of_metric(metric).unit;
}

// Reads a speedscope document into a profile. The document is walked for its structure
// (formats/json.hpp): `shared.frames`, a profile's `samples`, `weights` and `events` go to
// simdjson On-Demand in pieces of whole elements, a profile's other members each as a
// document of its own, the rest is skipped and checked to be UTF-8.
class speedscope_reader {
  using object = simdjson::ondemand::object;
  using array = simdjson::ondemand::array;
  using value = simdjson::ondemand::value;
  using cursor = formats::detail::json_cursor;
  static constexpr std::size_t absent = std::string_view::npos;
  // The value of `exporter` write_speedscope writes, as its bytes.
  static constexpr std::string_view ccrc_exporter = R"("ccrc")";

 public:
  // The values are checked at the end: the profiles are read after the top level when
  // `shared` comes after them.
  speedscope_reader(std::string_view text, std::size_t piece_bytes)
      : text_(text), cursor_(text, piece_bytes, cursor::utf8_check::at_end) {}

  profile read() {
    const std::size_t open = skip_space(0);
    if (open == text_.size() || text_[open] != '{') cursor::fail_at(open, "a speedscope file is a JSON object");
    std::size_t profiles_at = absent;
    bool profiles_later = false;
    const std::size_t end = formats::detail::walk_json_object(text_, open, [&](std::string_view key, std::size_t at) {
      if (key == "shared") {
        if (have_shared_) cursor::fail_at(at, "a second \"shared\" member");
        have_shared_ = true;
        return read_shared(at);
      }
      if (key == "exporter") ccrc_export_ = text_.substr(at, ccrc_exporter.size()) == ccrc_exporter;
      if (key != "profiles") return std::size_t{0};
      if (profiles_at != absent) cursor::fail_at(at, "a second \"profiles\" member");
      profiles_at = at;
      // Its frames may come later: then it is read after the top level.
      profiles_later = !have_shared_;
      return profiles_later ? std::size_t{0} : read_profiles(at);
    });
    if (const std::size_t after = skip_space(end); after < text_.size()) cursor::fail_at(after, "content after the top-level object");
    if (profiles_later) read_profiles(profiles_at);
    cursor_.check_unparsed_utf8();
    if (!profile_) return profile({"samples"});
    if (ccrc_export_) {
      if (std::optional<profile> whole = unframed()) return std::move(*whole);
      if (std::optional<profile> joined = join_shared()) return std::move(*joined);
    }
    profile_->shrink_to_fit();
    return std::move(*profile_);
  }

 private:
  // A failure in the piece being parsed: where its iterator stands, as a byte of the file.
  [[noreturn]] void fail(const std::string& what, simdjson::error_code code = simdjson::SUCCESS) const {
    cursor_.fail_here(what, code);
  }
  void check(simdjson::error_code code, const char* what) const {
    if (code != simdjson::SUCCESS) fail(what, code);
  }

  [[nodiscard]] std::size_t skip_space(std::size_t i) const noexcept { return formats::detail::skip_json_space(text_, i); }

  // `each(v)` for each element of the array whose '[' should be at `at`, parsed in pieces;
  // `what` names it in errors. Returns the byte after its ']'.
  template <class Each>
  std::size_t read_array(std::size_t at, const std::string& what, Each each) {
    if (at == text_.size() || text_[at] != '[') cursor::fail_at(at, what + " is not an array");
    return cursor_.read(at, what, "malformed " + what, each);
  }

  std::string_view string_at(std::size_t at, const char* what) {
    std::string_view s;
    cursor_.read_value(at, [&](value& v) { check(v.get_string().get(s), what); });
    return s;  // in the parser's buffer: valid until the next piece
  }

  // A member's key as written, escapes included, with no copy: keys are matched as written,
  // so a key spelled with an escape ("\u0074ype") is an unknown member wherever it is.
  std::string_view key_of(simdjson::ondemand::field& field) const noexcept {
    const char* raw = field.key().raw();
    // The closing quote: the first '"' not escaped (a backslash escapes the next byte).
    const char* end = cursor_.piece().json.data() + cursor_.piece().json.size();
    const char* p = raw;
    while (p < end && *p != '"') p += *p == '\\' ? 2 : 1;
    return {raw, static_cast<std::size_t>((p < end ? p : end) - raw)};
  }

  // A line or column number: a whole number from 0 to 2^53.
  std::uint64_t position_number(value v, const char* what) {
    double d = 0;
    check(v.get_double().get(d), what);
    if (!(d >= 0 && d <= 9007199254740992.0) || d != std::floor(d)) fail(std::string(what) + ": not a whole number >= 0");
    return static_cast<std::uint64_t>(d);
  }

  std::size_t read_shared(std::size_t at) {
    if (at == text_.size() || text_[at] != '{') cursor::fail_at(at, "\"shared\" is not an object");
    return formats::detail::walk_json_object(text_, at, [&](std::string_view key, std::size_t frames) {
      return key == "frames" ? read_array(frames, "\"shared.frames\"", [&](value& v) { read_frame(v); }) : 0;
    });
  }

  // {name, file?, line?, col?} -> "name file:line:col" (see read_speedscope).
  void read_frame(value v) {
    object obj;
    check(v.get_object().get(obj), "a frame is not an object");
    std::string name, file;
    bool has_name = false;
    std::optional<std::uint64_t> line, col;
    for (auto entry : obj) {
      simdjson::ondemand::field field;
      check(std::move(entry).get(field), "malformed member of a frame");
      std::string_view s, key = key_of(field);
      if (key == "name") {
        check(field.value().get_string().get(s), "frame \"name\" is not a string");
        name.assign(s);
        has_name = true;
      } else if (key == "file") {
        check(field.value().get_string().get(s), "frame \"file\" is not a string");
        file.assign(s);
      } else if (key == "line") {
        line = position_number(field.value(), "frame \"line\"");
      } else if (key == "col") {
        col = position_number(field.value(), "frame \"col\"");
      }
    }
    if (!has_name) fail("frame " + std::to_string(frame_names_.size()) + " has no \"name\"");
    if (name.empty()) name = "(anonymous)";
    // speedscope's own exporter gives frames without a location file "", line 0 and col 0.
    if (!file.empty() || line.value_or(0) != 0 || col.value_or(0) != 0) {
      name += ' ';
      name += file;
      if (line) name.append(":").append(std::to_string(*line));
      if (col) name.append(":").append(std::to_string(*col));
    }
    if (const char* why = check_name_text(name)) fail("frame name " + std::string(why));
    frame_names_.push_back(std::move(name));
    frame_ids_.push_back(root_frame);
  }

  // A frame index (a JSON number), checked against the frames.
  std::uint64_t frame_index(value v) {
    std::uint64_t index = 0;
    if (auto code = v.get_uint64().get(index)) fail("a frame index is not a whole number >= 0", code);
    if (index >= frame_names_.size())
      fail("frame index " + std::to_string(index) + " out of range (the file has " +
           std::to_string(frame_names_.size()) + " frames)");
    return index;
  }

  // The frame of a checked index, interned when first used.
  frame_id frame_of(std::uint64_t index) {
    frame_id& f = frame_ids_[index];
    if (f == root_frame) f = profile_->intern(frame_names_[index]);
    return f;
  }

  // The profiles array at `at`, its objects walked one by one.
  std::size_t read_profiles(std::size_t at) {
    if (at == text_.size() || text_[at] != '[') cursor::fail_at(at, "\"profiles\" is not an array");
    std::size_t index = 0;
    return formats::detail::walk_json_array(text_, at, [&](std::size_t open) {
      if (open == text_.size() || text_[open] != '{') cursor::fail_at(open, "a profile is not an object");
      return read_profile(open, index++);
    });
  }

  // The metric column of `unit`, added when first seen (the profile is made then too).
  std::size_t metric_of(std::string_view unit) {
    std::string_view metric = speedscope_metric_of_unit(unit);
    if (metric.empty()) fail("unknown unit '" + std::string(unit.substr(0, 40)) + "'");
    if (profile_) {
      if (auto m = profile_->find_metric(metric)) return *m;
      totals_.push_back(0);
      return profile_->add_metric(std::string(metric));
    }
    profile_.emplace(std::vector<std::string>{std::string(metric)});
    totals_.push_back(0);
    return 0;
  }

  // The metric's total after `v` (>= 0) more, as a sum in file order; refused where it is no
  // longer finite. A context's value is a part of that sum, added in the same order, so it
  // cannot overflow first.
  double total_with(std::size_t metric, double before, double v) {
    const double total = before + v;
    if (!std::isfinite(total))
      fail("the values of metric '" + std::string(profile_->metric_name(metric)) + "' add up to more than a double holds");
    return total;
  }

  // Adds `v` (>= 0) to context `n`'s value of `metric`.
  void add(std::size_t metric, node_id n, double v) {
    totals_[metric] = total_with(metric, totals_[metric], v);
    profile_->column(metric)[n] += v;
  }

  // What a profile read: its contexts are the ids [top, the next profile's top), top first
  // (profiles are read one at a time, each under a frame of its own), its values in `metric`.
  struct profile_read {
    node_id top = root_node;
    std::size_t metric = 0;
    std::string name;  // as the file has it
    bool sampled = false;
    std::uint64_t count = 0, hash = 0;  // of its samples (stacks of frame indices) or events

    void add(std::uint64_t v) noexcept { hash = (hash ^ v) * 0x100000001b3 + 0x9e3779b97f4a7c15; }
  };

  // Whether profiles a and b share their samples (as the writer's profiles, one per metric of
  // the same events, do): of one type, as many samples (events), the same hash of their stacks
  // (events' types and frames), and the same contexts below their tops, made in the same order.
  // O(contexts).
  [[nodiscard]] bool share_samples(std::size_t a, std::size_t b) const {
    const call_tree& t = profile_->tree();
    const node_id ta = reads_[a].top, tb = reads_[b].top;
    const std::size_t size = end_of(a) - ta;
    if (reads_[a].sampled != reads_[b].sampled || reads_[a].count != reads_[b].count ||
        reads_[a].hash != reads_[b].hash || end_of(b) - tb != size)
      return false;
    for (node_id i = 1; i < size; ++i)
      if (t.frame(ta + i) != t.frame(tb + i) || t.parent(ta + i) - ta != t.parent(tb + i) - tb) return false;
    return true;
  }
  [[nodiscard]] node_id end_of(std::size_t k) const {
    return k + 1 < reads_.size() ? reads_[k + 1].top : static_cast<node_id>(profile_->size());
  }

  // Profiles that share their samples are one tree, under a frame of their names joined by
  // " + ", with a column per profile (named after it), so that values of different units are
  // never added: null if no two profiles do. Others keep their frame and the column of their
  // unit. O(profiles^2 + contexts): the contexts are compared only where the hashes match.
  std::optional<profile> join_shared() {
    std::vector<std::size_t> group(reads_.size());  // the first profile sharing k's samples
    bool any = false;
    for (std::size_t k = 0; k < reads_.size(); ++k) {
      group[k] = k;
      for (std::size_t j = 0; j < k && group[k] == k; ++j)
        if (group[j] == j && share_samples(j, k)) group[k] = j;
      any = any || group[k] != k;
    }
    if (!any) return std::nullopt;
    std::vector<std::size_t> members(reads_.size(), 0);
    for (std::size_t g : group) ++members[g];
    // The columns: one per unit of the profiles alone, one per profile sharing samples.
    std::vector<std::string> names;
    std::vector<bool> of_unit;  // whether a column is a unit's, shared by the profiles alone
    std::vector<std::size_t> column(reads_.size());
    auto add_column = [&](std::string name, std::size_t k, bool unit) {
      for (std::size_t c = 0; c < names.size(); ++c)
        if (unit && of_unit[c] && names[c] == name) return c;
      while (std::find(names.begin(), names.end(), name) != names.end()) name += " (" + std::to_string(k) + ")";
      names.push_back(std::move(name));
      of_unit.push_back(unit);
      return names.size() - 1;
    };
    for (std::size_t k = 0; k < reads_.size(); ++k) {
      const std::string unit(profile_->metric_name(reads_[k].metric));
      if (members[group[k]] == 1) column[k] = add_column(unit, k, true);
      else column[k] = add_column(reads_[k].name.empty() ? unit : reads_[k].name, k, false);
    }
    profile out(names);
    const call_tree& t = profile_->tree();
    const symbol_table& symbols = t.symbols();
    std::vector<node_id> map(t.size(), null_node);
    map[root_node] = root_node;
    for (std::size_t k = 0; k < reads_.size(); ++k) {
      const node_id top = reads_[k].top, end = end_of(k);
      if (group[k] != k) {  // the contexts of the profile it shares its samples with
        for (node_id i = 0; i < end - top; ++i) map[top + i] = map[reads_[group[k]].top + i];
      } else {
        std::string frame(symbols.name(t.frame(top)));
        if (members[k] > 1) {
          frame.clear();
          for (std::size_t j = k; j < reads_.size(); ++j)
            if (group[j] == k) frame += (frame.empty() ? "" : " + ") + std::string(symbols.name(t.frame(reads_[j].top)));
        }
        map[top] = out.find_or_add_child(root_node, out.symbols().intern(frame));
        for (node_id n = top + 1; n < end; ++n) {
          const frame_id f = t.frame(n);
          map[n] = out.find_or_add_child(map[t.parent(n)], out.symbols().intern(symbols.name(f), symbols.site(f)));
        }
      }
      std::span<const double> from = profile_->column(reads_[k].metric);
      std::span<double> to = out.column(column[k]);
      for (node_id n = top; n < end; ++n) to[map[n]] += from[n];
    }
    out.shrink_to_fit();
    return out;
  }

  // A file write_speedscope wrote: one tree, a profile per metric sharing its events, read
  // back as that tree, without a frame above it, a column per profile named after it (the
  // metric's name), so that reading what was written gives the tree written (symbolize or
  // convert of a speedscope file into one, run again and again, nests nothing). Null if the
  // profiles do not all share the first one's samples (the file was edited since).
  std::optional<profile> unframed() {
    for (std::size_t k = 1; k < reads_.size(); ++k)
      if (!share_samples(0, k)) return std::nullopt;
    std::vector<std::string> names;
    for (std::size_t k = 0; k < reads_.size(); ++k) {
      std::string name = reads_[k].name.empty() ? std::string(profile_->metric_name(reads_[k].metric)) : reads_[k].name;
      while (std::find(names.begin(), names.end(), name) != names.end()) name += " (" + std::to_string(k) + ")";
      names.push_back(std::move(name));
    }
    profile out(std::move(names));
    const call_tree& t = profile_->tree();
    const symbol_table& symbols = t.symbols();
    const node_id top = reads_[0].top, size = end_of(0) - top;
    std::vector<node_id> map(size, root_node);  // by the distance from the profile's top
    for (node_id i = 1; i < size; ++i) {
      const frame_id f = t.frame(top + i);
      map[i] = out.find_or_add_child(map[t.parent(top + i) - top], out.symbols().intern(symbols.name(f), symbols.site(f)));
    }
    for (std::size_t k = 0; k < reads_.size(); ++k) {
      std::span<const double> from = profile_->column(reads_[k].metric);
      std::span<double> to = out.column(k);
      for (node_id i = 0; i < size; ++i) to[map[i]] += from[reads_[k].top + i];
    }
    out.shrink_to_fit();
    return out;
  }

  // The frame a profile's contexts go under: its name, or "profile N" if empty, with " (N)"
  // appended while it repeats an earlier profile's (N its 0-based index in the file).
  frame_id profile_frame(std::string name, std::size_t index, std::size_t name_at) {
    if (name.empty()) name = "profile " + std::to_string(index);
    while (profile_names_.count(name)) name += " (" + std::to_string(index) + ")";
    if (const char* why = check_name_text(name)) cursor::fail_at(name_at, "profile name " + std::string(why));
    profile_names_.insert(name);
    return profile_->intern(name);
  }

  // Where a profile's members are (absent if not there), and what its head says.
  struct profile_members {
    std::size_t type = absent, name = absent, unit = absent, samples = absent, weights = absent, events = absent;
    bool sampled = false;
    node_id top = root_node;
    std::size_t metric = 0;

    // The member `key` names, or null for one not read.
    std::size_t* find(std::string_view key) noexcept {
      if (key == "type") return &type;
      if (key == "name") return &name;
      if (key == "unit") return &unit;
      if (key == "samples") return &samples;
      if (key == "weights") return &weights;
      if (key == "events") return &events;
      return nullptr;
    }
    [[nodiscard]] bool is_array(const std::size_t* member) const noexcept {
      return member == &samples || member == &weights || member == &events;
    }
  };

  // The profile object whose '{' is at `open`. Its members may come in any order, but its
  // type, name and unit are needed before its arrays: when they come first (as every writer
  // puts them), the arrays are read as the object is walked; else the object is walked once
  // to find them, then the arrays are read. Either way the arrays are read in file order.
  // Returns the byte after its '}'. A missing member is reported at that '}'.
  std::size_t read_profile(std::size_t open, std::size_t index) {
    profile_members m;
    formats::detail::walk_json_object(text_, open, [&](std::string_view key, std::size_t at) {
      std::size_t* member = m.find(key);
      if (member && m.is_array(member)) return std::string_view::npos;
      if (member) *member = at;
      return std::size_t{0};
    });
    const bool head_first = m.type != absent && m.name != absent && m.unit != absent;
    if (head_first) read_head(m, index);
    m.type = m.name = m.unit = absent;
    sampled_.clear();
    weights_.clear();
    const std::size_t end = formats::detail::walk_json_object(text_, open, [&](std::string_view key, std::size_t at) {
      std::size_t* member = m.find(key);
      if (!member) return std::size_t{0};
      if (*member != absent) cursor::fail_at(at, "a profile with two \"" + std::string(key) + "\" members");
      *member = at;
      return head_first && m.is_array(member) ? read_array_member(m, member) : 0;
    });
    const std::size_t close = end - 1;
    if (!head_first) {
      if (m.type == absent) cursor::fail_at(close, "profile without a string \"type\"");
      if (m.unit == absent) cursor::fail_at(close, "profile without a string \"unit\"");
      read_head(m, index);
      std::array<std::size_t*, 3> arrays{&m.samples, &m.weights, &m.events};
      std::sort(arrays.begin(), arrays.end(), [](const std::size_t* a, const std::size_t* b) { return *a < *b; });
      for (std::size_t* member : arrays)
        if (*member != absent) read_array_member(m, member);
    }
    if (m.sampled) {
      if (m.weights == absent) cursor::fail_at(close, "sampled profile without a \"weights\" array");
      if (m.samples == absent) cursor::fail_at(close, "sampled profile without a \"samples\" array");
    } else if (m.events == absent) {
      cursor::fail_at(close, "evented profile without an \"events\" array");
    }
    return end;
  }

  // The profile's type, name and unit: its frame and metric.
  void read_head(profile_members& m, std::size_t index) {
    const std::string type(string_at(m.type, "profile \"type\" is not a string"));
    if (type != "sampled" && type != "evented")
      cursor::fail_at(m.type, "unknown profile type '" + type.substr(0, 40) + "' (not \"sampled\" nor \"evented\")");
    m.sampled = type == "sampled";
    std::string name;
    if (m.name != absent) name = string_at(m.name, "profile \"name\" is not a string");
    cursor_.read_value(m.unit, [&](value& v) {
      std::string_view unit;
      check(v.get_string().get(unit), "profile \"unit\" is not a string");
      m.metric = metric_of(unit);
    });
    reads_.push_back({.top = 0, .metric = m.metric, .name = name, .sampled = m.sampled});
    m.top = reads_.back().top = profile_->find_or_add_child(root_node, profile_frame(std::move(name), index, m.name));
  }

  // Reads the array `member` of `m` if its type has it; returns the byte after it, 0 if not
  // read. Samples and weights pair up in file order: the first of the two arrays is held (a
  // weight, or a sample's context), the second added to it.
  std::size_t read_array_member(profile_members& m, std::size_t* member) {
    if (member == &m.events) return m.sampled ? 0 : read_evented(m.events, m.top, m.metric);
    if (!m.sampled) return 0;
    if (member == &m.samples) return read_samples(m.samples, m.top, m.metric, m.weights < m.samples);
    return read_weights(m.weights, m.metric, m.samples < m.weights);
  }

  // A weight or an event time: a finite number.
  double finite_number(value v, const char* what) {
    double d = 0;
    check(v.get_double().get(d), what);
    if (!std::isfinite(d)) fail(std::string(what) + " is not finite");
    return d;
  }

  std::size_t read_weights(std::size_t at, std::size_t metric, bool after_samples) {
    std::size_t k = 0;
    // Weights held for the samples to come are summed now, so that a sum that overflows is
    // refused at its weight; the samples add them in the same order, to the same sums.
    double total = totals_[metric];
    const std::size_t end = read_array(at, "\"weights\"", [&](value& v) {
      double d = finite_number(v, "a weight");
      if (d < 0) fail("negative weight");
      if (!after_samples) {
        total = total_with(metric, total, d);
        weights_.push_back(d);
        return;
      }
      if (k >= sampled_.size()) fail("more weights than the " + std::to_string(sampled_.size()) + " samples");
      add(metric, sampled_[k++], d);
    });
    if (after_samples && k != sampled_.size())
      cursor::fail_at(end - 1, std::to_string(k) + " weights for " + std::to_string(sampled_.size()) + " samples");
    return end;
  }

  std::size_t read_samples(std::size_t at, node_id top, std::size_t metric, bool after_weights) {
    std::size_t k = 0;
    // The previous sample's indices (and their text) and contexts: a stack usually shares a
    // prefix with it, which then costs a comparison per frame instead of a child lookup (and,
    // where the index is written alike, instead of parsing it).
    prefix_.clear();
    prefix_text_.clear();
    path_.clear();
    std::uint64_t piece = absent;  // the first byte of the piece the prefix's text is in
    const std::size_t end = read_array(at, "\"samples\"", [&](value& sample) {
      if (piece != cursor_.piece().base) {  // the previous piece's text is gone: compare the indices
        piece = cursor_.piece().base;
        std::fill(prefix_text_.begin(), prefix_text_.end(), std::string_view{});
      }
      array stack;
      check(sample.get_array().get(stack), "a sample is not an array of frame indices");
      node_id n = top;
      std::size_t depth = 0;
      bool same = true;
      for (auto i : stack) {
        value v;
        check(std::move(i).get(v), "malformed frame index");
        std::string_view text = v.raw_json_token();
        if (same && depth < prefix_.size() && formats::detail::same_token(text, prefix_text_[depth])) {
          n = path_[depth++];
          continue;
        }
        std::uint64_t index = frame_index(v);
        if (same && depth < prefix_.size() && index == prefix_[depth]) {
          n = path_[depth++];
          continue;
        }
        if (same) {  // the first frame that differs: the previous sample's rest is dropped
          same = false;
          prefix_.resize(depth);
          prefix_text_.resize(depth);
          path_.resize(depth);
        }
        n = profile_->find_or_add_child(n, frame_of(index));
        prefix_.push_back(index);
        prefix_text_.push_back(text);
        path_.push_back(n);
        ++depth;
      }
      prefix_.resize(depth);
      prefix_text_.resize(depth);
      path_.resize(depth);
      profile_read& r = reads_.back();
      ++r.count;
      for (std::uint64_t i : prefix_) r.add(i + 1);
      r.add(0);
      if (!after_weights) {
        sampled_.push_back(n);
        return;
      }
      if (k >= weights_.size()) fail("more samples than the " + std::to_string(weights_.size()) + " weights");
      add(metric, n, weights_[k++]);
    });
    if (after_weights && k != weights_.size())
      cursor::fail_at(end - 1, std::to_string(weights_.size()) + " weights for " + std::to_string(k) + " samples");
    return end;
  }

  std::size_t read_evented(std::size_t at, node_id top, std::size_t metric) {
    stack_.clear();
    open_.clear();
    double last = 0;
    bool first = true;
    const std::size_t end = read_array(at, "\"events\"", [&](value& e) {
      object event;
      check(e.get_object().get(event), "an event is not an object");
      std::string_view type;
      std::optional<double> time;
      std::optional<std::uint64_t> index;
      frame_id f = root_frame;
      for (auto entry : event) {
        simdjson::ondemand::field field;
        check(std::move(entry).get(field), "malformed member of an event");
        std::string_view key = key_of(field);
        if (key == "type") {
          check(field.value().get_string().get(type), "event \"type\" is not a string");
        } else if (key == "frame") {
          index = frame_index(field.value());
          f = frame_of(*index);
        } else if (key == "at") {
          time = finite_number(field.value(), "event \"at\"");
          if (*time < 0) fail("event \"at\" is negative");
        }
      }
      if (!time || !index || type.empty()) fail("event without \"type\", \"frame\" or \"at\"");
      profile_read& r = reads_.back();
      ++r.count;
      r.add(type == "O" ? 1 : 2);
      r.add(*index);
      if (!first && *time < last) fail("event at " + format(*time) + " before the previous one at " + format(last));
      if (!stack_.empty()) add(metric, stack_.back(), *time - last);
      last = *time;
      first = false;
      if (type == "O") {
        stack_.push_back(profile_->find_or_add_child(stack_.empty() ? top : stack_.back(), f));
        open_.push_back(*index);
      } else if (type == "C") {
        if (open_.empty()) fail("close event of frame " + std::to_string(*index) + " with no frame open");
        if (open_.back() != *index)
          fail("close event of frame " + std::to_string(*index) + " while frame " + std::to_string(open_.back()) +
               " is the innermost open one");
        stack_.pop_back();
        open_.pop_back();
      } else {
        fail("event type '" + std::string(type.substr(0, 40)) + "' (not \"O\" nor \"C\")");
      }
    });
    if (!stack_.empty()) cursor::fail_at(end - 1, std::to_string(stack_.size()) + " frames still open at the end of the events");
    return end;
  }

  static std::string format(double v) {
    std::string s;
    append_number(s, v);
    return s;
  }

  std::string_view text_;
  cursor cursor_;
  bool have_shared_ = false;
  bool ccrc_export_ = false;  // written by write_speedscope: its profiles are one per metric
  std::vector<std::string> frame_names_;  // by index in shared.frames
  std::vector<frame_id> frame_ids_;       // root_frame until interned
  std::optional<profile> profile_;
  std::vector<double> totals_;    // per metric: the sum of its values so far
  std::unordered_set<std::string> profile_names_;
  std::vector<profile_read> reads_;  // by index in the file
  std::vector<double> weights_;   // sampled: the weights, when they come before the samples
  std::vector<node_id> sampled_;  // or the samples' contexts, when they come first
  std::vector<std::uint64_t> prefix_;          // sampled: the previous stack's frame indices
  std::vector<std::string_view> prefix_text_;  // and their text in the piece
  std::vector<node_id> path_;                  // sampled: and its contexts
  std::vector<node_id> stack_;                 // evented: the open contexts
  std::vector<std::uint64_t> open_;            // evented: their frame indices
};

}  // namespace detail

/// Reads a speedscope file (https://www.speedscope.app/file-format-schema.json): frames in
/// `shared.frames`, then `profiles`, each `sampled` (root-first stacks of frame indices and
/// their weights) or `evented` (open/close events at a cumulative value).
///
/// - Tree: every profile under one frame named after it, its `name` (`profile N` if empty,
///   N the 0-based index in `profiles`; ` (N)` appended if an earlier profile has the name),
///   so profiles stay apart (two threads that did the same work included). Sampled: each
///   stack, root first. Evented: the open frames. In a file write_speedscope wrote (its
///   `exporter` is `"ccrc"`, as written), profiles that all share their samples (of one type,
///   the same stacks in the same order, or the same events' types and frames: its one profile
///   per metric) are the tree it was written from: no frame above it, a column per profile
///   named after it; if only some share them (the file was edited since), those are one tree
///   under one frame, their names joined by ` + `.
/// - Frames: identified by their index in `shared.frames`, named `name file:line:col` with
///   whichever of file, line and col the entry has (`f a.js:3:7`, `f a.js`, `f :3`), as the
///   V8 reader names `functionName url:line:col`; the name alone if the entry has no file
///   (or an empty one) and no line or col other than 0 (how speedscope's own exporter writes
///   `(program)`); an empty name is `(anonymous)`. Entries with the same name, file, line and
///   col are one frame; entries differing in any of them stay apart.
/// - Metrics: one column per unit: `samples` for `none`, else the unit (`nanoseconds`,
///   `microseconds`, `milliseconds`, `seconds`, `bytes`); profiles of one unit share it,
///   but profiles sharing their samples have a column each, named after the profile (its
///   unit's if it has no name, ` (N)` appended if taken), never one column of two units.
///   Sampled: a sample's weight is the self value of its stack's last frame (a 0 weight still
///   creates the context). Evented: the value between two events is the self value of the
///   innermost open frame (none if no frame is open); an event opened and closed at once
///   still creates its context. `startValue`, `endValue`, `name` and `activeProfileIndex`
///   are not used; `exporter` only as said above. No profiles: an empty profile with metric `samples`. Member
///   names are matched as written (a key spelled with an escape, `"\u0074ype"`, is not
///   `type`); string values are unescaped.
/// - Errors throw ccrc::parse_error::at_byte: malformed JSON, a missing or mistyped member,
///   a frame index out of range, a line or col that is not a whole number, samples and
///   weights of different lengths, a negative or non-finite weight or `at`, weights or times
///   whose sum over the profiles of one unit overflows a double, events going back in time, a close event that does not match the innermost open frame (speedscope refuses
///   these too), frames still open at the end, an unknown profile type or unit, a name that
///   is not valid UTF-8 or has control characters, a second `shared` or `profiles` member, a
///   profile with one of its members twice.
///
/// Streaming: the document is scanned for its structure (strings and brackets,
/// formats/json.hpp); `shared.frames` and a profile's `samples`, `weights` and `events` go to
/// simdjson On-Demand in pieces of whole elements of about speedscope_options::piece_bytes
/// (1 MiB), a profile's `type`, `name` and `unit` each as a document of its own; the other
/// members are skipped (strings and brackets balanced) and checked to be UTF-8, invalid
/// UTF-8 there reported at the first byte after the value read before it. What simdjson's
/// first pass over a piece finds (invalid UTF-8, a string never closed) is reported at the
/// piece's first byte (the array's `[` or the ',' before the piece's first element); a
/// profile without a required member at the profile's closing `}`.
///
/// O(bytes + contexts): one pass over the document (two over `profiles` if it precedes
/// `shared`; two over a profile whose arrays come before its `type`, `name` or `unit`).
/// Memory: the document; a piece and simdjson's buffers for it (about six bytes per byte of
/// the piece: 6 MB); the frame names; a sampled profile's first array of `samples` and
/// `weights` (4 bytes a sample or 8 a weight) while the second is read; the tree, and where
/// profiles share their samples a second tree while it is built from the first (plus
/// O(profiles^2) comparisons of their counts and hashes).
///
///     ccrc::profile p = ccrc::read_speedscope(R"({"shared": {"frames": [{"name": "main"},
///         {"name": "f", "file": "a.c", "line": 3}]}, "profiles": [{"type": "sampled",
///         "name": "t1", "unit": "none", "samples": [[0, 1]], "weights": [5]}]})");
///     // path "t1;main;f a.c:3": samples 5
[[nodiscard]] inline profile read_speedscope(std::string_view text, const speedscope_options& options = {}) {
  return detail::speedscope_reader(text, options.piece_bytes).read();
}

/// read_speedscope of a document read with formats::json_text.
[[nodiscard]] inline profile read_speedscope(const formats::json_text& text, const speedscope_options& options = {}) {
  return read_speedscope(text.bytes(), options);
}

/// read_speedscope from a stream, read whole first (the reader works on the document in memory).
[[nodiscard]] inline profile read_speedscope(std::istream& in, const speedscope_options& options = {}) {
  return read_speedscope(formats::json_text({}, ccrc::detail::stream_source{&in}), options);
}

/// read_speedscope from a file (formats::json_file: a regular file read once into a buffer of
/// its size); throws ccrc::error if it cannot be opened.
[[nodiscard]] inline profile read_speedscope_file(const std::filesystem::path& path, const speedscope_options& options = {}) {
  return read_speedscope(formats::json_file(path), options);
}

/// Writes `t` (a ccrc::profile or ccrc::cct) as a speedscope file that speedscope opens and
/// read_speedscope reads back: the distinct frame names of the tree as `shared.frames`, then
/// one `evented` profile per metric, named after the metric, with the unit its name suggests
/// (`time_us`: microseconds, `cpu_nanoseconds`: nanoseconds, `alloc_space_bytes`: bytes;
/// `none` otherwise, see detail::speedscope_unit_of_metric). Its events open and close every
/// context depth-first, siblings in creation order, `at` the running sum of the metric's self
/// values, so speedscope shows each context's inclusive value and a context with 0 still
/// appears: the file is linear in the tree (two events per context and metric), not in the
/// total length of its paths.
///
/// Reading it back (its `exporter` is `ccrc`) gives the tree written, a column per metric
/// named after it, so that a speedscope file read and written again keeps its shape; values
/// are exact when they and the totals are integers below 2^53 (otherwise a weight is a
/// difference of running sums and may differ in its last bits).
/// Throws ccrc::error for what the format cannot hold: a negative or non-finite value, a
/// total that overflows a double, metrics on the root, a name that is not valid UTF-8
/// (control characters are escaped).
/// The output is streamed in 64 KB pieces. O(contexts x metrics + length of the names).
///
///     std::ofstream out("profile.speedscope.json");
///     ccrc::write_speedscope(out, ccrc::read_folded_file("app.folded"));
template <metric_tree Tree>
void write_speedscope(std::ostream& out, const Tree& t, const speedscope_write_options& options = {}) {
  const call_tree& tree = t.tree();
  t.for_each_column([&](std::string_view name, auto column) {
    if (!simdjson::validate_utf8(name.data(), name.size()))
      throw error("metric name '" + std::string(name) + "' is not valid UTF-8");
    double sum = 0;
    for (auto v : column) {
      auto d = static_cast<double>(v);
      if (!std::isfinite(d) || d < 0)
        throw error("metric '" + std::string(name) + "' has a negative or non-finite value, which speedscope cannot show");
      sum += d;
    }
    if (!std::isfinite(sum)) throw error("the total of metric '" + std::string(name) + "' overflows a double");
    if (column[root_node] != 0) throw error("the root has metrics of its own, which a speedscope file cannot hold");
  });
  if (!simdjson::validate_utf8(options.name.data(), options.name.size())) throw error("the file name is not valid UTF-8");

  std::string buf;
  auto flush = [&](bool force) {
    if (buf.size() >= (std::size_t{1} << 16) || force) {
      out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
      buf.clear();
    }
  };
  buf.append(R"({"$schema":")").append(detail::speedscope_schema).append(R"(","shared":{"frames":[)");
  // Frames: the distinct frames of the tree, numbered in order of first use.
  constexpr std::uint32_t unnumbered = std::numeric_limits<std::uint32_t>::max();
  std::vector<std::uint32_t> index(tree.symbols().frame_count(), unnumbered);
  std::uint32_t frames = 0;
  for (node_id n = 1; n < tree.size(); ++n) {
    frame_id f = tree.frame(n);
    if (index[f] != unnumbered) continue;
    std::string_view name = tree.name(n);
    if (!simdjson::validate_utf8(name.data(), name.size()))
      throw error("frame name '" + std::string(name) + "' is not valid UTF-8");
    if (frames > 0) buf += ',';
    index[f] = frames++;
    buf += R"({"name":)";
    append_json_string(buf, name);
    buf += '}';
    flush(false);
  }
  buf += R"(]},"profiles":[)";
  std::size_t metric = 0;
  t.for_each_column([&](std::string_view name, auto column) {
    if (metric++ > 0) buf += ',';
    buf += R"({"type":"evented","name":)";
    append_json_string(buf, name);
    buf.append(R"(,"unit":")").append(detail::speedscope_unit_of_metric(name)).append(R"(","startValue":0,"events":[)");
    double at = 0;
    bool first = true;
    auto event = [&](char type, node_id n) {
      buf += first ? R"({"type":")" : R"(,{"type":")";
      first = false;
      buf += type;
      buf += R"(","frame":)";
      detail::append_number(buf, index[tree.frame(n)]);
      buf += R"(,"at":)";
      append_json_number(buf, at);
      buf += '}';
      flush(false);
    };
    depth_first(
        tree_view(tree),
        [&](node_id n, std::uint32_t level) {
          if (level == 0) return;
          event('O', n);
          at += static_cast<double>(column[n]);
          // Summed in another order than the check above; overflow is still possible there.
          if (!std::isfinite(at)) throw error("the running total of metric '" + std::string(name) + "' overflows a double");
        },
        [&](node_id n, std::uint32_t level) {
          if (level > 0) event('C', n);
        });
    buf += R"(],"endValue":)";
    append_json_number(buf, at);
    buf += '}';
  });
  buf += R"(],"name":)";
  append_json_string(buf, options.name);
  buf += R"(,"activeProfileIndex":0,"exporter":"ccrc"})";
  buf += '\n';
  flush(true);
  if (!out) throw error("write error");
}

}  // namespace ccrc
