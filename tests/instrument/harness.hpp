// What the checkers of tests/instrument/ share: failures counted, profiles searched by path,
// the profiled programs run with an environment, their output read.
#pragma once

#include <ccrc/io/cct_binary.hpp>
#include <ccrc/tree/profile.hpp>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

extern char** environ;

namespace instrument_test {

namespace fs = std::filesystem;

inline int failures = 0;

inline void check(bool ok, const std::string& what) {
  if (!ok) {
    ++failures;
    std::cerr << "FAILED: " << what << "\n";
  }
}

/// "a;b;c" -> {"a", "b", "c"}.
inline std::vector<std::string> split(std::string_view path) {
  std::vector<std::string> parts;
  for (std::size_t start = 0;;) {
    std::size_t semi = path.find(';', start);
    parts.emplace_back(path.substr(start, semi - start));
    if (semi == std::string_view::npos) return parts;
    start = semi + 1;
  }
}

/// The context of `p` at the path `names` from the root, or null_node.
inline ccrc::node_id find(const ccrc::profile& p, const std::vector<std::string>& names) {
  std::vector<ccrc::frame_id> frames;
  for (const std::string& n : names) {
    auto f = p.symbols().find(n);
    if (!f) return ccrc::null_node;
    frames.push_back(*f);
  }
  return p.tree().find_path(frames);
}

inline std::span<const double> column(const ccrc::profile& p, std::string_view name) {
  auto i = p.find_metric(name);
  if (!i) throw std::runtime_error("no metric " + std::string(name));
  return p.column(*i);
}

/// The name of the only child of `path` in the profile in `file`, or "" if it has not one child.
inline std::string only_child(const fs::path& file, const std::string& path) {
  ccrc::profile p = ccrc::read_cctb_file(file.string());
  ccrc::node_id n = find(p, split(path));
  if (n == ccrc::null_node) return {};
  auto children = p.tree().children(n);
  if (std::distance(children.begin(), children.end()) != 1) return {};
  return std::string(p.symbols().name(p.tree().frame(*children.begin())));
}

/// Runs the program args[0] (searched in $PATH if it has no slash) with `env` added to the
/// environment (as it was again after), stderr to `err` (and stdout to `out` if given); its
/// exit status.
inline int run(std::vector<std::string> args, const std::vector<std::pair<std::string, std::string>>& env,
               const fs::path& err, const std::optional<fs::path>& out = std::nullopt) {
  std::vector<std::optional<std::string>> before;
  for (const auto& [k, v] : env) {
    const char* old = std::getenv(k.c_str());
    before.push_back(old ? std::optional<std::string>(old) : std::nullopt);
    setenv(k.c_str(), v.c_str(), 1);
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (out) posix_spawn_file_actions_addopen(&actions, 1, out->c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  int rc = posix_spawnp(&pid, args[0].c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  for (std::size_t i = 0; i < env.size(); ++i) {
    const std::string& k = env[i].first;
    if (before[i]) setenv(k.c_str(), before[i]->c_str(), 1);
    else unsetenv(k.c_str());
  }
  if (rc != 0) throw std::runtime_error("cannot run " + args[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status)) throw std::runtime_error(args[0] + " " + args[1] + " did not exit normally");
  return WEXITSTATUS(status);
}

/// "NAME+0xADDRESS", as the profilers name a frame of `binary` the loader cannot: `hex` as
/// nm or readelf print it, leading zeros dropped.
inline std::string module_offset_name(const fs::path& binary, std::string_view hex) {
  hex.remove_prefix(std::min(hex.find_first_not_of('0'), hex.size() - 1));
  return binary.filename().string() + "+0x" + std::string(hex);
}

inline std::string read_text(const fs::path& file) {
  std::ifstream in(file);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// The value of `symbol` in `binary`'s symbol table, in hexadecimal as `nm` prints it (its
/// output goes to files in `dir`).
inline std::string symbol_value(const fs::path& binary, std::string_view symbol, const fs::path& dir) {
  fs::path symbols = dir / "nm.txt";
  if (run({"nm", "--defined-only", binary.string()}, {}, dir / "nm-stderr.txt", symbols) != 0)
    throw std::runtime_error("nm " + binary.string() + " failed");
  std::istringstream lines(read_text(symbols));
  for (std::string value, type, name; lines >> value >> type >> name;)
    if (name == symbol) return value;
  throw std::runtime_error("nm " + binary.string() + ": no symbol " + std::string(symbol));
}

/// "FILE:N", N the line of FILE (a source beside the checkers) that starts with `text`.
inline std::string source_line(const std::string& file, std::string_view text) {
  std::ifstream source(fs::path(__FILE__).parent_path() / file);
  std::string line;
  for (int n = 1; std::getline(source, line); ++n)
    if (line.starts_with(text)) return file + ":" + std::to_string(n);
  throw std::runtime_error("no line '" + std::string(text) + "' in " + file);
}

/// WORKDIR/SCENARIO, emptied: where a scenario's files go.
inline fs::path scenario_dir(const fs::path& workdir, const std::string& scenario) {
  fs::path dir = workdir / scenario;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

/// Runs `args` with $CCRC_OUT in a directory that does not exist: the profiler says so on
/// stderr (`err`), creates nothing, and the program's exit status (`status`) is kept.
inline void check_unwritable(const std::vector<std::string>& args, int status, const fs::path& dir, const fs::path& err) {
  fs::path bad = dir / "missing" / "profile.cctb";
  check(run(args, {{"CCRC_OUT", bad.string()}}, err) == status, "exit status " + std::to_string(status));
  std::string text = read_text(err);
  std::string message = "ccrc: cannot write the profile to " + bad.string() + ": No such file or directory\n";
  check(text == message, "stderr is '" + text + "', expected '" + message + "'");
  check(!fs::exists(dir / "missing"), "nothing created");
}

/// Prints the scenario's verdict after checking that the program wrote nothing on stderr
/// (unless `quiet` is false); the checker's exit status.
inline int verdict(const std::string& scenario, const fs::path& err, bool quiet = true) {
  if (quiet) {
    std::string text = read_text(err);
    check(text.empty(), "stderr is empty, not '" + text + "'");
  }
  std::cout << scenario << ": " << (failures == 0 ? "ok" : "FAILED") << "\n";
  return failures == 0 ? 0 : 1;
}

}  // namespace instrument_test
