// ccrc - what the JSON readers share: the document in padded memory, a cursor over it that
// parses it in pieces, errors at a byte offset.
#pragma once

#include <ccrc/detail/line_reader.hpp>
#include <ccrc/error.hpp>

#include <simdjson.h>

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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
/// Throws ccrc::error if it cannot be opened or read, or shrinks while it is read
/// (ccrc::detail::file_source).
[[nodiscard]] inline json_text json_file(const std::filesystem::path& path) {
  ccrc::detail::file_source file(path);
  const std::uint64_t size = file.size();
  return json_text({}, file, static_cast<std::size_t>(size));
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
/// (<simdjson's reason>)". `base`: the offset of `json` in the file it was cut from (a piece
/// of a streamed array), added to the byte reported.
[[noreturn]] inline void json_fail(simdjson::ondemand::document& doc, simdjson::padded_string_view json,
                                   const std::string& what, simdjson::error_code code = simdjson::SUCCESS,
                                   std::uint64_t base = 0) {
  const char* at = nullptr;
  if (doc.current_location().get(at) != simdjson::SUCCESS) at = json.data() + json.size();
  std::string reason = what;
  if (code != simdjson::SUCCESS) reason += std::string(" (") + simdjson::error_message(code) + ")";
  throw parse_error::at_byte(base + offset_in(json, at), reason);
}

/// The key of an object member: its raw text when it has no escape (as profilers write keys:
/// no copy, no unescaping), else simdjson's unescaped copy; a malformed key is json_fail
/// (`base` as there).
[[nodiscard]] inline std::string_view field_key(simdjson::ondemand::field& f, simdjson::ondemand::document& doc,
                                                simdjson::padded_string_view json, std::uint64_t base = 0) {
  const char* raw = f.key().raw();
  std::size_t n = 0;
  while (raw[n] != '"' && raw[n] != '\\') ++n;  // stage 1 found the closing quote
  if (raw[n] == '"') return {raw, n};
  std::string_view k;
  if (auto e = f.unescaped_key().get(k)) json_fail(doc, json, "malformed object key", e, base);
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

[[nodiscard]] constexpr bool is_json_space(char c) noexcept { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/// The first byte at or after `i` that is not JSON white space (text.size() if none); from 0,
/// also past a UTF-8 byte-order mark, which JSON does not allow but Windows tools write, so
/// that every reader skips it and still names the file's bytes in its errors.
[[nodiscard]] constexpr std::size_t skip_json_space(std::string_view text, std::size_t i) noexcept {
  if (i == 0 && text.starts_with(ccrc::detail::utf8_bom)) i = ccrc::detail::utf8_bom.size();
  while (i < text.size() && is_json_space(text[i])) ++i;
  return i;
}

// ---- Scanning JSON for its structure alone: strings and bracket depth, 64 bytes at a time ----
//
// Debian's simdjson (3.0.1) parses a document whole: its index and string buffer take about
// five bytes per byte of JSON, and its iterate_many streams only documents separated by
// white space, not the elements of one array (comma-separated streams came in 3.1). So a
// reader that must not hold that index for a whole trace cuts the trace's one large array
// into pieces at element boundaries and hands simdjson each piece as an array of its own.
// Finding the boundaries needs only to know which bytes are in strings and how deep the
// brackets are: nothing here interprets a value, so simdjson still parses and validates every
// byte of every element. The scan looks at 64 bytes at a time through bit masks (SSE2 where
// the compiler has it, else eight bytes per 64-bit word), so that it costs a small part of
// simdjson's own pass over the same bytes.

// The bytes of one 64-byte block that matter to the structure, bit i for byte i.
struct json_block {
  std::uint64_t quotes = 0;       // '"'
  std::uint64_t backslashes = 0;  // '\\'
  std::uint64_t opens = 0;        // '[' and '{'
  std::uint64_t closes = 0;       // ']' and '}'
};

// Portable: eight bytes per 64-bit word. The high bit of each byte of `word` that equals
// `c` (exact: no borrow crosses bytes).
[[nodiscard]] constexpr std::uint64_t json_word_equal(std::uint64_t word, unsigned char c) noexcept {
  constexpr std::uint64_t low7 = 0x7f7f7f7f7f7f7f7f;
  const std::uint64_t x = word ^ (0x0101010101010101 * c);
  return ~(((x & low7) + low7) | x | low7);
}

// The high bits of the eight bytes of `m` as bits 0..7 (byte i to bit i), shifted by `shift`:
// the multiplication moves byte i's bit to bit 56 + i without carries (every product term is
// a distinct power of two).
[[nodiscard]] constexpr std::uint64_t json_gather(std::uint64_t m, unsigned shift) noexcept {
  return (((m >> 7) * 0x0102040810204080) >> 56) << shift;
}

[[nodiscard]] inline std::uint64_t json_word(const char* p) noexcept {
  std::uint64_t word = 0;
  std::memcpy(&word, p, 8);
  if constexpr (std::endian::native == std::endian::big) word = __builtin_bswap64(word);
  return word;
}

[[nodiscard]] inline json_block classify_json_block_swar(const char* p) noexcept {
  json_block b;
  for (unsigned k = 0; k < 8; ++k) {
    // '[' and '{' (0x5b, 0x7b) differ in bit 5 only, as do ']' and '}': one compare each.
    const std::uint64_t word = json_word(p + 8 * k), folded = word | 0x2020202020202020;
    b.quotes |= json_gather(json_word_equal(word, '"'), 8 * k);
    b.backslashes |= json_gather(json_word_equal(word, '\\'), 8 * k);
    b.opens |= json_gather(json_word_equal(folded, '{'), 8 * k);
    b.closes |= json_gather(json_word_equal(folded, '}'), 8 * k);
  }
  return b;
}

[[nodiscard]] inline std::uint64_t json_commas_swar(const char* p) noexcept {
  std::uint64_t commas = 0;
  for (unsigned k = 0; k < 8; ++k) commas |= json_gather(json_word_equal(json_word(p + 8 * k), ','), 8 * k);
  return commas;
}

#if defined(__SSE2__)
// Bit i set where byte i of the 16 `bytes` equals `c`, shifted to bits `shift`..`shift` + 15.
[[nodiscard]] inline std::uint64_t json_bytes_equal(__m128i bytes, char c, unsigned shift) noexcept {
  auto mask = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, _mm_set1_epi8(c))));
  return std::uint64_t{mask} << shift;
}

