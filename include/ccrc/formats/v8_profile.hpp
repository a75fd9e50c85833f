// ccrc - V8's profiles: Chrome/Node `.cpuprofile`, Node's `.heapprofile` and the old
// v8-profiler CPU format. Their node tree is the calling context tree, read one node to one
// context.
#pragma once

#include <ccrc/detail/line_reader.hpp>
#include <ccrc/detail/text.hpp>
#include <ccrc/error.hpp>
#include <ccrc/formats/json.hpp>
#include <ccrc/tree/profile.hpp>
#include <ccrc/tree/symbol_table.hpp>

#include <simdjson.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <istream>
#include <functional>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ccrc {

/// Options of the V8 profile reader.
struct v8_profile_options {
  /// The deepest context (the root's children are at depth 1) the nested forms (`head`:
  /// .heapprofile, the old format) may hold; a deeper one is an error. simdjson keeps about 17 bytes per level of JSON nesting (two a
  /// tree level), allocated for min(this, bytes / 8) levels. The `nodes` form has no limit.
  std::size_t max_depth = std::size_t{1} << 20;
  /// The `nodes`, `samples` and `timeDeltas` (`timestamps`) arrays are parsed in pieces of
  /// about this many bytes (whole elements), so that simdjson's buffers follow the piece, not
  /// the profile. The result does not depend on it; tests make it tiny.
  std::size_t piece_bytes = std::size_t{1} << 20;
};

namespace detail {

// Which of V8's profile shapes a document was read as.
enum class v8_profile_kind {
  cpuprofile,      ///< `{nodes, samples, timeDeltas, startTime, endTime}` (DevTools, `node --cpu-prof`)
  heapprofile,     ///< `{head, samples:[{size, nodeId, ordinal}]}` (`node --heap-prof`)
  old_cpuprofile,  ///< `{head, samples, timestamps, startTime, endTime}` (the old v8-profiler)
};

inline constexpr std::uint32_t v8_none = std::numeric_limits<std::uint32_t>::max();
static_assert(v8_none == null_node, "a sample of no node is not counted, whether weighed by node or by context");

// The fields of one node object that make its name.
struct v8_pending {
  std::string_view function_name, url;
  std::int64_t line = 0, column = 0;
  bool has_line = false, has_column = false;
  bool in_call_frame = false;  // the names came from a `callFrame` object (0-based lines)
  bool has_id = false, has_self_size = false;
};

enum class v8_node_key { other, id, call_frame, hit_count, self_size, children, parent, function_name, url, line, column };

// Which field of a node (or of its callFrame) `k` names: by length, then bytes.
[[nodiscard]] inline v8_node_key v8_classify(std::string_view k) noexcept {
  // A constant length, so that the compare is inlined (called only when the lengths agree).
  auto eq = [&]<std::size_t N>(const char (&name)[N]) { return std::memcmp(k.data(), name, N - 1) == 0; };
  switch (k.size()) {
    case 2: return eq("id") ? v8_node_key::id : v8_node_key::other;
    case 3: return eq("url") ? v8_node_key::url : v8_node_key::other;
    case 6: return eq("parent") ? v8_node_key::parent : v8_node_key::other;
    case 8:
      if (eq("hitCount")) return v8_node_key::hit_count;
      if (eq("children")) return v8_node_key::children;
      if (eq("selfSize")) return v8_node_key::self_size;
      return v8_node_key::other;
    case 9: return eq("callFrame") ? v8_node_key::call_frame : v8_node_key::other;
    case 10: return eq("lineNumber") ? v8_node_key::line : v8_node_key::other;
    case 12:
      if (eq("functionName")) return v8_node_key::function_name;
      if (eq("columnNumber")) return v8_node_key::column;
      return v8_node_key::other;
    default: return v8_node_key::other;
  }
}

// The same for a field, its key's bytes compared in place: V8 writes its keys without
// escapes, so the key of a field is neither measured nor copied (a key V8 writes and this
// reader ignores is told too). Any other key is unescaped and told as above.
[[nodiscard]] inline v8_node_key v8_classify(const formats::detail::json_cursor& j, simdjson::ondemand::field& f) {
  const char* raw = f.key().raw();
  // Reading N bytes at most is safe: the document is padded, and a shorter key differs at
  // its closing quote.
  auto is = [&]<std::size_t N>(const char (&name)[N]) { return std::memcmp(raw, name, N - 1) == 0 && raw[N - 1] == '"'; };
  switch (raw[0]) {
    case 'c':
      if (is("callFrame")) return v8_node_key::call_frame;
      if (is("children")) return v8_node_key::children;
      if (is("columnNumber")) return v8_node_key::column;
      if (is("codeType")) return v8_node_key::other;
      break;
    case 'f':
      if (is("functionName")) return v8_node_key::function_name;
      break;
    case 'h':
      if (is("hitCount")) return v8_node_key::hit_count;
      break;
    case 'i':
      if (is("id")) return v8_node_key::id;
      break;
    case 'l':
      if (is("lineNumber")) return v8_node_key::line;
      break;
    case 'p':
      if (is("parent")) return v8_node_key::parent;
      if (is("positionTicks")) return v8_node_key::other;
      break;
    case 's':
      if (is("selfSize")) return v8_node_key::self_size;
      if (is("scriptId")) return v8_node_key::other;
      break;
    case 'u':
      if (is("url")) return v8_node_key::url;
      break;
    default:
      break;
  }
  return v8_classify(j.key(f));
}

// V8's profile tree as its writers give it, node by node, then added to a profile one node to
// one context: read_v8_profile's `nodes` and `head` and read_trace_events' ProfileChunk events
// (a DevTools trace's CPU profiles) share it, so that both name, link and weigh nodes alike.
// Names are interned in the symbol table given, which must be the one of the profile the tree
// is added to (or moved into it first).
//
// The nodes are held column by column, and each column is freed once nothing needs it, so that
// a reader holds, besides the text, little more than twice the finished tree: a node's id and
// its children's ids until link(); the index of ids until checked(); its byte only where
// no locator can find it again (see locate_with), until checked().
class v8_node_tree {
  using cursor = formats::detail::json_cursor;

