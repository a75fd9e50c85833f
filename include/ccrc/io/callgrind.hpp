// ccrc - valgrind's callgrind format (`callgrind.out.<pid>`): a call graph (self cost per
// function, inclusive cost per caller -> callee edge), unfolded into a calling context tree.
#pragma once

#include <ccrc/config.hpp>
#include <ccrc/detail/line_reader.hpp>
#include <ccrc/detail/text.hpp>
#include <ccrc/error.hpp>
#include <ccrc/transform/unfold_call_graph.hpp>
#include <ccrc/tree/profile.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <istream>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ccrc {

/// Options of the callgrind reader.
struct callgrind_options {
  /// A longer line is an error (it is refused as soon as this many bytes are seen).
  std::size_t max_line_bytes = std::size_t{64} << 20;
  /// The call graph unfolds into at most this many calling contexts; more throws
  /// ccrc::capacity_error. A graph of n functions can unfold into 2^n contexts (a chain of
  /// functions each calling the next through two callers), so a limit replaces running out of
  /// memory with a message.
  std::size_t max_contexts = 10'000'000;
};

namespace detail {

// Parses callgrind lines into the call graph, then unfolds it (finish(), by unfold_call_graph).
class callgrind_parser {
 public:
  explicit callgrind_parser(const callgrind_options& options) : options_(options) {}

  void line(std::string_view s, std::uint64_t number) {
    number_ = number;
    while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
    if (pending_call_) {
      if (s.empty() || !is_cost_start(s.front())) fail("a calls= line must be followed by its cost line");
      cost_line(s);
      return;
    }
    if (s.empty() || s.front() == '#') return;
    if (is_cost_start(s.front())) return cost_line(s);
    std::size_t key_end = 0;
    while (key_end < s.size() && (is_alpha(s[key_end]) || s[key_end] == '_')) ++key_end;
    if (key_end == 0 || key_end == s.size() || (s[key_end] != '=' && s[key_end] != ':'))
      fail("not a cost line, a key=value line nor a header line: '" + std::string(s.substr(0, 40)) + "'");
    std::string_view key = s.substr(0, key_end);
    std::string_view value = s.substr(key_end + 1);
    while (!value.empty() && is_blank(value.front())) value.remove_prefix(1);
    if (s[key_end] == ':') return header(key, value);
    body(key, value);
  }

  profile finish();

 private:
  symbol_table merge_functions();
  [[nodiscard]] std::pair<symbol_table, std::vector<frame_id>> frames_of(symbol_table read) const;
  [[noreturn]] void fail(const std::string& reason) const { throw parse_error(number_, reason); }

  static constexpr bool is_alpha(char c) noexcept { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
  static constexpr bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }
  static constexpr bool is_cost_start(char c) noexcept { return is_digit(c) || c == '+' || c == '-' || c == '*'; }

  // A decimal or 0x-hexadecimal number: the whole token, below 2^64.
  [[nodiscard]] bool number(std::string_view t, std::uint64_t& out) const {
    out = 0;
    bool hex = t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X');
    if (hex) t.remove_prefix(2);
    if (t.empty()) return false;
    const std::uint64_t base = hex ? 16 : 10, most = ~std::uint64_t{0};
    const std::uint64_t safe = (most - 15) / 16;  // below it, out * base + d cannot overflow
    for (char c : t) {
      unsigned d;
      if (is_digit(c)) d = static_cast<unsigned>(c - '0');
      else if (hex && c >= 'a' && c <= 'f') d = static_cast<unsigned>(c - 'a' + 10);
      else if (hex && c >= 'A' && c <= 'F') d = static_cast<unsigned>(c - 'A' + 10);
      else return false;
      if (out > safe && out > (most - d) / base) return false;
      out = out * base + d;
    }
    return true;
  }

  // The next blank-separated word of `s`, removed from it.
  static std::string_view next_word(std::string_view& s) {
    while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
    std::size_t end = 0;
    while (end < s.size() && !is_blank(s[end])) ++end;
    std::string_view w = s.substr(0, end);
    s.remove_prefix(end);
    return w;
  }

