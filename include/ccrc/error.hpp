// ccrc - the exceptions thrown for bad input and exhausted capacity.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace ccrc {

/// Base of every exception ccrc throws.
struct error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Malformed input. what() reads "line N: reason" so a user can find the line.
class parse_error : public error {
 public:
  parse_error(std::uint64_t line, const std::string& reason)
      : error("line " + std::to_string(line) + ": " + reason), line_(line) {}
  /// Malformed input of a format without lines (a binary file): what() is the reason alone.
  explicit parse_error(const std::string& reason) : error(reason), line_(0) {}

  /// 1-based line of the input where the problem was found (0: not tied to a line).
  [[nodiscard]] std::uint64_t line() const noexcept { return line_; }

 private:
  std::uint64_t line_;
};

/// A tree would exceed the 2^32 - 1 ids a node_id can name.
struct capacity_error : error {
  using error::error;
};

}  // namespace ccrc
