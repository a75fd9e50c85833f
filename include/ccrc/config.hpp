// ccrc - calling context profiles: configuration and preconditions.
#pragma once

#include <cstdio>
#include <cstdlib>

#define CCRC_VERSION_MAJOR 0
#define CCRC_VERSION_MINOR 1
#define CCRC_VERSION_PATCH 0

/// CCRC_ASSERT(cond, "msg") checks a precondition: a programming error, not bad input
/// (bad input throws ccrc::parse_error). Checked unless NDEBUG; define CCRC_ASSERT before
/// including any ccrc header to route failures into your own handler. A replacement that does
/// not check should still name its condition unevaluated, as NDEBUG's does (sizeof): some
/// variables are read by assertions alone, and would be unused.
#ifndef CCRC_ASSERT
#ifdef NDEBUG
#define CCRC_ASSERT(cond, msg) static_cast<void>(sizeof(static_cast<bool>(cond)))
#else
#define CCRC_ASSERT(cond, msg) \
  ((cond) ? static_cast<void>(0) : ::ccrc::detail::assert_fail(#cond, msg, __FILE__, __LINE__))
#endif
#endif

namespace ccrc::detail {

[[noreturn]] inline void assert_fail(const char* cond, const char* msg, const char* file,
                                     int line) noexcept {
  std::fprintf(stderr, "%s:%d: ccrc: %s (%s)\n", file, line, msg, cond);
  std::abort();
}

}  // namespace ccrc::detail
