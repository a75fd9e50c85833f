// An embedded instrumenting profiler: a scope guard per instrumented function records calls
// and self time in a per-thread cct, and the threads' trees are merged at the end.
#include <ccrc/ccrc.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <mutex>
#include <thread>
#include <vector>

namespace profiler {

using tree_type = ccrc::cct<ccrc::metric<"calls">, ccrc::metric<"self_ns">>;
using clock = std::chrono::steady_clock;

struct thread_state {
  tree_type tree;
  ccrc::cursor<tree_type> at{tree};
  std::vector<clock::time_point> started;       // one per open scope
  std::vector<std::uint64_t> children_ns{0};    // time spent in callees, per open scope
};

std::mutex finished_mutex;
tree_type finished;  // every thread's tree, merged when the thread ends

struct thread_tree {
  thread_state state;
  ~thread_tree() {
    std::lock_guard lock(finished_mutex);
    ccrc::merge(finished, state.tree);
  }
};
thread_local thread_tree current;

/// Records the enclosing function: one call, and the time not spent in its callees.
class scope {
 public:
  explicit scope(ccrc::frame_id f) : s_(current.state) {
    s_.at.enter(f);
    s_.at.add<"calls">(1);
    s_.children_ns.push_back(0);
    s_.started.push_back(clock::now());
  }
  ~scope() {
    auto elapsed = static_cast<std::uint64_t>((clock::now() - s_.started.back()).count());
    s_.started.pop_back();
    std::uint64_t in_children = s_.children_ns.back();
    s_.children_ns.pop_back();
    s_.children_ns.back() += elapsed;
    s_.at.add<"self_ns">(elapsed - std::min(elapsed, in_children));
    s_.at.exit();
  }
  scope(const scope&) = delete;
  scope& operator=(const scope&) = delete;

 private:
  thread_state& s_;
};

}  // namespace profiler

// Interns the function's name once per thread, then records the call.
#define PROFILE_FUNCTION()                                                        \
  static thread_local const ccrc::frame_id ccrc_frame_ = profiler::current.state.tree.intern(__func__); \
  profiler::scope ccrc_scope_(ccrc_frame_)

// The program being profiled.
int fib(int n) {
  PROFILE_FUNCTION();
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

void sort_numbers(std::vector<int>& v) {
  PROFILE_FUNCTION();
  std::sort(v.begin(), v.end());
}

void worker(int id) {
  PROFILE_FUNCTION();
  std::vector<int> numbers(200000);
  for (std::size_t i = 0; i < numbers.size(); ++i) numbers[i] = static_cast<int>((i * 7919u + static_cast<unsigned>(id)) % 100003u);
  sort_numbers(numbers);
  std::printf("worker %d: fib(20) = %d\n", id, fib(20));
}

int main() {
  std::thread a(worker, 1), b(worker, 2);
  a.join();
  b.join();
  ccrc::tree_statistics s = ccrc::statistics(profiler::finished.tree());
  auto flat = ccrc::flat(ccrc::tree_view(profiler::finished.tree()), profiler::finished.column<"calls">());
  std::printf("%zu calling contexts, depth %u, calls:", s.nodes, s.max_depth);
  for (const auto& e : flat)
    std::printf(" %s %llu", std::string(profiler::finished.symbols().method_name(e.method)).c_str(),
                static_cast<unsigned long long>(e.self));
  std::printf("\n");
  if (std::getenv("PROFILE_FOLDED")) ccrc::write_folded(std::cout, profiler::finished);
}
