#include "cli.hpp"

#include <ccrc/io/cct_binary.hpp>
#include <ccrc/io/cct_text.hpp>
#include <ccrc/io/folded.hpp>
#include <ccrc/io/number.hpp>
#include <ccrc/formats/read_any_profile.hpp>
#include <ccrc/formats/write_profile.hpp>
#include <ccrc/io/read_profile.hpp>
#include <ccrc/transform/function.hpp>
#include <ccrc/tree/metric_unit.hpp>
#include <ccrc/tree/path.hpp>

#include <algorithm>
#include <cmath>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <limits>
#include <mutex>
#include <fstream>
#include <new>
#include <stdexcept>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>

namespace cli {

namespace {

// Other spellings of an option, as users bring them from other tools: each is read as the
// option it stands for, by the commands that take that option.
constexpr std::pair<std::string_view, std::string_view> aliases[] = {
    {"--colour-by", "--color-by"},  // the British spelling
    {"--limit", "--top"},
    {"--mode", "--sizing"},  // render's first name for it
};

}  // namespace

args::args(std::vector<std::string_view> argv, const option_spec& spec) {
  auto has = [](const std::vector<std::string_view>& names, std::string_view n) {
    return std::find(names.begin(), names.end(), n) != names.end();
  };
  auto canonical = [&](std::string_view name) {
    for (auto [alias, option] : aliases)
      if (name == alias && (has(spec.with_value, option) || has(spec.flags, option))) return option;
    return name;
  };
  bool options_done = false;
  for (std::size_t i = 0; i < argv.size(); ++i) {
    std::string_view a = argv[i];
    if (options_done || a.size() < 2 || a[0] != '-' || a == "-") {
      positional_.emplace_back(a);
      continue;
    }
    if (a == "--") {
      options_done = true;
      continue;
    }
    std::string_view name = a, inline_value;
    bool has_inline = false;
    if (auto eq = a.find('='); eq != std::string_view::npos) {
      name = a.substr(0, eq);
      inline_value = a.substr(eq + 1);
      has_inline = true;
    }
    name = canonical(name);
    if (has(spec.with_value, name)) {
      if (!has_inline && i + 1 == argv.size()) throw usage_error(std::string(name) + " needs a value");
      values_[std::string(name)] = std::string(has_inline ? inline_value : argv[++i]);
    } else if (has(spec.flags, name) && !has_inline) {
      flags_[std::string(name)] = true;
    } else {
      throw usage_error("unknown option '" + std::string(a) + "'");
    }
  }
}

const std::string& args::positional(std::size_t i, std::string_view what) const {
  if (i >= positional_.size()) throw usage_error("missing " + std::string(what));
  return positional_[i];
}

std::optional<std::string> args::value(std::string_view name) const {
  auto it = values_.find(name);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

std::optional<double> args::number(std::string_view name) const {
  auto v = value(name);
  if (!v) return std::nullopt;
  auto d = ccrc::parse_number(*v);
  if (!d) throw usage_error(std::string(name) + " expects a number, not '" + *v + "'");
  return d;
}

void args::expect_at_most(std::size_t n) const {
  if (positional_.size() > n) throw usage_error("unexpected argument '" + positional_[n] + "'");
}

void timings::phase(std::string name) {
  stop();
  current_ = std::move(name);
  phase_start_ = clock::now();
}

void timings::stop() {
  if (current_.empty()) return;
  double ms = std::chrono::duration<double, std::milli>(clock::now() - phase_start_).count();
  // A phase run twice (reading two profiles) is one phase: JSON keys stay unique.
  for (auto& [name, total] : phases_)
    if (name == current_) {
      total += ms;
      current_.clear();
      return;
    }
  phases_.emplace_back(std::move(current_), ms);
  current_.clear();
}

std::string timings::json() const {
  cli::json j;
  j.begin_object().key("phases_ms").begin_object();
  for (const auto& [name, ms] : phases_) j.field(name, std::round(ms * 1000) / 1000);
  double total = std::chrono::duration<double, std::milli>(clock::now() - start_).count();
  j.end_object().field("total_ms", std::round(total * 1000) / 1000).end_object();
  return j.str();
}

std::size_t top_of(const args& a, std::size_t fallback) {
  auto v = a.value("--top");
  if (!v) return fallback;
  if (*v == "all") return std::numeric_limits<std::size_t>::max();
  auto n = ccrc::parse_number(*v);
  if (!n || *n < 0 || *n != std::floor(*n)) throw usage_error("--top expects a whole number of rows or 'all', not '" + *v + "'");
  return static_cast<std::size_t>(std::min(*n, 1e15));
}

std::optional<std::uint64_t> whole(const args& a, std::string_view name, double least) {
  auto v = a.number(name);
  if (!v) return std::nullopt;
  if (*v < least || *v != std::floor(*v) || *v > 1e15)
    throw usage_error(std::string(name) + " expects a whole number of at least " + format_value(least) + ", not '" +
                      *a.value(name) + "'");
  return static_cast<std::uint64_t>(*v);
}

ccrc::read_options read_options_of(const args& a) {
  ccrc::read_options options;
  options.profile = a.value("--profile").value_or("");
  if (auto bytes = whole(a, "--max-document-bytes")) options.max_document_bytes = *bytes;
  return options;
}

ccrc::read_result load(const std::string& path, timings& t, const args& a) {
  t.phase("read");
  return read(path, read_options_of(a));
}

ccrc::read_result read(const std::string& path, ccrc::read_options options) {
  options.input_name = path == "-" ? "<stdin>" : path;  // the readers' errors name it
  const std::string& name = options.input_name;
  try {
    ccrc::read_result r;
    if (path != "-") {
      r = ccrc::read_profile_file(path, options);
    } else {
      errno = 0;
      r = ccrc::read_profile(std::cin, options);
      // std::cin reports a failed read (stdin a directory, an I/O error) as the end of the input.
      if (std::ferror(stdin)) throw ccrc::error(name + ": read error: " + (errno ? std::strerror(errno) : "?"), name);
    }
    for (const std::string& w : r.warnings) std::fprintf(stderr, "ccrc: %s: warning: %s\n", name.c_str(), w.c_str());
    return r;
  } catch (const ccrc::document_too_large& e) {
    // The bound in the words of the command line.
    throw ccrc::error(name + ": a " + e.document() + " larger than " + std::to_string(e.limit()) +
                      " bytes (inflated, if the file is gzip-compressed): ccrc holds this format whole to read it, "
                      "up to --max-document-bytes (default 2 GiB), which raises the bound");
  } catch (const std::bad_alloc&) {
    // What the reader held is freed by now: the message can be made.
    throw ccrc::error(name + ": not enough memory to read it");
  } catch (const std::length_error&) {
    throw ccrc::error(name + ": not enough memory to read it (a size beyond what one allocation can hold)");
  }
}

ccrc::profile load_profile(const std::string& path, timings& t, const args& a) {
  return std::move(load(path, t, a).profile);
}

namespace {

// The names a written file may have, from ccrc::format_table: each writable format's first,
// with the format's name where neither holds the other, in order: ".cct, .cctb, .folded,
// .pb.gz (pprof) or .speedscope.json".
std::string writable_names() {
  std::vector<std::string> names;
  for (const ccrc::format_info& f : ccrc::format_table) {
    if (f.file_names.empty() || !ccrc::writable_format("x" + std::string(f.file_names[0]))) continue;
    std::string name(f.file_names[0]);
    if (f.name.find(name.substr(1)) == std::string_view::npos && name.find(f.name) == std::string::npos)
      name += " (" + std::string(f.name) + ")";
    names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) out += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  return out;
}

}  // namespace

void check_output_path(const std::string& path) {
  if (path == "-") return;
  if (ccrc::writable_format(path)) return;
  // A format read but never written: saying so beats a folded file named .perf.
  if (std::optional<ccrc::profile_format> read_only = ccrc::format_of_extension(path))
    throw usage_error("cannot write '" + path + "': ccrc reads " + std::string(ccrc::name_of(*read_only)) +
                      " but does not write it; name it " + writable_names());
  throw usage_error("cannot tell the format of '" + path + "': name it " + writable_names());
}

void refuse_output_over_input(const std::string& out, const std::vector<std::string>& inputs) {
  struct stat written {};
  if (out == "-" || ::stat(out.c_str(), &written) != 0 || !S_ISREG(written.st_mode)) return;
  for (const std::string& in : inputs) {
    struct stat read {};
    if (in == "-" || ::stat(in.c_str(), &read) != 0 || read.st_dev != written.st_dev || read.st_ino != written.st_ino) continue;
    throw ccrc::error("cannot write " + out + ": it is " + (in == out ? "an input" : "the input " + in + " (the same file)") +
                      ", which the output would replace: name another output");
  }
}

void for_each_listed(const std::string& path, std::string_view what, const std::function<void(std::string_view)>& each) {
  const std::string named = what.empty() ? path : std::string(what) + " " + path;
  std::ifstream list(path, std::ios::binary);
  if (!list) throw ccrc::error("cannot open " + named);
  // A directory opens, then reads as an empty list: say so instead.
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw ccrc::error("cannot read " + path + ": it is a directory");
  bool first = true;
  for (std::string line; std::getline(list, line); first = false) {
    std::string_view name = line;
    if (first && name.starts_with("\xEF\xBB\xBF")) name.remove_prefix(3);
    const std::size_t begin = name.find_first_not_of(" \t\r");
    if (begin == std::string_view::npos || name[begin] == '#') continue;
    each(name.substr(begin, name.find_last_not_of(" \t\r") + 1 - begin));
  }
  if (list.bad()) throw ccrc::error("cannot read " + named);
}

namespace {

// "cannot write PATH: reason", the reason from errno when the failing call set it.
[[noreturn]] void cannot_write(const std::string& path, int error_number) {
  std::string reason = error_number != 0 ? std::strerror(error_number) : "write error";
  throw ccrc::error("cannot write " + path + ": " + reason);
}

}  // namespace

namespace {

// Refuses folded stacks or pprof above max_stack_output_bytes, their size computed in
// O(contexts) from the tree (see save_profile).
void check_stack_output_size(const std::string& path, const ccrc::profile& p) {
  using ccrc::profile_format;
  const profile_format f = path == "-" ? profile_format::folded : ccrc::writable_format(path).value_or(profile_format::cctb);
  if (f != profile_format::folded && f != profile_format::pprof) return;
  const std::uint64_t bytes = f == profile_format::folded ? ccrc::folded_size(p) : ccrc::pprof_size(p);
  if (bytes <= max_stack_output_bytes) return;
  char gib[32];
  std::snprintf(gib, sizeof gib, "%.1f", static_cast<double>(bytes) / static_cast<double>(std::uint64_t{1} << 30));
  const bool folded = f == profile_format::folded;
  throw ccrc::error((path == "-" ? std::string("stdout") : path) + " would take " + std::to_string(bytes) + " bytes of " +
                    (folded ? "folded stacks" : "pprof (before gzip)") + " (" + gib +
                    " GiB), more than the 1 GiB written without --force: " +
                    (folded ? "a folded line" : "a pprof sample") +
                    " holds its context's whole stack, so the size grows with depth x contexts. Write .cctb or "
                    ".speedscope.json, which hold each context once, or pass --force");
}

}  // namespace

void save_profile(const std::string& path, const ccrc::profile& p, timings& t, const args& a) {
  t.phase("write");
  if (!a.flag("--force")) check_stack_output_size(path, p);
  if (path == "-") {
    std::ostream& out = std::cout;
    errno = 0;
    try {
      ccrc::write_folded(out, p);
      out.flush();
    } catch (const ccrc::error&) {
      if (out) throw;  // what the format cannot hold, not a failed write
    }
    if (!out) cannot_write("to stdout", errno);
    return;
  }
  check_output_path(path);
  output_file file(path);
  try {
    ccrc::write_profile(file.stream(), p, std::filesystem::path(path));
  } catch (const ccrc::error&) {
    if (file.stream()) throw;  // what the format cannot hold; a failed write is reported by commit()
  }
  file.commit();
}

namespace {

// A write beyond RLIMIT_FSIZE fails (EFBIG, reported) instead of ending the tool with SIGXFSZ,
// and a fatal signal takes the temporary files with it. Once, at the first output file.
void set_up_signals() {
  static std::once_flag once;
  std::call_once(once, [] {
    std::signal(SIGXFSZ, SIG_IGN);
    ccrc_files::remove_temporaries_on_termination();
  });
}

}  // namespace

output_file::output_file(std::string path) : path_(std::move(path)) {
  set_up_signals();
  int e = file_.open(path_);
  if (e == EISDIR) throw ccrc::error("cannot write " + path_ + ": it is a directory");
  if (e != 0) cannot_write(path_, e);
}

void output_file::commit() {
  if (int e = file_.commit()) cannot_write(path_, e);
}

output::output(const std::string& path) {
  if (path != "-") file_.emplace(path);
}

std::ostream& output::stream() noexcept { return file_ ? file_->stream() : std::cout; }

void output::commit() {
  if (file_) return file_->commit();
  errno = 0;
  std::cout.flush();
  if (!std::cout) cannot_write("to stdout", errno);
}

std::size_t metric_index(const ccrc::profile& p, const args& a) {
  if (auto name = a.value("--metric")) return p.metric_index(*name);
  return ccrc::primary_metric(p.metric_names());
}

ccrc::profile focused(ccrc::profile p, timings& t, const args& a) {
  auto name = a.value("--focus");
  if (!name) return p;
  t.phase("focus");
  ccrc::method_set methods = ccrc::methods_named(p.symbols(), {std::string_view(*name)});
  if (methods.empty()) throw ccrc::error("no function '" + *name + "' in the profile (--focus takes a method's whole name)");
  return std::move(ccrc::focus_function(p, methods).output);
}

ccrc::name_query name_query_of(const std::string& text, const args& a) {
  ccrc::name_query q = ccrc::parse_name_query(text);
  int parts = 0;
  for (auto [flag, part] : {std::pair{"--method", ccrc::name_part::method}, std::pair{"--class", ccrc::name_part::class_name},
                            std::pair{"--package", ccrc::name_part::package}}) {
    if (!a.flag(flag)) continue;
    q.part = part;
    ++parts;
  }
  if (parts > 1) throw usage_error("--method, --class and --package exclude each other");
  q.ignore_case = a.flag("--ignore-case") || a.flag("-i");
  return q;
}

ccrc::tree_view view_of(const ccrc::profile& p, const args& a) {
  ccrc::node_id root = ccrc::root_node;
  if (auto path = a.value("--root")) root = ccrc::node_at_path(p.tree(), *path);
  std::uint32_t depth = ccrc::unlimited_depth;
  if (a.value("--depth") == "all") return ccrc::tree_view(p.tree(), root);
  if (auto d = a.number("--depth")) {
    if (*d < 0 || *d != std::floor(*d) || *d >= ccrc::unlimited_depth)
      throw usage_error("--depth expects a whole number of levels, not '" + *a.value("--depth") + "'");
    depth = static_cast<std::uint32_t>(*d);
  }
  return ccrc::tree_view(p.tree(), root, depth);
}

void json::separate() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!first_.empty()) {
    if (!first_.back()) out_ += ", ";
    first_.back() = false;
  }
}

