// Shared by the libFuzzer harnesses: what a finding is, and the checks the harnesses make.
#pragma once

#include <ccrc/io/folded.hpp>
#include <ccrc/tree/profile.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>
#include <sstream>
#include <string_view>

namespace fuzz {

/// Stops the run as a finding: libFuzzer reports the trap and keeps the input.
[[noreturn]] inline void fail() { __builtin_trap(); }

inline void check(bool ok) {
  if (!ok) fail();
}

/// The bytes of a fuzz input as text.
inline std::string_view text_of(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

/// The sum of one metric over all nodes, and of its magnitudes (for a tolerance).
struct sum {
  double value = 0;
  double magnitude = 0;
};

inline sum total(const ccrc::profile& p, std::size_t metric) {
  sum s;
  for (double v : p.column(metric)) {
    s.value += v;
    s.magnitude += std::fabs(v);
  }
  return s;
}

/// Whether two totals of the same values, summed in another order, agree: exactly up to
/// rounding (relative 1e-9 of the magnitudes); totals that overflowed are not compared.
inline bool same_total(sum a, sum b) {
  if (!std::isfinite(a.magnitude) || !std::isfinite(b.magnitude)) return true;
  return std::fabs(a.value - b.value) <= 1e-9 * std::max(a.magnitude, b.magnitude);
}

/// What a reader read survives its writer and its reader again: the same metrics with the
/// same totals and, where the format keeps every context (not folded: a context whose
/// subtree holds no value has no line), as many contexts.
inline void check_round_trip(const ccrc::profile& read, const ccrc::profile& again, bool every_context) {
  check(again.metric_names() == read.metric_names());
  if (every_context) check(again.tree().size() == read.tree().size());
  for (std::size_t m = 0; m < read.metric_count(); ++m) check(same_total(total(read, m), total(again, m)));
}

/// What another format's reader read survives folded stacks: write_folded (which may refuse
/// a name or value folded stacks cannot hold) and read_folded give the same metrics and totals.
inline void check_folded_round_trip(const ccrc::profile& read) {
  std::ostringstream out;
  try {
    ccrc::write_folded(out, read);
  } catch (const ccrc::error&) {
    return;
  }
  check_round_trip(read, ccrc::read_folded(out.str()), false);
}

/// A streaming reader read the same bytes whole and in pieces (its cuts between the elements
/// of an array): refused by both, or the same profile by both (the same tree, names and
/// values). Returns what `whole` read, nothing if refused.
template <class Whole, class InPieces>
std::optional<ccrc::profile> read_alike(Whole whole, InPieces in_pieces) {
  auto read = [](auto& reader) -> std::optional<ccrc::profile> {
    try {
      return reader();
    } catch (const ccrc::error&) {
      return std::nullopt;
    }
  };
  std::optional<ccrc::profile> p = read(whole), q = read(in_pieces);
  check(p.has_value() == q.has_value());
  if (!p) return p;
  check(q->size() == p->size() && q->metric_names() == p->metric_names());
  const auto& a = p->tree();
  const auto& b = q->tree();
  check(std::equal(a.parents().begin(), a.parents().end(), b.parents().begin()));
  for (ccrc::node_id n = 1; n < a.size(); ++n) check(a.name(n) == b.name(n));
  for (std::size_t m = 0; m < p->metric_count(); ++m)
    check(std::equal(p->column(m).begin(), p->column(m).end(), q->column(m).begin()));
  return p;
}

}  // namespace fuzz
