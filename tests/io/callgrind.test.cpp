#include <ccrc/io/callgrind.hpp>
#include <ccrc/io/folded.hpp>
#include <ccrc/tree/path.hpp>

#include "support/values.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

using test::at;
using test::total;

// The line number a parse error names, or 0 if the text parses.
std::uint64_t error_line(std::string_view text) {
  try {
    (void)ccrc::read_callgrind(text);
  } catch (const ccrc::parse_error& e) {
    return e.line();
  }
  return 0;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The numbers of the file's last `key:` line (totals: or summary:), read here by hand.
std::vector<double> header_numbers(const std::string& text, const std::string& key) {
  std::size_t at_key = text.rfind("\n" + key + ":");
  REQUIRE(at_key != std::string::npos);
  std::istringstream in(text.substr(at_key + key.size() + 2, text.find('\n', at_key + 1) - at_key - key.size() - 2));
  std::vector<double> v;
  for (double x; in >> x;) v.push_back(x);
  return v;
}

// See tests/data/callgrind/README.md for how these were made.
const std::string data = std::string(CCRC_SOURCE_DIR) + "/tests/data/callgrind/";

}  // namespace

TEST_CASE("callgrind: a diamond split in proportion to the callers' edges, self totals kept") {
  // main calls a (inclusive Ir 60, Dr 6) and b (Ir 40); a and b both call c (40 and 30).
  ccrc::profile p = ccrc::read_callgrind(
      "# callgrind format\nevents: Ir Dr\n"
      "fn=main\n1 10\ncfn=a\ncalls=1 1\n1 60 6\ncfn=b\ncalls=1 1\n1 40\n"
      "fn=a\n1 20 6\ncfn=c\ncalls=1 1\n1 40\n"
      "fn=b\n1 10\ncfn=c\ncalls=1 1\n1 30\n"
      "fn=c\n1 70\n");
  CHECK(p.metric_names() == std::vector<std::string>{"Ir", "Dr"});
  CHECK(p.size() == 6);  // root, main, main;a, main;b, main;a;c, main;b;c
  CHECK(at(p, "Ir", "main") == 10);
  CHECK(at(p, "Ir", "main;a") == 20);
  CHECK(at(p, "Dr", "main;a") == 6);
  CHECK(at(p, "Ir", "main;b") == 10);
  CHECK(at(p, "Ir", "main;a;c") == 40);  // c's 70 split 40 : 30
  CHECK(at(p, "Ir", "main;b;c") == 30);
  CHECK(total(p, "Ir") == 110);  // 10 + 20 + 10 + 70, the self cost lines
  CHECK(total(p, "Dr") == 6);
}

