// The conventions users bring from other tools: --version, --color-by, -o -, --top, --focus,
// a time metric by default.
#include "support/tool.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <regex>

using nlohmann::json;

TEST_CASE("ccrc --version and -V print the version of CMakeLists.txt's project()") {
  std::smatch m;
  std::string cmake = test::read_file(CCRC_SOURCE_DIR "/CMakeLists.txt");
  REQUIRE(std::regex_search(cmake, m, std::regex(R"(project\(ccrc VERSION ([0-9]+\.[0-9]+\.[0-9]+))")));
  for (const char* option : {"--version", "-V"}) {
    auto r = test::run_tool(option);
    CHECK(r.status == 0);
    CHECK(r.out == "ccrc " + m[1].str() + "\n");
    CHECK(r.err.empty());
  }
}
