// _ccrc, the compiled part of the Python package ccrc (docs/python.md): the library's profiles,
// algorithms and renderers bound with pybind11. Columns cross as numpy arrays filled here,
// never one Python object per calling context; ccrc/__init__.py makes the DataFrames. The
// work runs without the GIL (a profile is never changed once made, so threads may share it).
#include "cli.hpp"
#include "ring_render.hpp"
#include "viewer_page.hpp"

#include <ccrc/algorithm/depth.hpp>
#include <ccrc/algorithm/display_name.hpp>
#include <ccrc/algorithm/flat.hpp>
#include <ccrc/algorithm/inclusive.hpp>
#include <ccrc/algorithm/search.hpp>
#include <ccrc/algorithm/statistics.hpp>
#include <ccrc/diff/diff.hpp>
#include <ccrc/diff/hot_path.hpp>
#include <ccrc/ensemble/cluster.hpp>
#include <ccrc/ensemble/ensemble_all.hpp>
#include <ccrc/ensemble/profile.hpp>
#include <ccrc/formats/read_any_profile.hpp>
#include <ccrc/geometry/color.hpp>
#include <ccrc/geometry/label.hpp>
#include <ccrc/geometry/tooltip.hpp>
#include <ccrc/graph/call_graph.hpp>
#include <ccrc/graph/query.hpp>
#include <ccrc/transform/eliminate_recursion.hpp>
#include <ccrc/transform/function.hpp>
#include <ccrc/transform/invert.hpp>
#include <ccrc/transform/merge_all.hpp>
#include <ccrc/tree/metric_unit.hpp>
#include <ccrc/tree/path.hpp>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace py = pybind11;

namespace {

// ---- Profiles and views.

// A profile as read or made, never changed afterwards: the views of it share it.
struct source {
  ccrc::profile profile;
  std::string name;                   // the file's name, for titles ("" if made by a transform)
  std::string format;                 // as `ccrc stats` prints it ("" if made by a transform)
  std::vector<std::string> profiles;  // the profiles a multi-profile file holds
};

// What a Python ccrc.Profile holds: a profile and the view of it the object stands for (the
// whole tree, or a subtree cut at a depth: the library's tree_view).
struct view {
  std::shared_ptr<const source> src;
  ccrc::node_id root = ccrc::root_node;
  std::uint32_t max_depth = ccrc::unlimited_depth;

  [[nodiscard]] const ccrc::profile& profile() const noexcept { return src->profile; }
  [[nodiscard]] const ccrc::call_tree& tree() const noexcept { return src->profile.tree(); }
  [[nodiscard]] ccrc::tree_view tree_view() const noexcept { return ccrc::tree_view(tree(), root, max_depth); }
  [[nodiscard]] bool whole() const noexcept { return root == ccrc::root_node && max_depth == ccrc::unlimited_depth; }
  // What changes or writes the tree, or reads all of it (the call graph), takes a whole profile:
  // a view's ag(M) is the complete tree's, which a copy of the view would not keep.
  void require_whole(std::string_view what) const {
    if (!whole())
      throw ccrc::error(std::string(what) + " works on a whole profile, not on a subtree() or depth_limited() view of one: "
                                            "call it on the profile the view was taken from");
  }
};

view made(ccrc::profile p, const view& from) {
  return {std::make_shared<const source>(source{std::move(p), from.src->name, "", {}})};
}

std::size_t metric_of(const view& v, std::size_t metric) {
  if (metric >= v.profile().metric_count())
    throw ccrc::error("no metric " + std::to_string(metric) + " (this profile has " +
                      std::to_string(v.profile().metric_count()) + ")");
  return metric;
}

// ---- Python values.

// Text of the profile as a str: UTF-8, with the bytes of a name that is not valid UTF-8 kept as
// lone surrogates (Python's "surrogateescape"), so that every name comes back to ccrc unchanged.
py::str text(std::string_view s) {
  PyObject* o = PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "surrogateescape");
  if (!o) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(o);
}

template <class Strings>
py::list texts(const Strings& strings) {
  py::list out(strings.size());
  std::size_t i = 0;
  for (std::string_view s : strings) out[i++] = text(s);
  return out;
}

// A numpy array owning `v` from element `offset` on: no copy.
template <class T>
py::array_t<T> numpy(std::vector<T>&& v, std::size_t offset = 0) {
  auto owner = std::make_unique<std::vector<T>>(std::move(v));
  T* data = owner->data() + offset;
  auto size = static_cast<py::ssize_t>(owner->size() - offset);
  py::capsule free(owner.get(), [](void* p) { delete static_cast<std::vector<T>*>(p); });
  owner.release();
  return py::array_t<T>(size, data, free);
}

template <class T>
py::list numpy_list(std::vector<std::vector<T>>&& columns, std::size_t offset = 0) {
  py::list out;
  for (auto& c : columns) out.append(numpy(std::move(c), offset));
  return out;
}

// ---- Tables of calling contexts (to_pandas, search, hot_path).

// The columns of some contexts of a profile: ids, callers, depths, methods, every metric's
// self and aggregated values. `methods` lists the methods that occur, in id order; `codes`
// indexes it per row (a pandas Categorical).
struct context_table {
  std::vector<std::int64_t> node, parent, depth;
  std::vector<std::int32_t> codes;
  std::vector<std::string_view> methods;
  std::vector<std::vector<double>> self, inc;
  std::size_t offset = 0;  // the rows start at this element of each column
};

// The structure of `nodes`: their ids, callers (-1 for a top-level context), depths, and
// their methods numbered densely in method id order.
void structure_of(const ccrc::call_tree& t, std::span<const ccrc::node_id> nodes, context_table& out) {
  std::vector<std::uint32_t> depths = ccrc::depths(t);
  out.node.reserve(nodes.size());
  out.parent.reserve(nodes.size());
  out.depth.reserve(nodes.size());
  for (ccrc::node_id n : nodes) {
    ccrc::node_id up = t.parent(n);
    out.node.push_back(n);
    out.parent.push_back(up == ccrc::root_node ? -1 : std::int64_t{up});
    out.depth.push_back(depths[n]);
  }
  const ccrc::symbol_table& syms = t.symbols();
  std::vector<std::int32_t> code(syms.method_count(), -1);
  for (ccrc::node_id n : nodes) code[t.method(n)] = 0;
  std::int32_t next = 0;
  for (ccrc::method_id m{0}; m < code.size(); ++m)
    if (code[m] == 0) {
      code[m] = next++;
      out.methods.push_back(syms.method_name(m));
    }
  out.codes.resize(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) out.codes[i] = code[t.method(nodes[i])];
}

