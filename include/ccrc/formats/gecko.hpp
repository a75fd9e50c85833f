// ccrc - the Gecko profile: the JSON Firefox's built-in profiler saves (about:profiling,
// MOZ_PROFILER_SHUTDOWN), each thread's samples over a stack table of prefix chains.
#pragma once

#include <ccrc/detail/line_reader.hpp>
#include <ccrc/detail/text.hpp>
#include <ccrc/error.hpp>
#include <ccrc/formats/json.hpp>
#include <ccrc/tree/profile.hpp>

#include <simdjson.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

namespace ccrc {

namespace detail {

namespace god = simdjson::ondemand;

inline constexpr std::uint32_t gecko_none = std::numeric_limits<std::uint32_t>::max();

/// A Gecko location without the `[N]` that recent Gecko versions append to JavaScript frames
/// (`fib (file:///a.html:2:13)[2]`: an index into the process's `sources` table, which differs
/// between processes and runs): a final '[', one to nine digits and ']' after at least one
/// other byte are removed.
[[nodiscard]] constexpr std::string_view gecko_frame_name(std::string_view location) noexcept {
  if (location.size() < 4 || location.back() != ']') return location;
  std::size_t i = location.size() - 1;
  std::size_t digits = 0;
  while (i > 0 && location[i - 1] >= '0' && location[i - 1] <= '9' && digits < 10) --i, ++digits;
  if (digits == 0 || digits > 9 || i < 2 || location[i - 1] != '[') return location;
  return location.substr(0, i - 1);
}

// Reads a Gecko profile in one pass over the document (simdjson On-Demand, no DOM): each
// thread's tables are kept as indices until the thread's object ends, then checked and turned
// into contexts under a frame naming the thread.
class gecko_reader {
 public:
  explicit gecko_reader(simdjson::padded_string_view json) : json_(json), profile_({"samples", "time_ms"}) {}

  profile read() {
    if (auto e = parser_.iterate(json_).get(doc_))
      throw parse_error::at_byte(0, std::string("not a JSON document (") + simdjson::error_message(e) + ")");
    god::object top;
    if (auto e = doc_.get_object().get(top)) {
      if (formats::detail::first_json_byte(std::string_view(json_.data(), json_.size())) != '{')
        fail_at(0, "a Gecko profile is a JSON object");
      fail_here("malformed top-level object", e);
    }
    bool seen_threads = false, seen_meta = false, wrapped = false;
    for (auto field_result : top) {
      god::field f;
      if (auto e = std::move(field_result).get(f)) fail_here("malformed top-level object", e);
      std::string_view k = key(f);
      god::value& v = f.value();
      if (k == "meta") {
        seen_meta = true;
        read_meta(v);
      } else if (k == "threads") {
        seen_threads = true;
        read_threads(v);
      } else if (k == "processes") {
        read_processes(v, 1);
      } else if (k == "profile") {
        // The Firefox DevTools performance panel's recordings put the Gecko profile here.
        if (value_type(v) == god::json_type::object) {
          wrapped = true;
          read_body(v, 0);
        }
      }
    }
    const char* after = nullptr;
    if (doc_.current_location().get(after) == simdjson::SUCCESS) fail_at(offset(after), "text after the profile's JSON object");
    if (!seen_threads && !wrapped) {
      if (!seen_meta) fail_at(0, "no \"meta\" and no \"threads\": not a Gecko profile");
      fail_at(0, "no \"threads\" at the top level");
    }
    auto time = profile_.column(1);
    for (node_id n : last_samples_) time[n] += interval_;
    profile_.shrink_to_fit();
    return std::move(profile_);
  }

 private:
  struct sample_row {
    std::uint32_t stack;  // gecko_none: null; after resolve(), the sample's node
    std::uint32_t at;
    double time;
  };
  struct stack_row {
    std::uint32_t prefix;  // gecko_none: null (a root stack)
    std::uint32_t frame;
    std::uint32_t at;
  };
  struct frame_row {
    std::uint32_t location;
    std::uint32_t at;
  };
  // A pid or tid: an integer or a string, as written.
  struct id_field {
    std::string text;
    bool present = false;
  };

  static constexpr std::size_t max_process_depth = 16;

  // ---- errors -------------------------------------------------------------------------------

  [[nodiscard]] std::uint64_t offset(const char* at) const noexcept { return formats::detail::offset_in(json_, at); }
  [[nodiscard]] std::uint32_t offset32(const char* at) const noexcept {
    return static_cast<std::uint32_t>(std::min<std::uint64_t>(offset(at), gecko_none));
  }

