#include <ccrc/ensemble/json.hpp>

#include <ccrc/io/folded.hpp>

#include <doctest/doctest.h>

#include <sstream>
#include <string>
#include <vector>

TEST_CASE("the JSON of two runs, by hand") {
  ccrc::ensemble e;
  std::vector<ccrc::share_vector> shares;
  for (const char* text : {"a 1\na;b 3\n", "a;b 1\nc 1\n"}) {
    ccrc::profile run = ccrc::read_folded(text);
    shares.push_back(ccrc::share_vector_of(run.column(0), e.add(run)));
  }
  std::ostringstream out;
  std::vector<std::string> inputs = {"one", "two"};
  ccrc::write_ensemble_json(out, e, {.inputs = inputs});
  CHECK(out.str() ==
        "{\"runs\": 2, \"inputs\": [\"one\", \"two\"], \"metrics\": [\"samples\"], \"contexts\": [\n"
        "{\"path\": \"a\", \"parent\": null, \"present\": 2, \"self\": {\"samples\": {\"mean\": 0.5, \"min\": 0, \"max\": 1, "
        "\"std\": 0.5}}, \"inclusive\": {\"samples\": {\"mean\": 2.5, \"min\": 1, \"max\": 4, \"std\": 1.5}}},\n"
        "{\"path\": \"a;b\", \"parent\": 0, \"present\": 2, \"self\": {\"samples\": {\"mean\": 2, \"min\": 1, \"max\": 3, "
        "\"std\": 1}}, \"inclusive\": {\"samples\": {\"mean\": 2, \"min\": 1, \"max\": 3, \"std\": 1}}},\n"
        "{\"path\": \"c\", \"parent\": null, \"present\": 1, \"self\": {\"samples\": {\"mean\": 0.5, \"min\": 0, \"max\": 1, "
        "\"std\": 0.5}}, \"inclusive\": {\"samples\": {\"mean\": 0.5, \"min\": 0, \"max\": 1, \"std\": 0.5}}}]}\n");
  // Shares (1/4, 3/4) and (1/2 b, 1/2 c): (1/4 + 1/4 + 1/2) / 2.
  ccrc::distance_matrix d = ccrc::distances(shares);
  std::vector<ccrc::run_cluster> clusters = ccrc::cluster_runs(d, {.groups = 1});
  std::ostringstream with;
  ccrc::write_ensemble_json(with, e, {.inputs = inputs, .metric = "samples", .distances = &d, .clusters = clusters});
  const std::string s = with.str();
  CHECK(s.ends_with("}}}],\n\"metric\": \"samples\",\n\"distance\": [\n[0, 0.5],\n[0.5, 0]],\n\"clusters\": [\n"
                    "{\"members\": [0, 1], \"exemplar\": 0}]}\n"));
}

TEST_CASE("ensemble_json_path_bytes: the paths' bytes, counted without writing them") {
  ccrc::ensemble e;
  e.add(ccrc::read_folded("ab;c 1\nab;d;e 1\n"));
  // "ab" 2, "ab;c" 4, "ab;d" 4, "ab;d;e" 6.
  CHECK(ccrc::ensemble_json_path_bytes(e) == 16);
  ccrc::profile chain({"samples"});
  std::vector<ccrc::frame_id> frames(100'000, chain.intern("f"));
  chain.add_path(frames, std::vector<double>{1});
  ccrc::ensemble deep;
  deep.add(chain);
  CHECK(ccrc::ensemble_json_path_bytes(deep) == std::uint64_t{100'000} * 100'000);  // sum of 2d - 1
}