// Every calling context of a tree, in id order.
std::vector<ccrc::node_id> all_contexts(const ccrc::call_tree& t) {
  std::vector<ccrc::node_id> all(t.size() - 1);
  for (std::size_t i = 1; i < t.size(); ++i) all[i - 1] = static_cast<ccrc::node_id>(i);
  return all;
}

// The table of the whole tree, every context in id order: the metric columns copied as they
// are (from element 1: the root is no context).
context_table whole_table(const ccrc::profile& p) {
  context_table out;
  structure_of(p.tree(), all_contexts(p.tree()), out);
  out.inc = ccrc::inclusive_columns(p);
  p.for_each_column([&](std::string_view, std::span<const double> c) { out.self.emplace_back(c.begin(), c.end()); });
  out.offset = 1;
  return out;
}

// The table of `nodes`, in that order.
context_table table_of(const ccrc::profile& p, std::span<const ccrc::node_id> nodes) {
  context_table out;
  structure_of(p.tree(), nodes, out);
  std::vector<std::vector<double>> ag = ccrc::inclusive_columns(p);
  for (std::size_t j = 0; j < p.metric_count(); ++j) {
    std::span<const double> self = p.column(j);
    std::vector<double>& s = out.self.emplace_back(nodes.size());
    std::vector<double>& a = out.inc.emplace_back(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      s[i] = self[nodes[i]];
      a[i] = ag[j][nodes[i]];
    }
  }
  return out;
}

// The calling contexts of a view, in id order (its root if that is one, and the contexts below
// it within the depth limit).
std::vector<ccrc::node_id> contexts_of(const view& v) {
  std::vector<ccrc::node_id> nodes;
  ccrc::preorder(v.tree_view(), [&](ccrc::node_id n, std::uint32_t) {
    if (n != ccrc::root_node) nodes.push_back(n);
  });
  std::sort(nodes.begin(), nodes.end());
  return nodes;
}

py::dict to_python(context_table&& t) {
  py::dict d;
  std::size_t offset = t.offset;
  d["node"] = numpy(std::move(t.node));
  d["parent"] = numpy(std::move(t.parent));
  d["depth"] = numpy(std::move(t.depth));
  d["codes"] = numpy(std::move(t.codes));
  d["methods"] = texts(t.methods);
  d["self"] = numpy_list(std::move(t.self), offset);
  d["inc"] = numpy_list(std::move(t.inc), offset);
  return d;
}

py::dict rows(const view& v) {
  context_table t;
  {
    py::gil_scoped_release unlocked;
    t = v.whole() ? whole_table(v.profile()) : table_of(v.profile(), contexts_of(v));
  }
  return to_python(std::move(t));
}

py::dict rows_of(const view& v, std::span<const ccrc::node_id> nodes) {
  context_table t;
  {
    py::gil_scoped_release unlocked;
    t = table_of(v.profile(), nodes);
  }
  return to_python(std::move(t));
}

// ---- The flat profile, with totals.

// Per method of the view, in ccrc::flat's order of the chosen metric (self, largest first):
// its contexts, and per metric its self values summed and its total, the ag(M) of its
// outermost contexts in the view (those with no caller of the same method between them and
// the view's root), so that recursion counts once: the call graph's c_t, within the view.
// One depth-first pass marks the view's contexts and the outermost ones (a per-method count
// of the method's contexts on the current path), then a sweep in id order sums: the columns
// are read in order, not in the walk's.
py::dict flat(const view& v, std::size_t metric) {
  const ccrc::profile& p = v.profile();
  const ccrc::call_tree& t = p.tree();
  std::size_t k = p.metric_count();
  std::vector<ccrc::method_id> order;
  std::vector<std::uint64_t> contexts;
  std::vector<std::vector<double>> self(k), total(k);
  {
    py::gil_scoped_release unlocked;
    ccrc::tree_view tv = v.tree_view();
    for (const auto& e : ccrc::flat(tv, p.column(metric))) order.push_back(e.method);
    std::size_t methods = t.symbols().method_count();
    constexpr std::uint8_t in_view = 1, outermost = 2;
    std::vector<std::uint8_t> flags(t.size(), 0);
    std::vector<std::uint32_t> on_path(methods);
    ccrc::depth_first(
        tv,
        [&](ccrc::node_id n, std::uint32_t) {
          // The synthetic root is no method: its total is its own value.
          bool outer = on_path[t.method(n)]++ == 0 && n != ccrc::root_node;
          flags[n] = static_cast<std::uint8_t>(in_view | (outer ? outermost : 0));
        },
        [&](ccrc::node_id n, std::uint32_t) { --on_path[t.method(n)]; });
    std::vector<double> self_sum(methods * k), total_sum(methods * k);
    std::vector<std::uint64_t> count(methods);
    std::vector<double> ag(t.size());
    for (std::size_t j = 0; j < k; ++j) {
      std::span<const double> column = p.column(j);
      std::copy(column.begin(), column.end(), ag.begin());
      ccrc::inclusive_in_place(t, std::span(ag));
      for (ccrc::node_id n = 0; n < t.size(); ++n) {
        if (!(flags[n] & in_view)) continue;
        ccrc::method_id m = t.method(n);
        count[m] += j == 0;
        self_sum[m * k + j] += column[n];
        total_sum[m * k + j] += flags[n] & outermost ? ag[n] : n == ccrc::root_node ? column[n] : 0;
      }
    }
    contexts.reserve(order.size());
    for (ccrc::method_id m : order) {
      contexts.push_back(count[m]);
      for (std::size_t j = 0; j < k; ++j) {
        self[j].push_back(self_sum[m * k + j]);
        total[j].push_back(total_sum[m * k + j]);
      }
    }
  }
  std::vector<std::string_view> names;
  for (ccrc::method_id m : order) names.push_back(m == ccrc::root_method ? "(root)" : t.symbols().method_name(m));
  py::dict d;
  d["names"] = texts(names);
  d["contexts"] = numpy(std::move(contexts));
  d["self"] = numpy_list(std::move(self));
  d["total"] = numpy_list(std::move(total));
  return d;
}

// ---- The call graph.

