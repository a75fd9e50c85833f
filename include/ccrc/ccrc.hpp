// ccrc - calling context profiles: the whole library in one include.
#pragma once

#include <ccrc/config.hpp>
#include <ccrc/error.hpp>
#include <ccrc/concepts.hpp>

#include <ccrc/tree/ids.hpp>
#include <ccrc/tree/metric.hpp>
#include <ccrc/tree/symbol_table.hpp>
#include <ccrc/tree/call_tree.hpp>
#include <ccrc/tree/cct.hpp>
#include <ccrc/tree/profile.hpp>
#include <ccrc/tree/cursor.hpp>
#include <ccrc/tree/merge.hpp>
#include <ccrc/tree/view.hpp>

#include <ccrc/algorithm/inclusive.hpp>
#include <ccrc/algorithm/depth.hpp>
#include <ccrc/algorithm/statistics.hpp>
#include <ccrc/algorithm/flat.hpp>

#include <ccrc/transform/transformed.hpp>
#include <ccrc/transform/eliminate_recursion.hpp>

#include <ccrc/io/folded.hpp>
#include <ccrc/io/cct_text.hpp>
#include <ccrc/io/cct_binary.hpp>

#include <ccrc/generate/generator.hpp>
#include <ccrc/generate/dacapo.hpp>