  // `count` subpositions: a number, +n, -n or * (positions are not kept, only checked).
  void positions(std::string_view& s, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) {
      std::string_view w = next_word(s);
      if (w.empty()) fail("a cost line needs " + std::to_string(count) + " position(s) (positions:)");
      if (w == "*") continue;
      if (w.front() == '+' || w.front() == '-') w.remove_prefix(1);
      std::uint64_t v;
      if (!number(w, v)) fail("position '" + std::string(w.substr(0, 40)) + "' is not a number, +n, -n or *");
    }
  }

  // Up to one cost per event, each added to `into` (missing trailing costs are zero).
  void costs(std::string_view s, std::uint64_t* into) {
    for (std::size_t e = 0;; ++e) {
      std::string_view w = next_word(s);
      if (w.empty()) return;
      if (e == events_.size())
        fail("more costs than events (" + std::to_string(events_.size()) + ", events:)");
      std::uint64_t v;
      if (!number(w, v)) fail("cost '" + std::string(w.substr(0, 40)) + "' is not a number");
      if (v > max_exact - into[e]) fail("a cost sum above 2^53, which a double cannot hold exactly");
      into[e] += v;
    }
  }

  void need_events() {
    if (events_.empty()) fail("a cost before the events: line");
  }

  void cost_line(std::string_view s) {
    need_events();
    positions(s, positions_);
    if (pending_call_) {
      pending_call_ = false;
      return costs(s, &edge_cost_[pending_edge_ * events_.size()]);
    }
    if (fn_ == none) fail("a cost line before any fn= line");
    if (!block_open_) {  // the block's first self cost line
      block_line_.push_back(number_);
      block_function_.push_back(static_cast<std::uint32_t>(fn_));
      block_cost_.resize(block_cost_.size() + events_.size(), 0);
      block_open_ = true;
    }
    costs(s, &block_cost_[block_cost_.size() - events_.size()]);
  }

  void header(std::string_view key, std::string_view value) {
    if (key == "events") {
      std::vector<std::string> names;
      for (std::string_view w; !(w = next_word(value)).empty();) {
        if (const char* why = check_name_text(w)) fail("event name " + std::string(why));
        names.emplace_back(w);
      }
      if (names.empty()) fail("events: names no event");
      if (std::size_t k = first_repeated(names); k < names.size())
        fail("event '" + names[k].substr(0, 40) + "' named twice");
      if (!events_.empty() && names != events_)
        fail("a part with other events than the first part's (not supported)");
      if (events_.empty()) events_ = std::move(names);
    } else if (key == "positions") {
      std::size_t n = 0;
      for (std::string_view w; !(w = next_word(value)).empty(); ++n)
        if (w != "line" && w != "instr") fail("positions: '" + std::string(w.substr(0, 40)) + "' is not instr or line");
      if (n == 0 || n > 2) fail("positions: needs instr, line or both");
      if (!events_.empty() && n != positions_ && seen_cost_) fail("positions: changed after cost lines");
      positions_ = n;
    } else if (key == "summary" || key == "totals") {
      need_events();
      std::vector<std::uint64_t> scratch(events_.size(), 0);
      costs(value, scratch.data());
    }
    // version, creator, cmd, pid, thread, part, desc, event and other header keys: ignored.
  }

  // A function and its object (functions are told apart by name and object).
  struct named_function {
    static constexpr std::uint32_t none = ~std::uint32_t{0};
    std::uint32_t function = none, object = 0;
  };

  // What a compressed id (`(id)`) stands for: a name and, for a function's id, the function
  // it last stood for, so that a function named by id is found beside its name (one cache
  // miss) rather than through a table indexed by name.
  struct named {
    std::uint32_t name = named_function::none;
    named_function last;
  };

