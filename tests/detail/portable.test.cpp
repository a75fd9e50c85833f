// The fallbacks for standard libraries without std::from_chars/to_chars for double (libc++,
// emscripten) are called directly here, so every build tests them, whichever path its
// library takes.
#include <ccrc/detail/number_text.hpp>
#include <ccrc/detail/portable.hpp>

#include "support/random.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <charconv>
#include <clocale>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace {

using limits = std::numeric_limits<double>;

std::uint64_t bits(double v) { return ccrc::detail::bit_cast<std::uint64_t>(v); }

std::string fallback_text(double v, bool scientific = false) {
  char buf[ccrc::detail::double_chars];
  return {buf, ccrc::detail::write_double_fallback(buf, v, scientific)};
}

// The values a writer must get exactly right: both ends of the range, subnormals, the
// neighbours of 2^53 (where integers stop being dense), decimals with no exact binary form.
std::vector<double> hard_values() {
  std::vector<double> out = {0.0,
                             -0.0,
                             0.1,
                             0.2,
                             0.3,
                             1.0 / 3,
                             2.0 / 3,
                             1e308,
                             1e-308,
                             1e23,
                             5e-324,
                             123456789.125,
                             1e15 + 0.3,
                             limits::max(),
                             limits::lowest(),
                             limits::min(),
                             limits::denorm_min(),
                             std::nextafter(limits::min(), 0.0),
                             limits::epsilon(),
                             std::nextafter(1.0, 2.0),
                             std::nextafter(1.0, 0.0),
                             1.2345678901234568e18,
                             std::ldexp(1.0, 60),
                             std::ldexp(1.0, 54) + 4};
  for (double base : {std::ldexp(1.0, 53), std::ldexp(1.0, 52)}) {
    double below = base, above = base;
    for (int i = 0; i < 4; ++i) {
      below = std::nextafter(below, 0.0);
      above = std::nextafter(above, limits::infinity());
      out.insert(out.end(), {below, above, -below, -above});
    }
    out.push_back(base);
  }
  return out;
}

// Random finite doubles from random bit patterns (every exponent equally likely), then
// random subnormals (exponent field 0).
std::vector<double> random_values(std::size_t count) {
  test::rng r(20260612);
  std::vector<double> out;
  while (out.size() < count) {
    double v = ccrc::detail::bit_cast<double>(r.next());
    if (std::isfinite(v)) out.push_back(v);
  }
  for (std::size_t i = 0; i < count / 10; ++i)
    out.push_back(ccrc::detail::bit_cast<double>(r.next() & 0x800fffffffffffffULL));
  return out;
}

void check_round_trip(double v) {
  for (bool scientific : {false, true}) {
    std::string text = fallback_text(v, scientific);
    INFO("value ", v, " written as '", text, "'");
    double back = 42;
    REQUIRE(ccrc::detail::read_double_fallback(text, back) == std::errc{});
    CHECK(bits(back) == bits(v));
    // The text is one ccrc's readers accept, whichever path they take.
    double parsed = 42;
    CHECK(ccrc::detail::parse_number(text, true, parsed) == ccrc::detail::number_status::ok);
    CHECK(bits(parsed) == bits(v));
    if (scientific) CHECK(text.find('e') != std::string::npos);
    CHECK(text.size() < ccrc::detail::double_chars);
  }
}

}  // namespace

TEST_CASE("bit_cast reinterprets the bits of a double both ways") {
  CHECK(ccrc::detail::bit_cast<std::uint64_t>(1.0) == 0x3ff0000000000000ULL);
  CHECK(ccrc::detail::bit_cast<std::uint64_t>(-0.0) == 0x8000000000000000ULL);
  CHECK(ccrc::detail::bit_cast<double>(std::uint64_t{1}) == limits::denorm_min());
  CHECK(ccrc::detail::bit_cast<double>(0x4009000000000000ULL) == 3.125);
}

TEST_CASE("the fallback writer's text reads back bit for bit: hard values") {
  for (double v : hard_values()) check_round_trip(v);
}

TEST_CASE("the fallback writer's text reads back bit for bit: random bit patterns and subnormals") {
  for (double v : random_values(20000)) check_round_trip(v);
}

TEST_CASE("the fallback writer uses the fewest of 15, 16 or 17 digits, %g's layout, trimmed scientific") {
  CHECK(fallback_text(0.1) == "0.1");
  CHECK(fallback_text(-2.5) == "-2.5");
  CHECK(fallback_text(-0.0) == "-0");
  CHECK(fallback_text(1e308) == "1e+308");
  CHECK(fallback_text(1.5e-7) == "1.5e-07");
  CHECK(fallback_text(0.3) == "0.3");
  CHECK(fallback_text(0.1 + 0.2) == "0.30000000000000004");  // 17 digits: 0.3 is another double
  CHECK(fallback_text(limits::denorm_min()) == "4.94065645841247e-324");  // to_chars: 5e-324
  CHECK(fallback_text(std::ldexp(1.0, 54), true) == "1.8014398509481984e+16");
  CHECK(fallback_text(1e20, true) == "1e+20");
  CHECK(fallback_text(1.5e20, true) == "1.5e+20");
}