 public:
  // Finds the byte of node i's '{' again, on an error, in place of recording every node's.
  using locator = std::function<std::uint64_t(std::uint32_t)>;

  explicit v8_node_tree(symbol_table& names) noexcept : names_(&names) {}

  // Node bytes are found by `where` rather than recorded. Before the first node.
  void locate_with(locator where) { locate_ = std::move(where); }

  [[nodiscard]] std::size_t size() const noexcept { return frames_.size(); }

  // Each node's hitCount (CPU) or selfSize (heap), taken from the tree.
  [[nodiscard]] std::vector<double> take_selves() noexcept { return std::move(selves_); }

  // One element of a `nodes` array: `{id, callFrame, hitCount, children}` or with `parent`.
  void flat_node(const cursor& j, simdjson::ondemand::value& n) {
    std::uint64_t at = j.offset(n.raw_json_token().data());
    simdjson::ondemand::object o = j.object(n, "a node");
    auto index = new_node(at, v8_none);
    children_begin_.push_back(static_cast<std::uint32_t>(child_ids_.size()));
    v8_pending p;
    for (auto field_result : o) {
      simdjson::ondemand::field f;
      if (auto e = std::move(field_result).get(f)) j.fail_here("malformed node object", e);
      v8_node_key k = v8_classify(j, f);
      simdjson::ondemand::value& fv = f.value();
      if (k == v8_node_key::children) {
        for (auto c : j.array(fv, "\"children\"")) {
          simdjson::ondemand::value cv;
          if (auto e = c.get(cv)) j.fail_here("malformed \"children\" array", e);
          child_ids_.push_back(j.integer(cv, "a child id"));
        }
        if (child_ids_.size() >= v8_none) throw capacity_error("too many children in a V8 profile");
      } else if (k == v8_node_key::parent) {
        // Most files name children, not parents: the table of parent ids is made when needed.
        if (has_parent_id_.empty()) {
          parent_ids_.resize(size());
          has_parent_id_.resize(size());
        }
        parent_ids_[index] = j.integer(fv, "\"parent\"");
        has_parent_id_[index] = true;
      } else {
        node_field(j, k, fv, p, index);
      }
    }
    finish_node(p, index);
  }

  std::uint32_t new_node(std::uint64_t at, std::uint32_t parent) {
    if (size() >= max_nodes - 1) throw capacity_error("a V8 profile with more nodes than a tree holds");
    ids_.push_back(0);
    parents_.push_back(parent);
    frames_.push_back(null_frame);
    selves_.push_back(0);
    if (!locate_) offsets_.push_back(at);
    if (!has_parent_id_.empty()) {
      parent_ids_.push_back(0);
      has_parent_id_.push_back(false);
    }
    return static_cast<std::uint32_t>(size() - 1);
  }

  // A field of a node other than `children` and `parent`.
  void node_field(const cursor& j, v8_node_key k, simdjson::ondemand::value& v, v8_pending& p, std::uint32_t index) {
    if (k == v8_node_key::id) {
      ids_[index] = j.integer(v, "a node's \"id\"");
      p.has_id = true;
    } else if (k == v8_node_key::call_frame) {
      p.in_call_frame = true;
      for (auto field_result : j.object(v, "\"callFrame\"")) {
        simdjson::ondemand::field f;
        if (auto e = std::move(field_result).get(f)) j.fail_here("malformed \"callFrame\" object", e);
        call_frame_field(j, v8_classify(j, f), f.value(), p);
      }
    } else if (k == v8_node_key::hit_count) {
      selves_[index] = j.count(v, "\"hitCount\"");
    } else if (k == v8_node_key::self_size) {
      selves_[index] = j.count(v, "\"selfSize\"");
      p.has_self_size = true;
    } else {
      call_frame_field(j, k, v, p);  // the old format puts the frame's fields on the node
    }
  }

  // Names the node: `functionName url:line:col`, 1-based. A `callFrame` (the DevTools
  // protocol's Runtime.CallFrame) counts from 0, -1 for none; fields on the node itself (the
  // old format, written from V8's C++ API) count from 1, 0 for none.
  void finish_node(const v8_pending& p, std::uint32_t index) {
    if (!p.has_id) cursor::fail_at(offset(index), "a node without an \"id\"");
    name_.assign(p.function_name.empty() ? std::string_view("(anonymous)") : p.function_name);
    if (!p.url.empty()) {
      name_ += ' ';
      name_ += p.url;
      std::int64_t base = p.in_call_frame ? 1 : 0;
      if (p.has_line && p.line + base > 0) {
        append_number(':', p.line + base);
        if (p.has_column && p.column + base > 0) append_number(':', p.column + base);
      }
    }
    if (auto f = names_->find(name_)) {
      frames_[index] = *f;
      return;
    }
    if (const char* why = check_name_text(name_)) cursor::fail_at(offset(index), "frame name " + std::string(why));
    frames_[index] = names_->intern(name_);
  }

  // Indexes the ids (duplicates are an error) and, for the `nodes` form, sets each node's
  // parent from `parent` fields and `children` lists, checked to agree. The ids, parent ids
  // and children lists are then freed: ids are found in the index thereafter.
  void link(bool flat) {
    index_ids();
    if (flat) link_parents();
    free(ids_);
    free(child_ids_);
    free(children_begin_);
    free(parent_ids_);
    std::vector<bool>().swap(has_parent_id_);
  }

