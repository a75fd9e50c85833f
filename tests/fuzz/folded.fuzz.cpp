// libFuzzer harness: ccrc::read_folded on arbitrary bytes. A ccrc::error (parse_error,
// capacity_error) is the expected answer to bad input; anything else (a crash, a sanitizer
// report, another exception) is a finding. What it reads must survive write_folded and
// read_folded again with the same metrics and totals.
#include "fuzz.hpp"

#include <ccrc/error.hpp>
#include <ccrc/io/folded.hpp>

#include <cstdint>
#include <sstream>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // The first byte picks the options, so both the default and the differential reader run.
  const ccrc::folded_options options{.max_line_bytes = 4096, .allow_negative = size > 0 && (data[0] & 1) != 0};
  ccrc::profile p;
  try {
    p = ccrc::read_folded(fuzz::text_of(data, size), options);
  } catch (const ccrc::error&) {
    return 0;
  }
  std::ostringstream out;
  ccrc::write_folded(out, p);
  ccrc::profile q = ccrc::read_folded(out.str(), {.allow_negative = options.allow_negative});
  fuzz::check_round_trip(p, q, false);
  return 0;
}
