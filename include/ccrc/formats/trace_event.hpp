// ccrc - the Trace Event Format (Chrome tracing, Perfetto's JSON export, clang -ftime-trace and
// many instrumenting profilers): begin/end and complete events into one tree per thread.
#pragma once

#include <ccrc/detail/line_reader.hpp>
#include <ccrc/detail/sort_post_order.hpp>
#include <ccrc/detail/text.hpp>
#include <ccrc/error.hpp>
#include <ccrc/formats/json.hpp>
#include <ccrc/formats/v8_profile.hpp>
#include <ccrc/tree/profile.hpp>
#include <ccrc/tree/symbol_table.hpp>

#include <simdjson.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <filesystem>
#include <istream>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ccrc {

/// What read_trace_events repaired or left out rather than refuse: both kinds are frequent in
/// real traces (a trace cut off while a scope was open, an `E` written by another layer).
struct trace_warnings {
  /// `E` events (and ends of `X` events) that closed nothing: the thread's stack was empty, or
  /// their name was not the name of the frame on top of it. Ignored.
  std::uint64_t unmatched_ends = 0;
  /// Frames still open after the thread's last event, closed at the thread's last time.
  std::uint64_t unclosed = 0;
  /// CPU profiles whose `ProfileChunk` events have no `Profile` event (a trace cut at its
  /// start): read all the same, under the thread of their first chunk (V8's profiler thread,
  /// not the profiled one), the first sample's time unknown.
  std::uint64_t profiles_without_start = 0;
  /// clang -ftime-trace's summaries, left out: one `Total <phase>` event per phase, each on a
  /// thread of its own (the compiling thread's tid + 1, + 2, ...), from time 0 for the phase's
  /// whole time. They add up the compile's own events by name, so that counting them as time
  /// of their own would count the compile again and again (a 3.1 s compile read as 20.7 s).
  std::uint64_t summaries = 0;

  [[nodiscard]] std::uint64_t total() const noexcept { return unmatched_ends + unclosed + profiles_without_start; }
};

/// Options of the Trace Event reader.
struct trace_event_options {
  /// If not null, receives the counts of what was repaired or ignored (set, not added to).
  trace_warnings* warnings = nullptr;
  /// The events are parsed in pieces of about this many bytes (whole events: more for an
  /// event larger than this), so that simdjson's buffers (about five bytes per byte parsed)
  /// follow the piece, not the trace. The result does not depend on it; tests make it tiny.
  std::size_t piece_bytes = std::size_t{1} << 20;
};

namespace formats::detail {

// A key as simdjson gives it (the raw bytes after the opening quote) equals `word`.
template <std::size_t N>
[[nodiscard]] inline bool key_is(const char* raw, const char (&word)[N]) noexcept {
  return std::memcmp(raw, word, N - 1) == 0 && raw[N - 1] == '"';
}

// Reads the events into per-thread lists, then builds each thread's tree in time order.
class trace_event_parser {
 public:
  trace_event_parser(std::string_view text, std::size_t piece_bytes)
      : profile_({"calls", "time_us"}), text_(text), cursor_(text, piece_bytes) {
    frames_.push_back(root_frame);  // name 0 (the table's root frame): an E without a name
  }

  // The document is scanned for its structure here (the event arrays found, other values
  // skipped); the events go to simdjson piece by piece (formats/json.hpp says why).
  profile read() {
    std::size_t i = skip_space(0);
    if (i == text_.size()) throw parse_error::at_byte(0, "not JSON (an empty document)");
    if (text_[i] == '[') {
      i = skip_space(read_event_array(i, true));
    } else if (text_[i] == '{') {
      i = skip_space(read_top_object(i));
    } else {
      throw parse_error::at_byte(i, "a trace is a JSON array of events or an object with \"traceEvents\"");
    }
    if (i < text_.size()) throw parse_error::at_byte(i, "more after the end of the trace");
    cursor_.release();  // nothing is parsed after: its buffers need not wait for the trees
    build();
    profile_.shrink_to_fit();
    return std::move(profile_);
  }

  [[nodiscard]] const trace_warnings& warnings() const noexcept { return warnings_; }

 private:
  static constexpr std::uint32_t none = ~std::uint32_t{0};

  // Events carry their position among the thread's begins (ends) so that an unstable sort
  // keeps the file's order at ties: std::sort moves less than std::stable_sort's merges.
  struct open_event {
    double ts;
    double order;        // X: its duration; B: +infinity (a B/E scope outlives an X starting with it)
    std::uint32_t name;
    std::uint32_t seq;   // position, times 2, plus 1 for an X of zero duration (closed at once)
  };
  struct close_event {
    double ts;
    std::uint32_t name;  // 0: an E without a name
    std::uint32_t seq;
  };
  struct thread_events {
    // In blocks rather than one array: no room is reserved beyond the last block, none is
    // copied as they grow, and the blocks of the events already in the tree are freed.
    std::deque<open_event> opens;
    std::deque<close_event> closes;
    double first = std::numeric_limits<double>::infinity();  // earliest ts of a B/E/X event
    double last = -std::numeric_limits<double>::infinity();  // latest ts or ts + dur
  };
  struct thread {
    // Made at the thread's first B, E or X event: a thread known only by its name or its CPU
    // profiles costs its entry (about 100 bytes), not two deques' first blocks (1.2 KB).
    std::unique_ptr<thread_events> events;
    std::string name;  // from thread_name metadata
    bool named = false;
  };
  struct frame_on_stack {
    node_id node;
    double start;
    double children;  // time spent in children, closed ones
    std::uint32_t name;
  };
  // A number field of the event being read, with where it is and why it did not parse.
  struct number_field {
    double value = 0;
    const char* at = nullptr;
    simdjson::error_code error = simdjson::SUCCESS;
    bool present = false;
  };
  struct id_field {
    std::int64_t value = 0;
    const char* at = nullptr;
    simdjson::error_code error = simdjson::SUCCESS;
  };
  // The samples a Profile, ProfileChunk or CpuProfile event brought, in the profile's arrays.
  struct profile_chunk {
    double ts;                  // the event's; -infinity for a Profile or CpuProfile event without one
    std::uint32_t samples_begin, samples_end, deltas_begin;
    std::uint64_t samples_at;   // byte of its `samples` array (or of the event)
  };
  // What the events of a CPU profile bring: its nodes, samples and times.
  struct cpu_profile_data {
    explicit cpu_profile_data(symbol_table& names) : nodes(names) {}
    ccrc::detail::v8_node_tree nodes;
    std::deque<std::int64_t> sample_ids;  // in blocks, as a thread's events
    std::deque<double> deltas;
    std::vector<profile_chunk> chunks;
  };
  // A V8 CPU profile of a DevTools trace: its events, keyed by pid and `id`.
  struct cpu_profile {
    // Made at its first node, sample or time delta: a profile event without them costs its
    // entry and its key (about 150 bytes), not an empty node tree and two deques (2 KB).
    std::unique_ptr<cpu_profile_data> data;
    std::pair<std::int64_t, std::int64_t> thread{};  // (pid, tid) of the Profile event, else of the first chunk
    std::uint64_t at = 0;                            // byte of its first event
    double start = 0, end = 0;
    bool has_start_event = false, has_end = false;
  };

