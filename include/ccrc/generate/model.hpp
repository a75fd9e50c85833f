// ccrc - the knobs of the generator's model: what a tree's statistics leave open.
#pragma once

#include <cstdint>
#include <string_view>

namespace ccrc {

/// The knobs of the generator's model: what the statistics leave open (see generate_cct).
/// The defaults give a typical object-oriented program; ccrc::dacapo_benchmarks sets them per
/// benchmark.
struct generator_model {
  // -- the recursion-free tree
  std::uint32_t threads = 3;     ///< top-level frames (thread entry points)
  double depth_shape = 6;        ///< gamma shape of the contexts-per-level curve: larger, later peak
  double growth = 8;             ///< at most this many times more contexts at a level than at the one above
  double deepest_level = 2;      ///< expected contexts at depth D' (how thin the deepest tail is)
  double fanout_alpha = 1.3;     ///< Pareto exponent of the weights that share out children: smaller, more skewed
  double fanout_inherit = 0.5;   ///< how much a context's weight passes to its callees (bushy subtrees)
  std::uint32_t max_fanout = 1500;  ///< most callees of one context
  double method_skew = 1.0;      ///< Zipf exponent of method popularity (a few methods are called everywhere)
  double callees = 4;            ///< mean number of distinct methods a method calls (heavy-tailed)
  double locality = 0.5;         ///< share of a method's callees in its own class
  // -- recursion: contexts N - N' added by recursive calls
  double recursive_methods = 0.04;  ///< share of methods that call back into their callers
  double direct = 0.3;              ///< weight of direct recursion, f -> f
  double mutual = 0.4;              ///< weight of mutual recursion over 2-4 methods (visitors, parsers)
  double delegation = 0.3;          ///< weight of long cycles over 5-12 methods (class loading, interpreters)
  double levels = 3;                ///< mean repetitions of a recursive cycle
  double nesting = 0.3;             ///< chance a recursion starts inside another (deeper trees)
  double branches = 0.2;            ///< mean extra recursive calls per repetition (tree walks)
  double ribs = 0.5;                ///< chance a repetition calls some of its callees again
  std::uint32_t rib_depth = 3;      ///< levels of callees a rib repeats
  double deep_share = 0.05;         ///< share of N - N' in the recursion that reaches depth D
  std::uint32_t deep_cycle = 3;     ///< methods in the cycle of that recursion
  // -- metrics
  double call_drift = -0.4;   ///< mean change of log(calls) from caller to callee
  double call_spread = 1.3;   ///< its standard deviation: larger, hotter hot paths
  double bytecodes = 14;      ///< median bytecodes a method executes per call
  // -- names
  std::string_view package = "org.example";  ///< package of the program's own classes
};

}  // namespace ccrc
