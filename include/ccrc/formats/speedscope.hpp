// ccrc - speedscope's own JSON format (https://www.speedscope.app/file-format-schema.json):
// frames shared by every profile, then `sampled` and `evented` profiles over their indices.
#pragma once

#include <ccrc/concepts.hpp>
#include <ccrc/detail/line_reader.hpp>
#include <ccrc/detail/number.hpp>
#include <ccrc/detail/text.hpp>
#include <ccrc/error.hpp>
#include <ccrc/formats/json.hpp>
#include <ccrc/tree/metric_unit.hpp>
#include <ccrc/tree/profile.hpp>
#include <ccrc/tree/view.hpp>

#include <simdjson.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace ccrc {

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

// Reads a speedscope document into a profile, walking it once with simdjson On-Demand (twice
// if `profiles` comes before `shared`).
class speedscope_reader {
  using object = simdjson::ondemand::object;
  using array = simdjson::ondemand::array;
  using value = simdjson::ondemand::value;

 public:
  explicit speedscope_reader(simdjson::padded_string_view json) : json_(json) {}

  profile read() {
    if (auto code = parser_.iterate(json_).get(doc_))
      throw parse_error::at_byte(0, std::string("not a JSON document (") + simdjson::error_message(code) + ")");
    object top;
    bool brace = formats::detail::first_json_byte(std::string_view(json_.data(), json_.size())) == '{';
    check(doc_.get_object().get(top), brace ? "malformed top-level object" : "a speedscope file is a JSON object");
    bool deferred = false, have_profiles = false;
    for (auto entry : top) {
      simdjson::ondemand::field field;
      check(std::move(entry).get(field), "malformed member of the top-level object");
      std::string_view key = key_of(field);
      if (key == "shared") {
        if (have_shared_) fail("a second \"shared\" member");
        read_shared(field.value());
        have_shared_ = true;
      } else if (key == "profiles") {
        if (have_profiles) fail("a second \"profiles\" member");
        have_profiles = true;
        if (have_shared_) read_profiles(field.value());
        else deferred = true;  // its frames come later: read it on a second pass
      }
    }
    const char* rest = nullptr;
    if (doc_.current_location().get(rest) == simdjson::SUCCESS) fail("content after the top-level object");
    if (deferred) {
      doc_.rewind();
      check(doc_.get_object().get(top), "a speedscope file is a JSON object");
      for (auto entry : top) {
        simdjson::ondemand::field field;
        check(std::move(entry).get(field), "malformed member of the top-level object");
        std::string_view key = key_of(field);
        if (key == "profiles") read_profiles(field.value());
      }
    }
    if (!profile_) return profile({"samples"});
    profile_->shrink_to_fit();
    return std::move(*profile_);
  }

 private:
  [[noreturn]] void fail(const std::string& what, simdjson::error_code code = simdjson::SUCCESS) {
    formats::detail::json_fail(doc_, json_, what, code);
  }
  void check(simdjson::error_code code, const char* what) {
    if (code != simdjson::SUCCESS) fail(what, code);
  }

