// The MPI examples: a profile written to a file whole or not at all, as the ccrc tool writes
// one (examples/whole_file/whole_file.hpp: a temporary beside it, renamed over it).
#pragma once

#include "whole_file.hpp"

#include <ccrc/error.hpp>
#include <ccrc/formats/write_profile.hpp>

#include <cstring>
#include <filesystem>
#include <string>

namespace mpi_example {

/// Writes `p` to `path` in the format its name asks for; throws ccrc::error naming the file
/// and the reason, leaving any file there as it was.
inline void write_profile_file(const std::string& path, const ccrc::profile& p) {
  ccrc_files::whole_file file;
  if (int e = file.open(path)) throw ccrc::error("cannot write " + path + ": " + std::strerror(e));
  ccrc::write_profile(file.stream(), p, std::filesystem::path(path));
  if (int e = file.commit()) throw ccrc::error("cannot write " + path + ": " + std::strerror(e));
}

}  // namespace mpi_example
