// A user's program profiled by the installed libccrc_instrument: compiled with
// -finstrument-functions and linked with ccrc::instrument, it writes its calling context
// profile at exit ($CCRC_OUT). main calls branch twice, which call leaf 3 and 4 times:
// calls main 1, branch(int) 2, leaf(int) 7 (checked by check_installed.cmake).
#include <cstdio>

__attribute__((noinline)) int leaf(int x) { return 2 * x + 1; }

__attribute__((noinline)) int branch(int n) {
  int sum = 0;
  for (int i = 0; i < n; ++i) sum += leaf(i);
  return sum;
}

int main() {
  // 1 + 3 + 5 and 1 + 3 + 5 + 7
  std::printf("%d\n", branch(3) + branch(4));
}
