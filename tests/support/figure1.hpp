// The papers' Figure 1 CCT, small profiles written as stacks, and finding nodes by path.
#pragma once

#include <ccrc/io/folded.hpp>

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

/// The node at "main;f;g" (the root for ""); fails the test if absent.
inline ccrc::node_id node_at(const ccrc::call_tree& t, std::string_view path) {
  ccrc::node_id n = ccrc::root_node;
  for (const auto& name : split(path)) {
    auto f = t.symbols().find(name);
    REQUIRE_MESSAGE(f.has_value(), "no frame " << name);
    n = t.find_child(n, *f);
    REQUIRE_MESSAGE(n != ccrc::null_node, "no node " << path);
  }
  return n;
}

/// "main;f;g" for a node.
inline std::string path_of(const ccrc::call_tree& t, ccrc::node_id n) {
  std::string s;
  for (ccrc::frame_id f : t.path(n)) {
    if (!s.empty()) s += ';';
    s += t.symbols().name(f);
  }
  return s;
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
  for (ccrc::node_id n = 1; n < p.size(); ++n) out.insert(path_of(p.tree(), n));
  return out;
}

}  // namespace test