  [[noreturn]] void fail_at(std::uint64_t at, const std::string& what) const { throw parse_error::at_byte(at, what); }

  [[noreturn]] void fail(god::value& v, const std::string& what, simdjson::error_code e = simdjson::SUCCESS) const {
    std::string reason = what;
    if (e != simdjson::SUCCESS) reason += std::string(" (") + simdjson::error_message(e) + ")";
    fail_at(offset(v.raw_json_token().data()), reason);
  }

  [[noreturn]] void fail_here(const std::string& what, simdjson::error_code e) { formats::detail::json_fail(doc_, json_, what, e); }

  // ---- scalars ------------------------------------------------------------------------------

  god::json_type value_type(god::value& v) {
    god::json_type t;
    if (auto e = v.type().get(t)) fail(v, "malformed JSON value", e);
    return t;
  }

  bool is_null(god::value& v) { return value_type(v) == god::json_type::null; }

  // An index into a table: a non-negative integer below 2^32 - 1.
  std::uint32_t index(god::value& v, std::string_view what) {
    std::uint64_t x = 0;
    if (auto e = v.get_uint64().get(x)) fail(v, std::string(what) + " is not a non-negative integer", e);
    if (x >= gecko_none) fail(v, std::string(what) + " is too large");
    return static_cast<std::uint32_t>(x);
  }

  double number(god::value& v, std::string_view what) {
    double x = 0;
    if (auto e = v.get_double().get(x)) fail(v, std::string(what) + " is not a number", e);
    if (!std::isfinite(x)) fail(v, std::string(what) + " is not finite");
    return x;
  }

  std::string_view string(god::value& v, std::string_view what) {
    std::string_view s;
    if (auto e = v.get_string().get(s)) fail(v, std::string(what) + " is not a string", e);
    return s;
  }

  god::array array(god::value& v, std::string_view what) {
    god::array a;
    if (auto e = v.get_array().get(a)) fail(v, std::string(what) + " is not an array", e);
    return a;
  }

  god::object object(god::value& v, std::string_view what) {
    god::object o;
    if (auto e = v.get_object().get(o)) fail(v, std::string(what) + " is not an object", e);
    return o;
  }

  std::string_view key(god::field& f) { return formats::detail::field_key(f, doc_, json_); }

  // A pid or tid: an integer, or a string (validated), or null (none).
  void id(god::value& v, id_field& out, const char* what) {
    god::json_type t = value_type(v);
    if (t == god::json_type::null) return;
    if (t == god::json_type::string) {
      std::string_view s = string(v, what);
      if (const char* why = ccrc::detail::check_name_text(s)) fail(v, std::string(what) + " " + why);
      out.text.assign(s);
    } else {
      std::int64_t x = 0;
      if (auto e = v.get_int64().get(x)) fail(v, std::string(what) + " is neither an integer nor a string", e);
      out.text = std::to_string(x);
    }
    out.present = true;
  }

  // ---- the profile's parts ------------------------------------------------------------------

  // `meta` of the top level (or of the wrapped profile): the interval, and the processed
  // format's mark.
  void read_meta(god::value& v) {
    for (auto field_result : object(v, "\"meta\"")) {
      god::field f;
      if (auto e = std::move(field_result).get(f)) fail_here("malformed \"meta\" object", e);
      std::string_view k = key(f);
      god::value& fv = f.value();
      if (k == "interval") {
        if (is_null(fv)) continue;
        double x = number(fv, "\"meta.interval\"");
        if (x < 0) fail(fv, "\"meta.interval\" is negative");
        interval_ = x;
      } else if (k == "preprocessedProfileVersion") {
        fail(fv, "a profile in profiler.firefox.com's processed format (\"meta.preprocessedProfileVersion\"), which "
                 "ccrc does not read; load the Gecko profile Firefox saved, or convert it to another format");
      }
    }
  }

  // An object of the profile's shape (the top level's, a process's): threads, processes.
  void read_body(god::value& v, std::size_t depth) {
    for (auto field_result : object(v, depth == 0 ? "\"profile\"" : "a process")) {
      god::field f;
      if (auto e = std::move(field_result).get(f)) fail_here("malformed process object", e);
      std::string_view k = key(f);
      god::value& fv = f.value();
      if (k == "threads") read_threads(fv);
      else if (k == "processes") read_processes(fv, depth + 1);
      else if (k == "meta" && depth == 0) read_meta(fv);
    }
  }

