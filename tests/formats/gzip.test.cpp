#include <ccrc/formats/gzip.hpp>
#include <ccrc/detail/line_reader.hpp>

#include "support/gzip.hpp"

#include <doctest/doctest.h>

#include <sstream>
#include <string>
#include <string_view>

namespace {

// Everything `bytes` inflates to, pulled `chunk` bytes at a time.
std::string gunzip(std::string_view bytes, std::size_t chunk = 1 << 16) {
  ccrc::gzip_source source(ccrc::detail::memory_source{bytes});
  std::string out, buffer(chunk, '\0');
  for (std::size_t n; (n = source(buffer.data(), chunk)) > 0;) out.append(buffer, 0, n);
  return out;
}

std::string numbered_lines(int count) {
  std::string text;
  for (int i = 0; i < count; ++i) text += "main;f;g" + std::to_string(i) + " " + std::to_string(i) + "\n";
  return text;
}

}  // namespace

TEST_CASE("is_gzip tells gzip's magic number") {
  CHECK(ccrc::is_gzip(test::gzip("x")));
  CHECK_FALSE(ccrc::is_gzip("main;f 1\n"));
  CHECK_FALSE(ccrc::is_gzip("\x1f"));
  CHECK_FALSE(ccrc::is_gzip(""));
}

TEST_CASE("gzip_source inflates what zlib deflated, whatever the size of the reads") {
  std::string text = numbered_lines(20000);  // about 400 KB: several 64 KiB inputs
  std::string packed = test::gzip(text);
  CHECK(packed.size() < text.size() / 2);
  CHECK(gunzip(packed) == text);
  CHECK(gunzip(packed, 1) == text);
  CHECK(gunzip(test::gzip("")).empty());
}

TEST_CASE("gzip_source reads members one after another as their concatenation, as gunzip does") {
  CHECK(gunzip(test::gzip("main;f 1\n") + test::gzip("main;g 2\n")) == "main;f 1\nmain;g 2\n");
}

TEST_CASE("a truncated gzip stream is an error at its end, not a shorter profile") {
  std::string packed = test::gzip(numbered_lines(1000));
  for (std::size_t keep : {std::size_t{2}, std::size_t{10}, packed.size() / 2, packed.size() - 1}) {
    CAPTURE(keep);
    try {
      (void)gunzip(packed.substr(0, keep));
      FAIL("no error");
    } catch (const ccrc::parse_error& e) {
      CHECK(e.byte() == keep);
      CHECK(std::string(e.what()) == "byte " + std::to_string(keep) + ": the gzip stream ends early (a truncated file?)");
    }
  }
}

TEST_CASE("corrupt gzip data is an error at the byte where inflation fails") {
  std::string packed = test::gzip(numbered_lines(1000));
  packed[3] = '\xff';  // reserved flag bits of the gzip header
  try {
    (void)gunzip(packed);
    FAIL("no error");
  } catch (const ccrc::parse_error& e) {
    CHECK(e.byte() <= 10);
    CHECK(std::string(e.what()).find("corrupt gzip data") != std::string::npos);
  }
  std::string trailing = test::gzip("main 1\n") + "junk after the member";
  CHECK_THROWS_AS((void)gunzip(trailing), ccrc::parse_error);
}

TEST_CASE("gzip_writer deflates what it is given, in pieces or whole, into one member gunzip reads back") {
  const std::string text = numbered_lines(20000);  // more than its 64 KiB buffer, deflated
  std::ostringstream whole;
  {
    ccrc::gzip_writer gzip(whole);
    gzip.write(text);
    gzip.finish();
  }
  CHECK(ccrc::is_gzip(whole.str()));
  CHECK(whole.str().size() < text.size() / 2);
  CHECK(gunzip(whole.str()) == text);
  std::ostringstream pieces;
  {
    ccrc::gzip_writer gzip(pieces);
    for (std::size_t at = 0; at < text.size(); at += 1000) gzip.write(std::string_view(text).substr(at, 1000));
    gzip.finish();
  }
  CHECK(gunzip(pieces.str()) == text);
  // Nothing written: a member of nothing, as `gzip < /dev/null` writes.
  std::ostringstream empty;
  {
    ccrc::gzip_writer gzip(empty);
    gzip.finish();
  }
  CHECK(ccrc::is_gzip(empty.str()));
  CHECK(gunzip(empty.str()).empty());
}
