// libFuzzer harness: ccrc::read_speedscope on arbitrary bytes. A ccrc::error is the expected
// answer to bad input; anything else (a crash, a sanitizer report, another exception) is a
// finding. Whatever it reads holds no negative or non-finite value (the reader refuses them)
// and must survive write_speedscope and read_speedscope: the whole tree under one frame, each
// metric with the same total, in the column of its unit if it is the only one, else in a
// column of its own named after it (its profile shares its samples with the others'); or be
// refused by the writer, for a total that overflows. Read again with its arrays in pieces of a few bytes
// (speedscope_options::piece_bytes: the streamed reader's cuts between elements), it must be
// refused alike or give the same profile.
#include "fuzz.hpp"

#include <ccrc/error.hpp>
#include <ccrc/formats/speedscope.hpp>

#include <cmath>
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text = fuzz::text_of(data, size);
  std::optional<ccrc::profile> read =
      fuzz::read_alike([&] { return ccrc::read_speedscope(text); },
                       [&] { return ccrc::read_speedscope(text, {.piece_bytes = 1 + size % 61}); });
  if (!read) return 0;
  const ccrc::profile& p = *read;
  for (std::size_t m = 0; m < p.metric_count(); ++m)
    for (double v : p.column(m)) fuzz::check(std::isfinite(v) && v >= 0);
  std::ostringstream out;
  try {
    ccrc::write_speedscope(out, p);
  } catch (const ccrc::error&) {
    return 0;
  }
  ccrc::profile q = ccrc::read_speedscope(out.str());
  fuzz::check(q.tree().size() == 1 + p.tree().size());
  fuzz::check(q.metric_count() == p.metric_count());
  for (std::size_t m = 0; m < p.metric_count(); ++m) {
    std::string_view unit = ccrc::detail::speedscope_unit_of_metric(p.metric_name(m));
    std::string_view column = p.metric_count() == 1 ? ccrc::detail::speedscope_metric_of_unit(unit) : p.metric_name(m);
    fuzz::check(fuzz::same_total(fuzz::total(p, m), fuzz::total(q, q.metric_index(column))));
  }
  return 0;
}