  void read_processes(god::value& v, std::size_t depth) {
    for (auto element : array(v, "\"processes\"")) {
      god::value p;
      if (auto e = element.get(p)) fail_here("malformed \"processes\" array", e);
      if (depth > max_process_depth) fail(p, "processes nested deeper than " + std::to_string(max_process_depth) + " levels");
      read_body(p, depth);
    }
  }

  void read_threads(god::value& v) {
    for (auto element : array(v, "\"threads\"")) {
      god::value t;
      if (auto e = element.get(t)) fail_here("malformed \"threads\" array", e);
      if (value_type(t) == god::json_type::string)
        fail(t, "a thread that is a JSON string (Gecko profiles before version 5 embedded processes so; not read)");
      read_thread(t);
    }
  }

  // ---- one thread ---------------------------------------------------------------------------

  // Reads a table `{"schema": {column: index, ...}, "data": [[...], ...]}`: the columns
  // `names` (all required) by their index in the schema; row(k, value) for the k-th name's
  // value of each row, then end_row(at) after the row. One pass over the table: `schema` must
  // come before `data` (as every writer of the format puts it; simdjson On-Demand cannot go
  // back, and its search that wraps around an object is not safe on malformed input).
  template <std::size_t N, class Row, class EndRow>
  void read_table(god::value& v, const char* table, const char* const (&names)[N], Row&& row, EndRow&& end_row) {
    std::string name = std::string("\"") + table + "\"";
    std::uint64_t columns[N] = {};
    bool have_schema = false, have_data = false;
    for (auto field_result : object(v, name)) {
      god::field f;
      if (auto e = std::move(field_result).get(f)) fail_here("malformed " + name, e);
      std::string_view k = key(f);
      god::value& fv = f.value();
      if (k == "schema") {
        if (have_schema) fail(fv, name + " has two \"schema\"");
        have_schema = true;
        read_schema(fv, name, names, columns);
      } else if (k == "data") {
        if (!have_schema) fail(fv, name + ": \"data\" before \"schema\" (ccrc reads the schema first, as Gecko writes it)");
        if (have_data) fail(fv, name + " has two \"data\"");
        have_data = true;
        read_rows(fv, name, names, columns, row, end_row);
      }
    }
    if (!have_schema)
      fail(v, name + " has no \"schema\" (a Gecko profile's tables have one; profiler.firefox.com's processed "
                     "format, which ccrc does not read, has none)");
    if (!have_data) fail(v, name + " has no \"data\"");
  }

  template <std::size_t N>
  void read_schema(god::value& schema, const std::string& name, const char* const (&names)[N], std::uint64_t (&columns)[N]) {
    bool known[N] = {};
    for (auto field_result : object(schema, name + ".schema")) {
      god::field f;
      if (auto e = std::move(field_result).get(f)) fail_here("malformed " + name + ".schema", e);
      std::string_view k = key(f);
      for (std::size_t i = 0; i < N; ++i) {
        if (k != names[i]) continue;
        god::value& fv = f.value();
        columns[i] = index(fv, name + ".schema." + names[i]);
        known[i] = true;
        break;
      }
    }
    for (std::size_t i = 0; i < N; ++i)
      if (!known[i]) fail(schema, name + ".schema has no \"" + names[i] + "\"");
  }

  template <std::size_t N, class Row, class EndRow>
  void read_rows(god::value& data, const std::string& name, const char* const (&names)[N], const std::uint64_t (&columns)[N],
                 Row& row, EndRow& end_row) {
    for (auto element : array(data, name + ".data")) {
      god::value r;
      if (auto re = element.get(r)) fail_here("malformed " + name + ".data", re);
      std::uint32_t at = offset32(r.raw_json_token().data());
      bool seen[N] = {};
      std::uint64_t k = 0;
      god::array cells;
      if (auto ae = r.get_array().get(cells)) fail(r, "a row of " + name + " is not an array", ae);
      for (auto cell_result : cells) {
        god::value cell;
        if (auto ce = cell_result.get(cell)) fail_here("malformed row of " + name, ce);
        for (std::size_t i = 0; i < N; ++i) {
          if (columns[i] != k) continue;
          row(i, cell);
          seen[i] = true;
          break;
        }
        ++k;
      }
      for (std::size_t i = 0; i < N; ++i)
        if (!seen[i]) fail_at(at, "a row of " + name + " without column " + std::to_string(columns[i]) + " (\"" + names[i] + "\")");
      end_row(at);
    }
  }

