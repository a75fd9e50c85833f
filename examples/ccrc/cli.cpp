#include "cli.hpp"

#include <ccrc/detail/number.hpp>
#include <ccrc/io/cct_binary.hpp>
#include <ccrc/io/cct_text.hpp>
#include <ccrc/io/folded.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

namespace cli {

args::args(std::vector<std::string_view> argv, const option_spec& spec) {
  auto has = [](const std::vector<std::string_view>& names, std::string_view n) {
    return std::find(names.begin(), names.end(), n) != names.end();
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
  double d;
  if (ccrc::detail::parse_number(*v, true, d) != ccrc::detail::number_status::ok)
    throw usage_error(std::string(name) + " expects a number, not '" + *v + "'");
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

namespace {

enum class file_format { folded, cct, cctb };

std::optional<file_format> format_of_extension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  if (ext == ".cct") return file_format::cct;
  if (ext == ".cctb") return file_format::cctb;
  if (ext == ".folded" || ext == ".collapsed" || ext == ".txt") return file_format::folded;
  return std::nullopt;
}

file_format format_of_content(std::string_view start) {
  if (start.size() >= 4 && static_cast<unsigned char>(start[0]) == 0x89 && start.substr(1, 3) == "CCT")
    return file_format::cctb;
  if (start.substr(0, 9) == "ccrc-cct ") return file_format::cct;
  return file_format::folded;
}

// Standard input, its first bytes already read to tell the format.
ccrc::profile read_stdin() {
  std::string start(16, '\0');
  start.resize(std::fread(start.data(), 1, start.size(), stdin));
  file_format f = format_of_content(start);
  if (f == file_format::cctb) {
    std::string bytes = start;
    char buf[1 << 16];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, stdin)) > 0;) bytes.append(buf, n);
    return ccrc::read_cctb(bytes);
  }
  auto read = [&, prefix = std::string_view(start)](char* dst, std::size_t cap) mutable -> std::size_t {
    if (!prefix.empty()) {
      std::size_t n = std::min(cap, prefix.size());
      std::memcpy(dst, prefix.data(), n);
      prefix.remove_prefix(n);
      return n;
    }
    return ccrc::detail::file_source{stdin}(dst, cap);
  };
  if (f == file_format::cct) return ccrc::detail::read_cct_from(read);
  return ccrc::detail::read_folded_from(read, {});
}

}  // namespace

ccrc::profile load_profile(const std::string& path, timings& t) {
  t.phase("read");
  try {
    if (path == "-") return read_stdin();
    file_format f = format_of_extension(path).value_or(file_format::folded);
    if (f == file_format::folded) {  // unless its first bytes say otherwise
      std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
      if (!file) throw ccrc::error("ccrc: cannot open " + path);
      std::string start(16, '\0');
      start.resize(std::fread(start.data(), 1, start.size(), file.get()));
      f = format_of_content(start);
    }
    if (f == file_format::cctb) return ccrc::read_cctb_file(path);
    if (f == file_format::cct) return ccrc::read_cct_file(path);
    return ccrc::read_folded_file(path);
  } catch (const ccrc::parse_error& e) {
    throw ccrc::error((path == "-" ? "<stdin>" : path) + ": " + e.what());
  }
}

void check_output_path(const std::string& path) {
  if (path != "-" && !format_of_extension(path))
    throw usage_error("cannot tell the format of '" + path + "': name it .cct, .cctb or .folded");
}

void save_profile(const std::string& path, const ccrc::profile& p, timings& t) {
  t.phase("write");
  if (path == "-") {
    std::ostream& out = std::cout;
    ccrc::write_folded(out, p);
    out.flush();
    return;
  }
  check_output_path(path);
  auto f = format_of_extension(path);
  std::ofstream out(path, std::ios::binary);
  if (!out) throw ccrc::error("ccrc: cannot write " + path);
  if (f == file_format::cctb) ccrc::write_cctb(out, p);
  else if (f == file_format::cct) ccrc::write_cct(out, p);
  else ccrc::write_folded(out, p);
  out.close();
  if (!out) throw ccrc::error("ccrc: write error on " + path);
}

std::size_t metric_index(const ccrc::profile& p, const args& a) {
  if (auto name = a.value("--metric")) return p.metric_index(*name);
  return 0;
}

ccrc::node_id node_at_path(const ccrc::call_tree& t, std::string_view path) {
  ccrc::node_id n = ccrc::root_node;
  for (std::size_t pos = 0; pos < path.size();) {
    std::size_t stop = std::min(path.find(';', pos), path.size());
    std::string_view name = path.substr(pos, stop - pos);
    auto f = t.symbols().find(name);
    ccrc::node_id child = f ? t.find_child(n, *f) : ccrc::null_node;
    if (child == ccrc::null_node) {
      std::string where = pos == 0 ? "at the top level" : "under '" + std::string(path.substr(0, pos - 1)) + "'";
      throw ccrc::error("no calling context '" + std::string(path) + "': no frame '" + std::string(name) + "' " + where);
    }
    n = child;
    pos = stop + 1;
  }
  return n;
}

std::string path_of(const ccrc::call_tree& t, ccrc::node_id n) {
  std::string s;
  for (ccrc::frame_id f : t.path(n)) {
    if (!s.empty()) s += ';';
    s += t.symbols().name(f);
  }
  return s;
}

ccrc::name_query name_query_of(const std::string& text, const args& a) {
  ccrc::name_query q;
  if (text.rfind("re:", 0) == 0) {
    q.match = ccrc::name_match::regex;
    q.text = text.substr(3);
  } else if (text.rfind("=", 0) == 0) {
    q.match = ccrc::name_match::exact;
    q.text = text.substr(1);
  } else {
    q.text = text;
  }
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
  if (auto path = a.value("--root")) root = node_at_path(p.tree(), *path);
  std::uint32_t depth = ccrc::unlimited_depth;
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
  return *this;
}
json& json::value(double v) {
  separate();
  if (std::isfinite(v))
    ccrc::detail::append_number(out_, v);
  else
    out_ += "null";
  return *this;
}
json& json::value(std::uint64_t v) {
  separate();
  ccrc::detail::append_number(out_, v);
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

void append_json_string(std::string& out, std::string_view s) {
  out += '"';
  std::size_t run = 0;  // start of the characters that need no escape, copied in one go
  for (std::size_t i = 0; i < s.size(); ++i) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.append(s, run, i - run);
    run = i + 1;
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default: {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
        out += buf;
      }
    }
  }
  out.append(s, run, s.size() - run);
  out += '"';
}

std::string format_value(double v, int decimals) {
  if (!std::isfinite(v)) return "n/a";
  std::string s;
  if (v == std::trunc(v) && std::abs(v) < 1e18) {
    ccrc::detail::append_number(s, v);
    return s;
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

}  // namespace cli
