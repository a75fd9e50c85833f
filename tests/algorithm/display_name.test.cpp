#include <ccrc/algorithm/display_name.hpp>
#include <ccrc/io/read_profile.hpp>

#include "support/display_name.hpp"
#include "support/random.hpp"

#include <doctest/doctest.h>

#include <initializer_list>
#include <string>
#include <string_view>

namespace {

// A frame's full name, as a reader writes it, and its display name.
struct shown_as {
  std::string_view full, display;
};

void check_table(std::initializer_list<shown_as> rows) {
  for (const shown_as& r : rows) {
    CAPTURE(r.full);
    CHECK(ccrc::display_name(r.full) == r.display);
    test::check_display_name_of_frame(r.full);
  }
}

}  // namespace

// The tables' first rows are names the readers give the profiles in tests/data, as they are.

TEST_CASE("display names of V8 .cpuprofile and .heapprofile frames: the function, or (anonymous) and its file and line") {
  check_table({
      {"sortNumbers file:///work/wt/v8/tests/data/v8/work.js:10:21", "sortNumbers"},
      {"fib file:///work/wt/v8/tests/data/v8/work.js:3:13", "fib"},
      {"Module._load node:internal/modules/cjs/loader:1003:24", "Module._load"},
      {"Module._extensions..js node:internal/modules/cjs/loader:1604:37", "Module._extensions..js"},
      {"SyncWriteStream._write node:internal/fs/sync_write_stream:25:44", "SyncWriteStream._write"},
      {"realpathSync node:fs:2664:22", "realpathSync"},
      {"(anonymous) file:///work/wt/v8/tests/data/v8/work.js:21:22", "(anonymous) work.js:21"},
      {"(anonymous) node:internal/streams/writable:1:1", "(anonymous) writable:1"},
      {"(anonymous) node:internal/per_context/primordials:382:32", "(anonymous) primordials:382"},  // .heapprofile
      {"(anonymous) node:stream:1:1", "(anonymous) node:stream:1"},  // no directory: the URL's path is all there is
      {"(garbage collector)", "(garbage collector)"},
      {"(program)", "(program)"},
      {"(anonymous)", "(anonymous)"},
      {"compileFunction", "compileFunction"},  // a native function: no URL
      // The issue's example, and URLs with a query or no file name.
      {"(anonymous) file:///a/b/_tsc.js:12:5", "(anonymous) _tsc.js:12"},
      {"(anonymous) https://example.com/app.js?v=3#x:7:1", "(anonymous) app.js:7"},
      {"(anonymous) https://example.com/:1:2", "(anonymous) https://example.com/:1"},
      {"(idle)", "(idle)"},
      {"(root)", "(root)"},
  });
}

TEST_CASE("display names of speedscope frames written by speedscope from a Node profile") {
  check_table({
      {"fib file:///tmp/ss/prof/main.js:5:13", "fib"},
      {"Module._resolveFilename node:internal/modules/cjs/loader:1126:35", "Module._resolveFilename"},
      {"(anonymous main.js:1) file:///tmp/ss/prof/main.js:1:1", "(anonymous main.js:1)"},  // speedscope's own name
      {"(anonymous node:stream:1) node:stream:1:1", "(anonymous node:stream:1)"},
      {"readFileUtf8", "readFileUtf8"},
      {"main.cpuprofile", "main.cpuprofile"},  // the frame of a profile of the file, by its name
  });
}

TEST_CASE("display names of Chrome DevTools trace frames: V8's samples and the trace's events and threads") {
  check_table({
      {"leaf file:///work/wt/chunk/tests/data/trace_event/devtools_page.html:3:14", "leaf"},
      {"(anonymous) file:///work/wt/chunk/tests/data/trace_event/devtools_page.html:2:21", "(anonymous) devtools_page.html:2"},
      {"(cpu profile)", "(cpu profile)"},
      {"(idle)", "(idle)"},
      {"V8.BytecodeBudgetInterrupt", "V8.BytecodeBudgetInterrupt"},
      {"v8.parseOnBackground", "v8.parseOnBackground"},
      {"RunTask", "RunTask"},
      {"Browser (pid 9262) CrBrowserMain (tid 9262)", "Browser (pid 9262) CrBrowserMain (tid 9262)"},
      {"WebUI Top Renderer (pid 9351) ThreadPoolForegroundWorker (tid 9358)",
       "WebUI Top Renderer (pid 9351) ThreadPoolForegroundWorker (tid 9358)"},
  });
}