[[nodiscard]] inline json_block classify_json_block_sse2(const char* p) noexcept {
  json_block b;
  for (unsigned k = 0; k < 4; ++k) {
    __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k));
    __m128i folded = _mm_or_si128(bytes, _mm_set1_epi8(0x20));  // as in the portable code
    b.quotes |= json_bytes_equal(bytes, '"', 16 * k);
    b.backslashes |= json_bytes_equal(bytes, '\\', 16 * k);
    b.opens |= json_bytes_equal(folded, '{', 16 * k);
    b.closes |= json_bytes_equal(folded, '}', 16 * k);
  }
  return b;
}

[[nodiscard]] inline std::uint64_t json_commas_sse2(const char* p) noexcept {
  std::uint64_t commas = 0;
  for (unsigned k = 0; k < 4; ++k)
    commas |= json_bytes_equal(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k)), ',', 16 * k);
  return commas;
}
#endif

// The 64 bytes at `p` classified: SSE2 where the compiler has it (every x86-64), else the
// portable code (the tests check the two agree).
[[nodiscard]] inline json_block classify_json_block(const char* p) noexcept {
#if defined(__SSE2__)
  return classify_json_block_sse2(p);
#else
  return classify_json_block_swar(p);
#endif
}

// The ',' among the 64 bytes at `p`.
[[nodiscard]] inline std::uint64_t json_commas(const char* p) noexcept {
#if defined(__SSE2__)
  return json_commas_sse2(p);
#else
  return json_commas_swar(p);
#endif
}

// The bytes a backslash escapes: each backslash not itself escaped escapes the byte after it.
// `carry` in: the block's first byte is escaped (the previous block ended with an escaping
// backslash); out: the same for the next block. Backslashes are rare in profiles: one pass
// of the loop per escape.
[[nodiscard]] inline std::uint64_t json_escaped(std::uint64_t backslashes, bool& carry) noexcept {
  std::uint64_t escaped = carry ? 1 : 0;
  backslashes &= ~escaped;
  carry = false;
  while (backslashes != 0) {
    const std::uint64_t lowest = backslashes & (~backslashes + 1);
    const std::uint64_t next = lowest << 1;
    if (next == 0) {
      carry = true;  // the block's last byte escapes the next block's first
      break;
    }
    escaped |= next;
    backslashes &= ~(lowest | next);
  }
  return escaped;
}

