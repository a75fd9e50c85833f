// ccrc - what the JSON readers share: the document in padded memory, errors at a byte offset.
#pragma once

#include <ccrc/detail/line_reader.hpp>
#include <ccrc/error.hpp>

#include <simdjson.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>

namespace ccrc::formats {

/// A JSON document in memory with the simdjson::SIMDJSON_PADDING bytes simdjson reads past its end, so
/// that the readers parse it in place (On-Demand: no DOM, the tree is built as the text is
/// walked). Filled by a `read` callable; the memory is the document plus the padding.
class json_text {
 public:
  json_text() = default;
  /// Takes `start` (bytes already read, to detect the format), then the rest of `read`.
  /// `expected_size` (the whole document's size, `start` included, if known: a regular
  /// file's) sizes the buffer once, with room to find the end without regrowing; without it,
  /// the buffer doubles as it fills. Each read asks for at most 1 MiB, so a small document
  /// costs a small buffer and a pipe's short reads do not refill a large one.
  template <class Read>
  json_text(std::string_view start, Read&& read, std::size_t expected_size = 0) : text_(start) {
    text_.reserve(std::max(expected_size, start.size()) + min_chunk + simdjson::SIMDJSON_PADDING);
    for (;;) {
      if (text_.capacity() - text_.size() < min_chunk + simdjson::SIMDJSON_PADDING) text_.reserve(2 * text_.capacity());
      std::size_t want = std::min(max_chunk, text_.capacity() - text_.size() - simdjson::SIMDJSON_PADDING);
      std::size_t old = text_.size();
      text_.resize(old + want);
      std::size_t got = read(text_.data() + old, want);
      text_.resize(old + got);
      if (got == 0) break;
    }
  }
  /// A copy of `bytes`, padded.
  explicit json_text(std::string_view bytes) : json_text(bytes, [](char*, std::size_t) { return std::size_t{0}; }) {}

  [[nodiscard]] simdjson::padded_string_view view() const noexcept {
    return simdjson::padded_string_view(text_.data(), text_.size(), text_.capacity());
  }
  [[nodiscard]] std::string_view bytes() const noexcept { return text_; }

 private:
  static constexpr std::size_t min_chunk = std::size_t{1} << 12, max_chunk = std::size_t{1} << 20;
  std::string text_;
};

/// The whole of a file as a json_text: a regular file into a buffer of its size, read once
/// (no regrowth: the peak is the file and the padding), anything else (a pipe) as it comes.
/// Throws ccrc::error if it cannot be opened or read.
[[nodiscard]] inline json_text json_file(const std::filesystem::path& path) {
  auto file = ccrc::detail::open_for_reading(path);
  return json_text({}, ccrc::detail::file_source{file.get()}, ccrc::detail::regular_file_size(path));
}

/// Appends `s` as a JSON string, quotes included: '"', '\\' and the control characters
/// U+0000..U+001F escaped, every other byte as is (the caller checks UTF-8). O(size).
///
///     std::string out;
///     ccrc::formats::append_json_string(out, "say \"hi\"\n");  // out: "say \"hi\"\n", quotes included
inline void append_json_string(std::string& out, std::string_view s) {
  static constexpr char hex[] = "0123456789abcdef";
  out += '"';
  std::size_t run = 0;  // start of the bytes not yet copied
  for (std::size_t i = 0; i < s.size(); ++i) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.append(s.data() + run, i - run);
    run = i + 1;
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        out += "\\u00";
        out += hex[c >> 4];
        out += hex[c & 15];
    }
  }
  out.append(s.data() + run, s.size() - run);
  out += '"';
}

namespace detail {

/// The 0-based offset of `at` in `json`, clamped to its size (simdjson points past the end
/// for an unexpected end of the document).
[[nodiscard]] inline std::uint64_t offset_in(simdjson::padded_string_view json, const char* at) noexcept {
  if (at < json.data()) return 0;
  auto offset = static_cast<std::uint64_t>(at - json.data());
  return offset < json.size() ? offset : json.size();
}

/// Throws parse_error::at_byte at the document's current position: "byte N: <what>
/// (<simdjson's reason>)".
[[noreturn]] inline void json_fail(simdjson::ondemand::document& doc, simdjson::padded_string_view json,
                                   const std::string& what, simdjson::error_code code = simdjson::SUCCESS) {
  const char* at = nullptr;
  if (doc.current_location().get(at) != simdjson::SUCCESS) at = json.data() + json.size();
  std::string reason = what;
  if (code != simdjson::SUCCESS) reason += std::string(" (") + simdjson::error_message(code) + ")";
  throw parse_error::at_byte(offset_in(json, at), reason);
}

/// The key of an object member: its raw text when it has no escape (as profilers write keys:
/// no copy, no unescaping), else simdjson's unescaped copy; a malformed key is json_fail.
[[nodiscard]] inline std::string_view field_key(simdjson::ondemand::field& f, simdjson::ondemand::document& doc,
                                                simdjson::padded_string_view json) {
  const char* raw = f.key().raw();
  std::size_t n = 0;
  while (raw[n] != '"' && raw[n] != '\\') ++n;  // stage 1 found the closing quote
  if (raw[n] == '"') return {raw, n};
  std::string_view k;
  if (auto e = f.unescaped_key().get(k)) json_fail(doc, json, "malformed object key", e);
  return k;
}

/// Whether two tokens of one padded document (simdjson's raw_json_token) are the same bytes,
/// so that a number read once need not be parsed again; compared without a call when at most
/// 8 bytes long (reading 8 bytes from a token's start stays within the padding). O(length).
[[nodiscard]] inline bool same_token(std::string_view a, std::string_view b) noexcept {
  const std::size_t n = a.size();
  if (n != b.size() || n == 0) return false;
  if (n > 8) return std::memcmp(a.data(), b.data(), n) == 0;
  std::uint64_t x = 0, y = 0;
  std::memcpy(&x, a.data(), 8);
  std::memcpy(&y, b.data(), 8);
  std::uint64_t mask = n == 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * n)) - 1;
  return ((x ^ y) & mask) == 0;
}

/// The first byte of a JSON text that is not white space, or '\0' for none.
[[nodiscard]] constexpr char first_json_byte(std::string_view bytes) noexcept {
  for (char c : bytes)
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return c;
  return '\0';
}

}  // namespace detail

}  // namespace ccrc::formats
