#include <ccrc/io/number.hpp>

#include "support/random.hpp"

#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

TEST_CASE("numbers are written in their shortest exact form") {
  CHECK(ccrc::format_number(0) == "0");
  CHECK(ccrc::format_number(-0.0) == "0");
  CHECK(ccrc::format_number(1066) == "1066");
  CHECK(ccrc::format_number(-42) == "-42");
  CHECK(ccrc::format_number(0.1) == "0.1");
  CHECK(ccrc::format_number(2.5e-7) == "2.5e-07");
  CHECK(ccrc::format_number(999999999999999999.0) == "1e+18");  // the nearest double is 10^18
  CHECK(ccrc::format_number(123456789012345678.0) == "123456789012345680");
  CHECK(ccrc::format_number(1e70) == "1e+70");
  CHECK(ccrc::format_number(-1.5e300) == "-1.5e+300");
  CHECK(ccrc::format_number(std::numeric_limits<double>::infinity()) == "inf");
  std::string s = "n=";
  ccrc::append_number(s, std::uint64_t{18446744073709551615u});
  s += ' ';
  ccrc::append_number(s, -7);
  CHECK(s == "n=18446744073709551615 -7");
}

TEST_CASE("numbers are parsed strictly") {
  CHECK(ccrc::parse_number("42") == 42.0);
  CHECK(ccrc::parse_number("-0.5") == -0.5);
  CHECK(ccrc::parse_number("1e6") == 1e6);
  CHECK(ccrc::parse_number("1e+70") == 1e70);
  CHECK(ccrc::parse_number("9007199254740993") == std::nullopt);  // 2^53 + 1: no double holds it
  CHECK(ccrc::parse_number("12345678901234567890123") == std::nullopt);
  for (const char* bad : {"", " 1", "1 ", "+1", "inf", "nan", "0x10", "5%", "1e999", "-", "1.2.3", "e5"})
    CHECK_MESSAGE(ccrc::parse_number(bad) == std::nullopt, bad);
}

TEST_CASE("every finite double reads back from what is written: random bits and large integers") {
  test::rng r{7};
  for (int i = 0; i < 200000; ++i) {
    double v = std::bit_cast<double>(r.next());
    if (i % 2) v = std::trunc(std::ldexp(static_cast<double>(r.next() >> 11), static_cast<int>(r.below(200))));
    if (!std::isfinite(v)) continue;
    std::string s = ccrc::format_number(v);
    auto back = ccrc::parse_number(s);
    REQUIRE_MESSAGE(back.has_value(), s);
    CHECK_MESSAGE(*back == v, s);
  }
}