TEST_CASE("callgrind: random call graphs keep each event's self total, names compressed or written out alike") {
  // Functions named from a pool of five in two objects (a name of both objects is two
  // functions), in blocks that come again, calling each other at random (cycles, recursion,
  // a pair in several blocks); the same graph written with names compressed (some defined
  // again under a new id, some written out now and then), and with every name written out.
  // Both read to the same tree, whose self costs add up to the file's self cost lines.
  std::mt19937 rng(2026);
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  const char* names[] = {"main", "a", "b", "c", "d"};
  const char* objects[] = {"/bin/x", "/lib/y"};
  for (int round = 0; round < 300; ++round) {
    std::string compressed = "events: Ir Dr\n", plain = compressed;
    std::map<std::string, int> id_of;  // a name's current id in `compressed`
    int ids = 0;
    auto fn_ref = [&](const std::string& n) {
      if (pick(6) == 0) return n;  // written out, even where it has an id
      auto it = id_of.find(n);
      if (it == id_of.end() || pick(8) == 0) {  // first sight, or defined again under a new id
        id_of[n] = ++ids;
        return "(" + std::to_string(ids) + ") " + n;
      }
      return "(" + std::to_string(it->second) + ")";
    };
    std::uint64_t self_ir = 0, self_dr = 0;
    auto cost = [&](std::uint64_t ir, std::uint64_t dr) { return "0 " + std::to_string(ir) + " " + std::to_string(dr) + "\n"; };
    for (int block = pick(12) + 1; block > 0; --block) {
      const int ob = pick(2);
      const std::string name = names[pick(5)];
      compressed += "ob=(" + std::to_string(ob + 1) + ")\nfn=" + fn_ref(name) + "\n";
      plain += std::string("ob=") + objects[ob] + "\nfn=" + name + "\n";
      for (int line = pick(5); line > 0; --line) {
        const auto ir = static_cast<std::uint64_t>(pick(100)), dr = static_cast<std::uint64_t>(pick(3));
        if (pick(2) == 0) {
          self_ir += ir;
          self_dr += dr;
          compressed += cost(ir, dr);
          plain += cost(ir, dr);
          continue;
        }
        const int callee_ob = pick(2);
        const std::string callee = names[pick(5)];
        if (callee_ob != ob) {
          compressed += "cob=(" + std::to_string(callee_ob + 1) + ")\n";
          plain += std::string("cob=") + objects[callee_ob] + "\n";
        }
        compressed += "cfn=" + fn_ref(callee) + "\ncalls=1 0\n" + cost(ir * 3, dr);
        plain += "cfn=" + callee + "\ncalls=1 0\n" + cost(ir * 3, dr);
      }
    }
    compressed.insert(std::string("events: Ir Dr\n").size(), "ob=(1) /bin/x\nob=(2) /lib/y\n");
    CAPTURE(compressed);
    ccrc::profile a = ccrc::read_callgrind(compressed), b = ccrc::read_callgrind(plain);
    std::ostringstream fa, fb;
    ccrc::write_folded(fa, a);
    ccrc::write_folded(fb, b);
    CHECK(fa.str() == fb.str());
    CHECK(total(a, "Ir") == static_cast<double>(self_ir));
    CHECK(total(a, "Dr") == static_cast<double>(self_dr));
  }
}

TEST_CASE("callgrind: a split that does not divide gives the extra unit to the largest remainder") {
  // c's self 10 split 40 : 30: 400/70 = 5 rest 50, 300/70 = 4 rest 20; the unit left to the first.
  ccrc::profile p = ccrc::read_callgrind(
      "events: Ir\nfn=main\n1 0\ncfn=a\ncalls=1 1\n1 40\ncfn=b\ncalls=1 1\n1 30\n"
      "fn=a\ncfn=c\ncalls=1 1\n1 40\nfn=b\ncfn=c\ncalls=1 1\n1 30\nfn=c\n1 10\n");
  CHECK(at(p, "Ir", "main;a;c") == 6);
  CHECK(at(p, "Ir", "main;b;c") == 4);
  CHECK(total(p, "Ir") == 10);
}

TEST_CASE("callgrind: recursion is cut and not counted twice") {
  // r calls itself (its edge r -> r, 75, double counts the inner calls) and leaf.
  ccrc::profile p = ccrc::read_callgrind(
      "events: Ir\nfn=main\n0 1\ncfn=r\ncalls=1 0\n0 100\n"
      "fn=r\n0 40\ncfn=r\ncalls=3 0\n0 75\ncfn=leaf\ncalls=4 0\n0 60\nfn=leaf\n0 60\n");
  CHECK(p.size() == 4);
  CHECK(at(p, "Ir", "main") == 1);
  CHECK(at(p, "Ir", "main;r") == 40);
  CHECK(at(p, "Ir", "main;r;leaf") == 60);
  CHECK(total(p, "Ir") == 101);
  // Mutual recursion with no caller outside: the first in file order becomes the root.
  ccrc::profile m = ccrc::read_callgrind(
      "events: Ir\nfn=f\n0 5\ncfn=g\ncalls=1 0\n0 9\nfn=g\n0 7\ncfn=f\ncalls=1 0\n0 3\n");
  CHECK(m.size() == 3);
  CHECK(at(m, "Ir", "f") == 5);
  CHECK(at(m, "Ir", "f;g") == 7);
}

