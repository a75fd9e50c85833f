// What libccrc_instrument and libccrc_sample share: see runtime.hpp.
#include "runtime.hpp"

#include "whole_file.hpp"

#include <ccrc/error.hpp>

#include <cxxabi.h>
#include <dlfcn.h>
#include <link.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
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

namespace {

// "FILE's name+0xOFFSET", the offset of `address` from `base`, where the module was loaded.
std::string offset_text(std::string_view file, std::uintptr_t base, std::uintptr_t address) {
  if (std::size_t slash = file.rfind('/'); slash != std::string_view::npos) file.remove_prefix(slash + 1);
  return std::string(file) + "+" + address_text(address - base);
}

}  // namespace

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
  return {offset_text(info.dli_fname, reinterpret_cast<std::uintptr_t>(info.dli_fbase), address), {}};
}

std::string module_offset_text(std::uintptr_t address) {
#ifdef DLFO_STRUCT_HAS_EH_DBASE  // glibc 2.35 and later: _dl_find_object
  dl_find_object found{};
  if (_dl_find_object(reinterpret_cast<void*>(address), &found) != 0 || found.dlfo_link_map == nullptr)
    return address_text(address);
  // The program's own link map has no name: dladdr gives it as the program was run.
  const char* file = found.dlfo_link_map->l_name[0] != '\0' ? found.dlfo_link_map->l_name : program_invocation_name;
  return offset_text(file, reinterpret_cast<std::uintptr_t>(found.dlfo_map_start), address);
#else
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(address), &info) == 0 || info.dli_fname == nullptr || info.dli_fbase == nullptr)
    return address_text(address);
  return offset_text(info.dli_fname, reinterpret_cast<std::uintptr_t>(info.dli_fbase), address);
#endif
}

address_range module_range(void* handle) noexcept {
  link_map* map = nullptr;
  if (handle == nullptr || dlinfo(handle, RTLD_DI_LINKMAP, &map) != 0 || map == nullptr) return {};
  struct search {
    const link_map* map;
    address_range range;
  } found{map, {UINTPTR_MAX, 0}};
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* p) {
        auto& s = *static_cast<search*>(p);
        if (info->dlpi_addr != s.map->l_addr || std::strcmp(info->dlpi_name, s.map->l_name) != 0) return 0;
        for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr)& segment = info->dlpi_phdr[i];
          if (segment.p_type != PT_LOAD) continue;
          s.range.lo = std::min<std::uintptr_t>(s.range.lo, info->dlpi_addr + segment.p_vaddr);
          s.range.hi = std::max<std::uintptr_t>(s.range.hi, info->dlpi_addr + segment.p_vaddr + segment.p_memsz);
        }
        return 1;
      },
      &found);
  return found.range.lo < found.range.hi ? found.range : address_range{};
}

dlclose_function real_dlclose() noexcept {
  static const auto real = reinterpret_cast<dlclose_function>(dlsym(RTLD_NEXT, "dlclose"));
  return real;
}

resolved_name name_cache::name_of(std::uintptr_t address) {
  {
    std::lock_guard lock(mutex_);
    if (auto it = names_.find(address); it != names_.end()) return it->second;
  }
  resolved_name r = resolve(address);  // the lock released: dladdr takes the loader's
  std::lock_guard lock(mutex_);
  return names_.try_emplace(address, std::move(r)).first->second;
}

void name_cache::forget(address_range range) {
  if (range.lo >= range.hi) return;
  std::lock_guard lock(mutex_);
  std::erase_if(names_, [&](const auto& entry) { return range.contains(entry.first); });
}

std::optional<timer_t> start_cpu_timer(std::uint64_t period_ns, int signal, void* cookie) noexcept {
  sigevent event{};
  event.sigev_notify = SIGEV_THREAD_ID;
  event.sigev_signo = signal;
  event.sigev_value.sival_ptr = cookie;
#ifdef sigev_notify_thread_id
  event.sigev_notify_thread_id = static_cast<pid_t>(syscall(SYS_gettid));
#else
  event._sigev_un._tid = static_cast<pid_t>(syscall(SYS_gettid));
#endif
  timer_t timer{};
  if (timer_create(CLOCK_THREAD_CPUTIME_ID, &event, &timer) != 0) {
    std::fprintf(stderr, "ccrc: cannot create the sampling timer: %s\n", std::strerror(errno));
    return std::nullopt;
  }
  timespec interval{static_cast<time_t>(period_ns / 1'000'000'000u), static_cast<long>(period_ns % 1'000'000'000u)};
  itimerspec spec{interval, interval};
  if (timer_settime(timer, 0, &spec, nullptr) != 0) {
    std::fprintf(stderr, "ccrc: cannot start the sampling timer: %s\n", std::strerror(errno));
    timer_delete(timer);
    return std::nullopt;
  }
  return timer;
}

std::uint64_t number_from_env(const char* name, std::uint64_t lo, std::uint64_t hi, std::uint64_t fallback) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return fallback;
  std::string_view s = text;
  std::uint64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec == std::errc{} && end == s.data() + s.size() && v >= lo && v <= hi) return v;
  std::fprintf(stderr, "ccrc: %s must be a whole number from %llu to %llu, not '%s'; using %llu\n", name,
               static_cast<unsigned long long>(lo), static_cast<unsigned long long>(hi), text,
               static_cast<unsigned long long>(fallback));
  return fallback;
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
