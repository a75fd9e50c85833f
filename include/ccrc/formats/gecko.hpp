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
#include <istream>
#include <limits>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

namespace ccrc {

/// Options of the Gecko profile reader.
struct gecko_profile_options {
  /// Each table's `data` and each `stringTable` are parsed in pieces of about this many bytes
  /// (whole rows or strings), so that simdjson's buffers follow the piece, not the profile.
  /// The result does not depend on it; tests make it tiny.
  std::size_t piece_bytes = std::size_t{1} << 20;
};

namespace detail {

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

// Reads a Gecko profile in one pass over the document, streamed: the objects (the top level,
// processes, threads, tables) are walked for their structure without a parser
// (formats/json.hpp), each table's `data` and each `stringTable` goes to simdjson On-Demand in
// pieces of whole elements (json_array_reader), and the small members (`meta`, a schema, a
// thread's name, pid, tid) each as a document of its own. Each thread's tables are kept as
// indices until the thread's object ends, then checked and turned into contexts under a frame
// naming the thread.
class gecko_reader {
  using cursor = formats::detail::json_cursor;

 public:
  gecko_reader(std::string_view text, const gecko_profile_options& options)
      : text_(text), cursor_(text, options.piece_bytes), profile_({"samples", "time_ms"}) {}

  profile read() {
    const std::size_t open = formats::detail::skip_json_space(text_, 0);
    if (open == text_.size())
      cursor::fail_at(0, std::string("not a JSON document (") + simdjson::error_message(simdjson::EMPTY) + ")");
    if (text_[open] != '{') cursor::fail_at(0, "a Gecko profile is a JSON object");
    bool seen_threads = false, seen_meta = false, wrapped = false;
    const std::size_t end = formats::detail::walk_json_object(text_, open, [&](std::string_view raw, std::size_t v) -> std::size_t {
      std::string_view k = key(raw);
      if (k == "meta") {
        seen_meta = true;
        return read_meta(v);
      }
      if (k == "threads") {
        seen_threads = true;
        return read_threads(v);
      }
      if (k == "processes") return read_processes(v, 1);
      // The Firefox DevTools performance panel's recordings put the Gecko profile here.
      if (k == "profile" && starts(v, '{')) {
        wrapped = true;
        return read_body(v, 0);
      }
      return 0;
    });
    cursor_.check_utf8_to(end);
    if (std::size_t after = formats::detail::skip_json_space(text_, end); after < text_.size())
      cursor::fail_at(after, "text after the profile's JSON object");
    if (!seen_threads && !wrapped) {
      if (!seen_meta) cursor::fail_at(0, "no \"meta\" and no \"threads\": not a Gecko profile");
      cursor::fail_at(0, "no \"threads\" at the top level");
    }
    auto time = profile_.column(1);
    for (node_id n : last_samples_) time[n] += interval_;
    profile_.shrink_to_fit();
    return std::move(profile_);
  }

 private:
  // The tables' rows keep no position: an error in one walks its table again to find it
  // (fail_at_row), which spares 4 bytes a row.
  struct stack_row {
    std::uint32_t prefix;  // gecko_none: null (a root stack)
    std::uint32_t frame;
  };
  // A pid or tid: an integer or a string, as written.
  struct id_field {
    std::string text;
    bool present = false;
  };

  static constexpr std::size_t max_process_depth = 16;

  // ---- errors -------------------------------------------------------------------------------

  // Offsets in the piece being parsed, as the file's bytes, in 32 bits.
  [[nodiscard]] std::uint32_t offset32(const char* at) const noexcept {
    return static_cast<std::uint32_t>(std::min<std::uint64_t>(cursor_.offset(at), gecko_none));
  }

  // The value at `at`, found not to be `kind` by its first byte: the error simdjson's type
  // check gave when it read the whole document (a value missing or malformed is that error).
  [[noreturn]] void not_a(std::size_t at, const std::string& what, const char* kind) const {
    (void)formats::detail::skip_json_value(text_, at);
    cursor::fail_at(at, what + " is not " + kind + " (" + simdjson::error_message(simdjson::INCORRECT_TYPE) + ")");
  }