  void read_thread(god::value& v) {
    std::uint64_t thread_at = offset(v.raw_json_token().data());
    samples_.clear();
    stacks_.clear();
    frames_.clear();
    strings_.clear();
    string_at_.clear();
    std::string_view name, process_name;
    bool has_name = false, has_process_name = false;
    id_field pid, tid;
    for (auto field_result : object(v, "a thread")) {
      god::field f;
      if (auto e = std::move(field_result).get(f)) fail_here("malformed thread object", e);
      std::string_view k = key(f);
      god::value& fv = f.value();
      if (k == "samples") {
        static constexpr const char* names[] = {"stack", "time"};
        sample_row s{gecko_none, 0, 0};
        read_table(
            fv, "samples", names,
            [&](std::size_t i, god::value& cell) {
              if (i == 0) s.stack = is_null(cell) ? gecko_none : index(cell, "a sample's stack");
              else s.time = number(cell, "a sample's time");
            },
            [&](std::uint32_t at) {
              s.at = at;
              samples_.push_back(s);
              s = {gecko_none, 0, 0};
            });
      } else if (k == "stackTable") {
        static constexpr const char* names[] = {"prefix", "frame"};
        stack_row s{gecko_none, 0, 0};
        read_table(
            fv, "stackTable", names,
            [&](std::size_t i, god::value& cell) {
              if (i == 0) s.prefix = is_null(cell) ? gecko_none : index(cell, "a stack's prefix");
              else s.frame = index(cell, "a stack's frame");
            },
            [&](std::uint32_t at) {
              s.at = at;
              stacks_.push_back(s);
              s = {gecko_none, 0, 0};
            });
      } else if (k == "frameTable") {
        static constexpr const char* names[] = {"location"};
        frame_row r{0, 0};
        read_table(
            fv, "frameTable", names, [&](std::size_t, god::value& cell) { r.location = index(cell, "a frame's location"); },
            [&](std::uint32_t at) {
              r.at = at;
              frames_.push_back(r);
            });
      } else if (k == "stringTable") {
        for (auto element : array(fv, "\"stringTable\"")) {
          god::value s;
          if (auto e = element.get(s)) fail_here("malformed \"stringTable\"", e);
          string_at_.push_back(offset32(s.raw_json_token().data()));
          strings_.push_back(string(s, "an entry of \"stringTable\""));
        }
      } else if (k == "name") {
        if (is_null(fv)) continue;
        name = string(fv, "a thread's \"name\"");
        has_name = true;
      } else if (k == "processName") {
        if (is_null(fv)) continue;
        process_name = string(fv, "a thread's \"processName\"");
        has_process_name = true;
      } else if (k == "pid") {
        id(fv, pid, "a thread's \"pid\"");
      } else if (k == "tid") {
        id(fv, tid, "a thread's \"tid\"");
      }
    }
    std::size_t index_in_file = threads_read_++;
    check_tables();
    if (samples_.empty()) return;  // a thread without samples adds nothing, not even its frame
    std::string thread_name;
    if (has_process_name && !process_name.empty()) {
      thread_name.assign(process_name);
      if (pid.present) thread_name += " (pid " + pid.text + ")";
    } else if (pid.present) {
      thread_name = "pid " + pid.text;
    }
    auto append = [&](std::string_view s) {
      if (!thread_name.empty()) thread_name += ' ';
      thread_name += s;
    };
    if (has_name && !name.empty()) {
      append(name);
      if (tid.present) thread_name += " (tid " + tid.text + ")";
    } else if (tid.present) {
      append("tid " + tid.text);
    }
    if (thread_name.empty()) thread_name = "thread " + std::to_string(index_in_file);
    if (const char* why = ccrc::detail::check_name_text(thread_name)) fail_at(thread_at, "the thread's name " + std::string(why));
    while (thread_names_.count(thread_name)) thread_name += " (" + std::to_string(index_in_file) + ")";
    thread_names_.insert(thread_name);
    build_thread(profile_.find_or_add_child(root_node, profile_.intern(thread_name)));
  }