  // Errors in the piece being parsed, at the byte of the file (formats/json.hpp).
  [[noreturn]] void fail(const std::string& what, simdjson::error_code code = simdjson::SUCCESS) const {
    cursor_.fail_here(what, code);
  }
  [[noreturn]] void fail_at(const char* at, const std::string& what, simdjson::error_code code = simdjson::SUCCESS) const {
    cursor_.fail_at_token(at, what, code);
  }

  // ---- The document's structure, scanned in place (no value but the keys of the top-level
  // object is interpreted here; simdjson parses the events) ----

  [[nodiscard]] std::size_t skip_space(std::size_t i) const noexcept {
    return skip_json_space(text_, i);
  }

  // A top-level object: its "traceEvents" arrays read (every one, as before), the other
  // values skipped as On-Demand skipped them (strings and brackets balanced, not parsed) and
  // checked to be UTF-8, as simdjson's first pass checked them when it took the whole
  // document. Returns the byte after its '}'.
  std::size_t read_top_object(std::size_t open) {
    bool found = false;
    cursor_.check_utf8_to(open);  // white space before it: errors are reported from the '{' on
    std::size_t end = walk_json_object(text_, open, [&](std::string_view key, std::size_t value) -> std::size_t {
      if (key != "traceEvents") return 0;  // escaped keys are not recognised
      if (value == text_.size() || text_[value] != '[') throw parse_error::at_byte(value, "\"traceEvents\" is not an array");
      found = true;
      return read_event_array(value, false);
    });
    cursor_.check_utf8_to(end);
    if (!found) throw parse_error::at_byte(0, "a JSON object without \"traceEvents\" (not a Trace Event file)");
    return end;
  }

  // The event array whose '[' is at `open`, parsed in pieces of whole events (json.hpp's
  // json_array_reader). `repair`: the document is this array (see there).
  std::size_t read_event_array(std::size_t open, bool repair) {
    return cursor_.read_pieces(open, repair ? "the event array" : "\"traceEvents\"", repair,
                               [&](simdjson::ondemand::array& events) {
                                 // The last pid and tid read point into the previous piece's bytes.
                                 last_pid_ = {};
                                 last_tid_ = {};
                                 read_events(events);
                               });
  }

  // Where a value not yet read starts (cheaper than the document's current_location()).
  static const char* start_of(simdjson::ondemand::value& v) noexcept { return v.raw_json_token().data(); }

  // A string value: its bytes in the document when it has no escapes (no copy; the value is
  // left for the object's iteration to skip), else unescaped by simdjson. Error: not a string.
  static simdjson::error_code string_of(simdjson::ondemand::value& v, std::string_view& out) noexcept {
    std::string_view raw = v.raw_json_token();
    while (!raw.empty() && (raw.back() == ' ' || raw.back() == '\t' || raw.back() == '\n' || raw.back() == '\r'))
      raw.remove_suffix(1);
    if (raw.size() >= 2 && raw.front() == '"' && raw.back() == '"' && raw.find('\\') == std::string_view::npos) {
      out = raw.substr(1, raw.size() - 2);
      return simdjson::SUCCESS;
    }
    return v.get_string().get(out);
  }

  void read_events(simdjson::ondemand::array& events) {
    for (auto item : events) {
      simdjson::ondemand::value v;
      if (auto e = item.get(v)) fail("malformed JSON", e);
      const char* at = start_of(v);
      simdjson::ondemand::object event;
      if (auto e = v.get_object().get(event)) {
        if (e == simdjson::INCORRECT_TYPE) fail_at(at, "an event that is not a JSON object");
        fail("malformed JSON", e);
      }
      read_event(event, at);
    }
  }

  void number(simdjson::ondemand::value& v, number_field& f) {
    std::string_view raw = v.raw_json_token();
    f.at = raw.data();
    f.present = true;
    // Most times are whole microseconds: up to 15 digits (a double holds them exactly) are
    // read here, other numbers by simdjson. The token may end in white space.
    std::uint64_t whole = 0;
    std::size_t digits = 0;
    for (; digits < raw.size() && digits < 16 && raw[digits] >= '0' && raw[digits] <= '9'; ++digits)
      whole = whole * 10 + static_cast<unsigned>(raw[digits] - '0');
    if (digits > 0 && digits < 16 && (raw[0] != '0' || digits == 1) &&
        raw.find_first_not_of(" \t\n\r", digits) == std::string_view::npos) {
      f.value = static_cast<double>(whole);
      f.error = simdjson::SUCCESS;
      return;
    }
    f.error = v.get_double().get(f.value);
    if (!f.error && !std::isfinite(f.value)) f.error = simdjson::NUMBER_ERROR;
  }