// Kaes's call graph of the whole profile: the functions by total of `metric` (largest first,
// as `ccrc callgraph` lists them), and the calls between two functions by their total.
// Callers and callees are indexes into the functions.
py::dict callgraph(const view& v, std::size_t metric) {
  v.require_whole("callgraph()");
  std::size_t k = v.profile().metric_count();
  std::vector<std::string_view> names;
  std::vector<std::uint64_t> contexts, edge_contexts;
  std::vector<std::uint8_t> top_level;
  std::vector<std::int32_t> callers, callees;
  std::vector<std::vector<double>> self(k), total(k), edge_self(k), edge_total(k);
  {
    py::gil_scoped_release unlocked;
    ccrc::call_graph<double> g(v.profile());
    std::vector<std::int32_t> index(g.method_count(), -1);
    for (const auto& f : ccrc::top_functions(g, {.by = ccrc::rank_by::total, .metric = metric})) {
      index[f.function] = static_cast<std::int32_t>(names.size());
      names.push_back(g.name(f.function));
      contexts.push_back(f.contexts);
      top_level.push_back(g.is_top_level(f.function));
      for (std::size_t j = 0; j < k; ++j) {
        self[j].push_back(g.self(f.function, j));
        total[j].push_back(g.total(f.function, j));
      }
    }
    for (ccrc::edge_id e : ccrc::ranked_edges(g, metric)) {
      const ccrc::call_edge& c = g.edge(e);
      if (c.caller == ccrc::root_method) continue;  // a top-level call: no caller function
      callers.push_back(index[c.caller]);
      callees.push_back(index[c.callee]);
      edge_contexts.push_back(c.contexts);
      for (std::size_t j = 0; j < k; ++j) {
        edge_self[j].push_back(g.edge_self(e, j));
        edge_total[j].push_back(g.edge_total(e, j));
      }
    }
  }
  py::dict d;
  d["names"] = texts(names);
  d["contexts"] = numpy(std::move(contexts));
  d["top_level"] = numpy(std::move(top_level));
  d["self"] = numpy_list(std::move(self));
  d["total"] = numpy_list(std::move(total));
  d["caller"] = numpy(std::move(callers));
  d["callee"] = numpy(std::move(callees));
  d["edge_contexts"] = numpy(std::move(edge_contexts));
  d["edge_self"] = numpy_list(std::move(edge_self));
  d["edge_total"] = numpy_list(std::move(edge_total));
  return d;
}

// ---- Search and the hot path.

// A bound as Python gives it: a number, or a text as the tool takes it ("500", "5%").
using bound = std::optional<std::variant<double, std::string>>;

std::optional<ccrc::threshold> threshold_of(const bound& b, const char* keyword) {
  if (!b) return std::nullopt;
  if (const double* x = std::get_if<double>(&*b)) return ccrc::threshold{*x, false};
  const std::string& text = std::get<std::string>(*b);
  if (auto t = ccrc::parse_threshold(text)) return t;
  throw py::value_error(std::string(keyword) + " expects a number or a percentage such as \"5%\", not '" + text + "'");
}

// The contexts of the view that match, hottest first (ag(M) of `metric`, NaN last, then id),
// as `ccrc search` lists them; and what they cover of the whole profile.
py::tuple search(const view& v, std::size_t metric, const std::string& query, int part, bool ignore_case,
                 const bound& min_self, const bound& min_total) {
  ccrc::search_query q{ccrc::parse_name_query(query, static_cast<ccrc::name_part>(part), ignore_case),
                       threshold_of(min_self, "min_self"), threshold_of(min_total, "min_total")};
  ccrc::search_result r;
  {
    py::gil_scoped_release unlocked;
    r = ccrc::search(v.tree_view(), v.profile().column(metric), q);
    std::vector<double> ag = ccrc::inclusive(v.tree(), v.profile().column(metric));
    auto key = [&](ccrc::node_id n) { return std::isnan(ag[n]) ? -std::numeric_limits<double>::infinity() : ag[n]; };
    std::stable_sort(r.nodes.begin(), r.nodes.end(), [&](ccrc::node_id a, ccrc::node_id b) { return key(a) > key(b); });
  }
  return py::make_tuple(rows_of(v, r.nodes), r.covered, r.total);
}

// The hot path of a view: from its root, the callee of largest ag(M) of `metric` (the first
// of equals; a NaN is never the largest), down to a leaf of the view.
std::vector<ccrc::node_id> hot_path(const view& v, std::size_t metric) {
  const ccrc::call_tree& t = v.tree();
  std::vector<double> ag = ccrc::inclusive(t, v.profile().column(metric));
  std::vector<ccrc::node_id> path;
  ccrc::node_id n = v.root;
  if (n != ccrc::root_node) path.push_back(n);
  for (std::uint32_t level = 0; level < v.max_depth; ++level) {
    ccrc::node_id best = ccrc::null_node;
    for (ccrc::node_id c : t.children(n))
      if (!std::isnan(ag[c]) && (best == ccrc::null_node || ag[c] > ag[best])) best = c;
    if (best == ccrc::null_node) break;
    path.push_back(n = best);
  }
  return path;
}

// ---- Transforms.

ccrc::method_set methods_of(const ccrc::profile& p, const std::vector<std::string>& names) {
  ccrc::method_set s;
  for (const std::string& name : names) {
    auto m = p.symbols().find_method(name);
    if (!m || *m == ccrc::root_method) throw ccrc::error("no method named '" + name + "' in the profile");
    s.insert(*m);
  }
  return s;
}

template <class Transform>
view transformed(const view& v, std::string_view what, Transform&& transform) {
  v.require_whole(what);
  ccrc::profile out;
  {
    py::gil_scoped_release unlocked;
    out = transform(v.profile()).output;
  }
  return made(std::move(out), v);
}

// ---- Ring charts.

// The request `ccrc render` makes of its options: the view, sized by one metric, opening where
// the profile branches and as deep as stays readable unless the view has a depth limit.
render::request request_of(const view& v, std::size_t metric, int sizing, int order, double min_px, double padding,
                           double width, double height) {
  if (!(min_px >= 0)) throw py::value_error("min_px must be a length in pixels, 0 or more");
  if (!(padding >= 0)) throw py::value_error("padding must be a length in pixels, 0 or more");
  if (!(width >= 16 && width <= 100000 && height >= 16 && height <= 100000))
    throw py::value_error("size must be (width, height) in pixels, each 16-100000");
  render::request r;
  r.metric = metric_of(v, metric);
  r.view = v.tree_view();
  r.fit_depth = v.max_depth == ccrc::unlimited_depth;
  r.skip_trunk = r.fit_depth && v.root == ccrc::root_node;
  r.sizing = static_cast<ccrc::ring_sizing>(sizing);
  r.order = static_cast<ccrc::child_order>(order);
  r.min_px = min_px;
  r.padding = padding;
  r.width = width;
  r.height = height;
  r.title = v.src->name;
  return r;
}

