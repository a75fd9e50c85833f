// What libccrc_instrument and libccrc_sample share: see runtime.hpp.
#include "runtime.hpp"

#include "whole_file.hpp"

#include <ccrc/error.hpp>

#include <cxxabi.h>
#include <dlfcn.h>
#include <link.h>
#include <signal.h>
#include <unistd.h>

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>

namespace ccrc_runtime {

std::string address_text(std::uintptr_t a) {
  char text[2 + 2 * sizeof(a) + 1] = "0x";
  auto r = std::to_chars(text + 2, text + sizeof(text), a, 16);
  return std::string(text, r.ptr);
}

std::uintptr_t address_of_text(std::string_view s) noexcept {
  std::uintptr_t a = 0;
  if (s.size() > 2 && s.starts_with("0x")) std::from_chars(s.data() + 2, s.data() + s.size(), a, 16);
  return a;
}

resolved_name resolve(std::uintptr_t address) {
  Dl_info info{};
  void* entry = nullptr;  // the symbol's ElfW(Sym)
  void* a = reinterpret_cast<void*>(address);
  if (dladdr1(a, &info, &entry, RTLD_DL_SYMENT) == 0) return {address_text(address), {}};
  const auto* symbol = static_cast<const ElfW(Sym)*>(entry);
  // dladdr gives the nearest symbol at or below the address, which belongs to another function
  // when the address's own has no symbol the loader knows (a static function placed after it).
  auto start = reinterpret_cast<std::uintptr_t>(info.dli_saddr);
  if (info.dli_sname != nullptr && symbol != nullptr && address >= start &&
      (address == start || address - start < symbol->st_size)) {
    int status = 0;
    char* demangled = abi::__cxa_demangle(info.dli_sname, nullptr, nullptr, &status);
    resolved_name r{status == 0 && demangled ? demangled : info.dli_sname, info.dli_sname};
    std::free(demangled);
    return r;
  }
  if (info.dli_fname == nullptr || info.dli_fbase == nullptr) return {address_text(address), {}};
  std::string_view module = info.dli_fname;
  if (std::size_t slash = module.rfind('/'); slash != std::string_view::npos) module.remove_prefix(slash + 1);
  std::string offset = address_text(address - reinterpret_cast<std::uintptr_t>(info.dli_fbase));
  return {std::string(module) + "+" + offset, {}};
}

std::string output_path(bool forked_child) {
  const char* env = std::getenv("CCRC_OUT");
  std::string pid = std::to_string(::getpid());
  if (env == nullptr || *env == '\0') return "ccrc." + pid + ".cctb";
  std::string path = env;
  bool has_pid = false;
  for (std::size_t at = path.find("%p"); at != std::string::npos; at = path.find("%p", at + pid.size())) {
    path.replace(at, 2, pid);
    has_pid = true;
  }
  if (forked_child && !has_pid) path += "." + pid;
  return path;
}

namespace {

// While the profile is written, the signals a write raises whose default action ends the
// process, SIGXFSZ (beyond RLIMIT_FSIZE) and SIGPIPE (a pipe with no reader), are ignored
// where their action is the default: the write fails instead (EFBIG, EPIPE), the failure is
// reported, and the program ends with its own status. A handler of the program's stays.
class quiet_write_signals {
 public:
  quiet_write_signals() {
    for (std::size_t i = 0; i < std::size(signals_); ++i) {
      struct sigaction ignore {};
      ignore.sa_handler = SIG_IGN;
      sigemptyset(&ignore.sa_mask);
      changed_[i] = sigaction(signals_[i], nullptr, &old_[i]) == 0 && (old_[i].sa_flags & SA_SIGINFO) == 0 &&
                    old_[i].sa_handler == SIG_DFL && sigaction(signals_[i], &ignore, nullptr) == 0;
    }
  }
  quiet_write_signals(const quiet_write_signals&) = delete;
  quiet_write_signals& operator=(const quiet_write_signals&) = delete;
  ~quiet_write_signals() {
    for (std::size_t i = 0; i < std::size(signals_); ++i)
      if (changed_[i]) sigaction(signals_[i], &old_[i], nullptr);
  }

 private:
  static constexpr int signals_[] = {SIGXFSZ, SIGPIPE};
  struct sigaction old_[std::size(signals_)] {};
  bool changed_[std::size(signals_)] = {};
};

}  // namespace

void write_atomically(const std::string& path, const std::function<void(std::ostream&)>& write) {
  auto fail = [&](int error_number) {
    std::fprintf(stderr, "ccrc: cannot write the profile to %s: %s\n", path.c_str(), std::strerror(error_number));
  };
  quiet_write_signals quiet;
  ccrc_files::whole_file file;
  if (int e = file.open(path)) return fail(e);
  try {
    write(file.stream());
  } catch (const ccrc::error&) {
    if (file.stream()) throw;  // what the format cannot hold; a failed write is reported below
  }
  if (int e = file.commit()) fail(e);
}

}  // namespace ccrc_runtime
