// ccrc symbolize: names the frames a profiler could only name by module and offset
// ("prog+0x1a2b": libccrc_instrument's name for a static function, or any function of a binary
// linked without -rdynamic), from the binaries' symbol tables and debug information, through
// addr2line.
#include "command.hpp"

#include <ccrc/error.hpp>
#include <ccrc/transform/function.hpp>

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

extern char** environ;

namespace {

namespace fs = std::filesystem;

// A frame named MODULE+0xOFFSET: the module's file name, and the function's distance from
// where the module's first segment was loaded (what dladdr calls its base).
struct module_offset {
  std::string_view module;
  std::uint64_t offset;
};

std::optional<module_offset> parse_module_offset(std::string_view name) {
  std::size_t plus = name.rfind("+0x");
  if (plus == 0 || plus == std::string_view::npos) return std::nullopt;
  std::string_view module = name.substr(0, plus), hex = name.substr(plus + 3);
  if (module.find_first_of("/; ") != std::string_view::npos || hex.empty()) return std::nullopt;
  std::uint64_t offset = 0;
  auto [end, ec] = std::from_chars(hex.data(), hex.data() + hex.size(), offset, 16);
  if (ec != std::errc{} || end != hex.data() + hex.size()) return std::nullopt;
  return module_offset{module, offset};
}

// The link-time address of a module's base: its lowest loadable segment's address, rounded
// down to a page as the loader maps it. Zero for shared objects and position-independent
// executables, 0x400000 for a classic x86-64 executable; an offset plus this is the address
// addr2line knows.
std::uint64_t link_base(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  Elf64_Ehdr header{};
  if (!in.read(reinterpret_cast<char*>(&header), sizeof header) ||
      std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0)
    throw ccrc::error(file.string() + ": not an ELF file");
  if (header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_ident[EI_DATA] != ELFDATA2LSB ||
      header.e_phentsize != sizeof(Elf64_Phdr))
    throw ccrc::error(file.string() + ": not a 64-bit little-endian ELF file");
  std::uint64_t base = UINT64_MAX;
  in.seekg(static_cast<std::streamoff>(header.e_phoff));
  for (unsigned i = 0; i < header.e_phnum; ++i) {
    Elf64_Phdr segment{};
    if (!in.read(reinterpret_cast<char*>(&segment), sizeof segment))
      throw ccrc::error(file.string() + ": truncated program headers");
    if (segment.p_type == PT_LOAD) base = std::min(base, segment.p_vaddr);
  }
  if (base == UINT64_MAX) throw ccrc::error(file.string() + ": no loadable segment");
  return base & ~std::uint64_t{0xfff};
}

// The link-time address ranges [begin, end) of a binary's PLT sections (.plt, .plt.got,
// .plt.sec): the stubs through which it calls other modules. A sample in one is named by the
// start of the unwind region that covers it, the whole section, which no symbol covers. None
// where the section headers are missing or do not read (a stripped or odd file: the addresses
// then stay unnamed, as before).
std::vector<std::pair<std::uint64_t, std::uint64_t>> plt_ranges(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  Elf64_Ehdr header{};
  if (!in.read(reinterpret_cast<char*>(&header), sizeof header) || header.e_shentsize != sizeof(Elf64_Shdr) ||
      header.e_shstrndx >= header.e_shnum)
    return {};
  std::vector<Elf64_Shdr> sections(header.e_shnum);
  in.seekg(static_cast<std::streamoff>(header.e_shoff));
  if (!in.read(reinterpret_cast<char*>(sections.data()), static_cast<std::streamsize>(sections.size() * sizeof(Elf64_Shdr))))
    return {};
  const Elf64_Shdr& names = sections[header.e_shstrndx];
  if (names.sh_size > (std::uint64_t{1} << 24)) return {};
  std::string text(names.sh_size, '\0');
  in.seekg(static_cast<std::streamoff>(names.sh_offset));
  if (!in.read(text.data(), static_cast<std::streamsize>(text.size()))) return {};
  std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges;
  for (const Elf64_Shdr& section : sections) {
    if (section.sh_name >= text.size()) continue;
    std::string_view name(text.c_str() + section.sh_name);
    if (name == ".plt" || name.starts_with(".plt.")) ranges.emplace_back(section.sh_addr, section.sh_addr + section.sh_size);
  }
  return ranges;
}

// A temporary file, removed when it goes out of scope.
struct temporary_file {
  std::string path = (fs::temp_directory_path() / "ccrc-symbolize-XXXXXX").string();
  int fd = mkstemp(path.data());
  temporary_file() {
    if (fd < 0) throw ccrc::error("cannot create a temporary file in " + fs::temp_directory_path().string());
  }
  temporary_file(const temporary_file&) = delete;
  temporary_file& operator=(const temporary_file&) = delete;
  ~temporary_file() {
    close(fd);
    std::remove(path.c_str());
  }
};

// What addr2line says of each address of `binary`: the function's name, demangled, and
// "file:line", "??" for what it does not know. One process per binary, its input and output
// in temporary files (no shell, no pipe to deadlock on).
std::vector<std::pair<std::string, std::string>> addr2line(const std::string& program, const fs::path& binary,
                                                           const std::vector<std::uint64_t>& addresses) {
  temporary_file in, out;
  {
    std::ofstream text(in.path);
    char buffer[24];
    for (std::uint64_t a : addresses) {
      auto end = std::to_chars(buffer, buffer + sizeof buffer, a, 16).ptr;
      text << "0x" << std::string_view(buffer, static_cast<std::size_t>(end - buffer)) << '\n';
    }
    if (!text.flush()) throw ccrc::error("cannot write " + in.path);
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in.fd, 0);
  posix_spawn_file_actions_adddup2(&actions, out.fd, 1);
  std::vector<std::string> args{program, "-f", "-C", "-e", binary.string()};
  std::vector<char*> argv;
  for (std::string& s : args) argv.push_back(s.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  int failed = posix_spawnp(&pid, program.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (failed != 0) throw ccrc::error("cannot run " + program + ": " + std::strerror(failed));
  int status = 0;
  if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw ccrc::error(program + " failed on " + binary.string());
  std::ifstream text(out.path);
  std::vector<std::pair<std::string, std::string>> answers(addresses.size());
  for (auto& [function, location] : answers)
    if (!std::getline(text, function) || !std::getline(text, location))
      throw ccrc::error(program + " answered fewer lines than the " + std::to_string(addresses.size()) +
                        " addresses of " + binary.string());
  return answers;
}

// "function file:line" from addr2line's two answers ("function file" where the line is unknown,
// "function" where the file is too), or nothing where the function is unknown.
std::string symbol_name(std::string_view function, std::string_view location) {
  if (function.empty() || function == "??") return {};
  if (std::size_t d = location.find(" (discriminator"); d != std::string_view::npos) location = location.substr(0, d);
  if (location.ends_with(":?") || location.ends_with(":0")) location.remove_suffix(2);  // the line unknown
  if (location.empty() || location.starts_with("??")) return std::string(function);
  return std::string(function) + " " + std::string(location);
}

// The directories of a PATH-like variable, in order; empty entries skipped.
std::vector<fs::path> directories_of(const char* variable) {
  std::vector<fs::path> dirs;
  std::string_view list = std::getenv(variable) ? std::getenv(variable) : "";
  for (std::size_t begin = 0; begin < list.size();) {
    std::size_t end = std::min(list.find(':', begin), list.size());
    if (end > begin) dirs.emplace_back(list.substr(begin, end - begin));
    begin = end + 1;
  }
  return dirs;
}

// The symbolizer to run when none is given: addr2line (binutils), or else LLVM's, which takes
// the same arguments and answers alike.
std::string default_symbolizer() {
  const std::vector<fs::path> path = directories_of("PATH");
  for (const char* name : {"addr2line", "llvm-addr2line", "llvm-addr2line-14"})
    for (const fs::path& d : path)
      if (access((d / name).c_str(), X_OK) == 0) return name;
  return "addr2line";
}

// Where to look for a module no BINARY names: the current directory, $PATH (executables),
// $LD_LIBRARY_PATH, the directory the loader took this process's C library from (the system's,
// /lib/x86_64-linux-gnu on Debian, whatever the architecture), /usr/local/lib, /usr/lib, /lib.
std::vector<fs::path> module_search_path() {
  std::vector<fs::path> dirs{fs::current_path()};
  for (const char* variable : {"PATH", "LD_LIBRARY_PATH"})
    for (fs::path& d : directories_of(variable)) dirs.push_back(std::move(d));
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&::fclose), &info) != 0 && info.dli_fname != nullptr)
    dirs.push_back(fs::path(info.dli_fname).parent_path());
  for (const char* d : {"/usr/local/lib", "/usr/lib", "/lib"}) dirs.emplace_back(d);
  return dirs;
}

