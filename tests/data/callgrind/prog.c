/* A small program for tests/data/callgrind: main calls work twice through two callers
   (a DAG: f and g both call leaf), and a recursive fib. */
#include <stdio.h>

__attribute__((noinline)) static long leaf(long n) {
  long s = 0;
  for (long i = 0; i < n; ++i) s += i * i;
  return s;
}
__attribute__((noinline)) static long f(long n) { return leaf(n) + leaf(n / 2); }
__attribute__((noinline)) static long g(long n) { return leaf(3 * n); }
__attribute__((noinline)) static long fib(long n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

int main(void) {
  long r = f(1000) + g(1000) + fib(15);
  printf("%ld\n", r);
  return 0;
}
