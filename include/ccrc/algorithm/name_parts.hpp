// ccrc - splitting a method name into package / namespace, class, method and arguments.
#pragma once

#include <cstddef>
#include <string_view>

namespace ccrc {

/// How a name was written.
enum class name_style {
  plain,  ///< no qualifier: "main", "fib (app.py:12)"
  java,   ///< parts separated by '.' or '/': "java.util.HashMap.get(Object)", "java/util/HashMap.get"
  cpp,    ///< parts separated by "::": "std::vector<int>::push_back(int const&)"
};

/// The parts of a method name, each a view into the name ("" when absent).
struct name_parts {
  std::string_view package;     ///< "a.b", "a/b" or "a::b": everything before the class
  std::string_view class_name;  ///< "C": the part before the method
  std::string_view method;      ///< "m"
  std::string_view arguments;   ///< "(args)" and whatever follows it ("(int) const")
  name_style style = name_style::plain;
};

namespace detail {

constexpr bool is_identifier_char(char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$' ||
         static_cast<unsigned char>(c) >= 0x80;
}

// The length of a C++ operator's name at s[i] ("operator()", "operator<<=", "operator new[]"),
// or 0 if no operator starts there: its symbols would otherwise read as brackets.
constexpr std::size_t operator_length(std::string_view s, std::size_t i) noexcept {
  constexpr std::string_view word = "operator";
  if (s.substr(i, word.size()) != word || (i > 0 && is_identifier_char(s[i - 1]))) return 0;
  std::size_t j = i + word.size();
  if (j < s.size() && is_identifier_char(s[j])) return 0;  // "operators", "operator_x"
  while (j < s.size() && s[j] == ' ') ++j;
  std::string_view rest = s.substr(j);
  if (rest.starts_with("()") || rest.starts_with("[]")) return j + 2 - i;
  constexpr std::string_view symbols = "+-*/%^&|~!=<>,";
  std::size_t k = j;
  while (k < s.size() && symbols.find(s[k]) != std::string_view::npos) ++k;
  if (k > j) return k - i;
  for (std::string_view w : {std::string_view("new"), std::string_view("delete")}) {
    if (rest.starts_with(w) && (rest.size() == w.size() || !is_identifier_char(rest[w.size()]))) {
      k = j + w.size();
      if (s.substr(k).starts_with("[]")) k += 2;
      return k - i;
    }
  }
  return j - i;  // a conversion operator: its type follows as ordinary text
}

}  // namespace detail

/// Splits a method name by its syntax. The arguments start at the first '(' outside brackets
/// that does not begin a part ("(anonymous namespace)", Go's "(*T)") and is not followed by
/// another "::" (a lambda's "f()::{lambda()#1}"); before them, "::" separates the parts if
/// present (C++, Rust, Ruby), else '.' and '/' do (Java, JVM internal names, Python, Go).
/// The last part is the method, the one before it the class, the rest the package or
/// namespace. Brackets (<>, (), [], {}) nest, so template arguments never split a name, and
/// operator names ("operator<", "operator()") are read whole. Syntax alone cannot tell a C++
/// namespace from a class: in "std::sort(...)" the class is "std". O(|name|), no allocation.
///
///     auto p = ccrc::split_name("a.b.C.m(int)");  // package "a.b", class "C", method "m", arguments "(int)"
///     auto q = ccrc::split_name("a::b::C::m(int) const");  // package "a::b", ..., arguments "(int) const"
[[nodiscard]] constexpr name_parts split_name(std::string_view s) noexcept {
  constexpr std::size_t none = std::string_view::npos;
  // Separators at bracket depth 0 before the arguments ('.' and '/' are not looked for after
  // them, "::" is since it shows they were not the arguments): the last three matter.
  std::size_t cpp_seps[3] = {none, none, none}, java_seps[3] = {none, none, none};
  std::size_t cpp_count = 0, java_count = 0;
  auto push = [](std::size_t (&seps)[3], std::size_t& count, std::size_t at) {
    seps[0] = seps[1];
    seps[1] = seps[2];
    seps[2] = at;
    ++count;
  };
  std::size_t args = none, part_start = 0;
  int depth = 0;
  for (std::size_t i = 0; i < s.size();) {
    if (std::size_t op = detail::operator_length(s, i)) {
      i += op;
      continue;
    }
    char c = s[i];
    if (c == '(' || c == '<' || c == '[' || c == '{') {
      if (c == '(' && depth == 0 && args == none && i != part_start) args = i;
      ++depth;
    } else if (c == ')' || c == '>' || c == ']' || c == '}') {
      if (depth > 0) --depth;
    } else if (depth == 0 && c == ':' && i + 1 < s.size() && s[i + 1] == ':') {
      args = none;  // the parenthesis before was part of a name, as in "f()::{lambda()#1}"
      push(cpp_seps, cpp_count, i);
      part_start = i + 2;
      i += 2;
      continue;
    } else if (depth == 0 && args == none && (c == '.' || c == '/')) {
      push(java_seps, java_count, i);
      part_start = i + 1;
    }
    ++i;
  }
  name_parts p;
  // Without the arguments and the blank before them ("fib (app.py:12)").
  std::string_view qualified = s.substr(0, args == none ? s.size() : args);
  while (!qualified.empty() && qualified.back() == ' ') qualified.remove_suffix(1);
  p.arguments = args == none ? std::string_view() : s.substr(args);
  const std::size_t* seps = nullptr;
  std::size_t count = 0, width = 0;
  if (cpp_count > 0) {
    p.style = name_style::cpp;
    seps = cpp_seps;
    count = cpp_count;
    width = 2;
  } else if (java_count > 0) {
    p.style = name_style::java;
    seps = java_seps;
    count = java_count;
    width = 1;
  }
  if (count == 0) {
    p.method = qualified;
    return p;
  }
  std::size_t last = seps[2];
  p.method = qualified.substr(last + width);
  std::size_t class_start = count >= 2 ? seps[1] + width : 0;
  p.class_name = qualified.substr(class_start, last - class_start);
  if (count >= 2) p.package = qualified.substr(0, seps[1]);
  return p;
}

/// The package (Java) or namespace (C++) of a method name, "" if it has none: a grouping
/// for collapse_runs and for coloring a chart by package. See ccrc::split_name.
[[nodiscard]] constexpr std::string_view package_of(std::string_view name) noexcept {
  return split_name(name).package;
}

}  // namespace ccrc
