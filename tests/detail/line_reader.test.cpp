#include <ccrc/detail/line_reader.hpp>

#include "support/temp_file.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace {

struct line {
  std::string text;
  std::uint64_t number;
  bool in_place;  // a view into `bytes`, not a copy
  bool operator==(const line&) const = default;
};

// The lines for_each_line gives from `read`, each telling whether it lies in `bytes`.
template <class Read>
std::vector<line> lines_of(Read&& read, std::string_view bytes) {
  std::vector<line> out;
  ccrc::detail::for_each_line(read, 100, [&](std::string_view s, std::uint64_t n) {
    bool in_place = s.data() >= bytes.data() && s.data() + s.size() <= bytes.data() + bytes.size();
    out.push_back({std::string(s), n, in_place});
  });
  return out;
}

std::vector<line> expected(bool in_place) {
  return {{"main;f 1", 1, in_place}, {"", 2, in_place}, {"main;g 2", 3, in_place}, {"x", 4, in_place}};
}

}  // namespace

TEST_CASE("lines without '\\n' or a final '\\r', numbered from 1, the last one without '\\n'") {
  const std::string bytes = "main;f 1\r\n\nmain;g 2\nx";
  std::istringstream in(bytes);
  CHECK(lines_of(ccrc::detail::stream_source{&in}, bytes) == expected(false));
  CHECK(lines_of(ccrc::detail::memory_source{bytes}, bytes) == expected(true));
}

TEST_CASE("a prefix taken to detect the format, lying right before the rest, is split in place with it") {
  const std::string bytes = "main;f 1\r\n\nmain;g 2\nx";
  const std::string_view all = bytes;
  for (std::size_t cut = 0; cut <= bytes.size(); ++cut) {
    CAPTURE(cut);
    ccrc::detail::memory_source rest{all.substr(cut)};
    ccrc::detail::prefixed_source<ccrc::detail::memory_source&> joined{{all.substr(0, cut)}, rest};
    CHECK(lines_of(joined, bytes) == expected(true));
    CHECK(rest.rest.empty());  // taken

    // A prefix copied elsewhere (read from a stream) goes through the buffer.
    const std::string copy(all.substr(0, cut));
    ccrc::detail::memory_source apart{all.substr(cut)};
    ccrc::detail::prefixed_source<ccrc::detail::memory_source&> split{{copy}, apart};
    std::vector<line> got = lines_of(split, bytes);
    CHECK(got == expected(cut == 0));  // with no prefix, the rest is all there is
  }
}

TEST_CASE("a line longer than the bound is an error naming its line, in memory and from a stream") {
  const std::string bytes = "a 1\n" + std::string(101, 'b') + "\nc 1\n";
  std::istringstream in(bytes);
  auto ignore = [](std::string_view, std::uint64_t) {};
  CHECK_THROWS_WITH_AS(ccrc::detail::for_each_line(ccrc::detail::stream_source{&in}, 100, ignore),
                       "line 2: line longer than 100 bytes", ccrc::parse_error);
  CHECK_THROWS_WITH_AS(ccrc::detail::for_each_line(ccrc::detail::memory_source{bytes}, 100, ignore),
                       "line 2: line longer than 100 bytes", ccrc::parse_error);
}

TEST_CASE("a UTF-8 byte-order mark before the first line is skipped, in memory and from a stream; elsewhere it stays") {
  // Issue 45: the mark joined the first frame or thread name (two 'main's).
  const std::string bytes = "\xEF\xBB\xBFmain;f 1\n\xEF\xBB\xBFmain 2\n";
  std::istringstream in(bytes);
  std::vector<line> want{{"main;f 1", 1, false}, {"\xEF\xBB\xBFmain 2", 2, false}};
  CHECK(lines_of(ccrc::detail::stream_source{&in}, bytes) == want);
  for (line& l : want) l.in_place = true;
  CHECK(lines_of(ccrc::detail::memory_source{bytes}, bytes) == want);
}

TEST_CASE("file_source: a file as it was when opened; one that shrinks while it is read is an error naming it") {
  // Issue 45: a mapped file truncated while it was read (`perf script > f` truncates f) killed
  // the reader with SIGBUS. file_source reads it, and a file that ends before the size it had
  // when it was opened is an error, not a shorter profile. The truncation comes between two
  // reads, as another program's would.
  const std::string text(10'000, 'x');
  test::temp_file file("shrinking.folded", text);
  ccrc::detail::file_source in(file.path);
  CHECK(in.size() == 10'000);
  char buf[4096];
  REQUIRE(in(buf, sizeof buf) == 4096);
  std::filesystem::resize_file(file.path, 100);
  CHECK_THROWS_WITH_AS(in(buf, sizeof buf),
                       (file.path.string() + ": the file shrank while it was read (10000 bytes when opened, 100 now): "
                                             "was another program writing it?").c_str(),
                       ccrc::error);

  // Bytes appended after it was opened are not read: the file as it was.
  std::filesystem::resize_file(file.path, 0);
  std::ofstream(file.path, std::ios::binary) << "main;f 1\n";
  ccrc::detail::file_source grown(file.path);
  std::ofstream(file.path, std::ios::binary | std::ios::app) << "main;g 2\n";
  std::string got;
  for (std::size_t n; (n = grown(buf, sizeof buf)) > 0;) got.append(buf, n);
  CHECK(got == "main;f 1\n");

  CHECK_THROWS_WITH_AS(ccrc::detail::file_source(file.path.string() + ".missing"),
                       ("cannot open " + file.path.string() + ".missing").c_str(), ccrc::error);
  const std::string directory = std::filesystem::temp_directory_path().string();
  CHECK_THROWS_WITH_AS(ccrc::detail::file_source{directory}, ("cannot read " + directory + ": it is a directory").c_str(),
                       ccrc::error);
}
