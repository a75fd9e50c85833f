// libFuzzer harness: ccrc::read_pprof and looks_like_pprof on arbitrary bytes (gzip-compressed
// when they start with 1f 8b, as read_pprof decides). A ccrc::error is the expected answer to
// bad input; anything else (a crash, a sanitizer report, another exception, an assertion of
// protozero's) is a finding. What it reads must survive write_pprof and read_pprof with the
// same metrics, as many contexts and the same totals (or be refused by the writer, for a sum
// of values above 2^53).
#include "fuzz.hpp"

#include <ccrc/error.hpp>
#include <ccrc/formats/pprof.hpp>

#include <cstdint>
#include <sstream>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view bytes = fuzz::text_of(data, size);
  static_cast<void>(ccrc::looks_like_pprof(bytes));
  ccrc::profile p;
  try {
    p = ccrc::read_pprof(bytes);
  } catch (const ccrc::error&) {
    return 0;
  }
  std::ostringstream out;
  try {
    ccrc::write_pprof(out, p, {.gzip = (size & 1) != 0});
  } catch (const ccrc::error&) {
    return 0;
  }
  fuzz::check_round_trip(p, ccrc::read_pprof(out.str()), true);
  return 0;
}
