// libFuzzer harness: ccrc::read_perf_script and the perf script detection on arbitrary bytes.
// A ccrc::error is the expected answer to bad input; anything else (a crash, a sanitizer
// report, another exception) is a finding. Every sample counts once, so the samples total is
// a whole number no larger than the input's line count; what it reads must survive
// write_folded and read_folded with the same metrics and totals (or be refused by the writer,
// for a name folded stacks cannot hold).
#include "fuzz.hpp"

#include <ccrc/error.hpp>
#include <ccrc/io/folded.hpp>
#include <ccrc/io/perf_script.hpp>
#include <ccrc/io/read_profile.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sstream>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text = fuzz::text_of(data, size);
  static_cast<void>(ccrc::detect_format(text.substr(0, ccrc::format_detection_bytes)));
  ccrc::profile p;
  try {
    p = ccrc::read_perf_script(text, {.max_line_bytes = 4096});
  } catch (const ccrc::error&) {
    return 0;
  }
  double samples = 0;
  for (double v : p.column("samples")) samples += v;
  fuzz::check(samples == std::floor(samples));
  fuzz::check(samples <= static_cast<double>(std::count(text.begin(), text.end(), '\n') + 1));
  fuzz::check_folded_round_trip(p);
  return 0;
}