  // The node index of an id, or v8_none. Between link() and checked().
  [[nodiscard]] std::uint32_t lookup(std::int64_t id) const noexcept {
    if (!sorted_ids_.empty()) {
      auto it = std::lower_bound(sorted_ids_.begin(), sorted_ids_.end(), std::pair<std::int64_t, std::uint32_t>(id, 0));
      return it != sorted_ids_.end() && it->first == id ? it->second : v8_none;
    }
    if (id < 0 || static_cast<std::uint64_t>(id) >= by_id_.size()) return v8_none;
    return by_id_[static_cast<std::size_t>(id)];
  }

  // Every check that names a node is done (root(), order(), the samples' lookup()): frees the
  // index of ids and the nodes' bytes.
  void checked() {
    free(by_id_);
    free(sorted_ids_);
    free(offsets_);
  }

  // The root's index: the one node without a parent, named `(root)`; `nodes_at` is the
  // offset for a tree without nodes. After link().
  std::uint32_t root(std::uint64_t nodes_at) const {
    std::uint32_t r = v8_none;
    for (std::uint32_t i = 0; i < size(); ++i) {
      if (parents_[i] != v8_none) continue;
      if (r != v8_none)
        cursor::fail_at(offset(i), node_name(i) + " has no parent, and neither has " + node_name(r) + ": a profile has one root");
      r = i;
    }
    if (size() == 0) cursor::fail_at(nodes_at, "no nodes: a V8 profile has at least its (root) node");
    if (r == v8_none) cursor::fail_at(offset(0), "no (root) node: every node has a parent, so the parents form a cycle");
    if (names_->name(frames_[r]) != "(root)")
      cursor::fail_at(offset(r), "the root node (without a parent) is '" + std::string(names_->name(frames_[r])) +
                                      "', not '(root)'");
    return r;
  }

  // The order in which add_to() adds the nodes, parents first, children in the order read,
  // from `root`: empty where that is the order read (as V8 writes them), so that nothing need
  // be held. Throws for a node the root does not reach (the parents form a cycle). After
  // link(), before checked(). O(nodes), no recursion.
  [[nodiscard]] std::vector<std::uint32_t> order(std::uint32_t root) const {
    if (in_preorder(root)) return {};
    const std::size_t n = size();
    // Children of each node in the order read (CSR), then a pre-order walk from the root.
    std::vector<std::uint32_t> first(n + 1, 0), kids(n);
    for (std::uint32_t parent : parents_)
      if (parent != v8_none) ++first[parent + 1];
    for (std::size_t i = 0; i < n; ++i) first[i + 1] += first[i];
    {
      std::vector<std::uint32_t> fill(first.begin(), first.end() - 1);
      for (std::uint32_t i = 0; i < n; ++i)
        if (parents_[i] != v8_none) kids[fill[parents_[i]]++] = i;
    }
    std::vector<std::uint32_t> walk, stack{root};
    walk.reserve(n);
    while (!stack.empty()) {
      std::uint32_t i = stack.back();
      stack.pop_back();
      walk.push_back(i);
      for (std::uint32_t k = first[i + 1]; k > first[i]; --k) stack.push_back(kids[k - 1]);
    }
    if (walk.size() != n) {
      std::vector<bool> reached(n, false);
      for (std::uint32_t i : walk) reached[i] = true;
      for (std::uint32_t i = 0; i < n; ++i)
        if (!reached[i])
          cursor::fail_at(offset(i), node_name(i) + " is not reachable from the root: its parents form a cycle");
    }
    return walk;
  }

  // Adds the tree to `p` in `order` (from order(root); empty: as read), its first node as
  // context `under` and every other node as a new context (a sibling of the same frame gets
  // call site 2, 3, ...). Returns each node's context, made in place of its parent (each
  // node's parent is added before it): the tree cannot be added twice. O(nodes). Reserves
  // nothing: a profile that receives many trees (a trace's CPU profiles) grows by doubling,
  // where reserving each tree's room would copy the profile once per tree.
  std::vector<node_id> add_to(profile& p, std::span<const std::uint32_t> order, node_id under) && {
    const std::size_t n = size();
    std::vector<node_id> context = std::move(parents_);
    auto add = [&](std::uint32_t i) { context[i] = add_distinct_child(p, context[context[i]], frames_[i], next_site_); };
    if (order.empty()) {
      context[0] = under;
      for (std::uint32_t i = 1; i < n; ++i) add(i);
    } else {
      context[order[0]] = under;
      for (std::size_t k = 1; k < n; ++k) add(order[k]);
    }
    return context;
  }

  // Call sites already given to twin siblings, by (parent, frame): the next one to give.
  using site_map = std::unordered_map<std::uint64_t, std::uint32_t>;

  // A new child of `parent` with frame `f`, even where a sibling has that frame: the second
  // such sibling gets call site 2, the third 3, ...
  static node_id add_distinct_child(profile& p, node_id parent, frame_id f, site_map& sites) {
    std::size_t before = p.size();
    node_id c = p.find_or_add_child(parent, f);
    if (p.size() != before) return c;
    std::uint32_t& next = sites.try_emplace((std::uint64_t{parent} << 32) | std::uint32_t{f}, 2).first->second;
    for (;;) {  // more than once only where a sited frame of that name is a sibling already
      frame_id sited = p.symbols().intern(p.symbols().name(f), next);
      ++next;
      before = p.size();
      c = p.find_or_add_child(parent, sited);
      if (p.size() != before) return c;
    }
  }

 private:
  template <class T>
  static void free(std::vector<T>& v) noexcept {
    std::vector<T>().swap(v);
  }

  [[nodiscard]] std::uint64_t offset(std::uint32_t i) const { return locate_ ? locate_(i) : offsets_[i]; }

  // "node ID", for errors: its id while ids are held, then found in the index (O(nodes)).
  [[nodiscard]] std::string node_name(std::uint32_t i) const {
    auto named = [](std::int64_t id) { return "node " + std::to_string(id); };
    if (!ids_.empty()) return named(ids_[i]);
    for (const auto& [id, index] : sorted_ids_)
      if (index == i) return named(id);
    for (std::size_t id = 0; id < by_id_.size(); ++id)
      if (by_id_[id] == i) return named(static_cast<std::int64_t>(id));
    return "node " + std::to_string(i + 1) + " of the array";
  }

