// Running the ccrc tool as a user would, for the command-line tests.
#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace test {

struct run_result {
  int status;       ///< exit status
  std::string out;  ///< stdout
  std::string err;  ///< stderr
};

/// The whole content of a file ("" if it cannot be read).
inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// Runs `ccrc ARGS` (ARGS as one shell-quoted string) and collects its outputs. `before`, if
/// given, is shell text run first in the same shell, e.g. "ulimit -f 4; exec " (after `exec`,
/// $$ is the tool's process id) or "producer | " to feed the tool's standard input.
inline run_result run_program(const std::string& program, const std::string& args, const std::string& before = "");

inline run_result run_tool(const std::string& args, const std::string& before = "") { return run_program(CCRC_TOOL, args, before); }

/// run_tool for another program.
inline run_result run_program(const std::string& program, const std::string& args, const std::string& before) {
  std::filesystem::create_directories(CCRC_TEST_TMP);
  // ctest runs tests in parallel: every run gets its own file for stderr.
  static int runs = 0;
  std::string err_file = std::string(CCRC_TEST_TMP) + "/stderr-" + std::to_string(getpid()) + "-" +
                         std::to_string(++runs) + ".txt";
  std::string command = before + "'" + program + "' " + args + " 2>'" + err_file + "'";
  run_result r{-1, {}, {}};
  if (std::FILE* pipe = popen(command.c_str(), "r")) {
    char buf[65536];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0) r.out.append(buf, n);
    int raw = pclose(pipe);
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  }
  r.err = read_file(err_file);
  std::filesystem::remove(err_file);
  return r;
}

struct measured_run {
  int status;                ///< exit status (-1 if killed by a signal)
  std::uintmax_t out_bytes;  ///< bytes written to stdout
  long peak_kb;              ///< the process's peak resident memory (ru_maxrss), KB
  std::string err;           ///< stderr
};

/// Runs `ccrc ARGS` with its stack limited to `stack_kb` (deep recursion crashes it), and its
/// address space to `address_space_kb` if given (an allocation beyond it fails), and measures
/// its peak memory and the size of its stdout, which goes to a file, not to memory.
inline measured_run run_tool_measured(const std::string& args, rlim_t stack_kb, rlim_t address_space_kb = 0) {
  std::filesystem::create_directories(CCRC_TEST_TMP);
  std::string base = std::string(CCRC_TEST_TMP) + "/measured-" + std::to_string(getpid());
  std::string command = std::string("exec '") + CCRC_TOOL + "' " + args + " >'" + base + ".out' 2>'" + base + ".err'";
  measured_run r{-1, 0, 0, {}};
  pid_t child = fork();
  if (child == 0) {
    rlimit stack{stack_kb * 1024, stack_kb * 1024};
    setrlimit(RLIMIT_STACK, &stack);
    if (address_space_kb != 0) {
      rlimit address_space{address_space_kb * 1024, address_space_kb * 1024};
      setrlimit(RLIMIT_AS, &address_space);
    }
    execl(CCRC_PEAK_MEMORY, "peak_memory", (base + ".peak").c_str(), command.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  int raw = 0;
  if (child > 0 && waitpid(child, &raw, 0) == child) {
    r.status = WIFEXITED(raw) && WEXITSTATUS(raw) < 128 ? WEXITSTATUS(raw) : -1;
    std::ifstream(base + ".peak") >> r.peak_kb;
  }
  std::error_code ec;
  r.out_bytes = std::filesystem::file_size(base + ".out", ec);
  r.err = read_file(base + ".err");
  std::filesystem::remove(base + ".out", ec);
  std::filesystem::remove(base + ".err", ec);
  std::filesystem::remove(base + ".peak", ec);
  return r;
}

/// Writes `text` to a file in the test directory and returns its path.
inline std::string write_temp(const std::string& name, const std::string& text) {
  std::filesystem::create_directories(CCRC_TEST_TMP);
  std::string path = std::string(CCRC_TEST_TMP) + "/" + std::to_string(getpid()) + "-" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

/// The temporary files left beside `path`, a file in the test directory (tests running at the
/// same time have their own): the tool names them PATH.ccrc-tmp-*.
inline int temporaries_of(const std::string& path) {
  std::string prefix = std::filesystem::path(path).filename().string() + ".ccrc-tmp-";
  int n = 0;
  for (const auto& e : std::filesystem::directory_iterator(CCRC_TEST_TMP))
    if (e.path().filename().string().rfind(prefix, 0) == 0) ++n;
  return n;
}

/// The Figure 1 profile shipped with the examples.
inline const std::string figure1_path = CCRC_SOURCE_DIR "/examples/data/figure1.folded";

}  // namespace test
