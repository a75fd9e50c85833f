// ccrc - splitting a byte stream into lines, with a bound on the length of one line.
#pragma once

#include <ccrc/error.hpp>

#include <algorithm>
#include <cerrno>
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

// fstat, to tell an open file's kind and size where the system has it.
#if !defined(_WIN32) && defined(__has_include)
#if __has_include(<sys/stat.h>)
#define CCRC_DETAIL_HAS_FSTAT 1
#include <sys/stat.h>
#endif
#endif
#ifndef CCRC_DETAIL_HAS_FSTAT
#define CCRC_DETAIL_HAS_FSTAT 0
#endif

namespace ccrc::detail {

/// The longest line the folded and .cct readers accept (folded_options::max_line_bytes by
/// default), which their writers therefore never exceed: 64 MiB.
inline constexpr std::size_t default_max_line_bytes = std::size_t{64} << 20;

/// The byte-order mark some editors and Windows tools put at the start of UTF-8 text, which
/// names nothing: every reader skips it.
inline constexpr std::string_view utf8_bom = "\xEF\xBB\xBF";

/// A `read` callable over bytes in memory (for_each_line reads them in place).
struct memory_source {
  std::string_view rest;
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
// memory_source, or of a prefixed_source over one whose prefix lies right before its rest (the
// first bytes of bytes in memory, taken to detect their format); nullopt for anything else.
template <class Read>
std::optional<memory_source> take_in_memory(Read& read) {
  if constexpr (is_memory_source<Read>) {
    return std::exchange(read, {});
  } else if constexpr (requires { read.prefix; requires is_memory_source<decltype(read.rest)>; }) {
    std::string_view head = read.prefix.rest, tail = read.rest.rest;
    if (!head.empty() && !tail.empty() && head.data() + head.size() != tail.data()) return std::nullopt;
    memory_source whole{head.empty() ? tail : tail.empty() ? head : std::string_view(head.data(), head.size() + tail.size())};
    read.prefix = {};
    read.rest = {};
    return whole;
  } else {
    return std::nullopt;
  }
}

/// Calls on_line(line, number) for each line pulled from `read` (a callable filling a buffer:
/// std::size_t read(char* dst, std::size_t capacity), 0 at the end), without its '\n' or a
/// final '\r', the first without a UTF-8 byte-order mark; numbers start at 1. Bytes in memory
/// (a memory_source, or a prefixed_source whose prefix lies right before its memory_source)
/// are split where they lie; other sources are read through a buffer holding one line at a
/// time. A line longer than `max_line_bytes` throws parse_error as soon
/// as that many bytes are seen, so a 1 GB line from a stream is refused without being held.
template <class Read, class OnLine>
void for_each_line(Read&& read, std::size_t max_line_bytes, OnLine&& on_line) {
  std::uint64_t number = 0;
  auto emit = [&](const char* p, std::size_t n) {
    ++number;
    if (n > max_line_bytes)
      throw parse_error(number, "line longer than " + std::to_string(max_line_bytes) + " bytes");
    if (n != 0 && p[n - 1] == '\r') --n;
    std::string_view line(p, n);
    if (number == 1 && line.starts_with(utf8_bom)) line.remove_prefix(utf8_bom.size());
    on_line(line, number);
  };
  if (std::optional<memory_source> memory = take_in_memory(read)) {
    // Bytes already in memory are split where they are, not copied into the buffer below.
    for (std::string_view rest = memory->rest; !rest.empty();) {
      const void* nl = std::memchr(rest.data(), '\n', rest.size());
      std::size_t n = nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - rest.data()) : rest.size();
      emit(rest.data(), n);
      rest.remove_prefix(nl ? n + 1 : n);
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

/// A `read` callable over a file opened by its name, giving the file as it was when opened.
/// It is read with read(), never mapped: a mapped file that another program cuts short while
/// it is read (`perf script > f` truncates f) kills the reader with SIGBUS. A regular file is
/// read up to the size it had when opened: bytes appended later are not read, and one that
/// ends before that size throws ccrc::error naming it, rather than passing for a shorter
/// profile. A pipe, FIFO or device is read to its end. Throws ccrc::error if the file cannot
/// be opened, is a directory, or a read fails. O(1) system calls a read, unbuffered (the
/// readers ask for a megabyte at a time).
///
///     ccrc::detail::file_source in("run.folded");
///     char buf[4096];
///     std::size_t n = in(buf, sizeof buf);  // 0 at the end
class file_source {
 public:
  explicit file_source(const std::filesystem::path& path) : file_(std::fopen(path.c_str(), "rb"), &std::fclose), path_(path.string()) {
    if (!file_) throw error("cannot open " + path_, path_);
    std::setvbuf(file_.get(), nullptr, _IONBF, 0);
    file_kind kind = kind_of(path);
    if (kind.directory) throw error("cannot read " + path_ + ": it is a directory", path_);
    size_ = kind.regular_size;
  }

  std::size_t operator()(char* dst, std::size_t capacity) {
    if (size_ != 0) {
      if (read_ == size_) return 0;  // what was appended since it was opened is not read
      capacity = static_cast<std::size_t>(std::min<std::uint64_t>(capacity, size_ - read_));
    }
    errno = 0;
    std::size_t n = std::fread(dst, 1, capacity, file_.get());
    if (n == 0 && std::ferror(file_.get()))
      throw error("cannot read " + path_ + (errno != 0 ? std::string(": ") + std::strerror(errno) : std::string()), path_);
    if (n == 0 && read_ < size_) {
      std::uint64_t now = kind_of({}).regular_size;
      throw error(path_ + ": the file shrank while it was read (" + std::to_string(size_) + " bytes when opened, " +
                      std::to_string(now) + " now): was another program writing it?",
                  path_);
    }
    read_ += n;
    return n;
  }

  /// The size of a regular file when it was opened; 0 for anything else (a pipe), or an
  /// empty file.
  [[nodiscard]] std::uint64_t size() const noexcept { return size_; }

 private:
  struct file_kind {
    bool directory = false;
    std::uint64_t regular_size = 0;
  };
  // What the open file is (by its descriptor where the system has one, so that a name
  // replaced since it was opened cannot mislead; else by `path`).
  file_kind kind_of([[maybe_unused]] const std::filesystem::path& path) const noexcept {
    file_kind k;
#if CCRC_DETAIL_HAS_FSTAT
    struct stat st;
    if (::fstat(::fileno(file_.get()), &st) != 0) return k;
    k.directory = S_ISDIR(st.st_mode);
    if (S_ISREG(st.st_mode) && st.st_size > 0) k.regular_size = static_cast<std::uint64_t>(st.st_size);
#else
    std::error_code ec;
    const std::filesystem::path& named = path.empty() ? std::filesystem::path(path_) : path;
    k.directory = std::filesystem::is_directory(named, ec);
    if (std::filesystem::is_regular_file(named, ec)) {
      std::uintmax_t size = std::filesystem::file_size(named, ec);
      if (!ec) k.regular_size = size;
    }
#endif
    return k;
  }

  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file_;
  std::string path_;
  std::uint64_t size_ = 0;  // 0: read to the end
  std::uint64_t read_ = 0;
};

}  // namespace ccrc::detail