// The profile a chart of `v` is drawn from for `tree` (render::tree_choice), the request told
// what its first view may do: v's, or, for a whole profile's "recursion", it with its
// recursion eliminated, held in `held`.
const ccrc::profile& drawn_profile(const view& v, int tree, render::request& r, std::optional<ccrc::profile>& held) {
  auto choice = static_cast<render::tree_choice>(tree);
  if (choice == render::tree_choice::recursion) v.require_whole("tree=\"recursion\"");
  py::gil_scoped_release unlocked;
  held = render::tree_of(v.profile(), choice, r);
  if (held) r.view.reset();
  return held ? *held : v.profile();
}

// The segments `ccrc render -o OUT.json` writes, as columns, with each segment's color and label.
py::dict ring_chart(const view& v, render::request r, int tree) {
  std::optional<ccrc::profile> held;
  const ccrc::profile& given = drawn_profile(v, tree, r, held);
  render::laid_out<ccrc::ring_layout> laid;
  std::vector<std::int64_t> node, parent, depth, contexts, last;
  std::vector<std::uint8_t> kind, label_fit, label_reversed, beyond;
  std::vector<double> r0, r1, a0, a1, value, self, label_radius, label_angle, font_px;
  std::vector<std::string> colors, labels;
  std::vector<std::string_view> names;
  {
    py::gil_scoped_release unlocked;
    std::vector<std::vector<double>> ag = ccrc::inclusive_columns(given);
    laid = render::layout(given, ag, r);
    const ccrc::profile& p = laid.profile(given);
    if (laid.eliminated) ag = ccrc::inclusive_columns(p);
    const ccrc::call_tree& t = p.tree();
    const ccrc::ring_layout& chart = laid.chart;
    ccrc::chart_colors palette(t, p.column(r.metric));
    for (const ccrc::ring_segment& s : chart.segments) {
      node.push_back(s.node);
      last.push_back(s.last);
      names.push_back(s.node == ccrc::root_node ? "(root)" : t.name(s.node));
      depth.push_back(s.depth);
      parent.push_back(s.parent == ccrc::no_segment ? -1 : std::int64_t{s.parent});
      kind.push_back(static_cast<std::uint8_t>(s.kind));
      r0.push_back(s.r0);
      r1.push_back(s.r1);
      a0.push_back(s.a0);
      a1.push_back(s.a1);
      contexts.push_back(s.contexts);
      value.push_back(ag[r.metric][s.node]);
      self.push_back(s.kind == ccrc::segment_kind::line ? p.column(r.metric)[s.node] : ccrc::segment_value(t, p.column(r.metric), s));
      colors.push_back(ccrc::hex(palette.of(t, s.last)));
      beyond.push_back(ccrc::beyond_edge(chart, t, s));
      std::string shown = ccrc::segment_name(t, s);
      ccrc::ring_label l = ccrc::fit_label(s, shown);
      labels.push_back(l.fit == ccrc::label_fit::none ? "" : l.text(shown));
      label_fit.push_back(static_cast<std::uint8_t>(l.fit));
      label_radius.push_back(l.radius);
      label_angle.push_back(l.angle);
      label_reversed.push_back(l.reversed);
      font_px.push_back(l.font_px);
    }
  }
  py::dict d;
  d["node"] = numpy(std::move(node));
  d["name"] = texts(names);
  d["depth"] = numpy(std::move(depth));
  d["parent"] = numpy(std::move(parent));
  d["kind"] = numpy(std::move(kind));
  d["r0"] = numpy(std::move(r0));
  d["r1"] = numpy(std::move(r1));
  d["a0"] = numpy(std::move(a0));
  d["a1"] = numpy(std::move(a1));
  d["contexts"] = numpy(std::move(contexts));
  d["value"] = numpy(std::move(value));
  d["self"] = numpy(std::move(self));
  d["color"] = colors;
  d["beyond_edge"] = numpy(std::move(beyond));
  py::list label_texts;
  for (const std::string& l : labels) label_texts.append(text(l));
  d["label"] = label_texts;
  d["label_fit"] = numpy(std::move(label_fit));
  d["label_radius"] = numpy(std::move(label_radius));
  d["label_angle"] = numpy(std::move(label_angle));
  d["label_reversed"] = numpy(std::move(label_reversed));
  d["font_px"] = numpy(std::move(font_px));
  d["last"] = numpy(std::move(last));
  d["center"] = py::make_tuple(laid.chart.center.x, laid.chart.center.y);
  d["radii"] = laid.chart.radii;
  d["start_angle"] = laid.chart.start_angle;
  d["caption"] = text(laid.caption);
  d["drawn"] = laid.drawn;
  d["recursion_eliminated"] = laid.eliminated != nullptr || held.has_value();
  return d;
}

std::string svg_text(const view& v, render::request r, int tree, std::optional<std::tuple<std::string, int, bool>> highlight,
                int color_by, const std::optional<std::string>& title, int layout) {
  std::optional<ccrc::profile> held;
  const ccrc::profile& p = drawn_profile(v, tree, r, held);
  if (highlight) {
    auto& [query, part, ignore_case] = *highlight;
    r.highlight = ccrc::parse_name_query(query, static_cast<ccrc::name_part>(part), ignore_case);
  }
  r.colors = static_cast<ccrc::color_by>(color_by);
  r.layout = static_cast<render::chart_kind>(layout);
  if (title) r.title = *title;
  py::gil_scoped_release unlocked;
  cli::timings unused;
  return render::draw(p, r, unused).text;
}

// The viewer page with the profile (and a first run to compare it with) inside.
std::string viewer_html(const view& v, const std::optional<view>& baseline) {
  v.require_whole("the viewer");
  if (baseline) baseline->require_whole("the viewer");
  py::gil_scoped_release unlocked;
  std::ostringstream page;
  write_viewer(page, v.profile(), v.src->name, baseline ? &baseline->profile() : nullptr,
               baseline ? baseline->src->name : "");
  return std::move(page).str();
}

// ---- Reading.

// The name reads of bytes give the input in their errors (ccrc.ParseError's path: None).
constexpr std::string_view bytes_input = "<bytes>";

py::tuple read_by(ccrc::read_result&& r, std::string name) {
  std::string format(ccrc::name_of(r.detected));
  if (r.gzip) format += ", gzip";
  auto src = std::make_shared<const source>(source{std::move(r.profile), std::move(name), std::move(format), std::move(r.profiles)});
  return py::make_tuple(view{std::move(src)}, r.warnings);
}