  // Whether the nodes are in depth-first preorder from `root`, children in the order read:
  // each node's parent is the node before it or one of that node's ancestors. O(nodes).
  [[nodiscard]] bool in_preorder(std::uint32_t root) const {
    if (root != 0) return false;
    std::vector<std::uint32_t> path{root};  // the last node's ancestors and itself
    for (std::size_t i = 1; i < size(); ++i) {
      while (!path.empty() && path.back() != parents_[i]) path.pop_back();
      if (path.empty()) return false;
      path.push_back(static_cast<std::uint32_t>(i));
    }
    return true;
  }

  void call_frame_field(const cursor& j, v8_node_key k, simdjson::ondemand::value& v, v8_pending& p) {
    if (k == v8_node_key::function_name) {
      p.function_name = j.string(v, "\"functionName\"");
    } else if (k == v8_node_key::url) {
      p.url = j.string(v, "\"url\"");
    } else if (k == v8_node_key::line) {
      p.line = j.integer(v, "\"lineNumber\"");
      p.has_line = true;
    } else if (k == v8_node_key::column) {
      p.column = j.integer(v, "\"columnNumber\"");
      p.has_column = true;
    }
  }

  void append_number(char before, std::int64_t x) {
    char digits[24];
    digits[0] = before;
    auto end = std::to_chars(digits + 1, digits + sizeof digits, x).ptr;
    name_.append(digits, static_cast<std::size_t>(end - digits));
  }

  // Node index of each id: a table indexed by id when the ids are small (V8 numbers them
  // 1..n), else sorted (id, index) pairs. Duplicate ids are an error.
  void index_ids() {
    const std::size_t n = size();
    std::int64_t most = 0;
    bool small = true;
    for (std::int64_t id : ids_) {
      if (id < 0) small = false;
      most = std::max(most, id);
    }
    small = small && static_cast<std::uint64_t>(most) < 2 * n + 1024;
    auto duplicate = [&](std::uint32_t later) {
      cursor::fail_at(offset(later), "two nodes with id " + std::to_string(ids_[later]));
    };
    if (small) {
      by_id_.assign(static_cast<std::size_t>(most) + 1, v8_none);
      for (std::uint32_t i = 0; i < n; ++i) {
        auto& slot = by_id_[static_cast<std::size_t>(ids_[i])];
        if (slot != v8_none) duplicate(i);
        slot = i;
      }
      return;
    }
    sorted_ids_.reserve(n);
    for (std::uint32_t i = 0; i < n; ++i) sorted_ids_.emplace_back(ids_[i], i);
    std::sort(sorted_ids_.begin(), sorted_ids_.end());
    for (std::size_t i = 1; i < n; ++i)
      if (sorted_ids_[i].first == sorted_ids_[i - 1].first) duplicate(sorted_ids_[i].second);
  }

  // Parents from `parent` fields and `children` lists (the `nodes` form), checked to agree.
  void link_parents() {
    const std::size_t n = size();
    for (std::uint32_t i = 0; i < has_parent_id_.size(); ++i) {
      if (!has_parent_id_[i]) continue;
      parents_[i] = lookup(parent_ids_[i]);
      if (parents_[i] == v8_none)
        cursor::fail_at(offset(i), node_name(i) + ": parent id " + std::to_string(parent_ids_[i]) + " is not a node's id");
    }
    std::vector<bool> listed(n, false);
    for (std::uint32_t i = 0; i < n; ++i) {
      const std::uint32_t children_end = i + 1 < n ? children_begin_[i + 1] : static_cast<std::uint32_t>(child_ids_.size());
      for (std::uint32_t k = children_begin_[i]; k < children_end; ++k) {
        std::uint32_t c = lookup(child_ids_[k]);
        if (c == v8_none)
          cursor::fail_at(offset(i), node_name(i) + ": child id " + std::to_string(child_ids_[k]) + " is not a node's id");
        if (listed[c])
          cursor::fail_at(offset(i), node_name(i) + ": " + node_name(c) + " is already a child of " + node_name(parents_[c]));
        if (parents_[c] != v8_none && parents_[c] != i)
          cursor::fail_at(offset(i), node_name(i) + ": child " + std::to_string(ids_[c]) + " names " +
                                          node_name(parents_[c]) + " as its parent");
        parents_[c] = i;
        listed[c] = true;
      }
    }
  }

  symbol_table* names_;
  // By node, in the order read.
  std::vector<std::int64_t> ids_;
  std::vector<std::uint32_t> parents_;  // index, when known from nesting or once linked
  std::vector<frame_id> frames_;
  std::vector<double> selves_;               // hitCount (CPU) or selfSize (heap)
  std::vector<std::uint32_t> children_begin_;  // its children in child_ids_ (`nodes` form), up to the next node's
  std::vector<std::uint64_t> offsets_;       // byte of its '{', unless locate_ finds it
  locator locate_;
  std::vector<std::int64_t> child_ids_;
  std::vector<std::int64_t> parent_ids_;  // by node, once a node has a `parent` field
  std::vector<bool> has_parent_id_;
  std::string name_;
  std::vector<std::uint32_t> by_id_;
  std::vector<std::pair<std::int64_t, std::uint32_t>> sorted_ids_;
  site_map next_site_;
};

// Weighs samples as read_v8_profile does, one at a time in time order: a sample of slot
// `slot` (a node or a context; null_node: not counted) adds 1 to `samples` and, where `time`
// is given, the time to the next sample (a negative gap counts 0), the last one the time to
// `*end` where finish() is given an end, else 0. O(1) a sample.
class v8_sample_weights {
 public:
  v8_sample_weights(std::span<double> samples, std::span<double> time) noexcept : samples_(samples), time_(time) {}

