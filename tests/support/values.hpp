// Test support for the readers' tests: a metric's value at a context and its total, and where
// a reader's parse error points.
#pragma once

#include <ccrc/error.hpp>
#include <ccrc/tree/path.hpp>
#include <ccrc/tree/profile.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace test {

/// The value of `metric` at the context `path` ("a;b;c"); fails the test if there is none.
inline double at(const ccrc::profile& p, std::string_view metric, std::string_view path) {
  ccrc::node_id n = ccrc::node_at_path(p.tree(), path);
  REQUIRE_MESSAGE(n != ccrc::null_node, path);
  return p.column(metric)[n];
}

/// The total of `metric` over every context.
inline double total(const ccrc::profile& p, std::string_view metric) {
  double sum = 0;
  for (double v : p.column(metric)) sum += v;
  return sum;
}

/// The byte offset of the parse error read(text) throws (parse_error::no_byte if it parses).
template <class Read>
std::uint64_t error_byte(Read read, std::string_view text) {
  try {
    (void)read(text);
  } catch (const ccrc::parse_error& e) {
    return e.byte();
  }
  return ccrc::parse_error::no_byte;
}

/// The message of the parse error read(text) throws ("" if it parses).
template <class Read>
std::string error_message(Read read, std::string_view text) {
  try {
    (void)read(text);
  } catch (const ccrc::parse_error& e) {
    return e.what();
  }
  return "";
}

/// The offset of the `k`-th (0-based) occurrence of `what` in `text`: how the tests name the
/// byte an error must point at, independently of the reader.
inline std::uint64_t byte_of(std::string_view text, std::string_view what, int k = 0) {
  std::size_t at = text.find(what);
  for (; k > 0 && at != std::string_view::npos; --k) at = text.find(what, at + 1);
  REQUIRE(at != std::string_view::npos);
  return at;
}

}  // namespace test
