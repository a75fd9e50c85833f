// libFuzzer harness: ccrc::read_profile (format_table's dispatch over every format, gzip
// included) on arbitrary bytes, from memory and from a stream: both refuse the input with the
// same message or both read the same format, gzip flag, profiles and tree. A ccrc::error is
// the expected answer to bad input; anything else is a finding.
#include "fuzz.hpp"

#include <ccrc/error.hpp>
#include <ccrc/formats/read_any_profile.hpp>

#include <cstdint>
#include <optional>
#include <sstream>
#include <string>

namespace {

// The result of `read`, or the message of the ccrc::error it threw.
template <class Read>
std::optional<ccrc::read_result> read_or(std::string& message, Read&& read) {
  try {
    return read();
  } catch (const ccrc::error& e) {
    message = e.what();
    return std::nullopt;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes = fuzz::text_of(data, size);
  const ccrc::read_options options{.profile = "", .max_document_bytes = std::uint64_t{1} << 20};
  std::string in_memory_error, streamed_error;
  std::optional<ccrc::read_result> in_memory = read_or(in_memory_error, [&] { return ccrc::read_profile(bytes, options); });
  std::optional<ccrc::read_result> streamed = read_or(streamed_error, [&] {
    std::istringstream in{std::string(bytes)};
    return ccrc::read_profile(in, options);
  });
  fuzz::check(in_memory.has_value() == streamed.has_value());
  if (!in_memory) {
    fuzz::check(in_memory_error == streamed_error);
    return 0;
  }
  fuzz::check(in_memory->detected == streamed->detected && in_memory->gzip == streamed->gzip);
  fuzz::check(in_memory->profiles == streamed->profiles && in_memory->warnings == streamed->warnings);
  fuzz::check_round_trip(in_memory->profile, streamed->profile, true);
  return 0;
}
