// ccrc - forward declarations of ccrc's types.
#pragma once

#include <ccrc/tree/ids.hpp>

#include <cstddef>
#include <cstdint>

namespace ccrc {

template <std::size_t N>
struct fixed_string;
class symbol_table;
class call_tree;
class tree_view;
class profile;
template <class Tree>
class cursor;
struct tree_statistics;
struct folded_options;
struct error;
class parse_error;
struct capacity_error;
struct match_options;
struct context_matching;
struct diff_run;
struct diff_options;
struct cct_diff;
enum class diff_status : std::uint8_t;
struct blueprint_options;
struct blueprint_box;
struct blueprint;
struct benchmark_series;
struct version_series;
struct series_jump;
struct jump_options;

}  // namespace ccrc
