// Ring chart and icicle helpers for the geometry tests: finding segments, checking invariants.
#pragma once

#include <ccrc/algorithm/inclusive.hpp>
#include <ccrc/geometry/icicle.hpp>
#include <ccrc/geometry/ring_chart.hpp>

#include "support/figure1.hpp"
#include "support/random.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <string>

namespace test {

inline constexpr double two_pi = 2 * 3.14159265358979323846;

/// Segments of a ring chart or an icicle by "main;f;g" path.
template <class Layout>
std::map<std::string, typename decltype(Layout::segments)::value_type> by_path(const ccrc::call_tree& t,
                                                                               const Layout& chart) {
  std::map<std::string, typename decltype(Layout::segments)::value_type> out;
  for (const auto& s : chart.segments) out.emplace(ccrc::path_string(t, s.node), s);
  return out;
}

/// A random one-metric profile (`stacks` samples over `methods` methods, at most `depth`
/// deep) and its aggregated column.
struct random_chart_input {
  ccrc::profile p;
  std::vector<double> ag;
};

inline random_chart_input random_input(rng& r, std::size_t stacks, std::uint32_t methods, std::uint32_t depth) {
  random_chart_input in{profile_of(random_samples(r, stacks, methods, depth, 1), 1), {}};
  in.ag = ccrc::inclusive(in.p.tree(), in.p.column(0));
  return in;
}

/// Figure 1, its ag(bytecodes) and the view ring_chart_view centers on main: what the charts'
/// tests lay out.
struct figure1_view {
  ccrc::profile p = figure1();
  std::vector<double> ag = ccrc::inclusive(p.tree(), p.column("bytecodes"));
  ccrc::tree_view view = ccrc::ring_chart_view(ccrc::tree_view(p.tree()), ag);
};

/// main with 1000 callees of 1 and one, "big", of 1000: the small ones, half of main's span,
/// are culled into lines on a chart of the right size.
inline ccrc::profile thin_callees() {
  ccrc::profile p;
  ccrc::frame_id main = p.intern("main");
  std::vector<double> one{1};
  for (int k = 0; k < 1000; ++k) {
    ccrc::frame_id frames[] = {main, p.intern("m" + std::to_string(k))};
    p.add_path(frames, one);
  }
  ccrc::frame_id big[] = {main, p.intern("big")};
  p.add_path(big, std::vector<double>{1000});
  return p;
}

/// `o` with the sizing and the child order of round `round`: nine rounds try every pair.
inline ccrc::ring_options varied(int round, ccrc::ring_options o) {
  o.sizing = static_cast<ccrc::ring_sizing>(round % 3);
  o.order = static_cast<ccrc::child_order>(round / 3 % 3);
  return o;
}

/// Every number of the chart is finite.
inline bool all_finite(const ccrc::ring_layout& chart) {
  for (double r : chart.radii)
    if (!std::isfinite(r)) return false;
  for (const auto& s : chart.segments)
    if (!std::isfinite(s.r0) || !std::isfinite(s.r1) || !std::isfinite(s.a0) || !std::isfinite(s.a1)) return false;
  return std::isfinite(chart.center.x) && std::isfinite(chart.center.y) && std::isfinite(chart.start_angle);
}

/// The invariants every chart keeps: ring by ring, each ring clockwise without overlaps, a
/// child within its parent's angles and one ring further out, radii from ring_layout::radii,
/// nothing below a line, ring_begin consistent.
inline void check_invariants(const ccrc::call_tree& t, const ccrc::ring_layout& chart) {
  REQUIRE(!chart.segments.empty());
  REQUIRE(all_finite(chart));
  const auto& segs = chart.segments;
  CHECK(segs[0].kind == ccrc::segment_kind::center);
  CHECK(segs[0].parent == ccrc::no_segment);
  CHECK(segs[0].r0 == 0);
  CHECK(segs[0].r1 == chart.radii[0]);
  REQUIRE(chart.ring_begin.size() == chart.rings() + 2);
  CHECK(chart.ring_begin[0] == 0);
  CHECK(chart.ring_begin.back() == segs.size());
  for (std::size_t d = 0; d + 1 < chart.ring_begin.size(); ++d) {
    CHECK(chart.ring_begin[d] <= chart.ring_begin[d + 1]);
    auto ring = chart.ring(d);
    for (std::size_t k = 0; k < ring.size(); ++k) {
      CHECK(ring[k].depth == d);
      if (k > 0) CHECK(ring[k - 1].a1 <= ring[k].a0);
    }
  }
  for (std::size_t i = 1; i < segs.size(); ++i) {
    const auto& s = segs[i];
    REQUIRE(s.parent < i);
    const auto& p = segs[s.parent];
    CHECK(s.kind != ccrc::segment_kind::center);
    CHECK(p.kind != ccrc::segment_kind::line);
    CHECK(t.parent(s.node) == p.last);  // a chain's callees are its last context's
    CHECK(s.depth == p.depth + 1);
    CHECK(s.r0 == chart.radii[s.depth - 1]);
    CHECK(s.r1 == chart.radii[s.depth]);
    CHECK(p.a0 <= s.a0);
    CHECK(s.a0 <= s.a1);
    CHECK(s.a1 <= p.a1);
  }
}

/// Every number of the icicle is finite.
inline bool all_finite(const ccrc::icicle_layout& chart) {
  for (double e : chart.edges)
    if (!std::isfinite(e)) return false;
  for (const auto& s : chart.segments)
    if (!std::isfinite(s.x0) || !std::isfinite(s.x1) || !std::isfinite(s.y0) || !std::isfinite(s.y1)) return false;
  return std::isfinite(chart.x0) && std::isfinite(chart.x1);
}

/// The invariants every icicle keeps: row by row, each row left to right without overlaps, a
/// child within its parent's x-span and one row further from the root, y from the row's
/// edges, nothing below a line, row_begin consistent.
inline void check_invariants(const ccrc::call_tree& t, const ccrc::icicle_layout& chart) {
  REQUIRE(!chart.segments.empty());
  REQUIRE(all_finite(chart));
  const auto& segs = chart.segments;
  CHECK(segs[0].kind == ccrc::icicle_kind::root);
  CHECK(segs[0].parent == ccrc::no_segment);
  CHECK(segs[0].x0 == chart.x0);
  CHECK(segs[0].x1 == chart.x1);
  REQUIRE(chart.edges.size() == chart.rows() + 2);
  for (std::size_t k = 1; k < chart.edges.size(); ++k) CHECK(chart.edges[k - 1] <= chart.edges[k]);
  REQUIRE(chart.row_begin.size() == chart.rows() + 2);
  CHECK(chart.row_begin[0] == 0);
  CHECK(chart.row_begin.back() == segs.size());
  for (std::size_t d = 0; d + 1 < chart.row_begin.size(); ++d) {
    CHECK(chart.row_begin[d] <= chart.row_begin[d + 1]);
    auto row = chart.row(d);
    std::size_t band = chart.root_at_bottom ? chart.rows() - d : d;
    for (std::size_t k = 0; k < row.size(); ++k) {
      CHECK(row[k].depth == d);
      CHECK(row[k].y0 == chart.edges[band]);
      CHECK(row[k].y1 == chart.edges[band + 1]);
      if (k > 0) CHECK(row[k - 1].x1 <= row[k].x0);
    }
  }
  for (std::size_t i = 1; i < segs.size(); ++i) {
    const auto& s = segs[i];
    REQUIRE(s.parent < i);
    const auto& p = segs[s.parent];
    CHECK(s.kind != ccrc::icicle_kind::root);
    CHECK(p.kind != ccrc::icicle_kind::line);
    CHECK(t.parent(s.node) == p.last);  // a chain's callees are its last context's
    CHECK(s.depth == p.depth + 1);
    CHECK(p.x0 <= s.x0);
    CHECK(s.x0 <= s.x1);
    CHECK(s.x1 <= p.x1);
  }
}

}  // namespace test
