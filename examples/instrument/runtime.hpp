// What the two profilers' run-time libraries share, libccrc_instrument (instrument.cpp) and
// libccrc_sample (sample.cpp): the address -> frame table of a tree, the naming of an address
// while its module is loaded (first sight, or an interposed dlclose: a module unloaded later
// may be replaced at the same address by another), the per-thread CPU-time timer, and the
// profile's output, whole or not at all, to $CCRC_OUT.
// Compiled into each library, with their hidden visibility.
#pragma once

#include <ccrc/io/cct_binary.hpp>
#include <ccrc/tree/cct.hpp>

#include <time.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ccrc_runtime {

/// "0x1a2b": how an address outside every module is named. One allocation.
[[nodiscard]] std::string address_text(std::uintptr_t a);

/// Address -> frame of one tree: open addressing, at most half full. find is O(1) and never
/// allocates; insert allocates when the table doubles.
class address_frames {
 public:
  address_frames() : slots_(256) {}

  /// The frame of `address`, or ccrc::null_frame if it has none yet.
  [[nodiscard]] ccrc::frame_id find(std::uintptr_t address) const noexcept {
    std::size_t mask = slots_.size() - 1;
    for (std::size_t i = hash(address) & mask;; i = (i + 1) & mask) {
      if (slots_[i].address == address) return slots_[i].frame;
      if (slots_[i].address == 0) return ccrc::null_frame;
    }
  }

  /// Records the frame of `address` (nonzero, not present yet).
  void insert(std::uintptr_t address, ccrc::frame_id f) {
    if (2 * (used_ + 1) > slots_.size()) {
      std::vector<slot> old(slots_.size() * 2);
      old.swap(slots_);
      used_ = 0;
      for (const slot& s : old)
        if (s.address != 0) insert(s.address, s.frame);
    }
    std::size_t mask = slots_.size() - 1;
    std::size_t i = hash(address) & mask;
    while (slots_[i].address != 0) i = (i + 1) & mask;
    slots_[i] = {address, f};
    ++used_;
  }

  void clear() {
    slots_.assign(256, slot{});
    used_ = 0;
  }

 private:
  struct slot {
    std::uintptr_t address = 0;
    ccrc::frame_id frame = ccrc::null_frame;
  };
  static std::size_t hash(std::uintptr_t a) noexcept {
    return static_cast<std::size_t>((static_cast<std::uint64_t>(a) * 0x9e3779b97f4a7c15u) >> 32);
  }
  std::vector<slot> slots_;
  std::size_t used_ = 0;
};

/// The name of the function an address lies in.
struct resolved_name {
  std::string name;    ///< demangled where possible; module+0xoffset or the bare address else
  std::string symbol;  ///< the symbol as the loader has it, or empty
};

/// Names the function that contains `address` (its entry, as the instrumenting hooks see it,
/// or any instruction in it, as a sampled stack has): the symbol `dladdr` finds, demangled, if
/// the address lies within that symbol's size; else MODULE+0xOFFSET (a static function, a
/// stripped binary, an executable linked without -rdynamic: `ccrc symbolize` names those
/// offline), or the bare address outside every module. One dladdr call.
[[nodiscard]] resolved_name resolve(std::uintptr_t address);

/// MODULE+0xOFFSET for an address in a loaded module (the offset from where its first segment
/// was loaded, as resolve() writes it when it has no symbol), else the bare address. Takes no
/// lock where the C library has _dl_find_object (glibc 2.35 and later): a caller may hold its
/// own while the loader's is held by a thread that waits for it. One allocation.
[[nodiscard]] std::string module_offset_text(std::uintptr_t address);

/// The addresses [lo, hi) of a module's loaded segments.
struct address_range {
  std::uintptr_t lo = 0, hi = 0;
  [[nodiscard]] bool contains(std::uintptr_t a) const noexcept { return a >= lo && a < hi; }
};

/// The range of the module a dlopen() handle names, while it is loaded; empty if the handle
/// names none. Takes the loader's lock (dlinfo, dl_iterate_phdr): call it holding no lock of
/// the library's.
[[nodiscard]] address_range module_range(void* handle) noexcept;

