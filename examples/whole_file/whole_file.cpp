// A file written whole or not at all: see whole_file.hpp.
#include "whole_file.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <mutex>
#include <string>
#include <string_view>

namespace ccrc_files {

void fd_buffer::attach(int fd) noexcept {
  close();
  fd_ = fd;
  error_ = 0;
  setp(space_.data(), space_.data() + space_.size());
}

bool fd_buffer::write_all(const char* p, std::size_t n) noexcept {
  while (n > 0 && error_ == 0) {
    ssize_t done = ::write(fd_, p, n);
    if (done < 0) {
      if (errno != EINTR) error_ = errno;
      continue;
    }
    p += done;
    n -= static_cast<std::size_t>(done);
  }
  return error_ == 0;
}

bool fd_buffer::flush_buffer() noexcept {
  bool ok = fd_ < 0 ? false : write_all(pbase(), static_cast<std::size_t>(pptr() - pbase()));
  setp(space_.data(), space_.data() + space_.size());
  if (fd_ < 0 && error_ == 0) error_ = EBADF;
  return ok;
}

fd_buffer::int_type fd_buffer::overflow(int_type c) {
  if (!flush_buffer()) return traits_type::eof();
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  *pptr() = traits_type::to_char_type(c);
  pbump(1);
  return c;
}

std::streamsize fd_buffer::xsputn(const char* s, std::streamsize n) {
  auto size = static_cast<std::size_t>(n);
  if (size <= static_cast<std::size_t>(epptr() - pptr())) {
    traits_type::copy(pptr(), s, size);
    pbump(static_cast<int>(n));
    return n;
  }
  // Larger than the room left: what is buffered, then the piece itself, unbuffered.
  if (!flush_buffer()) return 0;
  if (size >= space_.size()) return write_all(s, size) ? n : 0;
  traits_type::copy(pptr(), s, size);
  pbump(static_cast<int>(n));
  return n;
}

int fd_buffer::sync() { return flush_buffer() ? 0 : -1; }

int fd_buffer::close() noexcept {
  if (fd_ < 0) return error_;
  flush_buffer();
  if (::close(fd_) != 0 && error_ == 0 && errno != EINTR) error_ = errno;
  fd_ = -1;
  return error_;
}

namespace {

// Where the content of `path` goes: see whole_file.hpp.
struct destination {
  std::string name;      // the file written, or renamed over
  bool in_place = false;
  bool append = false;   // an open file reached through /proc
};

// The text of the symbolic link `link`, relative to the link's directory made relative to
// the current one (as the kernel would resolve it); false with errno on failure.
bool link_target(const std::string& link, std::string& target) {
  std::string text(256, '\0');
  for (;;) {
    ssize_t n = ::readlink(link.c_str(), text.data(), text.size());
    if (n < 0) return false;
    if (static_cast<std::size_t>(n) < text.size()) {
      text.resize(static_cast<std::size_t>(n));
      break;
    }
    text.resize(2 * text.size());
  }
  std::size_t slash = link.rfind('/');
  target = text.starts_with('/') || slash == std::string::npos ? text : link.substr(0, slash + 1) + text;
  return true;
}

// Whether the kernel would follow the symbolic link `link` (owned by `owner`) under
// fs.protected_symlinks: not one in a sticky world-writable directory (/tmp) owned by someone
// other than the directory's owner and this process, a link planted there for someone else to
// follow. Resolving the links here, to write beside their target, bypasses the kernel's own
// check, whatever the system's setting.
bool may_follow(const std::string& link, uid_t owner) {
  std::size_t slash = link.rfind('/');
  std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : link.substr(0, slash);
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0) return false;
  bool shared = (st.st_mode & S_ISVTX) != 0 && (st.st_mode & S_IWOTH) != 0;
  return !shared || owner == ::geteuid() || owner == st.st_uid;
}

// 0, or the errno that makes `path` unwritable.
int destination_of(const std::string& path, destination& d) {
  struct stat proc {};
  bool have_proc = ::lstat("/proc", &proc) == 0;
  std::string p = path;
  for (int links = 0;; ++links) {
    struct stat st {};
    if (::lstat(p.c_str(), &st) != 0) {
      if (errno != ENOENT) return errno;
      d.name = p;  // a new name (a missing directory fails when the temporary is created)
      return 0;
    }
    if (S_ISLNK(st.st_mode)) {
      if (have_proc && st.st_dev == proc.st_dev) {
        d.name = path;
        d.in_place = d.append = true;
        return 0;
      }
      if (links == 40) return ELOOP;
      if (!may_follow(p, st.st_uid)) return EACCES;
      if (!link_target(p, p)) return errno;
      continue;
    }
    if (S_ISDIR(st.st_mode)) return EISDIR;
    d.in_place = !S_ISREG(st.st_mode);
    d.name = d.in_place ? path : p;
    return 0;
  }
}

// The temporary files being written, where the handler of the termination signals finds them.
// A slot is free (0), being filled (1), armed (2), or claimed by the handler (3: for good, the
// process is ending). A name is armed before its file is created and disarmed after the file
// is renamed or removed, so that no file exists unarmed; the handler may then remove a name
// that is not there, which does no harm.
struct temporary_slot {
  std::atomic<int> state{0};
  char name[PATH_MAX];
};
temporary_slot temporary_slots[8];
std::atomic<bool> removing_on_termination{false};

// The signals whose default action ends the process (all but SIGKILL and SIGSTOP can be
// caught), the real-time ones included: a temporary file left behind by any of them would
// stay. In <signal.h>'s order; SIGSTKFLT, SIGPOLL and SIGPWR where the system has them.
constexpr int fatal_signals[] = {
    SIGHUP, SIGINT, SIGQUIT, SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE, SIGUSR1, SIGSEGV, SIGUSR2, SIGPIPE, SIGALRM, SIGTERM,
#ifdef SIGSTKFLT
    SIGSTKFLT,
#endif
    SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF,
#ifdef SIGPOLL
    SIGPOLL,
#endif
#ifdef SIGPWR
    SIGPWR,
#endif
    SIGSYS};

// Calls f(sig) for each fatal signal, the real-time ones after fatal_signals.
template <class F>
void for_each_fatal_signal(F&& f) {
  for (int sig : fatal_signals) f(sig);
#if defined(SIGRTMIN) && defined(SIGRTMAX)
  for (int sig = SIGRTMIN; sig <= SIGRTMAX; ++sig) f(sig);
#endif
}

int arm(const std::string& name) noexcept {
  if (!removing_on_termination.load() || name.size() >= PATH_MAX) return -1;
  for (int i = 0; i < static_cast<int>(std::size(temporary_slots)); ++i) {
    temporary_slot& s = temporary_slots[i];
    int unused = 0;
    if (!s.state.compare_exchange_strong(unused, 1)) continue;
    std::memcpy(s.name, name.c_str(), name.size() + 1);
    s.state.store(2);
    return i;
  }
  return -1;
}

void disarm(int slot) noexcept {
  if (slot < 0) return;
  int armed = 2;
  // Claimed by the handler (3): the slot stays claimed, the process is ending.
  temporary_slots[slot].state.compare_exchange_strong(armed, 0);
}

void remove_temporaries(int sig) {
  int saved = errno;
  for (temporary_slot& s : temporary_slots) {
    int armed = 2;
    if (s.state.compare_exchange_strong(armed, 3)) ::unlink(s.name);
  }
  errno = saved;
  // SA_RESETHAND put the default action back; the signal, blocked until this returns, then
  // ends the process as it would have.
  ::raise(sig);
}

std::uint64_t mixed(std::uint64_t x) noexcept {  // splitmix64's finaliser
  x += 0x9e3779b97f4a7c15u;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
  return x ^ (x >> 31);
}

}  // namespace