  // The last pid (tid) read and its text: the next event's is most often the same bytes.
  struct known_id {
    std::string_view raw;
    std::int64_t value = 0;
  };

  void id(simdjson::ondemand::value& v, id_field& f, known_id& last) {
    std::string_view raw = v.raw_json_token();
    f.at = raw.data();
    if (same_token(raw, last.raw)) {
      f.value = last.value;
      f.error = simdjson::SUCCESS;
      return;
    }
    f.error = v.get_int64().get(f.value);
    if (!f.error) last = {raw, f.value};
  }

  // The fields of an event that read_event uses, and where each was found.
  struct event_fields {
    std::string_view ph, name, arg_name;
    const char* ph_at = nullptr;
    const char* name_at = nullptr;
    const char* arg_name_at = nullptr;
    bool has_ph = false, has_name = false, has_arg_name = false, has_id = false;
    number_field ts, dur, tdur;
    id_field pid, tid;
  };

  void read_event(simdjson::ondemand::object& event, const char* at) {
    event_fields f;
    read_fields(event, f);
    if (!f.has_ph) fail_at(at, "an event without \"ph\"");
    if (f.ph.size() != 1) return;  // not a phase read here
    const char phase = f.ph[0];
    if ((phase == 'P' || phase == 'I') && f.has_name &&
        (f.name == "Profile" || f.name == "ProfileChunk" || f.name == "CpuProfile")) {
      check_id(f.pid, "pid");
      check_id(f.tid, "tid");
      profile_event(f.name, f.pid.value, f.tid.value, f.has_id, f.ts, at, event);
      return;
    }
    if (phase != 'B' && phase != 'E' && phase != 'X' && phase != 'M') return;
    check_id(f.pid, "pid");
    check_id(f.tid, "tid");
    if (phase == 'M')
      metadata_event(f);
    else
      scope_event(phase, f, at);
  }

  // The fields of one event, each value used in place rather than copied out.
  void read_fields(simdjson::ondemand::object& event, event_fields& f) {
    for (auto field_result : event) {
      simdjson::ondemand::field field;
      if (auto e = std::move(field_result).get(field)) fail("malformed JSON", e);
      const char* k = field.key().raw();
      simdjson::ondemand::value& v = field.value();
      // Dispatched on the key's first byte: one compare per field rather than a chain of them.
      switch (k[0]) {
        case 'p':
          if (key_is(k, "ph")) {
            std::string_view raw = v.raw_json_token();
            f.ph_at = raw.data();
            if (raw.size() >= 3 && raw[0] == '"' && raw[2] == '"' && raw[1] != '\\') {
              f.ph = raw.substr(1, 1);  // one letter, as phases are
            } else if (auto e = string_of(v, f.ph)) {
              fail_at(f.ph_at, "\"ph\" is not a string", e);
            }
            f.has_ph = true;
          } else if (key_is(k, "pid")) {
            id(v, f.pid, last_pid_);
          }
          break;
        case 'n':
          if (key_is(k, "name")) {
            f.name_at = start_of(v);
            f.has_name = string_of(v, f.name) == simdjson::SUCCESS;
          }
          break;
        case 't':
          if (key_is(k, "ts")) number(v, f.ts);
          else if (key_is(k, "tid")) id(v, f.tid, last_tid_);
          else if (key_is(k, "tdur")) number(v, f.tdur);
          break;
        case 'd':
          if (key_is(k, "dur")) number(v, f.dur);
          break;
        case 'i':
          if (key_is(k, "id")) f.has_id = profile_id(v);
          break;
        case 'a':
          if (key_is(k, "args")) read_arg_name(v, f);
          break;
        default:
          break;
      }
    }
  }

  // args.name, what metadata events name a process or a thread with.
  void read_arg_name(simdjson::ondemand::value& v, event_fields& f) {
    simdjson::ondemand::object args;
    if (v.get_object().get(args) != simdjson::SUCCESS) return;
    for (auto arg : args) {
      simdjson::ondemand::raw_json_string arg_key;
      if (auto e = arg.key().get(arg_key)) fail("malformed JSON", e);
      if (!key_is(arg_key.raw(), "name")) continue;
      simdjson::ondemand::value value;
      if (auto e = arg.value().get(value)) fail("malformed JSON", e);
      f.arg_name_at = start_of(value);
      f.has_arg_name = value.get_string().get(f.arg_name) == simdjson::SUCCESS;
    }
  }

  // An M event: a process's or a thread's name.
  void metadata_event(const event_fields& f) {
    if (!f.has_name || !f.has_arg_name || (f.name != "process_name" && f.name != "thread_name")) return;
    if (const char* why = ccrc::detail::check_name_text(f.arg_name))
      fail_at(f.arg_name_at, std::string("args.name ") + why);
    if (f.name == "process_name") {
      processes_[f.pid.value] = std::string(f.arg_name);
    } else {
      thread& t = thread_of(f.pid.value, f.tid.value);
      t.name.assign(f.arg_name);
      t.named = true;
    }
  }