  // A member's key as written, escapes included, with no copy: keys are matched as written,
  // as simdjson's field lookup (obj["type"]) matches them, so a key spelled with an escape
  // ("\u0074ype") is an unknown member wherever it is.
  std::string_view key_of(simdjson::ondemand::field& field) const noexcept {
    const char* raw = field.key().raw();
    // The closing quote: the first '"' not escaped (a backslash escapes the next byte).
    const char* end = json_.data() + json_.size();
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

  void read_shared(value shared) {
    object obj;
    check(shared.get_object().get(obj), "\"shared\" is not an object");
    for (auto entry : obj) {
      simdjson::ondemand::field field;
      check(std::move(entry).get(field), "malformed member of \"shared\"");
      std::string_view key = key_of(field);
      if (key != "frames") continue;
      array frames;
      check(field.value().get_array().get(frames), "\"shared.frames\" is not an array");
      for (auto f : frames) {
        value v;
        check(std::move(f).get(v), "malformed frame");
        read_frame(v);
      }
    }
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

  void read_profiles(value profiles) {
    array list;
    check(profiles.get_array().get(list), "\"profiles\" is not an array");
    std::size_t index = 0;
    for (auto p : list) {
      object obj;
      check(std::move(p).get_object().get(obj), "a profile is not an object");
      read_profile(obj, index++);
    }
  }

  // The metric column of `unit`, added when first seen (the profile is made then too).
  std::size_t metric_of(std::string_view unit) {
    std::string_view metric = speedscope_metric_of_unit(unit);
    if (metric.empty()) fail("unknown unit '" + std::string(unit.substr(0, 40)) + "'");
    if (!profile_) profile_.emplace(std::vector<std::string>{std::string(metric)});
    if (auto m = profile_->find_metric(metric)) return *m;
    return profile_->add_metric(std::string(metric));
  }

  // The frame a profile's contexts go under: its name, or "profile N" if empty, with " (N)"
  // appended while it repeats an earlier profile's (N its 0-based index in the file).
  frame_id profile_frame(std::string name, std::size_t index) {
    if (name.empty()) name = "profile " + std::to_string(index);
    while (profile_names_.count(name)) name += " (" + std::to_string(index) + ")";
    if (const char* why = check_name_text(name)) fail("profile name " + std::string(why));
    profile_names_.insert(name);
    return profile_->intern(name);
  }

  void read_profile(object& obj, std::size_t index) {
    std::string_view type, unit, s;
    std::string name;
    check(obj["type"].get_string().get(type), "profile without a string \"type\"");
    std::string type_name(type);
    auto name_field = obj["name"];
    if (name_field.error() != simdjson::NO_SUCH_FIELD) {
      check(name_field.get_string().get(s), "profile \"name\" is not a string");
      name.assign(s);
    }
    check(obj["unit"].get_string().get(unit), "profile without a string \"unit\"");
    std::size_t metric = metric_of(unit);
    node_id top = profile_->find_or_add_child(root_node, profile_frame(std::move(name), index));
    if (type_name == "sampled") read_sampled(obj, top, metric);
    else if (type_name == "evented") read_evented(obj, top, metric);
    else fail("unknown profile type '" + type_name.substr(0, 40) + "' (not \"sampled\" nor \"evented\")");
  }

  // A weight or an event time: a finite number.
  double finite_number(value v, const char* what) {
    double d = 0;
    check(v.get_double().get(d), what);
    if (!std::isfinite(d)) fail(std::string(what) + " is not finite");
    return d;
  }

  void read_sampled(object& obj, node_id top, std::size_t metric) {
    weights_.clear();
    array list;
    check(obj["weights"].get_array().get(list), "sampled profile without a \"weights\" array");
    for (auto w : list) {
      value v;
      check(std::move(w).get(v), "malformed weight");
      double d = finite_number(v, "a weight");
      if (d < 0) fail("negative weight");
      weights_.push_back(d);
    }
    check(obj["samples"].get_array().get(list), "sampled profile without a \"samples\" array");
    std::size_t k = 0;
    // The previous sample's indices (and their text) and contexts: a stack usually shares a
    // prefix with it, which then costs a comparison per frame instead of a child lookup (and,
    // where the index is written alike, instead of parsing it).
    prefix_.clear();
    prefix_text_.clear();
    path_.clear();
    for (auto sample : list) {
      array stack;
      check(std::move(sample).get_array().get(stack), "a sample is not an array of frame indices");
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
      if (k >= weights_.size())
        fail("more samples than the " + std::to_string(weights_.size()) + " weights");
      profile_->column(metric)[n] += weights_[k++];
    }
    if (k != weights_.size())
      fail(std::to_string(weights_.size()) + " weights for " + std::to_string(k) + " samples");
  }

  void read_evented(object& obj, node_id top, std::size_t metric) {
    array list;
    check(obj["events"].get_array().get(list), "evented profile without an \"events\" array");
    stack_.clear();
    open_.clear();
    double last = 0;
    bool first = true;
    for (auto e : list) {
      object event;
      check(std::move(e).get_object().get(event), "an event is not an object");
      std::string_view type;
      std::optional<double> at;
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
          at = finite_number(field.value(), "event \"at\"");
        }
      }
      if (!at || !index || type.empty()) fail("event without \"type\", \"frame\" or \"at\"");
      if (!first && *at < last) fail("event at " + format(*at) + " before the previous one at " + format(last));
      if (!stack_.empty()) profile_->column(metric)[stack_.back()] += *at - last;
      last = *at;
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
    }
    if (!stack_.empty()) fail(std::to_string(stack_.size()) + " frames still open at the end of the events");
  }

  static std::string format(double v) {
    std::string s;
    append_number(s, v);
    return s;
  }

  simdjson::padded_string_view json_;
  simdjson::ondemand::parser parser_;
  simdjson::ondemand::document doc_;
  bool have_shared_ = false;
  std::vector<std::string> frame_names_;  // by index in shared.frames
  std::vector<frame_id> frame_ids_;       // root_frame until interned
  std::optional<profile> profile_;
  std::unordered_set<std::string> profile_names_;
  std::vector<double> weights_;
  std::vector<std::uint64_t> prefix_;  // sampled: the previous stack's frame indices
  std::vector<std::string_view> prefix_text_;  // and their text in the document
  std::vector<node_id> path_;          // sampled: and its contexts
  std::vector<node_id> stack_;       // evented: the open contexts
  std::vector<std::uint64_t> open_;  // evented: their frame indices
};

}  // namespace detail

