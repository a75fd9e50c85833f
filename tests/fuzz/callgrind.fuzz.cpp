// libFuzzer harness: ccrc::read_callgrind and its detection on arbitrary bytes. A ccrc::error
// is the expected answer to bad input (a capacity_error too: the limit is small here);
// anything else (a crash, a sanitizer report, another exception) is a finding. Every cost is
// an integer and the split is exact, so every value read is a whole number and the total of
// each event is an integer; what it reads must survive write_folded and read_folded with the
// same metrics and totals (or be refused by the writer, for a name folded stacks cannot hold).
#include "fuzz.hpp"

#include <ccrc/error.hpp>
#include <ccrc/io/callgrind.hpp>
#include <ccrc/io/folded.hpp>

#include <cmath>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text = fuzz::text_of(data, size);
  static_cast<void>(ccrc::looks_like_callgrind(text.substr(0, 4096)));
  ccrc::profile p;
  try {
    p = ccrc::read_callgrind(text, {.max_line_bytes = 4096, .max_contexts = 20000});
  } catch (const ccrc::error&) {
    return 0;
  }
  for (std::size_t m = 0; m < p.metric_count(); ++m)
    for (double v : p.column(m)) fuzz::check(v >= 0 && v == std::floor(v) && v <= 0x1p53);
  fuzz::check(p.size() <= 20001);
  fuzz::check_folded_round_trip(p);
  return 0;
}