std::string temporary_name(const std::string& path) {
  static std::atomic<std::uint64_t> counter{0};
  std::uint64_t r = 0;
  if (::getentropy(&r, sizeof r) != 0) {
    timespec ts{};
    clock_gettime(CLOCK_REALTIME, &ts);
    r = mixed((static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000u + static_cast<std::uint64_t>(ts.tv_nsec)) ^
              (static_cast<std::uint64_t>(::getpid()) << 40) ^ counter.fetch_add(1));
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(r));
  return path + ".ccrc-tmp-" + hex;
}

int create_exclusive(const std::string& name, mode_t mode) noexcept {
  return ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
}

void remove_temporaries_on_termination() {
  static std::once_flag once;
  std::call_once(once, [] {
    removing_on_termination.store(true);
    struct sigaction action {};
    action.sa_handler = remove_temporaries;
    action.sa_flags = static_cast<int>(SA_RESETHAND);  // 0x80000000u: an int in the kernel
    sigemptyset(&action.sa_mask);
    for_each_fatal_signal([&](int sig) { sigaddset(&action.sa_mask, sig); });
    for_each_fatal_signal([&](int sig) {
      struct sigaction old {};
      if (sigaction(sig, nullptr, &old) == 0 && (old.sa_flags & SA_SIGINFO) == 0 && old.sa_handler == SIG_DFL)
        sigaction(sig, &action, nullptr);
    });
  });
}

