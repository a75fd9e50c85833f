// Test support: gzip-compressing bytes with zlib, to feed the readers real .gz streams.
#pragma once

#include <zlib.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace test {

// `bytes` as one gzip member, at zlib's default level.
inline std::string gzip(std::string_view bytes) {
  z_stream z{};
  if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    throw std::runtime_error("deflateInit2 failed");
  std::string out(deflateBound(&z, static_cast<uLong>(bytes.size())), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  z.avail_in = static_cast<uInt>(bytes.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  int status = deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  if (status != Z_STREAM_END) throw std::runtime_error("deflate failed");
  return out;
}

// `head`, `count` copies of `fill`, then `tail`, as one gzip member, deflated a megabyte at a
// time: a gzip bomb (a megabyte per gigabyte) without the gigabyte in memory.
inline std::string gzip_repeated(std::string_view head, char fill, std::uint64_t count, std::string_view tail) {
  z_stream z{};
  if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    throw std::runtime_error("deflateInit2 failed");
  std::string out, piece(std::size_t{1} << 20, fill);
  char buffer[1 << 16];
  auto deflate_all = [&](std::string_view bytes, int flush) {
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
    z.avail_in = static_cast<uInt>(bytes.size());
    do {
      z.next_out = reinterpret_cast<Bytef*>(buffer);
      z.avail_out = sizeof buffer;
      if (deflate(&z, flush) == Z_STREAM_ERROR) throw std::runtime_error("deflate failed");
      out.append(buffer, sizeof buffer - z.avail_out);
    } while (z.avail_out == 0);
  };
  deflate_all(head, Z_NO_FLUSH);
  for (std::uint64_t left = count; left != 0;) {
    const std::size_t n = left < piece.size() ? static_cast<std::size_t>(left) : piece.size();
    deflate_all(std::string_view(piece).substr(0, n), Z_NO_FLUSH);
    left -= n;
  }
  deflate_all(tail, Z_FINISH);
  deflateEnd(&z);
  return out;
}

}  // namespace test