// Bit i: the XOR of bits 0..i (so a quote mask becomes the bytes from an opening quote up to,
// not including, its closing one).
[[nodiscard]] constexpr std::uint64_t json_prefix_xor(std::uint64_t x) noexcept {
  for (unsigned shift = 1; shift < 64; shift *= 2) x ^= x << shift;
  return x;
}

/// Where find_array_cut stopped.
struct array_cut {
  enum class stop : std::uint8_t {
    comma,  ///< a ',' between two of the array's elements, at or after the cut point
    close,  ///< the bracket that closes the array (']', or '}' in malformed JSON)
    end,    ///< the end of the text, the array not closed
  };
  stop what = stop::end;
  std::size_t at = 0;      ///< the ',' or the bracket; the text's size at its end
  bool in_string = false;  ///< stop::end: the text ends inside a string
  std::int64_t depth = 0;  ///< stop::end: brackets still open, the array's own included
};

/// Scans the elements of a JSON array from `from`, a byte at the array's top level (just
/// after its '[' or after a ',' between its elements), to the first of: a ',' between two
/// elements at `cut_at` or after; the bracket that closes the array; the end of `text`.
/// Tracks strings (with their backslash escapes) and bracket depth only, never the values
/// (see above); brackets of either kind count alike, and a backslash escapes the byte after
/// it even outside a string, so invalid JSON is left for the parser of the bytes to refuse.
/// O(bytes scanned), 64 at a time; no allocation.
///
///     auto cut = find_array_cut(R"([{"a":"],"},2,3])", 1, 12);  // stop::comma at 13
[[nodiscard]] inline array_cut find_array_cut(std::string_view text, std::size_t from, std::size_t cut_at) noexcept {
  std::int64_t depth = 1;
  std::uint64_t in_string_before = 0;  // all ones: the block starts inside a string
  bool escape_carry = false;
  for (std::size_t p = from; p < text.size(); p += 64) {
    const std::size_t left = text.size() - p;
    char tail[64];
    const char* block = text.data() + p;
    if (left < 64) {  // the last bytes, padded with white space
      std::memset(tail, ' ', sizeof tail);
      std::memcpy(tail, block, left);
      block = tail;
    }
    const json_block b = classify_json_block(block);
    const std::uint64_t escaped = json_escaped(b.backslashes, escape_carry);
    const std::uint64_t in_string = json_prefix_xor(b.quotes & ~escaped) ^ in_string_before;
    in_string_before = static_cast<std::uint64_t>(-static_cast<std::int64_t>(in_string >> 63));
    const std::uint64_t plain = ~(in_string | escaped);  // structure: neither in a string nor escaped
    const std::uint64_t opens = b.opens & plain, closes = b.closes & plain;
    // The brackets are walked one by one: profiles have a few per 64 bytes, and walking them
    // took fewer instructions than counting them (popcount is a sequence of shifts without
    // -mpopcnt) to skip the blocks that cannot close the array. Commas only near the cut.
    const bool may_cut = p + 64 > cut_at;
    const std::uint64_t commas = may_cut ? json_commas(block) & plain : 0;
    for (std::uint64_t bits = opens | closes | commas; bits != 0; bits &= bits - 1) {
      const std::uint64_t bit = bits & (~bits + 1);
      const std::size_t at = p + static_cast<std::size_t>(std::countr_zero(bits));
      if (opens & bit) {
        ++depth;
      } else if (closes & bit) {
        if (--depth == 0) return {array_cut::stop::close, at, false, 0};
      } else if (depth == 1 && at >= cut_at) {
        return {array_cut::stop::comma, at, false, 1};
      }
    }
  }
  return {array_cut::stop::end, text.size(), in_string_before != 0, depth};
}