std::optional<fs::path> find_module(std::string_view module, const std::vector<fs::path>& dirs) {
  for (const fs::path& d : dirs) {
    std::error_code ec;
    fs::path candidate = d / module;
    if (fs::is_regular_file(candidate, ec)) return candidate;
  }
  return std::nullopt;
}

int run(const cli::args& a, cli::timings& t) {
  const std::string& in = a.positional(0, "PROFILE");
  // The one command whose output may be its input (its default): the profile, named, replaces
  // the profile with addresses, whole or not at all (cli::refuse_output_over_input is not asked).
  const std::string out = a.value("-o").value_or(in);
  cli::check_output_path(out);
  const std::string program = a.value("--addr2line").value_or(default_symbolizer());
  std::map<std::string, fs::path, std::less<>> binaries;  // by file name, as the frames name them
  for (std::size_t i = 1; i < a.positional().size(); ++i) {
    fs::path b = a.positional()[i];
    if (!fs::is_regular_file(b)) throw ccrc::error(b.string() + ": no such file");
    if (!binaries.emplace(b.filename().string(), b).second)
      throw cli::usage_error("two binaries named " + b.filename().string());
  }
  ccrc::profile p = cli::load_profile(in, t, a);

  t.phase("symbolize");
  struct module_frames {
    std::vector<std::string_view> names;
    std::vector<std::uint64_t> addresses;
  };
  std::map<std::string_view, module_frames> wanted;
  std::set<std::string_view> not_found;
  std::vector<fs::path> search_path;  // made at the first module no BINARY names
  std::size_t address_names = 0;
  const ccrc::symbol_table& syms = p.symbols();
  for (ccrc::method_id m{1}; m < syms.method_count(); ++m) {
    std::string_view name = syms.method_name(m);
    auto mo = parse_module_offset(name);
    if (!mo) continue;
    ++address_names;
    if (binaries.find(mo->module) == binaries.end() && !not_found.contains(mo->module)) {
      if (search_path.empty()) search_path = module_search_path();
      if (auto found = find_module(mo->module, search_path)) {
        std::fprintf(stderr, "ccrc symbolize: %s from %s\n", std::string(mo->module).c_str(), found->c_str());
        binaries.emplace(std::string(mo->module), *found);
      } else {
        not_found.insert(mo->module);
      }
    }
    if (not_found.contains(mo->module)) continue;
    module_frames& w = wanted[mo->module];
    w.names.push_back(name);
    w.addresses.push_back(mo->offset);
  }
  std::unordered_map<std::string_view, std::string> renamed;
  for (auto& [module, w] : wanted) {
    const fs::path& file = binaries.find(module)->second;
    const std::uint64_t base = link_base(file);
    for (std::uint64_t& address : w.addresses) address += base;
    auto answers = addr2line(program, file, w.addresses);
    const auto plts = plt_ranges(file);
    auto in_plt = [&](std::uint64_t address) {
      return std::any_of(plts.begin(), plts.end(), [address](const auto& r) { return address >= r.first && address < r.second; });
    };
    for (std::size_t i = 0; i < answers.size(); ++i) {
      std::string n = symbol_name(answers[i].first, answers[i].second);
      if (n.empty() && in_plt(w.addresses[i])) n = "[plt] (" + std::string(module) + ")";
      if (!n.empty()) renamed[w.names[i]] = std::move(n);
    }
  }
  ccrc::profile named = ccrc::rename_frames(p, [&](std::string_view name) -> std::string_view {
    auto it = renamed.find(name);
    return it == renamed.end() ? name : std::string_view(it->second);
  }).output;

  std::string report = "ccrc symbolize: named " + std::to_string(renamed.size()) + " of " +
                       std::to_string(address_names) + " methods given as module+offset";
  if (std::size_t left = address_names - renamed.size(); left != 0) {
    report += "; " + std::to_string(left) + " left as they were";
    if (!not_found.empty()) {
      report += " (no binary given or found for";
      for (std::string_view m : not_found) report += " " + std::string(m);
      report += ")";
    }
  }
  std::fprintf(stderr, "%s\n", report.c_str());
  cli::save_profile(out, named, t, a);
  return 0;
}

}  // namespace

