// The viewer module's tables: the call tree (top-down), the bottom-up tree and a function's
// callers and callees (the butterfly), each of the tree and metric the chart shows. The page
// shows a window of a table's rows at a time (ccrc_table_rows): a table costs what is expanded,
// never the whole tree. Not part of the library.
#include "state.hpp"

#include <ccrc/algorithm/display_name.hpp>
#include <ccrc/graph/query.hpp>
#include <ccrc/tree/path.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

namespace viewer_module {
namespace {

constexpr int top_down = table_top_down, bottom_up = table_bottom_up;
constexpr std::uint32_t no_node = 0xffffffff;

table& table_of(int kind) { return kind == bottom_up ? the().bottom_up : the().top_down; }

// The bottom-up tree's top level is its functions (a row's item is the method), their
// self values summed once; a function's node, holding its contexts, is made when it is opened
// (tb.nodes[tb.root_of[method]]), from the contexts the viewer indexes by method.
bool is_function_row(int kind, const table_row& r) { return kind == bottom_up && r.depth == 0; }

const ccrc::bottom_up_node& node_of(const table& tb, const table_row& r) {
  return tb.nodes[is_function_row(bottom_up, r) ? tb.root_of[r.item] : r.item];
}

// A row's value in the shown metric: top-down its context's self and aggregated values,
// bottom-up its chain's (both the same: the cost spent in the chain's first function).
std::pair<double, double> values(int kind, const table_row& r) {
  const viewer& v = the();
  if (kind == bottom_up) {
    double value = is_function_row(kind, r) ? v.bottom_up.function_self[r.item]
                                            : node_of(v.bottom_up, r).value(v.current->profile.column(v.metric));
    return {value, value};
  }
  return {static_cast<double>(v.current->profile.column(v.metric)[r.item]), v.current->ag[v.metric][r.item]};
}

bool expandable(int kind, const table_row& r) {
  const viewer& v = the();
  const ccrc::call_tree& t = v.current->profile.tree();
  if (kind == top_down) return t.has_children(r.item);
  return is_function_row(kind, r) ? v.bottom_up.called[r.item] != 0 : node_of(v.bottom_up, r).has_callers(t);
}

// The rows under row i, as it is expanded: the context's callees by aggregated value, or the
// chain's callers by value, largest first.
std::vector<table_row> children_of(int kind, std::size_t i) {
  viewer& v = the();
  table& tb = table_of(kind);
  const table_row r = tb.rows[i];
  std::vector<table_row> out;
  if (kind == top_down) {
    for (ccrc::node_id c : v.current->index[v.metric].children(r.item)) out.push_back({r.depth + 1, false, c});
    return out;
  }
  if (is_function_row(kind, r) && tb.root_of[r.item] == no_node) {
    ccrc::bottom_up_node& f = tb.nodes.emplace_back();
    f.function = ccrc::method_id{r.item};
    for (std::uint32_t at : v.current->by_method.of(f.function)) f.contexts.push_back(v.current->order.at(at));
    std::sort(f.contexts.begin(), f.contexts.end());
    f.at = f.contexts;
    tb.root_of[r.item] = static_cast<std::uint32_t>(tb.nodes.size() - 1);
  }
  auto callers = ccrc::bottom_up_callers(v.current->profile.tree(), node_of(tb, r));
  auto self = v.current->profile.column(v.metric);
  std::vector<std::pair<double, std::size_t>> ranked;
  for (std::size_t k = 0; k < callers.size(); ++k) ranked.emplace_back(-callers[k].value(self), k);
  std::sort(ranked.begin(), ranked.end());
  for (const auto& [value, k] : ranked) {
    out.push_back({r.depth + 1, false, static_cast<std::uint32_t>(tb.nodes.size())});
    tb.nodes.push_back(std::move(callers[k]));
  }
  return out;
}

void expand(int kind, std::size_t i) {
  table& tb = table_of(kind);
  if (tb.rows[i].expanded || !expandable(kind, tb.rows[i])) return;
  std::vector<table_row> rows = children_of(kind, i);
  tb.rows[i].expanded = true;
  tb.rows.insert(tb.rows.begin() + static_cast<std::ptrdiff_t>(i) + 1, rows.begin(), rows.end());
}

void collapse(int kind, std::size_t i) {
  table& tb = table_of(kind);
  std::size_t end = i + 1;
  while (end < tb.rows.size() && tb.rows[end].depth > tb.rows[i].depth) ++end;
  tb.rows.erase(tb.rows.begin() + static_cast<std::ptrdiff_t>(i) + 1, tb.rows.begin() + static_cast<std::ptrdiff_t>(end));
  tb.rows[i].expanded = false;
}

// Makes a table afresh for the tree and metric shown: the top-level contexts, the trunk of
// single heavy callees opened (a chain holding nine tenths of its caller's value, as the chart's
// first view skips it); or every function where cost is spent, largest first.
void build(int kind) {
  viewer& v = the();
  table& tb = table_of(kind);
  tb = {};
  tb.of = v.current;
  tb.metric = v.metric;
  const ccrc::call_tree& t = v.current->profile.tree();
  if (kind == top_down) {
    for (ccrc::node_id c : v.current->index[v.metric].children(ccrc::root_node)) tb.rows.push_back({0, false, c});
    const std::vector<double>& ag = v.current->ag[v.metric];
    for (std::size_t i = 0; i < tb.rows.size() && tb.rows[i].depth < 64;) {
      ccrc::node_id n = tb.rows[i].item;
      auto kids = v.current->index[v.metric].children(n);
      if (kids.empty() || !(ag[kids[0]] >= 0.9 * ag[n])) break;
      expand(kind, i);
      ++i;  // the heaviest callee comes first
    }
    return;
  }
  auto sums = ccrc::per_method(ccrc::tree_view(t), v.current->profile.column(v.metric));
  tb.function_self.assign(sums.begin(), sums.end());
  tb.called.assign(sums.size(), 0);
  tb.root_of.assign(sums.size(), no_node);
  std::vector<char> seen(sums.size(), 0);
  for (ccrc::node_id n = 1; n < t.size(); ++n) {
    seen[t.method(n)] = 1;
    if (t.parent(n) != ccrc::root_node) tb.called[t.method(n)] = 1;
  }
  std::vector<std::pair<double, std::uint32_t>> ranked;
  for (std::uint32_t m = 1; m < sums.size(); ++m)
    if (seen[m]) ranked.emplace_back(-tb.function_self[m], m);
  std::sort(ranked.begin(), ranked.end());
  for (const auto& [value, m] : ranked) tb.rows.push_back({0, false, m});
}

table& current_table(int kind) {
  table& tb = table_of(kind);
  if (tb.of != the().current || tb.metric != the().metric) build(kind);
  return tb;
}

std::string_view method_name(ccrc::method_id m) { return the().current->profile.symbols().method_name(m); }

void append_row(std::string& out, int kind, const table_row& r) {
  const ccrc::call_tree& t = the().current->profile.tree();
  std::string_view name = kind == top_down ? t.name(r.item)
                          : is_function_row(kind, r) ? method_name(ccrc::method_id{r.item})
                                                     : method_name(the().bottom_up.nodes[r.item].function);
  auto [self, total] = values(kind, r);
  out += '[' + std::to_string(r.depth) + ',' + (r.expanded ? "2" : expandable(kind, r) ? "1" : "0") + ',';
  ccrc::append_json_string(out, ccrc::display_name(name));
  out += ',';
  ccrc::append_json_string(out, name);
  out += ',';
  ccrc::append_json_number(out, self);
  out += ',';
  ccrc::append_json_number(out, total);
  std::uint32_t id = kind == top_down || is_function_row(kind, r) ? r.item : static_cast<std::uint32_t>(the().bottom_up.nodes[r.item].function);
  out += ',' + std::to_string(id) + ']';
}

}  // namespace
}  // namespace viewer_module