  // False where the sample's time, or its gap from the previous one, is not finite.
  bool add(node_id slot, double at = 0) {
    if (!time_.empty()) {
      if (!std::isfinite(at) || (count_ != 0 && !weigh_last(at))) return false;
      last_at_ = at;
    }
    if (slot != null_node) samples_[slot] += 1;
    last_ = slot;
    ++count_;
    return true;
  }

  // Weighs the last sample. False where its weight is not finite.
  bool finish(const double* end) { return time_.empty() || count_ == 0 || weigh_last(end ? *end : last_at_); }

  // The sample whose weight was not finite, once add() or finish() returned false.
  [[nodiscard]] std::size_t failed_sample() const noexcept { return count_ == 0 ? 0 : count_ - 1; }

 private:
  bool weigh_last(double next) {
    const double w = next - last_at_;
    if (!std::isfinite(next) || !std::isfinite(w)) return false;
    if (last_ != null_node) time_[last_] += w > 0 ? w : 0;
    return true;
  }

  std::span<double> samples_, time_;
  node_id last_ = null_node;
  double last_at_ = 0;
  std::size_t count_ = 0;
};

class v8_reader {
  using cursor = formats::detail::json_cursor;

 public:
  v8_reader(const formats::json_text& text, const v8_profile_options& options)
      : text_(text.bytes()), max_levels_(options.max_depth), cursor_(text_, options.piece_bytes) {}

  // The top-level object is scanned for its structure (formats/json.hpp): its arrays go to
  // simdjson in pieces, `head` and the scalars each as a document of its own, the other
  // members are skipped (strings and brackets balanced) and checked to be UTF-8.
  profile read() {
    std::size_t open = skip_space(0);
    if (open == text_.size() || text_[open] != '{') cursor::fail_at(0, "a V8 profile is a JSON object");
    std::size_t end = formats::detail::walk_json_object(text_, open, [&](std::string_view key, std::size_t value) {
      return member(key, value);
    });
    cursor_.check_utf8_to(end);
    if (std::size_t after = skip_space(end); after < text_.size())
      cursor::fail_at(after, "text after the profile's JSON object");
    if (!seen_nodes_ && !seen_head_)
      cursor::fail_at(0, "neither \"nodes\" (.cpuprofile) nor \"head\" (.heapprofile, old v8-profiler format) at the top level");
    if (seen_deltas_ && seen_timestamps_) cursor::fail_at(times_offset_, "both \"timeDeltas\" and \"timestamps\"");
    if (seen_nodes_) kind_ = v8_profile_kind::cpuprofile;
    else kind_ = head_has_self_size_ ? v8_profile_kind::heapprofile : v8_profile_kind::old_cpuprofile;
    cursor_.release();  // nothing is parsed after: its buffers need not wait for the tree
    return build();
  }

  [[nodiscard]] v8_profile_kind kind() const noexcept { return kind_; }

 private:
  [[nodiscard]] std::size_t skip_space(std::size_t i) const noexcept {
    return formats::detail::skip_json_space(text_, i);
  }

  [[noreturn]] static void both_forms() {
    cursor::fail_at(0, "both \"nodes\" (.cpuprofile) and \"head\" (.heapprofile, old v8-profiler format)");
  }

  // ---- the top level ------------------------------------------------------------------------

  // A member of the top-level object whose value starts at `value`: the byte after the value
  // if it was read, 0 to have it skipped. Keys written with escapes are not recognised.
  std::size_t member(std::string_view k, std::size_t value) {
    auto once = [&](bool& seen) {
      if (seen) cursor::fail_at(value, "\"" + std::string(k) + "\" appears twice");
      seen = true;
    };
    if (k == "nodes") {
      once(seen_nodes_);
      if (seen_head_) both_forms();
      nodes_offset_ = value;
      // A node's byte is found by walking the array again, on an error, rather than kept.
      nodes_.locate_with([this](std::uint32_t i) { return element_offset(nodes_offset_, i); });
      return array(value, "\"nodes\"", [&](const cursor& j, simdjson::ondemand::value& n) { nodes_.flat_node(j, n); });
    }
    if (k == "head") {
      once(seen_head_);
      if (seen_nodes_) both_forms();
      nodes_offset_ = value;
      return single_value(value, max_levels_, [&](const cursor& j, simdjson::ondemand::value& v, std::size_t depth) {
        nested_nodes(j, v, depth);
      });
    }
    if (k == "samples") {
      once(seen_samples_);
      samples_offset_ = value;
      if (sample_ids_.capacity() < times_.size()) sample_ids_.reserve(times_.size());  // as many, if the file is right
      return array(value, "\"samples\"", [&](const cursor& j, simdjson::ondemand::value& s) { sample(j, s); });
    }
    if (k == "timeDeltas" || k == "timestamps") {
      once(k == "timeDeltas" ? seen_deltas_ : seen_timestamps_);
      times_offset_ = value;
      const char* what = k == "timeDeltas" ? "timeDeltas" : "timestamps";
      if (times_.capacity() < sample_ids_.size()) times_.reserve(sample_ids_.size());
      return array(value, k == "timeDeltas" ? "\"timeDeltas\"" : "\"timestamps\"",
                   [&](const cursor& j, simdjson::ondemand::value& t) { times_.push_back(j.number(t, what)); });
    }
    if (k == "startTime" || k == "endTime") {
      const bool start = k == "startTime";
      once(start ? seen_start_ : has_end_time_);
      return single_value(value, 0, [&](const cursor& j, simdjson::ondemand::value& v, std::size_t) {
        (start ? start_time_ : end_time_) = j.number(v, start ? "startTime" : "endTime");
      });
    }
    return 0;
  }

