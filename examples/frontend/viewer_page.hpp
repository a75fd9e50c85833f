// The interactive viewer (examples/viewer/) with profiles inside it, one self-contained HTML
// page: what `ccrc view` writes, and what the Python module shows in a notebook.
#pragma once

#include <iosfwd>
#include <string>

namespace ccrc {
class profile;
}

/// Writes the interactive viewer with `p` inside it (and `baseline` to compare it with, if not
/// null) to the file `out`, as `ccrc view` does; the names are the profiles' files.
void write_viewer(const std::string& out, const ccrc::profile& p, const std::string& name, const ccrc::profile* baseline,
                  const std::string& baseline_name);
/// write_viewer to a stream (the page is all that is written; a file is the caller's to close).
void write_viewer(std::ostream& out, const ccrc::profile& p, const std::string& name, const ccrc::profile* baseline,
                  const std::string& baseline_name);