  // ---- the document, in pieces --------------------------------------------------------------

  [[nodiscard]] bool starts(std::size_t at, char c) const noexcept { return at < text_.size() && text_[at] == c; }

  // The array at `at` (`what` in errors), each(element) per element, in pieces. Returns the
  // byte after it.
  template <class Each>
  std::size_t parse_array(std::size_t at, const std::string& what, Each&& each) {
    if (!starts(at, '[')) not_a(at, what, "an array");
    return cursor_.read(at, what, "malformed " + what, each);
  }

  // A key as written, or unescaped where it has escapes (no writer escapes these keys, but
  // simdjson unescaped them when it read the whole document).
  std::string_view key(std::string_view raw) {
    if (raw.find('\\') == std::string_view::npos) return raw;
    const auto quote = static_cast<std::size_t>(raw.data() - text_.data()) - 1;
    cursor_.read_value(quote, [&](simdjson::ondemand::value& v) {
      std::string_view k;
      if (auto e = v.get_string().get(k)) cursor_.fail(v, "malformed object key", e);
      key_.assign(k);
    });
    return key_;
  }

  // ---- scalars ------------------------------------------------------------------------------

  simdjson::ondemand::json_type value_type(simdjson::ondemand::value& v) {
    simdjson::ondemand::json_type t;
    if (auto e = v.type().get(t)) cursor_.fail(v, "malformed JSON value", e);
    return t;
  }

  bool is_null(simdjson::ondemand::value& v) { return value_type(v) == simdjson::ondemand::json_type::null; }

  // An index into a table: a non-negative integer below 2^32 - 1. The failures are out of
  // line, so that the per-cell readers are small enough to be inlined in the row loops.
  std::uint32_t index(simdjson::ondemand::value& v, std::string_view what) {
    std::uint64_t x = 0;
    const auto e = v.get_uint64().get(x);
    if (e != simdjson::SUCCESS || x >= gecko_none) [[unlikely]]
      not_index(v, what, e);
    return static_cast<std::uint32_t>(x);
  }

  // An index or null (gecko_none): the index tried first, as most cells hold one (a failed
  // get leaves the value to try as null), so that a cell costs one parse, not a type check too.
  std::uint32_t index_or_null(simdjson::ondemand::value& v, std::string_view what) {
    std::uint64_t x = 0;
    const auto e = v.get_uint64().get(x);
    if (e != simdjson::SUCCESS || x >= gecko_none) [[unlikely]] {
      bool null = false;
      if (e != simdjson::SUCCESS && v.is_null().get(null) == simdjson::SUCCESS && null) return gecko_none;
      not_index(v, what, e);
    }
    return static_cast<std::uint32_t>(x);
  }

  [[noreturn, gnu::noinline, gnu::cold]] void not_index(simdjson::ondemand::value& v, std::string_view what, simdjson::error_code e) const {
    if (e != simdjson::SUCCESS) cursor_.fail(v, std::string(what) + " is not a non-negative integer", e);
    cursor_.fail(v, std::string(what) + " is too large");
  }

  double number(simdjson::ondemand::value& v, std::string_view what) {
    double x = 0;
    const auto e = v.get_double().get(x);
    if (e != simdjson::SUCCESS || !std::isfinite(x)) [[unlikely]]
      not_number(v, what, e);
    return x;
  }

  [[noreturn, gnu::noinline, gnu::cold]] void not_number(simdjson::ondemand::value& v, std::string_view what, simdjson::error_code e) const {
    if (e != simdjson::SUCCESS) cursor_.fail(v, std::string(what) + " is not a number", e);
    cursor_.fail(v, std::string(what) + " is not finite");
  }


  // A pid or tid: an integer, or a string (validated), or null (none).
  void id(simdjson::ondemand::value& v, id_field& out, const char* what) {
    simdjson::ondemand::json_type t = value_type(v);
    if (t == simdjson::ondemand::json_type::null) return;
    if (t == simdjson::ondemand::json_type::string) {
      std::string_view s = cursor_.string(v, what);
      if (const char* why = ccrc::detail::check_name_text(s)) cursor_.fail(v, std::string(what) + " " + why);
      out.text.assign(s);
    } else {
      std::int64_t x = 0;
      if (auto e = v.get_int64().get(x)) cursor_.fail(v, std::string(what) + " is neither an integer nor a string", e);
      out.text = std::to_string(x);
    }
    out.present = true;
  }

