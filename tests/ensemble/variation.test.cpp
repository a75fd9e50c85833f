#include <ccrc/ensemble/variation.hpp>

#include <ccrc/algorithm/inclusive.hpp>
#include <ccrc/io/folded.hpp>
#include <ccrc/tree/path.hpp>

#include <doctest/doctest.h>

#include <cmath>

TEST_CASE("variation_color: the band a value falls in, neutral for no cost") {
  using ccrc::variation;
  auto cv = ccrc::variation_scale(variation::cv);
  REQUIRE(cv.size() == 6);
  CHECK(ccrc::variation_color(0, variation::cv) == cv[0].color);
  CHECK(ccrc::variation_color(0.0499, variation::cv) == cv[0].color);
  CHECK(ccrc::variation_color(0.05, variation::cv) == cv[1].color);
  CHECK(ccrc::variation_color(0.35, variation::cv) == cv[3].color);
  CHECK(ccrc::variation_color(7, variation::cv) == cv[5].color);
  CHECK(ccrc::variation_color(1.3, variation::imbalance) == ccrc::variation_scale(variation::imbalance)[3].color);
  CHECK(ccrc::variation_color(std::nan(""), variation::cv) == ccrc::neutral_color);
  // Bands rise, colors differ and none is the neutral color of "no cost".
  for (auto v : {variation::cv, variation::imbalance}) {
    auto bands = ccrc::variation_scale(v);
    for (std::size_t k = 0; k < bands.size(); ++k) {
      CHECK(bands[k].color != ccrc::neutral_color);
      CHECK(ccrc::contrast_ratio(bands[k].color, ccrc::label_color(bands[k].color)) >= 4.5);
      if (k > 0) {
        CHECK(bands[k].from > bands[k - 1].from);
        CHECK(ccrc::cie76(bands[k].color, bands[k - 1].color) >= 12);
      }
    }
  }
}

TEST_CASE("variation_of: std / mean and max / mean of the inclusive values, by hand") {
  ccrc::ensemble e;
  for (const char* text : {"main;f 2\nmain;g 4\n", "main;f 6\n", "main 1\nmain;g 2\nmain;g;h 9\n"}) e.add(ccrc::read_folded(text));
  e.add(ccrc::read_folded("other 0\n"));  // a context with no cost in any run
  ccrc::profile p = ccrc::ensemble_profile(e);
  auto m = ccrc::find_ensemble_metrics(p.metric_names())->metrics[0];
  auto ag = ccrc::inclusive(p.tree(), p.column(m[ccrc::ensemble_statistic::mean]));
  auto cv = ccrc::variation_of(p, m, ag, ccrc::variation::cv), most = ccrc::variation_of(p, m, ag, ccrc::variation::imbalance);
  // main;g with callees over four runs: 4, 0, 11, 0: mean 3.75, max 11.
  ccrc::node_id g = ccrc::node_at_path(p.tree(), "main;g");
  CHECK(cv[g] == doctest::Approx(std::sqrt((0.0625 + 14.0625 + 52.5625 + 14.0625) / 4) / 3.75));
  CHECK(most[g] == doctest::Approx(11 / 3.75));
  CHECK(std::isnan(cv[ccrc::node_at_path(p.tree(), "other")]));
  CHECK(std::isnan(cv[ccrc::root_node]));
}