  // Compressed ids of one kind: the dense small ones in a vector, others hashed.
  struct id_table {
    std::vector<named> dense;
    std::unordered_map<std::uint64_t, named> sparse;
    named& define(std::uint64_t id, std::uint32_t name) {
      named* at;
      if (id < (std::uint64_t{1} << 20)) {
        if (dense.size() <= id) dense.resize(static_cast<std::size_t>(id) + 1);
        at = &dense[static_cast<std::size_t>(id)];
      } else {
        at = &sparse[id];
      }
      return *at = named{name, {}};
    }
    [[nodiscard]] named* find(std::uint64_t id) {
      if (id < dense.size()) return dense[static_cast<std::size_t>(id)].name == named_function::none ? nullptr : &dense[static_cast<std::size_t>(id)];
      auto it = sparse.find(id);
      return it == sparse.end() ? nullptr : &it->second;
    }
  };

  // An object's id in objects_, the name interned (and checked) at first sight.
  std::uint32_t object_name(std::string_view n) {
    const std::size_t known = objects_.frame_count();
    const frame_id f = objects_.intern(n);
    if (objects_.frame_count() != known)
      if (const char* why = check_name_text(n)) fail("object name " + std::string(why) + " (binary data?)");
    return static_cast<std::uint32_t>(f);
  }

  // A function name's id, a new one for each definition `(id) name` (valgrind defines each
  // name once: written down without a lookup, left to finish() to intern all at once); a
  // name written out keeps the id of its first sight.
  std::uint32_t function_name(std::string_view n, bool written_out) {
    if (written_out) {
      const std::size_t known = written_out_.method_count();
      const method_id m = written_out_.intern_method(n);
      if (written_out_.method_count() == known) return written_out_ids_[m];
    }
    if (const char* why = check_name_text(n)) fail("function name " + std::string(why) + " (binary data?)");
    if (fn_text_ends_.size() >= named_function::none) throw capacity_error("callgrind: more than 2^32 - 1 function names");
    const auto id = static_cast<std::uint32_t>(fn_text_ends_.size());
    fn_text_.append(n);
    fn_text_ends_.push_back(fn_text_.size());
    if (written_out) written_out_ids_.push_back(id);
    return id;
  }

  // `(id) name`, `(id)` or `name`: what it names (define(text, written_out) makes a name's
  // id), through the compression table of its kind; `id` is set to the compressed id, or to
  // `plain` for a name written out.
  static constexpr std::uint64_t plain = ~std::uint64_t{0};
  template <class Define>
  named& name(std::string_view value, id_table& table, std::uint64_t& id, Define define) {
    if (value.empty()) fail("an empty name");
    if (value.front() != '(') {
      id = plain;
      return plain_ = named{define(value, true), {}};
    }
    std::size_t close = value.find(')');
    if (close == std::string_view::npos || !number(value.substr(1, close - 1), id) || id == plain)
      fail("a compressed name must start with (number)");
    std::string_view rest = value.substr(close + 1);
    while (!rest.empty() && is_blank(rest.front())) rest.remove_prefix(1);
    if (rest.empty()) {
      named* known = table.find(id);
      if (!known) fail("name (" + std::to_string(id) + ") used before it is defined");
      return *known;
    }
    return table.define(id, define(rest, false));
  }
  named& function_named(std::string_view value, std::uint64_t& id) {
    return name(value, fn_table_, id, [this](std::string_view n, bool written_out) { return function_name(n, written_out); });
  }
  named& function_named(std::string_view value) {
    std::uint64_t id;
    return function_named(value, id);
  }
  std::uint32_t object_named(std::string_view value) {
    std::uint64_t id;
    return name(value, ob_table_, id, [this](std::string_view n, bool) { return object_name(n); }).name;
  }

  // The function `n` names in object `ob`, remembered in `n`.
  std::size_t function(std::uint32_t ob, named& n) {
    if (n.last.function == named_function::none || n.last.object != ob)
      n.last = {static_cast<std::uint32_t>(function(ob, n.name)), ob};
    return n.last.function;
  }