  // A B, E or X event: into its thread's begins and ends, its times checked.
  void scope_event(char phase, event_fields& f, const char* at) {
    const char* ph_name = phase == 'B' ? "a B event" : phase == 'E' ? "an E event" : "an X event";
    if (!f.ts.present) fail_at(at, std::string(ph_name) + " without \"ts\"");
    check_number(f.ts, "\"ts\"");
    std::uint32_t n = 0;
    bool named = f.name_at != nullptr && !(f.has_name && f.name.empty());  // an E's "" is no name
    if (phase != 'E' || named) {
      if (!f.has_name && f.name_at) fail_at(f.name_at, std::string(ph_name) + " whose \"name\" is not a string");
      if (!f.has_name) fail_at(at, std::string(ph_name) + " without \"name\"");
      n = name_id(f.name, f.name_at);
    }
    const double ts = f.ts.value;
    thread_events& t = events_of(f.pid.value, f.tid.value);
    t.first = std::min(t.first, ts);
    t.last = std::max(t.last, ts);
    if (!std::isfinite(t.last - t.first)) fail_at(f.ts.at, "the thread's times span more than a double holds");
    if (phase == 'B') {
      t.opens.push_back({ts, std::numeric_limits<double>::infinity(), n, seq(t.opens.size(), false)});
      return;
    }
    if (phase == 'E') {
      t.closes.push_back({ts, n, seq(t.closes.size(), false)});
      return;
    }
    double d = 0;
    number_field& length = f.dur.present ? f.dur : f.tdur;
    if (length.present) {
      check_number(length, f.dur.present ? "\"dur\"" : "\"tdur\"");
      if (length.value < 0) fail_at(length.at, std::string(f.dur.present ? "\"dur\"" : "\"tdur\"") + " is negative");
      d = length.value;
    }
    double end = ts + d;
    if (!std::isfinite(end)) fail_at(length.at, "\"ts\" + \"dur\" is too large");
    t.last = std::max(t.last, end);
    if (!std::isfinite(t.last - t.first)) fail_at(f.ts.at, "the thread's times span more than a double holds");
    t.opens.push_back({ts, d, n, seq(t.opens.size(), end == ts)});
    if (end != ts) t.closes.push_back({end, n, seq(t.closes.size(), false)});
  }

  // The `id` of an event (a string, as Chrome writes it, or an integer) into id_; false if neither.
  bool profile_id(simdjson::ondemand::value& v) {
    std::string_view s;
    if (string_of(v, s) == simdjson::SUCCESS) {
      id_.assign("s").append(s);
      return true;
    }
    std::int64_t x = 0;
    if (v.get_int64().get(x) != simdjson::SUCCESS) return false;
    id_.assign("n").append(std::to_string(x));
    return true;
  }

  // A Profile, ProfileChunk or CpuProfile event at `at`: the first iteration over its fields
  // has read its scalars; its args.data is read by a second iteration over the same object
  // (rewound: the first met `args` before knowing what the event was, as Chrome sorts keys),
  // which walks the document's index again but does not parse its bytes again.
  void profile_event(std::string_view name, std::int64_t pid, std::int64_t tid, bool has_id, const number_field& ts,
                     const char* at, simdjson::ondemand::object& event) {
    bool whole = name == "CpuProfile";  // a whole profile in one event: a profile of its own
    if (whole) id_.assign("#").append(std::to_string(cpu_profiles_.size()));
    else if (!has_id) id_.assign("t").append(std::to_string(tid));  // no id: the chunks of one thread
    auto [it, added] = profile_index_.try_emplace({pid, id_}, cpu_profiles_.size());
    if (added) {
      cpu_profiles_.emplace_back();
      cpu_profiles_.back().thread = {pid, tid};
      cpu_profiles_.back().at = cursor_.offset(at);
      (void)thread_of(pid, tid);
    }
    cpu_profile& prof = cpu_profiles_[it->second];
    bool starts = name != "ProfileChunk";
    if (starts) {
      if (prof.has_start_event) fail_at(at, "a second " + std::string(name) + " event for profile " + id_.substr(1));
      prof.has_start_event = true;
      prof.thread = {pid, tid};
      (void)thread_of(pid, tid);
    }
    double chunk_ts = -std::numeric_limits<double>::infinity();
    if (!starts || ts.present) {
      if (!ts.present) fail_at(at, "a ProfileChunk event without \"ts\"");
      check_number(ts, "\"ts\"");
      chunk_ts = ts.value;
    }
    auto sample_count = [&] { return prof.data ? prof.data->sample_ids.size() : 0; };
    auto delta_count = [&] { return prof.data ? prof.data->deltas.size() : 0; };
    profile_chunk chunk{chunk_ts, static_cast<std::uint32_t>(sample_count()), 0,
                        static_cast<std::uint32_t>(delta_count()), cursor_.offset(at)};
    const char* deltas_at = at;
    read_profile_data(prof, chunk, deltas_at, at, event);
    if (sample_count() >= (std::size_t{1} << 32) - 1 || delta_count() >= (std::size_t{1} << 32) - 1)
      throw capacity_error("more than 2^32 samples in one CPU profile");
    chunk.samples_end = static_cast<std::uint32_t>(sample_count());
    std::size_t samples = chunk.samples_end - chunk.samples_begin, deltas = delta_count() - chunk.deltas_begin;
    if (samples != deltas)
      fail_at(deltas_at, std::string(name) + " event with " + std::to_string(samples) + " samples and " +
                             std::to_string(deltas) + " timeDeltas");
    if (samples != 0) prof.data->chunks.push_back(chunk);
  }