  // The array whose '[' should be at `value`, `each(j, element)` per element, in pieces.
  template <class Each>
  std::size_t array(std::size_t value, const char* what, Each each) {
    if (value == text_.size() || text_[value] != '[') cursor::fail_at(value, std::string(what) + " is not an array");
    return cursor_.read(value, what, std::string("malformed ") + what + " array",
                        [&](simdjson::ondemand::value& v) { each(cursor_, v); });
  }

  // The value at `value` as a document of its own (`[value]`, copied and padded), for `head`
  // and the scalars: `read(j, v, max_depth)`, max_depth the JSON nesting its parser allows
  // for `levels` tree levels (a tree level is two JSON levels, an object and its children
  // array, and takes at least 13 bytes of text).
  template <class Read>
  std::size_t single_value(std::size_t value, std::size_t levels, Read read) {
    const std::size_t end = formats::detail::skip_json_value(text_, value);
    return cursor_.parsed(value, [&] {
      std::string bracketed;
      bracketed.reserve(end - value + 2);
      bracketed += '[';
      bracketed.append(text_, value, end - value);
      bracketed += ']';
      const formats::json_text copy(bracketed);
      const simdjson::padded_string_view json = copy.view();
      levels = std::min(levels, json.size() / 8);
      simdjson::ondemand::parser parser;
      if (auto e = parser.allocate(json.size(), 2 * levels + 64))
        cursor::fail_at(value, std::string("cannot parse this value (") + simdjson::error_message(e) + ")");
      simdjson::ondemand::document doc;
      if (auto e = parser.iterate(json).get(doc))
        cursor::fail_at(value, std::string("simdjson cannot take this document (") + simdjson::error_message(e) + ")");
      cursor_.enter({&doc, json, value - 1});
      simdjson::ondemand::array a;
      if (auto e = doc.get_array().get(a)) cursor_.fail_here("malformed JSON", e);
      for (auto element : a) {
        simdjson::ondemand::value v;
        if (auto e = element.get(v)) cursor_.fail_here("malformed JSON", e);
        read(cursor_, v, parser.max_depth());
      }
      return end;
    });
  }

  // `head`: the root node object, its children nested in `children` arrays. Walked with an
  // explicit stack of iterators, so the depth of the tree is bounded by memory, not by the
  // call stack.
  void nested_nodes(const cursor& j, simdjson::ondemand::value& head, std::size_t max_depth) {
    struct level {
      simdjson::ondemand::object_iterator field, fields_end;
      simdjson::ondemand::array_iterator child, children_end;
      std::uint32_t node = 0;
      v8_pending pending;
      bool in_children = false, child_open = false;
    };
    std::vector<level> stack;
    auto open = [&](simdjson::ondemand::value& v, std::uint32_t parent, const char* what) {
      std::uint64_t at = j.offset(v.raw_json_token().data());
      simdjson::ondemand::object o = j.object(v, what);
      level l;
      if (auto e = o.begin().get(l.field)) j.fail(v, what, e);
      if (auto e = o.end().get(l.fields_end)) j.fail(v, what, e);
      l.node = nodes_.new_node(at, parent);
      stack.push_back(l);
    };
    open(head, v8_none, "\"head\"");
    while (!stack.empty()) {
      level& l = stack.back();
      if (l.in_children) {
        if (l.child_open) {
          ++l.child;
          l.child_open = false;
        }
        if (l.child != l.children_end) {
          simdjson::ondemand::value c;
          if (auto e = (*l.child).get(c)) j.fail_here("malformed \"children\" array", e);
          if (stack.size() > max_levels_ || 2 * stack.size() + 8 >= max_depth)
            j.fail(c, "nodes nested deeper than " + std::to_string(max_levels_) + " levels (v8_profile_options::max_depth)");
          l.child_open = true;
          open(c, l.node, "a child node");  // invalidates l
          continue;
        }
        l.in_children = false;
        ++l.field;
        continue;
      }
      if (l.field != l.fields_end) {
        simdjson::ondemand::field f;
        if (auto e = (*l.field).get(f)) j.fail_here("malformed node object", e);
        v8_node_key k = v8_classify(j, f);
        simdjson::ondemand::value& fv = f.value();
        if (k == v8_node_key::children) {
          simdjson::ondemand::array a = j.array(fv, "\"children\"");
          if (auto e = a.begin().get(l.child)) j.fail(fv, "\"children\"", e);
          if (auto e = a.end().get(l.children_end)) j.fail(fv, "\"children\"", e);
          l.in_children = true;
          continue;
        }
        nodes_.node_field(j, k, fv, l.pending, l.node);
        ++l.field;
        continue;
      }
      if (l.node == 0) head_has_self_size_ = l.pending.has_self_size;
      nodes_.finish_node(l.pending, l.node);
      stack.pop_back();
    }
  }

  // An element of `samples`: a node id (CPU) or a {size, nodeId, ordinal} object (heap).
  void sample(const cursor& j, simdjson::ondemand::value& s) {
    simdjson::ondemand::json_type t;
    if (auto e = s.type().get(t)) j.fail(s, "a sample", e);
    bool is_object = t == simdjson::ondemand::json_type::object;
    if (sample_ids_.empty()) samples_are_objects_ = is_object;
    else if (is_object != samples_are_objects_) j.fail(s, "samples mix node ids and objects");
    if (!is_object) {
      sample_ids_.push_back(j.integer(s, "a sample's node id"));
      return;
    }
    bool found = false;
    for (auto field_result : j.object(s, "a sample")) {
      simdjson::ondemand::field f;
      if (auto e = std::move(field_result).get(f)) j.fail_here("malformed sample object", e);
      if (j.key(f) == "nodeId") {
        sample_ids_.push_back(j.integer(f.value(), "a sample's \"nodeId\""));
        found = true;
      }
    }
    if (!found) j.fail(s, "a sample object without \"nodeId\"");
  }

