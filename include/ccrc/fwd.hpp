// ccrc - forward declarations of ccrc's types.
#pragma once

#include <ccrc/concepts.hpp>
#include <ccrc/tree/ids.hpp>

#include <cstddef>
#include <cstdint>

namespace ccrc {

template <std::size_t N>
struct fixed_string;
class symbol_table;
class call_tree;
class tree_view;
class view_history;
class method_set;
class profile;
template <class Tree>
class cursor;
struct tree_statistics;
struct name_parts;
struct name_query;
struct search_query;
struct search_result;
template <class Tree>
struct transformed;
template <class Tree>
struct intersection;
template <class Tree>
class pipeline;
template <metric_value T>
class call_graph;
template <class Tree>
struct graph_tree;
struct folded_options;
struct cct_shape;
struct generator_model;
struct dacapo_benchmark;
struct error;
class parse_error;
struct capacity_error;
struct ring_segment;
struct ring_options;
struct ring_layout;
class ring_index;
struct node_tooltip;
struct match_options;
struct context_matching;
struct diff_run;
struct diff_options;
struct cct_diff;
struct diff_ring_segment;
enum class diff_status : std::uint8_t;
struct blueprint_options;
struct blueprint_box;
struct blueprint;
struct benchmark_series;
struct version_series;
struct series_jump;
struct jump_options;

}  // namespace ccrc
