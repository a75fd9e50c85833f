// A file written whole or not at all: the ccrc tool's outputs (examples/frontend/cli.cpp) and the
// profilers' profiles (examples/instrument/runtime.cpp) both go through it, so that both
// replace the same files the same way. POSIX; not part of the library.
//
// Where the content goes is decided by what the path names, following symbolic links:
// - a regular file, or a new name: a temporary file beside it (beside the file a link points
//   to: the link stays a link), renamed over it once written, with its permissions;
// - anything else (a device, a FIFO, a socket's peer reached through /proc): the file itself,
//   in place, since a rename would replace the special file with a regular one;
// - a link that lives in /proc (/dev/stdout, /dev/fd/N, /proc/self/fd/N name a file this
//   process already has open): that open file, in place, appended to, so that what the
//   process wrote there before is kept.
// A link in a sticky world-writable directory (/tmp) that belongs neither to this process's
// user nor to the directory's owner is refused (EACCES), as the kernel refuses to follow it
// under fs.protected_symlinks: it was planted for someone else.
// The temporary's name is the destination's followed by ".ccrc-tmp-" and 16 random hex
// digits, and it is created exclusively (O_CREAT | O_EXCL | O_NOFOLLOW): nothing planted at a
// name, a symbolic link above all, is ever opened in its place. It has the permissions of the
// file it replaces from the start (a new file's: 0666 less the umask), and is locked (flock)
// while it is written: a temporary of the same destination that no process holds locked was
// left by a writer that ended without removing it (SIGKILL, a crash, a power cut), and the
// next whole_file opened there removes it, if it is this user's.
#pragma once

#include <sys/types.h>

#include <ostream>
#include <streambuf>
#include <string>
#include <vector>

namespace ccrc_files {

/// An output stream buffer over a file descriptor it owns: 64 KiB buffered, short writes and
/// EINTR retried. The first failing write's errno is kept (error()) and the stream goes bad.
class fd_buffer : public std::streambuf {
 public:
  fd_buffer() : space_(std::size_t{1} << 16) {}
  fd_buffer(const fd_buffer&) = delete;
  fd_buffer& operator=(const fd_buffer&) = delete;
  ~fd_buffer() override { close(); }

  /// Writes to `fd` from now on (an open descriptor, or -1 for none).
  void attach(int fd) noexcept;
  /// The descriptor written to, -1 once closed.
  [[nodiscard]] int fd() const noexcept { return fd_; }
  /// The errno of the first failure, 0 if none.
  [[nodiscard]] int error() const noexcept { return error_; }
  /// Writes what is buffered and closes the descriptor; error() after.
  int close() noexcept;

 protected:
  int_type overflow(int_type c) override;
  std::streamsize xsputn(const char* s, std::streamsize n) override;
  int sync() override;

 private:
  bool flush_buffer() noexcept;
  bool write_all(const char* p, std::size_t n) noexcept;
  std::vector<char> space_;
  int fd_ = -1;
  int error_ = 0;
};

/// A file written whole or not at all (see the top of this header for where it goes). Its
/// temporary file is removed by the fatal signals once remove_temporaries_on_termination was
/// called.
///
///     ccrc_files::whole_file f;
///     if (int e = f.open("out.cctb")) fail(e);
///     f.stream() << content;
///     if (int e = f.commit()) fail(e);  // else out.cctb holds the whole content
class whole_file {
 public:
  whole_file() = default;
  whole_file(const whole_file&) = delete;
  whole_file& operator=(const whole_file&) = delete;
  /// discard()
  ~whole_file() { discard(); }

  /// Opens the temporary file beside `path`, or `path` itself in place: 0, or the errno that
  /// stopped it (EISDIR for a directory; a FIFO blocks here until a reader opens it).
  [[nodiscard]] int open(const std::string& path);
  /// Where the content goes.
  [[nodiscard]] std::ostream& stream() noexcept { return out_; }
  /// The temporary file's name; empty when writing in place.
  [[nodiscard]] const std::string& temporary() const noexcept { return temporary_; }
  /// Flushes and closes the file and renames the temporary over the destination: 0, or the
  /// errno of the step that failed (EIO if the stream went bad without one), the temporary
  /// then removed.
  [[nodiscard]] int commit();
  /// Closes the file and removes the temporary, unless commit() succeeded. Idempotent.
  void discard() noexcept;

 private:
  void forget_temporary() noexcept;
  fd_buffer buffer_;
  std::ostream out_{&buffer_};
  std::string target_;     // the file renamed over
  std::string temporary_;  // empty when writing in place
  int slot_ = -1;          // where the termination signals' handler finds temporary_, if anywhere
  int lock_ = -1;          // the temporary's descriptor that holds its lock until it is renamed or removed
};

/// From now on, every signal whose default action ends the process (SIGTERM, SIGINT, SIGHUP,
/// SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE, SIGXCPU, SIGVTALRM, SIGPROF, the crashes'
/// SIGSEGV, SIGBUS, SIGABRT..., the real-time signals: all but SIGKILL and SIGSTOP, which
/// cannot be caught) and that still has that default action (not ignored, as under `nohup`,
/// nor handled by the program) removes the temporary files of every whole_file being written,
/// then ends the process as it would have (its status says which signal). For a program that
/// owns its signals, such as the ccrc tool; not for a library inside someone else's program.
/// Eight temporary files at a time (the handler can neither allocate nor lock: fixed slots);
/// more are left behind, for a later run to remove (see remove_stale_temporaries).
void remove_temporaries_on_termination();

/// Removes the temporary files beside `path` (PATH.ccrc-tmp- and 16 hex digits) that their
/// writer left: regular files of this user's that no process holds locked. whole_file::open
/// calls it. Returns how many it removed. O(entries of the directory).
int remove_stale_temporaries(const std::string& path) noexcept;

/// `path` followed by ".ccrc-tmp-" and 16 hexadecimal digits from getentropy (or, where it
/// fails, the clock, the process id and a counter, mixed).
[[nodiscard]] std::string temporary_name(const std::string& path);

/// Creates `name` for writing with O_CREAT | O_EXCL | O_NOFOLLOW (`mode` less the umask):
/// the descriptor, or -1 with errno (EEXIST if anything is there, a symbolic link included,
/// dangling or not: nothing is created where it points).
[[nodiscard]] int create_exclusive(const std::string& name, mode_t mode = 0666) noexcept;

}  // namespace ccrc_files
