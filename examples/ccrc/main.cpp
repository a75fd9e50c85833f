// ccrc: statistics, flat profiles and more for calling context profiles.
#include "command.hpp"

#include <ccrc/error.hpp>
#include <ccrc/io/read_profile.hpp>

#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <new>
#include <string>
#include <string_view>
#include <vector>

namespace {

const command* const commands[] = {&stats_command,   &flat_command,    &search_command,    &callgraph_command,
                                   &render_command,  &view_command,    &diff_command,      &generate_command,
                                   &convert_command, &merge_command,   &symbolize_command, &dacapo_command,
                                   &demo_command,    &ensemble_command};

// The overview around the list of formats, which comes from ccrc::format_table.
constexpr std::string_view overview_head =
    "ccrc - calling context profiles: statistics, flat profiles, call graphs, ring charts, diffs\n"
    "\n"
    "usage: ccrc COMMAND [ARGS] [--timings] [--help]\n"
    "       ccrc --version\n"
    "\n"
    "PROFILE is a file in any format ccrc reads, told by its content, gzip-compressed or not\n"
    "(docs/formats.md), or '-' for stdin: ";
constexpr std::string_view overview_tail =
    "Folded stacks are lines 'main;f;g 42', outermost frame first; several trailing numbers are\n"
    "several metrics, named by a '# metrics: a b' line. A file of several profiles (threads,\n"
    "processes) gives them all, each under a frame named after it; --profile NAME|INDEX picks\n"
    "one (`ccrc stats` lists them). pprof and JSON are read whole: one larger than 2 GiB once\n"
    "inflated is refused, unless --max-document-bytes N raises the bound.\n"
    "--timings prints the duration of each phase as one JSON line on stderr.\n"
    "\n"
    "commands:\n";

// `text` appended to `out`, whose last line is `column` characters long so far, broken at
// spaces before 92 columns.
void append_wrapped(std::string& out, std::size_t column, std::string_view text) {
  for (std::size_t at = 0; at < text.size();) {
    std::size_t end = text.find(' ', at);
    std::string_view word = text.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at);
    if (column != 0 && column + 1 + word.size() > 91) {
      out += '\n';
      column = 0;
    } else if (at != 0) {
      out += ' ';
      ++column;
    }
    out += word;
    column += word.size();
    at = end == std::string_view::npos ? text.size() : end + 1;
  }
  out += '\n';
}

void print_overview(std::FILE* to) {
  std::string s(overview_head);
  append_wrapped(s, s.size() - s.rfind('\n') - 1, ccrc::format_names() + ".");
  s += overview_tail;
  for (const command* c : commands) {
    std::string name(c->name);
    name.resize(12, ' ');
    s += "  " + name + std::string(c->summary) + "\n";
  }
  s += "\nRun 'ccrc COMMAND --help' for the options of one command.\n";
  std::fputs(s.c_str(), to);
}

}  // namespace

void print(std::string_view s) { std::fwrite(s.data(), 1, s.size(), stdout); }

namespace {

// Output that never reached stdout (a full disk, a closed pipe, /dev/full) is a failure, not
// a success: flushes stdout and turns a write error into a message and status 1.
int checked_stdout(const char* command, int status) {
  errno = 0;
  if (std::fflush(stdout) == 0 && !std::ferror(stdout)) return status;
  std::fprintf(stderr, "%s%s: cannot write to stdout: %s\n", command ? "ccrc " : "ccrc", command ? command : "",
               errno != 0 ? std::strerror(errno) : "write error");
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string_view> rest(argv + 1, argv + argc);
  if (rest.empty() || rest[0] == "--help" || rest[0] == "-h" || rest[0] == "help") {
    print_overview(rest.empty() ? stderr : stdout);
    return checked_stdout(nullptr, rest.empty() ? 2 : 0);
  }
  if (rest[0] == "--version" || rest[0] == "-V") {
    print("ccrc " CCRC_VERSION "\n");
    return checked_stdout(nullptr, 0);
  }
  const command* cmd = nullptr;
  for (const command* c : commands)
    if (c->name == rest[0]) cmd = c;
  if (!cmd) {
    std::fprintf(stderr, "ccrc: unknown command '%s' (see 'ccrc --help')\n", argv[1]);
    return 2;
  }
  rest.erase(rest.begin());
  cli::timings t;
  try {
    cli::option_spec spec = cmd->options;
    spec.flags.insert(spec.flags.end(), {"--help", "-h", "--timings"});
    spec.with_value.push_back("--max-document-bytes");
    cli::args a(rest, spec);
    if (a.flag("--help") || a.flag("-h")) {
      print(cmd->usage);
      return checked_stdout(argv[1], 0);
    }
    int status = checked_stdout(argv[1], cmd->run(a, t));
    t.stop();
    if (a.flag("--timings")) std::fprintf(stderr, "%s\n", t.json().c_str());
    return status;
  } catch (const cli::usage_error& e) {
    std::fprintf(stderr, "ccrc %s: %s\n\n%.*s", argv[1], e.what(), static_cast<int>(cmd->usage.size()),
                 cmd->usage.data());
    return 2;
  } catch (const std::bad_alloc&) {
    // Reading names its input (cli::read); what runs out of memory after it says where.
    std::fprintf(stderr, "ccrc %s: not enough memory%s%s%s\n", argv[1], t.current().empty() ? "" : " (in phase '",
                 t.current().c_str(), t.current().empty() ? "" : "')");
    return 1;
  } catch (const std::exception& e) {
    // Library messages carry no prefix: the tool names itself and the command.
    std::fprintf(stderr, "ccrc %s: %s\n", argv[1], e.what());
    return 1;
  }
}
