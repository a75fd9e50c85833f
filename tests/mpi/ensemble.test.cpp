// ccrc_mpi_ensemble (examples/mpi/) against `ccrc ensemble` on the same inputs: on 3 and 4
// ranks (more than the machine's cores, hence --oversubscribe), the same contexts in the same
// order with the same counts, extremes and metrics, and means and deviations equal up to the
// rounding of combining the ranks' moments in another grouping.
#include "support/tool.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

using nlohmann::json;

namespace {

// Runs the MPI job on `ranks` ranks; Open MPI refuses to run as root without being told.
test::run_result mpirun(int ranks, const std::string& args) {
  return test::run_program(CCRC_MPIEXEC, "--allow-run-as-root --oversubscribe -np " + std::to_string(ranks) + " '" +
                                            CCRC_MPI_ENSEMBLE + "' " + args);
}

bool close(double a, double b) { return std::abs(a - b) <= 1e-12 * std::max(1.0, std::abs(b)); }

// Two profiles' folded text, line by line: the same paths, the numbers close.
void check_same_folded(const std::string& a, const std::string& b) {
  std::istringstream x(a), y(b);
  std::string p, q;
  std::size_t lines = 0;
  while (std::getline(x, p) && std::getline(y, q)) {
    ++lines;
    if (p == q) continue;
    std::istringstream u(p.substr(p.find(' '))), v(q.substr(q.find(' ')));
    REQUIRE(p.substr(0, p.find(' ')) == q.substr(0, q.find(' ')));
    for (double s, t; u >> s && v >> t;) CHECK(close(s, t));
  }
  CHECK(lines > 100);
  CHECK(!std::getline(y, q));
}

}  // namespace

TEST_CASE("ccrc_mpi_ensemble on 3 and 4 ranks equals ccrc ensemble; a bad input fails the job") {
  std::vector<std::string> inputs;
  std::string args;
  for (int seed = 1; seed <= 6; ++seed) {
    // Two shapes, so that the runs share some contexts and not others.
    std::string path = test::write_temp("mpi-ens-" + std::to_string(seed) + ".cctb", "");
    REQUIRE(test::run_tool("generate --nodes 1000 --depth 10 --methods " + std::to_string(20 + 20 * (seed % 2)) + " --seed " +
                           std::to_string(seed) + " -o '" + path + "'").status == 0);
    inputs.push_back(path);
    args += " '" + path + "'";
  }
  // And a run with a metric of its own, which the others count as 0.
  inputs.push_back(test::write_temp("mpi-ens-own.folded", "# metrics: calls samples\nmain 1 3\nmain;solo 2 5\n"));
  args += " '" + inputs.back() + "'";
  std::string expected_out = test::write_temp("mpi-ens-expected.cctb", ""), out = test::write_temp("mpi-ens-out.cctb", "");
  auto expected = test::run_tool("ensemble" + args + " --json -o '" + expected_out + "'");
  REQUIRE(expected.status == 0);
  json want = json::parse(expected.out);
  const std::string want_folded = test::run_tool("convert '" + expected_out + "' -o -").out;

  for (int ranks : {3, 4}) {
    CAPTURE(ranks);
    std::filesystem::remove(out);
    auto r = mpirun(ranks, "--json --timings -o '" + out + "'" + args);
    REQUIRE(r.status == 0);
    json got = json::parse(r.out);
    CHECK(got["runs"] == want["runs"]);
    CHECK(got["inputs"] == want["inputs"]);
    CHECK(got["metrics"] == want["metrics"]);
    REQUIRE(got["contexts"].size() == want["contexts"].size());
    for (std::size_t i = 0; i < want["contexts"].size(); ++i) {
      const json &g = got["contexts"][i], &w = want["contexts"][i];
      REQUIRE(g["path"] == w["path"]);
      CHECK(g["parent"] == w["parent"]);
      CHECK(g["present"] == w["present"]);
      for (const char* scope : {"self", "inclusive"})
        for (const auto& [metric, s] : w[scope].items()) {
          CHECK(close(g[scope][metric]["mean"], s["mean"]));
          CHECK(close(g[scope][metric]["std"], s["std"]));
          CHECK(g[scope][metric]["min"] == s["min"]);
          CHECK(g[scope][metric]["max"] == s["max"]);
        }
    }
    CHECK(r.err.find("{\"rank\": " + std::to_string(ranks - 1) + ", \"read_ms\"") != std::string::npos);
    check_same_folded(test::run_tool("convert '" + out + "' -o -").out, want_folded);
  }

  // A bad input (the last: rank 1's share of two ranks): the job fails with its name, and
  // writes nothing.
  std::string bad = test::write_temp("mpi-ens-bad.cctb", "not a profile\n");
  std::filesystem::remove(out);
  auto failed = mpirun(2, "-o '" + out + "'" + args + " '" + bad + "'");
  CHECK(failed.status != 0);
  CHECK(failed.err.find("rank 1: ") != std::string::npos);
  CHECK(failed.err.find("mpi-ens-bad.cctb") != std::string::npos);
  CHECK(!std::filesystem::exists(out));
  for (const auto& p : inputs) std::filesystem::remove(p);
  for (const auto& p : {expected_out, bad}) std::filesystem::remove(p);
}