TEST_CASE("display names of clang -ftime-trace events: kept, a template-id with its arguments unqualified") {
  check_table({
      {"Source", "Source"},
      {"InstantiateClass", "InstantiateClass"},
      {"CodeGen Function", "CodeGen Function"},
      {"Total ADCEPass", "Total ADCEPass"},
      {"PassManager<llvm::Function>", "PassManager<Function>"},  // never "Function>"
      {"PassManager<llvm::Loop, llvm::LoopAnalysisManager, llvm::LoopStandardAnalysisResults &, llvm::LPMUpdater &>",
       "PassManager<Loop, LoopAnalysisManager, LoopStandardAnalysisResults &, LPMUpdater &>"},
      {"Total RequireAnalysisPass<llvm::GlobalsAA, llvm::Module>", "Total RequireAnalysisPass<GlobalsAA, Module>"},
      {"clang (pid 16345) clang++ (tid 16345)", "clang (pid 16345) clang++ (tid 16345)"},
      {"clang (pid 16345) tid 16346", "clang (pid 16345) tid 16346"},
  });
}

TEST_CASE("display names of Gecko frames: JavaScript without its location, labels, addresses") {
  check_table({
      {"fib (file:///tmp/gecko_ff/page.html:2:13)", "fib"},
      {"getDimensions/< (moz-src:///browser/components/shell/ScreenshotChild.sys.mjs:15:25)", "getDimensions/<"},
      {"get _log (resource://gre/modules/TelemetryControllerContent.sys.mjs:36:11)", "get _log"},
      {"Layout file:///tmp/gecko_ff/page.html", "Layout"},
      {"ChromeUtils::ImportESModule resource://gre/modules/ExtensionProcessScript.sys.mjs", "ChromeUtils::ImportESModule"},
      {"file:///tmp/gecko_ff/page.html", "page.html"},
      {"resource://gre/modules/ExtensionUtils.sys.mjs", "ExtensionUtils.sys.mjs"},
      {"EventDispatcher::Dispatch change", "EventDispatcher::Dispatch change"},
      {"ContentChild::RecvAsyncMessage Extension:Shutdown", "ContentChild::RecvAsyncMessage Extension:Shutdown"},
      {"GetServiceByContractID @mozilla.org/preferences-service;1", "GetServiceByContractID @mozilla.org/preferences-service;1"},
      {"XRE_InitChildProcess (around Gecko Profiler)", "XRE_InitChildProcess (around Gecko Profiler)"},
      {"ThreadEventQueue::GetEvent::Wait", "GetEvent::Wait"},
      {"ChromeUtils.importESModule", "ChromeUtils.importESModule"},
      {"js::RunScript", "js::RunScript"},
      {"Parent Process (pid 4545) Compositor (tid 4594)", "Parent Process (pid 4545) Compositor (tid 4594)"},
      {"file:// Content (pid 4659) GeckoMain (tid 4659)", "file:// Content (pid 4659) GeckoMain (tid 4659)"},
      {"0x7fb9122a3f14", "0x7fb9122a3f14"},
      {"(root)", "(root)"},
  });
}

TEST_CASE("display names of perf script frames: symbols, [unknown] with its dso, threads") {
  check_table({
      {"compute", "compute"},
      {"__libc_start_call_main", "__libc_start_call_main"},
      {"entry_SYSCALL_64_after_hwframe", "entry_SYSCALL_64_after_hwframe"},
      {"[unknown] ([unknown])", "[unknown] ([unknown])"},
      {"spin 12936", "spin 12936"},
      {"[unknown] (/usr/lib/x86_64-linux-gnu/libc.so.6)", "[unknown] (libc.so.6)"},
      {"[unknown] (/usr/lib/gcc/x86_64-linux-gnu/12/cc1plus)", "[unknown] (cc1plus)"},
      {"55d4c3a0113d", "55d4c3a0113d"},  // an address: -F ip, neither symbol nor dso
      {"[kernel.kallsyms]", "[kernel.kallsyms]"},
      {"printf@plt", "printf@plt"},
  });
}

