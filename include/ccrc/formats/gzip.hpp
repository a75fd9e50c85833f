// ccrc - gzip-compressed profiles, read as they stream in and written as they go out (zlib).
#pragma once

#include <ccrc/error.hpp>

#include <zlib.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <new>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace ccrc {

/// True if `first_bytes` start with gzip's magic number (1f 8b), as `.gz` files and most
/// pprof files do. O(1).
[[nodiscard]] constexpr bool is_gzip(std::string_view first_bytes) noexcept {
  return first_bytes.size() >= 2 && static_cast<unsigned char>(first_bytes[0]) == 0x1f &&
         static_cast<unsigned char>(first_bytes[1]) == 0x8b;
}

/// A `read` callable (std::size_t read(char* dst, std::size_t capacity), 0 at the end) that
/// inflates the gzip stream another one gives, holding 64 KiB of input and zlib's 32 KiB
/// window whatever the size. Members written one after another (`cat a.gz b.gz`) read as
/// their concatenation, as gunzip reads them. A stream that ends inside a member (a truncated
/// download) or holds corrupt data throws ccrc::parse_error at the compressed byte offset,
/// never an end of input: a truncated profile is an error, not a smaller profile.
template <class Read>
class gzip_source {
 public:
  explicit gzip_source(Read read) : read_(std::forward<Read>(read)) {
    if (inflateInit2(&z_, 15 + 16) != Z_OK) throw std::bad_alloc();  // 15 + 16: gzip only
  }
  gzip_source(const gzip_source&) = delete;
  gzip_source& operator=(const gzip_source&) = delete;
  ~gzip_source() { inflateEnd(&z_); }

  std::size_t operator()(char* dst, std::size_t capacity) {
    z_.next_out = reinterpret_cast<Bytef*>(dst);
    z_.avail_out = static_cast<uInt>(capacity < max_chunk ? capacity : max_chunk);
    const uInt wanted = z_.avail_out;
    while (z_.avail_out == wanted) {
      if (z_.avail_in == 0 && !input_ended_) {
        std::size_t got = read_(input_, sizeof input_);
        input_ended_ = got == 0;
        z_.next_in = reinterpret_cast<Bytef*>(input_);
        z_.avail_in = static_cast<uInt>(got);
      }
      if (z_.avail_in == 0) {
        if (member_ended_) break;  // the input ended between members: the end
        throw parse_error::at_byte(offset(), "the gzip stream ends early (a truncated file?)");
      }
      if (member_ended_) {  // another member follows
        member_start_ += z_.total_in;
        inflateReset(&z_);
        member_ended_ = false;
      }
      int status = inflate(&z_, Z_NO_FLUSH);
      if (status == Z_STREAM_END) member_ended_ = true;
      else if (status == Z_MEM_ERROR) throw std::bad_alloc();
      else if (status != Z_OK && status != Z_BUF_ERROR)
        throw parse_error::at_byte(offset(), std::string("corrupt gzip data: ") + (z_.msg ? z_.msg : "inflate failed"));
    }
    return wanted - z_.avail_out;
  }

 private:
  static constexpr std::size_t max_chunk = std::size_t{1} << 30;  // avail_out is 32 bits
  std::uint64_t offset() const noexcept { return member_start_ + z_.total_in; }

  Read read_;
  z_stream z_{};
  char input_[1 << 16];
  bool input_ended_ = false;
  bool member_ended_ = false;
  std::uint64_t member_start_ = 0;  // compressed bytes of the members before this one
};

template <class Read>
gzip_source(Read&&) -> gzip_source<Read>;

/// Deflates the bytes it is given onto `out` as one gzip member, as they come (write_pprof's
/// `.pb.gz`): 64 KiB of output and zlib's state, whatever the size. finish() ends the member;
/// a write error is the stream's state (the caller checks it). O(bytes).
///
///     ccrc::gzip_writer gzip(out);
///     gzip.write("main;f 1\n");
///     gzip.finish();   // gunzip gives "main;f 1\n"
class gzip_writer {
 public:
  explicit gzip_writer(std::ostream& out) : out_(out), buffer_(std::size_t{1} << 16) {
    if (deflateInit2(&z_, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
      throw std::bad_alloc();
  }
  gzip_writer(const gzip_writer&) = delete;
  gzip_writer& operator=(const gzip_writer&) = delete;
  ~gzip_writer() { deflateEnd(&z_); }

  /// Deflates `bytes` (zlib may hold some until the next write or finish()).
  void write(std::string_view bytes) { deflate_into_out(bytes, Z_NO_FLUSH); }
  /// Ends the member: what zlib holds, and the trailer.
  void finish() { deflate_into_out({}, Z_FINISH); }

 private:
  void deflate_into_out(std::string_view bytes, int flush) {
    constexpr std::size_t max_in = std::size_t{1} << 30;  // avail_in is 32 bits
    for (;;) {
      if (z_.avail_in == 0 && !bytes.empty()) {
        const std::size_t n = std::min(bytes.size(), max_in);
        z_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
        z_.avail_in = static_cast<uInt>(n);
        bytes.remove_prefix(n);
      }
      const int mode = bytes.empty() ? flush : Z_NO_FLUSH;
      z_.next_out = reinterpret_cast<Bytef*>(buffer_.data());
      z_.avail_out = static_cast<uInt>(buffer_.size());
      const int status = deflate(&z_, mode);
      if (status == Z_STREAM_ERROR) throw error("gzip compression failed");
      out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size() - z_.avail_out));
      // Done when the input is taken and zlib had room to spare (or, finishing, ended).
      if (mode == Z_FINISH ? status == Z_STREAM_END : z_.avail_in == 0 && bytes.empty() && z_.avail_out != 0) return;
    }
  }

  std::ostream& out_;
  std::vector<char> buffer_;
  z_stream z_{};
};


}  // namespace ccrc