const command symbolize_command{
    "symbolize",
    "names the functions a profile knows only as module+offset, from the binaries (addr2line)",
    "usage: ccrc symbolize PROFILE [BINARY...] [-o OUT] [--addr2line PROGRAM] [--profile NAME|INDEX]\n"
    "                      [--force]\n"
    "\n"
    "Names every method of PROFILE written as MODULE+0xOFFSET (libccrc_instrument's name for a\n"
    "function the loader could not name: a static function, or any function of a program linked\n"
    "without -rdynamic) from the BINARY whose file name is MODULE, else from the first file of\n"
    "that name in the current directory, $PATH, $LD_LIBRARY_PATH or the system's library\n"
    "directories (named on stderr: make sure it is the build that ran): its symbol table, and\n"
    "its debug information where it has some, which adds the source file and line\n"
    "('parse(char const*) /src/prog.cpp:42'); an address in its PLT, '[plt] (MODULE)' (a call\n"
    "into another module, on its way). One addr2line process per binary. Contexts that\n"
    "come to name one function under one caller become one, their metrics summed. Methods of\n"
    "modules neither given nor found, and addresses addr2line cannot name, are left as they\n"
    "were and counted on stderr. OUT (default: PROFILE itself, replaced whole or not at all) is\n"
    "written in the format its name asks for, as by ccrc convert.\n"
    "  --addr2line PROGRAM  the symbolizer, a program with addr2line's arguments and output\n"
    "                       (default: addr2line, or else llvm-addr2line where it is the one\n"
    "                       installed)\n"
    "  --force              writes folded stacks or pprof above 1 GiB (see convert)\n",
    {{"-o", "--addr2line", "--profile"}, {"--force"}},
    run,
};
