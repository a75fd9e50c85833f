// Compiled with clang++ -ftime-trace to make small.json (see README.md).
#include <map>
#include <string>
#include <vector>

template <int N>
struct fib {
  static constexpr long value = fib<N - 1>::value + fib<N - 2>::value;
};
template <>
struct fib<0> {
  static constexpr long value = 0;
};
template <>
struct fib<1> {
  static constexpr long value = 1;
};

long count_words(const std::vector<std::string>& words) {
  std::map<std::string, long> counts;
  for (const auto& w : words) ++counts[w];
  return static_cast<long>(counts.size()) + fib<40>::value;
}
