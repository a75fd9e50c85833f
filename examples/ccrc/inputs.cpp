#include "inputs.hpp"

#include <ccrc/error.hpp>
#include <ccrc/tree/metric_unit.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <system_error>

namespace inputs {
namespace {

namespace fs = std::filesystem;

// A profile, or a directory: its files, by name.
void add_input(std::vector<std::string>& out, const std::string& path) {
  std::error_code ec;
  if (!fs::is_directory(path, ec)) {
    out.push_back(path);
    return;
  }
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(path))
    if (entry.is_regular_file()) files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  out.insert(out.end(), files.begin(), files.end());
}

}  // namespace

std::vector<std::string> expand(const std::vector<std::string>& arguments) {
  std::vector<std::string> out;
  for (const std::string& arg : arguments) {
    if (arg.size() > 1 && arg[0] == '@') {
      std::ifstream list(arg.substr(1));
      if (!list) throw ccrc::error("cannot open the list of inputs " + arg.substr(1));
      for (std::string line; std::getline(list, line);)
        if (!line.empty() && line[0] != '#') add_input(out, line);
      if (list.bad()) throw ccrc::error("cannot read the list of inputs " + arg.substr(1));
    } else {
      add_input(out, arg);
    }
  }
  return out;
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
