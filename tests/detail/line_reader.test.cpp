#include <ccrc/detail/line_reader.hpp>

#include <doctest/doctest.h>

#include <cstdint>
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