  // Every index of the thread's tables points into its table: a frame's location into
  // stringTable; a stack's frame into frameTable, its prefix to an earlier stack (so that
  // prefix chains end, at a root stack); a sample's stack into stackTable.
  void check_tables() {
    for (std::size_t i = 0; i < frames_.size(); ++i)
      if (frames_[i].location >= strings_.size())
        fail_at(frames_[i].at, "frame " + std::to_string(i) + ": location " + std::to_string(frames_[i].location) +
                                   " is not an index of the thread's stringTable (" + std::to_string(strings_.size()) + " strings)");
    for (std::size_t i = 0; i < stacks_.size(); ++i) {
      const stack_row& s = stacks_[i];
      if (s.frame >= frames_.size())
        fail_at(s.at, "stack " + std::to_string(i) + ": frame " + std::to_string(s.frame) +
                          " is not an index of the thread's frameTable (" + std::to_string(frames_.size()) + " frames)");
      if (s.prefix != gecko_none && s.prefix >= i)
        fail_at(s.at, "stack " + std::to_string(i) + ": prefix " + std::to_string(s.prefix) +
                          " is not an earlier stack (Gecko writes a stack after its prefix)");
    }
    for (std::size_t i = 0; i < samples_.size(); ++i)
      if (samples_[i].stack != gecko_none && samples_[i].stack >= stacks_.size())
        fail_at(samples_[i].at, "sample " + std::to_string(i) + ": stack " + std::to_string(samples_[i].stack) +
                                    " is not an index of the thread's stackTable (" + std::to_string(stacks_.size()) + " stacks)");
  }

  frame_id frame_of(std::uint32_t frame) {
    std::uint32_t location = frames_[frame].location;
    frame_id& f = string_frame_[location];
    if (f != null_frame) return f;
    std::string_view name = gecko_frame_name(strings_[location]);
    if (name.empty()) name = "(anonymous)";
    if (const char* why = ccrc::detail::check_name_text(name))
      fail_at(string_at_[location], "string " + std::to_string(location) + " (a frame's location) " + why);
    f = profile_.intern(name);
    return f;
  }

  // The context of stack s: its prefix chain walked up to a stack with a context (or a root
  // stack), then contexts made down from there. Each stack gets its context once.
  node_id resolve(std::uint32_t s, node_id thread) {
    chain_.clear();
    std::uint32_t k = s;
    while (k != gecko_none && stack_node_[k] == null_node) {
      chain_.push_back(k);
      k = stacks_[k].prefix;
    }
    node_id n = k == gecko_none ? thread : stack_node_[k];
    for (std::size_t i = chain_.size(); i-- > 0;) {
      std::uint32_t c = chain_[i];
      n = profile_.find_or_add_child(n, frame_of(stacks_[c].frame));
      stack_node_[c] = n;
    }
    return n;
  }

  void build_thread(node_id thread) {
    stack_node_.assign(stacks_.size(), null_node);
    string_frame_.assign(strings_.size(), null_frame);
    for (auto& s : samples_) s.stack = s.stack == gecko_none ? thread : resolve(s.stack, thread);
    auto count = profile_.column(0);
    auto time = profile_.column(1);
    for (std::size_t i = 0; i < samples_.size(); ++i) {
      count[samples_[i].stack] += 1;
      if (i + 1 == samples_.size()) break;
      double gap = samples_[i + 1].time - samples_[i].time;
      if (!std::isfinite(gap)) fail_at(samples_[i + 1].at, "the time from sample " + std::to_string(i) + " overflows");
      if (gap > 0) time[samples_[i].stack] += gap;
    }
    last_samples_.push_back(samples_.back().stack);
  }

  simdjson::padded_string_view json_;
  god::parser parser_;
  god::document doc_;
  profile profile_;
  double interval_ = 0;
  std::size_t threads_read_ = 0;
  std::unordered_set<std::string> thread_names_;
  std::vector<node_id> last_samples_;  // each thread's last sample, which weighs the interval

