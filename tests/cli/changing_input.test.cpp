// Issue 45: an input that another program cuts short while the tool reads it (`perf script >
// f` truncates f first) killed the tool with SIGBUS when it was mapped, with no message, and
// took the inputs of `merge --keep-going` with it. Now: an error naming the file, status 1;
// --keep-going names it, skips it, and writes the rest.
//
// Deterministic: the tool runs under ptrace, and the file is truncated right after the
// tool's first read() of it has returned (its first 4 KiB, which tell the format), before the
// second.
#include "support/tool.hpp"

#include <doctest/doctest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

#if defined(__linux__) && defined(PTRACE_GET_SYSCALL_INFO)
constexpr bool traceable = true;

// Runs the tool with `args` under ptrace: once a read() of the file `victim` has returned
// bytes, the file is cut to `keep` bytes. Returns the status and stderr.
test::run_result run_cutting(const std::vector<std::string>& args, const std::string& victim, off_t keep) {
  const std::string err_file = test::write_temp("cut-stderr.txt", "");
  const std::string target = fs::canonical(victim).string();
  pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    int err = open(err_file.c_str(), O_WRONLY | O_TRUNC);
    int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(err, 2);
    std::vector<char*> argv{const_cast<char*>("ccrc")};
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    // LeakSanitizer's check at exit cannot run under ptrace (the sanitize build's tool).
    setenv("ASAN_OPTIONS", "detect_leaks=0", 1);
    ptrace(PTRACE_TRACEME, 0, nullptr, nullptr);
    raise(SIGSTOP);
    execv(CCRC_TOOL, argv.data());
    _exit(127);
  }
  int status = 0;
  waitpid(child, &status, 0);  // stopped by its SIGSTOP
  ptrace(PTRACE_SETOPTIONS, child, nullptr, PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL);
  bool cut = false;
  long reading = -1;  // the descriptor of the read() under way, if any
  int pass = 0;       // a signal to hand on
  for (;;) {
    ptrace(PTRACE_SYSCALL, child, nullptr, pass);
    pass = 0;
    if (waitpid(child, &status, 0) != child || WIFEXITED(status) || WIFSIGNALED(status)) break;
    if (!WIFSTOPPED(status)) continue;
    if (WSTOPSIG(status) != (SIGTRAP | 0x80)) {
      if (WSTOPSIG(status) != SIGTRAP) pass = WSTOPSIG(status);  // SIGTRAP: the exec's
      continue;
    }
    __ptrace_syscall_info info{};
    if (ptrace(PTRACE_GET_SYSCALL_INFO, child, sizeof info, &info) <= 0) continue;
    if (info.op == PTRACE_SYSCALL_INFO_ENTRY) {
      reading = info.entry.nr == SYS_read ? static_cast<long>(info.entry.args[0]) : -1;
    } else if (info.op == PTRACE_SYSCALL_INFO_EXIT && reading >= 0 && info.exit.rval > 0 && !cut) {
      char link[PATH_MAX] = {};
      std::string fd = "/proc/" + std::to_string(child) + "/fd/" + std::to_string(reading);
      if (readlink(fd.c_str(), link, sizeof link - 1) > 0 && target == link) {
        REQUIRE(truncate(victim.c_str(), keep) == 0);
        cut = true;
      }
    }
  }
  test::run_result r{WIFEXITED(status) ? WEXITSTATUS(status) : -1, {}, test::read_file(err_file)};
  fs::remove(err_file);
  CHECK_MESSAGE(cut, (std::string("the file was never read: ") + r.err));
  return r;
}
#else
constexpr bool traceable = false;
test::run_result run_cutting(const std::vector<std::string>&, const std::string&, off_t) { return {}; }
#endif

// A folded profile of `lines` stacks: 20 bytes a line or more.
std::string folded(int lines) {
  std::string text = "# metrics: calls\n";
  for (int i = 0; i < lines; ++i) text += "main;work;step" + std::to_string(i) + " 1\n";
  return text;
}

}  // namespace

TEST_CASE("an input cut short while it is read is an error naming it, in every command that reads one" *
          doctest::skip(!traceable)) {
  const std::string text = folded(2000);  // 50 KB: many reads after the first
  const std::string in = test::write_temp("cut.folded", text);
  const std::string bytes = std::to_string(text.size());
  struct command {
    std::vector<std::string> args;
    std::string out;  // the output it would write, which must stay as it was
  };
  const std::string kept = test::write_temp("cut-kept.cctb", "KEEP\n"), page = test::write_temp("cut-kept.html", "KEEP\n"),
                    chart = test::write_temp("cut-kept.svg", "KEEP\n");
  for (const command& c : {command{{"stats", in}, ""}, command{{"convert", in, kept}, kept},
                           command{{"render", in, "-o", chart}, chart}, command{{"view", in, "-o", page}, page}}) {
    CAPTURE(c.args[0]);
    test::write_temp("cut.folded", text);  // whole again
    test::run_result r = run_cutting(c.args, in, 100);
    CHECK(r.status == 1);
    CHECK(r.err == "ccrc " + c.args[0] + ": " + in + ": the file shrank while it was read (" + bytes +
                       " bytes when opened, 100 now): was another program writing it?\n");
    if (!c.out.empty()) {
      CHECK(test::read_file(c.out) == "KEEP\n");
      CHECK(test::temporaries_of(c.out) == 0);
    }
  }
  for (const auto& p : {in, kept, page, chart}) fs::remove(p);
}

TEST_CASE("merge --keep-going names an input cut short while it is read, skips it, and writes the others" *
          doctest::skip(!traceable)) {
  const std::string good = test::write_temp("cut-good.folded", "main;a 2\nmain;b 3\n");
  const std::string text = folded(2000);
  const std::string cut = test::write_temp("cut-merged.folded", text);
  const std::string out = test::write_temp("cut-merge.folded", "");
  test::run_result r = run_cutting({"merge", good, cut, "-o", out, "--keep-going", "--threads", "1"}, cut, 100);
  CHECK(r.status == 0);
  CHECK(r.err.find("ccrc merge: skipped " + cut + ": the file shrank while it was read (" + std::to_string(text.size()) +
                   " bytes when opened, 100 now): was another program writing it?\n") != std::string::npos);
  CHECK(r.err.find("ccrc merge: skipped 1 of 2 inputs\n") != std::string::npos);
  CHECK(test::read_file(out) == "# metrics: samples\nmain;a 2\nmain;b 3\n");

  // Without --keep-going, the merge stops at it, naming it; nothing is written.
  test::write_temp("cut-merged.folded", text);
  test::write_temp("cut-merge.folded", "KEEP\n");
  test::run_result stopped = run_cutting({"merge", good, cut, "-o", out, "--threads", "1"}, cut, 100);
  CHECK(stopped.status == 1);
  CHECK(stopped.err.find(cut + ": the file shrank while it was read") != std::string::npos);
  CHECK(test::read_file(out) == "KEEP\n");
  for (const auto& p : {good, cut, out}) fs::remove(p);
}
