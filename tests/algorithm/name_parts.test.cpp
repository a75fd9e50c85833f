#include <ccrc/algorithm/name_parts.hpp>

#include <doctest/doctest.h>

#include <string>

namespace {

// "package | class | method | arguments" for compact expectations.
std::string parts(std::string_view name) {
  ccrc::name_parts p = ccrc::split_name(name);
  return std::string(p.package) + " | " + std::string(p.class_name) + " | " + std::string(p.method) + " | " +
         std::string(p.arguments);
}

}  // namespace

TEST_CASE("Java-style names: a.b.C.m(args)") {
  CHECK(parts("a.b.C.m(args)") == "a.b | C | m | (args)");
  CHECK(ccrc::split_name("a.b.C.m(args)").style == ccrc::name_style::java);
  CHECK(parts("java.util.HashMap.get(java.lang.Object)") == "java.util | HashMap | get | (java.lang.Object)");
  CHECK(parts("java/util/HashMap.get") == "java/util | HashMap | get | ");  // async-profiler's form
  CHECK(parts("java.lang.Object.<init>()") == "java.lang | Object | <init> | ()");
  CHECK(parts("org.Foo$Inner.lambda$run$0()") == "org | Foo$Inner | lambda$run$0 | ()");
  CHECK(parts("Foo.bar()") == " | Foo | bar | ()");
  CHECK(parts("f(int)") == " |  | f | (int)");  // the papers' Figure 1 names
}

TEST_CASE("C++-style names: a::b::C::m(args)") {
  CHECK(parts("a::b::C::m(args)") == "a::b | C | m | (args)");
  CHECK(ccrc::split_name("a::b::C::m(args)").style == ccrc::name_style::cpp);
  CHECK(parts("std::vector<int, std::allocator<int> >::push_back(int const&)") ==
        "std | vector<int, std::allocator<int> > | push_back | (int const&)");
  CHECK(parts("ns::Widget::operator()(int) const") == "ns | Widget | operator() | (int) const");
  CHECK(parts("std::operator<<(std::ostream&, int)") == " | std | operator<< | (std::ostream&, int)");
  CHECK(parts("a::B::operator<(a::B const&)") == "a | B | operator< | (a::B const&)");
  CHECK(parts("a::B::operator->() const") == "a | B | operator-> | () const");
  CHECK(parts("(anonymous namespace)::helper(int)") == " | (anonymous namespace) | helper | (int)");
  CHECK(parts("ns::f()::{lambda(int)#1}::operator()(int) const") ==
        "ns::f() | {lambda(int)#1} | operator() | (int) const");
  CHECK(parts("core::ptr::drop_in_place<alloc::vec::Vec<u8>>") == "core | ptr | drop_in_place<alloc::vec::Vec<u8>> | ");
  CHECK(parts("::global()") == " |  | global | ()");
  CHECK(parts("operator new(unsigned long)") == " |  | operator new | (unsigned long)");
}

TEST_CASE("plain names, and names with a location after a blank") {
  CHECK(parts("main") == " |  | main | ");
  CHECK(ccrc::split_name("main").style == ccrc::name_style::plain);
  CHECK(parts("fib (app.py:12)") == " |  | fib | (app.py:12)");  // py-spy
  CHECK(parts("mod.fib (app/mod.py:12)") == " | mod | fib | (app/mod.py:12)");
  CHECK(parts("[unknown]") == " |  | [unknown] | ");
  CHECK(parts("") == " |  |  | ");
}

TEST_CASE("split_name is usable at compile time") {
  constexpr ccrc::name_parts p = ccrc::split_name("a.b.C.m()");
  static_assert(p.method == "m" && p.class_name == "C" && p.package == "a.b");
  CHECK(p.arguments == "()");
}

TEST_CASE("package_of is the package or namespace part, empty for a plain name") {
  static_assert(ccrc::package_of("java.util.HashMap.get(Object)") == "java.util");
  CHECK(ccrc::package_of("a::b::C::m(args)") == "a::b");
  CHECK(ccrc::package_of("Math.max") == "");
  CHECK(ccrc::package_of("main(String[])") == "");
  CHECK(ccrc::package_of("g(a.b.C)") == "");  // dots in the arguments do not count
}