TEST_CASE("the fallback writer agrees in value with std::to_chars, where the library has it") {
#if CCRC_DETAIL_TO_CHARS_DOUBLE
  std::vector<double> values = hard_values();
  for (double v : random_values(5000)) values.push_back(v);
  for (double v : values) {
    char buf[ccrc::detail::double_chars];
    std::string shortest(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
    std::string ours = fallback_text(v);
    INFO("value ", v, ": to_chars '", shortest, "', fallback '", ours, "'");
    double a = 1, b = 2;
    REQUIRE(ccrc::detail::read_double_fallback(shortest, a) == std::errc{});
    REQUIRE(ccrc::detail::read_double_fallback(ours, b) == std::errc{});
    CHECK(bits(a) == bits(b));
    // As many significant digits as to_chars' shortest form up to 15, at most one more above
    // (to_chars may write 1234567890123456800 where %g writes 1.2345678901234568e+18).
    auto significant = [](std::string_view s) {
      std::string_view mantissa = s.substr(0, s.find('e'));
      std::size_t first = mantissa.find_first_of("123456789"), last = mantissa.find_last_of("123456789");
      if (first == std::string_view::npos) return std::size_t{0};
      std::size_t n = last - first + 1;
      return mantissa.substr(first, n).find('.') == std::string_view::npos ? n : n - 1;
    };
    // Subnormals have fewer significant bits, so %.15g may print more digits than they need.
    if (std::abs(v) < limits::min()) continue;
    if (significant(shortest) <= 15)
      CHECK(significant(ours) == significant(shortest));
    else
      CHECK(significant(ours) <= significant(shortest) + 1);
  }
#else
  MESSAGE("this standard library has no std::to_chars for double: nothing to compare with");
#endif
}

TEST_CASE("the fallback reader takes whole decimal tokens only, and says out of range as from_chars does") {
  using ccrc::detail::read_double_fallback;
  double v = 42;
  CHECK(read_double_fallback("4.9406564584124654e-324", v) == std::errc{});
  CHECK(v == limits::denorm_min());
  CHECK(read_double_fallback("2.2250738585072011e-308", v) == std::errc{});  // rounds to a subnormal
  CHECK(read_double_fallback("-0.0", v) == std::errc{});
  CHECK(bits(v) == bits(-0.0));
  CHECK(read_double_fallback("1.", v) == std::errc{});
  CHECK(v == 1);
  CHECK(read_double_fallback(".5", v) == std::errc{});
  CHECK(v == 0.5);
  std::string long_token = "0." + std::string(80, '0') + "15";
  CHECK(read_double_fallback(long_token, v) == std::errc{});
  CHECK(v == 1.5e-81);
  v = 42;
  for (std::string_view overflow : {"1e400", "-1e400", "1.7976931348623159e308", "1e-400", "-2e-324"}) {
    CHECK(read_double_fallback(overflow, v) == std::errc::result_out_of_range);
    CHECK(v == 42);
  }
  for (std::string_view bad : {"", " 1", "1 ", "+1", "0x1p3", "inf", "nan", "1e", "1e+", "1.2.3", "1,5", "-", "."}) {
    INFO("token '", bad, "'");
    CHECK(read_double_fallback(bad, v) == std::errc::invalid_argument);
    CHECK(v == 42);
  }
#if CCRC_DETAIL_FROM_CHARS_DOUBLE
  for (std::string_view token : {"1e400", "1e-400", "2.4703282292062327e-324", "2.4703282292062328e-324", "1e", "0x1p3",
                                 "00.5", "1.e5", "123456789012345678901234567890"}) {
    INFO("token '", token, "'");
    double a = 42, b = 42;
    auto [ptr, ec] = std::from_chars(token.data(), token.data() + token.size(), a);
    if (ec == std::errc{} && ptr != token.data() + token.size()) ec = std::errc::invalid_argument;
    CHECK(read_double_fallback(token, b) == ec);
    if (ec == std::errc{}) CHECK(bits(a) == bits(b));
  }
#endif
}

TEST_CASE("a C locale with a decimal comma changes neither the text nor the reading") {
  // ctest points LOCPATH at a de_DE locale it builds with localedef, where it can.
  // musl (emscripten) accepts the name but keeps '.'.
  if (std::setlocale(LC_NUMERIC, "de_DE.UTF-8") == nullptr || ccrc::detail::c_decimal_point() != ",") {
    std::setlocale(LC_NUMERIC, "C");
    MESSAGE("no C locale with a decimal comma here: it is not tested");
    return;
  }
  double v = 0;
  CHECK(ccrc::detail::read_double_fallback("0.25", v) == std::errc{});
  CHECK(v == 0.25);
  CHECK(ccrc::detail::read_double_fallback("0,25", v) == std::errc::invalid_argument);
  CHECK(fallback_text(0.1) == "0.1");
  CHECK(fallback_text(1.5e20, true) == "1.5e+20");
  for (double x : random_values(1000)) {
    double back = 1;
    CHECK(ccrc::detail::read_double_fallback(fallback_text(x), back) == std::errc{});
    CHECK(bits(back) == bits(x));
  }
  std::setlocale(LC_NUMERIC, "C");
}
