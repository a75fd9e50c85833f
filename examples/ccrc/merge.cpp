// ccrc merge: many profiles into one, read and merged on every core.
#include "command.hpp"

#include <ccrc/transform/merge_all.hpp>
#include <ccrc/tree/metric_unit.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <iterator>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <unordered_set>
#include <vector>

namespace {

namespace fs = std::filesystem;

// The input files, each once, in the order first named: a set of names, so that a list naming
// one file ten million times holds it once (its lines are streamed, never held).
class input_set {
 public:
  // A profile, or a directory: its files, by name.
  void add(const std::string& path) {
    std::error_code ec;
    if (seen_.contains(path) || !fs::is_directory(path, ec)) return add_file(path);
    std::vector<std::string> files;
    for (const auto& entry : fs::directory_iterator(path))
      if (entry.is_regular_file()) files.push_back(entry.path().string());
    std::sort(files.begin(), files.end());
    for (const std::string& f : files) add_file(f);
  }
  [[nodiscard]] std::vector<std::string> take() { return {std::make_move_iterator(paths_.begin()), std::make_move_iterator(paths_.end())}; }
  // Names given again after the first time.
  [[nodiscard]] std::size_t repeated() const noexcept { return repeated_; }

 private:
  void add_file(std::string_view path) {
    if (seen_.contains(path)) {
      ++repeated_;
      return;
    }
    seen_.insert(paths_.emplace_back(path));  // a deque's elements stay where they are
  }
  std::deque<std::string> paths_;
  std::unordered_set<std::string_view> seen_;
  std::size_t repeated_ = 0;
};

// The inputs: each argument is a profile, a directory (its files, by name) or @LIST (a file
// naming one input per line, a profile or a directory: cli::for_each_listed). A file named
// again is merged once, and said so on stderr. `lists` gets the list files.
std::vector<std::string> input_paths(const std::vector<std::string>& arguments, std::vector<std::string>& lists) {
  input_set inputs;
  for (const std::string& arg : arguments) {
    if (arg.size() > 1 && arg[0] == '@') {
      lists.push_back(arg.substr(1));
      cli::for_each_listed(lists.back(), "the list of inputs", [&](std::string_view name) { inputs.add(std::string(name)); });
    } else {
      inputs.add(arg);
    }
  }
  if (std::size_t n = inputs.repeated())
    std::fprintf(stderr, "ccrc merge: %zu input%s named again, merged once\n", n, n == 1 ? "" : "s");
  return inputs.take();
}

// Counts a context in each input that has it: a "runs" column of 1s (0 at the root), unless
// the input already counts them (the output of an earlier merge --runs).
void count_runs(ccrc::profile& p) {
  if (p.find_metric("runs")) return;
  auto runs = p.column(p.add_metric("runs"));
  std::fill(runs.begin() + 1, runs.end(), 1.0);
}

// Refuses a merge whose metrics include one quantity in two units (time_us from one input,
// time_ns from another), naming the first input that brought each: summed as two columns they
// would split one measure in two. Checked on the result, so the inputs named do not depend
// on the threads.
void check_units(const ccrc::profile& merged, const std::vector<std::vector<std::string>>& names,
                 const std::vector<std::string>& paths) {
  auto clash = ccrc::unit_disagreement(merged.metric_names());
  if (!clash) return;
  auto first_with = [&](std::string_view metric) {
    for (std::size_t i = 0; i < names.size(); ++i)
      if (std::find(names[i].begin(), names[i].end(), metric) != names[i].end()) return paths[i];
    return std::string();
  };
  std::string_view a = merged.metric_name(clash->first), b = merged.metric_name(clash->second);
  throw ccrc::error("metric '" + std::string(a) + "' (" + first_with(a) + ") and metric '" + std::string(b) + "' (" +
                    first_with(b) + ") measure one quantity in two units (" +
                    std::string(ccrc::unit_of_metric(a).unit) + ", " + std::string(ccrc::unit_of_metric(b).unit) +
                    "): convert one of them before merging");
}

// "ccrc merge: read 120 of 1000 inputs (3 s)" on stderr, at most once a second.
class progress {
 public:
  explicit progress(std::size_t total) : total_(total) {}
  void done_one() {
    std::size_t done = ++done_;
    auto now = clock::now();
    std::lock_guard lock(m_);
    if (now - last_ < std::chrono::seconds(1)) return;
    last_ = now;
    std::fprintf(stderr, "ccrc merge: read %zu of %zu inputs (%.0f s)\n", done, total_,
                 std::chrono::duration<double>(now - start_).count());
  }

