#include <ccrc/tree/symbol_table.hpp>

#include <doctest/doctest.h>

#include <string>
#include <vector>

TEST_CASE("a new symbol table holds only the root's frame, with an empty name") {
  ccrc::symbol_table s;
  CHECK(s.frame_count() == 1);
  CHECK(s.method_count() == 1);
  CHECK(s.name(ccrc::root_frame).empty());
  CHECK(s.intern("") == ccrc::root_frame);
}

TEST_CASE("interning gives dense ids in first-seen order, the same id for the same name") {
  ccrc::symbol_table s;
  ccrc::frame_id main = s.intern("main(String[])");
  ccrc::frame_id f = s.intern("f(int)");
  CHECK(main == 1);
  CHECK(f == 2);
  CHECK(s.intern("main(String[])") == main);
  CHECK(s.name(f) == "f(int)");
  CHECK(s.method(f) == 2);
  CHECK(s.find("f(int)") == f);
  CHECK_FALSE(s.find("g(int)").has_value());
  CHECK_FALSE(s.find_method("g(int)").has_value());
}

TEST_CASE("frames of one method at different call sites are different keys of one method") {
  ccrc::symbol_table s;
  ccrc::frame_id plain = s.intern("h");
  ccrc::frame_id at7 = s.intern("h", 7);
  ccrc::frame_id at9 = s.intern("h", 9);
  CHECK(plain != at7);
  CHECK(at7 != at9);
  CHECK(s.intern("h", 7) == at7);
  CHECK(s.intern("h", ccrc::symbol_table::no_site) == plain);
  CHECK(s.method(at7) == s.method(plain));
  CHECK(s.site(at9) == 9);
  CHECK(s.name(at9) == "h");
  CHECK(s.method_count() == 2);
  CHECK(s.frame_count() == 4);
}

TEST_CASE("100,000 names survive growth; names handed out earlier stay valid") {
  ccrc::symbol_table s;
  std::string_view first = s.name(s.intern("java.lang.Object.<init>()"));
  std::vector<ccrc::frame_id> ids;
  for (int i = 0; i < 100000; ++i) ids.push_back(s.intern("method_" + std::to_string(i)));
  CHECK(first == "java.lang.Object.<init>()");
  for (int i = 0; i < 100000; i += 997) {
    CHECK(s.intern("method_" + std::to_string(i)) == ids[static_cast<std::size_t>(i)]);
    CHECK(s.name(ids[static_cast<std::size_t>(i)]) == "method_" + std::to_string(i));
  }
  CHECK(s.method_count() == 100002);
}

TEST_CASE("intern_all gives what intern gives one name at a time: repeats, names known before, the root") {
  // Names with repeats (one in three), some interned before and some at a call site only;
  // 50,000 of them, so that the table grows from 16 slots and the fetching ahead wraps.
  std::vector<std::string> names;
  for (int i = 0; i < 50000; ++i) names.push_back(i % 3 == 2 ? "m" + std::to_string(i / 7) : "m" + std::to_string(i));
  names.push_back("");
  std::vector<std::string_view> views(names.begin(), names.end());
  ccrc::symbol_table one, all;
  for (ccrc::symbol_table* s : {&one, &all}) {
    s->intern("m5");
    s->intern("m8", 3);
  }
  std::vector<ccrc::frame_id> expected;
  for (std::string_view n : views) expected.push_back(one.intern(n));
  CHECK(all.intern_all(views) == expected);
  CHECK(all.frame_count() == one.frame_count());
  CHECK(all.method_count() == one.method_count());
  for (std::size_t i = 0; i < views.size(); i += 101) CHECK(all.find(views[i]) == expected[i]);
  CHECK(all.intern("m8") == one.intern("m8"));
  CHECK(all.intern_all({}).empty());
}

TEST_CASE("a copy has the same ids, and grows independently") {
  ccrc::symbol_table s;
  ccrc::frame_id a = s.intern("a");
  ccrc::frame_id b = s.intern("b", 3);
  ccrc::symbol_table copy = s;
  CHECK(copy.intern("a") == a);
  CHECK(copy.intern("b", 3) == b);
  copy.intern("c");
  CHECK_FALSE(s.find("c").has_value());
}
