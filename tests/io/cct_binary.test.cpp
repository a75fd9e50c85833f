#include <ccrc/io/cct_binary.hpp>
#include <ccrc/tree/cct.hpp>

#include "support/figure1.hpp"
#include "support/random.hpp"
#include "support/same_profile.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <unistd.h>

namespace {

template <class Tree>
std::string bytes_of(const Tree& t) {
  std::ostringstream out;
  ccrc::write_cctb(out, t);
  return out.str();
}

std::string error_of(std::string_view bytes) {
  try {
    (void)ccrc::read_cctb(bytes);
  } catch (const ccrc::parse_error& e) {
    return e.what();
  }
  return "";
}

template <class T>
T load(const std::string& b, std::size_t at) {
  T v;
  std::memcpy(&v, b.data() + at, sizeof v);
  return v;  // the tests run on little-endian machines
}

template <class T>
void store(std::string& b, std::size_t at, T v) {
  std::memcpy(b.data() + at, &v, sizeof v);
}

// Recomputes the checksum after a deliberate change, so that the reader's other checks are
// what is tested.
void reseal(std::string& b) {
  ccrc::detail::cctb_checksum sum;
  sum.update(b.data() + 64, b.size() - 64);
  store(b, 48, sum.value());
}

}  // namespace

TEST_CASE("the layout of docs/formats.md: header, names, parents, frames, metric columns") {
  ccrc::profile p = test::figure1();  // 19 nodes with the root, 5 frames, 2 metrics
  std::string b = bytes_of(p);
  CHECK(b.substr(0, 8) == std::string("\x89" "CCTB\r\n\x1a", 8));
  CHECK(load<std::uint32_t>(b, 8) == 1);
  CHECK(load<std::uint32_t>(b, 12) == 64);
  CHECK(load<std::uint64_t>(b, 16) == 19);
  CHECK(load<std::uint64_t>(b, 24) == 5);
  CHECK(load<std::uint64_t>(b, 32) == 2);
  std::uint64_t strings = std::string("calls").size() + std::string("bytecodes").size() + 8;  // main f g h i
  CHECK(load<std::uint64_t>(b, 40) == strings);
  CHECK(load<std::uint64_t>(b, 56) == 0);
  std::size_t head = (4 * 2 + 8 * 5 + strings + 7) / 8 * 8;
  CHECK(b.size() == 64 + head + 8 * 19 + 8 * 2 * 19);
  CHECK(load<std::uint32_t>(b, 64) == 5);  // length of "calls"
  CHECK(b.substr(64 + 4 * 2 + 8 * 5, 14) == "callsbytecodes");
  std::size_t parents = 64 + head;
  CHECK(load<std::uint32_t>(b, parents) == 0xffffffffu);
  CHECK(load<std::uint32_t>(b, parents + 4) == 0);  // node 1 (main) hangs under the root
  std::size_t values = parents + 8 * 19;
  CHECK(load<double>(b, values + 8) == 1);                 // calls of main
  CHECK(load<double>(b, values + 8 * 19 + 8) == 1066);     // bytecodes of main
  test::check_same_profile(ccrc::read_cctb(b), p);
}

TEST_CASE("cctb_bytes: write_cctb's bytes, in a string of exactly their size; what read_cctb returns is shrunk") {
  for (std::uint64_t seed = 1; seed <= 50; ++seed) {
    test::rng r{seed};
    ccrc::profile p = test::profile_of(test::random_samples(r, 1 + r.below(300), 2 + r.below(30), 1 + r.below(30), 1 + seed % 3),
                                       1 + seed % 3);
    std::string b = ccrc::cctb_bytes(p);
    CHECK(b == bytes_of(p));
    CHECK(b.capacity() < b.size() + 16);  // reserved once (libc++ rounds to 16 bytes), never doubled
    ccrc::profile q = ccrc::read_cctb(b);
    test::check_same_profile(q, p);
    // 16 bytes a node and 8 per metric value: no spare capacity, no child index.
    CHECK(q.memory_bytes() == (16 + 8 * q.metric_count()) * q.size() + q.tree().symbols().memory_bytes());
  }
  ccrc::cct<ccrc::metric<"calls">, ccrc::metric<"time", float>> t;
  ccrc::frame_id main[] = {t.intern("main")};
  t.add_path(main, 5, 0.5f);
  CHECK(ccrc::cctb_bytes(t) == bytes_of(t));
}

