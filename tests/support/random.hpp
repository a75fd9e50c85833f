// Seeded random trees for property tests, and a canonical form to compare trees by.
#pragma once

#include <ccrc/detail/random.hpp>
#include <ccrc/tree/profile.hpp>

#include <cstdint>
#include <map>
#include <numeric>
#include <string>
#include <vector>

namespace test {

/// A small deterministic generator (splitmix64), identical on every platform.
using rng = ccrc::detail::random;

/// The total of every metric of p, in column order.
inline std::vector<double> totals(const ccrc::profile& p) {
  std::vector<double> out;
  p.for_each_column([&](std::string_view, auto c) { out.push_back(std::accumulate(c.begin(), c.end(), 0.0)); });
  return out;
}

/// The name of the i-th random method (or metric): "m<i>".
inline std::string method_name(std::size_t i) {
  std::string name = "m";
  name += std::to_string(i);
  return name;
}

/// A stack sample: frames outermost first, and one value per metric.
struct sample {
  std::vector<std::string> frames;
  std::vector<double> values;
};

/// Random samples over `methods` method names m0..m{methods-1}, stacks up to `max_depth`
/// deep, with recursion (a method may repeat) and shared prefixes (stacks extend earlier ones).
inline std::vector<sample> random_samples(rng& r, std::size_t count, std::uint32_t methods,
                                          std::uint32_t max_depth, std::size_t metrics = 2) {
  std::vector<sample> out;
  for (std::size_t i = 0; i < count; ++i) {
    sample s;
    if (!out.empty() && r.chance(0.6)) {  // extend or cut a previous stack: realistic sharing
      const auto& base = out[r.below(static_cast<std::uint32_t>(out.size()))].frames;
      s.frames.assign(base.begin(), base.begin() + r.below(static_cast<std::uint32_t>(base.size()) + 1));
    }
    std::uint32_t extra = r.below(max_depth + 1);
    while (s.frames.size() < max_depth && extra-- > 0) s.frames.push_back(method_name(r.below(methods)));
    if (s.frames.empty()) s.frames.push_back("m0");
    for (std::size_t m = 0; m < metrics; ++m)
      s.values.push_back(r.chance(0.2) ? 0.0 : static_cast<double>(r.below(1000)));
    out.push_back(std::move(s));
  }
  return out;
}

/// Interns the frames of a sample in a tree.
template <class Tree>
std::vector<ccrc::frame_id> frames_of(Tree& t, const sample& s) {
  std::vector<ccrc::frame_id> ids;
  for (const auto& f : s.frames) ids.push_back(t.intern(f));
  return ids;
}

/// A profile holding the samples.
inline ccrc::profile profile_of(const std::vector<sample>& samples, std::size_t metrics = 2) {
  std::vector<std::string> names;
  for (std::size_t m = 0; m < metrics; ++m) names.push_back(method_name(m));
  ccrc::profile p(names);
  for (const auto& s : samples) p.add_path(frames_of(p, s), s.values);
  return p;
}

/// A tree as "path" -> metric values, node ids and child order forgotten: two trees are the
/// same calling context profile iff their canonical forms are equal.
using canonical_form = std::map<std::string, std::vector<double>>;

template <class Tree>
canonical_form canonical(const Tree& t) {
  const ccrc::call_tree& tree = t.tree();
  std::vector<std::string> path(tree.size());
  canonical_form out;
  for (ccrc::node_id n = 0; n < tree.size(); ++n) {
    if (n != ccrc::root_node) {
      const std::string& parent = path[tree.parent(n)];
      path[n] = parent + (parent.empty() ? "" : ";") + std::string(tree.name(n));
    }
    std::vector<double> values;
    t.for_each_column([&](std::string_view, auto column) { values.push_back(static_cast<double>(column[n])); });
    out[path[n]] = std::move(values);
  }
  return out;
}

}  // namespace test
