// The global operator new of the allocation tests (tests/alloc/new.cpp): it can be made to
// fail, and it counts what it gives.
#pragma once

#include <cstdint>

namespace test {

/// Allocations left before one fails (throws std::bad_alloc); negative: none fails.
extern long allocations_left;

/// Bytes operator new has given since the program started: what a piece of code allocates in
/// all is the difference across it, a measure of its work that does not depend on the machine.
[[nodiscard]] std::uint64_t allocated_bytes() noexcept;

}  // namespace test