// Reads with `read`. Its errors name the input already (read_options::input_name); a document
// too large is told in the words of the keyword that raises the bound.
template <class Read>
ccrc::read_result read_bounded(Read read) {
  try {
    return read();
  } catch (const ccrc::document_too_large& e) {
    throw ccrc::error(e.input() + ": a " + e.document() + " larger than " + std::to_string(e.limit()) +
                      " bytes (inflated, if gzip-compressed): ccrc holds this format whole to read it, up to "
                      "max_document_bytes (default 2 GiB), which raises the bound");
  }
}

template <class Read>
ccrc::read_result read_unlocked(Read read) {
  py::gil_scoped_release unlocked;
  return read_bounded(read);
}

ccrc::read_options read_options_of(const std::string& pick, std::uint64_t max_document_bytes, std::string input_name = {}) {
  ccrc::read_options options;
  options.profile = pick;
  options.max_document_bytes = max_document_bytes;
  options.input_name = std::move(input_name);
  return options;
}

py::tuple read_path(const std::string& path, const std::string& pick, std::uint64_t max_document_bytes) {
  ccrc::read_result r = read_unlocked([&] { return ccrc::read_profile_file(path, read_options_of(pick, max_document_bytes)); });
  return read_by(std::move(r), std::filesystem::path(path).filename().string());
}

py::tuple read_bytes(const py::bytes& data, const std::string& pick, std::uint64_t max_document_bytes) {
  std::string_view bytes = data;  // bytes are immutable: read in place without the GIL
  ccrc::read_result r = read_unlocked([&] {
    return ccrc::read_profile(bytes, read_options_of(pick, max_document_bytes, std::string(bytes_input)));
  });
  return read_by(std::move(r), "");
}

// ---- Two runs, many profiles.

// The metrics `ccrc diff` compares: the one named (else ccrc::compared_metric of the old run),
// and the invocation counts named (else "calls" if both runs have it).
struct diff_metrics {
  std::size_t old_metric, new_metric;
  std::optional<std::size_t> old_calls, new_calls;
  std::string metric, new_metric_name, calls;
};

std::size_t index_in(const ccrc::profile& p, const std::string& name, const char* run) {
  try {
    return p.metric_index(name);
  } catch (const ccrc::error& e) {
    throw ccrc::error(std::string(run) + ": " + e.what());
  }
}

diff_metrics diff_metrics_of(const ccrc::profile& old_p, const ccrc::profile& new_p, const std::optional<std::string>& metric,
                             const std::optional<std::string>& new_metric, const std::optional<std::string>& calls) {
  diff_metrics m;
  if (calls)
    m.calls = *calls;
  else if (old_p.find_metric("calls") && new_p.find_metric("calls"))
    m.calls = "calls";
  if (!m.calls.empty()) {
    m.old_calls = index_in(old_p, m.calls, "old");
    m.new_calls = index_in(new_p, m.calls, "new");
  }
  m.metric = metric.value_or(std::string(old_p.metric_name(ccrc::compared_metric(old_p.metric_names(), m.calls))));
  m.new_metric_name = new_metric.value_or(m.metric);
  m.old_metric = index_in(old_p, m.metric, "old");
  m.new_metric = index_in(new_p, m.new_metric_name, "new");
  return m;
}

py::dict diff(const view& old_v, const view& new_v, const std::optional<std::string>& metric,
              const std::optional<std::string>& new_metric, const std::optional<std::string>& calls,
              const std::vector<std::string>& modified, double epsilon, std::uint32_t max_chain) {
  old_v.require_whole("diff()");
  new_v.require_whole("diff()");
  if (!(epsilon >= 0)) throw py::value_error("epsilon must be 0 or more");
  const ccrc::profile &old_p = old_v.profile(), &new_p = new_v.profile();
  diff_metrics m = diff_metrics_of(old_p, new_p, metric, new_metric, calls);
  std::optional<ccrc::cct_diff> result;
  context_table table;
  std::vector<std::uint8_t> status, is_modified, on_hot_path;
  std::vector<std::int64_t> old_node, new_node;
  std::vector<double> old_value, new_value, old_share, new_share, height, width, old_calls, new_calls;
  {
    py::gil_scoped_release unlocked;
    auto run_of = [&](const ccrc::profile& p, std::size_t values, std::optional<std::size_t> counts) {
      return counts ? ccrc::diff_run(p.tree(), p.column(values), p.column(*counts)) : ccrc::diff_run(p.tree(), p.column(values));
    };
    result.emplace(ccrc::diff(run_of(old_p, m.old_metric, m.old_calls), run_of(new_p, m.new_metric, m.new_calls),
                              {.epsilon = epsilon, .modified = modified, .matching = {.max_chain = max_chain}}));
    const ccrc::cct_diff& d = *result;
    const ccrc::call_tree& t = d.tree();
    std::vector<ccrc::node_id> nodes = all_contexts(t);
    structure_of(t, nodes, table);
    std::vector<std::uint8_t> hot(t.size(), 0);
    for (ccrc::node_id n : ccrc::delta_hot_path(d)) hot[n] = 1;
    constexpr double absent = std::numeric_limits<double>::quiet_NaN();
    auto of = [&](bool present, double v) { return present ? v : absent; };
    const ccrc::context_matching& match = d.matching;
    for (ccrc::node_id n : nodes) {
      bool in_old = match.in_first(n), in_new = match.in_second(n);
      status.push_back(static_cast<std::uint8_t>(d.status[n]));
      is_modified.push_back(d.modified(n));
      on_hot_path.push_back(hot[n]);
      old_node.push_back(in_old ? std::int64_t{match.first_node[n]} : -1);
      new_node.push_back(in_new ? std::int64_t{match.second_node[n]} : -1);
      old_value.push_back(of(in_old, d.first[n]));
      new_value.push_back(of(in_new, d.second[n]));
      old_share.push_back(of(in_old, d.share_first(n)));
      new_share.push_back(of(in_new, d.share_second(n)));
      height.push_back(d.height[n]);
      width.push_back(d.width[n]);
      old_calls.push_back(of(in_old && m.old_calls, d.calls_first[n]));
      new_calls.push_back(of(in_new && m.new_calls, d.calls_second[n]));
    }
  }
  const ccrc::cct_diff& d = *result;
  py::dict out;
  out["node"] = numpy(std::move(table.node));
  out["parent"] = numpy(std::move(table.parent));
  out["depth"] = numpy(std::move(table.depth));
  out["codes"] = numpy(std::move(table.codes));
  out["methods"] = texts(table.methods);
  out["status"] = numpy(std::move(status));
  out["old"] = numpy(std::move(old_value));
  out["new"] = numpy(std::move(new_value));
  out["old_share"] = numpy(std::move(old_share));
  out["new_share"] = numpy(std::move(new_share));
  out["height"] = numpy(std::move(height));
  out["width"] = numpy(std::move(width));
  out["old_calls"] = numpy(std::move(old_calls));
  out["new_calls"] = numpy(std::move(new_calls));
  out["modified"] = numpy(std::move(is_modified));
  out["old_node"] = numpy(std::move(old_node));
  out["new_node"] = numpy(std::move(new_node));
  out["hot_path"] = numpy(std::move(on_hot_path));
  py::dict attrs;
  attrs["metric"] = m.metric;
  attrs["new_metric"] = m.new_metric_name;
  attrs["calls_metric"] = m.calls.empty() ? py::object(py::none()) : py::str(m.calls);
  attrs["total_old"] = d.total_first;
  attrs["total_new"] = d.total_second;
  attrs["epsilon"] = d.epsilon;
  attrs["matched"] = d.matching.matched;
  attrs["new"] = d.matching.added;
  attrs["removed"] = d.matching.removed;
  attrs["moved"] = d.matching.moved;
  attrs["bound_hits"] = d.matching.bound_hits;
  out["attrs"] = attrs;
  return out;
}