/// Reads a speedscope file (https://www.speedscope.app/file-format-schema.json): frames in
/// `shared.frames`, then `profiles`, each `sampled` (root-first stacks of frame indices and
/// their weights) or `evented` (open/close events at a cumulative value).
///
/// - Tree: every profile under one frame named after it, its `name` (`profile N` if empty,
///   N the 0-based index in `profiles`; ` (N)` appended if an earlier profile has the name),
///   so profiles stay apart. Sampled: each stack, root first. Evented: the open frames.
/// - Frames: identified by their index in `shared.frames`, named `name file:line:col` with
///   whichever of file, line and col the entry has (`f a.js:3:7`, `f a.js`, `f :3`), as the
///   V8 reader names `functionName url:line:col`; the name alone if the entry has no file
///   (or an empty one) and no line or col other than 0 (how speedscope's own exporter writes
///   `(program)`); an empty name is `(anonymous)`. Entries with the same name, file, line and
///   col are one frame; entries differing in any of them stay apart.
/// - Metrics: one column per unit: `samples` for `none`, else the unit (`nanoseconds`,
///   `microseconds`, `milliseconds`, `seconds`, `bytes`); profiles of one unit share it.
///   Sampled: a sample's weight is the self value of its stack's last frame (a 0 weight still
///   creates the context). Evented: the value between two events is the self value of the
///   innermost open frame (none if no frame is open); an event opened and closed at once
///   still creates its context. `startValue`, `endValue`, `name`, `activeProfileIndex` and
///   `exporter` are not used. No profiles: an empty profile with metric `samples`. Member
///   names are matched as written (a key spelled with an escape, `"\u0074ype"`, is not
///   `type`); string values are unescaped.
/// - Errors throw ccrc::parse_error::at_byte: malformed JSON, a missing or mistyped member,
///   a frame index out of range, a line or col that is not a whole number, samples and
///   weights of different lengths, a negative or non-finite weight or `at`, events going back
///   in time, a close event that does not match the innermost open frame (speedscope refuses
///   these too), frames still open at the end, an unknown profile type or unit, a name that
///   is not valid UTF-8 or has control characters, a second `shared` or `profiles` member.
///
/// O(bytes + contexts), one pass over the document (two if `profiles` precedes `shared`);
/// memory: the document, the tree, the frame names and one profile's weights.
///
///     ccrc::profile p = ccrc::read_speedscope(R"({"shared": {"frames": [{"name": "main"},
///         {"name": "f", "file": "a.c", "line": 3}]}, "profiles": [{"type": "sampled",
///         "name": "t1", "unit": "none", "samples": [[0, 1]], "weights": [5]}]})");
///     // path "t1;main;f a.c:3": samples 5
inline profile read_speedscope(const formats::json_text& text) {
  return detail::speedscope_reader(text.view()).read();
}

/// read_speedscope from bytes in memory (copied once, to add simdjson's padding).
inline profile read_speedscope(std::string_view text) {
  simdjson::padded_string padded(text);
  return detail::speedscope_reader(padded).read();
}

/// read_speedscope from a file (formats::json_file: a regular file read once into a buffer of
/// its size); throws ccrc::error if it cannot be opened.
inline profile read_speedscope_file(const std::filesystem::path& path) {
  return read_speedscope(formats::json_file(path));
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
/// Reading it back gives each metric's whole tree under a frame named after the metric, in
/// the column of its unit; values are exact when they and the totals are integers below
/// 2^53 (otherwise a weight is a difference of running sums and may differ in its last bits).
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
    formats::append_json_string(buf, name);
    buf += '}';
    flush(false);
  }
  buf += R"(]},"profiles":[)";
  std::size_t metric = 0;
  t.for_each_column([&](std::string_view name, auto column) {
    if (metric++ > 0) buf += ',';
    buf += R"({"type":"evented","name":)";
    formats::append_json_string(buf, name);
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
      detail::append_number(buf, at);
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
    detail::append_number(buf, at);
    buf += '}';
  });
  buf += R"(],"name":)";
  formats::append_json_string(buf, options.name);
  buf += R"(,"activeProfileIndex":0,"exporter":"ccrc"})";
  buf += '\n';
  flush(true);
  if (!out) throw error("write error");
}

}  // namespace ccrc
