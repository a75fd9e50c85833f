// The ccrc tool: Rizel's performance evolution blueprint drawn as SVG, and the colors of the
// diff's classes that the diff ring chart shares. Not part of the library.
#pragma once

#include "cli.hpp"

#include <ccrc/diff/diff.hpp>
#include <ccrc/diff/diff_ring.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace blueprint {

/// How one class of the diff is named in a legend.
struct status_style {
  ccrc::diff_status status;
  const char* label;
};

/// The classes in legend order.
inline constexpr status_style styles[] = {
    {ccrc::diff_status::slower_modified, "slower, modified"}, {ccrc::diff_status::slower, "slower"},
    {ccrc::diff_status::faster_modified, "faster, modified"}, {ccrc::diff_status::faster, "faster"},
    {ccrc::diff_status::added, "new"},
    {ccrc::diff_status::removed, "removed"},
    {ccrc::diff_status::unchanged, "unchanged"},
};

/// The fill of a class in the blueprint: ccrc::diff_color, but white for unchanged (the seed
/// has no such class: its boxes are outlined only).
std::string fill_of(ccrc::diff_status s);

/// A metric value as the pictures and the summary print it (two decimals unless integral).
std::string number_text(double v);

/// A share as a percentage with two decimals ("12.50 %"; "+12.50 %" with `sign`).
std::string percent_text(double share, bool sign = false);

/// The last component of a path, for titles.
std::string file_name(const std::string& path);

/// The blueprint of `d` as an SVG document: the contexts marked in `shown` as boxes of
/// height |H| and width W, callers above callees, colored by class, the numbers (`metric`,
/// and the invocation counts `calls` if any) in tooltips; the runs named in the title.
std::string to_svg(const ccrc::cct_diff& d, std::string_view metric, const std::optional<std::string>& calls,
                   const std::vector<char>& shown, const std::string& old_name, const std::string& new_name);

}  // namespace blueprint