  // ---- the profile's parts ------------------------------------------------------------------

  // `meta` of the top level (or of the wrapped profile): the interval, and the processed
  // format's mark.
  std::size_t read_meta(std::size_t at) {
    return cursor_.read_value(at, [&](simdjson::ondemand::value& v) {
      for (auto field_result : cursor_.object(v, "\"meta\"")) {
        simdjson::ondemand::field f;
        if (auto e = std::move(field_result).get(f)) cursor_.fail_here("malformed \"meta\" object", e);
        std::string_view k = cursor_.key(f);
        simdjson::ondemand::value& fv = f.value();
        if (k == "interval") {
          if (is_null(fv)) continue;
          double x = number(fv, "\"meta.interval\"");
          if (x < 0) cursor_.fail(fv, "\"meta.interval\" is negative");
          interval_ = x;
        } else if (k == "preprocessedProfileVersion") {
          cursor_.fail(fv, "a profile in profiler.firefox.com's processed format (\"meta.preprocessedProfileVersion\"), which "
                   "ccrc does not read; load the Gecko profile Firefox saved, or convert it to another format");
        }
      }
    });
  }

  // An object of the profile's shape (the top level's, a process's): threads, processes.
  // Nested processes recurse, at most max_process_depth levels.
  std::size_t read_body(std::size_t at, std::size_t depth) {
    if (!starts(at, '{')) not_a(at, depth == 0 ? "\"profile\"" : "a process", "an object");
    return formats::detail::walk_json_object(text_, at, [&](std::string_view raw, std::size_t v) -> std::size_t {
      std::string_view k = key(raw);
      if (k == "threads") return read_threads(v);
      if (k == "processes") return read_processes(v, depth + 1);
      if (k == "meta" && depth == 0) return read_meta(v);
      return 0;
    });
  }

  std::size_t read_processes(std::size_t at, std::size_t depth) {
    if (!starts(at, '[')) not_a(at, "\"processes\"", "an array");
    return formats::detail::walk_json_array(text_, at, [&](std::size_t p) {
      if (depth > max_process_depth) cursor::fail_at(p, "processes nested deeper than " + std::to_string(max_process_depth) + " levels");
      return read_body(p, depth);
    });
  }

  std::size_t read_threads(std::size_t at) {
    if (!starts(at, '[')) not_a(at, "\"threads\"", "an array");
    return formats::detail::walk_json_array(text_, at, [&](std::size_t t) {
      if (starts(t, '"')) cursor::fail_at(t, "a thread that is a JSON string (Gecko profiles before version 5 embedded processes so; not read)");
      return read_thread(t);
    });
  }

  // ---- one thread ---------------------------------------------------------------------------

  // Reads a table `{"schema": {column: index, ...}, "data": [[...], ...]}`: the columns
  // `names` (all required) by their index in the schema; row(k, value) for the k-th name's
  // value of each row, then end_row() after the row; `rows_at` is set to the byte of `data`.
  // `data` is read in pieces as it comes when `schema` came first (as every writer of the
  // format puts it), else after the table's walk found `schema`.
  template <std::size_t N, class Row, class EndRow>
  std::size_t read_table(std::size_t at, const char* table, const char* const (&names)[N], std::size_t& rows_at, Row&& row,
                         EndRow&& end_row) {
    const std::string name = std::string("\"") + table + "\"";
    if (!starts(at, '{')) not_a(at, name, "an object");
    std::uint64_t columns[N] = {};
    bool have_schema = false, have_data = false;
    std::size_t data_first = 0;  // `data` before `schema`: its byte, read after the walk
    const std::size_t end = formats::detail::walk_json_object(text_, at, [&](std::string_view raw, std::size_t v) -> std::size_t {
      std::string_view k = key(raw);
      if (k == "schema") {
        if (have_schema) cursor::fail_at(v, name + " has two \"schema\"");
        have_schema = true;
        return cursor_.read_value(v, [&](simdjson::ondemand::value& schema) { read_schema(schema, name, names, columns); });
      }
      if (k == "data") {
        if (have_data) cursor::fail_at(v, name + " has two \"data\"");
        have_data = true;
        rows_at = v;
        if (have_schema) return read_rows(v, name, names, columns, row, end_row);
        data_first = v;
      }
      return 0;
    });
    if (!have_schema)
      cursor::fail_at(at, name + " has no \"schema\" (a Gecko profile's tables have one; profiler.firefox.com's processed "
                         "format, which ccrc does not read, has none)");
    if (!have_data) cursor::fail_at(at, name + " has no \"data\"");
    if (data_first != 0) (void)read_rows(data_first, name, names, columns, row, end_row);
    return end;
  }