  // args.data of a profile event: `startTime`, `endTime`, `timeDeltas` and `cpuProfile`
  // ({nodes, samples}, and the same three), wherever V8 puts them.
  void read_profile_data(cpu_profile& prof, profile_chunk& chunk, const char*& deltas_at, const char* at,
                         simdjson::ondemand::object& event) {
    const json_cursor& j = cursor_;
    auto data = [&]() -> cpu_profile_data& {
      if (!prof.data) prof.data = std::make_unique<cpu_profile_data>(profile_.symbols());
      return *prof.data;
    };
    auto fields = [&](simdjson::ondemand::value& v, const char* what, auto&& each) {
      for (auto field_result : j.object(v, what)) {
        simdjson::ondemand::field f;
        if (auto e = std::move(field_result).get(f)) j.fail_here("malformed JSON", e);
        each(j.key(f), f.value());
      }
    };
    auto data_field = [&](std::string_view k, simdjson::ondemand::value& v) {
      if (k == "startTime") {
        prof.start = j.number(v, "startTime");
      } else if (k == "endTime") {
        prof.end = j.number(v, "endTime");
        prof.has_end = true;
      } else if (k == "timeDeltas") {
        deltas_at = start_of(v);
        for (auto element : j.array(v, "\"timeDeltas\"")) {
          simdjson::ondemand::value t;
          if (auto e = element.get(t)) j.fail_here("malformed \"timeDeltas\" array", e);
          data().deltas.push_back(j.number(t, "a time delta"));
        }
      } else if (k == "nodes") {
        for (auto element : j.array(v, "\"nodes\"")) {
          simdjson::ondemand::value n;
          if (auto e = element.get(n)) j.fail_here("malformed \"nodes\" array", e);
          data().nodes.flat_node(j, n);
        }
      } else if (k == "samples") {
        chunk.samples_at = cursor_.offset(start_of(v));
        for (auto element : j.array(v, "\"samples\"")) {
          simdjson::ondemand::value n;
          if (auto e = element.get(n)) j.fail_here("malformed \"samples\" array", e);
          data().sample_ids.push_back(j.integer(n, "a sample's node id"));
        }
      }
    };
    if (auto e = event.reset().error()) fail_at(at, "cannot read this event again", e);
    for (auto field_result : event) {
      simdjson::ondemand::field f;
      if (auto e = std::move(field_result).get(f)) j.fail_here("malformed JSON", e);
      if (j.key(f) != "args") continue;
      fields(f.value(), "\"args\"", [&](std::string_view k2, simdjson::ondemand::value& v2) {
        if (k2 != "data") return;
        fields(v2, "args.data", [&](std::string_view k3, simdjson::ondemand::value& v3) {
          if (k3 != "cpuProfile") return data_field(k3, v3);
          fields(v3, "\"cpuProfile\"", data_field);
        });
      });
    }
  }

  std::uint32_t seq(std::size_t position, bool instant) {
    if (position >= (std::size_t{1} << 31)) throw capacity_error("more than 2^31 events on one thread");
    return static_cast<std::uint32_t>(2 * position + (instant ? 1 : 0));
  }

  // The checks inline, their failures not (called once per event).
  void check_number(const number_field& f, const char* what) {
    if (f.error) [[unlikely]]
      number_failed(f, what);
  }
  void check_id(const id_field& f, const char* what) {
    if (f.error) [[unlikely]]
      id_failed(f, what);
  }
  [[noreturn, gnu::noinline, gnu::cold]] void number_failed(const number_field& f, const char* what) {
    fail_at(f.at, std::string(what) + " is not a finite number",
            f.error == simdjson::NUMBER_ERROR ? simdjson::SUCCESS : f.error);
  }
  [[noreturn, gnu::noinline, gnu::cold]] void id_failed(const id_field& f, const char* what) {
    fail_at(f.at, std::string("\"") + what + "\" is not an integer", f.error);
  }

  // The events of the thread of the last event, most often, found with one comparison.
  thread_events& events_of(std::int64_t pid, std::int64_t tid) {
    if (last_events_ && last_key_ == std::pair<std::int64_t, std::int64_t>{pid, tid}) return *last_events_;
    thread& t = thread_of(pid, tid);
    if (!t.events) t.events = std::make_unique<thread_events>();
    return *(last_events_ = t.events.get());
  }

  thread& thread_of(std::int64_t pid, std::int64_t tid) {
    std::pair<std::int64_t, std::int64_t> key{pid, tid};
    if (last_thread_ && last_key_ == key) return *last_thread_;
    last_key_ = key;
    last_thread_ = &threads_[key];
    last_events_ = last_thread_->events.get();
    return *last_thread_;
  }

  std::uint32_t name_id(std::string_view name, const char* at) {
    if (name.empty()) fail_at(at, "an empty event name");  // before find: "" is the table's root
    if (auto f = names_.find(name)) return *f;
    if (const char* why = ccrc::detail::check_name_text(name))
      fail_at(at, std::string("event name ") + why + " (binary data?)");
    frame_id f = names_.intern(name);
    frames_.push_back(null_frame);
    return f;
  }

  frame_id frame_of(std::uint32_t name) {
    if (frames_[name] == null_frame) frames_[name] = profile_.intern(names_.name(frame_id{name}));
    return frames_[name];
  }

  static std::string thread_frame_name(std::int64_t pid, std::int64_t tid, const std::string* process,
                                       const thread& t) {
    std::string s = process ? *process + " (pid " + std::to_string(pid) + ")" : "pid " + std::to_string(pid);
    s += ' ';
    s += t.named ? t.name + " (tid " + std::to_string(tid) + ")" : "tid " + std::to_string(tid);
    return s;
  }

  void build() {
    head_.assign(names_.frame_count(), none);
    // The CPU profiles by thread, in the order of their first event; a Profile event alone
    // (a trace cut before its chunks) gives nothing.
    std::map<std::pair<std::int64_t, std::int64_t>, std::vector<cpu_profile*>> profiles;
    for (cpu_profile& prof : cpu_profiles_) {
      if (!prof.data || (prof.data->nodes.size() == 0 && prof.data->sample_ids.empty())) continue;
      if (!prof.has_start_event) ++warnings_.profiles_without_start;
      profiles[prof.thread].push_back(&prof);
    }
    if (!profiles.empty()) {
      samples_column_ = profile_.add_metric("samples");
      sampled_column_ = profile_.add_metric("sampled_us");
    }
    for (auto& [key, t] : threads_) {
      auto held = profiles.find(key);
      if (held == profiles.end() && is_summary(t)) {
        ++warnings_.summaries;
        continue;
      }
      const bool opens = t.events && !t.events->opens.empty();
      if (!opens) {
        if (t.events) warnings_.unmatched_ends += t.events->closes.size();
        if (held == profiles.end()) continue;
      }
      auto p = processes_.find(key.first);
      std::string name = thread_frame_name(key.first, key.second, p == processes_.end() ? nullptr : &p->second, t);
      node_id root = profile_.find_or_add_child(root_node, profile_.intern(name));
      if (opens) build_thread(*t.events, root);
      t = thread{};  // the events are no longer needed
      if (held != profiles.end())
        for (cpu_profile* prof : held->second) add_cpu_profile(*prof, root);
    }
  }

