// ccrc - forward declarations of ccrc's public types, each template with its defaults (given
// here once: the definitions do not repeat them), and its enumerations.
#pragma once

#include <ccrc/concepts.hpp>

#include <cstddef>
#include <cstdint>

namespace ccrc {

// tree/ (ccrc::metric and fixed_string are declared in tree/metric.hpp only: clang cannot
// redeclare a template whose parameter's type is a class template's placeholder)
class symbol_table;
class call_tree;
class child_lookup;
template <class... Metrics>
class cct;
class profile;
class tree_view;
class view_history;
class method_set;
template <context_tree Tree>
class cursor;
struct metric_unit;
class preorder_index;

// algorithm/
struct tree_statistics;
template <metric_value T>
struct flat_entry;
struct flat_options;
enum class name_style;
struct name_parts;
struct regex_options;
class regex;
enum class name_part;
enum class name_match;
struct name_query;
struct threshold;
struct search_query;
struct search_result;
class method_contexts;
class method_positions;
struct position_search_result;

// transform/
template <buildable_tree Tree>
struct transformed;
template <buildable_tree Tree>
struct intersection;
enum class recursion;
template <buildable_tree Tree>
class pipeline;
struct cost_call_graph;
struct unfold_call_graph_options;
struct unfolded_call_graph;
struct cost_overflow;
struct merge_all_options;

// graph/
struct call_edge;
template <metric_value T>
class call_graph;
template <metric_value T>
struct function_entry;
template <metric_value T>
struct call_entry;
template <metric_value T>
struct call_butterfly;
enum class rank_by;
struct top_options;
template <buildable_tree Tree>
struct graph_tree;
struct bottom_up_node;

// geometry/
enum class ring_sizing : std::uint8_t;
enum class child_order : std::uint8_t;
enum class segment_kind : std::uint8_t;
struct point;
struct ring_segment;
struct ring_options;
struct ring_layout;
enum class icicle_kind : std::uint8_t;
struct icicle_segment;
struct icicle_options;
struct icicle_layout;
class ring_index;
enum class color_by : std::uint8_t;
enum class label_fit : std::uint8_t;
struct box_label;
enum class highlight_state : std::uint8_t;
struct metric_reading;
struct node_tooltip;
struct rgb;
class chart_colors;
struct first_view_options;
template <class Layout>
struct basic_first_view;
class highlight_marks;
struct label_style;
struct ring_label;

// io/
struct folded_options;
struct perf_script_options;
struct callgrind_options;
enum class profile_format : std::uint8_t;
struct read_options;
struct read_result;
struct profile_input;
struct format_info;

// formats/ (opt-in: declaring them needs none of their libraries)
template <class Read>
class gzip_source;
class gzip_writer;
struct pprof_write_options;
struct speedscope_options;
struct speedscope_write_options;
struct trace_warnings;
struct trace_event_options;
struct v8_profile_options;
struct gecko_profile_options;
class document_too_large;
namespace formats {
class json_text;
}

// diff/
struct match_options;
struct context_matching;
enum class diff_status : std::uint8_t;
struct diff_run;
struct diff_options;
struct cct_diff;
struct diff_ring_segment;
struct blueprint_options;
struct blueprint_box;
struct blueprint_layout;
struct benchmark_series;
struct version_series;
struct series_jump;
struct jump_options;

// ensemble/
enum class cost_scope : std::uint8_t;
struct moments;
struct value_statistics;
struct statistics_columns;
class ensemble;
struct ensemble_all_options;
enum class ensemble_statistic : std::uint8_t;
struct ensemble_metric;
struct ensemble_metrics;
struct share_vector;
class distance_matrix;
struct distance_options;
struct cluster_options;
struct run_cluster;
struct ensemble_json_options;
enum class variation : std::uint8_t;
struct variation_band;

// generate/ (opt-in)
struct cct_shape;
struct generator_model;
struct dacapo_benchmark;

// errors
struct error;
class parse_error;
struct capacity_error;

}  // namespace ccrc