/// Throws parse_error::at_byte(from) unless the bytes [from, to) of `text` are UTF-8: for the
/// values a reader skips without simdjson (which checked them when it took whole documents).
inline void check_json_utf8(std::string_view text, std::size_t from, std::size_t to) {
  if (!simdjson::validate_utf8(text.data() + from, to - from))
    throw parse_error::at_byte(from, "simdjson cannot take this document (The input is not valid UTF-8)");
}

/// A piece of a JSON array being parsed (json_array_reader): a document of its own, whose
/// byte k is byte `base` + k of the text it was cut from.
struct json_piece {
  simdjson::ondemand::document* doc = nullptr;
  simdjson::padded_string_view json;
  std::uint64_t base = 0;
};

/// Parses the elements of one JSON array of a document in memory in pieces of whole elements
/// of about `piece_bytes` (above: find_array_cut), each piece copied into one padded buffer
/// and parsed by one simdjson parser as an array of its own, so that the memory is that of
/// the largest piece, not of the document. Every byte of every element is parsed by simdjson.
class json_array_reader {
 public:
  explicit json_array_reader(std::size_t piece_bytes) : piece_bytes_(std::max<std::size_t>(piece_bytes, 1)) {}

  /// Reads the array of `text` whose '[' is at `open`: `each(elements, piece)` is called per
  /// piece with the piece's simdjson::ondemand::array, which it must iterate to its end.
  /// `what` names the array in errors. `repair`: the array is the whole document, so it may be
  /// cut off (no ']': it ends with the document) and a ',' before its end is dropped, as
  /// Chrome leaves a trace it did not finish. Returns the byte after the ']' (the document's
  /// end when repaired). Errors (parse_error::at_byte, at the text's byte): an element cut
  /// off, an array not closed or closed by '}', a ',' after the last element, brackets that
  /// do not match; what simdjson finds in a piece, at the byte where it stands or, for its
  /// first pass (invalid UTF-8, a string never closed), at the piece's first byte.
  /// O(bytes of the array).
  template <class Each>
  std::size_t read(std::string_view text, std::size_t open, const std::string& what, bool repair, Each&& each) {
    std::size_t begin = open;  // the '[' or ',' before the piece's first element
    for (std::size_t from = open + 1;;) {
      const std::size_t cut_at = piece_bytes_ < text.size() - begin ? begin + piece_bytes_ : std::string_view::npos;
      array_cut cut = find_array_cut(text, from, cut_at);
      if (cut.what == array_cut::stop::comma) {
        from = cut.at + 1;
        // A piece of white space alone (",  ,") is no piece: kept for simdjson to refuse.
        if (skip_json_space(text, begin + 1) == cut.at) continue;
        read_piece(text, begin, cut.at, each);
        begin = cut.at;
        continue;
      }
      if (cut.what == array_cut::stop::end && (cut.in_string || cut.depth > 1)) {
        // Cut inside an element: simdjson refuses the last piece, the array closed after it
        // (as a whole document was refused); if it ever did not, this does.
        read_piece(text, begin, cut.at, each);
        throw parse_error::at_byte(cut.at, "malformed JSON (the document ends inside an element of " + what + ")");
      }
      // The array's end (its bracket, or the document's end): a ',' after the last element is
      // dropped when repairing, else refused at it, after the elements before it.
      std::size_t last = cut.at;
      while (is_json_space(text[last - 1])) --last;
      const bool trailing_comma = last - 1 > open && text[last - 1] == ',';
      const std::size_t end = trailing_comma ? last - 1 : cut.at;
      if (skip_json_space(text, begin + 1) < end) read_piece(text, begin, end, each);
      if (trailing_comma && !repair)
        throw parse_error::at_byte(last - 1, "malformed JSON (a ',' after the last element of " + what + ")");
      if (cut.what == array_cut::stop::end) {
        if (!repair) throw parse_error::at_byte(cut.at, "malformed JSON (the document ends inside " + what + ")");
        return cut.at;
      }
      if (text[cut.at] != ']') throw parse_error::at_byte(cut.at, "malformed JSON (" + what + " closed by '}')");
      return cut.at + 1;
    }
  }

  /// Reads the one value of `text` at [at, end) (`at` > 0: a member's value, after its ':')
  /// as a document of its own, by the same parser: `each(elements, piece)` as for read, the
  /// array holding that value alone. For the small members a streaming reader meets between
  /// its large arrays. Errors as for read, the piece's first byte being `at` - 1. O(end - at).
  template <class Each>
  void read_value(std::string_view text, std::size_t at, std::size_t end, Each&& each) {
    read_piece(text, at - 1, end, each);
  }