view merge(const std::vector<view>& inputs, unsigned threads) {
  for (const view& v : inputs) v.require_whole("merge()");
  if (inputs.empty()) throw py::value_error("merge() needs at least one profile");
  ccrc::profile out;
  {
    py::gil_scoped_release unlocked;
    out = ccrc::merge_all(
        inputs.size(), [&](std::size_t i) -> const ccrc::profile& { return inputs[i].profile(); }, {.threads = threads});
  }
  return {std::make_shared<const source>(source{std::move(out), "merged", "", {}})};
}

// ---- Many runs: an ensemble (docs/ensemble.md).

// What a Python ccrc.Ensemble holds: the statistics, the runs' names, and each run's share
// vector of the metric the distances are of.
struct ensemble_core {
  ccrc::ensemble stats;
  std::vector<std::string> inputs;
  std::string metric;
  std::vector<ccrc::share_vector> shares;
};

// The ensemble of `runs`, each a path (read as ccrc.read reads it) or a whole profile, read on
// `threads` threads and added in order, as `ccrc ensemble` does; `metric` (default: the first
// run's primary metric) is the one whose shares are kept for distance() and clusters().
std::shared_ptr<ensemble_core> ensemble_of(const std::vector<std::variant<std::string, view>>& runs,
                                                 std::optional<std::string> metric, unsigned threads, const std::string& pick,
                                                 std::uint64_t max_document_bytes) {
  if (runs.empty()) throw py::value_error("ensemble() needs at least one run");
  for (const auto& r : runs)
    if (const view* v = std::get_if<view>(&r)) v->require_whole("ensemble()");
  auto out = std::make_shared<ensemble_core>();
  {
    py::gil_scoped_release unlocked;
    const ccrc::read_options options = read_options_of(pick, max_document_bytes);
    out->stats = ccrc::ensemble_all(
        runs.size(),
        [&](std::size_t i) {
          if (const view* v = std::get_if<view>(&runs[i])) return v->profile();
          const std::string& path = std::get<std::string>(runs[i]);
          return read_bounded([&] { return ccrc::read_profile_file(path, options); }).profile;
        },
        [&](std::size_t i, const ccrc::profile& run, std::span<const ccrc::node_id> map) {
          const view* v = std::get_if<view>(&runs[i]);
          out->inputs.push_back(v ? v->src->name : std::filesystem::path(std::get<std::string>(runs[i])).filename().string());
          if (!metric) metric = run.metric_names()[ccrc::primary_metric(run.metric_names())];
          auto m = run.find_metric(*metric);
          out->shares.push_back(m ? ccrc::share_vector_of(run.column(*m), map) : ccrc::share_vector{});
        },
        {.threads = threads});
    out->metric = *metric;
    (void)out->stats.metric_index(out->metric);  // a metric no run has: an error, now
  }
  return out;
}

// The statistics of every context, as columns from element 1 (the root is no context):
// "self" and "inc", a list per metric of the columns mean, min, max, std; and the structure.
py::dict ensemble_rows(const ensemble_core& e) {
  context_table t;
  std::vector<std::vector<double>> self, inc;
  std::vector<std::int64_t> present;
  {
    py::gil_scoped_release unlocked;
    structure_of(e.stats.tree(), all_contexts(e.stats.tree()), t);
    for (std::size_t m = 0; m < e.stats.metric_count(); ++m)
      for (auto [scope, into] : {std::pair{ccrc::cost_scope::self, &self}, {ccrc::cost_scope::inclusive, &inc}}) {
        ccrc::statistics_columns c = e.stats.columns(m, scope);
        for (auto* column : {&c.mean, &c.min, &c.max, &c.std}) into->push_back(std::move(*column));
      }
    present.assign(e.stats.present().begin(), e.stats.present().end());
  }
  py::dict d = to_python(std::move(t));
  d["self"] = numpy_list(std::move(self), 1);
  d["inc"] = numpy_list(std::move(inc), 1);
  d["present"] = numpy(std::move(present), 1);
  return d;
}

py::array_t<double> ensemble_distances(const ensemble_core& e, unsigned threads) {
  ccrc::distance_matrix d;
  {
    py::gil_scoped_release unlocked;
    d = ccrc::distances(e.shares, {.threads = threads});
  }
  const auto n = static_cast<py::ssize_t>(d.size());
  py::array_t<double> out({n, n});
  auto cells = out.mutable_unchecked<2>();
  for (py::ssize_t i = 0; i < n; ++i)
    for (py::ssize_t j = 0; j < n; ++j) cells(i, j) = d(static_cast<std::size_t>(i), static_cast<std::size_t>(j));
  return out;
}

py::list ensemble_clusters(const ensemble_core& e, std::size_t groups, double max_distance, unsigned threads) {
  std::vector<ccrc::run_cluster> clusters;
  {
    py::gil_scoped_release unlocked;
    clusters = ccrc::cluster_runs(ccrc::distances(e.shares, {.threads = threads}), {.groups = groups, .max_distance = max_distance});
  }
  py::list out;
  for (const auto& c : clusters) out.append(py::make_tuple(c.members, c.exemplar));
  return out;
}

// ---- Errors.

// The exception types, created once with the module and kept for the process's life (no
// destructor may run after the interpreter is gone).
PyObject* error_type = nullptr;
PyObject* parse_error_type = nullptr;