  template <std::size_t N>
  void read_schema(simdjson::ondemand::value& schema, const std::string& name, const char* const (&names)[N], std::uint64_t (&columns)[N]) {
    bool known[N] = {};
    for (auto field_result : cursor_.object(schema, name + ".schema")) {
      simdjson::ondemand::field f;
      if (auto e = std::move(field_result).get(f)) cursor_.fail_here("malformed " + name + ".schema", e);
      std::string_view k = cursor_.key(f);
      for (std::size_t i = 0; i < N; ++i) {
        if (k != names[i]) continue;
        simdjson::ondemand::value& fv = f.value();
        columns[i] = index(fv, name + ".schema." + names[i]);
        known[i] = true;
        break;
      }
    }
    for (std::size_t i = 0; i < N; ++i)
      if (!known[i]) cursor_.fail(schema, name + ".schema has no \"" + names[i] + "\"");
  }

  template <std::size_t N, class Row, class EndRow>
  std::size_t read_rows(std::size_t at, const std::string& name, const char* const (&names)[N], const std::uint64_t (&columns)[N],
                        Row& row, EndRow& end_row) {
    return parse_array(at, name + ".data", [&](simdjson::ondemand::value& r) {
      std::uint32_t row_at = offset32(r.raw_json_token().data());
      bool seen[N] = {};
      std::uint64_t k = 0;
      simdjson::ondemand::array cells;
      if (auto ae = r.get_array().get(cells)) cursor_.fail(r, "a row of " + name + " is not an array", ae);
      for (auto cell_result : cells) {
        simdjson::ondemand::value cell;
        if (auto ce = cell_result.get(cell)) cursor_.fail_here("malformed row of " + name, ce);
        for (std::size_t i = 0; i < N; ++i) {
          if (columns[i] != k) continue;
          row(i, cell);
          seen[i] = true;
          break;
        }
        ++k;
      }
      for (std::size_t i = 0; i < N; ++i)
        if (!seen[i])
          cursor::fail_at(row_at, "a row of " + name + " without column " + std::to_string(columns[i]) + " (\"" + names[i] + "\")");
      end_row();
    });
  }

  // Fails with `reason` at row i of the table whose rows (`data`, or stringTable) are the
  // array at `rows_at`, found by walking it again.
  [[noreturn]] void fail_at_row(std::size_t rows_at, const std::string& what, std::size_t i, const std::string& reason) {
    std::size_t k = 0;
    parse_array(rows_at, what, [&](simdjson::ondemand::value& row) {
      if (k++ == i) cursor::fail_at(offset32(row.raw_json_token().data()), reason);
    });
    cursor::fail_at(rows_at, reason);  // not reached: the walk read row i before
  }

  // The thread's stringTable, copied: the strings of a piece die with it.
  std::size_t read_strings(std::size_t at) {
    strings_at_ = at;
    return parse_array(at, "\"stringTable\"", [&](simdjson::ondemand::value& s) {
      string_bytes_ += cursor_.string(s, "an entry of \"stringTable\"");
      string_end_.push_back(string_bytes_.size());
    });
  }

  [[nodiscard]] std::string_view string_of(std::size_t i) const noexcept {
    const std::size_t begin = i == 0 ? 0 : string_end_[i - 1];
    return std::string_view(string_bytes_).substr(begin, string_end_[i] - begin);
  }

