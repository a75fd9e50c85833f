// Issue 37: the tool's output files against a hostile file system and hostile signals. A
// symbolic link planted where the temporary file used to be named is not followed; a file the
// process has open, named through /proc, is appended to, not replaced; special files are
// written in place; a file-size limit and a termination signal leave OUT as it was and no
// temporary file behind.
#include "support/tool.hpp"

#include <doctest/doctest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <string>

namespace {

namespace fs = std::filesystem;

// What `ccrc convert figure1.folded X.EXTENSION` writes.
std::string figure1_as(const std::string& extension = ".folded") {
  std::string out = test::write_temp("reference" + extension, "");
  REQUIRE(test::run_tool("convert " + test::figure1_path + " '" + out + "'").status == 0);
  std::string text = test::read_file(out);
  fs::remove(out);
  return text;
}

}  // namespace

TEST_CASE("a symbolic link planted at the old temporary name (OUT.ccrc-tmp-PID-1) is not followed") {
  std::string victim = test::write_temp("victim.txt", "VICTIM\n");
  std::string out = test::write_temp("planted.folded", "KEEP\n");
  // The shell plants the link, then becomes the tool: $$ is the tool's process id.
  auto r = test::run_tool("convert " + test::figure1_path + " '" + out + "'",
                          "ln -s '" + victim + "' \"" + out + ".ccrc-tmp-$$-1\" && exec ");
  CHECK(r.status == 0);
  CHECK(test::read_file(victim) == "VICTIM\n");
  CHECK(fs::is_regular_file(fs::symlink_status(out)));
  CHECK(test::read_file(out) == figure1_as());
  // The planted link is not the tool's: it is left, and it is the only entry of that name.
  CHECK(test::temporaries_of(out) == 1);
  for (const auto& e : fs::directory_iterator(CCRC_TEST_TMP))
    if (e.path().filename().string().rfind(fs::path(out).filename().string() + ".ccrc-tmp-", 0) == 0)
      fs::remove(e.path());
  for (const auto& p : {victim, out}) fs::remove(p);
}

TEST_CASE("a file the tool has open, named through /proc (/dev/stdout), is appended to, not replaced") {
  std::string link = test::write_temp("stdout-link.folded", "");
  fs::remove(link);
  fs::create_symlink("/proc/self/fd/1", link);
  std::string captured = test::write_temp("captured.txt", "");
  auto r = test::run_tool("convert " + test::figure1_path + " '" + link + "'",
                          "exec >'" + captured + "'; echo before; exec ");
  CHECK(r.status == 0);
  CHECK(test::read_file(captured) == "before\n" + figure1_as());
  CHECK(fs::is_symlink(link));
  CHECK(test::temporaries_of(link) == 0);
  for (const auto& p : {link, captured}) fs::remove(p);
}

TEST_CASE("a FIFO and a device named as OUT are written in place, never replaced") {
  std::string fifo = test::write_temp("out-fifo.folded", "");
  fs::remove(fifo);
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  // The reader is open before the tool runs: the tool's open does not block, and the profile
  // (well below a pipe's 64 KiB) waits in the pipe.
  int reader = open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  REQUIRE(reader >= 0);
  CHECK(test::run_tool("convert " + test::figure1_path + " '" + fifo + "'").status == 0);
  std::string got;
  char buf[4096];
  for (ssize_t n; (n = read(reader, buf, sizeof buf)) > 0;) got.append(buf, static_cast<std::size_t>(n));
  close(reader);
  CHECK(got == figure1_as());
  CHECK(fs::is_fifo(fs::symlink_status(fifo)));
  fs::remove(fifo);

  // A device node like /dev/null, where this process may make one (root).
  std::string device = test::write_temp("out-null.folded", "");
  fs::remove(device);
  if (mknod(device.c_str(), S_IFCHR | 0600, makedev(1, 3)) != 0) {
    MESSAGE("no device node test: mknod is not permitted here");
    return;
  }
  CHECK(test::run_tool("convert " + test::figure1_path + " '" + device + "'").status == 0);
  struct stat st {};
  REQUIRE(lstat(device.c_str(), &st) == 0);
  CHECK(S_ISCHR(st.st_mode));
  CHECK(st.st_rdev == makedev(1, 3));
  CHECK(test::temporaries_of(device) == 0);
  fs::remove(device);
}

