// ccrc - a hint to the processor that memory will be read soon.
#pragma once

namespace ccrc::detail {

/// A hint that *p will be read soon (no effect where the compiler offers no prefetch).
inline void prefetch([[maybe_unused]] const void* p) noexcept {
#if defined(__GNUC__) || defined(__clang__)
  __builtin_prefetch(p);
#endif
}

}  // namespace ccrc::detail
