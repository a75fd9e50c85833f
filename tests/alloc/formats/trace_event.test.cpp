// What reading a trace allocates in all (tests/alloc/allocations.hpp): a measure of the
// reader's work that, unlike its time, does not depend on the machine.
#include <ccrc/formats/trace_event.hpp>

#include "alloc/allocations.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <numeric>
#include <string>

namespace {

// `n` CPU profiles of one thread, each a Profile event and a chunk of two nodes, (root) and
// f, and one sample of f.
std::string profiles_of_one_thread(int n) {
  std::string text = "[";
  for (int i = 0; i < n; ++i) {
    const std::string id = "\"0x" + std::to_string(i) + "\"", ts = std::to_string(10 * i);
    if (i) text += ",\n";
    text += R"({"ph":"P","name":"Profile","id":)" + id + R"(,"pid":1,"tid":1,"ts":)" + ts +
            R"(,"args":{"data":{"startTime":)" + ts + "}}},\n";
    text += R"({"ph":"P","name":"ProfileChunk","id":)" + id + R"(,"pid":1,"tid":1,"ts":)" + ts +
            R"(,"args":{"data":{"cpuProfile":{"nodes":[)"
            R"x({"id":1,"callFrame":{"functionName":"(root)","url":"","lineNumber":-1,"columnNumber":-1}},)x"
            R"x({"id":2,"parent":1,"callFrame":{"functionName":"f","url":"","lineNumber":0,"columnNumber":0}}],)x"
            R"("samples":[2]},"timeDeltas":[1]}}})";
  }
  return text + "]";
}

// The bytes allocated to read `profiles` profiles of one thread, the profile checked: the
// thread's frame, and under it a `(cpu profile)` and its f per profile.
std::uint64_t allocated_reading(int profiles) {
  const std::string text = profiles_of_one_thread(profiles);
  const std::uint64_t before = test::allocated_bytes();
  ccrc::profile p = ccrc::read_trace_events(text);
  const std::uint64_t bytes = test::allocated_bytes() - before;
  CHECK(p.size() == 2 + 2 * static_cast<std::size_t>(profiles));
  auto samples = p.column(p.metric_index("samples"));
  CHECK(std::accumulate(samples.begin(), samples.end(), 0.0) == profiles);
  return bytes;
}

}  // namespace

TEST_CASE("trace events: N CPU profiles of one thread allocate in proportion to N (each reserved the whole profile)") {
  // Linear: 4 times the bytes for 4 times the profiles (quadratic: 16 times).
  const std::uint64_t small = allocated_reading(2'000), large = allocated_reading(8'000);
  CAPTURE(small);
  CAPTURE(large);
  CHECK(large < 5 * small);
}
