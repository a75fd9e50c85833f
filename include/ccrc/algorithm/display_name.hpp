// ccrc - display names: the name of a frame as a person reads it on a chart, from its full name.
#pragma once

#include <ccrc/algorithm/name_parts.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace ccrc {

namespace detail::display {

using std::string_view;
inline constexpr std::size_t none = string_view::npos;

constexpr bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }
constexpr bool is_hex_digit(char c) noexcept {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
constexpr bool is_letter(char c) noexcept { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
// A letter, '_', '$' or a byte of a UTF-8 sequence: what a name starts with (not a digit).
constexpr bool starts_a_name(char c) noexcept {
  return is_letter(c) || c == '_' || c == '$' || static_cast<unsigned char>(c) >= 0x80;
}
constexpr bool is_open(char c) noexcept { return c == '(' || c == '<' || c == '[' || c == '{'; }
constexpr bool is_close(char c) noexcept { return c == ')' || c == '>' || c == ']' || c == '}'; }

template <class Predicate>
constexpr bool all_of(string_view s, Predicate p) noexcept {
  for (char c : s)
    if (!p(c)) return false;
  return true;
}

constexpr bool is_number(string_view s) noexcept { return !s.empty() && all_of(s, is_digit); }

constexpr string_view trim_right(string_view s) noexcept {
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

// An address naming a frame nobody could symbolise: "0x7fb9122a3f14", or perf's bare
// "55d4c3a0113d" (eight hex digits or more, so that a function called "add" is not one).
constexpr bool is_address(string_view s) noexcept {
  if (s.starts_with("0x") || s.starts_with("0X")) return s.size() > 2 && all_of(s.substr(2), is_hex_digit);
  return s.size() >= 8 && all_of(s, is_hex_digit);
}

// libccrc_instrument's (and `ccrc symbolize`'s) name for a function it could not name:
// "prog+0x1a2b", a module and an offset into it.
constexpr bool is_module_offset(string_view s) noexcept {
  std::size_t plus = s.rfind("+0x");
  return plus != none && plus > 0 && s.substr(0, plus).find_first_of("/; ") == none && is_address(s.substr(plus + 1));
}

// "file://...", "https://...", "resource://...": a scheme, then "://".
constexpr bool is_url(string_view s) noexcept {
  std::size_t colon = s.find("://");
  if (colon == none || colon == 0 || !is_letter(s[0])) return false;
  return all_of(s.substr(0, colon), [](char c) { return is_letter(c) || is_digit(c) || c == '+' || c == '-' || c == '.'; });
}

// Where a function's code is, as the readers write it after the function's name.
struct location {
  string_view file;  // a URL or a path, without line and column
  string_view line;  // "" where none is given
};

// Whether `s` is a location: `url:line:col` (V8, DevTools, speedscope, Gecko), `file:line`
// (py-spy, addr2line), with a file that has a '/', '.' or ':' in it; or, without a line, a URL
// or an absolute path (a Gecko label's document, addr2line's file where the line is unknown).
constexpr bool read_location(string_view s, location& out) noexcept {
  if (s.empty() || s.find(' ') != none) return false;
  string_view file = s, line;
  for (int numbers = 0; numbers < 2; ++numbers) {
    std::size_t colon = file.rfind(':');
    if (colon == none || !is_number(file.substr(colon + 1))) break;
    line = file.substr(colon + 1);  // the second number read, where there are two, is the line
    file = file.substr(0, colon);
  }
  if (!line.empty() ? file.find_first_of("/.:") == none : !is_url(file) && !(file.size() > 1 && file[0] == '/'))
    return false;
  out = {file, line};
  return true;
}

// The file's name without its directories, query and fragment ("_tsc.js" of
// "file:///a/b/_tsc.js?v=2"); the whole of `file` where that leaves nothing.
constexpr string_view file_name(string_view file) noexcept {
  string_view path = file.substr(0, file.find_first_of("?#"));
  std::size_t slash = path.rfind('/');
  string_view name = slash == none ? path : path.substr(slash + 1);
  return name.empty() ? file : name;
}

// A name split into what names the function and what says where it is.
struct located {
  string_view head;
  location where;  // file "" where the name says nothing of it
};

// Takes off a trailing location or object file: `fn url:1:2` (V8), `fn (url:1:2)` (Gecko,
// py-spy `fib (app.py:12)`), `fn /src/a.c:12` (addr2line), `fn (/lib/libc.so.6)` (callgrind's
// object for a name two objects define). An object stays where it is all that names the frame
// (`[unknown] (/lib/libc.so.6)`, `0x4005d0 (/usr/bin/a.out)`).
constexpr located split_location(string_view name) noexcept {
  if (name.ends_with(')')) {
    std::size_t open = name.rfind(" (");
    if (open == none) return {name, {}};
    string_view head = trim_right(name.substr(0, open)), inner = name.substr(open + 2, name.size() - open - 3);
    location at;
    if (head.empty()) return {name, {}};
    if (read_location(inner, at) && !at.line.empty()) return {head, at};
    if ((inner.starts_with('/') || inner == "[unknown]") && !head.starts_with('[') && !is_address(head)) return {head, {}};
    return {name, {}};
  }
  std::size_t blank = name.rfind(' ');
  location at;
  if (blank != none && !trim_right(name.substr(0, blank)).empty() && read_location(name.substr(blank + 1), at))
    return {trim_right(name.substr(0, blank)), at};
  return {name, {}};
}

// GCC's and LLVM's names for parts and clones of a function ("foo.part.0", "foo.isra.0",
// "foo.constprop.0", "foo.cold", "foo.lto_priv.0", "foo.llvm.4711") are foo's; only after a
// plain C identifier, so that Java's and Go's dots are left alone.
constexpr string_view without_clone_suffixes(string_view s) noexcept {
  auto numbered = [](string_view w) {
    return w == "part" || w == "isra" || w == "constprop" || w == "lto_priv" || w == "llvm" || w == "cold" || w == "clone";
  };
  string_view base = s;
  for (;;) {
    std::size_t dot = base.rfind('.');
    if (dot == none || dot == 0) break;
    string_view last = base.substr(dot + 1), rest = base.substr(0, dot);
    if (last == "cold" || last == "localalias") {
      base = rest;
    } else if (std::size_t word = rest.rfind('.'); is_number(last) && word != none && word > 0 && numbered(rest.substr(word + 1))) {
      base = rest.substr(0, word);
    } else {
      break;
    }
  }
  return base.size() < s.size() && all_of(base, is_identifier_char) ? base : s;
}

// A symbol's version ("memcpy@@GLIBC_2.14", "pthread_mutex_lock@GLIBC_2.2.5") is not the
// function's name; "printf@plt" (the stub, lower case) is kept.
constexpr string_view without_symbol_version(string_view s) noexcept {
  std::size_t at = s.find('@');
  if (at == none || at == 0) return s;
  string_view version = s.substr(at + 1);
  if (version.starts_with('@')) version.remove_prefix(1);
  if (version.empty() || !(version[0] >= 'A' && version[0] <= 'Z') || !all_of(s.substr(0, at), is_identifier_char) ||
      !all_of(version, [](char c) { return is_identifier_char(c) || c == '.'; }))
    return s;
  return s.substr(0, at);
}

// async-profiler's frame-type annotation ("java/util/HashMap.get_[j]": JIT-compiled).
constexpr string_view without_annotation(string_view s) noexcept {
  std::size_t n = s.size();
  if (n > 4 && s[n - 4] == '_' && s[n - 3] == '[' && s[n - 1] == ']' && (is_letter(s[n - 2]) || is_digit(s[n - 2])))
    s.remove_suffix(4);
  return s;
}

// Rust's legacy symbol hash, the last part of "core::ptr::drop_in_place<..>::h0123456789abcdef".
constexpr bool is_rust_hash(string_view s) noexcept {
  return s.size() == 17 && s[0] == 'h' && all_of(s.substr(1), [](char c) { return is_digit(c) || (c >= 'a' && c <= 'f'); });
}

// A lambda's closure type: GCC's "{lambda(int)#1}", LLVM's "'lambda'(int)", clang's "$_0".
constexpr bool is_closure(string_view s) noexcept {
  return s.starts_with("{lambda") || s.starts_with("'lambda") || (s.size() > 2 && s.starts_with("$_") && is_digit(s[2]));
}

// A scope that says nothing of where a function is: the anonymous namespace, the standard
// libraries' inline namespaces (std::__1, std::__cxx11), an empty one ("::f"), and Rust's
// turbofish ("collect::<Vec<u8>>"), which is a scope only in the syntax.
constexpr bool is_silent_scope(string_view s, bool first) noexcept {
  return s.empty() || s == "(anonymous namespace)" || s == "{anonymous}" || s == "__1" || s == "__cxx11" ||
         s == "__ndk1" || (!first && s.starts_with('<'));
}

// Whether s[i] == '(' opens the parameter list of the name before it: it follows a name, a
// template's arguments, an ABI tag or an operator's name (which ends at `operator_end`).
constexpr bool opens_parameters(string_view s, std::size_t i, std::size_t operator_end) noexcept {
  return s[i] == '(' && i > 0 && (is_identifier_char(s[i - 1]) || s[i - 1] == '>' || s[i - 1] == ']' || i == operator_end);
}

// Appends `s` with every qualifier dropped ("PassManager<llvm::Function>" ->
// "PassManager<Function>", "<alloc::vec::Vec<T> as core::ops::drop::Drop>" -> "<Vec<T> as Drop>").
inline void append_without_qualifiers(string_view s, std::string& out) {
  std::size_t run = out.size();  // where the identifier being copied starts in `out`
  for (std::size_t i = 0; i < s.size();) {
    if (s[i] == ':' && i + 1 < s.size() && s[i + 1] == ':') {
      if (out.size() > run) {
        out.resize(run);
      } else {
        out += "::";  // after a bracket ("vector<int>::iterator"): not a qualifier to drop
        run = out.size();
      }
      i += 2;
      continue;
    }
    out += s[i];
    if (!is_identifier_char(s[i])) run = out.size();
    ++i;
  }
}

// Appends one part of a scoped name without its template arguments, ABI tags
// ("[abi:cxx11]") and parameter list: "vector<int, std::allocator<int> >" -> "vector",
// "bar() const" -> "bar", "operator<< <char>" -> "operator<<". Brackets that open the part
// ("(anonymous namespace)", "{{closure}}") are kept.
inline void append_undecorated(string_view s, std::string& out) {
  const std::size_t begin = out.size();
  std::size_t operator_end = none;
  int skipped = 0, kept = 0;  // depth inside a group left out, and inside one copied
  for (std::size_t i = 0; i < s.size();) {
    if (std::size_t op = operator_length(s, i)) {  // its '<', '(' or '[' opens nothing
      if (skipped == 0) out.append(s.substr(i, op));
      i += op;
      operator_end = i;
      continue;
    }
    char c = s[i];
    if (skipped > 0) {
      if (is_open(c)) ++skipped;
      if (is_close(c)) --skipped;
    } else if (kept == 0 && opens_parameters(s, i, operator_end)) {
      break;
    } else if (kept == 0 && (c == '<' || c == '[') && out.size() > begin) {
      skipped = 1;
    } else {
      if (is_open(c)) ++kept;
      if (is_close(c) && kept > 0) --kept;
      out += c;
    }
    ++i;
  }
  while (out.size() > begin && out.back() == ' ') out.pop_back();
}

// Appends a closure's name without its parameters: "{lambda(int)#1}" -> "{lambda#1}",
// "'lambda'(int)" -> "'lambda'".
inline void append_closure(string_view s, std::string& out) {
  if (s.starts_with("{lambda(")) {
    int depth = 0;
    for (std::size_t i = 7; i < s.size(); ++i) {
      if (s[i] == '(') ++depth;
      if (s[i] == ')' && --depth == 0) {
        out.append("{lambda").append(s.substr(i + 1));
        return;
      }
    }
  } else if (s.starts_with("'lambda")) {
    std::size_t quote = s.find('\'', 1);
    out.append(s.substr(0, quote == none ? s.size() : quote + 1));
    return;
  }
  out.append(s);
}

// The "::" separators of a scoped name: the last eight (a name's display reads at most its
// last three parts, and a few silent ones before them) and how many there are.
struct scopes {
  static constexpr std::size_t kept = 8;
  string_view text;
  std::size_t at[kept] = {};
  std::size_t count = 0;

  void add(std::size_t offset) noexcept { at[count++ % kept] = offset; }
  // Whether part(i), the i-th part from the end (0: the last), is known.
  [[nodiscard]] bool has(std::size_t i) const noexcept { return i <= count && i < kept; }
  [[nodiscard]] string_view part(std::size_t i) const noexcept {
    std::size_t begin = i == count ? 0 : at[(count - 1 - i) % kept] + 2;
    std::size_t end = i == 0 ? text.size() : at[(count - i) % kept];
    return text.substr(begin, end - begin);
  }
};

// C++ and Rust: the function's own name and the nearest scope that says something
// ("Parser::parse", "vector::_M_realloc_insert", "ptr::drop_in_place"); a lambda's call
// operator reads as the function it is in and the lambda ("main::{lambda#1}").
inline void append_scoped(const scopes& q, std::string& out) {
  std::size_t i = 0;
  while (i < q.count && q.has(i + 1) && (q.part(i).empty() || is_rust_hash(q.part(i)) || q.part(i).starts_with('<'))) ++i;
  string_view method = q.part(i);
  std::size_t c = i + 1;
  bool closure = is_closure(method);
  if (method.starts_with("operator()") && (method.size() == 10 || method[10] == '<') && q.has(c) && is_closure(q.part(c))) {
    method = q.part(c++);
    closure = true;
  }
  while (q.has(c) && is_silent_scope(q.part(c), c == q.count)) ++c;
  const std::size_t begin = out.size();
  if (q.has(c)) {
    string_view scope = q.part(c);
    if (c == q.count && scope.starts_with('<'))
      append_without_qualifiers(scope, out);  // Rust's "<Vec<T> as Drop>"
    else if (is_closure(scope))
      append_closure(scope, out);
    else
      append_undecorated(scope, out);
    if (out.size() > begin) out += "::";
  }
  const std::size_t name_at = out.size();
  if (closure)
    append_closure(method, out);
  else if (i == q.count && method.starts_with('<'))
    append_without_qualifiers(method, out);
  else
    append_undecorated(method, out);
  if (out.size() == name_at) {  // nothing readable left: the scoped name as it is
    out.resize(begin);
    out.append(q.text);
  }
}

// Java, the JVM's internal names, Go, JavaScript, Python: parts separated by '.' and '/'.
// After the last '/' (a Go package path, a JVM class's package) comes "pkg.Func" or
// "Class.method"; Java keeps the class and the method, Go (a receiver "(*T)", a closure
// "func1") the package and all after it. A JVM hidden class's address
// ("Main$$Lambda$14/0x0000000800c03000") is left out. Returns false where `q` has no '.' or
// '/' outside brackets; appends `q` as it is where a part is empty ("Module._extensions..js")
// or the '/' is not a path's ("getDimensions/<", "lists:foldl/3").
inline bool append_dotted(string_view q, std::string& out) {
  std::size_t slash = none, hidden = none, dots[2] = {none, none}, part = 0;
  bool go = false, any = false;
  auto is_go_part = [](string_view p) { return is_number(p) || (p.starts_with("func") && is_number(p.substr(4))); };
  int depth = 0;
  for (std::size_t i = 0; i < q.size(); ++i) {
    char c = q[i];
    if (is_open(c)) {
      if (c == '(' && depth == 0 && i == part && i > 0) go = true;
      ++depth;
    } else if (is_close(c)) {
      if (depth > 0) --depth;
    } else if (depth == 0 && (c == '.' || c == '/')) {
      if (c == '/' && q.substr(i + 1).starts_with("0x")) {
        if (hidden == none) hidden = i;
        continue;
      }
      if (i == part) {
        out.append(q);
        return true;
      }
      go = go || is_go_part(q.substr(part, i - part));
      any = true;
      if (c == '/') {
        slash = i;
        dots[0] = dots[1] = none;
      } else {
        dots[0] = dots[1];
        dots[1] = i;
      }
      part = i + 1;
    }
  }
  if (!any) return false;
  if (part == q.size() || (slash != none && (q.substr(0, slash).find(':') != none || !starts_a_name(q[slash + 1])))) {
    out.append(q);
    return true;
  }
  go = go || is_go_part(q.substr(part));
  std::size_t from = slash == none ? 0 : slash + 1;
  if (!go && dots[0] != none) from = dots[0] + 1;
  if (hidden != none && hidden >= from) {
    std::size_t end = q.find('.', hidden);
    out.append(q.substr(from, hidden - from)).append(q.substr(end == none ? q.size() : end));
  } else {
    out.append(q.substr(from));
  }
  return true;
}

// The function's name without its return type, parameters and qualifiers, by the syntax of
// each language (see ccrc::display_name).
inline void append_function(string_view s, std::string& out) {
  // The scan: the parameter list (the first '(' after a name outside brackets, unless a "::"
  // follows: "f()::{lambda()#1}::operator()"), the start of the word before it (after the
  // return type's blank: "void std::vector<int>::push_back(int const&)"), and the "::"
  // separators of that word. Operator names are read whole, and a conversion operator's type
  // ("operator unsigned long") runs to its parameters.
  std::size_t params = none, word = 0, operator_end = none;
  bool blank = false, conversion = false;
  int depth = 0;
  scopes q;
  for (std::size_t i = 0; i < s.size();) {
    if (std::size_t op = operator_length(s, i)) {
      conversion = depth == 0 && trim_right(s.substr(i, op)) == "operator" && i + op < s.size() && is_identifier_char(s[i + op]);
      i += op;
      std::size_t j = i;
      while (j < s.size() && s[j] == ' ') ++j;
      if (!conversion && j < s.size() && s[j] == '<') i = j;  // "operator<< <char>": the operator's template arguments
      operator_end = i;
      continue;
    }
    char c = s[i];
    if (is_open(c)) {
      if (depth == 0 && params == none && opens_parameters(s, i, operator_end)) {
        params = i;
        conversion = false;
      }
      ++depth;
    } else if (is_close(c)) {
      if (depth > 0) --depth;
    } else if (depth == 0 && !conversion && c == ':' && i + 1 < s.size() && s[i + 1] == ':') {
      params = none;
      q.add(i - word);
      i += 2;
      continue;
    } else if (depth == 0 && !conversion && c == ' ' && params == none) {
      word = i + 1;
      blank = true;
      q.count = 0;
    }
    ++i;
  }
  if (params == none && blank) {  // words without parameters: a label ("CodeGen Function"), kept
    if (s.ends_with('>'))
      append_without_qualifiers(s, out);  // "Total PassManager<llvm::Function>"
    else
      out.append(s);
    return;
  }
  q.text = trim_right(s.substr(word, (params == none ? s.size() : params) - word));
  if (q.text.empty()) {
    out.append(s);
  } else if (q.count > 0) {
    append_scoped(q, out);
  } else if (append_dotted(q.text, out)) {
  } else if (params == none && q.text.ends_with('>')) {
    append_without_qualifiers(q.text, out);  // only a template-id: a type's name, its arguments tell it apart
  } else {
    append_undecorated(q.text, out);
  }
}

}  // namespace detail::display

/// Appends to `out` the display name of the frame named `full`: what a chart's label and
/// legend show, the function's own name as a person reads it at first sight (speedscope's
/// names), while `full` stays the frame's identity (search, tooltips, JSON, merge keys). Read
/// from the syntax each format's reader writes (docs/ring-charts.md, "Display names"):
///
/// - a location is dropped: V8, DevTools and speedscope's `fn url:line:col`, Gecko's
///   `fn (url:line:col)`, py-spy's `fn (file:line)`, addr2line's `fn /path:line`, a Gecko
///   label's document URL; callgrind's ` (/object)`. An anonymous function keeps its file's
///   name and line: `(anonymous) _tsc.js:12`. A frame that is only a URL or a path shows its
///   file's name.
/// - C++ and Rust: the function's unqualified name and the nearest scope that says something
///   (not an anonymous or the standard library's inline namespace), without return type,
///   parameters, template arguments and ABI tags: `vector::_M_realloc_insert`,
///   `std::operator<<`, `Foo::operator bool`; a lambda as `main::{lambda#1}`; Rust without its
///   hash, `ptr::drop_in_place`, `<Vec<T> as Drop>::drop`. A name that is only a template-id
///   (a clang -ftime-trace event's `PassManager<llvm::Function>`) keeps its arguments, their
///   qualifiers dropped: `PassManager<Function>`.
/// - Java `java.util.HashMap.get(Object)` and `java/util/HashMap.get`: `HashMap.get`; Go
///   `net/http.(*conn).serve`: `http.(*conn).serve`; JavaScript's `Module._load` as it is.
/// - Kept whole: addresses and `[unknown]` (their object by its file's name: `[unknown]
///   (libc.so.6)`), `prog+0x1a2b`, V8's `(program)`, event and
///   thread names with blanks (`CodeGen Function`, `Browser (pid 9262) CrBrowserMain (tid
///   9262)`); callgrind's recursion suffix `'2` stays after the shortened name.
///
/// Nothing is cut for length: a renderer cuts a label that does not fit with "…". Never
/// empty for a non-empty name, never longer than it, cut only at ASCII bytes (UTF-8 stays
/// whole). O(|full|), no recursion; throws nothing but std::bad_alloc.
///
///     std::string label;
///     ccrc::display_name("Module._load node:internal/modules/cjs/loader:1003:24", label);  // "Module._load"
inline void display_name(std::string_view full, std::string& out) {
  using namespace detail::display;
  const std::size_t begin = out.size();
  location whole;
  if (read_location(full, whole) && (is_url(whole.file) || whole.file.starts_with('/'))) {
    out.append(file_name(whole.file));
    if (!whole.line.empty()) out.append(":").append(whole.line);
    return;
  }
  located l = split_location(full);
  if (l.head == "(anonymous)" && !l.where.file.empty()) {
    out.append(l.head).append(" ").append(file_name(l.where.file));
    if (!l.where.line.empty()) out.append(":").append(l.where.line);
    return;
  }
  string_view s = l.head, recursion;  // callgrind's "fib'2": the second level of fib's recursion
  if (std::size_t quote = s.rfind('\''); quote != none && quote > 0 && is_number(s.substr(quote + 1))) {
    recursion = s.substr(quote);
    s = s.substr(0, quote);
  }
  s = without_clone_suffixes(without_symbol_version(without_annotation(s)));
  // An address or `[unknown]`: its object is all that names the frame, by its file's name.
  std::size_t object = s.ends_with(')') ? s.rfind(" (/") : none;
  string_view bare = object == none ? s : s.substr(0, object);
  if (bare.starts_with('[') || is_address(bare) || is_module_offset(bare)) {
    out.append(bare);
    if (object != none) out.append(" (").append(file_name(s.substr(object + 2, s.size() - object - 3))).append(")");
  } else
    append_function(s, out);
  if (out.size() == begin)
    out.append(full);
  else
    out.append(recursion);
}

/// The display name of the frame named `full` (see the overload that appends to a buffer).
///
///     ccrc::display_name("std::vector<int, std::allocator<int> >::push_back(int const&)");  // "vector::push_back"
///     ccrc::display_name("java.util.HashMap.get(java.lang.Object)");                        // "HashMap.get"
[[nodiscard]] inline std::string display_name(std::string_view full) {
  std::string out;
  display_name(full, out);
  return out;
}

}  // namespace ccrc
