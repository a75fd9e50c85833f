/* A tiny CPU-bound program for tests/data/perf/spin.perf: main calls outer(), which spends
   its time in two leaves, compute() and mix(), so the recorded stacks have a known shape:
   main -> outer -> compute and main -> outer -> mix.
   Built and recorded with (see tests/io/perf_script.test.cpp):
     gcc -O0 -fno-omit-frame-pointer -g spin.c -o spin
     perf record -g -F 2000 -o spin.data ./spin
     perf script -i spin.data > spin.perf */
#include <stdio.h>

static volatile unsigned long sink;

unsigned long compute(unsigned long n) {
  unsigned long s = 0;
  for (unsigned long i = 0; i < n; ++i) s += i * i;
  return s;
}

unsigned long mix(unsigned long n) {
  unsigned long h = 1469598103934665603ul;
  for (unsigned long i = 0; i < n; ++i) h = (h ^ i) * 1099511628211ul;
  return h;
}

void outer(void) {
  for (int round = 0; round < 40; ++round) {
    sink += compute(1000000);
    sink += mix(500000);
  }
}

int main(void) {
  outer();
  printf("%lu\n", sink);
  return 0;
}