/// The C library's dlclose (the next definition after the library's own), looked up once.
using dlclose_function = int (*)(void*);
[[nodiscard]] dlclose_function real_dlclose() noexcept;

/// resolve(), once per address for the whole process: threads that meet one function share
/// its name (a dladdr call scans the module's symbols, 27 us in libstdc++'s 6,000). The lock
/// is never held while the loader is called. forget() drops the names of a module that is
/// being unloaded: another module may be loaded at its addresses.
class name_cache {
 public:
  [[nodiscard]] resolved_name name_of(std::uintptr_t address);
  void forget(address_range range);
  /// Around fork(): the child must not inherit the lock held.
  void lock() { mutex_.lock(); }
  void unlock() { mutex_.unlock(); }

 private:
  std::mutex mutex_;
  std::unordered_map<std::uintptr_t, resolved_name> names_;
};

/// A POSIX timer on the calling thread's CPU-time clock that sends `signal` to that thread
/// (not to whichever thread a process-wide timer would pick) every `period_ns` of its CPU
/// time, with `cookie` as the signal's si_value, to tell its signals from others. Reports a
/// failure on stderr and returns nothing. Outside signal handlers.
[[nodiscard]] std::optional<timer_t> start_cpu_timer(std::uint64_t period_ns, int signal, void* cookie) noexcept;

/// $NAME as a whole number in [lo, hi], or `fallback` (with a message if it is set but wrong).
[[nodiscard]] std::uint64_t number_from_env(const char* name, std::uint64_t lo, std::uint64_t hi, std::uint64_t fallback);

/// Copies the structure of `in` into `out`, each frame f of `in` named `name(f)` (a string or
/// string_view); contexts that come to name one function under one caller become one. Returns
/// the node of `out` for each node of `in`, for the caller to add the metrics.
/// O(nodes + frames), one call of `name` per frame.
template <class Out, class In, class Name>
std::vector<ccrc::node_id> named_copy(const In& in, Out& out, Name name) {
  const ccrc::symbol_table& syms = in.symbols();
  std::vector<ccrc::frame_id> frame_map(syms.frame_count(), ccrc::root_frame);
  for (ccrc::frame_id f{1}; f < syms.frame_count(); ++f) frame_map[f] = out.intern(name(f));
  std::vector<ccrc::node_id> node_map(in.size(), ccrc::root_node);
  const ccrc::call_tree& t = in.tree();
  for (ccrc::node_id n = 1; n < in.size(); ++n)
    node_map[n] = out.find_or_add_child(node_map[t.parent(n)], frame_map[t.frame(n)]);
  return node_map;
}

/// The profile's path: $CCRC_OUT with each "%p" replaced by the process id, default
/// "ccrc.<pid>.cctb". A forked child's gets ".<pid>" appended when $CCRC_OUT has no "%p", so
/// that it does not overwrite its parent's.
[[nodiscard]] std::string output_path(bool forked_child);

/// Writes the file whole or not at all, as the ccrc tool writes its outputs
/// (examples/whole_file/whole_file.hpp): `write` fills a temporary file beside `path`, created
/// exclusively under a random name, which is then renamed over `path`, if that is a regular
/// file or a new name; a device, a FIFO or a file already open named through /proc
/// (/dev/stdout) is written in place. A failure, a file-size limit's included (SIGXFSZ and
/// SIGPIPE are ignored meanwhile, unless the program handles them), is reported on stderr as
/// "ccrc: cannot write the profile to PATH: REASON" and leaves nothing behind.
void write_atomically(const std::string& path, const std::function<void(std::ostream&)>& write);

/// Writes `profile` to `path` as .cctb, whole or not at all (write_atomically).
template <class Profile>
void write_profile(const Profile& profile, const std::string& path) {
  write_atomically(path, [&](std::ostream& out) { ccrc::write_cctb(out, profile); });
}

}  // namespace ccrc_runtime
