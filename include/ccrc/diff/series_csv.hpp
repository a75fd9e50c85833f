// ccrc - benchmarks across versions (diff/series.hpp) written as CSV, for a spreadsheet or a
// plot of Rizel's Figure 6.
#pragma once

#include <ccrc/detail/number_text.hpp>
#include <ccrc/diff/series.hpp>

#include <cmath>
#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>

namespace ccrc {

namespace detail {

// A CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break.
inline void append_csv_field(std::string& out, std::string_view s) {
  if (s.find_first_of(",\"\r\n") == std::string_view::npos) {
    out += s;
    return;
  }
  out += '"';
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
}

}  // namespace detail

/// The series as CSV (RFC 4180, "\n" line ends): a header `version,<benchmark>,...`, then one
/// row per version with each benchmark's total, printed exactly (shortest form that reads
/// back the same), an empty cell where it was not measured. O(output).
///
///     ccrc::write_csv(std::cout, series);
///     // version,testFixedSize
///     // 1.97,102
[[nodiscard]] inline std::string series_csv(const version_series& s) {
  std::string out = "version";
  for (const auto& b : s.benchmarks) {
    out += ',';
    detail::append_csv_field(out, b.name);
  }
  out += '\n';
  for (std::size_t v = 0; v < s.versions.size(); ++v) {
    detail::append_csv_field(out, s.versions[v]);
    for (const auto& b : s.benchmarks) {
      out += ',';
      if (v < b.totals.size() && std::isfinite(b.totals[v])) detail::append_number(out, b.totals[v]);
    }
    out += '\n';
  }
  return out;
}

/// series_csv written to a stream.
inline void write_csv(std::ostream& out, const version_series& s) {
  std::string text = series_csv(s);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
}

}  // namespace ccrc
