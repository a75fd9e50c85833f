#include "support/naive_ensemble.hpp"
#include "support/random.hpp"
#include "support/tool.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

using nlohmann::json;

namespace {

const std::string runs_dir = CCRC_SOURCE_DIR "/tests/data/ensemble/runs";

// The twelve recorded runs of tests/data/ensemble, in name order: sort-1..6, then text-1..6.
std::vector<std::string> recorded_runs() {
  std::vector<std::string> out;
  for (const char* mode : {"sort", "text"})
    for (int k = 1; k <= 6; ++k) out.push_back(runs_dir + "/" + mode + "-" + std::to_string(k) + ".cpuprofile.gz");
  return out;
}

std::string quoted(const std::vector<std::string>& paths) {
  std::string s;
  for (const auto& p : paths) s += " '" + p + "'";
  return s;
}

bool close(double a, double b, double relative = 1e-9) { return std::abs(a - b) <= relative * std::max(1.0, std::abs(b)); }

// The tool's JSON against the naive reference computed from the runs' folded text (as `ccrc
// convert` writes it): every context and statistic; with clusters, every distance, the
// clusters and their exemplars.
void check_against_reference(const json& got, const std::vector<std::string>& paths, std::size_t groups) {
  std::vector<naive::run> runs;
  for (const auto& p : paths) {
    auto folded = test::run_tool("convert '" + p + "' -o -");
    REQUIRE(folded.status == 0);
    runs.push_back(naive::parse_folded(folded.out));
  }
  auto want = naive::ensemble(runs);
  REQUIRE(got["runs"] == paths.size());
  REQUIRE(got["contexts"].size() == want.size());
  for (const auto& c : got["contexts"]) {
    const std::string path = c["path"];
    CAPTURE(path);
    REQUIRE(want.count(path) == 1);
    const naive::context& w = want.at(path);
    CHECK(c["present"] == w.present);
    for (const auto& [scope, expected] : {std::pair{"self", &w.self}, {"inclusive", &w.inclusive}})
      for (const auto& [metric, stats] : *expected) {
        const json& s = c[scope][metric];
        CHECK(close(s["mean"], stats.mean));
        CHECK(close(s["std"], stats.std));
        CHECK(s["min"] == stats.min);
        CHECK(s["max"] == stats.max);
      }
    // parent: the index of the caller, whose path is this one's without its last frame.
    if (path.find(';') == std::string::npos)
      CHECK(c["parent"].is_null());
    else
      CHECK(got["contexts"][c["parent"].get<std::size_t>()]["path"] == path.substr(0, path.rfind(';')));
  }
  if (groups == 0) return;
  const std::string metric = got["metric"];
  std::vector<std::vector<double>> d(paths.size(), std::vector<double>(paths.size()));
  for (std::size_t i = 0; i < paths.size(); ++i)
    for (std::size_t j = 0; j < paths.size(); ++j) {
      d[i][j] = naive::distance(runs[i], runs[j], metric);
      CHECK(close(got["distance"][i][j], d[i][j], 1e-12));
    }
  auto clusters = naive::clusters(d, groups);
  REQUIRE(got["clusters"].size() == clusters.size());
  for (std::size_t c = 0; c < clusters.size(); ++c) {
    CHECK(got["clusters"][c]["members"] == clusters[c].members);
    CHECK(got["clusters"][c]["exemplar"] == clusters[c].exemplar);
  }
}

}  // namespace