  // The function of name id `n` in object id `ob`, added at first sight. Most names belong
  // to one object: the first function of each name is found by index (its object beside it,
  // one cache miss), others hashed.
  std::size_t function(std::uint32_t ob, std::uint32_t n) {
    if (first_of_name_.size() <= n) first_of_name_.resize(std::size_t{n} + 1);
    named_function& first = first_of_name_[n];
    if (first.function != named_function::none && first.object == ob) return first.function;
    std::size_t f = fn_names_.size();
    if (f >= named_function::none) throw capacity_error("callgrind: more than 2^32 - 1 functions");
    if (first.function == named_function::none) {
      first = {static_cast<std::uint32_t>(f), ob};
    } else {
      auto [it, added] = other_objects_.try_emplace((std::uint64_t{ob} << 32) | n, f);
      if (!added) return it->second;
    }
    fn_names_.push_back(n);
    fn_objects_.push_back(ob);
    last_edge_to_.push_back(no_edge);
    return f;
  }

  void body(std::string_view key, std::string_view value) {
    if (key == "fn") {
      fn_ = function(ob_, function_named(value));
      has_cfn_ = has_cob_ = block_open_ = false;
    } else if (key == "cfn") {
      cfn_ = function_named(value, cfn_id_);
      has_cfn_ = true;
    } else if (key == "jfn") {
      static_cast<void>(function_named(value));
    } else if (key == "ob") {
      ob_ = object_named(value);
    } else if (key == "cob") {
      cob_ = object_named(value);
      has_cob_ = true;
    } else if (key == "fl" || key == "fi" || key == "fe" || key == "cfi" || key == "cfl" || key == "jfi") {
      std::uint64_t id;
      static_cast<void>(name(value, fl_table_, id, [](std::string_view, bool) { return std::uint32_t{0}; }));
    } else if (key == "calls") {
      need_events();
      if (fn_ == none) fail("calls= before any fn= line");
      if (!has_cfn_) fail("calls= without a cfn= line naming the called function");
      std::uint64_t count;
      if (!number(next_word(value), count)) fail("calls= needs a call count");
      positions(value, positions_);  // the target position; anything after it is ignored
      // cfn='s id, unless a jfn= line between has given it another name.
      named* called = cfn_id_ == plain ? nullptr : fn_table_.find(cfn_id_);
      std::size_t callee = function(has_cob_ ? cob_ : ob_, called && called->name == cfn_.name ? *called : cfn_);
      has_cob_ = false;  // cob= names the object of the next call only
      // The edge of the last call to this callee, if from this caller; else a new one (a
      // pair seen in an earlier block again is merged by unfold_call_graph).
      std::uint32_t e = last_edge_to_[callee];
      if (e == no_edge || caller_[e] != fn_) {
        if (caller_.size() >= no_edge) throw capacity_error("callgrind: more than 2^32 - 2 caller -> callee pairs");
        e = last_edge_to_[callee] = static_cast<std::uint32_t>(caller_.size());
        caller_.push_back(static_cast<std::uint32_t>(fn_));
        callee_.push_back(static_cast<std::uint32_t>(callee));
        edge_cost_.resize(edge_cost_.size() + events_.size(), 0);
      }
      pending_edge_ = e;
      pending_call_ = true;
    } else if (key == "jump" || key == "jcnd") {
      // Jumps (--collect-jumps=yes) carry no cost.
    } else {
      fail("unknown key '" + std::string(key.substr(0, 40)) + "='");
    }
    seen_cost_ = true;
  }

  static constexpr std::size_t none = ~std::size_t{0};
  static constexpr std::uint64_t max_exact = std::uint64_t{1} << 53;
  static constexpr std::uint32_t no_edge = ~std::uint32_t{0};

