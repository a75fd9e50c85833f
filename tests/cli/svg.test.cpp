// The tool's SVG writer, compiled into the tests: it is not reached from the command line
// with every value it must handle.
#include "svg.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>

namespace {

std::string number(double v) {
  std::string s = "[";
  svg::append_number(s, v);
  return s + "]";
}

}  // namespace

TEST_CASE("svg::append_number: two decimals at most, trailing zeros trimmed, 0 for non-finite values") {
  CHECK(number(12.5) == "[12.5]");
  CHECK(number(3) == "[3]");
  CHECK(number(-0.25) == "[-0.25]");
  CHECK(number(-0.001) == "[0]");
  CHECK(number(0.125) == "[0.12]");  // 0.125 is exact: ties to even, as printf
  CHECK(number(std::nan("")) == "[0]");
  CHECK(number(-std::numeric_limits<double>::infinity()) == "[0]");
}

TEST_CASE("svg::append_number of 1e60 and of the largest double: every digit, no buffer overflow") {
  // 1e60 is the double 999999999999999949387135297074018866963645011013410073083904.
  CHECK(number(1e60) == "[999999999999999949387135297074018866963645011013410073083904]");
  std::string largest = number(std::numeric_limits<double>::max());
  CHECK(largest.size() == 309 + 2);
  CHECK(largest.substr(0, 8) == "[1797693");
  CHECK(number(-std::numeric_limits<double>::max()).size() == 310 + 2);
}