TEST_CASE("round trip, bit for bit: random profiles, extreme values, call sites, a cct, streams and files") {
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    test::rng r{seed};
    ccrc::profile p = test::profile_of(test::random_samples(r, 1 + r.below(60), 2 + r.below(30), 1 + r.below(30), 1 + seed % 3),
                                       1 + seed % 3);
    test::check_same_profile(ccrc::read_cctb(bytes_of(p)), p);
  }
  ccrc::profile p({"x", "y"});
  ccrc::frame_id frames[] = {p.symbols().intern("f", 3), p.symbols().intern("f", 4), p.intern("g; h ë")};
  ccrc::node_id n = p.add_path(std::span(frames, 1), std::vector<double>{-0.0, std::numeric_limits<double>::denorm_min()});
  p.add_path(std::span(frames + 1, 2), std::vector<double>{std::ldexp(1.0, 60), -1e300});
  p.column(1)[ccrc::root_node] = 0.1;
  p.column(0)[n] = std::numeric_limits<double>::max();
  std::string b = bytes_of(p);
  test::check_same_profile(ccrc::read_cctb(b), p);
  std::istringstream in(b);
  test::check_same_profile(ccrc::read_cctb(in), p);
  auto path = std::filesystem::temp_directory_path() / ("ccrc-test-" + std::to_string(::getpid()) + ".cctb");
  std::ofstream(path, std::ios::binary) << b;
  test::check_same_profile(ccrc::read_cctb_file(path), p);
  std::filesystem::remove(path);
  CHECK_THROWS_WITH_AS((void)ccrc::read_cctb_file(path), ("cannot open " + path.string()).c_str(), ccrc::error);

  ccrc::cct<ccrc::metric<"calls">, ccrc::metric<"time", float>> t;
  ccrc::frame_id path2[] = {t.intern("main")};
  t.add_path(path2, 5, 0.5f);
  ccrc::profile q = ccrc::read_cctb(bytes_of(t));
  CHECK(q.metric_names() == std::vector<std::string>{"calls", "time"});
  CHECK(q.column("calls")[1] == 5);
  CHECK(q.column("time")[1] == 0.5);
}

TEST_CASE("every truncation, every flipped bit, any trailing byte: a parse error, never a crash") {
  std::string b = bytes_of(test::figure1());
  for (std::size_t n = 0; n < b.size(); ++n) CHECK_THROWS_AS((void)ccrc::read_cctb(std::string_view(b).substr(0, n)), ccrc::parse_error);
  for (std::size_t i = 0; i < b.size(); ++i) {
    for (int bit = 0; bit < 8; ++bit) {
      std::string damaged = b;
      damaged[i] = static_cast<char>(damaged[i] ^ (1 << bit));
      CHECK_THROWS_AS((void)ccrc::read_cctb(damaged), ccrc::parse_error);
    }
  }
  CHECK(error_of(b + '\0') == "1 bytes after the end of the .cctb data");
  CHECK(error_of(b.substr(0, 100)) == "truncated: 100 bytes, the header announces " + std::to_string(b.size()));
  CHECK(error_of("main;f 1\n") == "not a .cctb file (no .cctb magic number at the start)");
  CHECK(error_of(b.substr(0, 20)) == "truncated: 20 bytes, less than a .cctb header");
  std::string v2 = b;
  store<std::uint32_t>(v2, 8, 2);
  CHECK(error_of(v2) == ".cctb version 2 is not supported (this reader knows version 1)");
  std::string huge = b;
  store<std::uint64_t>(huge, 16, std::uint64_t{1} << 40);  // no allocation is tried
  CHECK(error_of(huge) == "corrupt .cctb header: 1099511627776 nodes");
  store<std::uint64_t>(huge, 16, std::uint64_t{1} << 31);
  CHECK(error_of(huge).rfind("truncated: ", 0) == 0);
  std::string bad_sum = b;
  store<std::uint64_t>(bad_sum, 48, load<std::uint64_t>(b, 48) + 1);
  CHECK(error_of(bad_sum) == "checksum mismatch: the .cctb file is corrupt");
}