  // The thread being read.
  std::vector<sample_row> samples_;
  std::vector<stack_row> stacks_;
  std::vector<frame_row> frames_;
  std::vector<std::string_view> strings_;  // in the document, or in the parser's string buffer
  std::vector<std::uint32_t> string_at_;
  std::vector<node_id> stack_node_;
  std::vector<frame_id> string_frame_;
  std::vector<std::uint32_t> chain_;
};

}  // namespace detail

/// Reads a Gecko profile: the JSON Firefox's built-in profiler saves (about:profiling's "Save",
/// `MOZ_PROFILER_SHUTDOWN=file`, `Services.profiler.getProfileData()`), format versions 5 and
/// later (Firefox 153 writes version 34), and other tools writing that format. Its shape: a
/// top-level object with `meta`, `threads` and `processes` (the other processes' profiles, of
/// the same shape, nested); each thread has `samples`, `stackTable`, `frameTable` (tables
/// `{schema: {column: index}, data: [[row], ...]}`, whose columns are found by `schema`, rows
/// may stop before their last columns) and `stringTable`. A file whose top level has no
/// `threads` but a `profile` object (the old Firefox DevTools performance panel's recordings)
/// is read from that object. profiler.firefox.com's processed format (`meta.preprocessedProfileVersion`)
/// is refused with an error that names it.
///
/// - Tree: each thread with samples under a top-level frame naming it, `<processName> (pid P)
///   <name> (tid T)` (`Parent Process (pid 4545) GeckoMain (tid 4545)`), parts left out when
///   the file lacks them (`pid P` without a process name, `thread N` without anything), ` (N)`
///   added while it repeats an earlier thread's (N its 0-based index among the threads read);
///   threads in file order, the top level's first, then the processes' depth first. Threads
///   without samples are left out. Below, one context per distinct stack that a sample hits
///   (and its prefixes): the prefix chain, root first, Gecko's `(root)` frame included;
///   stacks only markers refer to add nothing.
/// - Frame name: the frame's `location` string as Gecko writes it (`fib (file:///a.html:2:13)`,
///   a native address `0x7f12...`, a label `nsThread::ProcessNextEvent`), without the `[N]`
///   sources-table index recent Gecko appends to JavaScript locations (gecko_frame_name);
///   `(anonymous)` for an empty one. Frames of one function differing only in the line sampled,
///   JIT tier or category have one location, hence one context.
/// - Metrics: `samples` (one per entry of `samples.data`) and `time_ms`: each sample weighs the
///   time to its thread's next sample (negative gaps count 0), the last one `meta.interval` (0
///   without one). So a thread's time_ms is its last sample time minus its first (for sorted
///   samples, as Gecko writes them) plus the interval; gaps while the profiler was paused go
///   to the sample before them. A sample whose stack is null counts at the thread's frame.
/// - Errors (ccrc::parse_error::at_byte, at the offending value or row): not JSON, or not an
///   object; no `threads` (and no `profile`); a thread that is a string (versions before 5);
///   a table without `schema` or `data`, or with `data` before `schema` (Gecko writes the schema
///   first; the document is read in one pass), or without a needed column (`stack`, `time`; `prefix`, `frame`;
///   `location`) in its schema or its row; an index that is not a non-negative integer, or out
///   of its table: a location past stringTable, a stack's frame past frameTable, a prefix not
///   naming an earlier stack (so prefix chains cannot loop), a sample's stack past stackTable;
///   a time or interval that is not a finite number, a negative interval; a location string or
///   thread name that is not valid UTF-8 or holds control characters (when used); processes
///   nested deeper than 16; the processed format. Errors simdjson finds while indexing (invalid
///   UTF-8 anywhere, an unclosed string) are reported at byte 0.
///
/// O(bytes + stacks + samples). Memory: the text, simdjson's index of it (about 5.7 bytes per
/// byte), per thread while it is read 16 bytes per sample, 12 per stack, 8 per frame, 20 per
/// string, then the tree. No recursion with the depth of stacks (prefix chains are walked in a
/// loop); process nesting is bounded. docs/formats.md has the decisions and their reasons.
///
///     ccrc::profile p = ccrc::read_gecko_profile(std::string_view(R"J({"meta":{"interval":1},
///       "threads":[{"name":"GeckoMain","pid":7,"tid":7,
///         "samples":{"schema":{"stack":0,"time":1},"data":[[1,10.0],[1,12.5]]},
///         "stackTable":{"schema":{"prefix":0,"frame":1},"data":[[null,0],[0,1]]},
///         "frameTable":{"schema":{"location":0},"data":[[0],[1]]},
///         "stringTable":["(root)","f (a.js:1:1)"]}]})J"));
///     // "pid 7 GeckoMain (tid 7);(root);f (a.js:1:1)": samples 2, time_ms 2.5 + 1
inline profile read_gecko_profile(const formats::json_text& text) { return detail::gecko_reader(text.view()).read(); }

/// read_gecko_profile over a padded copy of `text`.
inline profile read_gecko_profile(std::string_view text) { return read_gecko_profile(formats::json_text(text)); }

/// read_gecko_profile from a file; throws ccrc::error if it cannot be opened.
inline profile read_gecko_profile_file(const std::filesystem::path& path) {
  return read_gecko_profile(formats::json_file(path));
}

}  // namespace ccrc