int remove_stale_temporaries(const std::string& path) noexcept {
  const std::size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  const std::string prefix = (slash == std::string::npos ? path : path.substr(slash + 1)) + ".ccrc-tmp-";
  DIR* listing = ::opendir(dir.c_str());
  if (!listing) return 0;
  int removed = 0;
  while (const dirent* entry = ::readdir(listing)) {
    const std::string_view name = entry->d_name;
    if (!name.starts_with(prefix) || name.size() != prefix.size() + 16 ||
        name.find_first_not_of("0123456789abcdef", prefix.size()) != std::string_view::npos)
      continue;
    const std::string full = dir + "/" + std::string(name);
    // Not followed if a link, not waited on if a FIFO; only this user's regular files.
    const int fd = ::open(full.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) continue;
    struct stat opened {}, named {};
    // Unlocked: its writer has ended (a lock goes with the last descriptor of its process).
    if (::fstat(fd, &opened) == 0 && S_ISREG(opened.st_mode) && opened.st_uid == ::geteuid() && opened.st_nlink > 0 &&
        ::flock(fd, LOCK_EX | LOCK_NB) == 0 && ::lstat(full.c_str(), &named) == 0 && named.st_dev == opened.st_dev &&
        named.st_ino == opened.st_ino && ::unlink(full.c_str()) == 0)
      ++removed;
    ::close(fd);
  }
  ::closedir(listing);
  return removed;
}

int whole_file::open(const std::string& path) {
  discard();
  out_.clear();
  destination d;
  if (int e = destination_of(path, d)) return e;
  int fd = -1;
  if (d.in_place) {
    fd = ::open(d.name.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC | (d.append ? O_APPEND : 0));
    if (fd < 0) return errno;
  } else {
    (void)remove_stale_temporaries(d.name);
    // The file replaced's permissions from the start, so that a profile only its owner may
    // read is not readable by others while it is written; a new file's are 0666 less the
    // umask, as it will have.
    struct stat old {};
    const mode_t mode = ::stat(d.name.c_str(), &old) == 0 && S_ISREG(old.st_mode) ? old.st_mode & 0777 : 0666;
    // A name taken (a collision, or something planted) is never opened: another is drawn.
    for (int attempt = 0; fd < 0; ++attempt) {
      temporary_ = temporary_name(d.name);
      slot_ = arm(temporary_);
      fd = create_exclusive(temporary_, mode);
      // Locked while it is written, so that a later run tells it from one its writer left
      // (remove_stale_temporaries); removed by such a run between the two calls, another is
      // drawn. (Where the file system has no locks, neither run has one: it is not removed.)
      struct stat st {};
      if (fd >= 0 && ::flock(fd, LOCK_EX) == 0 && ::fstat(fd, &st) == 0 && st.st_nlink == 0) {
        ::close(fd);
        fd = -1;
        errno = EEXIST;
      }
      if (fd < 0) {
        int e = errno;
        forget_temporary();
        if (e != EEXIST || attempt == 16) return e;
      }
    }
    target_ = d.name;
    // The lock is the open file's: a second descriptor of it keeps it until the temporary is
    // renamed or removed, after the first is closed (a close error is reported before the
    // rename replaces anything).
    lock_ = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
  }
  buffer_.attach(fd);
  return 0;
}

int whole_file::commit() {
  out_.flush();
  int e = 0;
  if (!temporary_.empty()) {
    // Keep the permissions of the file replaced.
    struct stat old {};
    if (::stat(target_.c_str(), &old) == 0 && S_ISREG(old.st_mode) && buffer_.fd() >= 0)
      ::fchmod(buffer_.fd(), old.st_mode & 07777);
  }
  e = buffer_.close();
  if (e == 0 && !out_) e = EIO;
  if (e == 0 && !temporary_.empty() && ::rename(temporary_.c_str(), target_.c_str()) != 0) e = errno;
  if (e != 0) {
    discard();
    return e;
  }
  forget_temporary();
  return 0;
}

void whole_file::discard() noexcept {
  buffer_.close();
  if (temporary_.empty()) return;
  ::unlink(temporary_.c_str());
  forget_temporary();
}

void whole_file::forget_temporary() noexcept {
  disarm(slot_);
  slot_ = -1;
  temporary_.clear();
  if (lock_ >= 0) ::close(lock_);
  lock_ = -1;
}

}  // namespace ccrc_files
