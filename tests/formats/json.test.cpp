#include <ccrc/formats/json.hpp>
#include <ccrc/detail/line_reader.hpp>

#include "support/random.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

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

namespace {

using ccrc::formats::detail::array_cut;

// find_array_cut's definition, one byte at a time.
array_cut naive_array_cut(std::string_view text, std::size_t from, std::size_t cut_at) {
  std::int64_t depth = 1;
  bool in_string = false;
  for (std::size_t i = from; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\\') {
      ++i;  // escapes the next byte, in a string or not
    } else if (in_string) {
      if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      ++depth;
    } else if ((c == ']' || c == '}') && --depth == 0) {
      return {array_cut::stop::close, i, false, 0};
    } else if (c == ',' && depth == 1 && i >= cut_at) {
      return {array_cut::stop::comma, i, false, 1};
    }
  }
  return {array_cut::stop::end, text.size(), in_string, depth};
}

void check_same_cut(const array_cut& a, const array_cut& b) {
  CHECK(a.what == b.what);
  CHECK(a.at == b.at);
  CHECK(a.in_string == b.in_string);
  if (a.what == array_cut::stop::end) CHECK(a.depth == b.depth);
}

}  // namespace

TEST_CASE("find_array_cut: the element boundaries of an array, strings and escapes skipped") {
  using ccrc::formats::detail::find_array_cut;
  constexpr std::string_view doc = R"([{"a":"],"},2,3])";
  CHECK(find_array_cut(doc, 1, 12).what == array_cut::stop::comma);
  CHECK(find_array_cut(doc, 1, 12).at == 13);
  CHECK(find_array_cut(doc, 1, 0).at == 11);  // the first ',' between elements, not the one in "],"
  CHECK(find_array_cut(doc, 1, 14).what == array_cut::stop::close);
  CHECK(find_array_cut(doc, 1, 14).at == 15);
  // An escaped quote does not end a string; an escaped backslash does not escape the quote.
  constexpr std::string_view escapes = R"(["a\",]",["\\",1],2])";
  CHECK(find_array_cut(escapes, 1, 0).at == 8);
  CHECK(find_array_cut(escapes, 9, 0).at == 17);
  // The end of the text: inside a string, inside brackets, or between elements.
  array_cut end = find_array_cut(R"([1,{"a":"b)", 1, 100);
  CHECK(end.what == array_cut::stop::end);
  CHECK(end.at == 10);
  CHECK(end.in_string);
  CHECK(end.depth == 2);
  CHECK(find_array_cut("[1,[2,", 1, 100).depth == 2);
  CHECK_FALSE(find_array_cut("[1,[2,", 1, 100).in_string);
  CHECK(find_array_cut("[1, 2 ", 1, 100).depth == 1);
}

TEST_CASE("find_array_cut agrees with a byte-by-byte scan, across 64-byte blocks") {
  // Random texts of the bytes that matter, backslash runs and quotes falling on every
  // position of a block, cut points anywhere.
  test::rng r{11};
  const char alphabet[] = {'"', '\\', '[', ']', '{', '}', ',', 'a', ' ', ':'};
  for (int round = 0; round < 3000; ++round) {
    std::string text = "[";
    std::size_t size = r.below(300);
    for (std::size_t i = 0; i < size; ++i) {
      // Mostly plain bytes and strings, as JSON; brackets and backslashes less often.
      std::uint32_t k = r.below(100);
      text += k < 40 ? 'a' : k < 55 ? '"' : k < 65 ? '\\' : k < 85 ? alphabet[2 + r.below(5)] : alphabet[8 + r.below(2)];
    }
    std::size_t from = 1 + r.below(static_cast<std::uint32_t>(text.size()));
    std::size_t cut_at = from + r.below(200);
    CAPTURE(text);
    CAPTURE(from);
    CAPTURE(cut_at);
    check_same_cut(ccrc::formats::detail::find_array_cut(text, from, cut_at), naive_array_cut(text, from, cut_at));
  }
  // A backslash as a block's last byte escapes the next block's first: the quote, 62 bytes and
  // a '\' fill the block from byte 1, the escaped '"' starts the next, then a ',' outside.
  std::string text = "[\"" + std::string(62, 'x') + "\\\",\",2]";
  CHECK(text[64] == '\\');
  CHECK(ccrc::formats::detail::find_array_cut(text, 1, 0).at == text.size() - 3);
  check_same_cut(ccrc::formats::detail::find_array_cut(text, 1, 0), naive_array_cut(text, 1, 0));
}