  /// Frees the piece's copy and the parser's buffers (about seven bytes per byte of the
  /// largest piece), for a reader to build its tree without them; the next read allocates
  /// them again.
  void release() noexcept {
    std::vector<char>().swap(piece_);  // not `= {}`, which keeps the memory
    parser_ = simdjson::ondemand::parser{};
  }

 private:
  // The elements between the '[' or ',' at `begin` and the ',' or ']' at `end` (or the
  // document's end) as an array of their own: its first and last bytes made '[' and ']', so
  // that the piece's byte k is the text's byte begin + k.
  template <class Each>
  void read_piece(std::string_view text, std::size_t begin, std::size_t end, Each& each) {
    const std::size_t size = end - begin + 1;
    if (piece_.size() < size + simdjson::SIMDJSON_PADDING) piece_.resize(size + simdjson::SIMDJSON_PADDING);
    piece_[0] = '[';
    std::memcpy(piece_.data() + 1, text.data() + begin + 1, size - 2);
    piece_[size - 1] = ']';
    // Not a bracket (an earlier piece may have left one there): simdjson scans the whole
    // piece for balance when the first byte after a root array is ']'.
    piece_[size] = ' ';
    json_piece piece;
    piece.json = simdjson::padded_string_view(piece_.data(), size, piece_.size());
    piece.base = begin;
    simdjson::ondemand::document doc;
    if (auto e = parser_.iterate(piece.json).get(doc))
      throw parse_error::at_byte(begin, std::string("simdjson cannot take this document (") + simdjson::error_message(e) + ")");
    piece.doc = &doc;
    simdjson::ondemand::array elements;
    if (auto e = doc.get_array().get(elements)) json_fail(doc, piece.json, "malformed JSON", e, begin);
    each(elements, piece);
    // The array simdjson read ends where the piece does, unless a value it skipped had
    // brackets that do not match.
    const char* more = nullptr;
    if (doc.current_location().get(more) == simdjson::SUCCESS && more < piece.json.data() + piece.json.size())
      throw parse_error::at_byte(begin + offset_in(piece.json, more), "malformed JSON (brackets that do not match)");
  }

  std::size_t piece_bytes_;
  std::vector<char> piece_;               // the piece being parsed, padded
  simdjson::ondemand::parser parser_;     // one for every piece: its buffers fit the largest
};

/// The closing quote of the JSON string whose contents start at `from` (just after its opening
/// quote), or npos if the text ends first. O(length of the string).
[[nodiscard]] inline std::size_t end_of_json_string(std::string_view text, std::size_t from) noexcept {
  for (std::size_t p = from;;) {
    p = text.find('"', p);
    if (p == std::string_view::npos) return p;
    std::size_t backslashes = 0;
    while (p - backslashes > from && text[p - backslashes - 1] == '\\') ++backslashes;
    if (backslashes % 2 == 0) return p;
    ++p;
  }
}

/// The byte after the JSON value that starts at `i`, read no further than its structure: a
/// string to its closing quote, an array or object to its matching bracket (find_array_cut),
/// anything else to the next delimiter; the parser of the document validates what matters.
/// Throws parse_error::at_byte for a value the text ends in or that is missing. O(its size).
[[nodiscard]] inline std::size_t skip_json_value(std::string_view text, std::size_t i) {
  if (i == text.size()) throw parse_error::at_byte(i, "malformed JSON (the document ends before a value)");
  const char c = text[i];
  if (c == '"') {
    std::size_t end = end_of_json_string(text, i + 1);
    if (end == std::string_view::npos) throw parse_error::at_byte(i, "malformed JSON (a string never closed)");
    return end + 1;
  }
  if (c == '[' || c == '{') {
    array_cut end = find_array_cut(text, i + 1, std::string_view::npos);
    if (end.what != array_cut::stop::close) throw parse_error::at_byte(i, "malformed JSON (an array or object never closed)");
    if (text[end.at] != (c == '[' ? ']' : '}')) throw parse_error::at_byte(end.at, "malformed JSON (a bracket that does not match)");
    return end.at + 1;
  }
  std::size_t end = i;
  while (end < text.size() && !is_json_space(text[end]) && text[end] != ',' && text[end] != '}' && text[end] != ']' &&
         text[end] != ':')
    ++end;
  if (end == i) throw parse_error::at_byte(i, "malformed JSON (expected a value)");
  return end;
}

