// libFuzzer harness: ccrc::read_v8_profile on arbitrary bytes. A ccrc::error is the expected
// answer to bad input; anything else (a crash, a sanitizer report, another exception) is a
// finding. What it reads must hold: every context is a node of the file, and each node is a
// JSON object, so the tree has fewer nodes than the text has '{'; counts (samples,
// allocations, bytes) are whole and non-negative, time_us non-negative; a CPU profile counts
// each entry of `samples` once, so at most one more sample than the text has ','. Read again
// with its arrays in pieces of a few bytes (v8_profile_options::piece_bytes: the streamed
// reader's cuts between elements), it must be refused alike or give the same profile. What
// it reads must survive write_folded and read_folded with the same metrics and totals (or be
// refused by the writer, for a name folded stacks cannot hold).
#include "fuzz.hpp"

#include <ccrc/error.hpp>
#include <ccrc/formats/v8_profile.hpp>
#include <ccrc/io/folded.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <sstream>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text = fuzz::text_of(data, size);
  std::optional<ccrc::profile> read =
      fuzz::read_alike([&] { return ccrc::read_v8_profile(text, {.max_depth = 64}); },
                       [&] { return ccrc::read_v8_profile(text, {.max_depth = 64, .piece_bytes = 1 + size % 61}); });
  if (!read) return 0;
  const ccrc::profile& p = *read;
  auto count = [&](char c) { return static_cast<std::size_t>(std::count(text.begin(), text.end(), c)); };
  fuzz::check(p.size() <= count('{'));
  for (std::size_t m = 0; m < p.metric_count(); ++m) {
    for (double v : p.column(m)) {
      fuzz::check(v >= 0 && std::isfinite(v));
      if (p.metric_name(m) != "time_us") fuzz::check(v == std::floor(v));
    }
  }
  if (auto s = p.find_metric("samples"); s && p.find_metric("time_us"))
    fuzz::check(fuzz::total(p, *s).value <= static_cast<double>(count(',') + 1));
  fuzz::check_folded_round_trip(p);
  return 0;
}