TEST_CASE("display names of Go's pprof frames: the package's last element, receivers and closures whole") {
  check_table({
      {"main.fib", "main.fib"},
      {"os.OpenFile", "os.OpenFile"},
      {"runtime/pprof.writeHeap", "pprof.writeHeap"},
      {"runtime.(*scavengerState).sleep", "runtime.(*scavengerState).sleep"},
      {"runtime.newproc.func1", "runtime.newproc.func1"},
      {"net/http.(*conn).serve", "http.(*conn).serve"},
      {"net/http.(*Server).Serve.func1", "http.(*Server).Serve.func1"},
      {"main.main.func1", "main.main.func1"},
      {"main.(*T).m.func2.1", "main.(*T).m.func2.1"},
      {"gopkg.in/yaml.v3.(*parser).parse", "yaml.v3.(*parser).parse"},
      {"slices.SortFunc[go.shape.[]int,go.shape.int]", "slices.SortFunc[go.shape.[]int,go.shape.int]"},
      {"0x4005d0 (/usr/bin/a.out)", "0x4005d0 (a.out)"},  // unsymbolised, by address and mapping
  });
}

TEST_CASE("display names of callgrind frames: recursion levels kept, objects, symbol versions and clones dropped") {
  check_table({
      {"fib'2", "fib'2"},
      {"0x0000000000001050", "0x0000000000001050"},
      {"(below main) (/tmp/cg/prog)", "(below main)"},
      {"strlen (/usr/lib/x86_64-linux-gnu/libc.so.6)", "strlen"},
      {"memcpy@@GLIBC_2.14", "memcpy"},
      {"__libc_start_main@@GLIBC_2.34", "__libc_start_main"},
      {"dfs_traversal.part.0", "dfs_traversal"},
      {"fillin_rpath.isra.0", "fillin_rpath"},
      {"get_common_cache_info.constprop.0", "get_common_cache_info"},
      {"foo.cold", "foo"},
      {"foo.llvm.4271635", "foo"},
      {"Parser::parse(std::string const&)'3", "Parser::parse'3"},
  });
}

TEST_CASE("display names of demangled C++: the function and one scope, no return type, parameters or template arguments") {
  check_table({
      {"Parser::parse(std::string const&)", "Parser::parse"},
      {"ns::Parser::parse(std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > const&) const",
       "Parser::parse"},
      {"void std::vector<int, std::allocator<int> >::_M_realloc_insert<int const&>(__gnu_cxx::__normal_iterator<int*, "
       "std::vector<int, std::allocator<int> > >, int const&)",
       "vector::_M_realloc_insert"},
      {"std::vector<int, std::allocator<int> >::~vector()", "vector::~vector"},
      {"fib(int)", "fib"},
      {"main", "main"},
      {"::global()", "global"},
      {"std::to_string[abi:cxx11](int)", "std::to_string"},
      {"foo(int) [clone .cold]", "foo"},
      {"non-virtual thunk to Foo::bar()", "Foo::bar"},
      {"decltype (({parm#1}.begin)()) std::begin<std::vector<int> >(std::vector<int>&)", "std::begin"},
      {"std::_Function_handler<void (int), main::{lambda(int)#1}>::_M_invoke(std::_Any_data const&, int&&)",
       "_Function_handler::_M_invoke"},
      // Silent scopes: the anonymous namespace, the standard libraries' inline namespaces.
      {"(anonymous namespace)::helper(int)", "helper"},
      {"a::(anonymous namespace)::Foo::bar()", "Foo::bar"},
      {"std::__1::vector<int, std::__1::allocator<int> >::push_back(int&&)", "vector::push_back"},
      {"std::__1::sort<int*>(int*, int*)", "std::sort"},
      // A name without a parameter list (perf --no-demangle-params, a symbol table).
      {"std::vector<int, std::allocator<int> >::push_back", "vector::push_back"},
  });
}

