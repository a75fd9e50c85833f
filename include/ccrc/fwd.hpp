// ccrc - forward declarations of ccrc's types.
#pragma once

#include <ccrc/concepts.hpp>
#include <ccrc/tree/ids.hpp>

#include <cstddef>

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
template <metric_value T>
class call_graph;
template <class Tree>
struct graph_tree;
struct folded_options;
struct error;
class parse_error;
struct capacity_error;

}  // namespace ccrc