json& json::begin_object() {
  separate();
  out_ += '{';
  first_.push_back(true);
  return *this;
}
json& json::end_object() {
  out_ += '}';
  first_.pop_back();
  written();
  return *this;
}
json& json::begin_array() {
  separate();
  out_ += '[';
  first_.push_back(true);
  return *this;
}
json& json::end_array() {
  out_ += ']';
  first_.pop_back();
  written();
  return *this;
}
json& json::key(std::string_view k) {
  separate();
  append_json_string(out_, k);
  out_ += ": ";
  after_key_ = true;
  return *this;
}
json& json::value(std::string_view s) {
  separate();
  append_json_string(out_, s);
  written();
  return *this;
}
json& json::value(double v) {
  separate();
  ccrc::append_json_number(out_, v);
  return *this;
}
json& json::value(std::uint64_t v) {
  separate();
  ccrc::append_number(out_, v);
  return *this;
}
json& json::value(bool b) {
  separate();
  out_ += b ? "true" : "false";
  return *this;
}
json& json::null() {
  separate();
  out_ += "null";
  return *this;
}

void json::flush() {
  if (!sink_ || out_.empty()) return;
  sink_(out_);
  out_.clear();
}

std::string format_value(double v, int decimals) {
  if (!std::isfinite(v)) return "n/a";
  // Every integral value, at any magnitude, in its shortest exact form ("1e+70"); the others
  // are below 2^52 in magnitude, so "%.*f" fits the buffer for any sensible `decimals`.
  if (v == std::trunc(v)) return ccrc::format_number(v);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

}  // namespace cli