using namespace viewer_module;

/// The number of rows of table `kind` (0 the call tree, 1 the bottom-up tree) of the tree and
/// metric shown, made afresh when they changed; -1 without a profile.
VIEWER_API int ccrc_table(int kind) {
  if (!the().current) return -1;
  return static_cast<int>(current_table(kind).rows.size());
}

/// Rows [first, first + count) of table `kind`, as JSON: {"total": the tree's total in the
/// metric, "rows": [[depth, state (0 leaf, 1 closed, 2 open), display name, full name, self,
/// total, node (call tree) or method (bottom-up)], ...]}.
VIEWER_API const char* ccrc_table_rows(int kind, int first, int count) {
  if (!the().current) return hand_out("null");
  table& tb = current_table(kind);
  std::string out = "{\"total\":";
  ccrc::append_json_number(out, the().current->ag[the().metric][ccrc::root_node]);
  out += ",\"rows\":[";
  auto begin = static_cast<std::size_t>(std::max(first, 0));
  auto end = std::min(tb.rows.size(), begin + static_cast<std::size_t>(std::max(count, 0)));
  for (std::size_t i = begin; i < end; ++i) {
    if (i > begin) out += ',';
    append_row(out, kind, tb.rows[i]);
  }
  return hand_out(out + "]}");
}

