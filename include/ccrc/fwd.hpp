// ccrc - forward declarations of ccrc's types.
#pragma once

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
struct folded_options;
struct error;
class parse_error;
struct capacity_error;
struct ring_segment;
struct ring_options;
struct ring_layout;
class ring_index;
struct node_tooltip;

}  // namespace ccrc
