// libFuzzer harness: ccrc::read_cctb (the binary CCT format) on arbitrary bytes. A ccrc::error
// (parse_error, capacity_error) is the expected answer to bad input (truncated, corrupted,
// allocation bombs); anything else is a finding. What it reads must survive write_cctb and
// read_cctb again: same metrics, as many contexts, same totals.
#include "fuzz.hpp"

#include <ccrc/error.hpp>
#include <ccrc/io/cct_binary.hpp>

#include <cstdint>
#include <sstream>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ccrc::profile p;
  try {
    p = ccrc::read_cctb(fuzz::text_of(data, size));
  } catch (const ccrc::error&) {
    return 0;
  }
  std::ostringstream out(std::ios::binary);
  ccrc::write_cctb(out, p);
  ccrc::profile q = ccrc::read_cctb(out.str());
  fuzz::check_round_trip(p, q, true);
  return 0;
}