  // The byte of the i-th element of the array at `array_at`, found by scanning the array
  // again (only on an error, so that no offset is stored per node or sample).
  [[nodiscard]] std::uint64_t element_offset(std::size_t array_at, std::size_t i) const noexcept {
    std::size_t at = array_at + 1;
    for (std::size_t k = 0; k < i; ++k) {
      auto cut = formats::detail::find_array_cut(text_, at, at);
      if (cut.what != formats::detail::array_cut::stop::comma) return array_at;
      at = cut.at + 1;
    }
    return skip_space(at);
  }

  // ---- building the tree --------------------------------------------------------------------

  // Everything that can be wrong is found before the tree is built, and the samples are
  // summed by node, so that only the nodes' parents, frames and two metrics are held while it
  // is built.
  profile build() {
    nodes_.link(kind_ == v8_profile_kind::cpuprofile);
    const std::uint32_t root = nodes_.root(nodes_offset_);
    const std::vector<std::uint32_t> order = nodes_.order(root);
    const std::size_t n = nodes_.size();
    const bool cpu = kind_ != v8_profile_kind::heapprofile;

    // Metrics by node. Without `samples`, a CPU profile's samples are the nodes' hitCount.
    std::vector<double> first = nodes_.take_selves(), second;
    if (seen_samples_) {
      std::vector<std::uint32_t> sampled = sampled_nodes(cpu);
      second.assign(n, 0);
      if (cpu) {
        std::fill(first.begin(), first.end(), 0.0);
        add_times(sampled, first, second);
      } else {
        v8_sample_weights allocations(second, {});
        for (std::uint32_t node : sampled) allocations.add(node);
      }
    }
    nodes_.checked();

    std::vector<std::string> metrics;
    if (cpu) metrics = seen_samples_ ? std::vector<std::string>{"samples", "time_us"} : std::vector<std::string>{"samples"};
    else metrics = seen_samples_ ? std::vector<std::string>{"bytes", "allocations"} : std::vector<std::string>{"bytes"};
    profile p(std::move(tree_), std::move(metrics));
    p.reserve(n);
    const std::vector<node_id> context = std::move(nodes_).add_to(p, order, root_node);
    auto fill = [&](std::size_t metric, const std::vector<double>& by_node) {
      auto column = p.column(metric);
      for (std::uint32_t i = 0; i < n; ++i) column[context[i]] = by_node[i];
    };
    fill(0, first);
    if (seen_samples_) fill(1, second);
    return p;
  }

  // The node of each sample (v8_none, which is null_node, for a heap sample of a node not in
  // the tree); the ids are freed. Throws for a CPU sample whose id is no node's.
  std::vector<std::uint32_t> sampled_nodes(bool cpu) {
    if (samples_are_objects_ != !cpu && !sample_ids_.empty())
      cursor::fail_at(element_offset(samples_offset_, 0), cpu ? "a CPU profile's samples are node ids, not objects"
                                             : "a heap profile's samples are {size, nodeId, ordinal} objects, not node ids");
    std::vector<std::uint32_t> sampled(sample_ids_.size());
    for (std::size_t s = 0; s < sample_ids_.size(); ++s) {
      sampled[s] = nodes_.lookup(sample_ids_[s]);
      if (sampled[s] == v8_none && cpu)
        cursor::fail_at(element_offset(samples_offset_, s), "sample " + std::to_string(s) + ": node id " + std::to_string(sample_ids_[s]) +
                                               " is not a node's id");
    }
    std::vector<std::int64_t>().swap(sample_ids_);
    return sampled;
  }

  // time_us: each sample weighs the time to the next one (negative gaps count 0); the last
  // weighs the time to a closing stamp (`timestamps` one longer than `samples`), else to
  // endTime where the file gives it (and startTime, for timeDeltas).
  // Sums by node, in `samples` and `time`.
  void add_times(std::span<const std::uint32_t> sampled, std::span<double> samples, std::span<double> time) {
    const bool cpuprofile = kind_ == v8_profile_kind::cpuprofile;
    const double scale = cpuprofile ? 1 : 1e6;  // the old format's start and end are seconds
    // Whichever the file has: deltas (the .cpuprofile's) or absolute timestamps (the old format's).
    const bool deltas = seen_deltas_ || (!seen_timestamps_ && cpuprofile);
    const char* name = deltas ? "timeDeltas" : "timestamps";
    // The old v8-profiler writes one stamp more than samples: the end of the last sample.
    const bool closing_stamp = !deltas && times_.size() == sampled.size() + 1;
    if (times_.size() != sampled.size() && !closing_stamp)
      cursor::fail_at(seen_deltas_ || seen_timestamps_ ? times_offset_ : 0,
                       std::string("\"samples\" has ") + std::to_string(sampled.size()) + " entries but \"" + name +
                           "\" has " + std::to_string(times_.size()));
    if (deltas) {  // the time of each sample, in place
      double at = start_time_ * scale;
      for (double& t : times_) t = at += t;
    }
    double end = end_time_ * scale;
    bool has_end = has_end_time_ && (!deltas || seen_start_);
    if (closing_stamp) {
      end = times_.back();
      has_end = true;
      times_.pop_back();
    }
    v8_sample_weights weights(samples, time);
    bool finite = true;
    for (std::size_t s = 0; s < sampled.size() && finite; ++s) finite = weights.add(sampled[s], times_[s]);
    if (!finite || !weights.finish(has_end ? &end : nullptr))
      cursor::fail_at(times_offset_, std::string("the times of \"") + name + "\" overflow at sample " +
                                          std::to_string(weights.failed_sample()));
    std::vector<double>().swap(times_);
  }

  std::string_view text_;
  std::size_t max_levels_;
  formats::detail::json_cursor cursor_;
  v8_profile_kind kind_ = v8_profile_kind::cpuprofile;

  call_tree tree_;  // only its symbols, until build() moves it into the profile
  v8_node_tree nodes_{tree_.symbols()};
  std::vector<std::int64_t> sample_ids_;
  std::vector<double> times_;

