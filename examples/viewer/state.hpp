// The viewer module's state, shared by its sources (viewer.cpp: the charts; tables.cpp: the
// call tree, bottom-up and butterfly tables). Not part of the library.
#pragma once

#include <ccrc/algorithm/inclusive.hpp>
#include <ccrc/algorithm/search.hpp>
#include <ccrc/diff/diff.hpp>
#include <ccrc/ensemble/profile.hpp>
#include <ccrc/ensemble/variation.hpp>
#include <ccrc/geometry/color.hpp>
#include <ccrc/geometry/highlight.hpp>
#include <ccrc/geometry/icicle.hpp>
#include <ccrc/geometry/ring_chart.hpp>
#include <ccrc/geometry/ring_index.hpp>
#include <ccrc/graph/bottom_up.hpp>
#include <ccrc/graph/call_graph.hpp>
#include <ccrc/io/json_writer.hpp>
#include <ccrc/tree/preorder_index.hpp>
#include <ccrc/tree/profile.hpp>

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
#define VIEWER_API extern "C" EMSCRIPTEN_KEEPALIVE
#else
#define VIEWER_API extern "C"
#endif

namespace viewer_module {

// One tree the viewer shows (the profile as read, with its recursion eliminated, or its call
// graph's display tree) and what every layout and search of it reads: ag(M) and a ring_index of
// every metric, made with the tree so that switching metrics costs a layout, not an index
// (on 2 million contexts the page takes 130-180 ms to build one), the preorder and each method's
// contexts as positions in it, so that a search as the user types visits only the contexts of
// the methods it matches and marks them without looking each up or walking up the tree.
struct shown_tree {
  ccrc::profile profile;
  std::vector<std::vector<double>> ag;
  std::vector<ccrc::ring_index> index;
  ccrc::preorder_index order;
  ccrc::method_positions by_method;
  // The palette of each metric and coloring, made on first use (a walk over the tree).
  std::vector<std::optional<ccrc::chart_colors>> palettes;
  // Kaes's call graph of every metric, for the butterfly, made on first use.
  std::optional<ccrc::call_graph<double>> graph;
  // An ensemble profile's statistics (none for another profile), and the coefficient of
  // variation of each of its metrics' inclusive values, made on first use.
  std::optional<ccrc::ensemble_metrics> ensemble;
  std::vector<std::vector<double>> variations;