/// Opens or closes row `row` of table `kind`; returns the number of rows.
VIEWER_API int ccrc_table_toggle(int kind, int row) {
  if (!the().current) return -1;
  table& tb = current_table(kind);
  if (row >= 0 && static_cast<std::size_t>(row) < tb.rows.size()) {
    if (tb.rows[static_cast<std::size_t>(row)].expanded)
      collapse(kind, static_cast<std::size_t>(row));
    else
      expand(kind, static_cast<std::size_t>(row));
  }
  return static_cast<int>(tb.rows.size());
}

/// The row of the call tree that shows the context `path` ("main;f"), its callers opened;
/// -1 if the tree shown has no such context.
VIEWER_API int ccrc_table_reveal(const char* path) {
  viewer& v = the();
  if (!v.current || !path) return -1;
  const ccrc::call_tree& t = v.current->profile.tree();
  ccrc::node_id n = *path ? ccrc::node_at_path(t, path) : ccrc::null_node;
  if (n == ccrc::null_node) return -1;
  std::vector<ccrc::node_id> way;  // from the top-level context down to n
  for (ccrc::node_id a = n; a != ccrc::root_node; a = t.parent(a)) way.push_back(a);
  table& tb = current_table(top_down);
  std::size_t row = 0;
  for (std::size_t k = way.size(); k-- > 0;) {
    std::uint32_t depth = static_cast<std::uint32_t>(way.size() - 1 - k);
    while (row < tb.rows.size() && !(tb.rows[row].depth == depth && tb.rows[row].item == way[k])) ++row;
    if (row == tb.rows.size()) return -1;
    if (k > 0) expand(top_down, row);
  }
  return static_cast<int>(row);
}

/// The row of the bottom-up tree's top level that is function `method`; -1 if none.
VIEWER_API int ccrc_table_function(int method) {
  if (!the().current) return -1;
  table& tb = current_table(bottom_up);
  for (std::size_t i = 0; i < tb.rows.size(); ++i)
    if (tb.rows[i].depth == 0 && static_cast<int>(tb.rows[i].item) == method)
      return static_cast<int>(i);
  return -1;
}

/// The method named `name` in the tree shown, or -1.
VIEWER_API int ccrc_method(const char* name) {
  if (!the().current || !name) return -1;
  auto m = the().current->profile.symbols().find_method(name);
  return m ? static_cast<int>(static_cast<std::uint32_t>(*m)) : -1;
}

/// The butterfly of function `method` (Kaes's call graph of the tree shown, made on first
/// use): {"total": the tree's total, "function": [method, display name, full name, self, total,
/// contexts], "callers": [[method, display name, full name, self, total], ...] (the first
/// `limit`, by total), "callers_count": all of them, "callees": ..., "callees_count": ...}, in
/// the shown metric, recursion counted once; a top-level call's caller is method 0, "". null for
/// a method that is not a function of the tree.
VIEWER_API const char* ccrc_butterfly(int method, int limit) {
  viewer& v = the();
  if (!v.current || method < 0) return hand_out("null");
  shown_tree& s = *v.current;
  if (!s.graph) s.graph.emplace(s.profile);
  const ccrc::call_graph<double>& g = *s.graph;
  ccrc::method_id f{static_cast<std::uint32_t>(method)};
  if (!g.contains(f)) return hand_out("null");
  auto entry = [&](std::string& out, ccrc::method_id m, double self, double total) {
    out += '[' + std::to_string(static_cast<std::uint32_t>(m)) + ',';
    ccrc::append_json_string(out, ccrc::display_name(g.name(m)));
    out += ',';
    ccrc::append_json_string(out, g.name(m));
    out += ',';
    ccrc::append_json_number(out, self);
    out += ',';
    ccrc::append_json_number(out, total);
  };
  std::string out = "{\"total\":";
  ccrc::append_json_number(out, s.ag[v.metric][ccrc::root_node]);
  out += ",\"function\":";
  auto costs = ccrc::function_costs(g, f, v.metric);
  entry(out, f, costs.self, costs.total);
  out += ',' + std::to_string(costs.contexts) + ']';
  const std::pair<const char*, std::vector<ccrc::call_entry<double>>> sides[] = {
      {"callers", ccrc::callers(g, f, v.metric)}, {"callees", ccrc::callees(g, f, v.metric)}};
  for (const auto& [side, calls] : sides) {
    out += ",\"" + std::string(side) + "\":[";
    for (std::size_t k = 0; k < calls.size() && k < static_cast<std::size_t>(std::max(limit, 0)); ++k) {
      if (k) out += ',';
      entry(out, calls[k].function, calls[k].self, calls[k].total);
      out += ']';
    }
    out += "],\"" + std::string(side) + "_count\":" + std::to_string(calls.size());
  }
  return hand_out(out + '}');
}