  std::uint64_t nodes_offset_ = 0, times_offset_ = 0, samples_offset_ = 0;
  double start_time_ = 0, end_time_ = 0;
  bool seen_nodes_ = false, seen_head_ = false, seen_samples_ = false, seen_deltas_ = false, seen_timestamps_ = false;
  bool seen_start_ = false, has_end_time_ = false, samples_are_objects_ = false, head_has_self_size_ = false;
};

}  // namespace detail

/// Reads one of V8's profiles, the shape told by its top-level keys:
///
/// - `.cpuprofile` (Chrome DevTools, `node --cpu-prof`): `{nodes, samples, timeDeltas,
///   startTime, endTime}`, nodes naming their `children` (or their `parent`) by id, in any order;
/// - `.heapprofile` (`node --heap-prof`): `{head, samples}`, the tree nested from `head`, each
///   node with `selfSize`; samples `{size, nodeId, ordinal}`;
/// - the old v8-profiler CPU format: `{head, samples, timestamps, startTime, endTime}`, nodes
///   nested, timestamps absolute µs, start and end in seconds.
///
/// The file's tree is the calling context tree: every node becomes exactly one context, the
/// `(root)` node the tree's root, `(program)`, `(idle)` and `(garbage collector)` where V8
/// put them, so the profile has the file's node count minus one contexts. Siblings with the
/// same name are not merged: the second gets the same name with call site 2 (the third 3 ...).
/// Frame names are `functionName url:line:col`, 1-based, `(anonymous)` for an empty function
/// name; without a url only the function name; without a line (V8 writes -1) no `:line:col`.
///
/// Metrics: CPU profiles `samples` (how often the node is in `samples`, or its `hitCount` if
/// the file has no `samples`) and, with `samples`, `time_us` (each sample weighted by the time
/// to the next one; the last by the time to `endTime`, 0 if the file has no end time;
/// negative gaps count 0; `timestamps` with one entry more than `samples`, as the old
/// v8-profiler writes them, end the last sample at the extra stamp instead of `endTime`). Heap profiles `bytes` (`selfSize`) and, with `samples`,
/// `allocations` (the samples naming the node; node writes some samples whose `nodeId` is in
/// no node of the tree, allocated while the profile was taken: those are not counted).
///
/// Errors throw ccrc::parse_error::at_byte at the offending value or node: not JSON; a value of
/// the wrong type (a count that is not a non-negative integer); a missing or duplicate node
/// id, or one in children, parent or a CPU profile's samples naming no node; a node with two
/// parents; parents forming a cycle; no root or two, a root not named `(root)`; samples and
/// times of different lengths (but timestamps one longer), or times that overflow; a name with control characters.
/// What simdjson's first pass over a piece finds (invalid UTF-8, a string never closed), which
/// has no position, is reported at the piece's first byte (the array's `[` or the ',' before
/// the piece's first element); invalid UTF-8 in a member skipped, at the first byte after the
/// member read before it. Times: `timeDeltas` or `timestamps`, whichever the file has.
///
/// Streaming: the top-level object is scanned for its structure (strings and brackets,
/// formats/json.hpp); `nodes`, `samples` and `timeDeltas` (`timestamps`) go to simdjson
/// On-Demand in pieces of whole elements of about v8_profile_options::piece_bytes (1 MiB),
/// `head` and the scalars each as a document of its own; other members are skipped as
/// On-Demand skipped them (strings and brackets balanced) and checked to be UTF-8; keys
/// written with escapes are not recognised.
///
/// O(bytes + nodes + samples). Memory: the text; a piece and simdjson's buffers for it (about
/// six bytes per byte of the largest piece: 6 MB), or for `head` (nested profiles, which
/// cannot be cut: about 7 bytes per byte of it); while reading, 28 bytes per node (36 for
/// `head`, whose nodes' bytes are kept for errors), 8 per child id and 16 per sample; then 24
/// bytes per node (28 when the nodes are not in depth-first preorder, as V8 writes them), 12
/// more per sample while the samples are summed by node; then the tree, built last: the
/// reader's peak, on the benchmark's 10^6-node file, is within twice the finished tree. No
/// recursion (nested trees are walked with an explicit stack). docs/formats.md has the
/// decisions and their reasons.
///
///     ccrc::formats::json_text text(std::string_view(R"J({"nodes":[
///       {"id":1,"callFrame":{"functionName":"(root)","url":"","lineNumber":-1,"columnNumber":-1},"children":[2]},
///       {"id":2,"callFrame":{"functionName":"f","url":"a.js","lineNumber":0,"columnNumber":9}}],
///       "samples":[2,2],"timeDeltas":[5,10],"startTime":0,"endTime":40})J"));
///     ccrc::profile p = ccrc::read_v8_profile(text);   // "f a.js:1:10": samples 2, time_us 10 + 25
[[nodiscard]] inline profile read_v8_profile(const formats::json_text& text, const v8_profile_options& options = {}) {
  profile p = detail::v8_reader(text, options).read();
  p.shrink_to_fit();
  return p;
}

/// read_v8_profile over a padded copy of `text`.
[[nodiscard]] inline profile read_v8_profile(std::string_view text, const v8_profile_options& options = {}) {
  return read_v8_profile(formats::json_text(text), options);
}

/// read_v8_profile from a stream, read whole first (the reader works on the document in memory).
[[nodiscard]] inline profile read_v8_profile(std::istream& in, const v8_profile_options& options = {}) {
  return read_v8_profile(formats::json_text({}, ccrc::detail::stream_source{&in}), options);
}

/// read_v8_profile from a file; throws ccrc::error if it cannot be opened.
[[nodiscard]] inline profile read_v8_profile_file(const std::filesystem::path& path, const v8_profile_options& options = {}) {
  return read_v8_profile(formats::json_file(path), options);
}

}  // namespace ccrc
