// The papers' Figure 1 CCT and small profiles written as stacks.
#pragma once

#include <ccrc/io/folded.hpp>
#include <ccrc/tree/path.hpp>

#include <doctest/doctest.h>

#include <initializer_list>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace test {

/// Figure 1 with metrics calls and bytecodes, from examples/data/figure1.folded.
inline ccrc::profile figure1() {
  return ccrc::read_folded_file(CCRC_SOURCE_DIR "/examples/data/figure1.folded");
}

/// Splits "a;b;c" into frames.
inline std::vector<std::string> split(std::string_view path) {
  std::vector<std::string> frames;
  for (std::size_t pos = 0; !path.empty() && pos <= path.size();) {
    std::size_t stop = std::min(path.find(';', pos), path.size());
    frames.emplace_back(path.substr(pos, stop - pos));
    pos = stop + 1;
  }
  return frames;
}

/// Adds one value per metric to stack "a;b;c" (to its last frame's self values).
inline void add_stack(ccrc::profile& p, std::string_view stack, std::initializer_list<double> values) {
  std::vector<ccrc::frame_id> frames;
  for (const auto& f : split(stack)) frames.push_back(p.intern(f));
  p.add_path(frames, std::vector<double>(values));
}

/// A one-metric profile from stacks "a;b;c" and the self value of each one's last frame.
inline ccrc::profile stacks(std::initializer_list<std::pair<std::string_view, double>> lines) {
  ccrc::profile p;
  for (auto [line, value] : lines) add_stack(p, line, {value});
  return p;
}

/// The paths of every calling context of p (the root excluded).
inline std::set<std::string> context_paths(const ccrc::profile& p) {
  std::set<std::string> out;
  for (ccrc::node_id n = 1; n < p.size(); ++n) out.insert(ccrc::path_string(p.tree(), n));
  return out;
}

}  // namespace test
