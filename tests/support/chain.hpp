// A chain of nested calls: the deep input every traversal is tested on.
#pragma once

#include <ccrc/tree/cct.hpp>

#include <cstddef>
#include <initializer_list>
#include <string_view>
#include <vector>

namespace test {

using calls_cct = ccrc::cct<ccrc::metric<"calls">>;

/// `levels` nested calls, one invocation each, cycling through `methods` ("a;b;c;a;b;..."
/// for {"a", "b", "c"}; {"f"} makes a self-recursive chain).
inline calls_cct call_chain(int levels, std::initializer_list<std::string_view> methods) {
  calls_cct t;
  std::vector<ccrc::frame_id> frames;
  for (auto m : methods) frames.push_back(t.intern(m));
  ccrc::node_id n = ccrc::root_node;
  for (int i = 0; i < levels; ++i) {
    n = t.find_or_add_child(n, frames[static_cast<std::size_t>(i) % frames.size()]);
    t.get<"calls">(n) = 1;
  }
  return t;
}

}  // namespace test