  callgrind_options options_;
  std::vector<std::string> events_;
  std::size_t positions_ = 1;
  id_table fn_table_, fl_table_, ob_table_;
  std::string fn_text_;                        // function names, one after another
  std::vector<std::size_t> fn_text_ends_;      // name id -> the end of its name in fn_text_
  symbol_table written_out_;                   // function names written out (not `(id) name`)
  std::vector<std::uint32_t> written_out_ids_{named_function::none};  // their method -> name id
  symbol_table objects_;                       // object names, interned
  std::vector<std::uint32_t> fn_names_, fn_objects_;  // per function: its name and object ids
  std::vector<named_function> first_of_name_;  // name id -> its first function and its object
  std::unordered_map<std::uint64_t, std::size_t> other_objects_;  // object << 32 | name -> function
  std::vector<std::uint32_t> last_edge_to_;  // per function: the last edge calling it (no_edge)
  std::uint32_t ob_ = 0, cob_ = 0;  // 0: no object yet (the root's empty name)
  named cfn_, plain_;                 // cfn='s name (its id: cfn_id_); a name written out
  std::uint64_t cfn_id_ = plain;
  bool has_cob_ = false, has_cfn_ = false;
  // Self costs as read, per block of cost lines after a fn= line (its first line and
  // function), added up per function by unfold_call_graph: the block's costs are written
  // where the parsing is, and the functions' totals, scattered, in one loop whose cache
  // misses overlap.
  std::vector<std::uint64_t> block_line_;
  std::vector<std::uint32_t> block_function_;
  std::vector<std::uint64_t> block_cost_;  // block * events + event
  bool block_open_ = false;
  std::vector<std::uint32_t> caller_, callee_;  // per edge: functions
  std::vector<std::uint64_t> edge_cost_;  // edge * events + event: inclusive cost of the calls
  std::size_t fn_ = none, pending_edge_ = 0;
  bool pending_call_ = false, seen_cost_ = false;
  std::uint64_t number_ = 0;
};

inline profile callgrind_parser::finish() {
  if (pending_call_) fail("the input ends after a calls= line, without its cost line");
  if (events_.empty()) {
    if (!fn_names_.empty()) fail("no events: line");
    return profile{{"Ir"}};  // empty input: valgrind's default event
  }
  symbol_table read = merge_functions();
  const std::size_t E = events_.size(), F = fn_names_.size();
  unfolded_call_graph unfolded;
  try {
    unfolded = unfold_call_graph({.functions = F, .events = E, .caller = std::move(caller_), .callee = std::move(callee_),
                                  .edge_cost = std::move(edge_cost_), .self_function = std::move(block_function_),
                                  .self_cost = std::move(block_cost_)},
                                 {.max_contexts = options_.max_contexts});
  } catch (const cost_overflow& e) {
    throw parse_error(e.part == cost_overflow::no_part ? number_ : block_line_[e.part], e.what());
  } catch (const capacity_error&) {
    throw capacity_error("callgrind: the call graph unfolds into more than " + std::to_string(options_.max_contexts) +
                         " calling contexts (callgrind_options::max_contexts)");
  }
  auto [symbols, frame] = frames_of(std::move(read));
  std::vector<frame_id> frames(unfolded.function.size(), root_frame);
  for (std::size_t n = 1; n < frames.size(); ++n) frames[n] = frame[unfolded.function[n]];
  std::vector<std::uint32_t>().swap(unfolded.function);
  auto [tree, repeated] = call_tree::from_columns(std::move(symbols), std::move(unfolded.parent), std::move(frames));
  CCRC_ASSERT(repeated == null_node, "ccrc: a callgrind context repeats a sibling's frame");
  profile p(std::move(tree), std::vector<std::string>(events_));
  for (std::size_t e = 0; e < E; ++e) {
    std::span<double> column = p.column(e);
    for (std::size_t n = 0; n < column.size(); ++n) column[n] = static_cast<double>(unfolded.cost[n * E + e]);
  }
  return p;
}