TEST_CASE("a well-sealed file with a bad structure is refused too") {
  const std::string b = bytes_of(test::figure1());
  const std::size_t head = (4 * 2 + 8 * 5 + 22 + 7) / 8 * 8, parents = 64 + head, frames = parents + 4 * 19,
                    values = frames + 4 * 19;
  auto with = [&](auto change) {
    std::string d = b;
    change(d);
    reseal(d);
    return error_of(d);
  };
  CHECK(with([&](std::string& d) { store<std::uint32_t>(d, parents + 4 * 3, 3); }) ==
        "corrupt .cctb: node 3 has parent 3, not an earlier node");
  CHECK(with([&](std::string& d) { store<std::uint32_t>(d, frames + 4 * 3, 6); }) ==
        "corrupt .cctb: node 3 has frame 6 (frames are 1..5)");
  CHECK(with([&](std::string& d) { store<std::uint32_t>(d, frames + 4 * 3, 0); }) ==
        "corrupt .cctb: node 3 has frame 0 (frames are 1..5)");
  CHECK(with([&](std::string& d) { store<std::uint32_t>(d, parents, 0); }) == "corrupt .cctb: node 0 is not a root");
  // node 4 becomes a second child of node 1 with node 2's frame
  CHECK(with([&](std::string& d) {
          store<std::uint32_t>(d, parents + 4 * 4, load<std::uint32_t>(b, parents + 4 * 2));
          store<std::uint32_t>(d, frames + 4 * 4, load<std::uint32_t>(b, frames + 4 * 2));
        }).find("repeats a sibling's frame") != std::string::npos);
  CHECK(with([&](std::string& d) { store<double>(d, values + 8 * 5, std::nan("")); }) ==
        "a metric value is not finite (NaN or infinite)");
  CHECK(with([&](std::string& d) { store<double>(d, values + 8 * 5, -std::numeric_limits<double>::infinity()); }) ==
        "a metric value is not finite (NaN or infinite)");
  const std::size_t names = 64 + 4 * 2 + 8 * 5;  // "calls" "bytecodes" "main" "f" "g" "h" "i"
  CHECK(with([&](std::string& d) { d[names + 14 + 5] = 'f'; }) == "frame 3 ('f') is listed twice");  // g -> f
  CHECK(with([&](std::string& d) { d[names + 14] = '\x01'; }) == "frame 1: name contains a control character");
  CHECK(with([&](std::string& d) { d[names + 2] = ' '; }) == "metric name 'ca ls' contains a blank");
  CHECK(with([&](std::string& d) {
          store<std::uint32_t>(d, 64, 7);
          store<std::uint32_t>(d, 68, 7);
          std::memcpy(d.data() + names, "samplessamples", 14);
        }) == "metric 'samples' is named twice");
  CHECK(with([&](std::string& d) { store<std::uint32_t>(d, 64, 0); }) == "metric name '' is empty");
  CHECK(with([&](std::string& d) { store<std::uint32_t>(d, 64, 500); }) ==
        "corrupt .cctb: name lengths exceed the names' bytes");
}

TEST_CASE("what the format cannot hold is an error when writing") {
  ccrc::profile nan_value;
  ccrc::frame_id f[] = {nan_value.intern("f")};
  nan_value.add_path(f, std::vector<double>{std::nan("")});
  CHECK_THROWS_WITH_AS(bytes_of(nan_value), "metric 'samples' has a non-finite value", ccrc::error);
  ccrc::profile empty_name;
  empty_name.symbols().intern("", 5);
  CHECK_THROWS_WITH_AS(bytes_of(empty_name), "frame name '' is empty", ccrc::error);
}

TEST_CASE("a 1,000,000-deep chain round-trips") {
  ccrc::profile p;
  std::vector<ccrc::frame_id> stack(1'000'000, p.intern("r"));
  p.add_path(stack, std::vector<double>{1});
  test::check_same_profile(ccrc::read_cctb(bytes_of(p)), p);
}
