// ccrc - what the .cct and .cctb formats share: the names they accept, exact numbers.
#pragma once

#include <ccrc/concepts.hpp>
#include <ccrc/detail/line_reader.hpp>
#include <ccrc/detail/number_text.hpp>
#include <ccrc/detail/portable.hpp>
#include <ccrc/detail/text.hpp>
#include <ccrc/error.hpp>
#include <ccrc/tree/call_tree.hpp>

#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ccrc::detail {

/// Why `name` cannot name a metric in a native file (nullptr if it can): metric names are
/// written on one line separated by blanks.
inline const char* check_metric_name(std::string_view name) noexcept {
  if (name.empty()) return "is empty";
  if (name.find_first_of(" \t") != std::string_view::npos) return "contains a blank";
  return check_name_text(name);
}

/// Why `name` cannot name a frame in a native file (nullptr if it can): frame names are
/// written one per line.
inline const char* check_frame_name(std::string_view name) noexcept {
  if (name.empty()) return "is empty";
  return check_name_text(name);
}

/// Checks every frame name of a tree for a native file.
inline void check_frame_names(const call_tree& t) {
  const symbol_table& syms = t.symbols();
  for (frame_id f{1}; f < syms.frame_count(); ++f)
    if (const char* why = check_frame_name(syms.name(f)))
      throw error("frame name '" + std::string(syms.name(f)) + "' " + why);
}

/// Checks a tree's (a profile's or a cct's) names for a native file; returns its metric names.
template <metric_tree Tree>
std::vector<std::string> native_names(const Tree& t) {
  check_frame_names(t.tree());
  std::vector<std::string> names;
  t.for_each_column([&](std::string_view name, auto) {
    if (const char* why = check_metric_name(name))
      throw error("metric name '" + std::string(name) + "' " + why);
    names.emplace_back(name);
  });
  return names;
}

/// Appends v so that parse_number reads back exactly v: integers up to 2^53 as digits, larger
/// ones in scientific notation (digits alone would read as an integer too large to be exact:
/// 1.8014398509481986e+16), others in write_double's shortest round-trip form (0.1).
inline void append_exact(std::string& out, double v) {
  char buf[double_chars];
  char* end;
  if (v == std::trunc(v) && std::abs(v) <= static_cast<double>(max_exact_integer))
    end = std::to_chars(buf, buf + sizeof buf, static_cast<std::int64_t>(v)).ptr;
  else
    end = write_double(buf, v, v == std::trunc(v));
  out.append(buf, end);
}

}  // namespace ccrc::detail
