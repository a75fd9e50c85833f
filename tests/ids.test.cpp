#include <ccrc/ids.hpp>

#include <doctest/doctest.h>

#include <concepts>
#include <cstdint>
#include <type_traits>
#include <unordered_set>
#include <vector>

namespace {
template <class A, class B>
concept comparable = requires(A a, B b) { a == b; };
}  // namespace

TEST_CASE("frame and method ids cannot be mixed up, with each other or with nodes") {
  using ccrc::frame_id;
  using ccrc::method_id;
  static_assert(!std::is_convertible_v<frame_id, method_id> && !std::is_convertible_v<method_id, frame_id>);
  static_assert(!std::is_constructible_v<frame_id, method_id> && !std::is_constructible_v<method_id, frame_id>);
  static_assert(!std::equality_comparable_with<frame_id, method_id>);
  static_assert(!std::is_convertible_v<std::uint32_t, frame_id>, "an integer becomes an id only explicitly");
  static_assert(!comparable<frame_id, ccrc::node_id>, "null_node is no frame: use null_frame");
  static_assert(!comparable<frame_id, method_id> && comparable<frame_id, frame_id> && comparable<method_id, int>);
  static_assert(std::is_constructible_v<frame_id, std::uint32_t> && std::is_convertible_v<frame_id, std::uint32_t>);
  static_assert(sizeof(frame_id) == 4 && std::is_trivially_copyable_v<method_id>);
}

TEST_CASE("ids index the arrays they are dense for, count up and hash as their integers") {
  std::vector<int> per_method{10, 11, 12};
  ccrc::method_id m{2};
  CHECK(per_method[m] == 12);
  int sum = 0;
  for (ccrc::method_id i{0}; i < per_method.size(); ++i) sum += per_method[i];
  CHECK(sum == 33);
  CHECK(ccrc::frame_id{7} == ccrc::frame_id{7});
  CHECK(ccrc::frame_id{3} < ccrc::frame_id{7});
  CHECK(ccrc::root_frame == ccrc::frame_id{0});
  CHECK(ccrc::null_method != ccrc::root_method);
  std::unordered_set<ccrc::frame_id> seen{ccrc::frame_id{1}, ccrc::frame_id{1}, ccrc::frame_id{2}};
  CHECK(seen.size() == 2);
}
