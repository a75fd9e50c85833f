// The program benchmarks/instrument_slowdown.sh instruments to measure a runtime's cost per
// recorded call (issue 46): fib(N) (default 34: 18,454,929 calls, the recursion 34 deep) then
// CALLS virtual calls (default 4,000,000) through a std::vector of pointers. Compiled with g++
// -O2 -finstrument-functions, every function is recorded, the standard library's inline ones
// included (vector::operator[] and size(), inlined into main with their hooks): 30,455,409
// calls with the defaults. It prints its result, so that nothing is optimised away.
//
//     instrument_fib [N [CALLS]]
#include <cstdio>
#include <cstdlib>
#include <vector>

struct shape {
  virtual ~shape() = default;
  virtual double area() const = 0;
};
struct square : shape {
  double side;
  explicit square(double s) : side(s) {}
  double area() const override { return side * side; }
};
struct circle : shape {
  double radius;
  explicit circle(double r) : radius(r) {}
  double area() const override { return 3.14159 * radius * radius; }
};

int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

int main(int argc, char** argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 34;
  long calls = argc > 2 ? std::atol(argv[2]) : 4'000'000;
  std::vector<shape*> shapes;
  for (int i = 0; i < 16; ++i) {
    if (i % 3 == 0) shapes.push_back(new circle(i));
    else shapes.push_back(new square(i));
  }
  double sum = 0;
  for (long i = 0; i < calls; ++i) sum += shapes[static_cast<std::size_t>(i) % shapes.size()]->area();
  std::printf("fib(%d) = %d, %.1f\n", n, fib(n), sum);
  for (shape* s : shapes) delete s;
}
