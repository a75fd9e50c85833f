#include <ccrc/detail/mapped_file.hpp>

#include "support/temp_file.hpp"

#include <doctest/doctest.h>

#include <cstddef>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <utility>

#if defined(__unix__)
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace {

// `n` bytes, none of them repeating with a short period: a page read back from the wrong
// offset would differ.
std::string numbered_bytes(std::size_t n) {
  std::string s;
  for (std::size_t i = 0; s.size() < n; ++i) s += std::to_string(i) + '\n';
  s.resize(n);
  return s;
}

}  // namespace

#if CCRC_DETAIL_HAS_MMAP

TEST_CASE("a regular file at or above the bound is mapped: its bytes, then nothing once moved from") {
  const std::string text = numbered_bytes(3 * 4096 + 17);  // not a whole number of pages
  test::temp_file file("three-pages", text);
  ccrc::detail::mapped_file map(file.path, text.size());
  REQUIRE(static_cast<bool>(map));
  CHECK(map.bytes() == text);

  ccrc::detail::mapped_file moved(std::move(map));
  CHECK_FALSE(static_cast<bool>(map));
  CHECK(map.bytes().empty());
  CHECK(moved.bytes() == text);
  ccrc::detail::mapped_file assigned;
  assigned = std::move(moved);
  CHECK(assigned.bytes() == text);
}

TEST_CASE("a file below the bound, an empty file, a directory or a missing file is not mapped") {
  test::temp_file small("small", "main;f 1\n");
  CHECK_FALSE(static_cast<bool>(ccrc::detail::mapped_file(small.path, 10)));
  CHECK(static_cast<bool>(ccrc::detail::mapped_file(small.path, 9)));
  CHECK_FALSE(static_cast<bool>(ccrc::detail::mapped_file(small.path)));  // 1 MiB by default

  test::temp_file empty("empty", "");
  CHECK_FALSE(static_cast<bool>(ccrc::detail::mapped_file(empty.path, 0)));  // mmap refuses 0 bytes
  CHECK_FALSE(static_cast<bool>(ccrc::detail::mapped_file(std::filesystem::temp_directory_path(), 0)));
  CHECK_FALSE(static_cast<bool>(ccrc::detail::mapped_file(small.path.string() + ".missing", 0)));
}

TEST_CASE("a FIFO is not opened: a writer waiting on it still finds its one reader later") {
  std::filesystem::path fifo = std::filesystem::temp_directory_path() /
                               ("ccrc-mapped-" + std::to_string(::getpid()) + ".fifo");
  std::filesystem::remove(fifo);
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  // Opening a FIFO to read would block until a writer came: returning at all shows it was not.
  CHECK_FALSE(static_cast<bool>(ccrc::detail::mapped_file(fifo, 0)));
  std::thread writer([&] { std::ofstream(fifo) << "written once"; });
  std::string got;
  std::getline(std::ifstream(fifo), got);
  writer.join();
  std::filesystem::remove(fifo);
  CHECK(got == "written once");
}

TEST_CASE("release_before drops the pages read; reading them again gives the same bytes") {
  const std::string text = numbered_bytes(40 * 4096 + 5);
  test::temp_file file("release", text);
  ccrc::detail::mapped_file map(file.path, 0);
  REQUIRE(static_cast<bool>(map));
  const char* data = map.bytes().data();
  // A window of one byte: a drop at every call, up to the page before each position.
  for (std::size_t at = 0; at <= text.size(); at += 1000) map.release_before(data + at, 1);
  map.release_before(data + text.size(), 1);
  CHECK(map.bytes() == text);
  map.release_before(data + text.size());  // the default window: nothing more to drop
  CHECK(map.bytes() == text);
}

#else

TEST_CASE("without mmap, no file is mapped: the readers take their stream path") {
  test::temp_file file("unmapped", numbered_bytes(5000));
  ccrc::detail::mapped_file map(file.path, 0);
  CHECK_FALSE(static_cast<bool>(map));
  CHECK(map.bytes().empty());
}

#endif