/// The ',' or `close` after a member or element of a JSON object or array that ends before `i`
/// (white space between): its byte. Throws parse_error::at_byte where the text ends (`inside`:
/// "an object", "an array") or holds anything else.
[[nodiscard]] inline std::size_t json_separator(std::string_view text, std::size_t i, char close, const char* inside) {
  i = skip_json_space(text, i);
  if (i == text.size()) throw parse_error::at_byte(i, std::string("malformed JSON (the document ends inside ") + inside + ")");
  if (text[i] != ',' && text[i] != close)
    throw parse_error::at_byte(i, std::string("malformed JSON (expected ',' or '") + close + "')");
  return i;
}

/// Walks the members of the JSON object whose '{' is at `open` without a parser: for each,
/// `member(key, value_at)` is called with the key's raw bytes (escapes left as written) and
/// the byte where its value starts, and returns the byte after the value if it read it, 0 to
/// have it skipped (skip_json_value), or npos to stop the walk. Returns the byte after the
/// object's '}' (npos if stopped). Throws parse_error::at_byte where the object is malformed.
/// O(size of the object), no allocation.
///
///     walk_json_object(R"({"a": [1], "b": 2})", 0, [](std::string_view key, std::size_t) {
///       return key == "b" ? std::string_view::npos : 0;  // stops at "b"
///     });
template <class Member>
std::size_t walk_json_object(std::string_view text, std::size_t open, Member&& member) {
  auto next = [&](std::size_t i, char c, const char* what) {
    while (i < text.size() && is_json_space(text[i])) ++i;
    if (i == text.size()) throw parse_error::at_byte(i, std::string("malformed JSON (the document ends before ") + what + ")");
    if (text[i] != c) throw parse_error::at_byte(i, std::string("malformed JSON (expected ") + what + ")");
    return i + 1;
  };
  std::size_t i = open + 1;
  while (i < text.size() && is_json_space(text[i])) ++i;
  if (i < text.size() && text[i] == '}') return i + 1;
  for (;;) {
    i = next(i, '"', "a key");
    const std::size_t key_end = end_of_json_string(text, i);
    if (key_end == std::string_view::npos) throw parse_error::at_byte(i - 1, "malformed JSON (a key never closed)");
    const std::string_view key = text.substr(i, key_end - i);
    i = next(key_end + 1, ':', "':'");
    while (i < text.size() && is_json_space(text[i])) ++i;
    const std::size_t after = member(key, i);
    if (after == std::string_view::npos) return after;
    i = json_separator(text, after != 0 ? after : skip_json_value(text, i), '}', "an object");
    if (text[i++] == '}') return i;
  }
}

/// Walks the elements of the JSON array whose '[' is at `open` without a parser, as
/// walk_json_object does its members: `element(at)` per element, `at` its first byte, returns
/// the byte after the element if it read it, 0 to have it skipped. Returns the byte after the
/// array's ']'. Throws parse_error::at_byte where the array is malformed (a ',' after the
/// last element included). O(size of the array), no allocation.
///
///     walk_json_array("[1, {}]", 0, [](std::size_t at) -> std::size_t { return 0; });  // 7
template <class Element>
std::size_t walk_json_array(std::string_view text, std::size_t open, Element&& element) {
  std::size_t i = skip_json_space(text, open + 1);
  if (i < text.size() && text[i] == ']') return i + 1;
  for (;;) {
    i = skip_json_space(text, i);
    const std::size_t after = element(i);
    i = json_separator(text, after != 0 ? after : skip_json_value(text, i), ']', "an array");
    if (text[i++] == ']') return i;
  }
}