  // Whether a thread holds only a clang -ftime-trace summary: one complete event `Total ...`
  // from time 0, on a thread with no name, beside other threads (see trace_warnings).
  [[nodiscard]] bool is_summary(const thread& t) const {
    if (!t.events || t.named || threads_.size() < 2 || t.events->opens.size() != 1 || t.events->closes.size() > 1) return false;
    const open_event& e = t.events->opens.front();
    return e.ts == 0 && std::isfinite(e.order) && names_.name(frame_id{e.name}).starts_with("Total ");
  }

  // A CPU profile's tree as read_v8_profile makes it, under a frame `(cpu profile)` of its
  // thread (a new one for each profile); its samples in `samples` and `sampled_us`. As there,
  // the samples are summed by node, in the time order of their chunks, before the tree is
  // built, and their ids and times freed.
  void add_cpu_profile(cpu_profile& cpu, node_id thread_node) {
    cpu_profile_data& prof = *cpu.data;
    prof.nodes.link(true);
    const std::uint32_t root = prof.nodes.root(cpu.at);
    const std::vector<std::uint32_t> order = prof.nodes.order(root);
    (void)prof.nodes.take_selves();  // hitCount: a trace's profiles have samples
    std::stable_sort(prof.chunks.begin(), prof.chunks.end(),
                     [](const profile_chunk& a, const profile_chunk& b) { return a.ts < b.ts; });
    std::vector<double> samples(prof.nodes.size(), 0), sampled_us(prof.nodes.size(), 0);
    ccrc::detail::v8_sample_weights weights(samples, sampled_us);
    double now = cpu.start;
    auto overflow = [&] {
      std::size_t k = 0;
      for (const profile_chunk& c : prof.chunks) {
        k += c.samples_end - c.samples_begin;
        if (weights.failed_sample() < k) throw parse_error::at_byte(c.samples_at, "the times of the samples overflow");
      }
      throw parse_error::at_byte(cpu.at, "the times of the samples overflow");
    };
    for (const profile_chunk& c : prof.chunks) {
      for (std::uint32_t s = c.samples_begin; s < c.samples_end; ++s) {
        std::uint32_t i = prof.nodes.lookup(prof.sample_ids[s]);
        if (i == ccrc::detail::v8_none)
          throw parse_error::at_byte(c.samples_at, "sample " + std::to_string(s - c.samples_begin) + ": node id " +
                                                       std::to_string(prof.sample_ids[s]) + " is not a node of its profile");
        now += prof.deltas[c.deltas_begin + (s - c.samples_begin)];
        if (!weights.add(i, now)) overflow();
      }
    }
    if (!weights.finish(cpu.has_end ? &cpu.end : nullptr)) overflow();
    std::deque<std::int64_t>().swap(prof.sample_ids);
    std::deque<double>().swap(prof.deltas);
    prof.nodes.checked();

    node_id top = ccrc::detail::v8_node_tree::add_distinct_child(profile_, thread_node, profile_.intern("(cpu profile)"), sites_);
    const std::vector<node_id> context = std::move(prof.nodes).add_to(profile_, order, top);
    auto samples_column = profile_.column(samples_column_), sampled_us_column = profile_.column(sampled_column_);
    for (std::size_t i = 0; i < context.size(); ++i) {
      samples_column[context[i]] += samples[i];
      sampled_us_column[context[i]] += sampled_us[i];
    }
    cpu.data.reset();
  }

  void open(const open_event& o, node_id parent) {
    node_id n = profile_.find_or_add_child(stack_.empty() ? parent : stack_.back().node, frame_of(o.name));
    const double one_call[2] = {1, 0};
    profile_.add(n, one_call);
    stack_.push_back({n, o.ts, 0, o.name});
  }

  void close(double at) {
    frame_on_stack f = stack_.back();
    stack_.pop_back();
    double duration = at - f.start;
    const double self[2] = {0, duration - f.children};
    profile_.add(f.node, self);
    if (!stack_.empty()) stack_.back().children += duration;
  }

  // Takes a close of the current group that matches the top of the stack: one with its name,
  // else an E without a name. Returns false if there is none.
  bool take_matching_close() {
    if (stack_.empty()) return false;
    for (std::uint32_t name : {stack_.back().name, std::uint32_t{0}}) {
      std::uint32_t k = head_[name];
      if (k == none) continue;
      head_[name] = next_[k];
      return true;
    }
    return false;
  }

