// libFuzzer harness: ccrc::read_gecko_profile on arbitrary bytes. A ccrc::error is the
// expected answer to bad input; anything else (a crash, a sanitizer report, another exception,
// a hang) is a finding. What it reads must hold: each sample is a row (a JSON array) of some
// thread's samples, so there are at most as many samples as the text has '['; every context
// is a thread (a JSON object) or a stack row (an array), so the tree has at most one node more
// than the text has '[' and '{'; samples are whole and non-negative, time_ms finite and
// non-negative. Read again with its tables in pieces of a few bytes
// (gecko_profile_options::piece_bytes: the streamed reader's cuts between rows), it must be
// refused alike or give the same profile. What it reads must survive write_folded and
// read_folded with the same metrics and totals (or be refused by the writer, for a name folded
// stacks cannot hold).
#include "fuzz.hpp"

#include <ccrc/error.hpp>
#include <ccrc/formats/gecko.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text = fuzz::text_of(data, size);
  std::optional<ccrc::profile> read =
      fuzz::read_alike([&] { return ccrc::read_gecko_profile(text); },
                       [&] { return ccrc::read_gecko_profile(text, {.piece_bytes = 1 + size % 61}); });
  if (!read) return 0;
  const ccrc::profile& p = *read;
  auto count = [&](char c) { return static_cast<std::size_t>(std::count(text.begin(), text.end(), c)); };
  fuzz::check(p.size() <= count('[') + count('{') + 1);
  auto samples = p.column("samples");
  for (double v : samples) fuzz::check(v >= 0 && v == std::floor(v));
  for (double v : p.column("time_ms")) fuzz::check(v >= 0 && std::isfinite(v));
  fuzz::check(fuzz::total(p, 0).value <= static_cast<double>(count('[')));
  fuzz::check_folded_round_trip(p);
  return 0;
}
