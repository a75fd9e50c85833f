// A reference for transforms that move each context to a path computed from its own path:
// the expected tree built path by path, and a check of the node mapping.
#pragma once

#include "support/figure1.hpp"
#include "support/random.hpp"

#include <doctest/doctest.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace test {

/// Where a transform sends node n, whose path (outermost first) is given, or nullopt if it
/// drops it.
using path_rule =
    std::function<std::optional<std::vector<std::string>>(const std::vector<std::string>& path, ccrc::node_id n)>;

inline std::string joined(const std::vector<std::string>& frames, std::size_t count = std::string::npos) {
  std::string s;
  for (std::size_t i = 0; i < frames.size() && i < count; ++i) s += (i ? ";" : "") + frames[i];
  return s;
}

/// The canonical form of the tree in which every node of `in` went to rule(its path), with
/// every prefix of a destination present (zero if nothing went there).
template <class Tree>
canonical_form expected(const Tree& in, const path_rule& rule) {
  canonical_form out;
  std::size_t metrics = 0;
  in.for_each_column([&](std::string_view, auto) { ++metrics; });
  out[""] = std::vector<double>(metrics, 0.0);
  for (ccrc::node_id n = 0; n < in.size(); ++n) {
    auto to = rule(split(ccrc::path_string(in.tree(), n)), n);
    if (!to) continue;
    for (std::size_t k = 1; k <= to->size(); ++k) out.try_emplace(joined(*to, k), std::vector<double>(metrics, 0.0));
    auto& values = out[joined(*to)];
    std::size_t i = 0;
    in.for_each_column([&](std::string_view, auto column) { values[i++] += static_cast<double>(column[n]); });
  }
  return out;
}

/// Checks a transform's result against the rule: the same profile, and node_map sending every
/// node to the node at rule(its path) (null_node when dropped).
template <class Tree, class Result>
void check_rule(const Tree& in, const Result& r, const path_rule& rule) {
  CHECK(canonical(r.output) == expected(in, rule));
  REQUIRE(r.node_map.size() == in.size());
  for (ccrc::node_id n = 1; n < in.size(); ++n) {
    auto to = rule(split(ccrc::path_string(in.tree(), n)), n);
    if (!to) {
      CHECK(r.node_map[n] == ccrc::null_node);
    } else {
      REQUIRE(r.node_map[n] != ccrc::null_node);
      CHECK(ccrc::path_string(r.output.tree(), r.node_map[n]) == joined(*to));
    }
  }
}

/// A random profile with heavy recursion over methods m0..m{methods-1}.
inline ccrc::profile random_profile(rng& r, std::uint32_t methods = 6) {
  return profile_of(random_samples(r, 1 + r.below(40), 2 + r.below(methods), 3 + r.below(15)));
}

}  // namespace test
