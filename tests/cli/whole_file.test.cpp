// examples/whole_file/whole_file.hpp, which the tool's outputs and the profilers' profiles share:
// where the content goes, and the temporary file's name and creation.
#include "support/tool.hpp"
#include "whole_file.hpp"

#include <doctest/doctest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace fs = std::filesystem;

bool hex_digits(const std::string& s) { return s.find_first_not_of("0123456789abcdef") == std::string::npos; }

}  // namespace

TEST_CASE("whole_file: the temporary file is PATH.ccrc-tmp- and 16 random hex digits, removed unless committed") {
  std::string path = test::write_temp("whole.txt", "OLD\n");
  std::string a_name, b_name;
  {
    ccrc_files::whole_file a, b;
    REQUIRE(a.open(path) == 0);
    REQUIRE(b.open(path) == 0);
    a_name = a.temporary();
    b_name = b.temporary();
    CHECK(a_name != b_name);
    for (const std::string& t : {a_name, b_name}) {
      REQUIRE(t.size() == path.size() + 10 + 16);
      CHECK(t.substr(0, path.size() + 10) == path + ".ccrc-tmp-");
      CHECK(hex_digits(t.substr(path.size() + 10)));
      CHECK(fs::is_regular_file(fs::symlink_status(t)));
    }
    a.stream() << "NEW\n";
  }
  CHECK(!fs::exists(fs::symlink_status(a_name)));
  CHECK(!fs::exists(fs::symlink_status(b_name)));
  CHECK(test::read_file(path) == "OLD\n");
  fs::remove(path);
}

TEST_CASE("whole_file: create_exclusive never opens what is planted at the name, a symbolic link above all") {
  std::string victim = test::write_temp("excl-victim.txt", "VICTIM\n");
  std::string name = test::write_temp("excl-planted", "");
  fs::remove(name);
  fs::create_symlink(victim, name);
  errno = 0;
  CHECK(ccrc_files::create_exclusive(name) == -1);
  CHECK(errno == EEXIST);
  CHECK(test::read_file(victim) == "VICTIM\n");
  // A dangling link: nothing is created where it points.
  std::string nowhere = victim + ".nowhere";
  fs::remove(name);
  fs::create_symlink(nowhere, name);
  CHECK(ccrc_files::create_exclusive(name) == -1);
  CHECK(errno == EEXIST);
  CHECK(!fs::exists(nowhere));
  // A free name is created, empty, for writing.
  fs::remove(name);
  int fd = ccrc_files::create_exclusive(name);
  CHECK(fd >= 0);
  CHECK(write(fd, "x", 1) == 1);
  close(fd);
  CHECK(test::read_file(name) == "x");
  for (const auto& p : {victim, name}) fs::remove(p);
}