TEST_CASE("classify_json_block: the portable code and SSE2 mark the bytes a naive loop marks") {
  test::rng r{5};
  // The bytes marked, and bytes one bit away from them (0xa2 is '"' with the high bit).
  const char bytes[] = {'"', '\\', '[', ']', '{', '}', ',', ';', '=', '\xa2', '\xdc', '\xfb', '\xdb', '\0'};
  for (int round = 0; round < 2000; ++round) {
    char block[64];
    for (char& c : block) c = r.chance(0.3) ? bytes[r.below(std::size(bytes))] : static_cast<char>(r.below(256));
    ccrc::formats::detail::json_block expected;
    std::uint64_t commas = 0;
    for (unsigned i = 0; i < 64; ++i) {
      const std::uint64_t bit = std::uint64_t{1} << i;
      if (block[i] == '"') expected.quotes |= bit;
      if (block[i] == '\\') expected.backslashes |= bit;
      if (block[i] == '[' || block[i] == '{') expected.opens |= bit;
      if (block[i] == ']' || block[i] == '}') expected.closes |= bit;
      if (block[i] == ',') commas |= bit;
    }
    auto check = [&](const ccrc::formats::detail::json_block& b, std::uint64_t c) {
      CHECK(b.quotes == expected.quotes);
      CHECK(b.backslashes == expected.backslashes);
      CHECK(b.opens == expected.opens);
      CHECK(b.closes == expected.closes);
      CHECK(c == commas);
    };
    check(ccrc::formats::detail::classify_json_block_swar(block), ccrc::formats::detail::json_commas_swar(block));
#if defined(__SSE2__)
    check(ccrc::formats::detail::classify_json_block_sse2(block), ccrc::formats::detail::json_commas_sse2(block));
#endif
  }
}

TEST_CASE("walk_json_object: the members of an object, values skipped by their structure") {
  using ccrc::formats::detail::walk_json_object;
  constexpr std::string_view doc = R"( {"a": "x}\"", "b" : [1, {"c": "]"}], "d":-1.5e3 ,"e":{}} )";
  std::vector<std::string> keys;
  std::vector<char> firsts;
  std::size_t end = walk_json_object(doc, 1, [&](std::string_view key, std::size_t value) -> std::size_t {
    keys.emplace_back(key);
    firsts.push_back(doc[value]);
    return 0;
  });
  CHECK(keys == std::vector<std::string>{"a", "b", "d", "e"});
  CHECK(firsts == std::vector<char>{'"', '[', '-', '{'});
  CHECK(end == doc.size() - 1);
  CHECK(walk_json_object("{}", 0, [](std::string_view, std::size_t) -> std::size_t { return 0; }) == 2);
  // Stopped at a key.
  CHECK(walk_json_object(doc, 1, [](std::string_view key, std::size_t) { return key == "b" ? std::string_view::npos : 0; }) ==
        std::string_view::npos);
  // Malformed: the byte at fault.
  auto error_at = [](std::string_view text) {
    try {
      (void)walk_json_object(text, 0, [](std::string_view, std::size_t) -> std::size_t { return 0; });
    } catch (const ccrc::parse_error& e) {
      return e.byte();
    }
    return ccrc::parse_error::no_byte;
  };
  CHECK(error_at(R"({"a" 1})") == 5);          // no ':'
  CHECK(error_at(R"({"a":1 "b":2})") == 7);    // no ','
  CHECK(error_at(R"({"a":[1,2)") == 5);        // never closed
  CHECK(error_at(R"({"a":[1,2}})") == 9);      // '[' closed by '}'
  CHECK(error_at(R"({"a":"1)") == 5);          // a string never closed
  CHECK(error_at(R"({"a":1)") == 6);           // the end inside the object
  CHECK(error_at(R"({"a":,"b":1})") == 5);     // no value
  CHECK(error_at(R"({a:1})") == 1);            // a key not a string
}

