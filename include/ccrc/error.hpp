// ccrc - the exceptions thrown for bad input and exhausted capacity.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

namespace ccrc {

/// Base of every exception ccrc throws.
struct error : std::runtime_error {
  using std::runtime_error::runtime_error;
  /// An error in the input named `input` whose message names it already ("cannot open PATH").
  error(const std::string& what, std::string input) : std::runtime_error(what), input_(std::move(input)) {}

  /// The name of the input the error is in (a file's path, "<stdin>"), where the reader was
  /// told it (read_profile_file: the path; read_options::input_name): what() then names it
  /// too, as "INPUT: reason". Empty otherwise.
  [[nodiscard]] const std::string& input() const noexcept { return input_; }

  /// Throws this error again, of its own type, in the input named `input`: what() becomes
  /// "INPUT: " and the reason. How a reader names the input once for every error of its
  /// parsers, which know the line or byte but not the file.
  [[noreturn]] virtual void rethrow_in(const std::string& input) const { throw error(input + ": " + what(), input); }

 private:
  std::string input_;
};

/// Malformed input. what() reads "line N: reason" so a user can find the line, or "byte N:
/// reason" for a format read by position rather than by line (JSON, protocol buffers).
class parse_error : public error {
 public:
  parse_error(std::uint64_t line, const std::string& reason)
      : error("line " + std::to_string(line) + ": " + reason), line_(line) {}
  /// Malformed input of a format without lines (a binary file): what() is the reason alone.
  explicit parse_error(const std::string& reason) : error(reason), line_(0) {}

  /// Malformed input at 0-based byte `offset`: what() reads "byte N: reason".
  [[nodiscard]] static parse_error at_byte(std::uint64_t offset, const std::string& reason) {
    parse_error e("byte " + std::to_string(offset) + ": " + reason);
    e.byte_ = offset;
    return e;
  }

  /// 1-based line of the input where the problem was found (0: not tied to a line).
  [[nodiscard]] std::uint64_t line() const noexcept { return line_; }
  /// 0-based byte offset where the problem was found, for at_byte errors (else no_byte).
  [[nodiscard]] std::uint64_t byte() const noexcept { return byte_; }
  static constexpr std::uint64_t no_byte = ~std::uint64_t{0};

  [[noreturn]] void rethrow_in(const std::string& input) const override {
    parse_error e(*this, input);
    throw e;
  }

 private:
  parse_error(const parse_error& e, const std::string& input)
      : error(input + ": " + e.what(), input), line_(e.line_), byte_(e.byte_) {}

  std::uint64_t line_;
  std::uint64_t byte_ = no_byte;
};

/// A tree would exceed the 2^32 - 1 ids a node_id can name.
struct capacity_error : error {
  using error::error;
  [[noreturn]] void rethrow_in(const std::string& input) const override {
    throw capacity_error(input + ": " + what(), input);
  }
};

}  // namespace ccrc