 private:
  using clock = std::chrono::steady_clock;
  std::size_t total_;
  std::atomic<std::size_t> done_{0};
  std::mutex m_;
  clock::time_point start_ = clock::now(), last_ = start_;
};

int run(const cli::args& a, cli::timings& t) {
  auto out = a.value("-o");
  if (!out) throw cli::usage_error("missing -o OUT");
  cli::check_output_path(*out);
  if (a.positional().empty()) throw cli::usage_error("missing IN: the profiles to merge");
  std::vector<std::string> lists;
  const std::vector<std::string> paths = input_paths(a.positional(), lists);
  if (paths.empty()) throw ccrc::error("no input to merge: the directories and lists given are empty");
  cli::refuse_output_over_input(*out, paths);
  cli::refuse_output_over_input(*out, lists);
  // More threads than inputs would have nothing to do.
  const std::optional<std::uint64_t> asked = cli::whole(a, "--threads");
  const auto threads = static_cast<unsigned>(std::min<std::uint64_t>(asked.value_or(0), paths.size()));
  const bool keep_going = a.flag("--keep-going"), runs = a.flag("--runs");
  const ccrc::read_options options = cli::read_options_of(a);

  t.phase("read and merge");
  std::vector<std::string> errors(paths.size());  // with --keep-going, why input i was skipped
  std::vector<std::vector<std::string>> names(paths.size());  // input i's metrics
  progress shown(paths.size());
  unsigned started = 0;
  ccrc::profile merged = ccrc::merge_all(paths.size(), [&](std::size_t i) -> std::optional<ccrc::profile> {
    std::optional<ccrc::profile> p;
    try {
      p = std::move(cli::read(paths[i], options).profile);
      if (runs) count_runs(*p);
      names[i] = p->metric_names();
    } catch (const ccrc::error& e) {
      if (!keep_going) throw;
      errors[i] = e.what();
    }
    shown.done_one();
    return p;
  }, {.threads = threads, .threads_started = &started});
  if (asked && started < threads)
    std::fprintf(stderr, "ccrc merge: --threads %llu: the system started %u of the %u threads wanted, no more; "
                 "they did the work\n", static_cast<unsigned long long>(*asked), started, threads);

  std::size_t skipped = 0;
  for (std::size_t i = 0; i < paths.size(); ++i)
    if (!errors[i].empty()) ++skipped, std::fprintf(stderr, "ccrc merge: skipped %s\n", errors[i].c_str());
  if (skipped != 0) std::fprintf(stderr, "ccrc merge: skipped %zu of %zu inputs\n", skipped, paths.size());
  if (skipped == paths.size()) throw ccrc::error("no input could be read");
  check_units(merged, names, paths);
  cli::save_profile(*out, merged, t, a);
  return 0;
}

}  // namespace

const command merge_command{
    "merge",
    "merges many profiles into one, on every core",
    "usage: ccrc merge IN... -o OUT [--threads N] [--runs] [--keep-going] [--profile NAME|INDEX]\n"
    "                  [--force]\n"
    "\n"
    "Reads every IN (any format ccrc reads) and writes to OUT the profile in which each calling\n"
    "context holds the sum of its metrics over the inputs. An IN may be a profile, a directory\n"
    "(the files in it, by name) or @LIST, a file naming one input per line (a profile or a\n"
    "directory). A file named twice is merged once. OUT may not be an input. Metrics are matched\n"
    "by name; one an input lacks counts as zero there; one quantity in two units (time_us in one\n"
    "input, time_ns in another) is refused. The result is the same, context ids\n"
    "included, whatever the number of threads. OUT is written as its name asks (see convert).\n"
    "\n"
    "  --threads N    threads reading and merging (default: one per core; at most one per\n"
    "                 input; fewer, said on stderr, if the system starts no more)\n"
    "  --runs         adds a metric 'runs': how many inputs hold each context (summed, if an\n"
    "                 input is itself a merge made with --runs)\n"
    "  --keep-going   skips an input that cannot be read (naming it and why) instead of\n"
    "                 stopping at it; fails only when none can be read\n"
    "  --profile      picks one profile of each input, as for the other commands\n"
    "  --force        writes folded stacks or pprof above 1 GiB (see convert)\n",
    {{"-o", "--threads", "--profile"}, {"--runs", "--keep-going", "--force"}},
    run,
};
