// Issue 37: the tool's output files against a hostile file system and hostile signals. A
// symbolic link planted where the temporary file used to be named is not followed; a file the
// process has open, named through /proc, is appended to, not replaced; special files are
// written in place; a file-size limit and a termination signal leave OUT as it was and no
// temporary file behind.
#include "support/tool.hpp"

#include <doctest/doctest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <string>

namespace {

namespace fs = std::filesystem;

// What `ccrc convert figure1.folded X.folded` writes.
std::string figure1_folded() {
  std::string out = test::write_temp("reference.folded", "");
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
  CHECK(test::read_file(out) == figure1_folded());
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
  CHECK(test::read_file(captured) == "before\n" + figure1_folded());
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
  CHECK(got == figure1_folded());
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

TEST_CASE("a command killed by SIGTERM, SIGINT or SIGHUP while writing removes its temporary file; OUT is kept") {
  std::string in = test::write_temp("killed.cctb", "");
  REQUIRE(test::run_tool("generate --nodes 200000 --depth 20 --methods 2000 -o '" + in + "'").status == 0);
  for (int sig : {SIGTERM, SIGINT, SIGHUP}) {
    CAPTURE(sig);
    std::string out = test::write_temp("killed-" + std::to_string(sig) + ".cct", "KEEP\n");
    pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
      // As a shell starts a command: the default actions, whatever this process inherited.
      for (int s : {SIGTERM, SIGINT, SIGHUP}) signal(s, SIG_DFL);
      int null = open("/dev/null", O_WRONLY);
      dup2(null, 1);
      dup2(null, 2);
      execl(CCRC_TOOL, "ccrc", "convert", in.c_str(), out.c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    // The signal goes as soon as the temporary file appears (the write takes a good part of a
    // second: 200,000 contexts of text).
    bool seen = false;
    int status = 0;
    bool ended = false;
    for (int i = 0; i < 100'000 && !seen && !ended; ++i) {
      seen = test::temporaries_of(out) > 0;
      if (!seen) {
        ended = waitpid(child, &status, WNOHANG) == child;
        usleep(100);
      }
    }
    if (!seen && !ended) {
      kill(child, SIGKILL);
      waitpid(child, &status, 0);
    }
    REQUIRE_MESSAGE(seen, "the temporary file was never seen: the command ended first or took too long");
    kill(child, sig);
    REQUIRE(waitpid(child, &status, 0) == child);
    CHECK(WIFSIGNALED(status));
    CHECK(WTERMSIG(status) == sig);
    CHECK(test::read_file(out) == "KEEP\n");
    CHECK(test::temporaries_of(out) == 0);
    fs::remove(out);
  }
  fs::remove(in);
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
    CHECK(test::read_file(victim) == figure1_folded());
    CHECK(fs::is_symlink(link));
  }
  fs::remove_all(shared);
  fs::remove(victim);
}