TEST_CASE("display names of C++ operators and lambdas") {
  check_table({
      {"ns::Widget::operator()(int) const", "Widget::operator()"},
      {"std::operator<<(std::ostream&, int)", "std::operator<<"},
      {"std::basic_ostream<char, std::char_traits<char> >& std::operator<< <std::char_traits<char> >(std::basic_ostream<char, "
       "std::char_traits<char> >&, char const*)",
       "std::operator<<"},
      {"a::B::operator<(a::B const&)", "B::operator<"},
      {"a::B::operator->() const", "B::operator->"},
      {"std::array<int, 3ul>::operator[](unsigned long)", "array::operator[]"},
      {"operator new(unsigned long)", "operator new"},
      {"operator new[](unsigned long)", "operator new[]"},
      {"operator delete(void*, unsigned long)", "operator delete"},
      {"Foo::operator bool() const", "Foo::operator bool"},
      {"Foo::operator unsigned long() const", "Foo::operator unsigned long"},
      {"Foo::operator std::vector<int, std::allocator<int> >() const", "Foo::operator std::vector"},
      // A lambda's call operator reads as the lambda in its function.
      {"main::{lambda(int)#1}::operator()(int) const", "main::{lambda#1}"},
      {"Foo::bar() const::{lambda()#1}::operator()() const", "bar::{lambda#1}"},
      {"main::{lambda(auto:1)#1}::operator()<int>(int) const", "main::{lambda#1}"},
      {"{lambda(int)#1}::operator()(int) const", "{lambda#1}"},
      {"main::'lambda'(int)::operator()(int) const", "main::'lambda'"},  // llvm-cxxfilt's spelling
      {"main::$_0::operator()(int) const", "main::$_0"},                // clang's local lambda
      {"main::{lambda(int)#1}::_FUN(int)", "{lambda#1}::_FUN"},         // its static invoker
  });
}

TEST_CASE("display names of Rust: no hash, the function and its scope, a trait impl readable") {
  check_table({
      {"core::ptr::drop_in_place<alloc::vec::Vec<u8>>::h0123456789abcdef", "ptr::drop_in_place"},
      {"<Vec<T> as Drop>::drop", "<Vec<T> as Drop>::drop"},
      {"<alloc::vec::Vec<T,A> as core::ops::drop::Drop>::drop::h0123456789abcdef", "<Vec<T,A> as Drop>::drop"},
      {"<&T as core::fmt::Display>::fmt", "<&T as Display>::fmt"},
      {"<alloc::string::String>::push_str", "<String>::push_str"},
      {"std::rt::lang_start::{{closure}}::h9e2c8e3c8e6b3c1a", "lang_start::{{closure}}"},
      {"core::iter::traits::iterator::Iterator::collect::<alloc::vec::Vec<u8>>", "Iterator::collect"},  // v0's turbofish
      {"std::thread::h0123", "thread::h0123"},  // not a hash: 16 hex digits make one
  });
}

TEST_CASE("display names of Java: the class and the method, inner classes, lambdas and hidden classes readable") {
  check_table({
      {"BenchMark.main(String[])", "BenchMark.main"},  // examples/data/xml_old.folded
      {"SAXBuilder.build(InputSource)", "SAXBuilder.build"},
      {"java.util.HashMap.get(Object)", "HashMap.get"},
      {"java.util.HashMap.get(java.lang.Object)", "HashMap.get"},
      {"java/util/HashMap.get", "HashMap.get"},      // the JVM's internal name (async-profiler)
      {"java/util/HashMap.get_[j]", "HashMap.get"},  // async-profiler's annotation of a compiled frame
      {"java.lang.Object.<init>()", "Object.<init>"},
      {"org.Foo$Inner.lambda$run$0()", "Foo$Inner.lambda$run$0"},
      {"Foo$Bar.baz", "Foo$Bar.baz"},
      {"com.example.Main.lambda$main$0(java.lang.String)", "Main.lambda$main$0"},
      {"com.example.Main$$Lambda$14/0x0000000800c03000.run()", "Main$$Lambda$14.run"},
      {"java/lang/invoke/LambdaForm$DMH/0x0000000800c0c000.invokeStatic", "LambdaForm$DMH.invokeStatic"},
  });
}

TEST_CASE("display names of Python, addr2line's and the instrumenting runtime's names") {
  check_table({
      {"fib (app.py:12)", "fib"},  // py-spy
      {"mod.fib (app/mod.py:12)", "mod.fib"},
      {"<module> (app.py:1)", "<module>"},
      {"fib(int) /tmp/prog.cpp:12", "fib"},  // ccrc symbolize: "function file:line"
      {"Parser::parse(std::string const&) const /src/parser.cpp:42", "Parser::parse"},
      {"fib /tmp/prog.c", "fib"},  // the line unknown
      {"prog+0x1a2b", "prog+0x1a2b"},  // not symbolised: module and offset
      {"libfoo.so.1+0x12", "libfoo.so.1+0x12"},
      {"/usr/lib/x86_64-linux-gnu/libc.so.6", "libc.so.6"},
  });
}