/// A JSON document being read as the readers of JSON profiles read it: walked for its
/// structure in place (walk_json_object and the rest below), its large arrays parsed by
/// simdjson On-Demand in pieces (json_array_reader) and its small values each as a document
/// of its own. It knows the piece being parsed, so that every error names the document's byte
/// (parse_error::at_byte), and which bytes no parser read, so that those are checked to be
/// UTF-8 as simdjson checked them when it took whole documents.
class json_cursor {
 public:
  /// When the bytes no parser reads (members skipped, the structure between values) are
  /// checked to be UTF-8.
  enum class utf8_check : std::uint8_t {
    in_order,  ///< as the reading passes them (it reads the values in the document's order)
    at_end,    ///< by check_unparsed_utf8, once the reader is done (it may go back)
  };

  /// `text`: the whole document (not copied: it outlives the cursor). `piece_bytes`: see
  /// json_array_reader.
  json_cursor(std::string_view text, std::size_t piece_bytes, utf8_check when = utf8_check::in_order)
      : text_(text), pieces_(piece_bytes), when_(when) {}

  [[nodiscard]] std::string_view text() const noexcept { return text_; }
  /// The piece being parsed (read, read_value, read_pieces), or the one entered.
  [[nodiscard]] const json_piece& piece() const noexcept { return piece_; }
  /// Makes `piece` the one being parsed: for a value parsed by a parser of the reader's own.
  void enter(const json_piece& piece) noexcept { piece_ = piece; }

  // ---- where, and errors -------------------------------------------------------------------

  /// The document's byte of `at`, a pointer into the piece being parsed.
  [[nodiscard]] std::uint64_t offset(const char* at) const noexcept { return piece_.base + offset_in(piece_.json, at); }

  [[noreturn]] static void fail_at(std::uint64_t at, const std::string& what) { throw parse_error::at_byte(at, what); }

  /// At `at`, a pointer into the piece: "<what> (<simdjson's reason>)" (no reason for SUCCESS).
  [[noreturn]] void fail_at_token(const char* at, const std::string& what, simdjson::error_code e = simdjson::SUCCESS) const {
    std::string reason = what;
    if (e != simdjson::SUCCESS) reason += std::string(" (") + simdjson::error_message(e) + ")";
    fail_at(offset(at), reason);
  }

  /// At the value `v`, as fail_at_token.
  [[noreturn]] void fail(simdjson::ondemand::value& v, const std::string& what, simdjson::error_code e = simdjson::SUCCESS) const {
    fail_at_token(v.raw_json_token().data(), what, e);
  }

  /// A structural error found while iterating: where the piece's iterator stands (json_fail).
  [[noreturn]] void fail_here(const std::string& what, simdjson::error_code e = simdjson::SUCCESS) const {
    json_fail(*piece_.doc, piece_.json, what, e, piece_.base);
  }

  // ---- values of the piece, each failure at the value: "<what> is not ..." -----------------

  [[nodiscard]] std::int64_t integer(simdjson::ondemand::value& v, const char* what) const {
    std::int64_t x = 0;
    if (auto e = v.get_int64().get(x)) fail(v, std::string(what) + " is not an integer", e);
    return x;
  }

  /// A count or a size: a whole number a double holds exactly.
  [[nodiscard]] double count(simdjson::ondemand::value& v, const char* what) const {
    std::uint64_t x = 0;
    if (auto e = v.get_uint64().get(x)) fail(v, std::string(what) + " is not a non-negative integer", e);
    if (x > (std::uint64_t{1} << 53)) fail(v, std::string(what) + " is larger than 2^53");
    return static_cast<double>(x);
  }

  [[nodiscard]] double number(simdjson::ondemand::value& v, const char* what) const {
    double x = 0;
    if (auto e = v.get_double().get(x)) fail(v, std::string(what) + " is not a number", e);
    return x;
  }

  [[nodiscard]] std::string_view string(simdjson::ondemand::value& v, std::string_view what) const {
    std::string_view s;
    if (auto e = v.get_string().get(s)) fail(v, std::string(what) + " is not a string", e);
    return s;
  }

  [[nodiscard]] simdjson::ondemand::array array(simdjson::ondemand::value& v, const char* what) const {
    simdjson::ondemand::array a;
    if (auto e = v.get_array().get(a)) fail(v, std::string(what) + " is not an array", e);
    return a;
  }

  [[nodiscard]] simdjson::ondemand::object object(simdjson::ondemand::value& v, std::string_view what) const {
    simdjson::ondemand::object o;
    if (auto e = v.get_object().get(o)) fail(v, std::string(what) + " is not an object", e);
    return o;
  }