py::object optional_number(std::uint64_t v, std::uint64_t none) {
  return v == none ? py::object(py::none()) : py::object(py::int_(v));
}

void translate(std::exception_ptr p) {
  try {
    std::rethrow_exception(p);
  } catch (const ccrc::error& e) {
    // Malformed input a read names (the readers' errors name the file, or <bytes>): ccrc.ParseError
    // with the path, line and byte.
    const auto* parse = dynamic_cast<const ccrc::parse_error*>(&e);
    if (!parse || e.input().empty()) {
      PyErr_SetObject(error_type, text(e.what()).ptr());
      return;
    }
    py::object exc = py::reinterpret_borrow<py::object>(parse_error_type)(text(e.what()));
    exc.attr("path") = e.input() == bytes_input ? py::object(py::none()) : py::object(text(e.input()));
    exc.attr("line") = optional_number(parse->line(), 0);
    exc.attr("byte") = optional_number(parse->byte(), ccrc::parse_error::no_byte);
    PyErr_SetObject(parse_error_type, exc.ptr());
  } catch (const cli::usage_error& e) {
    PyErr_SetObject(PyExc_ValueError, text(e.what()).ptr());
  } catch (const std::length_error& e) {
    // A size beyond what one allocation holds (pybind11 would say ValueError): memory, as the
    // tool reports it.
    PyErr_SetString(PyExc_MemoryError, e.what());
  }
}

// ---- The module, bound in phases.

// numpy's C API, set up now, while the module is imported. pybind11 sets it up at its first
// array, in a C++ static initialiser that imports numpy: made by two threads at once (a first
// to_pandas() in each), one waited on that initialiser holding the GIL, which the other,
// importing, waited for: the interpreter hung for good.
void set_up_numpy() { (void)py::array_t<double>(0); }

// ccrc.Error and ccrc.ParseError, and the translation of the C++ exceptions into them.
void bind_errors(py::module_& m) {
  error_type = PyErr_NewExceptionWithDoc("ccrc.Error", "An error ccrc reports: bad input, a missing file, a metric "
                                         "or a method the profile does not have.", PyExc_Exception, nullptr);
  parse_error_type = PyErr_NewExceptionWithDoc("ccrc.ParseError", "A malformed profile: the reader's message, with "
                                               "the file (path), and the line or byte where the problem was found.",
                                               error_type, nullptr);
  if (!error_type || !parse_error_type) throw py::error_already_set();
  m.attr("Error") = py::reinterpret_borrow<py::object>(error_type);
  m.attr("ParseError") = py::reinterpret_borrow<py::object>(parse_error_type);
  py::register_exception_translator(translate);
}

// The names of the library's enumerations, in the order of their values: the package passes
// an option as the index of its name.
void bind_option_names(py::module_& m) {
  auto names_of = [](auto e) {
    auto table = enum_names(e);
    return std::vector<std::string_view>(table.begin(), table.end());
  };
  m.attr("sizings") = names_of(ccrc::ring_sizing{});
  m.attr("layouts") = names_of(render::chart_kind{});
  m.attr("trees") = names_of(render::tree_choice{});
  m.attr("orders") = names_of(ccrc::child_order{});
  m.attr("colorings") = names_of(ccrc::color_by{});
  m.attr("kinds") = names_of(ccrc::segment_kind{});
  m.attr("label_fits") = names_of(ccrc::label_fit{});
  m.attr("matches") = names_of(ccrc::name_match{});
  m.attr("parts") = names_of(ccrc::name_part{});
  m.attr("policies") = names_of(ccrc::recursion{});
  std::vector<std::string_view> statuses;  // ccrc::diff_status
  for (int s = 0; s <= static_cast<int>(ccrc::diff_status::removed); ++s)
    statuses.push_back(ccrc::to_string(static_cast<ccrc::diff_status>(s)));
  m.attr("statuses") = statuses;
}

// Core: what a profile or view is, and what is asked of it (rows, flat profile, call graph,
// search, paths).
void bind_core_queries(py::class_<view>& core) {
  core
      .def_property_readonly("name", [](const view& v) { return text(v.src->name); })
      .def_property_readonly("format", [](const view& v) { return v.src->format; })
      .def_property_readonly("profiles", [](const view& v) { return texts(v.src->profiles); })
      .def_property_readonly("metrics", [](const view& v) { return texts(v.profile().metric_names()); })
      .def("metric_index", [](const view& v, const std::string& name) { return v.profile().metric_index(name); })
      .def("primary_metric", [](const view& v) { return ccrc::primary_metric(v.profile().metric_names()); })
      .def_property_readonly("whole", &view::whole)
      .def_property_readonly("root", [](const view& v) { return v.root; })
      .def_property_readonly("max_depth", [](const view& v) {
        return v.max_depth == ccrc::unlimited_depth ? py::object(py::none()) : py::object(py::int_(v.max_depth));
      })
      .def("same_profile", [](const view& a, const view& b) { return a.src == b.src; })
      .def("statistics", [](const view& v) {
        ccrc::tree_statistics s;
        {
          py::gil_scoped_release unlocked;
          s = ccrc::statistics(v.tree_view());
        }
        return py::make_tuple(s.nodes, s.max_depth, s.methods);
      })
      .def("rows", &rows)
      .def("rows_of", [](const view& v, const std::vector<ccrc::node_id>& nodes) { return rows_of(v, nodes); })
      .def("flat", [](const view& v, std::size_t metric) { return flat(v, metric_of(v, metric)); })
      .def("callgraph", [](const view& v, std::size_t metric) { return callgraph(v, metric_of(v, metric)); })
      .def("search", [](const view& v, std::size_t metric, const std::string& query, int part, bool ignore_case,
                        const bound& min_self, const bound& min_total) {
        return search(v, metric_of(v, metric), query, part, ignore_case, min_self, min_total);
      })
      .def("hot_path", [](const view& v, std::size_t metric) {
        std::vector<ccrc::node_id> path;
        {
          py::gil_scoped_release unlocked;
          path = hot_path(v, metric_of(v, metric));
        }
        return rows_of(v, path);
      })
      .def("path", [](const view& v, std::int64_t node) {
        if (node < 1 || static_cast<std::uint64_t>(node) >= v.tree().size())
          throw ccrc::error("no calling context " + std::to_string(node) + " (contexts are 1 to " +
                            std::to_string(v.tree().size() - 1) + ")");
        return text(ccrc::path_string(v.tree(), static_cast<ccrc::node_id>(node)));
      })
      .def("node", [](const view& v, const std::string& path) { return ccrc::node_at_path(v.tree(), path); })
      .def("subtree", [](const view& v, std::int64_t node) {
        if (node < 0 || static_cast<std::uint64_t>(node) >= v.tree().size())
          throw ccrc::error("no calling context " + std::to_string(node) + " in the profile");
        auto n = static_cast<ccrc::node_id>(node);
        std::uint32_t level = v.tree_view().level(n);
        if (level == ccrc::unlimited_depth)
          throw ccrc::error("the calling context " + ccrc::path_string(v.tree(), n) + " is not in this view");
        std::uint32_t depth = v.max_depth == ccrc::unlimited_depth ? v.max_depth : v.max_depth - level;
        return view{v.src, n, depth};
      })
      .def("depth_limited", [](const view& v, std::uint32_t levels) {
        return view{v.src, v.root, std::min(levels, v.max_depth)};
      });
}