  explicit shown_tree(ccrc::profile p)
      : profile(std::move(p)),
        ag(ccrc::inclusive_columns(profile)),
        order(profile.tree()),
        by_method(profile.tree(), order),
        palettes(2 * profile.metric_count()),
        ensemble(ccrc::find_ensemble_metrics(profile.metric_names())) {
    index.reserve(ag.size());
    for (const std::vector<double>& column : ag) index.emplace_back(profile.tree(), column);
  }
};

// The contract with the page: the fields of a segment's record, declared here once. The page
// reads these names and the enums' codes from ccrc_contract(), so that no offset or code is
// written twice. Floats: a ring segment's radii and angles or an icicle box's edges, H of a
// comparison, and its label's font size and place (ccrc::ring_label's radius and angle, or
// ccrc::box_label's start). Ints: the node, its kind (ccrc::segment_kind), ring,
// parent segment, contexts, highlight (ccrc::highlight_state), label (label_codes), diff class
// (0 without a comparison, else 1 + the ccrc::diff_status), fill color (0xrrggbb: the
// palette's or the diff class's), cut at the edge (ccrc::beyond_edge: 1), last (the deepest
// context it stands for: a chain's last, else the node).
constexpr std::string_view float_fields[] = {"r0", "r1", "a0",         "a1",          "x0",          "x1",      "y0",
                                             "y1", "height", "label_font", "label_radius", "label_angle", "label_x", "label_y"};
constexpr std::string_view int_fields[] = {"node",      "kind",  "depth", "parent", "contexts",
                                           "highlight", "label", "diff",  "fill",   "edge", "last"};
constexpr std::size_t floats_per_segment = std::size(float_fields);
constexpr std::size_t ints_per_segment = std::size(int_fields);

// The index of a field by name, at compile time (a misspelt name does not compile).
template <std::size_t N>
consteval std::size_t field(const std::string_view (&fields)[N], std::string_view name) {
  for (std::size_t i = 0; i < N; ++i)
    if (fields[i] == name) return i;
  throw "no such field";
}

// The records the page and the module exchange through the module's linear memory (wasm32:
// addresses are 4 bytes, doubles 8-aligned): ccrc_layout takes a layout_request and hands back
// a layout_result, ccrc_search takes a search_request. Their layout is the contract: fixed here
// by static_asserts (docs/viewer.md lists it), described to the page by ccrc_contract() as each
// field's name, type and offset, so that the page names a field and never an offset.
// Addresses are of NUL-terminated UTF-8 text or of the segment arrays; 0 is none.
struct layout_request {
  double width = 0, height = 0;  // the canvas, CSS pixels
  double min_px = 1;             // segments thinner than this are lines
  const char* path = nullptr;    // the center's frames separated by ';' (none or empty: the top)
  std::int32_t depth = 0;        // levels below the center: depth_all, depth_first_view or a number
  std::int32_t sizing = 0;       // ccrc::ring_sizing's code
  std::int32_t metric = 0;
  std::int32_t tree = 0;         // tree_automatic, tree_as_read, ccrc::recursion's code or tree_display
  std::int32_t color_by = 0;     // ccrc::color_by's code
  std::int32_t chart = 0;        // chart_ring or chart_icicle
};

// A layout as handed out: valid until the next ccrc_layout (ccrc_highlight brings its search
// fields up to date).
struct layout_result {
  double center_x = 0, center_y = 0;  // the ring chart's center (0 for an icicle)
  double match_share = 0;             // the share of the total the search's contexts cover
  const float* floats = nullptr;      // floats_per_segment a segment (float_fields)
  const std::int32_t* ints = nullptr;  // ints_per_segment a segment (int_fields)
  const char* labels = nullptr;       // the labels that fit, one a line, in segment order
  const char* caption = nullptr;      // what the first view did (ccrc::first_view_caption), or ""
  const char* nearest_caller = nullptr;  // where the path named no context: the one shown instead
  std::int32_t count = -1;            // segments; -1: no layout (the message in ccrc_error_text)
  std::int32_t serial = 0;            // which layout: the same when a kept one is handed back
  std::int32_t rings = 0;             // the ring chart's rings or the icicle's rows
  std::int32_t matches = 0;           // the contexts the search finds
};

struct search_request {
  const char* text = nullptr;       // as `ccrc search` takes its query (ccrc::parse_name_query)
  const char* min_total = nullptr;  // as `ccrc search --min-total` takes it; none or empty: no bound
  std::int32_t part = 0;            // ccrc::name_part's code
  std::int32_t ignore_case = 0;
};

static_assert(sizeof(void*) == 4, "the records are laid out for wasm32");
static_assert(offsetof(layout_request, width) == 0 && offsetof(layout_request, height) == 8 &&
              offsetof(layout_request, min_px) == 16 && offsetof(layout_request, path) == 24 &&
              offsetof(layout_request, depth) == 28 && offsetof(layout_request, sizing) == 32 &&
              offsetof(layout_request, metric) == 36 && offsetof(layout_request, tree) == 40 &&
              offsetof(layout_request, color_by) == 44 && offsetof(layout_request, chart) == 48 &&
              sizeof(layout_request) == 56);
static_assert(offsetof(layout_result, center_x) == 0 && offsetof(layout_result, center_y) == 8 &&
              offsetof(layout_result, match_share) == 16 && offsetof(layout_result, floats) == 24 &&
              offsetof(layout_result, ints) == 28 && offsetof(layout_result, labels) == 32 &&
              offsetof(layout_result, caption) == 36 && offsetof(layout_result, nearest_caller) == 40 &&
              offsetof(layout_result, count) == 44 && offsetof(layout_result, serial) == 48 &&
              offsetof(layout_result, rings) == 52 && offsetof(layout_result, matches) == 56 &&
              sizeof(layout_result) == 64);
static_assert(offsetof(search_request, text) == 0 && offsetof(search_request, min_total) == 4 &&
              offsetof(search_request, part) == 8 && offsetof(search_request, ignore_case) == 12 &&
              sizeof(search_request) == 16);

// A record's field as ccrc_contract() describes it: its type for the page ("f64", "i32", or
// "u32": an address) and offset.
struct record_field {
  std::string_view name, type;
  std::size_t offset;
};
template <class T>
consteval std::string_view record_type() {
  if constexpr (std::is_same_v<T, double>) return "f64";
  else if constexpr (std::is_same_v<T, std::int32_t>) return "i32";
  else {
    static_assert(std::is_pointer_v<T>, "a record holds doubles, int32s and addresses");
    return "u32";
  }
}
// A field by its name, written once.
#define VIEWER_RECORD_FIELD(record, field) \
  record_field { #field, record_type<decltype(record::field)>(), offsetof(record, field) }

constexpr record_field layout_request_fields[] = {
    VIEWER_RECORD_FIELD(layout_request, width),  VIEWER_RECORD_FIELD(layout_request, height),
    VIEWER_RECORD_FIELD(layout_request, min_px), VIEWER_RECORD_FIELD(layout_request, path),
    VIEWER_RECORD_FIELD(layout_request, depth),  VIEWER_RECORD_FIELD(layout_request, sizing),
    VIEWER_RECORD_FIELD(layout_request, metric), VIEWER_RECORD_FIELD(layout_request, tree),
    VIEWER_RECORD_FIELD(layout_request, color_by), VIEWER_RECORD_FIELD(layout_request, chart)};
constexpr record_field layout_result_fields[] = {
    VIEWER_RECORD_FIELD(layout_result, center_x), VIEWER_RECORD_FIELD(layout_result, center_y),
    VIEWER_RECORD_FIELD(layout_result, match_share), VIEWER_RECORD_FIELD(layout_result, floats),
    VIEWER_RECORD_FIELD(layout_result, ints), VIEWER_RECORD_FIELD(layout_result, labels),
    VIEWER_RECORD_FIELD(layout_result, caption), VIEWER_RECORD_FIELD(layout_result, nearest_caller),
    VIEWER_RECORD_FIELD(layout_result, count), VIEWER_RECORD_FIELD(layout_result, serial),
    VIEWER_RECORD_FIELD(layout_result, rings), VIEWER_RECORD_FIELD(layout_result, matches)};
constexpr record_field search_request_fields[] = {
    VIEWER_RECORD_FIELD(search_request, text), VIEWER_RECORD_FIELD(search_request, min_total),
    VIEWER_RECORD_FIELD(search_request, part), VIEWER_RECORD_FIELD(search_request, ignore_case)};
#undef VIEWER_RECORD_FIELD

// ccrc_layout's trees besides ccrc::recursion's policies (`tree_automatic`: as the first view
// of the profile chooses, ccrc::prefer_eliminated), its depths besides a number of levels,
// ccrc_table's kinds.
constexpr int tree_automatic = -2, tree_as_read = -1, tree_display = 3;
constexpr int depth_first_view = -1, depth_all = 0;
constexpr int table_top_down = 0, table_bottom_up = 1;
// ccrc_layout's charts.
constexpr int chart_ring = 0, chart_icicle = 1;

// A label's code: how it runs, plus flags.
struct label_codes {
  static constexpr int none = 0, along = 1, across = 2, reversed = 4, light = 8;
};

// A row of a table the page shows (tables.cpp): its depth, whether it is open, and what it is:
// a node of the tree shown (the call tree), or a method (the bottom-up tree's top level) or the
// index of a bottom_up_node (below it).
struct table_row {
  std::uint32_t depth;
  bool expanded;
  std::uint32_t item;
};

// A table's rows in display order, and what they are of; the bottom-up tree's nodes, made as
// rows are opened.
struct table {
  const shown_tree* of = nullptr;
  std::size_t metric = 0;
  std::vector<table_row> rows;
  // The bottom-up tree: its nodes as made; per method, its self value, whether it has callers
  // at all, and its node once opened.
  std::vector<ccrc::bottom_up_node> nodes;
  std::vector<double> function_self;
  std::vector<char> called;
  std::vector<std::uint32_t> root_of;
};

// What a layout is made from: its request, with the tree it stands for (tree_automatic decided)
// and the metric (in range) in place of those asked for, and its path kept.
struct layout_inputs {
  int tree;
  std::size_t metric;
  std::string path;
  std::int32_t depth, sizing, color_by, chart;
  double width, height, min_px;
  bool operator==(const layout_inputs&) const = default;
};

// A chart laid out and exported for the page, with what it was made from: switching from the
// ring to the icicle and back, or to a table and back, takes a layout kept when nothing it
// depends on changed, instead of laying out 2 million contexts again.
struct laid_out_chart {
  std::optional<layout_inputs> made_of;  // none: nothing kept
  std::uint32_t serial = 0;              // which layout it is (viewer::layouts, when made)
  std::optional<ccrc::tree_view> view;   // laid out (a first view's: without its depth)
  std::variant<ccrc::ring_layout, ccrc::icicle_layout> chart;
  std::vector<float> floats;
  std::vector<std::int32_t> ints;
  std::string labels;
  std::string caption;  // what a first view did (ccrc::first_view_caption), else empty
  double drawn = 0;     // the share of the cost a first view draws (ccrc::drawn_share), else NaN
  std::uint64_t marked_by = 0;  // the search its highlight is of (viewer::searches)
};

struct viewer {
  std::unique_ptr<shown_tree> original;
  // The tree shown instead of the original, and what it is: (0-2) the original with its
  // recursion eliminated per that policy, or (3) its call graph's display tree, whose masters
  // are chosen by the metric, the second member.
  std::unique_ptr<shown_tree> derived;
  std::pair<int, std::size_t> derived_of{-1, 0};
  // The tree `tree_automatic` stands for, per metric: decided by the first view of the whole
  // profile on that metric (tree_as_read, or recursion::all's code), and kept so that a path
  // chosen in it stays a path of the tree shown.
  std::vector<std::optional<int>> automatic;
  shown_tree* current = nullptr;
  std::size_t metric = 0;
  ccrc::color_by colors = ccrc::color_by::method;
  // The chart shown (its last layout), and the one shown before it, kept for a switch back.
  laid_out_chart shown, before;
  std::optional<ccrc::search_query> query;  // what is highlighted, re-run on the current tree
  ccrc::position_search_result found;
  std::optional<ccrc::highlight_marks> marks;  // of `found`, read by every layout until the next search
  const shown_tree* searched = nullptr;  // the tree `found` is of
  bool search_stale = false;             // the query changed since
  std::uint64_t searches = 1;            // searches run, counting from 1
  std::uint32_t layouts = 0;             // layouts made
  std::optional<std::string> nearest_caller;  // the last layout's center, where its path named no context
  layout_result result;                       // the record ccrc_layout and ccrc_highlight hand out

  // A first run to compare the profile with (the second run): the diff of the calling
  // contexts as read, on the metric shown, made when first drawn.
  std::unique_ptr<ccrc::profile> baseline;
  std::optional<ccrc::cct_diff> diff;
  std::size_t diff_metric = 0;
  std::string diff_counts;  // ccrc_compare_info's answer for `diff`, counted once when it is made
  std::string compare_note;  // why the chart is not colored by the diff, when it is not

  table top_down, bottom_up;  // the call tree and bottom-up tables (tables.cpp)

  std::string text;  // the last string handed out
  // The flat profile last made, and what it was of: sizing and colors change no view.
  std::string flat;
  std::tuple<const shown_tree*, ccrc::node_id, std::uint32_t, std::size_t, int, ccrc::color_by> flat_of{};
};

inline viewer& the() {
  static viewer v;
  return v;
}

inline const char* hand_out(std::string s) {
  the().text = std::move(s);
  return the().text.c_str();
}

}  // namespace viewer_module
