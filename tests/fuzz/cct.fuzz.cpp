// libFuzzer harness: ccrc::read_cct (the text CCT format) on arbitrary bytes. A ccrc::error
// (parse_error, capacity_error) is the expected answer to bad input; anything else is a
// finding. What it reads must survive write_cct and read_cct again: same metrics, as many
// contexts, same totals.
#include "fuzz.hpp"

#include <ccrc/error.hpp>
#include <ccrc/io/cct_text.hpp>

#include <cstdint>
#include <sstream>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ccrc::profile p;
  try {
    p = ccrc::read_cct(fuzz::text_of(data, size));
  } catch (const ccrc::error&) {
    return 0;
  }
  std::ostringstream out;
  ccrc::write_cct(out, p);
  ccrc::profile q = ccrc::read_cct(out.str());
  fuzz::check_round_trip(p, q, true);
  return 0;
}