// The function names interned at once (the same ids as one at a time, in the order first
// defined); functions whose names turn out equal (a name defined under two ids, or both
// written out and defined), in one object, merged into the first. Returns the names.
inline symbol_table callgrind_parser::merge_functions() {
  symbol_table read;
  std::vector<std::string_view> texts(fn_text_ends_.size());
  for (std::size_t i = 0, begin = 0; i < texts.size(); begin = fn_text_ends_[i++])
    texts[i] = std::string_view(fn_text_).substr(begin, fn_text_ends_[i] - begin);
  const std::vector<frame_id> interned = read.intern_all(texts);
  std::string().swap(fn_text_);
  std::vector<std::size_t>().swap(fn_text_ends_);
  if (read.method_count() - 1 == texts.size()) {
    for (std::uint32_t& n : fn_names_) n = static_cast<std::uint32_t>(interned[n]);
    return read;
  }
  std::unordered_map<std::uint64_t, std::uint32_t> kept;  // name << 32 | object -> function
  std::vector<std::uint32_t> into(fn_names_.size());
  std::uint32_t count = 0;
  for (std::size_t f = 0; f < fn_names_.size(); ++f) {
    const auto n = static_cast<std::uint32_t>(interned[fn_names_[f]]), ob = fn_objects_[f];
    auto [it, added] = kept.try_emplace((std::uint64_t{n} << 32) | ob, count);
    if (added) {
      fn_names_[count] = n;
      fn_objects_[count++] = ob;
    }
    into[f] = it->second;
  }
  fn_names_.resize(count);
  fn_objects_.resize(count);
  for (std::uint32_t& f : caller_) f = into[f];
  for (std::uint32_t& f : callee_) f = into[f];
  for (std::uint32_t& f : block_function_) f = into[f];
  return read;
}

// Frames: the function's name; where functions of several objects share it, `name (object)`
// (then `#2`, `#3`... should that still collide with a function's own name). When every name
// read is one function's, the table read becomes the profile's, so that no name is hashed
// twice; otherwise a table of the frames alone is made. Returns the table and each
// function's frame.
inline std::pair<symbol_table, std::vector<frame_id>> callgrind_parser::frames_of(symbol_table read) const {
  const std::size_t F = fn_names_.size();
  std::vector<frame_id> frame(F);
  symbol_table symbols;
  std::vector<std::uint32_t> uses(read.frame_count(), 0);
  for (std::uint32_t n : fn_names_) ++uses[n];
  if (std::all_of(uses.begin() + 1, uses.end(), [](std::uint32_t u) { return u == 1; })) {
    for (std::size_t f = 0; f < F; ++f) frame[f] = frame_id{fn_names_[f]};
    return {std::move(read), std::move(frame)};
  }
  for (std::size_t f = 0; f < F; ++f)  // first, so that no `name (object)` takes one
    if (uses[fn_names_[f]] == 1) frame[f] = symbols.intern(read.name(frame_id{fn_names_[f]}));
  std::string n;
  for (std::size_t f = 0; f < F; ++f) {
    if (uses[fn_names_[f]] == 1) continue;
    n.assign(read.name(frame_id{fn_names_[f]})).append(" (").append(objects_.name(frame_id{fn_objects_[f]})).append(")");
    std::string base = n;
    for (std::size_t i = 2; symbols.find(n); ++i) n = base + " #" + std::to_string(i);
    frame[f] = symbols.intern(n);
  }
  return {std::move(symbols), std::move(frame)};
}

template <class Read>
profile read_callgrind_from(Read&& read, const callgrind_options& options) {
  callgrind_parser parser(options);
  for_each_line(read, options.max_line_bytes,
                [&](std::string_view line, std::uint64_t number) { parser.line(line, number); });
  profile p = parser.finish();
  p.shrink_to_fit();
  return p;
}

}  // namespace detail

