// Runs tests/instrument/subject.cpp (compiled with -finstrument-functions, linked with
// libccrc_instrument) on one scenario with $CCRC_OUT set, then reads the profile it wrote
// with the ccrc library and checks it path by path and count by count: every expected context
// with its exact number of calls, and no other context. Every profile must also conserve time:
// a context's total_ns is the sum of self_ns over its subtree (exactly in ticks of the
// library's clock; to a relative 1e-9 once both are converted to nanoseconds); and, timed by
// sampling (unless $CCRC_TIME is exact, which the tests named instrument_exact_* set), its
// self_ns is its samples times the period, 1 ms by default.
//
//     instrument_check SCENARIO SUBJECT WORKDIR [CCRC]   (CCRC: the tool, for `symbolize`)
//     instrument_check plugins SUBJECT WORKDIR PLUGIN_ONE PLUGIN_TWO
#include "harness.hpp"

#include <ccrc/algorithm/inclusive.hpp>

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <string>
#include <vector>

namespace {

using namespace instrument_test;

// A context and its expected number of calls; the path's frames are separated by ';'.
struct expected_context {
  std::string path;
  double calls;
};

bool timed_exactly() {
  const char* time = std::getenv("CCRC_TIME");
  return time != nullptr && std::string_view(time) == "exact";
}

// Every context's total_ns is the sum of self_ns over its subtree, and no self_ns is negative;
// timed by sampling, every context's self_ns is its samples times `period_ns`, and the root
// has no value of its own.
void check_time(const ccrc::profile& p, const std::string& what, double period_ns = 1e6) {
  std::span<const double> self = column(p, "self_ns");
  std::span<const double> total = column(p, "total_ns");
  std::vector<double> ag = ccrc::inclusive(p.tree(), self);
  std::size_t unconserved = 0;
  for (ccrc::node_id n = 1; n < p.size(); ++n)
    if (std::abs(total[n] - ag[n]) > 1e-9 * total[n] || self[n] < 0) ++unconserved;
  check(unconserved == 0, what + ": total_ns differs from the subtree's self_ns at " + std::to_string(unconserved) +
                              " contexts");
  check(timed_exactly() != p.find_metric("samples").has_value(),
        what + (timed_exactly() ? ": timed exactly, with a samples metric" : ": timed by sampling, without samples"));
  if (!p.find_metric("samples")) return;
  std::span<const double> samples = column(p, "samples");
  std::size_t unsampled = 0;
  for (ccrc::node_id n = 0; n < p.size(); ++n)
    if (self[n] != samples[n] * period_ns) ++unsampled;
  check(unsampled == 0, what + ": self_ns is not samples x " + std::to_string(period_ns) + " ns at " +
                            std::to_string(unsampled) + " contexts");
  check(self[ccrc::root_node] == 0 && total[ccrc::root_node] == 0, what + ": the root has time of its own");
}

// The profile holds the contexts `expected`, with their calls, and `others` more.
void check_contexts(const ccrc::profile& p, const std::vector<expected_context>& expected, const std::string& what,
                    std::size_t others = 0) {
  std::span<const double> calls = column(p, "calls");
  std::size_t want = expected.size() + others;
  check(p.size() == want + 1,
        what + ": " + std::to_string(p.size() - 1) + " contexts, expected " + std::to_string(want));
  for (const expected_context& e : expected) {
    ccrc::node_id n = find(p, split(e.path));
    if (n == ccrc::null_node) {
      check(false, what + ": no context " + e.path);
      continue;
    }
    check(calls[n] == e.calls, what + ": " + e.path + " has " + std::to_string(calls[n]) + " calls, expected " +
                                   std::to_string(e.calls));
  }
}

// The profile holds exactly the contexts `expected`, with their calls; time is conserved.
void check_profile(const fs::path& file, const std::vector<expected_context>& expected) {
  if (!fs::exists(file)) {
    check(false, "no profile at " + file.string());
    return;
  }
  ccrc::profile p = ccrc::read_cctb_file(file.string());
  check_contexts(p, expected, file.string());
  check_time(p, file.string());
}

int run(const std::string& subject, const std::string& scenario,
        const std::vector<std::pair<std::string, std::string>>& env, const fs::path& err) {
  return instrument_test::run(std::vector<std::string>{subject, scenario}, env, err);
}

// "subject.cpp:N", N the line of subject.cpp that starts with `text`.
std::string subject_line(std::string_view text) { return source_line("subject.cpp", text); }

// main;is_even;is_odd;... 8 levels (is_even(7) down to is_odd(0)), called twice.
void add_mutual_recursion(std::vector<expected_context>& e) {
  std::string path = "main";
  for (int n = 7; n >= 0; --n) {
    path += n % 2 == 1 ? ";is_even" : ";is_odd";
    e.push_back({path, 2});
  }
}

// The profile of subject.cpp's `loops`, `output` and `stdout`: 10 outer, 3 inner per outer, 2
// leaves per inner (10, 30, 60 calls), then the mutual recursion.
std::vector<expected_context> loops_contexts() {
  std::vector<expected_context> e = {{"main", 1}, {"main;loops()", 1}, {"main;loops();outer()", 10},
                                     {"main;loops();outer();inner()", 30}, {"main;loops();outer();inner();leaf()", 60}};
  add_mutual_recursion(e);
  return e;
}

// The calls of every context of `name`, summed.
double calls_of(const ccrc::profile& p, std::string_view name) {
  std::span<const double> calls = column(p, "calls");
  double sum = 0;
  for (ccrc::node_id n = 1; n < p.size(); ++n)
    if (p.symbols().name(p.tree().frame(n)) == name) sum += calls[n];
  return sum;
}

// The calls of the top-level context [lost]: the calls the library could not record.
double lost_calls(const ccrc::profile& p) {
  ccrc::node_id n = find(p, {"[lost]"});
  return n == ccrc::null_node ? 0 : column(p, "calls")[n];
}

// `from` with its first `skip` bytes left out, as a file of its own.
fs::path tail_of(const fs::path& from, std::size_t skip, const fs::path& to) {
  std::string text = read_text(from);
  std::ofstream(to, std::ios::binary) << text.substr(std::min(skip, text.size()));
  return to;
}

// The entries of `dir`, by name.
std::vector<std::string> entries(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

int main(int argc, char** argv) try {
  if (argc < 4 || argc > 6) {
    std::cerr << "usage: instrument_check SCENARIO SUBJECT WORKDIR [CCRC [SYMBOLIZER] | PLUGIN_ONE PLUGIN_TWO]\n";
    return 2;
  }
  std::string scenario = argv[1], subject = argv[2];
  fs::path dir = scenario_dir(argv[3], scenario);
  fs::path out = dir / "profile.cctb", err = dir / "stderr.txt";
  std::vector<std::pair<std::string, std::string>> env{{"CCRC_OUT", out.string()}};

  if (scenario == "loops") {
    check(run(subject, scenario, env, err) == 0, "exit status 0");
    check_profile(out, loops_contexts());
  } else if (scenario == "skip") {
    // outer() named by its symbol, leaf() by a prefix: outer's inner() calls hang from
    // loops(), leaf() is gone.
    env.emplace_back("CCRC_SKIP", "_Z5outerv, leaf*");
    std::vector<expected_context> e = {{"main", 1}, {"main;loops()", 1}, {"main;loops();inner()", 30}};
    add_mutual_recursion(e);
    check(run(subject, "loops", env, err) == 0, "exit status 0");
    check_profile(out, e);
  } else if (scenario == "fifo") {
    // A FIFO as $CCRC_OUT is written in place (a rename would put a regular file in its
    // place). The reader is open first, so the profile (below a pipe's 64 KiB) waits in it.
    check(mkfifo(out.c_str(), 0600) == 0, "mkfifo");
    int reader = open(out.c_str(), O_RDONLY | O_NONBLOCK);
    check(run(subject, "loops", env, err) == 0, "exit status 0");
    std::string got;
    char buf[4096];
    for (ssize_t n; (n = read(reader, buf, sizeof buf)) > 0;) got.append(buf, static_cast<std::size_t>(n));
    close(reader);
    check(fs::is_fifo(fs::symlink_status(out)), "the FIFO is still a FIFO");
    fs::path read_back = dir / "read.cctb";
    std::ofstream(read_back, std::ios::binary) << got;
    check_profile(read_back, loops_contexts());
  } else if (scenario == "device") {
    // A device node like /dev/null as $CCRC_OUT (root may make one): written in place, the
    // node left as it was, no temporary file beside it.
    if (mknod(out.c_str(), S_IFCHR | 0600, makedev(1, 3)) != 0) {
      std::cout << "device: skipped, mknod is not permitted here\n";
      return 0;
    }
    check(run(subject, "loops", env, err) == 0, "exit status 0");
    struct stat st {};
    check(lstat(out.c_str(), &st) == 0 && S_ISCHR(st.st_mode) && st.st_rdev == makedev(1, 3),
          "the device node is still the device 1,3");
    check(entries(dir) == std::vector<std::string>{"profile.cctb", "stderr.txt"}, "nothing beside the device");
  } else if (scenario == "stdout_link") {
    // $CCRC_OUT a link to /proc/self/fd/1 (as /dev/stdout is), stdout a file the program has
    // written to: the profile is appended to it; the file is not replaced, the link kept.
    fs::create_symlink("/proc/self/fd/1", out);
    fs::path captured = dir / "stdout.txt";
    check(instrument_test::run({subject, "stdout"}, env, err, captured) == 0, "exit status 0");
    std::string text = read_text(captured);
    check(text.starts_with("before the profile\n"), "stdout begins with the program's output");
    check_profile(tail_of(captured, 19, dir / "appended.cctb"), loops_contexts());
    check(fs::is_symlink(out), "the link is still a link");
  } else if (scenario == "planted") {
    // A symbolic link planted at the name the temporary file used to have ($CCRC_OUT.ccrc-tmp-PID):
    // the file it points to is left alone, and the profile is a regular file. The shell plants
    // it, then becomes the subject (same process id).
    fs::path victim = dir / "victim.txt";
    std::ofstream(victim) << "VICTIM\n";
    check(instrument_test::run({"sh", "-c", "ln -s \"$1\" \"$CCRC_OUT.ccrc-tmp-$$\" && exec \"$0\" loops", subject,
                                victim.string()},
                               env, err) == 0,
          "exit status 0");
    check(read_text(victim) == "VICTIM\n", "the planted link's target is untouched");
    check(fs::is_regular_file(fs::symlink_status(out)), "the profile is a regular file");
    check_profile(out, loops_contexts());
  } else if (scenario == "fsize") {
    // A file-size limit (RLIMIT_FSIZE, inherited) below the profile's 650 bytes and above the
    // message's: the write fails with EFBIG instead of killing the program with SIGXFSZ; the
    // program's status and its buffered output are kept, the temporary file removed.
    fs::path captured = dir / "stdout.txt";
    rlimit before{};
    getrlimit(RLIMIT_FSIZE, &before);
    rlimit limited = before;
    limited.rlim_cur = 400;
    setrlimit(RLIMIT_FSIZE, &limited);
    int status = instrument_test::run({subject, "output"}, env, err, captured);
    setrlimit(RLIMIT_FSIZE, &before);
    check(status == 5, "exit status 5, not " + std::to_string(status));
    std::string message = "ccrc: cannot write the profile to " + out.string() + ": File too large\n";
    check(read_text(err) == message, "stderr is '" + read_text(err) + "', expected '" + message + "'");
    check(read_text(captured) == "the program's own output\n", "stdout is '" + read_text(captured) + "'");
    check(entries(dir) == std::vector<std::string>{"stderr.txt", "stdout.txt"}, "no profile, no temporary file");
  } else if (scenario == "quick_exit") {
    // std::quick_exit runs no atexit handler: no profile (docs/instrument.md says why the
    // library does not use at_quick_exit), the status kept.
    check(run(subject, scenario, env, err) == 4, "exit status 4");
    check(!fs::exists(out), "no profile");
  } else if (scenario == "signal_storm" || scenario == "signal_burst") {
    // Signals landing in the hooks: each of the handler's calls is in the profile, wherever the
    // signal landed (on_tick and tick_work once per run of the handler), or counted as lost in
    // [lost] (on_burst's 3,001 calls are more than a thread can set aside, 1,024: every signal
    // that lands in a hook loses some of them).
    fs::path captured = dir / "stdout.txt";
    check(instrument_test::run({subject, scenario}, env, err, captured) == 0, "exit status 0");
    double runs = std::stod(read_text(captured));
    ccrc::profile p = ccrc::read_cctb_file(out.string());
    double lost = lost_calls(p);
    if (scenario == "signal_storm") {
      check(runs >= 2000, "the handler ran " + std::to_string(runs) + " times");
      check(calls_of(p, "on_tick(int)") == runs, "on_tick(int) has " + std::to_string(calls_of(p, "on_tick(int)")) +
                                                     " calls, the handler counted " + std::to_string(runs));
      check(calls_of(p, "tick_work()") == runs, "tick_work() has " + std::to_string(calls_of(p, "tick_work()")) +
                                                    " calls, expected " + std::to_string(runs));
      check(lost == 0, std::to_string(lost) + " calls lost");
    } else {
      double recorded = calls_of(p, "on_burst(int)") + calls_of(p, "burst_leaf()");
      check(recorded + lost == 3001 * runs, std::to_string(recorded) + " calls recorded and " + std::to_string(lost) +
                                                " lost, the handler made " + std::to_string(3001 * runs));
      check(lost > 0, "no call lost: no signal landed in a hook?");
    }
    check_time(p, out.string());
  } else if (scenario == "threads") {
    // worker(&tag) calls work_a 5 times, worker(nullptr) work_b 7 times, both common 3 times:
    // the two threads' trees merged.
    check(run(subject, scenario, env, err) == 0, "exit status 0");
    check_profile(out, {{"main", 1}, {"main;threads()", 1}, {"worker(void*)", 2},
                        {"worker(void*);work_a()", 5}, {"worker(void*);work_b()", 7},
                        {"worker(void*);common()", 6}});
  } else if (scenario == "exception") {
    // Five throws through thrower, middle and top_frame, each caught in catcher, which then
    // calls after_catch: after_catch is catcher's callee whether or not the compiler called
    // the exit hooks while unwinding (g++ does, clang does not).
    check(run(subject, scenario, env, err) == 0, "exit status 0");
    check_profile(out, {{"main", 1}, {"main;catcher()", 1}, {"main;catcher();top_frame()", 5},
                        {"main;catcher();top_frame();middle()", 5},
                        {"main;catcher();top_frame();middle();thrower()", 5},
                        {"main;catcher();after_catch()", 5}});
  } else if (scenario == "exit") {
    // exit(7) three frames down: the open calls are closed and written, the status kept.
    check(run(subject, scenario, env, err) == 7, "exit status 7");
    check_profile(out, {{"main", 1}, {"main;exit_deep()", 1}, {"main;exit_deep();level1()", 1},
                        {"main;exit_deep();level1();level2()", 1}});
  } else if (scenario == "fork") {
    // The parent's profile has what the parent did; the child's (profile.cctb.<child pid>) only
    // what the child did after fork, under the calls open at the fork, which it did not make.
    check(run(subject, scenario, env, err) == 0, "exit status 0");
    check_profile(out, {{"main", 1}, {"main;forking()", 1}, {"main;forking();before_fork()", 1},
                        {"main;forking();parent_work()", 2}});
    std::vector<fs::path> children;
    for (const auto& entry : fs::directory_iterator(dir))
      if (entry.path().filename().string().starts_with("profile.cctb.")) children.push_back(entry.path());
    check(children.size() == 1, std::to_string(children.size()) + " child profiles, expected 1");
    if (children.size() == 1)
      check_profile(children[0], {{"main", 0}, {"main;forking()", 0}, {"main;forking();child_work()", 3}});
  } else if (scenario == "live_thread") {
    // A thread blocked when main returns: its calls so far are in the profile.
    check(run(subject, scenario, env, err) == 0, "exit status 0");
    check_profile(out, {{"main", 1}, {"main;live_thread()", 1}, {"sleeper(void*)", 1},
                        {"sleeper(void*);blocked()", 1}});
  } else if (scenario == "pool") {
    check(run(subject, scenario, env, err) == 0, "exit status 0");
    check_profile(out, {{"main", 1}, {"main;pool()", 1}, {"pool_worker(void*)", 3},
                        {"pool_worker(void*);task()", 12}, {"pool_worker(void*);task();task_step()", 24}});
  } else if (scenario == "detached") {
    // Whether the detached thread has ended when the process exits or not, its calls are there.
    check(run(subject, scenario, env, err) == 0, "exit status 0");
    check_profile(out, {{"main", 1}, {"main;detached()", 1}, {"detached_worker(void*)", 1},
                        {"detached_worker(void*);detached_work()", 4}});
  } else if (scenario == "signal") {
    check(run(subject, scenario, env, err) == 0, "exit status 0");
    check_profile(out, {{"main", 1}, {"main;signalling()", 1}, {"main;signalling();on_signal(int)", 5},
                        {"main;signalling();on_signal(int);handled()", 5}});
  } else if (scenario == "longjmp") {
    // jump_a() and jump_b() are left by longjmp, without their exit hooks: the next call closes
    // them, so after_jump() is longjumps()'s callee. Its frame is the function's own (the
    // address above its return address), not its hook's: under clang -O2 and AddressSanitizer
    // after_jump() saves more registers than jump_a() before its hook, and looked deeper than
    // it, its callee, when frames were the hooks'.
    const char* after_jump = "main;longjumps();after_jump()";
    check(run(subject, scenario, env, err) == 0, "exit status 0");
    check_profile(out, {{"main", 1}, {"main;longjumps()", 1}, {"main;longjumps();jump_a()", 3},
                        {"main;longjumps();jump_a();jump_b()", 3}, {after_jump, 3}});
  } else if (scenario == "inlined") {
    // inlined.cpp compiled with -O2: helper(), leaf_inline() and wraps_callee() are inlined
    // into caller(), their hooks run in caller()'s frame; each is still caller()'s callee, and
    // so are the calls after them (callee()). Before issue 46 they closed caller(): main;helper()
    // and main;callee().
    check(run(subject, scenario, env, err) == 0, "exit status 0");
    check_profile(out, {{"main", 1},
                        {"main;caller()", 3},
                        {"main;caller();helper()", 3},
                        {"main;caller();helper();helper_inner()", 3},
                        {"main;caller();leaf_inline()", 9},
                        {"main;caller();wraps_callee()", 3},
                        {"main;caller();wraps_callee();leaf_inline()", 3},
                        {"main;caller();wraps_callee();deep_callee()", 3},
                        {"main;caller();callee()", 3}});
  } else if (scenario == "atomic_deep") {
    // recurse(1000000) down to recurse(1), each level incrementing a std::atomic through the
    // standard library's operator++, inlined into it: a chain of 1,000,000 contexts of
    // recurse(int), each with one call and, beside the next level, one context of the atomic's
    // operator++ (and below it, with libc++, what it calls; libc++ hides their symbols, so
    // they are named MODULE+0xOFFSET), called once. Before issue 46 the inlined operator++
    // closed recurse() at every level: the chain came out 2 deep.
    constexpr std::size_t levels = 1'000'000;
    check(run(subject, scenario, env, err) == 0, "exit status 0");
    ccrc::profile p = ccrc::read_cctb_file(out.string());
    std::span<const double> calls = column(p, "calls");
    auto rec = p.symbols().find("recurse(int)");
    check(rec.has_value(), "a method recurse(int)");
    std::size_t depth = 0, not_chain = 0;
    const ccrc::node_id thread = find(p, {"deep_thread(void*)"});
    ccrc::node_id n = thread;
    check(n != ccrc::null_node, "a context deep_thread(void*)");
    while (n != ccrc::null_node && rec) {
      ccrc::node_id next = ccrc::null_node;
      std::size_t atomics = 0, others = 0;
      for (ccrc::node_id c : p.tree().children(n)) {
        if (p.tree().frame(c) == *rec && next == ccrc::null_node) next = c;
        else if (calls[c] == 1) ++atomics;
        else ++others;
      }
      if (n != thread && (atomics != 1 || others != 0 || calls[n] != 1)) ++not_chain;
      if (next != ccrc::null_node) ++depth;
      n = next;
    }
    check(depth == levels, "recursion depth " + std::to_string(depth) + ", expected " + std::to_string(levels));
    check(not_chain == 0, std::to_string(not_chain) + " levels that are not one call of recurse(int) with one atomic increment");
    check_time(p, out.string());
  } else if (scenario == "plugins") {
    // The plugin ONE loaded, one_work(3) called and ONE unloaded; then TWO loaded where ONE was
    // (the subject prints where each one's function was: the same address) and two_work(2)
    // called twice. Each is named, and so is the static spin() of each, by its own module:
    // before issue 46 both were one address, named at exit, when no module held it.
    if (argc != 6) throw std::runtime_error("plugins: give the two plugins after WORKDIR");
    fs::path one = argv[4], two = argv[5], captured = dir / "stdout.txt";
    check(instrument_test::run({subject, scenario, one.string(), two.string()}, env, err, captured) == 0,
          "exit status 0");
    std::istringstream printed(read_text(captured));
    std::string first, second;
    printed >> first >> second;
    check(!first.empty() && first == second,
          "the two plugins' functions at one address (else this test proves nothing): " + first + ", " + second);
    std::string spin_one = module_offset_name(one, symbol_value(one, "_ZN12_GLOBAL__N_14spinEj", dir));
    std::string spin_two = module_offset_name(two, symbol_value(two, "_ZN12_GLOBAL__N_14spinEj", dir));
    check_profile(out, {{"main", 1},
                        {"main;plugins(char const*, char const*)", 1},
                        {"main;plugins(char const*, char const*);run_plugin(char const*, char const*, unsigned int, int)", 2},
                        {"main;plugins(char const*, char const*);run_plugin(char const*, char const*, unsigned int, int);one_work", 1},
                        {"main;plugins(char const*, char const*);run_plugin(char const*, char const*, unsigned int, int);one_work;" + spin_one, 3},
                        {"main;plugins(char const*, char const*);run_plugin(char const*, char const*, unsigned int, int);two_work", 2},
                        {"main;plugins(char const*, char const*);run_plugin(char const*, char const*, unsigned int, int);two_work;" + spin_two, 4}});
  } else if (scenario == "sigprof") {
    // The program's own SIGPROF handler runs for its raise()s, and sigaction reports it; the
    // timer's SIGPROFs, which go on after the program set SIGPROF back to its default, neither
    // reach it nor end the program; spin_plain()'s 0.1 s of CPU time is sampled.
    fs::path captured = dir / "stdout.txt";
    check(instrument_test::run({subject, scenario}, env, err, captured) == 0, "exit status 0");
    check(read_text(captured) == "1\n", "sigaction reports the program's handler: '" + read_text(captured) + "'");
    check_profile(out, {{"main", 1},
                        {"main;sigprof()", 1},
                        {"main;sigprof();on_prof(int)", 3},
                        {"main;sigprof();on_prof(int);prof_work()", 3},
                        {"main;sigprof();spin_plain()", 1}});
    if (!timed_exactly()) {
      ccrc::profile p = ccrc::read_cctb_file(out.string());
      check(column(p, "samples")[find(p, {"main", "sigprof()", "spin_plain()"})] > 0, "spin_plain() has samples");
    }
  } else if (scenario == "time_settings") {
    // Settings out of range: said on stderr, the defaults used (sampled, 1000 a second).
    env.emplace_back("CCRC_TIME", "wall");
    env.emplace_back("CCRC_SAMPLE_HZ", "1k");
    check(run(subject, "loops", env, err) == 0, "exit status 0");
    std::string text = read_text(err);
    std::string message = "ccrc: CCRC_TIME must be 'sampled' or 'exact', not 'wall'; using sampled\n"
                          "ccrc: CCRC_SAMPLE_HZ must be a whole number from 1 to 100000, not '1k'; using 1000\n";
    check(text == message, "stderr is '" + text + "', expected '" + message + "'");
    ccrc::profile p = ccrc::read_cctb_file(out.string());
    check(p.find_metric("samples").has_value(), "timed by sampling");
    check_contexts(p, loops_contexts(), out.string());
    // A rate of its own: 250 a second, a period of 4 ms.
    env = {{"CCRC_OUT", out.string()}, {"CCRC_TIME", "sampled"}, {"CCRC_SAMPLE_HZ", "250"}};
    check(run(subject, "sigprof", env, err) == 0, "exit status 0");
    check_time(ccrc::read_cctb_file(out.string()), out.string() + " at 250 a second", 4e6);
  } else if (scenario == "unbalanced") {
    // Exits of leaf() and outer(), which are not open, are ignored: then loops() as usual.
    check(run(subject, scenario, env, err) == 0, "exit status 0");
    check_profile(out, {{"main", 1}, {"main;unbalanced()", 1}, {"main;unbalanced();loops()", 1},
                        {"main;unbalanced();loops();outer()", 10}, {"main;unbalanced();loops();outer();inner()", 30},
                        {"main;unbalanced();loops();outer();inner();leaf()", 60}});
  } else if (scenario == "unwritable") {
    // A $CCRC_OUT in a directory that does not exist: reported, and the status (3) kept.
    check_unwritable({subject, scenario}, 3, dir, err);
  } else if (scenario == "symbolize") {
    // statics() calls the static hidden_helper() 4 times: the loader has no name for it, so the
    // profile names it SUBJECT+0xOFFSET, and `ccrc symbolize PROFILE SUBJECT` names it from the
    // subject's symbol table, with the file and line of its debug information.
    // An optional sixth argument: the symbolizer ccrc symbolize runs (--addr2line).
    if (argc < 5) throw std::runtime_error("symbolize: give the ccrc tool after WORKDIR");
    check(run(subject, "statics", env, err) == 0, "exit status 0");
    std::string address = only_child(out, "main;statics()");
    check(address.starts_with(fs::path(subject).filename().string() + "+0x"), "the static function is '" + address + "'");
    check_profile(out, {{"main", 1}, {"main;statics()", 1}, {"main;statics();" + address, 4}});
    fs::path named = dir / "named.cctb", report = dir / "symbolize.txt";
    std::vector<std::string> symbolize{argv[4], "symbolize", out.string(), subject, "-o", named.string()};
    if (argc == 6) symbolize.insert(symbolize.end(), {"--addr2line", argv[5]});
    check(run(symbolize, {}, report) == 0, "ccrc symbolize: status 0");
    std::string name = only_child(named, "main;statics()");
    check(name.starts_with("hidden_helper() ") && name.ends_with("/" + subject_line("static NOINLINE void hidden_helper()")),
          "the static function is named '" + name + "'");
    check_profile(named, {{"main", 1}, {"main;statics()", 1}, {"main;statics();" + name, 4}});
    std::string text = read_text(report);
    check(text == "ccrc symbolize: named 1 of 1 methods given as module+offset\n", "ccrc symbolize says '" + text + "'");
    // Without BINARY: the subject found on $PATH (its directory put first), and said so.
    fs::path found = dir / "found.cctb";
    std::vector<std::string> search{argv[4], "symbolize", out.string(), "-o", found.string()};
    if (argc == 6) search.insert(search.end(), {"--addr2line", argv[5]});
    const char* path = std::getenv("PATH");
    std::string with_subject = fs::path(subject).parent_path().string() + ":" + (path ? path : "");
    check(run(search, {{"PATH", with_subject}}, report) == 0, "ccrc symbolize without BINARY: status 0");
    check(only_child(found, "main;statics()") == name, "without BINARY, the static function is named '" +
                                                          only_child(found, "main;statics()") + "'");
    text = read_text(report);
    std::string expected = "ccrc symbolize: " + fs::path(subject).filename().string() + " from " + subject +
                           "\nccrc symbolize: named 1 of 1 methods given as module+offset\n";
    check(text == expected, "ccrc symbolize without BINARY says '" + text + "', expected '" + expected + "'");
    // An address in the subject's .plt (where a sample lands in a stub, named by the section's
    // start: its unwind region's), which no symbol covers: named as a PLT stub of the subject.
    fs::path sections = dir / "sections.txt";
    check(run({"readelf", "-SW", subject}, {}, dir / "readelf-stderr.txt", sections) == 0, "readelf -SW: status 0");
    std::string plt;
    std::istringstream lines(read_text(sections));
    for (std::string line; std::getline(lines, line);)
      if (std::size_t at = line.find("] .plt "); at != std::string::npos) {
        std::istringstream fields(line.substr(at + 2));
        std::string section, type, start;
        fields >> section >> type >> start;
        plt = module_offset_name(subject, start);
      }
    check(!plt.empty(), "the subject has a .plt section");
    fs::path stub = dir / "plt.folded", stub_named = dir / "plt.cctb";
    std::ofstream(stub) << "main;statics();" << plt << " 3\n";
    check(run({argv[4], "symbolize", stub.string(), subject, "-o", stub_named.string()}, {}, report) == 0,
          "ccrc symbolize (a PLT address): status 0");
    std::string stub_name = only_child(stub_named, "main;statics()");
    check(stub_name == "[plt] (" + fs::path(subject).filename().string() + ")", "the PLT address is named '" + stub_name + "'");
  } else {
    std::cerr << "unknown scenario " << scenario << "\n";
    return 2;
  }
  return verdict(scenario, err, scenario != "unwritable" && scenario != "fsize" && scenario != "time_settings");
} catch (const std::exception& e) {
  std::cerr << "instrument_check: " << e.what() << "\n";
  return 1;
}