TEST_CASE("walk_json_array: the elements of an array, values skipped by their structure") {
  using ccrc::formats::detail::walk_json_array;
  constexpr std::string_view doc = R"( [ "x]\"", [1, {"c": "]"}] ,-1.5e3,{} ] )";
  std::vector<char> firsts;
  std::size_t end = walk_json_array(doc, 1, [&](std::size_t at) -> std::size_t {
    firsts.push_back(doc[at]);
    return 0;
  });
  CHECK(firsts == std::vector<char>{'"', '[', '-', '{'});
  CHECK(end == doc.size() - 1);
  CHECK(walk_json_array("[ ]", 0, [](std::size_t) -> std::size_t { return 0; }) == 3);
  // An element read by the callback: the walk goes on after it.
  std::vector<std::size_t> read;
  CHECK(walk_json_array("[12,3]", 0, [&](std::size_t at) -> std::size_t {
          read.push_back(at);
          return at == 1 ? 3 : 0;
        }) == 6);
  CHECK(read == std::vector<std::size_t>{1, 4});
  // Malformed: the byte at fault.
  auto error_at = [](std::string_view text) {
    try {
      (void)walk_json_array(text, 0, [](std::size_t) -> std::size_t { return 0; });
    } catch (const ccrc::parse_error& e) {
      return e.byte();
    }
    return ccrc::parse_error::no_byte;
  };
  CHECK(error_at("[1 2]") == 3);      // no ','
  CHECK(error_at("[1,]") == 3);       // a ',' after the last element
  CHECK(error_at("[[1,2}]") == 5);    // '[' closed by '}'
  CHECK(error_at("[1") == 2);         // the end inside the array
  CHECK(error_at("[1}") == 2);        // closed by '}'
  CHECK(error_at("[") == 1);          // no value
}

TEST_CASE("json_cursor: values read in pieces or alone, each error at the document's byte") {
  using ccrc::formats::detail::json_cursor;
  constexpr std::string_view doc = R"({"a": [10, 20, "x", 40], "b": 7})";
  auto error_at = [](auto&& read) {
    try {
      read();
    } catch (const ccrc::parse_error& e) {
      return std::pair(e.byte(), std::string(e.what()));
    }
    return std::pair(ccrc::parse_error::no_byte, std::string());
  };
  for (std::size_t piece_bytes : {std::size_t{1}, std::size_t{4}, std::size_t{1} << 20}) {
    CAPTURE(piece_bytes);
    json_cursor cursor(doc, piece_bytes);
    std::vector<std::uint64_t> at;
    CHECK(cursor.read(6, "\"a\"", "malformed \"a\"", [&](simdjson::ondemand::value& v) {
      at.push_back(cursor.offset(v.raw_json_token().data()));
    }) == 23);
    CHECK(at == std::vector<std::uint64_t>{7, 11, 15, 20});
    std::vector<std::int64_t> read;
    auto [byte, what] = error_at([&] {
      (void)cursor.read(6, "\"a\"", "malformed \"a\"",
                        [&](simdjson::ondemand::value& v) { read.push_back(cursor.integer(v, "an element of \"a\"")); });
    });
    CHECK(read == std::vector<std::int64_t>{10, 20});
    CHECK(byte == 15);
    CHECK(what == "byte 15: an element of \"a\" is not an integer (The JSON element does not have the requested type.)");
    // One value as a document of its own: the byte after it returned.
    double b = 0;
    CHECK(cursor.read_value(30, [&](simdjson::ondemand::value& v) { b = cursor.number(v, "\"b\""); }) == 31);
    CHECK(b == 7);
    CHECK(error_at([&] { (void)cursor.read_value(30, [&](simdjson::ondemand::value& v) { (void)cursor.string(v, "\"b\""); }); })
              .first == 30);
  }
}

TEST_CASE("json_cursor: the bytes no parser reads are checked to be UTF-8, as they pass or at the end") {
  using ccrc::formats::detail::json_cursor;
  const std::string doc = "{\"a\": 1, \"s\": \"\xff\", \"b\": [2]}";
  auto error_at = [](auto&& read) -> std::uint64_t {
    try {
      read();
    } catch (const ccrc::parse_error& e) {
      return e.byte();
    }
    return ccrc::parse_error::no_byte;
  };
  auto ignore = [](simdjson::ondemand::value&) {};
  // In order: reading "b" checks the bytes since "a" ended, from the first of them.
  json_cursor in_order(doc, 64);
  CHECK(in_order.read_value(6, ignore) == 7);
  CHECK(error_at([&] { (void)in_order.read(24, "\"b\"", "malformed", ignore); }) == 7);
  // At the end: "b" reads, the check then finds the run between the values read.
  json_cursor at_end(doc, 64, json_cursor::utf8_check::at_end);
  CHECK(at_end.read(24, "\"b\"", "malformed", ignore) == 27);
  CHECK(at_end.read_value(6, ignore) == 7);
  CHECK(error_at([&] { at_end.check_unparsed_utf8(); }) == 7);
  // Nothing read: the whole text is one run.
  json_cursor none(doc, 64, json_cursor::utf8_check::at_end);
  CHECK(error_at([&] { none.check_unparsed_utf8(); }) == 0);
  json_cursor clean(std::string_view(R"({"a": 1})"), 64);
  CHECK(clean.read_value(6, ignore) == 7);
  CHECK(error_at([&] { clean.check_utf8_to(8); }) == ccrc::parse_error::no_byte);
}
