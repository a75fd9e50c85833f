#include "inputs.hpp"

#include <ccrc/error.hpp>
#include <ccrc/tree/metric_unit.hpp>

#include <algorithm>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <iterator>
#include <system_error>
#include <unordered_set>

namespace inputs {
namespace {

namespace fs = std::filesystem;

// The input files, each once, in the order first named.
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
  [[nodiscard]] std::vector<std::string> take() {
    return {std::make_move_iterator(paths_.begin()), std::make_move_iterator(paths_.end())};
  }
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

}  // namespace

named_inputs expand(const std::vector<std::string>& arguments, std::string_view command) {
  input_set inputs;
  named_inputs out;
  for (const std::string& arg : arguments) {
    if (arg.size() > 1 && arg[0] == '@') {
      out.lists.push_back(arg.substr(1));
      cli::for_each_listed(out.lists.back(), "the list of inputs", [&](std::string_view name) { inputs.add(std::string(name)); });
    } else {
      inputs.add(arg);
    }
  }
  if (std::size_t n = inputs.repeated())
    std::fprintf(stderr, "ccrc %.*s: %zu input%s named again, read once\n", static_cast<int>(command.size()),
                 command.data(), n, n == 1 ? "" : "s");
  out.paths = inputs.take();
  return out;
}

void refuse_output_over(const std::string& out, const named_inputs& in) {
  cli::refuse_output_over_input(out, in.paths);
  cli::refuse_output_over_input(out, in.lists);
}

batch::batch(std::string command, std::vector<std::string> paths, ccrc::read_options options, bool keep_going)
    : command_(std::move(command)),
      paths_(std::move(paths)),
      options_(std::move(options)),
      keep_going_(keep_going),
      errors_(paths_.size()),
      metrics_(paths_.size()) {}

std::optional<ccrc::profile> batch::read(std::size_t i) {
  std::optional<ccrc::profile> p;
  try {
    p = std::move(cli::read(paths_[i], options_).profile);
    metrics_[i] = p->metric_names();
  } catch (const ccrc::error& e) {
    if (!keep_going_) throw;
    errors_[i] = e.what();
  }
  std::size_t done = ++done_;
  auto now = clock::now();
  std::lock_guard lock(m_);
  if (now - last_ >= std::chrono::seconds(1)) {
    last_ = now;
    std::fprintf(stderr, "ccrc %s: read %zu of %zu inputs (%.0f s)\n", command_.c_str(), done, paths_.size(),
                 std::chrono::duration<double>(now - start_).count());
  }
  return p;
}

void batch::report_skipped() const {
  std::size_t skipped = 0;
  for (const std::string& error : errors_)
    if (!error.empty()) ++skipped, std::fprintf(stderr, "ccrc %s: skipped %s\n", command_.c_str(), error.c_str());
  if (skipped != 0) std::fprintf(stderr, "ccrc %s: skipped %zu of %zu inputs\n", command_.c_str(), skipped, paths_.size());
  if (skipped == paths_.size()) throw ccrc::error("no input could be read");
}

void batch::check_units(const std::vector<std::string>& names, std::string_view doing) const {
  auto clash = ccrc::unit_disagreement(names);
  if (!clash) return;
  auto first_with = [&](std::string_view metric) {
    for (std::size_t i = 0; i < metrics_.size(); ++i)
      if (std::find(metrics_[i].begin(), metrics_[i].end(), metric) != metrics_[i].end()) return paths_[i];
    return std::string();
  };
  std::string_view a = names[clash->first], b = names[clash->second];
  throw ccrc::error("metric '" + std::string(a) + "' (" + first_with(a) + ") and metric '" + std::string(b) + "' (" +
                    first_with(b) + ") measure one quantity in two units (" +
                    std::string(ccrc::unit_of_metric(a).unit) + ", " + std::string(ccrc::unit_of_metric(b).unit) +
                    "): convert one of them before " + std::string(doing));
}

}  // namespace inputs
