// ccrc - a read-only memory map of a regular file, for the readers that parse text in place.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string_view>
#include <utility>

// POSIX mmap where there is one. Emscripten has <sys/mman.h>, but its mmap of a file copies
// the file into memory: there the readers take the stream path, as on Windows.
#if !defined(_WIN32) && !defined(__EMSCRIPTEN__) && defined(__has_include)
#if __has_include(<sys/mman.h>) && __has_include(<sys/stat.h>) && __has_include(<fcntl.h>) && \
    __has_include(<unistd.h>)
#define CCRC_DETAIL_HAS_MMAP 1
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#endif
#endif
#ifndef CCRC_DETAIL_HAS_MMAP
#define CCRC_DETAIL_HAS_MMAP 0
#endif

namespace ccrc::detail {

/// Files smaller than this are read through a buffer rather than mapped: mapping saves a copy
/// of at most 1 MiB, microseconds (within the noise of benchmarks/README.md's runs), not
/// worth the SIGBUS that a mapped file truncated while it is read brings.
inline constexpr std::size_t min_mapped_bytes = std::size_t{1} << 20;

/// A read-only, private memory map of a whole regular file, unmapped when it goes. Reading
/// the mapped bytes saves the kernel's copy of every byte into a buffer (read()): the pages
/// of the page cache become the process's own.
///
/// A file is mapped only if it is a regular file (checked before it is opened, so a FIFO is
/// never opened here: a pipe, /dev/stdin, <(...) stay for the caller's stream path, which
/// reads them once) of at least `min_bytes`, on a system with mmap, and the mapping succeeds
/// (no address space for it on a 32-bit system, say); otherwise the object is empty and the
/// caller reads the file as a stream. Nothing here throws: a file that cannot be opened is
/// left for the stream path to report.
///
/// The bytes are those of the file when it was mapped. A file truncated by another process
/// while it is mapped kills this one with SIGBUS when a page past the new end is read (read()
/// would have returned fewer bytes): map only files that are not being rewritten. Appending
/// is harmless (the bytes appended are not seen).
class mapped_file {
 public:
  mapped_file() noexcept = default;

  /// Maps `path` (see the class comment for when it does not). O(1) system calls; the pages
  /// are read as they are touched, read ahead sequentially.
  explicit mapped_file(const std::filesystem::path& path, std::size_t min_bytes = min_mapped_bytes) noexcept {
#if CCRC_DETAIL_HAS_MMAP
    struct stat named;
    if (::stat(path.c_str(), &named) != 0 || !S_ISREG(named.st_mode) ||
        static_cast<unsigned long long>(named.st_size) < min_bytes)
      return;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    struct stat opened;
    // Checked again on what was opened, which may have been replaced or truncated since.
    if (::fstat(fd, &opened) == 0 && S_ISREG(opened.st_mode) && opened.st_size > 0 &&
        static_cast<unsigned long long>(opened.st_size) >= min_bytes &&
        static_cast<unsigned long long>(opened.st_size) <= static_cast<std::size_t>(-1)) {
      const auto size = static_cast<std::size_t>(opened.st_size);
      void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
      if (p != MAP_FAILED) {
        data_ = static_cast<const char*>(p);
        size_ = size;
        released_ = data_;
        (void)::posix_madvise(p, size, POSIX_MADV_SEQUENTIAL);
      }
    }
    ::close(fd);  // the mapping keeps the file
#else
    (void)path;
    (void)min_bytes;
#endif
  }

  mapped_file(mapped_file&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)),
        size_(std::exchange(other.size_, 0)),
        released_(std::exchange(other.released_, nullptr)) {}
  mapped_file& operator=(mapped_file&& other) noexcept {
    if (this != &other) {
      unmap();
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
      released_ = std::exchange(other.released_, nullptr);
    }
    return *this;
  }
  mapped_file(const mapped_file&) = delete;
  mapped_file& operator=(const mapped_file&) = delete;
  ~mapped_file() { unmap(); }

  /// Whether the file is mapped.
  [[nodiscard]] explicit operator bool() const noexcept { return data_ != nullptr; }

  /// The file's bytes (empty if not mapped). O(1).
  [[nodiscard]] std::string_view bytes() const noexcept { return {data_, size_}; }

  /// Tells that the bytes before `p` (a pointer into bytes()) will not be read again, so that
  /// a sequential reader's resident memory stays bounded: the pages before it are dropped
  /// from the process once `window` bytes have passed since the last drop (they stay in the
  /// page cache; reading them again faults them back in, unchanged, as the mapping is private
  /// and never written). Without it, the pages of a 50 GB file read end to end would all
  /// count as the reader's until the kernel reclaims them. O(1), and one system call a window.
  void release_before(const char* p, std::size_t window = release_window) noexcept {
#if CCRC_DETAIL_HAS_MMAP && defined(MADV_DONTNEED)
    if (!data_ || static_cast<std::size_t>(p - released_) < window) return;
    const std::size_t page = page_size();
    const char* end = data_ + static_cast<std::size_t>(p - data_) / page * page;
    if (end <= released_) return;
    (void)::madvise(const_cast<char*>(released_), static_cast<std::size_t>(end - released_), MADV_DONTNEED);
    released_ = end;
#else
    (void)p;
    (void)window;
#endif
  }

  /// How many bytes release_before lets pass, by default, before it drops them: 4 MiB, a
  /// system call per 1,024 pages (330 for a 1.3 GB file), so that reading a file mapped costs
  /// at most 4 MiB more resident memory than reading it through a buffer.
  static constexpr std::size_t release_window = std::size_t{4} << 20;

 private:
#if CCRC_DETAIL_HAS_MMAP
  static std::size_t page_size() noexcept {
    static const std::size_t size = [] {
      long s = ::sysconf(_SC_PAGESIZE);
      return s > 0 ? static_cast<std::size_t>(s) : std::size_t{4096};
    }();
    return size;
  }
#endif

  void unmap() noexcept {
#if CCRC_DETAIL_HAS_MMAP
    if (data_) ::munmap(const_cast<char*>(data_), size_);
#endif
    data_ = nullptr;
    size_ = 0;
    released_ = nullptr;
  }

  const char* data_ = nullptr;
  std::size_t size_ = 0;
  const char* released_ = nullptr;  // the pages before it were dropped
};

}  // namespace ccrc::detail
