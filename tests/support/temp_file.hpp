// A file in the temporary directory, for the tests of the readers of files.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include <unistd.h>

namespace test {

/// A file holding `bytes`, named after `name` and the process, removed when it goes.
struct temp_file {
  std::filesystem::path path;
  temp_file(std::string_view name, std::string_view bytes)
      : path(std::filesystem::temp_directory_path() / ("ccrc-" + std::to_string(::getpid()) + "-" + std::string(name))) {
    std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  temp_file(const temp_file&) = delete;
  temp_file& operator=(const temp_file&) = delete;
  ~temp_file() { std::filesystem::remove(path); }
};

}  // namespace test