TEST_CASE("callgrind: compression, hex, omitted costs, positions, parts, objects") {
  ccrc::profile p = ccrc::read_callgrind(
      "# callgrind format\nversion: 1\ncreator: hand\npid: 1\ncmd: x\npart: 1\n\n"
      "desc: I1 cache: \npositions: instr line\nevents: Ir Dr Dw\nsummary: 0x20 3 1\n\n"
      "ob=(1) /bin/x\nfl=(1) x.c\nfn=(1) main\n0x10 3 2 1 1\n+2 -1 0xa\n* * 1\n"
      "cob=(2) /lib/libc.so\ncfi=(2) printf.c\ncfn=(2) printf\ncalls=2 0x400 10\n+4 +1 7 1\n"
      "fn=(3) (below main)\n0 0 1\n"
      "totals: 0x20 3 1\n"
      "part: 2\n"
      "ob=(2)\nfl=(2)\nfn=(2)\n0x400 10 4\nfn=(4) (below main)\n0 0 2\n"
      "ob=(1)\nfl=(1)\nfn=(1)\n0x11 4 2\n"
      "# a comment\ntotals: 9\n");
  CHECK(p.metric_names() == std::vector<std::string>{"Ir", "Dr", "Dw"});
  // main: 2 + 10 + 1 (part 1) + 2 (part 2) Ir, Dr 1, Dw 1; printf 4 (its cost line in part
  // 2) under main; two functions named (below main), in /bin/x and in libc.
  CHECK(at(p, "Ir", "main") == 15);
  CHECK(at(p, "Dr", "main") == 1);
  CHECK(at(p, "Dw", "main") == 1);
  CHECK(at(p, "Ir", "main;printf") == 4);
  CHECK(at(p, "Ir", "(below main) (/bin/x)") == 1);
  CHECK(at(p, "Ir", "(below main) (/lib/libc.so)") == 2);
  CHECK(total(p, "Ir") == 22);  // 15 + 4 + 1 + 2
  CHECK(total(p, "Dr") == 1);
}

TEST_CASE("callgrind: a caller's calls to one callee in two blocks add up") {
  ccrc::profile p = ccrc::read_callgrind(
      "events: Ir\nfn=main\ncfn=a\ncalls=1 0\n0 5\nfn=b\n0 1\nfn=main\ncfn=a\ncalls=1 0\n0 7\nfn=a\n0 12\n");
  CHECK(p.size() == 4);  // root, main, main;a, b (nobody calls b)
  CHECK(at(p, "Ir", "main;a") == 12);
  CHECK(at(p, "Ir", "b") == 1);
}

TEST_CASE("callgrind: a compressed id stands for a function per object, and for cfn='s name until calls=") {
  // (1) names a in x, then a in y; jfn= renames (2) between cfn= and calls=, which still
  // calls f (the name cfn= gave), and fn=(2) is then g.
  ccrc::profile p = ccrc::read_callgrind(
      "events: Ir\nob=(1) x\nfn=(1) a\n0 1\nob=(2) y\nfn=(1)\n0 2\n"
      "cfn=(2) f\njfn=(2) g\ncalls=1 0\n0 5\nob=(1)\nfn=(1)\n0 4\nob=(2)\nfn=(2)\n0 3\n");
  CHECK(at(p, "Ir", "a (x)") == 5);
  CHECK(at(p, "Ir", "a (y)") == 2);
  CHECK(at(p, "Ir", "a (y);f") == 0);  // f costs nothing of its own
  CHECK(at(p, "Ir", "g") == 3);
  CHECK(p.size() == 5);
}

TEST_CASE("callgrind: names shared by functions of several objects stay apart") {
  // "a (x)" is a function's own name; the two functions named a become "a (x) #2" and "a (y)".
  ccrc::profile p = ccrc::read_callgrind(
      "events: Ir\nob=x\nfn=a (x)\n0 1\nfn=a\n0 2\nob=y\nfn=a\n0 4\n");
  CHECK(at(p, "Ir", "a (x)") == 1);
  CHECK(at(p, "Ir", "a (x) #2") == 2);
  CHECK(at(p, "Ir", "a (y)") == 4);
  CHECK(p.size() == 4);
}

