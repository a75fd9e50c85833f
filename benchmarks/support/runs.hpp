// Runs of one program for the benchmarks of many profiles (merge, ensemble): pmd's shape at
// 10^5 contexts, varied from run to run as runs of one program vary.
#pragma once

#include "support/ccrc_trees.hpp"
#include "support/dacapo.hpp"

#include <ccrc/io/cct_binary.hpp>
#include <ccrc/tree/profile.hpp>

#include <cmath>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace bench {

inline constexpr std::size_t contexts_per_run = 100'000;

// Run k of the program: pmd's shape at 10^5 contexts, where 0.2% of the subtrees were not
// reached, 1% of the contexts call one of 2,000 functions the others do not, and every value
// is scaled by a factor in [0.5, 1.5).
inline ccrc::profile run_of(const ccrc::profile& base, std::uint64_t k) {
  rng r{k};
  ccrc::profile out(base.metric_names());
  std::vector<ccrc::frame_id> frames(base.symbols().frame_count());
  for (ccrc::frame_id f{1}; f < frames.size(); ++f) frames[f] = out.intern(base.symbols().name(f));
  std::vector<ccrc::node_id> map(base.size(), ccrc::null_node);
  map[ccrc::root_node] = ccrc::root_node;
  std::vector<double> values(base.metric_count());
  for (ccrc::node_id n = 1; n < base.size(); ++n) {
    ccrc::node_id parent = map[base.tree().parent(n)];
    if (parent == ccrc::null_node || r.chance(0.002)) continue;
    map[n] = out.find_or_add_child(parent, frames[base.tree().frame(n)]);
    double scale = 0.5 + r.uniform();
    for (std::size_t m = 0; m < values.size(); ++m) values[m] = std::round(base.column(m)[n] * scale);
    out.add(map[n], values);
    if (r.chance(0.01)) {
      ccrc::node_id extra = out.find_or_add_child(map[n], out.intern("extra" + std::to_string(r.below(2000))));
      out.add(extra, values);
    }
  }
  return out;
}

struct inputs {
  std::vector<std::string> cctb;  // run k's .cctb bytes
  std::size_t contexts = 0;       // in all of them
  std::size_t bytes = 0;
};

// Runs 1..count, made once.
inline const inputs& runs(std::size_t count) {
  static std::map<std::size_t, inputs> cache;
  auto it = cache.find(count);
  if (it != cache.end()) return it->second;
  const ccrc::profile& base = pmd_like(contexts_per_run);
  inputs in;
  for (std::size_t k = 1; k <= count; ++k) {
    ccrc::profile run = run_of(base, k);
    std::ostringstream out;
    ccrc::write_cctb(out, run);
    in.cctb.push_back(std::move(out).str());
    in.contexts += run.size() - 1;
    in.bytes += in.cctb.back().size();
  }
  return cache.emplace(count, std::move(in)).first->second;
}

}  // namespace bench
