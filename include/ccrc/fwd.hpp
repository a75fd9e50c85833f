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
struct cct_shape;
struct generator_model;
struct dacapo_benchmark;
struct error;
class parse_error;
struct capacity_error;

}  // namespace ccrc
