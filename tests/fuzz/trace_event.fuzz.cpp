// libFuzzer harness: ccrc::read_trace_events on arbitrary bytes. A ccrc::error is the expected
// answer to bad input; anything else (a crash, a sanitizer report, another exception) is a
// finding. Every call is one B or X event, each a JSON object, so the calls total is a whole
// number no larger than the count of '{' in the input; the repairs counted are ends and begins,
// so no more than that either; times are finite. What it reads must survive write_folded and
// read_folded with the same metrics and totals (or be refused by the writer, for a name folded
// stacks cannot hold).
#include "fuzz.hpp"

#include <ccrc/error.hpp>
#include <ccrc/formats/trace_event.hpp>
#include <ccrc/io/folded.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sstream>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text = fuzz::text_of(data, size);
  ccrc::profile p;
  ccrc::trace_warnings warnings;
  try {
    p = ccrc::read_trace_events(text, {.warnings = &warnings});
  } catch (const ccrc::error&) {
    return 0;
  }
  auto objects = static_cast<double>(std::count(text.begin(), text.end(), '{'));
  double calls = 0;
  for (double v : p.column("calls")) calls += v;
  fuzz::check(calls == std::floor(calls));
  fuzz::check(calls <= objects);
  fuzz::check(static_cast<double>(warnings.total()) <= 2 * objects);
  fuzz::check(warnings.unclosed <= static_cast<std::uint64_t>(calls));
  for (double v : p.column("time_us")) fuzz::check(std::isfinite(v));
  fuzz::check_folded_round_trip(p);
  return 0;
}