TEST_CASE("callgrind: the real file's self totals are its totals: line, its functions as callgrind_annotate sees them") {
  // prog.callgrind: valgrind 3.19 on prog.c, events Ir. callgrind_annotate prog.callgrind:
  // PROGRAM TOTALS 182,353; self: fib'2 28,587, leaf 27,018; --inclusive=yes: f 9,026,
  // g 18,009, fib 28,605, main 58,972.
  std::string text = read_text(data + "prog.callgrind");
  ccrc::profile p = ccrc::read_callgrind(text);
  CHECK(p.metric_names() == std::vector<std::string>{"Ir"});
  CHECK(total(p, "Ir") == header_numbers(text, "totals")[0]);
  CHECK(total(p, "Ir") == header_numbers(text, "summary")[0]);
  CHECK(total(p, "Ir") == 182353);
  const std::string main = "0x000000000001ab70;(below main) (/tmp/cg/prog);__libc_start_main@@GLIBC_2.34;"
                           "(below main) (/usr/lib/x86_64-linux-gnu/libc.so.6);main";
  // f, g and fib have one caller: their subtrees are their inclusive costs exactly.
  CHECK(at(p, "Ir", main + ";f") + at(p, "Ir", main + ";f;leaf") == 9026);
  CHECK(at(p, "Ir", main + ";g") + at(p, "Ir", main + ";g;leaf") == 18009);
  CHECK(at(p, "Ir", main + ";fib") + at(p, "Ir", main + ";fib;fib'2") == 28605);
  CHECK(at(p, "Ir", main + ";fib;fib'2") == 28587);
  CHECK(at(p, "Ir", main + ";f;leaf") + at(p, "Ir", main + ";g;leaf") == 27018);
  // main's subtree: within one unit (rounding of functions split among several contexts).
  ccrc::node_id m = ccrc::node_at_path(p.tree(), main);
  REQUIRE(m != ccrc::null_node);
  double sum = 0;
  for (ccrc::node_id n = 0; n < p.size(); ++n) {
    ccrc::node_id a = n;
    while (a != ccrc::root_node && a != m) a = p.tree().parent(a);
    if (a == m) sum += p.column("Ir")[n];
  }
  CHECK(sum >= 58971);
  CHECK(sum <= 58973);
  // The stream and file entry points read the same.
  std::istringstream in(text);
  CHECK(ccrc::read_callgrind(in).size() == p.size());
  CHECK(ccrc::read_callgrind_file(data + "prog.callgrind").size() == p.size());
}

TEST_CASE("callgrind: with --cache-sim=yes, nine events, each summing to totals: (summary: differs)") {
  std::string text = read_text(data + "prog-cache.callgrind");
  ccrc::profile p = ccrc::read_callgrind(text);
  std::vector<std::string> names{"Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw"};
  CHECK(p.metric_names() == names);
  std::vector<double> totals = header_numbers(text, "totals");
  REQUIRE(totals.size() == names.size());
  for (std::size_t e = 0; e < names.size(); ++e) CHECK(total(p, names[e]) == totals[e]);
  // valgrind writes summary: 182409 ... but the cost lines (and totals:) add up to 182407.
  CHECK(header_numbers(text, "summary")[0] == 182409);
  CHECK(totals[0] == 182407);
}

TEST_CASE("callgrind: detection") {
  CHECK(ccrc::looks_like_callgrind("# callgrind format\nversion: 1\n"));
  CHECK(ccrc::looks_like_callgrind("version: 1\nevents: Ir\nfn=main\n"));
  CHECK_FALSE(ccrc::looks_like_callgrind("fn=main\nevents: Ir\n"));
  CHECK_FALSE(ccrc::looks_like_callgrind("main;f 1\n"));
}