  // A thread's `name` or `processName`: a string, copied, or null (none).
  std::size_t read_name(std::size_t at, std::string& out, bool& present, const char* what) {
    return cursor_.read_value(at, [&](simdjson::ondemand::value& v) {
      if (is_null(v)) return;
      out.assign(cursor_.string(v, what));
      present = true;
    });
  }

  std::size_t read_thread(std::size_t thread_at) {
    if (!starts(thread_at, '{')) not_a(thread_at, "a thread", "an object");
    sample_stacks_.clear();
    sample_times_.clear();
    stacks_.clear();
    frame_locations_.clear();
    string_bytes_.clear();
    string_end_.clear();
    samples_at_ = stacks_at_ = frames_at_ = strings_at_ = 0;
    std::string name, process_name;
    bool has_name = false, has_process_name = false;
    id_field pid, tid;
    const std::size_t end = formats::detail::walk_json_object(text_, thread_at, [&](std::string_view raw, std::size_t v) -> std::size_t {
      std::string_view k = key(raw);
      // A table twice would make its rows' numbers ambiguous (and was never written so).
      auto once = [&](std::size_t rows_at) {
        if (rows_at != 0) cursor::fail_at(v, "a thread with two \"" + std::string(k) + "\"");
      };
      if (k == "samples") {
        once(samples_at_);
        static constexpr const char* names[] = {"stack", "time"};
        std::uint32_t stack = gecko_none;
        double time = 0;
        return read_table(
            v, "samples", names, samples_at_,
            [&](std::size_t i, simdjson::ondemand::value& cell) {
              if (i == 0) stack = index_or_null(cell, "a sample's stack");
              else time = number(cell, "a sample's time");
            },
            [&] {
              sample_stacks_.push_back(std::exchange(stack, gecko_none));
              sample_times_.push_back(std::exchange(time, 0));
            });
      }
      if (k == "stackTable") {
        once(stacks_at_);
        static constexpr const char* names[] = {"prefix", "frame"};
        stack_row s{gecko_none, 0};
        return read_table(
            v, "stackTable", names, stacks_at_,
            [&](std::size_t i, simdjson::ondemand::value& cell) {
              if (i == 0) s.prefix = index_or_null(cell, "a stack's prefix");
              else s.frame = index(cell, "a stack's frame");
            },
            [&] { stacks_.push_back(std::exchange(s, {gecko_none, 0})); });
      }
      if (k == "frameTable") {
        once(frames_at_);
        static constexpr const char* names[] = {"location"};
        std::uint32_t location = 0;
        return read_table(
            v, "frameTable", names, frames_at_,
            [&](std::size_t, simdjson::ondemand::value& cell) { location = index(cell, "a frame's location"); },
            [&] { frame_locations_.push_back(std::exchange(location, 0)); });
      }
      if (k == "stringTable") {
        once(strings_at_);
        return read_strings(v);
      }
      if (k == "name") return read_name(v, name, has_name, "a thread's \"name\"");
      if (k == "processName") return read_name(v, process_name, has_process_name, "a thread's \"processName\"");
      if (k == "pid") return cursor_.read_value(v, [&](simdjson::ondemand::value& id_value) { id(id_value, pid, "a thread's \"pid\""); });
      if (k == "tid") return cursor_.read_value(v, [&](simdjson::ondemand::value& id_value) { id(id_value, tid, "a thread's \"tid\""); });
      return 0;
    });
    std::size_t index_in_file = threads_read_++;
    check_tables();
    if (sample_stacks_.empty()) return end;  // a thread without samples adds nothing, not even its frame
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
    if (const char* why = ccrc::detail::check_name_text(thread_name)) cursor::fail_at(thread_at, "the thread's name " + std::string(why));
    while (thread_names_.count(thread_name)) thread_name += " (" + std::to_string(index_in_file) + ")";
    thread_names_.insert(thread_name);
    build_thread(profile_.find_or_add_child(root_node, profile_.intern(thread_name)));
    return end;
  }

