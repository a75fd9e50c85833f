// ccrc - calling context profiles: the whole library in one include, except the opt-in
// generator of synthetic CCTs (<ccrc/generate/generator.hpp>, <ccrc/generate/dacapo.hpp>).
#pragma once

#include <ccrc/config.hpp>
#include <ccrc/error.hpp>
#include <ccrc/concepts.hpp>

#include <ccrc/ids.hpp>
#include <ccrc/tree/metric.hpp>
#include <ccrc/tree/symbol_table.hpp>
#include <ccrc/tree/call_tree.hpp>
#include <ccrc/tree/child_lookup.hpp>
#include <ccrc/tree/cct.hpp>
#include <ccrc/tree/profile.hpp>
#include <ccrc/tree/metric_unit.hpp>
#include <ccrc/tree/cursor.hpp>
#include <ccrc/transform/merge.hpp>
#include <ccrc/transform/intersect.hpp>
#include <ccrc/tree/view.hpp>
#include <ccrc/tree/path.hpp>
#include <ccrc/tree/history.hpp>
#include <ccrc/tree/method_set.hpp>
#include <ccrc/tree/preorder_index.hpp>

#include <ccrc/algorithm/inclusive.hpp>
#include <ccrc/algorithm/depth.hpp>
#include <ccrc/algorithm/statistics.hpp>
#include <ccrc/algorithm/flat.hpp>
#include <ccrc/algorithm/name_parts.hpp>
#include <ccrc/algorithm/display_name.hpp>
#include <ccrc/algorithm/regex.hpp>
#include <ccrc/algorithm/search.hpp>

#include <ccrc/transform/transformed.hpp>
#include <ccrc/transform/eliminate_recursion.hpp>
#include <ccrc/transform/function.hpp>
#include <ccrc/transform/invert.hpp>
#include <ccrc/transform/collapse_runs.hpp>
#include <ccrc/transform/pipeline.hpp>
#include <ccrc/transform/unfold_call_graph.hpp>
#include <ccrc/transform/subtree.hpp>

#include <ccrc/graph/call_graph.hpp>
#include <ccrc/graph/query.hpp>
#include <ccrc/graph/display_tree.hpp>

#include <ccrc/io/folded.hpp>
#include <ccrc/io/perf_script.hpp>
#include <ccrc/io/callgrind.hpp>
#include <ccrc/io/cct_text.hpp>
#include <ccrc/io/cct_binary.hpp>
#include <ccrc/io/number.hpp>
#include <ccrc/io/json_writer.hpp>
#include <ccrc/io/read_profile.hpp>

#include <ccrc/geometry/ring_index.hpp>
#include <ccrc/geometry/ring_chart.hpp>
#include <ccrc/geometry/icicle.hpp>
#include <ccrc/geometry/hit_test.hpp>
#include <ccrc/geometry/tooltip.hpp>
#include <ccrc/geometry/label.hpp>
#include <ccrc/geometry/color.hpp>
#include <ccrc/geometry/highlight.hpp>
#include <ccrc/geometry/first_view.hpp>

#include <ccrc/diff/match.hpp>
#include <ccrc/diff/diff.hpp>
#include <ccrc/diff/hot_path.hpp>
#include <ccrc/diff/rank.hpp>
#include <ccrc/diff/blueprint.hpp>
#include <ccrc/diff/series.hpp>
#include <ccrc/diff/series_csv.hpp>
#include <ccrc/diff/diff_ring.hpp>

#include <ccrc/ensemble/statistics.hpp>
#include <ccrc/ensemble/ensemble_all.hpp>
#include <ccrc/ensemble/profile.hpp>
#include <ccrc/ensemble/distance.hpp>
#include <ccrc/ensemble/cluster.hpp>
#include <ccrc/ensemble/json.hpp>
#include <ccrc/ensemble/variation.hpp>