  /// A member's key (field_key: unescaped only if written with escapes).
  [[nodiscard]] std::string_view key(simdjson::ondemand::field& f) const {
    return field_key(f, *piece_.doc, piece_.json, piece_.base);
  }

  // ---- reading ------------------------------------------------------------------------------

  /// The array whose '[' is at `open` (the caller checked it), in pieces: `each(elements)` per
  /// piece, the piece entered, which must iterate the array to its end. `what` and `repair`
  /// as for json_array_reader::read. Returns the byte after the array.
  template <class Each>
  std::size_t read_pieces(std::size_t open, const std::string& what, bool repair, Each&& each) {
    return parsed(open, [&] {
      return pieces_.read(text_, open, what, repair, [&](simdjson::ondemand::array& elements, const json_piece& piece) {
        piece_ = piece;
        each(elements);
      });
    });
  }

  /// The same, `each(element)` per element (a simdjson::ondemand::value&); an element simdjson
  /// cannot give fails here with `malformed`.
  template <class Each>
  std::size_t read(std::size_t open, const std::string& what, const std::string& malformed, Each&& each) {
    return read_pieces(open, what, false, [&](simdjson::ondemand::array& elements) { each_value(elements, malformed, each); });
  }

  /// The one value at `at` as a document of its own: `read(value)`. Returns the byte after it
  /// (errors of the value's structure: skip_json_value's).
  template <class Read>
  std::size_t read_value(std::size_t at, Read&& read) {
    const std::size_t end = skip_json_value(text_, at);
    return parsed(at, [&] {
      pieces_.read_value(text_, at, end, [&](simdjson::ondemand::array& elements, const json_piece& piece) {
        piece_ = piece;
        each_value(elements, "malformed JSON", read);
      });
      return end;
    });
  }

  /// `parse()` parses the bytes from `at` to the byte it returns, which are then known to be
  /// UTF-8; utf8_check::in_order: the bytes before `at` are checked first. Returns that byte.
  template <class Parse>
  std::size_t parsed(std::size_t at, Parse&& parse) {
    if (when_ == utf8_check::in_order) check_utf8_to(at);
    const std::size_t end = parse();
    if (when_ == utf8_check::in_order) checked_ = std::max(checked_, end);
    else parsed_.emplace_back(at, end);
    return end;
  }

  /// utf8_check::in_order: the bytes before `at` not yet checked nor parsed are UTF-8, else
  /// parse_error::at_byte at the first of them.
  void check_utf8_to(std::size_t at) {
    if (at > checked_) check_json_utf8(text_, checked_, at);
    checked_ = std::max(checked_, at);
  }

  /// utf8_check::at_end: every byte no parser read is UTF-8, else parse_error::at_byte at the
  /// first byte of the run of such bytes (between two values parsed) that holds the first bad
  /// one. O(values parsed x log + bytes not parsed).
  void check_unparsed_utf8() {
    std::sort(parsed_.begin(), parsed_.end());
    std::size_t from = 0;
    for (auto [begin, end] : parsed_) {
      if (from < begin) check_json_utf8(text_, from, begin);
      from = std::max(from, end);
    }
    if (from < text_.size()) check_json_utf8(text_, from, text_.size());
  }

  /// Frees the parser's buffers (json_array_reader::release) once nothing more is parsed.
  void release() noexcept { pieces_.release(); }

 private:
  // f(value) for each element of the piece's `elements`; one simdjson cannot give fails here
  // with `malformed`.
  template <class F>
  void each_value(simdjson::ondemand::array& elements, const std::string& malformed, F& f) const {
    for (auto element : elements) {
      simdjson::ondemand::value v;
      if (auto e = element.get(v)) fail_here(malformed, e);
      f(v);
    }
  }

  std::string_view text_;
  json_array_reader pieces_;
  json_piece piece_;
  utf8_check when_;
  std::size_t checked_ = 0;                                   // in_order: the bytes before are UTF-8
  std::vector<std::pair<std::size_t, std::size_t>> parsed_;  // at_end: the values parsed, [begin, end)
};

}  // namespace detail

}  // namespace ccrc::formats