/// True if `start` (the first bytes of a file) reads as callgrind output: it starts with
/// `# callgrind format`, or, before any `fn=` line, has an `events:` line. O(length).
[[nodiscard]] constexpr bool looks_like_callgrind(std::string_view start) noexcept {
  if (start.substr(0, 18) == "# callgrind format") return true;
  for (std::size_t pos = 0; pos < start.size();) {
    std::size_t nl = start.find('\n', pos);
    std::string_view line = start.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    if (line.substr(0, 7) == "events:") return true;
    if (line.substr(0, 3) == "fn=") return false;
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  return false;
}

/// Reads valgrind's callgrind format (`valgrind --tool=callgrind`, `callgrind.out.<pid>`;
/// also what other tools write in it): a call graph, unfolded into a calling context tree.
///
/// - Metrics: one column per event of `events:`, named as the event (`Ir`, `Dr`, ...), all
///   integers. The costs of every `part:` add up (all parts must name the same events).
/// - Graph: a function's cost lines are its self cost; the cost line after `calls=` is the
///   inclusive cost of those calls, charged to the edge caller -> `cfn=` callee. Functions
///   are told apart by name and object (`fn=` under the current `ob=`; a callee's object is
///   `cob=` if given for that call, else the caller's). The frame is the name as written
///   (`fib'2` for callgrind's second recursion level); a name several objects' functions
///   share becomes `name (object)`. Positions and files (`fl= fi= fe= cfi= cfl=`) are
///   checked but not kept. Name compression `(id) name` / `(id)`, subposition compression
///   `+n -n *`, hex numbers and omitted trailing costs are understood; a caller's calls to one
///   callee in several blocks add up.
/// - Tree: cycles are cut first (a depth-first search from the functions nobody calls, then
///   from the rest in file order; an edge back to a function on the search path, a recursive
///   call, is cut and its cost dropped: it is already counted in the callee's own self cost
///   and edges). A function no kept edge calls is a root context, under the synthetic root,
///   weighted by its self cost plus its kept edges. Then, in topological order, each
///   function's self cost and each kept edge's cost are split among the function's contexts
///   in proportion to the contexts' weights, per event, exactly (integer floors, the rest one
///   unit at a time to the largest remainders); an edge's share becomes the weight of the
///   callee's context under that context (none is made where the share is zero in every
///   event; a function left with no context is a root). So each function's self cost lands whole in the
///   tree: per event, the sum of self costs over all nodes equals the sum of the file's self
///   cost lines, which callgrind writes as `totals:` (and, without a cache simulation, as
///   `summary:`). In a call graph without recursion a context's inclusive cost is its weight
///   (up to one unit of rounding per split below it),
///   as speedscope's importer computes it (which prunes small subtrees and turns cut edges
///   into self cost; this reader does neither). The split is an estimate: callgrind does not
///   record which caller's call cost what.
/// - Errors throw ccrc::parse_error naming the line: a line of no known kind, an unknown
///   `key=`, a number that is not decimal or 0x-hex or is over 2^64, a sum of costs over 2^53,
///   more costs than events, too few positions, a cost before `events:` or `fn=`, `calls=`
///   without `cfn=` or not followed by its cost line, `(id)` before its definition, a
///   function name with control characters or invalid UTF-8, a line over max_line_bytes.
///   More than options.max_contexts contexts throws ccrc::capacity_error.
///
/// O(bytes) to read the graph, then O(contexts x events) to unfold it; memory
/// O(graph + tree).
///
///     ccrc::profile p = ccrc::read_callgrind(
///         "events: Ir\nfn=main\n1 5\ncfn=f\ncalls=2 10\n1 30\nfn=f\n10 30\n");
///     // main: Ir 5; main;f: Ir 30
[[nodiscard]] inline profile read_callgrind(std::string_view text, const callgrind_options& options = {}) {
  return detail::read_callgrind_from(detail::memory_source{text}, options);
}

/// read_callgrind from a stream.
[[nodiscard]] inline profile read_callgrind(std::istream& in, const callgrind_options& options = {}) {
  return detail::read_callgrind_from(detail::stream_source{&in}, options);
}

/// read_callgrind from a file; throws ccrc::error if it cannot be opened or shrinks
/// while it is read (detail::file_source).
[[nodiscard]] inline profile read_callgrind_file(const std::filesystem::path& path, const callgrind_options& options = {}) {
  return detail::read_callgrind_from(detail::file_source(path), options);
}

}  // namespace ccrc