  // Builds the thread's tree from its events in time order, each event freed once it is in
  // the tree. Events with equal times in the order of `by_time` and `close_time` (their
  // position in the file breaking ties). X events written as they end, the usual unsorted
  // input, are begins in post-order: put in order in linear time; else std::sort, as it needs
  // no second copy of them.
  void build_thread(thread_events& t, node_id root) {
    auto by_time = [](const open_event& a, const open_event& b) {
      if (a.ts != b.ts) return a.ts < b.ts;
      if (a.order != b.order) return a.order > b.order;
      return a.seq < b.seq;
    };
    if (!std::is_sorted(t.opens.begin(), t.opens.end(), by_time) &&
        !ccrc::detail::sort_post_order(t.opens.begin(), t.opens.end(), by_time))
      std::sort(t.opens.begin(), t.opens.end(), by_time);
    auto close_time = [](const close_event& a, const close_event& b) {
      return a.ts < b.ts || (a.ts == b.ts && a.seq < b.seq);
    };
    if (!std::is_sorted(t.closes.begin(), t.closes.end(), close_time)) std::sort(t.closes.begin(), t.closes.end(), close_time);
    stack_.clear();
    const double inf = std::numeric_limits<double>::infinity();
    while (!t.opens.empty() || !t.closes.empty()) {
      const double now = std::min(t.opens.empty() ? inf : t.opens.front().ts, t.closes.empty() ? inf : t.closes.front().ts);
      std::size_t count = 0;
      while (count < t.closes.size() && t.closes[count].ts == now) ++count;
      // The closes at `now`: one (the usual case) is taken when it matches the top of the
      // stack; several are linked in one list per name (last first: any of equal names will do).
      bool pending = count == 1;
      const std::uint32_t single = pending ? t.closes.front().name : 0;
      if (count > 1) {
        next_.resize(count);
        for (std::size_t k = 0; k < count; ++k) {
          std::uint32_t name = t.closes[k].name;
          next_[k] = head_[name];
          head_[name] = static_cast<std::uint32_t>(k);
        }
      }
      std::size_t taken = 0;
      for (;;) {
        bool closes = count == 1 ? pending && !stack_.empty() && (single == 0 || stack_.back().name == single)
                                 : count > 1 && take_matching_close();
        if (closes) {
          pending = false;
          close(now);
          ++taken;
        } else if (!t.opens.empty() && t.opens.front().ts == now) {
          open(t.opens.front(), root);
          if (t.opens.front().seq & 1) close(now);
          t.opens.pop_front();
        } else {
          break;
        }
      }
      warnings_.unmatched_ends += count - taken;
      for (std::size_t k = 0; k < count; ++k) {
        if (count > 1) head_[t.closes.front().name] = none;
        t.closes.pop_front();
      }
    }
    warnings_.unclosed += stack_.size();
    while (!stack_.empty()) close(t.last);
  }

  profile profile_;
  std::string_view text_;                 // the whole document
  json_cursor cursor_;
  std::map<std::pair<std::int64_t, std::int64_t>, thread> threads_;
  std::map<std::int64_t, std::string> processes_;
  std::pair<std::int64_t, std::int64_t> last_key_{};
  known_id last_pid_, last_tid_;
  thread* last_thread_ = nullptr;
  thread_events* last_events_ = nullptr;  // last_thread_'s, if it has any
  symbol_table names_;                // event names, a name's id is its frame here (0: none)
  std::vector<frame_id> frames_;      // by name id: its frame in the profile, once it has a node
  std::vector<std::uint32_t> head_;      // per name id: first close of the group, or none
  std::vector<std::uint32_t> next_;      // per close of the group: the next one of its name
  std::vector<frame_on_stack> stack_;
  trace_warnings warnings_;
  std::string id_;                                       // the `id` of the event being read
  std::vector<cpu_profile> cpu_profiles_;  // in the order of their first event
  std::map<std::pair<std::int64_t, std::string>, std::size_t> profile_index_;  // (pid, id) -> index
  ccrc::detail::v8_node_tree::site_map sites_;           // call sites of `(cpu profile)` twins
  std::size_t samples_column_ = 0, sampled_column_ = 0;
};

[[nodiscard]] inline profile read_trace_events_from(std::string_view text, const trace_event_options& options) {
  trace_event_parser parser(text, options.piece_bytes);
  profile p = parser.read();
  if (options.warnings) *options.warnings = parser.warnings();
  return p;
}

}  // namespace formats::detail

