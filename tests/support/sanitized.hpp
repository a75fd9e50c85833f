// Whether this test program is built with AddressSanitizer: there, the largest inputs take
// minutes and memory is the sanitizer's (shadow, quarantine), so a few checks are skipped,
// visibly, instead of passing with nothing checked.
#pragma once

namespace test {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool sanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool sanitized = true;
#else
inline constexpr bool sanitized = false;
#endif
#else
inline constexpr bool sanitized = false;
#endif

}  // namespace test