TEST_CASE("ccrc ensemble of the recorded node runs equals the reference; the two modes cluster apart") {
  const auto paths = recorded_runs();
  auto r = test::run_tool("ensemble" + quoted(paths) + " --json --cluster 2");
  REQUIRE(r.status == 0);
  json got = json::parse(r.out);
  CHECK(got["inputs"] == paths);
  CHECK(got["metrics"] == json::array({"samples", "time_us"}));
  CHECK(got["metric"] == "time_us");
  check_against_reference(got, paths, 2);
  // sort-1..6 and text-1..6: each mode one cluster.
  CHECK(got["clusters"][0]["members"] == json::array({0, 1, 2, 3, 4, 5}));
  CHECK(got["clusters"][1]["members"] == json::array({6, 7, 8, 9, 10, 11}));
  // By samples, too, and with a threshold instead of a count: the modes are further apart than
  // the runs of one mode.
  auto by_samples = json::parse(test::run_tool("ensemble" + quoted(paths) + " --json --metric samples --cluster 2").out);
  check_against_reference(by_samples, paths, 2);
  double within = 0, across = 1;
  for (std::size_t i = 0; i < 12; ++i)
    for (std::size_t j = 0; j < 12; ++j)
      if (i != j && (i < 6) == (j < 6))
        within = std::max(within, got["distance"][i][j].get<double>());
      else if (i != j)
        across = std::min(across, got["distance"][i][j].get<double>());
  CHECK(within < across);
  auto threshold = json::parse(test::run_tool("ensemble" + quoted(paths) + " --json --cluster-distance " +
                                              std::to_string((within + across) / 2)).out);
  CHECK(threshold["clusters"].size() == 2);
}

TEST_CASE("ccrc ensemble equals the reference on random folded runs, whatever the threads") {
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    test::rng r{seed};
    std::vector<std::string> paths;
    auto pool = test::random_samples(r, 40, 5, 6, 2);
    for (std::size_t i = 0; i < 2 + r.below(7); ++i) {
      std::string text = "# metrics: calls time_ns\n";
      for (const auto& s : pool) {
        if (!r.chance(0.7)) continue;
        std::string path;
        for (const auto& f : s.frames) path += (path.empty() ? "" : ";") + f;
        text += path + " " + std::to_string(r.below(50)) + " " + std::to_string(r.below(100000)) + "\n";
      }
      paths.push_back(test::write_temp("ens-" + std::to_string(seed) + "-" + std::to_string(i) + ".folded", text));
    }
    auto one = test::run_tool("ensemble" + quoted(paths) + " --json --cluster 2 --threads 1");
    auto three = test::run_tool("ensemble" + quoted(paths) + " --json --cluster 2 --threads 3");
    REQUIRE(one.status == 0);
    CHECK(one.out == three.out);  // bit for bit
    check_against_reference(json::parse(one.out), paths, 2);
    for (const auto& p : paths) std::filesystem::remove(p);
  }
}

TEST_CASE("ccrc ensemble -o writes a profile the other commands read: the statistics as metrics") {
  std::string a = test::write_temp("ens-a.folded", "main;f 2\nmain;g 4\n"), b = test::write_temp("ens-b.folded", "main;f 6\n"),
              c = test::write_temp("ens-c.folded", "main 1\nmain;g 2\nmain;g;h 9\n");
  std::string out = test::write_temp("ens-out.cctb", ""), svg = test::write_temp("ens.svg", "");
  auto r = test::run_tool("ensemble '" + a + "' '" + b + "' '" + c + "' -o '" + out + "'");
  REQUIRE(r.status == 0);
  // The report: the whole run's spread, then main;g;h (std of 0, 0, 9: sqrt 18) first.
  CHECK(r.out.find("3 runs, 4 calling contexts (1 in every run), metrics: samples\n") == 0);
  CHECK(r.out.find("samples of a whole run: mean 8, min 6, max 12, std 2.83 (CV 35.4 %)\n") != std::string::npos);
  CHECK(r.out.find("4.24  141.4 %       1/3  main;g;h\n") != std::string::npos);
  auto folded = test::run_tool("convert '" + out + "' -o -");
  CHECK(folded.out ==
        "# metrics: samples_mean samples_min samples_max samples_std samples_min_inc samples_max_inc samples_std_inc runs_present\n"
        "main 0.3333333333333333 0 1 0.4714045207910317 6 12 2.8284271247461903 3\n"
        "main;f 2.6666666666666665 0 6 2.494438257849294 0 6 2.494438257849294 2\n"
        "main;g 2 0 4 1.632993161855452 0 11 4.546060565661952 2\n"
        "main;g;h 3 0 9 4.242640687119285 0 9 4.242640687119285 1\n");
  // flat sizes by the mean (the first metric), and its total is the mean run's: 8.
  auto flat = test::run_tool("flat '" + out + "' --json");
  CHECK(json::parse(flat.out)["metric"] == "samples_mean");
  CHECK(json::parse(flat.out)["total"] == doctest::Approx(8));
  CHECK(test::run_tool("search '" + out + "' h --json").status == 0);
  CHECK(test::run_tool("render '" + out + "' -o '" + svg + "'").status == 0);
  // -o - writes folded stacks on stdout, and the report nowhere.
  auto to_stdout = test::run_tool("ensemble '" + a + "' '" + b + "' -o -");
  CHECK(to_stdout.out.rfind("# metrics: samples_mean", 0) == 0);
  for (const auto& p : {a, b, c, out, svg}) std::filesystem::remove(p);
}