/// Reads a Trace Event Format file (Chrome's `chrome://tracing` and Perfetto JSON, clang
/// `-ftime-trace`, the many profilers that write it): a JSON array of events, or an object
/// whose `traceEvents` member is one (its other members are ignored). An array cut off before
/// its final `]` (how Chrome leaves a trace it did not finish), with or without a final ',',
/// and an array with a ',' before its `]` are accepted (an object cut off is an error).
///
/// - Streaming: the document is scanned for its structure (strings and brackets, nothing
///   interpreted: formats/json.hpp), and its event array handed to simdjson On-Demand in
///   pieces of whole events of about trace_event_options::piece_bytes (1 MiB), each parsed as
///   an array of its own with one parser and one buffer; Debian's simdjson (3.0.1) cannot
///   stream the elements of one array, and its index of a whole trace would take five bytes
///   per byte of it. simdjson parses every byte of every event; the other members of an
///   object (`metadata`, `displayTimeUnit`, `stackFrames`, `samples`, `systemTraceEvents`,
///   ...) are skipped as On-Demand skipped them (strings and brackets balanced) and checked
///   to be UTF-8. The profile, and the byte of every error but the first pass's (below), do
///   not depend on the piece size.
/// - Events read: `B`/`E` (begin/end) and `X` (complete: `ts` + `dur`, or `tdur` without `dur`,
///   or 0 without both), on the stack of their (pid, tid); `M` events `process_name` and
///   `thread_name` (their `args.name`; the last one wins); the V8 CPU profiles of Chrome
///   DevTools performance traces (below). Every other phase (`i`/`I`, `C`, `b`/`e`/`n`,
///   `s`/`t`/`f`, other `P` events, `N`/`O`/`D`, `R`, `S`/`T`/`F`, ...) is ignored.
/// - CPU profiles: a `Profile` event (`ph` `P` or `I`; `args.data.startTime`) and the
///   `ProfileChunk` events with its pid and `id` (`args.data.cpuProfile.nodes`, nodes naming
///   their `parent`, arriving across chunks; `cpuProfile.samples`; `args.data.timeDeltas`),
///   chunks taken in order of `ts`; also a `CpuProfile` event (a whole profile in
///   `args.data.cpuProfile`, with `startTime`/`endTime`). Each profile is read as
///   read_v8_profile reads a .cpuprofile (one implementation: every node one context, names
///   `functionName url:line:col` 1-based, `(anonymous)`) under a new frame `(cpu profile)` (its
///   `(root)` node) below the frame of the Profile event's thread (the chunks come from V8's
///   profiler thread). Its samples are counted in two more columns, `samples` and
///   `sampled_us` (each sample weighted by the time to the next one, negative gaps 0, the last
///   by the time to `endTime` where given, else 0), kept apart from the events' `time_us`: the
///   two measure the same wall time twice (a JS function's samples lie inside the
///   `FunctionCall` event around it), so their sum means nothing. A trace without CPU
///   profiles has only `calls` and `time_us`.
/// - Tree: one subtree per thread under a frame naming it, `<process> (pid P) <thread> (tid T)`,
///   with `pid P` / `tid T` alone for a process or thread without a name (`pid 1 tid 7`), so
///   that two threads of the same name stay apart; threads in order of pid, then tid; a thread
///   with no B or X event has none. Below it the events nest as their times say. A frame is the
///   event's `name` alone: neither `cat` nor `args` is part of it (speedscope keys frames by
///   `name` + JSON of `args`, so clang's `Source` events with different files are one frame
///   here, many there).
/// - Metrics: `calls` (1 per B and per X event) and `time_us`, self time in µs (ts and dur
///   are µs, fractions kept): the event's duration minus its children's. The self times of a
///   thread's frames add up to the durations of its outermost events (up to rounding of the
///   differences).
/// - Order: events need not be sorted. Per thread, the begins (B, and X at ts) are sorted by
///   ts, stably, with a B first and then X events longer first at equal ts; the ends (E, and X
///   at ts + dur) by ts, stably. They are then taken in time order; at one time, an end that
///   closes the frame on top of the stack is taken first (an end whose name is the top's, or
///   an E without a name or named "", which the format allows: it closes the top, where
///   speedscope ignores it), then the next begin, until neither applies. So an E at the time of
///   a B closes before the B opens, unless the B is what it closes (zero duration), and of
///   several ends at one time the one matching the top is taken. An X of zero duration opens
///   and closes at once (a leaf).
/// - Repairs, counted in options.warnings (trace_warnings) rather than refused: an end left
///   over at its time (empty stack, or a name other than the top's) is ignored
///   (`unmatched_ends`); frames still open when the thread's events are done are closed at the
///   thread's last time, the latest ts or ts + dur among its B/E/X events (`unclosed`).
/// - Errors of CPU profiles (at the value, node or event): a ProfileChunk without a finite
///   `ts`, a second Profile event for one (pid, id), samples and timeDeltas of different
///   lengths in one event, and whatever read_v8_profile refuses in nodes (no or duplicate
///   id, unknown parent, no `(root)`, cycles, bad names), samples (an id naming no node of
///   the profile: at the chunk's `samples`) and times. A Profile event without chunks is
///   ignored; chunks without a Profile event are read (warnings.profiles_without_start).
/// - Errors (ccrc::parse_error::at_byte, at the offending value or event): malformed JSON, a
///   top level that is neither array nor object, an object without `traceEvents` or whose
///   `traceEvents` is not an array, an event that is not an object or has no string `ph`; for
///   B, E, X and M events: a `pid` or `tid` that is not an integer (absent: 0); for B, E and X:
///   no `ts`, a `ts`, `dur` or `tdur` that is not a finite number, a negative `dur`/`tdur`,
///   ts + dur overflowing, a thread whose times span more than a double holds; for B and X: no
///   string `name`, or an empty one; an E's `name` that is not a string; names (and the M
///   names) with control characters or invalid UTF-8. Fields of ignored events are not
///   checked. What simdjson's first pass over a piece finds (invalid UTF-8, a string left
///   open), which has no position, is reported at the piece's first byte (the `[` of the
///   events or the ',' before the piece's first event: byte 0 of an array trace smaller than
///   a piece); invalid UTF-8 outside the events at the first byte after the events before it. A string or bracket left open at the
///   document's end is an error at its last piece or at its end. Keys written with escapes
///   (`"p\u0068"`) are not recognised.
///
/// O(bytes + e log e) for e events of a thread out of order; O(bytes) for events in time order
/// and for X events written as they end, nested (`detail::sort_post_order`: 4-12 bytes an
/// event while it orders them);
/// memory: the document, read in place; a piece and simdjson's buffers for it (about six
/// bytes per byte of the largest piece: 6 MB, or more for a larger event); 24 to 40 bytes per
/// B/E/X event, held in blocks until its thread's tree is built, each block freed once its
/// events are in the tree (sorting, where needed, takes no second copy); a CPU profile's
/// nodes as read_v8_profile holds them, and 16 bytes per sample until its samples are summed
/// by node, before its tree is built; and the tree. No size limit but memory
/// (simdjson's 4 GB applies to a piece). simdjson On-Demand: no DOM; nothing recurses with
/// the depth of the events.
///
///     ccrc::trace_warnings w;
///     ccrc::profile p = ccrc::read_trace_events(
///         R"([{"ph":"X","name":"main","ts":0,"dur":10,"pid":1,"tid":1},
///             {"ph":"X","name":"f","ts":2,"dur":3,"pid":1,"tid":1}])", {.warnings = &w});
///     // path "pid 1 tid 1;main": calls 1, time_us 7; "pid 1 tid 1;main;f": time_us 3
[[nodiscard]] inline profile read_trace_events(const formats::json_text& text, const trace_event_options& options = {}) {
  return formats::detail::read_trace_events_from(text.bytes(), options);
}

/// read_trace_events from bytes in memory (read in place: each piece is copied, not the whole).
[[nodiscard]] inline profile read_trace_events(std::string_view text, const trace_event_options& options = {}) {
  return formats::detail::read_trace_events_from(text, options);
}

/// read_trace_events from a stream, read whole first (the reader works on the document in memory).
[[nodiscard]] inline profile read_trace_events(std::istream& in, const trace_event_options& options = {}) {
  return read_trace_events(formats::json_text({}, ccrc::detail::stream_source{&in}), options);
}

/// read_trace_events from a file; throws ccrc::error if it cannot be opened or shrinks
/// while it is read (detail::file_source).
[[nodiscard]] inline profile read_trace_events_file(const std::filesystem::path& path, const trace_event_options& options = {}) {
  return read_trace_events(formats::json_file(path), options);
}

}  // namespace ccrc