TEST_CASE("callgrind: empty input, and a deep chain without recursion in the reader") {
  ccrc::profile e = ccrc::read_callgrind("");
  CHECK(e.size() == 1);
  CHECK(e.metric_names() == std::vector<std::string>{"Ir"});
  constexpr int depth = 200000;
  std::string text = "events: Ir\n";
  for (int i = 0; i < depth; ++i)
    text += "fn=f" + std::to_string(i) + "\n0 1\ncfn=f" + std::to_string(i + 1) + "\ncalls=1 0\n0 " +
            std::to_string(depth - i) + "\n";
  text += "fn=f" + std::to_string(depth) + "\n0 1\n";
  ccrc::profile p = ccrc::read_callgrind(text);
  CHECK(p.size() == depth + 2);
  CHECK(total(p, "Ir") == depth + 1);
}

TEST_CASE("callgrind: a graph that unfolds exponentially stops at max_contexts") {
  // f_i calls a_i and b_i, both call f_{i+1}: 2^i contexts of f_i, each with a share of the
  // edges' 10^15 (a context whose share rounds to 0 in every event is not made).
  std::string text = "events: Ir\n";
  for (int i = 0; i < 30; ++i) {
    std::string f = "f" + std::to_string(i), next = "f" + std::to_string(i + 1);
    const std::string big = "\ncalls=1 0\n0 1000000000000000\n";
    text += "fn=" + f + "\n0 1\ncfn=a" + f + big + "cfn=b" + f + big;
    text += "fn=a" + f + "\ncfn=" + next + big + "fn=b" + f + "\ncfn=" + next + big;
  }
  CHECK_THROWS_AS((void)ccrc::read_callgrind(text, {.max_contexts = 100000}), ccrc::capacity_error);
  ccrc::profile small = ccrc::read_callgrind(text.substr(0, text.find("\nfn=f3\n") + 1), {.max_contexts = 100000});
  CHECK(total(small, "Ir") == 3);
  CHECK(small.size() == 1 + 1 + 2 * (1 + 2 + 4) + 2 + 4 + 8);  // root, f0..f3, a_i and b_i
}

TEST_CASE("callgrind: malformed input names the line") {
  CHECK(error_line("events: Ir\nfn=main\n1 2 3\n") == 3);          // more costs than events
  CHECK(error_line("fn=main\n1 2\n") == 2);                        // cost before events:
  CHECK(error_line("events: Ir\n1 2\n") == 2);                     // cost before fn=
  CHECK(error_line("events: Ir\nfn=main\n1 x\n") == 3);            // not a number
  CHECK(error_line("events: Ir\nfn=main\n+ 1\n") == 3);            // bad subposition
  CHECK(error_line("events: Ir\npositions: instr line\nfn=main\n1\n") == 4);  // too few positions
  CHECK(error_line("events: Ir\nfn=(3)\n") == 2);                  // id before its definition
  CHECK(error_line("events: Ir\nfn=main\ncalls=1 0\n0 1\n") == 3); // calls= without cfn=
  CHECK(error_line("events: Ir\nfn=main\ncfn=f\ncalls=1 0\nfn=f\n") == 5);  // no cost line
  CHECK(error_line("events: Ir\nfn=main\ncfn=f\ncalls=1 0\n") == 4);        // ends after calls=
  CHECK(error_line("events: Ir\nfn=main\nbogus=1\n") == 3);        // unknown key
  CHECK(error_line("events: Ir\nfn=main\nhello world\n") == 3);    // no kind of line
  CHECK(error_line("events: Ir Ir\n") == 1);                       // event named twice
  CHECK(error_line("events: Ir\nfn=ma\x01in\n") == 2);             // control character
  CHECK(error_line("events: Ir\nfn=main\n1 99999999999999999999\n") == 3);  // over 2^64
  CHECK(error_line("events: Ir\nfn=main\n1 0x20000000000000\n1 1\n") == 4);  // sum over 2^53
  // ... over two blocks of one function: the block that takes it over
  CHECK(error_line("events: Ir\nfn=main\n1 0x20000000000000\nfn=g\n1 1\nfn=main\n1 0\n2 1\n") == 7);
  CHECK(error_line("events: Ir\nevents: Dr\n") == 2);              // a part with other events
  CHECK(error_line("events: Ir\npositions: column\n") == 2);
  CHECK(error_line("events: Ir\nfn=main\n1 1\n") == 0);
}
