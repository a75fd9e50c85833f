// Saving a benchmark's generated input, so that another program (speedscope's importer,
// `ccrc stats`) can be timed on the very bytes the benchmark reads.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>

namespace bench {

/// With CCRC_BENCH_SAVE=DIR in the environment, writes `bytes` to DIR/name; without it,
/// nothing. Throws std::runtime_error if the file cannot be written whole. O(bytes).
inline void save_if_asked(const std::string& name, std::string_view bytes) {
  const char* dir = std::getenv("CCRC_BENCH_SAVE");
  if (!dir || !*dir) return;
  std::string path = std::string(dir) + "/" + name;
  std::FILE* f = std::fopen(path.c_str(), "wb");
  bool ok = f && std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  if (f) ok = std::fclose(f) == 0 && ok;
  if (!ok) throw std::runtime_error("cannot write " + path);
}

}  // namespace bench
