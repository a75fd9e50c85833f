// ccrc - the papers' DaCapo CCTs (Table I of Moret et al.), as generator targets.
#pragma once

#include <ccrc/error.hpp>
#include <ccrc/generate/generator.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace ccrc {

/// One row of Table I of "Visualizing and Exploring Profiles with Calling Context Ring
/// Charts" (the CCTs of one run of each DaCapo 2006 benchmark, default input), the CCRC render
/// time of Table 1 of "Exploring Large Profiles with Calling Context Ring Charts", and the
/// model knobs that give the generated tree that benchmark's character.
struct dacapo_benchmark {
  std::string_view name;
  cct_shape shape;                  ///< Table I: the generator reproduces it
  std::uint32_t depth_in_2010 = 0;  ///< Table 1 of the 2010 paper (differs for lusearch: 46)
  double render_ms = 0;             ///< Table 1 of the 2010 paper: Java Swing, 1440x900, bytecodes
  generator_model model;            ///< what the statistics leave open
};

namespace detail {

constexpr generator_model dacapo_model(std::string_view package, generator_model m) {
  m.package = package;
  return m;
}

}  // namespace detail

/// The eleven benchmarks of Table I, in the paper's order. Each model's recursion mix follows
/// what the program is known for: antlr and pmd walk syntax trees (mutual recursion between
/// visitor methods; pmd's goes 416 deep), bloat and xalan recurse over trees directly,
/// jython's interpreter loop recurses through long cycles, eclipse delegates class loading
/// through chains of class loaders, hsqldb and the lucene benchmarks barely recurse.
inline constexpr std::array<dacapo_benchmark, 11> dacapo_benchmarks = {{
    {"antlr", {627577, 164, 2498, 165465913, 254289, 39}, 164, 41,
     detail::dacapo_model("antlr", {.direct = 0.3, .mutual = 0.6, .delegation = 0.1})},
    {"bloat", {645316, 128, 3033, 1055927864, 212927, 48}, 128, 42,
     detail::dacapo_model("EDU.purdue.cs.bloat", {.direct = 0.5, .mutual = 0.4, .delegation = 0.1})},
    {"chart", {92272, 65, 4554, 404140995, 75266, 55}, 65, 81,
     detail::dacapo_model("org.jfree.chart", {})},
    {"eclipse", {2166169, 131, 11555, 941528217, 977531, 56}, 131, 58,
     detail::dacapo_model("org.eclipse", {.direct = 0.4, .mutual = 0.3, .delegation = 0.3, .levels = 2})},
    {"fop", {149492, 76, 4013, 43143714, 100590, 55}, 76, 111,
     detail::dacapo_model("org.apache.fop", {})},
    {"hsqldb", {66391, 62, 2507, 214764027, 60533, 60}, 62, 61,
     detail::dacapo_model("org.hsqldb", {})},
    {"jython", {1941246, 223, 4574, 945580102, 553124, 76}, 223, 46,
     detail::dacapo_model("org.python", {.direct = 0.2, .mutual = 0.3, .delegation = 0.5, .levels = 2.5, .deep_cycle = 7})},
    {"luindex", {58834, 52, 1969, 443252127, 46155, 38}, 52, 51,
     detail::dacapo_model("org.apache.lucene", {})},
    {"lusearch", {33189, 63, 1768, 502521414, 28414, 35}, 46, 63,
     detail::dacapo_model("org.apache.lucene", {})},
    {"pmd", {800071, 416, 3663, 462558862, 106841, 79}, 416, 44,
     detail::dacapo_model("net.sourceforge.pmd", {.direct = 0.2, .mutual = 0.7, .delegation = 0.1})},
    {"xalan", {211213, 79, 3679, 636834930, 97547, 56}, 79, 42,
     detail::dacapo_model("org.apache.xalan", {.direct = 0.5, .mutual = 0.4, .delegation = 0.1})},
}};

/// The benchmark called `name` ("antlr", ..., "xalan"), or nullptr.
[[nodiscard]] constexpr const dacapo_benchmark* find_dacapo(std::string_view name) noexcept {
  for (const auto& b : dacapo_benchmarks)
    if (b.name == name) return &b;
  return nullptr;
}

/// A CCT with the statistics of Table I's row `name`, deterministic for a seed (see
/// ccrc::generate_cct for the model). Throws ccrc::error for an unknown name.
///
///     ccrc::profile pmd = ccrc::generate_dacapo("pmd");  // 800,071 contexts, depth 416
///     auto flat = ccrc::eliminate_recursion(pmd);        // 106,841 contexts, depth 79
[[nodiscard]] inline profile generate_dacapo(std::string_view name, std::uint64_t seed = 1) {
  const dacapo_benchmark* b = find_dacapo(name);
  if (!b) {
    std::string known;
    for (const auto& d : dacapo_benchmarks) known += (known.empty() ? "" : ", ") + std::string(d.name);
    throw error("no DaCapo benchmark named '" + std::string(name) + "' (known: " + known + ")");
  }
  return generate_cct(b->shape, seed, b->model);
}

}  // namespace ccrc
