// The replaced global operator new of ccrc_alloc_tests (tests/alloc/allocations.hpp).
#include "alloc/allocations.hpp"

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <new>

namespace test {

long allocations_left = -1;

namespace {
std::atomic<std::uint64_t> allocated{0};
}  // namespace

std::uint64_t allocated_bytes() noexcept { return allocated.load(std::memory_order_relaxed); }

}  // namespace test

void* operator new(std::size_t n) {
  if (test::allocations_left == 0) throw std::bad_alloc();
  if (test::allocations_left > 0) --test::allocations_left;
  test::allocated.fetch_add(n, std::memory_order_relaxed);
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

// The other forms, so that every allocation pairs with this file's delete: simdjson allocates
// with new (std::nothrow), and under AddressSanitizer a new of the sanitizer's own freed here
// is an alloc-dealloc mismatch.
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return operator new(n);
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
}
void* operator new[](std::size_t n) { return operator new(n); }
void* operator new[](std::size_t n, const std::nothrow_t& tag) noexcept { return operator new(n, tag); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
