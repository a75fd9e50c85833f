// ccrc - splitting a byte stream into lines, with a bound on the length of one line.
#pragma once

#include <ccrc/detail/mapped_file.hpp>
#include <ccrc/error.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <istream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <utility>
#include <vector>

namespace ccrc::detail {

/// The longest line the folded and .cct readers accept (folded_options::max_line_bytes by
/// default), which their writers therefore never exceed: 64 MiB.
inline constexpr std::size_t default_max_line_bytes = std::size_t{64} << 20;

/// A C stream reading `path`, closed when it goes; throws ccrc::error if it cannot be opened
/// or is a directory (which fopen opens, and whose first read fails with no path to tell).
inline std::unique_ptr<std::FILE, int (*)(std::FILE*)> open_for_reading(const std::filesystem::path& path) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!file) throw error("cannot open " + path.string());
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw error("cannot read " + path.string() + ": it is a directory");
  return file;
}

/// The size of `path` if it is a regular file, else 0 (a pipe, or unknown): what a reader of
/// a whole document may reserve.
[[nodiscard]] inline std::size_t regular_file_size(const std::filesystem::path& path) noexcept {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return 0;
  std::uintmax_t size = std::filesystem::file_size(path, ec);
  return ec ? 0 : static_cast<std::size_t>(size);
}

/// A `read` callable over bytes in memory (for_each_line reads them in place), which may lie
/// in a mapped file: for_each_line then releases the pages of the lines it has read.
struct memory_source {
  std::string_view rest;
  mapped_file* mapping = nullptr;  // the file `rest` lies in, if it is mapped
  std::size_t operator()(char* dst, std::size_t cap) noexcept {
    std::size_t n = std::min(cap, rest.size());
    std::memcpy(dst, rest.data(), n);
    rest.remove_prefix(n);
    return n;
  }
};

/// A `read` callable that first hands out bytes already read (to detect a format), then the
/// rest of another one.
template <class Read>
struct prefixed_source {
  memory_source prefix;
  Read rest;
  std::size_t operator()(char* dst, std::size_t cap) {
    return prefix.rest.empty() ? rest(dst, cap) : prefix(dst, cap);
  }
};

template <class Read>
inline constexpr bool is_memory_source = std::is_same_v<std::remove_cvref_t<Read>, memory_source>;

// What `read` still holds as one piece of memory, taking it from `read`: all of a
// memory_source, or of a prefixed_source over one whose prefix lies right before its rest (a
// mapped file's first bytes, taken to detect its format); nullopt for anything else.
template <class Read>
std::optional<memory_source> take_in_memory(Read& read) {
  if constexpr (is_memory_source<Read>) {
    return std::exchange(read, {});
  } else if constexpr (requires { read.prefix; requires is_memory_source<decltype(read.rest)>; }) {
    std::string_view head = read.prefix.rest, tail = read.rest.rest;
    if (!head.empty() && !tail.empty() && head.data() + head.size() != tail.data()) return std::nullopt;
    memory_source whole{head.empty() ? tail : tail.empty() ? head : std::string_view(head.data(), head.size() + tail.size()),
                        read.rest.mapping};
    read.prefix = {};
    read.rest = {};
    return whole;
  } else {
    return std::nullopt;
  }
}

/// Calls on_line(line, number) for each line pulled from `read` (a callable filling a buffer:
/// std::size_t read(char* dst, std::size_t capacity), 0 at the end), without its '\n' or a
/// final '\r'; numbers start at 1. Bytes in memory (a memory_source, or a prefixed_source
/// whose prefix lies right before its memory_source) are split where they lie, and the pages
/// of a mapped file released behind the lines read; other sources are read through a buffer
/// holding one line at a time. A line longer than `max_line_bytes` throws parse_error as soon
/// as that many bytes are seen, so a 1 GB line from a stream is refused without being held.
template <class Read, class OnLine>
void for_each_line(Read&& read, std::size_t max_line_bytes, OnLine&& on_line) {
  std::uint64_t number = 0;
  auto emit = [&](const char* p, std::size_t n) {
    ++number;
    if (n > max_line_bytes)
      throw parse_error(number, "line longer than " + std::to_string(max_line_bytes) + " bytes");
    if (n != 0 && p[n - 1] == '\r') --n;
    on_line(std::string_view(p, n), number);
  };
  if (std::optional<memory_source> memory = take_in_memory(read)) {
    // Bytes already in memory are split where they are, not copied into the buffer below.
    for (std::string_view rest = memory->rest; !rest.empty();) {
      const void* nl = std::memchr(rest.data(), '\n', rest.size());
      std::size_t n = nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - rest.data()) : rest.size();
      emit(rest.data(), n);
      rest.remove_prefix(nl ? n + 1 : n);
      if (memory->mapping) memory->mapping->release_before(rest.data());
    }
    return;
  }
  constexpr std::size_t chunk = std::size_t{1} << 20;
  // Uninitialised (new char[]): a vector would zero each megabyte it grows by, which an
  // unoptimised libc++ does byte by byte.
  std::size_t capacity = chunk;
  std::unique_ptr<char[]> storage(new char[capacity]);
  char* buf = storage.get();
  std::size_t begin = 0, end = 0;
  std::size_t scanned = 0;  // bytes of the partial line already searched for '\n'
  for (;;) {
    // Emit every complete line in the buffer.
    while (const void* nl = std::memchr(buf + scanned, '\n', end - scanned)) {
      auto stop = static_cast<std::size_t>(static_cast<const char*>(nl) - buf);
      emit(buf + begin, stop - begin);
      begin = scanned = stop + 1;
    }
    scanned = end;
    if (end - begin > max_line_bytes)
      throw parse_error(number + 1, "line longer than " + std::to_string(max_line_bytes) + " bytes");
    // Keep the partial line, making room for one more chunk.
    if (begin != 0) {
      std::memmove(buf, buf + begin, end - begin);
      end -= begin;
      scanned -= begin;
      begin = 0;
    }
    if (capacity - end < chunk) {
      capacity = std::max(2 * capacity, end + chunk);
      std::unique_ptr<char[]> grown(new char[capacity]);
      std::memcpy(grown.get(), buf, end);
      storage = std::move(grown);
      buf = storage.get();
    }
    std::size_t got = read(buf + end, capacity - end);
    if (got == 0) break;
    end += got;
  }
  if (end != begin) emit(buf + begin, end - begin);
}

/// A `read` callable over a std::istream; a failing stream (badbit) throws ccrc::error
/// rather than passing for the end of the input.
struct stream_source {
  std::istream* in;
  std::size_t operator()(char* dst, std::size_t cap) {
    in->read(dst, static_cast<std::streamsize>(cap));
    if (in->bad()) throw error("read error");
    return static_cast<std::size_t>(in->gcount());
  }
};

/// A `read` callable over a C stream; read errors throw ccrc::error.
struct file_source {
  std::FILE* file;
  std::size_t operator()(char* dst, std::size_t cap) {
    std::size_t n = std::fread(dst, 1, cap, file);
    if (n == 0 && std::ferror(file)) throw error("read error");
    return n;
  }
};

}  // namespace ccrc::detail