  // Every index of the thread's tables points into its table: a frame's location into
  // stringTable; a stack's frame into frameTable, its prefix to an earlier stack (so that
  // prefix chains end, at a root stack); a sample's stack into stackTable.
  void check_tables() {
    for (std::size_t i = 0; i < frame_locations_.size(); ++i)
      if (frame_locations_[i] >= string_end_.size())
        fail_at_row(frames_at_, "\"frameTable\".data", i,
                    "frame " + std::to_string(i) + ": location " + std::to_string(frame_locations_[i]) +
                        " is not an index of the thread's stringTable (" + std::to_string(string_end_.size()) + " strings)");
    for (std::size_t i = 0; i < stacks_.size(); ++i) {
      const stack_row& s = stacks_[i];
      if (s.frame >= frame_locations_.size())
        fail_at_row(stacks_at_, "\"stackTable\".data", i,
                    "stack " + std::to_string(i) + ": frame " + std::to_string(s.frame) +
                        " is not an index of the thread's frameTable (" + std::to_string(frame_locations_.size()) + " frames)");
      if (s.prefix != gecko_none && s.prefix >= i)
        fail_at_row(stacks_at_, "\"stackTable\".data", i,
                    "stack " + std::to_string(i) + ": prefix " + std::to_string(s.prefix) +
                        " is not an earlier stack (Gecko writes a stack after its prefix)");
    }
    for (std::size_t i = 0; i < sample_stacks_.size(); ++i)
      if (sample_stacks_[i] != gecko_none && sample_stacks_[i] >= stacks_.size())
        fail_at_row(samples_at_, "\"samples\".data", i,
                    "sample " + std::to_string(i) + ": stack " + std::to_string(sample_stacks_[i]) +
                        " is not an index of the thread's stackTable (" + std::to_string(stacks_.size()) + " stacks)");
  }

  frame_id frame_of(std::uint32_t frame) {
    std::uint32_t location = frame_locations_[frame];
    frame_id& f = string_frame_[location];
    if (f != null_frame) return f;
    std::string_view name = gecko_frame_name(string_of(location));
    if (name.empty()) name = "(anonymous)";
    if (const char* why = ccrc::detail::check_name_text(name))
      fail_at_row(strings_at_, "\"stringTable\"", location, "string " + std::to_string(location) + " (a frame's location) " + why);
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
    // Each stack makes at most one context: room for them at once, rather than the columns
    // doubling (for a moment, old and new buffers: three times the size before).
    profile_.reserve(profile_.size() + stacks_.size());
    cursor_.release();
    stack_node_.assign(stacks_.size(), null_node);
    string_frame_.assign(string_end_.size(), null_frame);
    // Each sample's stack becomes its node, in place.
    for (auto& s : sample_stacks_) s = s == gecko_none ? thread : resolve(s, thread);
    auto count = profile_.column(0);
    auto time = profile_.column(1);
    for (std::size_t i = 0; i < sample_stacks_.size(); ++i) {
      count[sample_stacks_[i]] += 1;
      if (i + 1 == sample_stacks_.size()) break;
      double gap = sample_times_[i + 1] - sample_times_[i];
      if (!std::isfinite(gap))
        fail_at_row(samples_at_, "\"samples\".data", i + 1, "the time from sample " + std::to_string(i) + " overflows");
      if (gap > 0) time[sample_stacks_[i]] += gap;
    }
    last_samples_.push_back(sample_stacks_.back());
  }

  std::string_view text_;
  formats::detail::json_cursor cursor_;
  std::string key_;  // a key written with escapes, unescaped

  profile profile_;
  double interval_ = 0;
  std::size_t threads_read_ = 0;
  std::unordered_set<std::string> thread_names_;
  std::vector<node_id> last_samples_;  // each thread's last sample, which weighs the interval

