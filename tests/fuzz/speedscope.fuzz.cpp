// libFuzzer harness: ccrc::read_speedscope on arbitrary bytes. A ccrc::error is the expected
// answer to bad input; anything else (a crash, a sanitizer report, another exception) is a
// finding. Whatever it reads holds no negative or non-finite value (the reader refuses them)
// and must survive write_speedscope and read_speedscope: the same tree (ccrc's own export reads
// back as written), each metric with the same total, under its name or, alone, its unit's; or
// be refused by the writer, for a total that overflows. Read again with its arrays in pieces of a few bytes
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
  // ccrc's own export reads back as the tree written (issue 45), each metric under its name,
  // or, alone, under its unit's.
  ccrc::profile q = ccrc::read_speedscope(out.str());
  fuzz::check(q.tree().size() == p.tree().size());
  fuzz::check(q.metric_count() == p.metric_count());
  for (std::size_t m = 0; m < p.metric_count(); ++m) {
    std::string_view unit = ccrc::detail::speedscope_unit_of_metric(p.metric_name(m));
    std::optional<std::size_t> column = q.find_metric(p.metric_name(m));
    if (!column) column = q.find_metric(ccrc::detail::speedscope_metric_of_unit(unit));
    fuzz::check(column.has_value());
    fuzz::check(fuzz::same_total(fuzz::total(p, m), fuzz::total(q, *column)));
  }
  return 0;
}