TEST_CASE("ccrc ensemble: a directory and a list are their files; bad input is named and nothing is written") {
  std::string bad = test::write_temp("ens-bad.folded", "main;f 1\nmain;g\n");
  std::string out = test::write_temp("ens-keep.cctb", "KEEP\n");
  auto r = test::run_tool("ensemble " + test::figure1_path + " '" + bad + "' -o '" + out + "'");
  CHECK(r.status == 1);
  CHECK(r.err.find(bad + ": line 2: missing count") != std::string::npos);
  CHECK(test::read_file(out) == "KEEP\n");
  // A run named again is read once, as merge reads it.
  std::string again = test::write_temp("ens-again.folded", test::read_file(test::figure1_path));
  auto skipped = test::run_tool("ensemble " + test::figure1_path + " '" + bad + "' '" + again + "' " +
                                test::figure1_path + " --json --keep-going");
  CHECK(skipped.status == 0);
  CHECK(skipped.err.rfind("ccrc ensemble: 1 input named again, read once\n", 0) == 0);
  CHECK(skipped.err.find("ccrc ensemble: skipped 1 of 3 inputs\n") != std::string::npos);
  json got = json::parse(skipped.out);
  CHECK(got["runs"] == 2);
  CHECK(got["inputs"] == json::array({test::figure1_path, again}));
  CHECK(test::run_tool("ensemble '" + bad + "' --keep-going").err.find("no input could be read") != std::string::npos);

  auto whole = json::parse(test::run_tool("ensemble '" + runs_dir + "' --json").out);
  CHECK(whole["inputs"].size() == 12);
  CHECK(whole["inputs"][0] == runs_dir + "/sort-1.cpuprofile.gz");
  std::string list = test::write_temp("ens-list.txt", "# two runs\n" + runs_dir + "/sort-1.cpuprofile.gz\n\n" + runs_dir +
                                                          "/text-1.cpuprofile.gz\n");
  auto listed = json::parse(test::run_tool("ensemble '@" + list + "' --json").out);
  CHECK(listed["runs"] == 2);

  std::string us = test::write_temp("ens-us.folded", "# metrics: time_us\nmain;f 5\n"),
              ns = test::write_temp("ens-ns.folded", "# metrics: time_ns\nmain;g 7000\n");
  auto units = test::run_tool("ensemble '" + us + "' '" + ns + "'");
  CHECK(units.status == 1);
  CHECK(units.err.find("measure one quantity in two units") != std::string::npos);
  auto metric = test::run_tool("ensemble " + test::figure1_path + " --metric time --cluster 1");
  CHECK(metric.status == 1);
  CHECK(metric.err.find("no metric named 'time' (the runs have: calls, bytecodes)") != std::string::npos);
  CHECK(test::run_tool("ensemble " + test::figure1_path + " --cluster 0").status == 2);
  CHECK(test::run_tool("ensemble " + test::figure1_path + " --cluster-distance 1.5").status == 2);
  CHECK(test::run_tool("ensemble").status == 2);
  CHECK(test::run_tool("ensemble " + test::figure1_path + " --json -o -").status == 2);
  for (const auto& p : {bad, again, out, list, us, ns}) std::filesystem::remove(p);
}