  // The thread being read.
  std::vector<std::uint32_t> sample_stacks_;  // gecko_none: null; after resolve(), the sample's node
  std::vector<double> sample_times_;
  std::vector<stack_row> stacks_;
  std::vector<std::uint32_t> frame_locations_;
  std::string string_bytes_;             // stringTable's strings, one after another
  std::vector<std::size_t> string_end_;  // where each ends in string_bytes_
  std::size_t samples_at_ = 0, stacks_at_ = 0, frames_at_ = 0, strings_at_ = 0;  // their rows' arrays
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
///   a table without `schema` or `data`, or without a needed column (`stack`, `time`; `prefix`,
///   `frame`; `location`) in its schema or its row; an index that is not a non-negative
///   integer, or out of its table: a location past stringTable, a stack's frame past
///   frameTable, a prefix not naming an earlier stack (so prefix chains cannot loop), a
///   sample's stack past stackTable; a time or interval that is not a finite number, a negative
///   interval; a location string or thread name that is not valid UTF-8 or holds control
///   characters (when used); processes nested deeper than 16; the processed format. What
///   simdjson's first pass over a piece finds (invalid UTF-8, a string never closed), which has
///   no position, is reported at the piece's first byte (a `data` or `stringTable` array's `[`
///   or the ',' before the piece's first row; the byte before a small member's value); invalid
///   UTF-8 in a member skipped, at the first byte after the value read before it. Malformed
///   JSON in the objects walked (a missing ',' or ':') is reported at that byte.
///
/// Streaming: the top level, `profile`, `processes`, `threads`, each thread and each table
/// object are walked for their structure (strings and brackets, formats/json.hpp); each table's
/// `data` and each `stringTable` go to simdjson On-Demand in pieces of whole elements of about
/// gecko_profile_options::piece_bytes (1 MiB); `meta`, a schema, a thread's name, processName,
/// pid and tid each as a document of its own; other members (markers, libs, counters) are
/// skipped as On-Demand skipped them (strings and brackets balanced) and checked to be UTF-8.
/// So a table's `data` may come before its `schema` (it is then read after the table's walk;
/// every writer puts the schema first). Nested processes are followed by recursion, at most 16
/// levels.
///
/// O(bytes + stacks + samples). Memory: the text, read in place; a piece and simdjson's
/// buffers for it (about six bytes per byte of the largest piece: 6 MB, or of `meta` if it is
/// larger); per thread while it is read 16 bytes per sample, 12 per stack, 8 per frame, 12 per
/// string and its bytes; then the tree. No recursion with the depth of stacks (prefix chains
/// are walked in a loop). docs/formats.md has the decisions and their reasons.
///
///     ccrc::profile p = ccrc::read_gecko_profile(std::string_view(R"J({"meta":{"interval":1},
///       "threads":[{"name":"GeckoMain","pid":7,"tid":7,
///         "samples":{"schema":{"stack":0,"time":1},"data":[[1,10.0],[1,12.5]]},
///         "stackTable":{"schema":{"prefix":0,"frame":1},"data":[[null,0],[0,1]]},
///         "frameTable":{"schema":{"location":0},"data":[[0],[1]]},
///         "stringTable":["(root)","f (a.js:1:1)"]}]})J"));
///     // "pid 7 GeckoMain (tid 7);(root);f (a.js:1:1)": samples 2, time_ms 2.5 + 1
[[nodiscard]] inline profile read_gecko_profile(std::string_view text, const gecko_profile_options& options = {}) {
  return detail::gecko_reader(text, options).read();
}

/// read_gecko_profile over the text's bytes (its padding is not needed: pieces are copied).
[[nodiscard]] inline profile read_gecko_profile(const formats::json_text& text, const gecko_profile_options& options = {}) {
  return read_gecko_profile(text.bytes(), options);
}

/// read_gecko_profile from a stream, read whole first (the reader works on the document in memory).
[[nodiscard]] inline profile read_gecko_profile(std::istream& in, const gecko_profile_options& options = {}) {
  return read_gecko_profile(formats::json_text({}, ccrc::detail::stream_source{&in}), options);
}

/// read_gecko_profile from a file; throws ccrc::error if it cannot be opened.
[[nodiscard]] inline profile read_gecko_profile_file(const std::filesystem::path& path, const gecko_profile_options& options = {}) {
  return read_gecko_profile(formats::json_file(path), options);
}

}  // namespace ccrc
