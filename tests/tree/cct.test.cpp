#include <ccrc/tree/cct.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <type_traits>
#include <vector>

using calls_time = ccrc::cct<ccrc::metric<"calls">, ccrc::metric<"time", double>>;
using bytes_samples = ccrc::cct<ccrc::metric<"bytes", std::int64_t>, ccrc::metric<"samples", std::uint32_t>>;

TEST_CASE_TEMPLATE("a cct has one zero-initialised column per metric, growing with the tree", T,
                   calls_time, bytes_samples) {
  T t;
  CHECK(T::metric_count == 2);
  CHECK(t.size() == 1);
  CHECK(t.template column<0>().size() == 1);
  CHECK(t.template column<1>().size() == 1);
  std::vector<ccrc::frame_id> stack = {t.intern("main"), t.intern("f")};
  ccrc::node_id f = t.add_path(stack, 20, 180);
  ccrc::node_id main = t.tree().parent(f);
  CHECK(t.size() == 3);
  CHECK(t.template column<0>().size() == 3);
  CHECK(t.template get<0>(f) == 20);
  CHECK(t.template get<1>(f) == 180);
  CHECK(t.template get<0>(main) == 0);
  CHECK(t.add_path(stack, 1, 2) == f);  // a repeated sample adds up
  CHECK(t.template get<0>(f) == 21);
  CHECK(t.template get<1>(f) == 182);
  t.template get<1>(main) += 5;
  CHECK(t.template column<1>()[main] == 5);
}

TEST_CASE("metrics by name and by index are the same column, typed as declared") {
  calls_time t;
  static_assert(calls_time::index_of<"time">() == 1);
  static_assert(std::is_same_v<calls_time::value_type<1>, double>);
  static_assert(std::is_same_v<decltype(t.column<"calls">()), std::span<std::uint64_t>>);
  CHECK(calls_time::metric_names[0] == "calls");
  CHECK(calls_time::metric_names[1] == "time");
  ccrc::node_id n = t.find_or_add_child(ccrc::root_node, t.intern("main"));
  t.get<"time">(n) = 2.5;
  t.get<"calls">(n) += 3;
  CHECK(t.get<1>(n) == 2.5);
  CHECK(t.column<"calls">()[n] == 3);
  const calls_time& c = t;
  CHECK(c.get<"time">(n) == 2.5);
  CHECK(c.column<"calls">().data() == t.column<0>().data());
}

TEST_CASE("for_each_column visits the metrics in order with their names") {
  calls_time t;
  t.add_path(std::vector<ccrc::frame_id>{t.intern("a")}, 4, 0.5);
  std::vector<std::string_view> names;
  double sum = 0;
  t.for_each_column([&](std::string_view name, auto column) {
    names.push_back(name);
    for (auto v : column) sum += static_cast<double>(v);
  });
  CHECK(names == std::vector<std::string_view>{"calls", "time"});
  CHECK(sum == 4.5);
}

TEST_CASE("reserve and memory: a node of a two-metric cct costs under 48 bytes") {
  calls_time t;
  t.reserve(10'001);
  ccrc::frame_id f = t.intern("f");
  ccrc::node_id n = ccrc::root_node;
  for (int i = 0; i < 10'000; ++i) n = t.find_or_add_child(n, f);
  CHECK(t.size() == 10'001);
  double per_node = static_cast<double>(t.memory_bytes()) / 10'001.0;
  CHECK(per_node >= 32.0);  // 16 bytes of structure + 16 of metrics
  CHECK(per_node < 48.0);
}

TEST_CASE("regression: after reserve(n) a cct grows to n nodes without moving its columns") {
  calls_time t;
  t.reserve(1000);
  const auto* calls = t.column<"calls">().data();
  ccrc::frame_id f = t.intern("f");
  ccrc::node_id n = ccrc::root_node;
  while (t.size() < 1000) n = t.find_or_add_child(n, f);
  CHECK(t.column<"calls">().data() == calls);  // 513 used to reallocate to 1024
}