// Core: the views and transformed profiles it gives.
void bind_core_transforms(py::class_<view>& core) {
  core
      .def("eliminate_recursion", [](const view& v, int policy) {
        return transformed(v, "eliminate_recursion()", [&](const ccrc::profile& p) {
          return ccrc::eliminate_recursion(p, static_cast<ccrc::recursion>(policy));
        });
      })
      .def("invert", [](const view& v, std::uint32_t max_depth) {
        return transformed(v, "invert()", [&](const ccrc::profile& p) { return ccrc::invert(p, max_depth); });
      })
      .def("focus", [](const view& v, const std::vector<std::string>& names) {
        ccrc::method_set s = methods_of(v.profile(), names);
        return transformed(v, "focus()", [&](const ccrc::profile& p) { return ccrc::focus_function(p, s); });
      })
      .def("merge_function", [](const view& v, const std::vector<std::string>& names) {
        ccrc::method_set s = methods_of(v.profile(), names);
        return transformed(v, "merge_function()", [&](const ccrc::profile& p) { return ccrc::merge_function(p, s); });
      })
      .def("drop_function", [](const view& v, const std::vector<std::string>& names) {
        ccrc::method_set s = methods_of(v.profile(), names);
        return transformed(v, "drop_function()", [&](const ccrc::profile& p) { return ccrc::drop_function(p, s); });
      });
}

// Core: its charts, the viewer page, and the profile written to a file.
void bind_core_output(py::class_<view>& core) {
  core
      .def("ring_chart", [](const view& v, std::size_t metric, int sizing, int order, double min_px, double padding,
                            double width, double height, int tree) {
        return ring_chart(v, request_of(v, metric, sizing, order, min_px, padding, width, height), tree);
      })
      .def("svg", [](const view& v, std::size_t metric, int sizing, int order, double min_px, double padding, double width,
                     double height, int tree, std::optional<std::tuple<std::string, int, bool>> highlight, int color_by,
                     std::optional<std::string> title, int layout) {
        return text(svg_text(v, request_of(v, metric, sizing, order, min_px, padding, width, height), tree, highlight,
                             color_by, title, layout));
      })
      .def("viewer_html", [](const view& v, std::optional<view> baseline) { return text(viewer_html(v, baseline)); })
      .def("write_viewer", [](const view& v, const std::string& path, std::optional<view> baseline) {
        v.require_whole("write_viewer()");
        if (baseline) baseline->require_whole("write_viewer()");
        py::gil_scoped_release unlocked;
        write_viewer(path, v.profile(), v.src->name, baseline ? &baseline->profile() : nullptr,
                     baseline ? baseline->src->name : "");
      })
      .def("write", [](const view& v, const std::string& path, bool force) {
        v.require_whole("write()");
        cli::check_output_path(path);
        std::vector<std::string_view> options;
        if (force) options.push_back("--force");
        const cli::args a(options, {{}, {"--force"}});
        py::gil_scoped_release unlocked;
        cli::timings unused;
        cli::save_profile(path, v.profile(), unused, a);
      });
}

void bind_core(py::module_& m) {
  py::class_<view> core(m, "Core", "A profile, or a view of one (see ccrc.Profile)");
  bind_core_queries(core);
  bind_core_transforms(core);
  bind_core_output(core);
}

// The module's functions: reading, merging, comparing.
void bind_functions(py::module_& m) {
  m.def("display_name", [](const std::string& full) { return text(ccrc::display_name(full)); },
        "The name of a frame as a person reads it: the function's own name (see docs/ring-charts.md).");
  m.def("read_path", &read_path);
  m.def("read_bytes", &read_bytes);
  m.def("merge", &merge);
  m.def("diff", &diff);
}

// EnsembleCore, many runs' statistics, and ensemble() that makes one.
void bind_ensemble(py::module_& m) {
  py::class_<ensemble_core, std::shared_ptr<ensemble_core>>(m, "EnsembleCore", "Many runs' statistics (see ccrc.Ensemble)")
      .def_property_readonly("runs", [](const ensemble_core& e) { return e.stats.runs(); })
      .def_property_readonly("inputs", [](const ensemble_core& e) { return texts(e.inputs); })
      .def_property_readonly("metrics", [](const ensemble_core& e) { return texts(e.stats.metric_names()); })
      .def_property_readonly("metric", [](const ensemble_core& e) { return text(e.metric); })
      .def("__len__", [](const ensemble_core& e) { return e.stats.size() - 1; })
      .def("path", [](const ensemble_core& e, std::int64_t node) {
        if (node < 1 || static_cast<std::uint64_t>(node) >= e.stats.size()) throw py::index_error("no calling context " + std::to_string(node));
        return text(ccrc::path_string(e.stats.tree(), static_cast<ccrc::node_id>(node)));
      })
      .def("rows", &ensemble_rows)
      .def("distances", &ensemble_distances)
      .def("clusters", &ensemble_clusters)
      .def("profile", [](const ensemble_core& e) {
        ccrc::profile p;
        {
          py::gil_scoped_release unlocked;
          p = ccrc::ensemble_profile(e.stats);
        }
        return view{std::make_shared<const source>(source{std::move(p), "ensemble", "", {}})};
      });
  m.def("ensemble", [](const std::vector<std::variant<std::string, view>>& runs, std::optional<std::string> metric, unsigned threads,
                       const std::string& pick, std::uint64_t max_document_bytes) {
    return ensemble_of(runs, std::move(metric), threads, pick, max_document_bytes);
  });
}

}  // namespace

PYBIND11_MODULE(_ccrc, m) {
  m.doc() = "The compiled part of the ccrc package: use `import ccrc` (docs/python.md).";
  set_up_numpy();
  bind_errors(m);
  bind_option_names(m);
  bind_core(m);
  bind_functions(m);
  bind_ensemble(m);
}