TEST_CASE("ccrc ensemble --json refuses paths above 1 GiB, counted before anything is written") {
  // One 50,000-deep chain: its paths take 50,000^2 bytes.
  std::string chain;
  for (int i = 0; i < 50'000; ++i) chain += i ? ";a" : "a";
  std::string deep = test::write_temp("ens-deep.folded", chain + " 1\n");
  auto r = test::run_tool("ensemble '" + deep + "' --json");
  CHECK(r.status == 1);
  CHECK(r.out.empty());
  CHECK(r.err.find("the JSON would hold 2500000000 bytes of paths") != std::string::npos);
  std::filesystem::remove(deep);
}

TEST_CASE("ccrc render of an ensemble: sized by the mean, colored by the variation of the inclusive values") {
  std::string a = test::write_temp("ensr-a.folded", "main;f 2\nmain;g 4\n"), b = test::write_temp("ensr-b.folded", "main;f 6\n"),
              c = test::write_temp("ensr-c.folded", "main 1\nmain;g 2\nmain;g;h 9\n");
  std::string out = test::write_temp("ensr.cctb", ""), svg = test::write_temp("ensr.svg", "");
  REQUIRE(test::run_tool("ensemble '" + a + "' '" + b + "' '" + c + "' -o '" + out + "'").status == 0);
  // The fill of the element of node n (main 1, main;f 2, main;g 3, main;g;h 4).
  auto fill_of = [](const std::string& doc, int node) {
    std::size_t at = doc.find("data-node=\"" + std::to_string(node) + "\"");
    std::size_t fill = doc.rfind(" fill=\"", at);
    return at == std::string::npos ? std::string() : doc.substr(fill + 7, 7);
  };
  // With callees over the three runs: main 6, 6, 12 (CV 0.35: 20-50 %); main;f 2, 6, 0 (0.94) and
  // main;g 4, 0, 11 (0.91): 50-100 %; main;g;h 0, 0, 9 (1.41): 100 % and more.
  REQUIRE(test::run_tool("render '" + out + "' -o '" + svg + "'").status == 0);
  std::string doc = test::read_file(svg);
  CHECK(fill_of(doc, 1) == "#f98e3f");
  CHECK(fill_of(doc, 2) == "#c8341f");
  CHECK(fill_of(doc, 3) == "#c8341f");
  CHECK(fill_of(doc, 4) == "#8c001a");
  CHECK(doc.find(">color: std/mean of samples with callees, of 3 runs</text>") != std::string::npos);
  CHECK(doc.find(">100 % and more</text>") != std::string::npos);
  // The tooltip: own and inclusive spread, and the runs that hold it.
  CHECK(doc.find("samples over the runs: own mean 3, min 0, max 9, std 4.24 (CV 141.4 %)\nwith callees mean 3, min 0, max "
                 "9, std 4.24 (CV 141.4 %)\npresent in 1 of 3 runs") != std::string::npos);
  // Imbalance, max/mean: main 12/8 = 1.5 (1.5-2), main;g 11/5 (2 and more).
  REQUIRE(test::run_tool("render '" + out + "' --color-by imbalance -o '" + svg + "'").status == 0);
  doc = test::read_file(svg);
  CHECK(fill_of(doc, 1) == "#c8341f");
  CHECK(fill_of(doc, 3) == "#8c001a");
  CHECK(doc.find(">color: max/mean of samples with callees, of 3 runs</text>") != std::string::npos);
  // By method, as any profile; and a profile that is no ensemble is drawn as before.
  REQUIRE(test::run_tool("render '" + out + "' --color-by method -o '" + svg + "'").status == 0);
  CHECK(test::read_file(svg).find("color:") == std::string::npos);
  REQUIRE(test::run_tool("render '" + a + "' -o '" + svg + "'").status == 0);
  CHECK(test::read_file(svg).find("color:") == std::string::npos);
  // Recursion eliminated would add up minima and deviations: refused, the file left as it was.
  auto refused = test::run_tool("render '" + out + "' --tree recursion -o '" + svg + "'");
  CHECK(refused.status == 2);
  CHECK(refused.err.find("--tree recursion: an ensemble's minima, maxima and deviations do not add up") != std::string::npos);
  for (const auto& p : {a, b, c, out, svg}) std::filesystem::remove(p);
}