TEST_CASE("display names of odd names and of UTF-8 ones: kept where no rule applies, never empty") {
  check_table({
      {"", ""},
      {"x", "x"},
      {"::", "::"},
      {"a::", "a"},
      {"operator", "operator"},
      {"lists:foldl/3", "lists:foldl/3"},  // Erlang: a '/' that is not a path's
      {"a b c", "a b c"},
      {"void (*signal(int, void (*)(int)))(int)", "void (*signal(int, void (*)(int)))(int)"},
      {"naïve::función(int)", "naïve::función"},
      {"a::名前空間::関数()", "名前空間::関数"},
      {"Ärger.größe(int)", "Ärger.größe"},
      {"Object.<anonymous>", "Object.<anonymous>"},
  });
}

TEST_CASE("display_name appends to a buffer, after what it holds") {
  std::string out = "label: ";
  ccrc::display_name("std::vector<int, std::allocator<int> >::push_back(int const&)", out);
  CHECK(out == "label: vector::push_back");
  ccrc::display_name("", out);
  CHECK(out == "label: vector::push_back");
  out = "x";
  ccrc::display_name("::", out);  // nothing readable: the name itself
  CHECK(out == "x::");
}

TEST_CASE("display names of every frame of the profiles in tests/data the core reads") {
  for (const char* file : {"tests/data/perf/spin.perf", "tests/data/callgrind/prog.callgrind",
                           "tests/data/callgrind/prog-cache.callgrind", "tests/data/viewer/first.folded",
                           "examples/data/xml_old.folded", "examples/data/figure1.folded"}) {
    CAPTURE(file);
    ccrc::profile p = ccrc::read_core_profile_file(std::string(CCRC_SOURCE_DIR "/") + file).profile;
    CHECK(p.symbols().frame_count() > 1);
    for (ccrc::frame_id f{1}; f < p.symbols().frame_count(); ++f)
      test::check_display_name_of_frame(p.symbols().name(f));
  }
}

TEST_CASE("display names of random names: never empty, never longer, no UTF-8 sequence cut") {
  // Names made of the pieces the rules look for, in any order: brackets, separators,
  // locations, operator names, blanks, multi-byte characters.
  static constexpr std::string_view pieces[] = {
      "a",  "Foo", "x1", "_", "$", "0x1f", "12", "h0123456789abcdef", "::", ".", "/", ":", " ", "(", ")", "<", ">",
      "[",  "]",   "{",  "}", "'", "@", "@@GLIBC_2.2", "#", "?", ",", "*", "&", "~", "+0x", "operator", "operator()",
      "operator<<", "operator new", "{lambda(int)#1}", "(anonymous namespace)", "(anonymous)", "file://", "node:",
      "/a/b.js:1:2", " (x.py:3)", " (/lib/c.so)", ".part.0", ".cold", "_[j]", "/0x7f", "func1", "é", "名", "😀", "\xc3\xa9"};
  test::rng r(20240633);
  for (int n = 0; n < 20000; ++n) {
    std::string name;
    for (std::uint32_t k = r.below(12) + 1; k > 0; --k) name += pieces[r.below(std::size(pieces))];
    test::check_display_name(name);
  }
}

TEST_CASE("display names of huge adversarial names: linear, no recursion, the rules still hold") {
  const std::size_t n = 1'000'000;
  CHECK(ccrc::display_name(std::string(n, '<')) == std::string(n, '<'));
  CHECK(ccrc::display_name(std::string(n, '(')) == std::string(n, '('));
  std::string scopes;
  for (std::size_t i = 0; i < n / 4; ++i) scopes += "ab::";
  CHECK(ccrc::display_name(scopes + "f(int)") == "ab::f");
  CHECK(ccrc::display_name("f<" + scopes + "T>") == "f<T>");  // every qualifier of a template-id's argument dropped
  std::string anonymous;
  for (std::size_t i = 0; i < n / 22; ++i) anonymous += "(anonymous namespace)::";
  CHECK(ccrc::display_name(anonymous + "f()") == "f");  // silent scopes skipped, up to seven
  std::string dots;
  for (std::size_t i = 0; i < n / 2; ++i) dots += "a.";
  CHECK(ccrc::display_name(dots + "b") == "a.b");
  std::string clones = "f";
  for (std::size_t i = 0; i < n / 7; ++i) clones += ".part.0";
  CHECK(ccrc::display_name(clones) == "f");
  std::string operators;
  for (std::size_t i = 0; i < n / 9; ++i) operators += "operator<";
  test::check_display_name(operators);
  test::check_display_name(std::string(n, ' '));
  test::check_display_name(std::string(n, ':'));
}