TEST_CASE("a write beyond RLIMIT_FSIZE is an error naming OUT, not SIGXFSZ: OUT kept, no temporary left") {
  std::string in = test::write_temp("fsize.cctb", "");
  REQUIRE(test::run_tool("generate --nodes 2000 --depth 12 --methods 50 -o '" + in + "'").status == 0);
  std::string out = test::write_temp("fsize.cct", "KEEP\n");
  // 4 blocks: 2 KiB (dash) or 4 KiB (bash), far below the 60 KB of text, above the message.
  auto r = test::run_tool("convert '" + in + "' '" + out + "'", "ulimit -f 4; exec ");
  CHECK(r.status == 1);
  CHECK(r.err == "ccrc convert: cannot write " + out + ": File too large\n");
  CHECK(test::read_file(out) == "KEEP\n");
  CHECK(test::temporaries_of(out) == 0);
  for (const auto& p : {in, out}) fs::remove(p);
}

namespace {

// Starts `ccrc convert IN OUT` with the default action for every signal, its stdout and stderr
// to /dev/null and no core file; returns its id once OUT's temporary file exists (0 if the
// command ended first or took more than 10 s).
pid_t convert_until_its_temporary(const std::string& in, const std::string& out) {
  pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    // As a shell starts a command: every signal's default action, none blocked.
    for (int s = 1; s < NSIG; ++s) signal(s, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    rlimit no_core{0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(null, 2);
    execl(CCRC_TOOL, "ccrc", "convert", in.c_str(), out.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  // The write takes a good part of a second (200,000 contexts of text).
  int status = 0;
  for (int i = 0; i < 100'000; ++i) {
    if (test::temporaries_of(out) > 0) return child;
    if (waitpid(child, &status, WNOHANG) == child) return 0;
    usleep(100);
  }
  kill(child, SIGKILL);
  waitpid(child, &status, 0);
  return 0;
}

}  // namespace

TEST_CASE("a command ended by any signal it can catch while writing removes its temporary file; OUT is kept") {
  // Issue 45: SIGQUIT, SIGUSR1, SIGALRM, SIGXCPU... left it behind (only SIGTERM, SIGINT and
  // SIGHUP were handled). SIGXFSZ is ignored (a write beyond the limit fails, above).
  std::string in = test::write_temp("killed.cctb", "");
  REQUIRE(test::run_tool("generate --nodes 200000 --depth 20 --methods 2000 -o '" + in + "'").status == 0);
  for (int sig : {SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGXCPU, SIGVTALRM, SIGPROF, SIGPIPE}) {
    CAPTURE(sig);
    std::string out = test::write_temp("killed-" + std::to_string(sig) + ".cct", "KEEP\n");
    pid_t child = convert_until_its_temporary(in, out);
    REQUIRE_MESSAGE(child > 0, "the temporary file was never seen: the command ended first or took too long");
    kill(child, sig);
    int status = 0;
    REQUIRE(waitpid(child, &status, 0) == child);
    CHECK(WIFSIGNALED(status));
    CHECK(WTERMSIG(status) == sig);
    CHECK(test::read_file(out) == "KEEP\n");
    CHECK(test::temporaries_of(out) == 0);
    fs::remove(out);
  }
  fs::remove(in);
}

TEST_CASE("a temporary file left by SIGKILL is removed by the next command that writes OUT") {
  // Issue 45: SIGKILL cannot be caught: its temporary file stayed for good. The next run
  // finds it unlocked (its writer is gone) and removes it. (One still being written is
  // locked, and kept: tests/cli/whole_file.test.cpp.)
  std::string in = test::write_temp("sigkill.cctb", "");
  REQUIRE(test::run_tool("generate --nodes 200000 --depth 20 --methods 2000 -o '" + in + "'").status == 0);
  std::string out = test::write_temp("sigkill.cct", "KEEP\n");
  pid_t child = convert_until_its_temporary(in, out);
  REQUIRE(child > 0);
  kill(child, SIGKILL);
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  CHECK(test::temporaries_of(out) == 1);
  CHECK(test::read_file(out) == "KEEP\n");
  CHECK(test::run_tool("convert " + test::figure1_path + " '" + out + "'").status == 0);
  CHECK(test::temporaries_of(out) == 0);
  CHECK(test::read_file(out) == figure1_as(".cct"));
  for (const auto& p : {in, out}) fs::remove(p);
}

TEST_CASE("OUT a symbolic link planted in a sticky world-writable directory by another user is refused, as the kernel would") {
  // As fs.protected_symlinks: the link belongs neither to this user nor to the directory's
  // owner. Making it another user's takes root (lchown).
  fs::path shared = test::write_temp("sticky", "");
  fs::remove(shared);
  fs::create_directory(shared);
  fs::permissions(shared, fs::perms::all | fs::perms::sticky_bit);
  std::string victim = test::write_temp("sticky-victim.folded", "VICTIM\n");
  fs::path link = shared / "out.folded";
  fs::create_symlink(victim, link);
  if (lchown(link.c_str(), 65534, 65534) != 0) {
    MESSAGE("no planted link test: lchown is not permitted here");
  } else {
    auto r = test::run_tool("convert " + test::figure1_path + " '" + link.string() + "'");
    CHECK(r.status == 1);
    CHECK(r.err == "ccrc convert: cannot write " + link.string() + ": Permission denied\n");
    CHECK(test::read_file(victim) == "VICTIM\n");
    // A link of this user's own, there, is followed: the file it points to is replaced.
    fs::remove(link);
    fs::create_symlink(victim, link);
    CHECK(test::run_tool("convert " + test::figure1_path + " '" + link.string() + "'").status == 0);
    CHECK(test::read_file(victim) == figure1_as());
    CHECK(fs::is_symlink(link));
  }
  fs::remove_all(shared);
  fs::remove(victim);
}

TEST_CASE("an output that is one of the inputs is refused, naming it, in every command; the input is kept") {
  // Issue 45: `ccrc view P -o P` replaced the profile with the page, status 0. The same file
  // through another name (a link) is refused too; symbolize, which rewrites its input by
  // design, is the exception (its default output is its input). Inputs are read by their
  // content, so each is named as the output its command accepts.
  const std::string profile = test::read_file(test::figure1_path);
  const std::string in = test::write_temp("same.folded", profile), other = test::write_temp("same-other.folded", profile),
                    svg = test::write_temp("same-in.svg", profile), page = test::write_temp("same-in.html", profile),
                    json = test::write_temp("same-in.json", profile), list = test::write_temp("same-list.txt", in + "\n");
  const std::string link = test::write_temp("same-link.folded", "");
  fs::remove(link);
  fs::create_symlink(in, link);
  for (const std::string& args :
       {"convert '" + in + "' '" + in + "'", "convert '" + in + "' -o '" + link + "'", "render '" + svg + "' -o '" + svg + "'",
        "view '" + other + "' --compare '" + page + "' -o '" + page + "'", "diff '" + other + "' '" + json + "' -o '" + json + "'",
        "diff '" + other + "' '" + other + "' --modified '" + json + "' -o '" + json + "'",
        "merge '" + other + "' '" + in + "' -o '" + in + "'", "merge '@" + list + "' -o '" + link + "'",
        "merge '@" + list + "' -o '" + list + "'"}) {
    CAPTURE(args);
    test::run_result r = test::run_tool(args);
    CHECK(r.status == 1);
    CHECK(r.err.find(": it is ") != std::string::npos);
    CHECK(r.err.find(", which the output would replace: name another output\n") != std::string::npos);
    for (const std::string& kept : {in, svg, page, json}) CHECK(test::read_file(kept) == profile);
    CHECK(test::read_file(list) == in + "\n");
    CHECK(fs::is_symlink(link));
  }
  CHECK(test::run_tool("convert '" + in + "' '" + in + "'").err ==
        "ccrc convert: cannot write " + in + ": it is an input, which the output would replace: name another output\n");
  CHECK(test::run_tool("convert '" + in + "' -o '" + link + "'").err ==
        "ccrc convert: cannot write " + link + ": it is the input " + in +
            " (the same file), which the output would replace: name another output\n");
  // Not the same file: written as before.
  CHECK(test::run_tool("convert '" + in + "' -o '" + other + "'").status == 0);
  for (const auto& p : {in, other, svg, page, json, list, link}) fs::remove(p);
}

TEST_CASE("ccrc view writes only a name ending in .html or .htm, or -: a profile's name is a slip") {
  // Issue 45: `ccrc view run.folded -o run.cctb` wrote the page over a profile of that name.
  const std::string cctb = test::write_temp("not-a-page.cctb", "KEEP\n");
  test::run_result r = test::run_tool("view " + test::figure1_path + " -o '" + cctb + "'");
  CHECK(r.status == 2);
  CHECK(r.err.rfind("ccrc view: -o expects a file ending in .html or .htm, or -, not '" + cctb + "'\n", 0) == 0);
  CHECK(test::read_file(cctb) == "KEEP\n");
  const std::string htm = test::write_temp("page.htm", "");
  CHECK(test::run_tool("view " + test::figure1_path + " -o '" + htm + "'").status == 0);
  CHECK(test::read_file(htm).rfind("<!DOCTYPE html>", 0) == 0);
  for (const auto& p : {cctb, htm}) fs::remove(p);
}
