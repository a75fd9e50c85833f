// libFuzzer harness: ccrc::read_trace_events on arbitrary bytes. A ccrc::error is the expected
// answer to bad input; anything else (a crash, a sanitizer report, another exception) is a
// finding. Every call is one B or X event, each a JSON object, so the calls total is a whole
// number no larger than the count of '{' in the input; the repairs counted are ends and begins,
// so no more than that either; times are finite. CPU profiles (DevTools' ProfileChunk events)
// add the columns samples (whole, at most one per byte) and sampled_us (finite, >= 0), or none. What it reads must survive write_folded and
// read_folded with the same metrics and totals (or be refused by the writer, for a name folded
// stacks cannot hold). Read again in pieces of a few bytes (trace_event_options::piece_bytes:
// the events parsed a few at a time), the input gives the same profile, or is refused too.
#include "fuzz.hpp"

#include <ccrc/error.hpp>
#include <ccrc/formats/trace_event.hpp>
#include <ccrc/io/folded.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <sstream>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text = fuzz::text_of(data, size);
  ccrc::trace_warnings warnings;
  std::optional<ccrc::profile> read =
      fuzz::read_alike([&] { return ccrc::read_trace_events(text, {.warnings = &warnings}); },
                       [&] { return ccrc::read_trace_events(text, {.piece_bytes = 1 + size % 61}); });
  if (!read) return 0;
  const ccrc::profile& p = *read;
  auto objects = static_cast<double>(std::count(text.begin(), text.end(), '{'));
  double calls = 0;
  for (double v : p.column("calls")) calls += v;
  fuzz::check(calls == std::floor(calls));
  fuzz::check(calls <= objects);
  fuzz::check(static_cast<double>(warnings.total()) <= 2 * objects);
  fuzz::check(warnings.unclosed <= static_cast<std::uint64_t>(calls));
  for (double v : p.column("time_us")) fuzz::check(std::isfinite(v));
  // CPU profiles (Profile/ProfileChunk events): two more columns or none; a whole number of
  // samples, at most one per byte; sampled times finite and not negative.
  fuzz::check(p.metric_count() == 2 || p.metric_count() == 4);
  if (p.metric_count() == 4) {
    double samples = 0;
    for (double v : p.column("samples")) samples += v;
    fuzz::check(samples == std::floor(samples));
    fuzz::check(samples <= static_cast<double>(size));
    for (double v : p.column("sampled_us")) fuzz::check(std::isfinite(v) && v >= 0);
  }
  fuzz::check(warnings.profiles_without_start <= static_cast<std::uint64_t>(objects));
  fuzz::check_folded_round_trip(p);
  return 0;
}