TEST_CASE("whole_file: commit replaces the file with its permissions; through a link, the file linked to") {
  std::string path = test::write_temp("perm.txt", "OLD\n");
  fs::permissions(path, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  std::string link = test::write_temp("perm-link.txt", "");
  fs::remove(link);
  fs::create_symlink(path, link);
  ccrc_files::whole_file f;
  REQUIRE(f.open(link) == 0);
  CHECK(f.temporary().rfind(path + ".ccrc-tmp-", 0) == 0);  // beside the file, not the link
  f.stream() << "NEW\n";
  CHECK(f.commit() == 0);
  CHECK(f.temporary().empty());
  CHECK(fs::is_symlink(link));
  CHECK(test::read_file(path) == "NEW\n");
  CHECK(fs::status(path).permissions() == (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read));
  CHECK(test::temporaries_of(path) == 0);
  for (const auto& p : {path, link}) fs::remove(p);
}

TEST_CASE("whole_file: a directory is refused, a failed write is reported with its errno") {
  ccrc_files::whole_file f;
  CHECK(f.open(CCRC_TEST_TMP) == EISDIR);
  if (fs::exists("/dev/full")) {
    // A device: written in place, no temporary; the write fails at the flush.
    REQUIRE(f.open("/dev/full") == 0);
    CHECK(f.temporary().empty());
    f.stream() << "x";
    CHECK(f.commit() == ENOSPC);
  }
  std::string missing = std::string(CCRC_TEST_TMP) + "/no-such-directory/out.txt";
  CHECK(f.open(missing) == ENOENT);
}

TEST_CASE("whole_file: the temporary file has the permissions of the file it replaces from the start") {
  // Issue 45: it was made 0666 less the umask whatever it replaced: a profile only its owner
  // may read was readable by others while it was written.
  std::string path = test::write_temp("private.cctb", "OLD\n");
  fs::permissions(path, fs::perms::owner_read | fs::perms::owner_write);
  ccrc_files::whole_file f;
  REQUIRE(f.open(path) == 0);
  CHECK(fs::status(f.temporary()).permissions() == (fs::perms::owner_read | fs::perms::owner_write));
  f.discard();
  // A new file's: 0666 less the umask, the permissions it will have.
  fs::remove(path);
  const mode_t mask = umask(022);
  REQUIRE(f.open(path) == 0);
  CHECK(fs::status(f.temporary()).permissions() ==
        (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read | fs::perms::others_read));
  f.stream() << "NEW\n";
  CHECK(f.commit() == 0);
  umask(mask);
  CHECK((fs::status(path).permissions() & fs::perms::others_write) == fs::perms::none);
  fs::remove(path);
}

TEST_CASE("whole_file: a temporary file its writer left is removed when the file is written again; one being written is not") {
  // Issue 45: one left by SIGKILL stayed for good. A temporary is locked while it is written:
  // only this user's regular files, of this destination's name and the 16 hex digits, that no
  // process holds locked, are removed.
  std::string path = test::write_temp("stale.txt", "OLD\n");
  const std::string stale = path + ".ccrc-tmp-0123456789abcdef", other_name = path + ".ccrc-tmp-0123456789ABCDEF",
                    short_name = path + ".ccrc-tmp-0123456789abcde", planted = path + ".ccrc-tmp-fedcba9876543210",
                    victim = test::write_temp("stale-victim.txt", "VICTIM\n");
  const std::string others = path + ".ccrc-tmp-00000000000000ff";
  for (const std::string& name : {stale, other_name, short_name, others}) std::ofstream(name) << "LEFT\n";
  fs::create_symlink(victim, planted);
  const bool as_another_user = chown(others.c_str(), 65534, 65534) == 0;  // where this process may (root)
  ccrc_files::whole_file writing;
  REQUIRE(writing.open(path) == 0);  // removes the stale one
  CHECK(!fs::exists(fs::symlink_status(stale)));
  for (const std::string& kept : {other_name, short_name}) CHECK(test::read_file(kept) == "LEFT\n");
  CHECK(fs::exists(others) == as_another_user);
  CHECK(fs::is_symlink(planted));
  CHECK(test::read_file(victim) == "VICTIM\n");
  // Another writer of the same file, while the first one writes: the first one's is kept.
  ccrc_files::whole_file second;
  REQUIRE(second.open(path) == 0);
  CHECK(fs::is_regular_file(fs::symlink_status(writing.temporary())));
  CHECK(ccrc_files::remove_stale_temporaries(path) == 0);
  // Its writer gone without removing it (its descriptor closed, the file left as SIGKILL
  // would leave it): removed.
  const std::string left = writing.temporary();
  REQUIRE(fs::copy_file(left, left + ".copy"));
  writing.discard();
  fs::rename(left + ".copy", left);
  CHECK(ccrc_files::remove_stale_temporaries(path) == 1);
  CHECK(!fs::exists(fs::symlink_status(left)));
  CHECK(fs::is_regular_file(fs::symlink_status(second.temporary())));
  second.discard();
  for (const auto& p : {path, other_name, short_name, others, planted, victim}) fs::remove(p);
}

TEST_CASE("whole_file: writers of one file at once all commit: none removes another's temporary as if left behind") {
  // Its lock is held until the rename, not only until the descriptor written is closed: a
  // writer opening meanwhile took the temporary for one left behind and removed it, and the
  // rename failed (ENOENT; eight Python threads writing eight files, 64 times, hit it).
  std::string path = test::write_temp("raced.txt", "");
  std::atomic<int> failures{0};
  std::vector<std::thread> writers;
  for (int t = 0; t < 8; ++t)
    writers.emplace_back([&, t] {
      for (int i = 0; i < 40; ++i) {
        ccrc_files::whole_file f;
        if (f.open(path) != 0) ++failures;
        f.stream() << "writer " << t << "\n";
        if (f.commit() != 0) ++failures;
      }
    });
  for (std::thread& w : writers) w.join();
  CHECK(failures == 0);
  CHECK(test::read_file(path).rfind("writer ", 0) == 0);
  CHECK(test::temporaries_of(path) == 0);
  fs::remove(path);
}
