#include <ccrc/formats/json.hpp>
#include <ccrc/detail/line_reader.hpp>

#include <doctest/doctest.h>

#include <string>

TEST_CASE("json_text holds the whole document with simdjson's padding after it") {
  std::string doc = R"({"a": [1, 2, 3]})";
  ccrc::formats::json_text text(doc.substr(0, 4), ccrc::detail::memory_source{std::string_view(doc).substr(4)});
  CHECK(text.bytes() == doc);
  CHECK(text.view().capacity() >= doc.size() + simdjson::SIMDJSON_PADDING);
  simdjson::ondemand::parser parser;
  auto parsed = parser.iterate(text.view());
  std::int64_t sum = 0;
  for (auto v : parsed["a"].get_array()) sum += v.get_int64().value();
  CHECK(sum == 6);
}

TEST_CASE("json_fail reports the byte offset where the reader stopped") {
  ccrc::formats::json_text text(std::string_view(R"({"a": 1, "b": x})"));
  simdjson::ondemand::parser parser;
  auto doc = parser.iterate(text.view()).value();
  CHECK(doc["a"].get_int64().value() == 1);
  auto b = doc["b"];
  std::int64_t value = 0;
  auto code = b.get_int64().get(value);
  REQUIRE(code != simdjson::SUCCESS);
  try {
    ccrc::formats::detail::json_fail(doc, text.view(), "\"b\" is not a number", code);
    FAIL("no throw");
  } catch (const ccrc::parse_error& e) {
    CHECK(e.byte() <= 15);
    CHECK(std::string(e.what()).rfind("byte ", 0) == 0);
  }
  CHECK(ccrc::formats::detail::first_json_byte(" \n\t[1]") == '[');
  CHECK(ccrc::formats::detail::first_json_byte("  ") == '\0');
}
