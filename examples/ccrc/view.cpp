// ccrc view: one self-contained HTML file, the interactive viewer (examples/viewer/) with the
// profile inside it as .cctb, that opens from file:// without a network (see viewer_page.cpp).
#include "command.hpp"
#include "viewer_page.hpp"

#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace {

// Without -o: PROFILE's name with .html for its extension, in the current directory
// (`app.cpuprofile` gives `app.html`), never PROFILE itself.
std::string default_output(const std::string& input) {
  std::filesystem::path name = std::filesystem::path(input).filename();
  if (input == "-" || name.empty() || name.extension() == ".html")
    throw cli::usage_error("missing -o OUT.html (needed when PROFILE is stdin or an .html file)");
  return name.replace_extension(".html").string();
}

int run(const cli::args& a, cli::timings& t) {
  a.expect_at_most(1);
  const std::string& input = a.positional(0, "PROFILE");
  const std::optional<std::string> named = a.value("-o");
  const std::string out = named ? *named : default_output(input);
  // The page is HTML: a name that says otherwise (`-o run.cctb`) is a slip, likely over a profile.
  if (out != "-" && !out.ends_with(".html") && !out.ends_with(".htm"))
    throw cli::usage_error("-o expects a file ending in .html or .htm, or -, not '" + out + "'");
  auto first = a.value("--compare");
  std::vector<std::string> inputs{input};
  if (first) inputs.push_back(*first);
  cli::refuse_output_over_input(out, inputs);
  ccrc::profile p = cli::load_profile(input, t, a);
  std::optional<ccrc::profile> baseline;
  if (first) baseline = cli::load_profile(*first, t, a);
  t.phase("write");
  write_viewer(out, p, input, baseline ? &*baseline : nullptr, first.value_or(""));
  std::string compared = first ? ", compared with " + first->substr(first->find_last_of('/') + 1) : "";
  std::string summary = (out == "-" ? "<stdout>" : out) + ": the viewer with " + std::to_string(p.tree().size() - 1) +
                        " calling contexts" + compared + "\n";
  // On standard output the page is the whole output: the summary goes to stderr.
  if (out == "-")
    std::fputs(summary.c_str(), stderr);
  else
    print(summary);
  return 0;
}

}  // namespace

const command view_command{
    "view",
    "the interactive ring-chart viewer and the profile, in one HTML file",
    "usage: ccrc view PROFILE [-o OUT.html|-] [--compare FIRST] [--profile NAME|INDEX]\n"
    "\n"
    "Writes one self-contained HTML file: the interactive viewer (WebAssembly, see\n"
    "docs/viewer.md) with PROFILE inside it as .cctb. It opens in a browser from the file,\n"
    "without a network: click a segment to make it the center, the center to go back; depth,\n"
    "sizing, metric, tree (recursion eliminated, call graph) and search in the bar at the top.\n"
    "PROFILE is any format ccrc reads; OUT.html is by default PROFILE's name with .html for its\n"
    "extension, in the current directory; OUT must end in .html or .htm, and may not be an input;\n"
    "-o - writes it to standard output. --compare FIRST\n"
    "embeds a first run of the same program too: the chart is colored by what changed since\n"
    "it (the diff's classes, as `ccrc diff --chart ring`).\n",
    {{"--profile", "-o", "--compare"}, {}},
    run,
};
