// ccrc - a generator of calling context trees with given statistics, shaped like real programs'.
#pragma once

#include <ccrc/algorithm/statistics.hpp>
#include <ccrc/config.hpp>
#include <ccrc/detail/random.hpp>
#include <ccrc/error.hpp>
#include <ccrc/transform/eliminate_recursion.hpp>
#include <ccrc/tree/profile.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ccrc {

/// The statistics a generated calling context tree has: the columns of the papers' Table I.
/// Counts exclude the synthetic root; a top-level frame has depth 1.
struct cct_shape {
  std::size_t nodes = 0;                   ///< N, calling contexts
  std::uint32_t max_depth = 0;             ///< D
  std::size_t methods = 0;                 ///< U, distinct methods
  double calls = 0;                        ///< C, the sum of metric `calls` (>= N: each context ran)
  std::size_t recursion_free_nodes = 0;    ///< N', contexts after eliminate_recursion
  std::uint32_t recursion_free_depth = 0;  ///< D', maximum depth after eliminate_recursion
};

/// The knobs of the generator's model: what the statistics leave open (see generate_cct).
/// The defaults give a typical object-oriented program; ccrc::dacapo_benchmarks sets them per
/// benchmark.
struct generator_model {
  // -- the recursion-free tree
  std::uint32_t threads = 3;     ///< top-level frames (thread entry points)
  double depth_shape = 6;        ///< gamma shape of the contexts-per-level curve: larger, later peak
  double growth = 8;             ///< at most this many times more contexts at a level than at the one above
  double deepest_level = 2;      ///< expected contexts at depth D' (how thin the deepest tail is)
  double fanout_alpha = 1.3;     ///< Pareto exponent of the weights that share out children: smaller, more skewed
  double fanout_inherit = 0.5;   ///< how much a context's weight passes to its callees (bushy subtrees)
  std::uint32_t max_fanout = 1500;  ///< most callees of one context
  double method_skew = 1.0;      ///< Zipf exponent of method popularity (a few methods are called everywhere)
  double callees = 4;            ///< mean number of distinct methods a method calls (heavy-tailed)
  double locality = 0.5;         ///< share of a method's callees in its own class
  // -- recursion: contexts N - N' added by recursive calls
  double recursive_methods = 0.04;  ///< share of methods that call back into their callers
  double direct = 0.3;              ///< weight of direct recursion, f -> f
  double mutual = 0.4;              ///< weight of mutual recursion over 2-4 methods (visitors, parsers)
  double delegation = 0.3;          ///< weight of long cycles over 5-12 methods (class loading, interpreters)
  double levels = 3;                ///< mean repetitions of a recursive cycle
  double nesting = 0.3;             ///< chance a recursion starts inside another (deeper trees)
  double branches = 0.2;            ///< mean extra recursive calls per repetition (tree walks)
  double ribs = 0.5;                ///< chance a repetition calls some of its callees again
  std::uint32_t rib_depth = 3;      ///< levels of callees a rib repeats
  double deep_share = 0.05;         ///< share of N - N' in the recursion that reaches depth D
  std::uint32_t deep_cycle = 3;     ///< methods in the cycle of that recursion
  // -- metrics
  double call_drift = -0.4;   ///< mean change of log(calls) from caller to callee
  double call_spread = 1.3;   ///< its standard deviation: larger, hotter hot paths
  double bytecodes = 14;      ///< median bytecodes a method executes per call
  // -- names
  std::string_view package = "org.example";  ///< package of the program's own classes
};

namespace detail {

// Names that read like Java methods: package.Class.method(args), unique by construction.
inline std::vector<std::string> java_method_names(std::size_t count, std::string_view package,
                                                  const std::vector<std::uint32_t>& class_of,
                                                  const std::vector<std::uint32_t>& index_in_class) {
  static constexpr std::array<std::string_view, 16> subpackages = {
      "core", "util", "io", "impl", "ast", "parser", "tree", "model", "runtime", "internal",
      "cache", "text", "xml", "index", "engine", "api"};
  static constexpr std::array<std::string_view, 12> jdk_packages = {
      "java.lang", "java.util", "java.io", "java.lang.reflect", "java.util.regex", "sun.misc",
      "java.security", "java.nio", "java.util.zip", "java.net", "java.text", "sun.reflect"};
  static constexpr std::array<std::string_view, 20> prefixes = {
      "", "Abstract", "Default", "Simple", "Buffered", "Cached", "Lazy", "Base", "Composite", "Array",
      "Hash", "Linked", "String", "Char", "Object", "Symbol", "Type", "Tree", "Token", "Local"};
  static constexpr std::array<std::string_view, 36> nouns = {
      "Node", "Visitor", "Parser", "Lexer", "Reader", "Writer", "Buffer", "Map", "List", "Table",
      "Factory", "Builder", "Handler", "Manager", "Context", "Walker", "Scanner", "Resolver",
      "Loader", "Printer", "Formatter", "Iterator", "Entry", "Element", "Attribute", "Filter",
      "Index", "Query", "Document", "Field", "Term", "Frame", "Code", "Module", "Function", "Stack"};
  static constexpr std::array<std::string_view, 25> verbs = {
      "get", "set", "is", "has", "add", "remove", "find", "create", "visit", "accept", "parse",
      "read", "write", "put", "init", "update", "compute", "resolve", "load", "append", "next",
      "apply", "check", "match", "emit"};
  static constexpr std::array<std::string_view, 17> objects = {
      "", "Value", "Node", "Name", "Type", "Child", "Token", "Entry", "Next", "All", "Index",
      "Buffer", "Field", "Class", "Children", "Attribute", "Symbol"};
  static constexpr std::array<std::string_view, 8> args = {
      "", "int", "String", "Object", "int, int", "Node", "char[], int, int", "boolean"};
  constexpr std::size_t class_names = prefixes.size() * nouns.size();
  constexpr std::size_t method_names = verbs.size() * objects.size();
  std::vector<std::string> names(count + 1);
  std::string cls;
  // About a third of the classes are the JDK's; packages hold 20-40 classes each.
  const std::size_t package_count = 1 + (class_of[count] / 2 + 10) / 25;
  for (std::size_t m = 1; m <= count; ++m) {
    std::uint32_t c = class_of[m];
    std::size_t p = c % package_count;
    cls.clear();
    if (c % 3 == 2) {
      cls.append(jdk_packages[p % jdk_packages.size()]);
      if (p >= jdk_packages.size()) cls.append(".p").append(std::to_string(p / jdk_packages.size()));
    } else {
      cls.append(package).append(".").append(subpackages[p % subpackages.size()]);
      if (p >= subpackages.size()) cls.append(std::to_string(p / subpackages.size()));
    }
    std::size_t k = c / package_count;  // unique within the package
    std::size_t combo = (k + 37 * p) % class_names;  // a different first class in each package
    cls.append(".").append(prefixes[combo % prefixes.size()]).append(nouns[combo / prefixes.size()]);
    if (k >= class_names) cls.append(std::to_string(k / class_names));
    // Distinct (verb, object) pairs within a class: a stride coprime with their count.
    std::size_t j = (index_in_class[m] * 7 + c) % method_names;
    if (index_in_class[m] >= method_names) cls.append("$").append(std::to_string(index_in_class[m] / method_names));
    std::string& name = names[m];
    name.reserve(cls.size() + 40);
    name.append(cls).append(".").append(verbs[j % verbs.size()]).append(objects[j / verbs.size()]);
    name.append("(").append(args[(m * 2654435761u >> 7) % args.size()]).append(")");
  }
  return names;
}

// The methods of the top-level contexts: the threads' entry points.
inline void name_threads(std::vector<std::string>& names, std::size_t threads, std::string_view package) {
  for (std::size_t i = 1; i <= threads && i < names.size(); ++i) {
    if (i == 1) names[i] = std::string(package) + ".Harness.main(String[])";
    else if (i == 2) names[i] = "java.lang.ref.Finalizer$FinalizerThread.run()";
    else if (i == 3) names[i] = "java.lang.ref.Reference$ReferenceHandler.run()";
    else names[i] = std::string(package) + ".Worker" + std::to_string(i - 3) + ".run()";
  }
}

// The generator's state: the recursion-free tree (the "skeleton", ids in level order), then
// the full tree whose every node is labelled by the skeleton node it folds into.
class cct_generator {
 public:
  cct_generator(const cct_shape& shape, const generator_model& model, std::uint64_t seed)
      : shape_(shape), model_(model), rng_(seed ^ 0x63637263ULL) {}

  profile run() {
    validate();
    level_counts();
    skeleton_structure();
    method_model();
    assign_methods();
    use_every_method();
    add_recursion();
    return build();
  }

 private:
  using u32 = std::uint32_t;
  static constexpr u32 none = 0xffffffffu;

  [[noreturn]] static void fail(const std::string& why) { throw error("ccrc: cannot generate this CCT: " + why); }

  void validate() {
    const cct_shape& s = shape_;
    auto n = static_cast<double>(s.nodes);
    if (s.nodes == 0 || s.methods == 0 || s.max_depth == 0) fail("nodes, methods and depth must be positive");
    if (s.nodes >= max_nodes / 2) fail("too many nodes");
    if (s.recursion_free_nodes == 0 || s.recursion_free_nodes > s.nodes)
      fail("the recursion-free nodes must be between 1 and the nodes");
    if (s.recursion_free_depth == 0 || s.recursion_free_depth > s.max_depth)
      fail("the recursion-free depth must be between 1 and the depth");
    if (s.methods > s.recursion_free_nodes) fail("every method needs a context: methods <= recursion-free nodes");
    if (s.recursion_free_depth > s.methods)
      fail("no method repeats on a recursion-free path: recursion-free depth <= methods");
    if (s.recursion_free_depth > s.recursion_free_nodes) fail("recursion-free depth <= recursion-free nodes");
    if (s.max_depth - s.recursion_free_depth > s.nodes - s.recursion_free_nodes)
      fail("reaching depth D from D' takes at least D - D' recursive contexts");
    if (s.nodes > s.recursion_free_nodes && s.max_depth < 2) fail("recursion needs a depth of 2 or more");
    if (!(s.calls >= n) || s.calls > 1e15) fail("calls must be at least the number of nodes (and below 1e15)");
  }

  // L[d]: contexts at depth d of the skeleton, d = 1..D'. A gamma-shaped curve (most real
  // CCTs have the bulk of their contexts at a third to a half of their depth, and a thin tail),
  // its scale solved so that about `deepest_level` contexts sit at depth D'.
  void level_counts() {
    const u32 depth = shape_.recursion_free_depth;
    const std::size_t total = shape_.recursion_free_nodes;
    levels_.assign(depth + 1, 0);
    levels_[0] = 1;
    std::size_t top = std::min<std::size_t>({std::max<u32>(model_.threads, 1), total - (depth - 1), shape_.methods});
    levels_[1] = depth == 1 ? total : top;
    if (depth > 1) {
      std::size_t extra = total - top - (depth - 1);
      double k = std::max(1.0, model_.depth_shape);
      auto weights = [&](double theta) {
        std::vector<double> w(depth + 1, 0.0);
        double max_log = -1e300;
        for (u32 d = 2; d <= depth; ++d) max_log = std::max(max_log, (k - 1) * std::log(d) - d / theta);
        for (u32 d = 2; d <= depth; ++d) w[d] = std::exp((k - 1) * std::log(d) - d / theta - max_log);
        return w;
      };
      auto tail = [&](double theta) {
        std::vector<double> w = weights(theta);
        double sum = 0;
        for (double x : w) sum += x;
        return static_cast<double>(extra) * w[depth] / sum;
      };
      double lo = 0.05, hi = 4.0 * depth;
      for (int i = 0; i < 100; ++i) {
        double mid = std::sqrt(lo * hi);
        (tail(mid) < model_.deepest_level ? lo : hi) = mid;
      }
      std::vector<double> w = weights(hi);
      double sum = 0;
      for (double x : w) sum += x;
      // Largest remainder: exact total, every level at least 1.
      std::vector<std::pair<double, u32>> remainders;
      std::size_t given = 0;
      for (u32 d = 2; d <= depth; ++d) {
        double share = static_cast<double>(extra) * w[d] / sum;
        auto whole = static_cast<std::size_t>(share);
        levels_[d] = 1 + whole;
        given += whole;
        remainders.emplace_back(share - static_cast<double>(whole), d);
      }
      std::sort(remainders.begin(), remainders.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
      });
      for (std::size_t i = 0; given < extra; ++i, ++given) ++levels_[remainders[i % remainders.size()].second];
    }
    // Near the top a level grows at most `growth`-fold (main calls tens of methods, not
    // thousands); what a level cannot take goes to the deeper levels, in proportion.
    for (u32 d = 1; d + 1 <= depth; ++d) {
      auto cap = static_cast<std::size_t>(static_cast<double>(levels_[d]) * std::max(1.0, model_.growth));
      if (levels_[d + 1] <= cap) continue;
      std::size_t excess = levels_[d + 1] - cap, below = 0;
      levels_[d + 1] = cap;
      for (u32 e = d + 2; e <= depth; ++e) below += levels_[e];
      if (below == 0) {
        levels_[d + 1] += excess;  // the last level: nowhere else to go
        break;
      }
      std::size_t given = 0;
      for (u32 e = d + 2; e <= depth; ++e) {
        auto share = static_cast<std::size_t>(static_cast<double>(excess) * static_cast<double>(levels_[e]) / static_cast<double>(below));
        levels_[e] += share;
        given += share;
      }
      levels_[d + 2] += excess - given;
    }
    // A context at depth d has d methods on its path: its callees choose among the others.
    for (u32 d = 0; d < depth; ++d)
      if (levels_[d + 1] > levels_[d] * fanout_cap(d))
        fail("too few methods (or too small a fan-out) for " + std::to_string(levels_[d + 1]) +
             " contexts at depth " + std::to_string(d + 1));
  }

  // Most callees a context at depth d can have: its callees avoid the d methods on its path.
  [[nodiscard]] std::size_t fanout_cap(u32 d) const noexcept {
    std::size_t cap = shape_.methods - d;
    return d == 0 ? cap : std::min<std::size_t>(cap, std::max<u32>(model_.max_fanout, 1));
  }

  // Parents for each level: children go to the contexts of the level above in proportion to
  // Pareto-distributed weights (most contexts get 0 or 1 callee, a few get hundreds), and a
  // callee inherits part of its caller's weight, so busy subtrees stay busy further down.
  void skeleton_structure() {
    const std::size_t n = shape_.recursion_free_nodes + 1;
    s_parent_.assign(n, none);
    s_depth_.assign(n, 0);
    child_begin_.assign(n, 0);
    child_count_.assign(n, 0);
    std::vector<double> log_weight(n, 0.0);
    std::size_t begin = 0, next = 1;  // level d occupies [begin, begin + levels_[d])
    std::vector<double> cumulative;
    std::vector<u32> count;
    for (u32 d = 0; d + 1 < levels_.size(); ++d) {
      std::size_t parents = levels_[d], children = levels_[d + 1];
      std::size_t cap = fanout_cap(d);
      count.assign(parents, 0);
      if (parents == 1) {
        count[0] = static_cast<u32>(children);
      } else {
        double max_log = -1e300;
        for (std::size_t i = 0; i < parents; ++i) max_log = std::max(max_log, log_weight[begin + i]);
        cumulative.resize(parents);
        double sum = 0;
        for (std::size_t i = 0; i < parents; ++i) cumulative[i] = sum += std::exp(log_weight[begin + i] - max_log);
        // `children` sorted uniform points from exponential spacings, swept once.
        double spacing_total = 0;
        std::vector<double> points(children);
        for (auto& p : points) p = spacing_total += rng_.exponential();
        spacing_total += rng_.exponential();
        std::size_t parent = 0;
        std::size_t excess = 0;
        for (double p : points) {
          double x = p / spacing_total * sum;
          while (parent + 1 < parents && cumulative[parent] <= x) ++parent;
          if (count[parent] < cap) ++count[parent];
          else ++excess;
        }
        for (std::size_t tries = 0; excess > 0; ++tries) {
          std::size_t i = tries < 64 * parents ? rng_.below(static_cast<u32>(parents)) : tries % parents;
          if (count[i] < cap) ++count[i], --excess;
        }
      }
      for (std::size_t i = 0; i < parents; ++i) {
        std::size_t p = begin + i;
        child_begin_[p] = static_cast<u32>(next);
        child_count_[p] = count[i];
        for (u32 c = 0; c < count[i]; ++c, ++next) {
          s_parent_[next] = static_cast<u32>(p);
          s_depth_[next] = d + 1;
          log_weight[next] = model_.fanout_inherit * log_weight[p] + std::log(rng_.pareto(model_.fanout_alpha));
        }
      }
      begin += parents;
    }
    for (std::size_t p = begin; p < n; ++p) child_begin_[p] = static_cast<u32>(n);
  }

  // Popularity (Zipf over a random ranking), classes (runs of consecutive ids), bytecodes per
  // call, and for each method a list of callees: mostly popular methods and its class's own.
  void method_model() {
    const auto u = static_cast<u32>(shape_.methods);
    std::vector<u32> rank(u);
    for (u32 i = 0; i < u; ++i) rank[i] = i + 1;
    for (u32 i = u; i > 1; --i) std::swap(rank[i - 1], rank[rng_.below(i)]);
    popularity_.assign(u + 1, 0.0);
    double sum = 0;
    for (u32 m = 1; m <= u; ++m) popularity_[m] = sum += std::pow(static_cast<double>(rank[m - 1]), -model_.method_skew);
    class_of_.assign(u + 1, 0);
    index_in_class_.assign(u + 1, 0);
    class_begin_.assign(1, 1);
    for (u32 m = 1, c = 0; m <= u; ++c) {
      u32 size = 1 + rng_.geometric(5);
      class_begin_.push_back(std::min(u + 1, m + size));
      for (u32 i = 0; i < size && m <= u; ++i, ++m) {
        class_of_[m] = c;
        index_in_class_[m] = i;
      }
    }
    bytecodes_.assign(u + 1, 0);
    for (u32 m = 1; m <= u; ++m)
      bytecodes_[m] = std::clamp(std::round(model_.bytecodes * std::exp(0.9 * rng_.normal())), 1.0, 5000.0);
    callees_.assign(u + 1, {});
    for (u32 m = 1; m <= u; ++m) {
      auto length = static_cast<u32>(std::min(200.0, std::round(model_.callees / 3 * rng_.pareto(1.5))));
      for (u32 i = 0; i < std::max<u32>(length, 1); ++i) {
        u32 c = class_of_[m];
        u32 first = class_begin_[c], size = class_begin_[c + 1] - first;
        callees_[m].push_back(size > 1 && rng_.chance(model_.locality) ? first + rng_.below(size) : popular());
      }
    }
  }

  u32 popular() {
    double x = rng_.uniform() * popularity_.back();
    auto it = std::upper_bound(popularity_.begin() + 1, popularity_.end(), x);
    return static_cast<u32>(std::min<std::ptrdiff_t>(it - popularity_.begin(), static_cast<std::ptrdiff_t>(shape_.methods)));
  }

  // Methods for the skeleton, depth-first: a context's callees come from its method's callee
  // list (growing it when the list runs out, as virtual calls reach new targets), never a
  // method already on the path (the skeleton is recursion-free) or a sibling's.
  void assign_methods() {
    const std::size_t n = s_parent_.size();
    const auto u = static_cast<u32>(shape_.methods);
    s_method_.assign(n, 0);
    std::vector<u32> on_path(u + 1, 0), taken_by(u + 1, none);
    auto valid = [&](u32 m, u32 parent) { return m != 0 && on_path[m] == 0 && taken_by[m] != parent; };
    auto pick = [&](u32 parent) -> u32 {
      std::vector<u32>& list = callees_[s_method_[parent]];
      for (int t = 0; t < 6; ++t) {
        double x = rng_.uniform();
        u32 m = list[static_cast<std::size_t>(x * x * static_cast<double>(list.size()))];
        if (valid(m, parent)) return m;
      }
      u32 m = 0;
      for (int t = 0; t < 6 && !valid(m, parent); ++t) m = popular();
      for (u32 start = rng_.below(u), i = 0; !valid(m, parent) && i < u; ++i) m = 1 + (start + i) % u;
      CCRC_ASSERT(valid(m, parent), "ccrc: generator: no method left for a callee");
      if (list.size() < 400) list.push_back(m);
      return m;
    };
    auto assign_children = [&](u32 p) {
      for (u32 i = 0; i < child_count_[p]; ++i) {
        u32 c = child_begin_[p] + i;
        s_method_[c] = p == 0 ? i + 1 : pick(p);  // top-level contexts: the thread entry points
        taken_by[s_method_[c]] = p;
      }
    };
    std::vector<std::pair<u32, u32>> stack{{0, 0}};
    assign_children(0);
    while (!stack.empty()) {
      auto& [p, i] = stack.back();
      if (i < child_count_[p]) {
        u32 c = child_begin_[p] + i++;
        on_path[s_method_[c]] = 1;
        assign_children(c);
        stack.emplace_back(c, 0);
      } else {
        on_path[s_method_[p]] = 0;
        stack.pop_back();
      }
    }
  }

  // Every method runs somewhere: methods the walk never reached take the place of a context
  // whose method appears elsewhere too (leaves first). A method that appears nowhere else can
  // take any context without creating recursion or a duplicate sibling.
  void use_every_method() {
    const auto u = static_cast<u32>(shape_.methods);
    const auto n = static_cast<u32>(s_parent_.size());
    std::vector<u32> uses(u + 1, 0);
    for (u32 i = 1; i < n; ++i) ++uses[s_method_[i]];
    std::vector<u32> unused;
    for (u32 m = 1; m <= u; ++m)
      if (uses[m] == 0) unused.push_back(m);
    u32 stride = 2654435761u % (n - 1);
    while (std::gcd(stride, n - 1) != 1) ++stride;
    for (int pass = 0; pass < 2 && !unused.empty(); ++pass) {
      u32 at = rng_.below(n - 1);
      for (u32 k = 0; k < n - 1 && !unused.empty(); ++k, at = (at + stride) % (n - 1)) {
        u32 i = 1 + at;
        if ((pass == 0) != (child_count_[i] == 0) || uses[s_method_[i]] < 2) continue;
        --uses[s_method_[i]];
        s_method_[i] = unused.back();
        unused.pop_back();
      }
    }
    CCRC_ASSERT(unused.empty(), "ccrc: generator: a method without a context");
  }

  // The skeleton path from ancestor-or-self at distance `up` down to s: cycle[0] is the
  // recursion target, cycle.back() == s.
  void cycle_of(u32 s, u32 length, std::vector<u32>& cycle) const {
    cycle.resize(length);
    for (u32 j = length; j-- > 0; s = s_parent_[s]) cycle[j] = s;
  }

  // The full tree: the skeleton, plus N - N' contexts made by recursive calls. A node x of
  // the full tree is labelled by a skeleton node; its children are labelled by children of
  // label(x) (calls the recursion-free tree has too) or by ancestors-or-self of label(x)
  // (recursive calls). eliminate_recursion folds every node into its label, so the
  // recursion-free tree is the skeleton exactly.
  void add_recursion() {
    const std::size_t total = shape_.nodes + 1;
    parent_.reserve(total);
    label_.reserve(total);
    depth_.reserve(total);
    recursive_a_.reserve(total);
    recursive_b_.reserve(total);
    recursive_a_.assign(s_parent_.size(), none);
    recursive_b_.assign(s_parent_.size(), none);
    parent_.assign(s_parent_.begin(), s_parent_.end());
    depth_.assign(s_depth_.begin(), s_depth_.end());
    label_.resize(s_parent_.size());
    for (u32 i = 0; i < label_.size(); ++i) label_[i] = i;
    if (total == parent_.size()) return;

    // Recursive methods and the length of their cycle.
    const auto u = static_cast<u32>(shape_.methods);
    cycle_length_.assign(u + 1, 0);
    double kinds = model_.direct + model_.mutual + model_.delegation;
    for (u32 m = 1; m <= u; ++m) {
      if (!rng_.chance(model_.recursive_methods)) continue;
      double k = rng_.uniform() * kinds;
      cycle_length_[m] = k < model_.direct ? 1 : k < model_.direct + model_.mutual ? 2 + rng_.below(3) : 5 + rng_.below(8);
    }
    for (u32 x = 0; x < parent_.size(); ++x) consider(x);

    // The recursion that reaches depth D first, from a skeleton context deep enough that the
    // nodes it needs fit in the budget.
    std::size_t budget = total - parent_.size();
    if (shape_.max_depth > shape_.recursion_free_depth) {
      u32 x = deep_root(budget);
      u32 c = std::clamp<u32>(model_.deep_cycle, 1, depth_[x]);
      std::size_t need = shape_.max_depth - depth_[x];
      std::size_t share = std::clamp(static_cast<std::size_t>(model_.deep_share * static_cast<double>(budget)), need, budget);
      u32 reps = static_cast<u32>((need + c - 1) / c) + 1;
      expand(x, c, reps, share, shape_.max_depth);
    }
    // Then recursions at random recursive contexts (old or new) until the budget is spent.
    while (parent_.size() < total) {
      if (candidates_.empty() && nested_.empty()) more_recursive_methods();
      bool nest = !nested_.empty() && (candidates_.empty() || rng_.chance(model_.nesting));
      std::vector<u32>& from = nest ? nested_ : candidates_;
      std::size_t i = rng_.below(static_cast<u32>(from.size()));
      if (nest) {  // the shallower of three: nested recursion thins out with depth
        for (int t = 0; t < 2; ++t) {
          std::size_t j = rng_.below(static_cast<u32>(from.size()));
          if (depth_[from[j]] < depth_[from[i]]) i = j;
        }
      }
      u32 x = from[i];
      from[i] = from.back();
      from.pop_back();
      u32 c = cycle_length_[s_method_[label_[x]]];
      u32 reps = 1 + rng_.geometric(model_.levels - 1);
      expand(x, c, reps, total - parent_.size(), 0);
    }
  }

  // x can start a recursion: its method recurses, its label is deep enough for the cycle, and
  // there is room below it.
  void consider(u32 x) {
    u32 c = cycle_length_[s_method_[label_[x]]];
    if (c != 0 && s_depth_[label_[x]] >= c && depth_[x] < shape_.max_depth)
      (x < s_parent_.size() ? candidates_ : nested_).push_back(x);
  }

  // When the candidates run out: one more method recurses directly (or a method whose cycle
  // is too long for its contexts becomes direct); rescan.
  void more_recursive_methods() {
    const auto u = static_cast<u32>(shape_.methods);
    for (u32 tries = 0; candidates_.empty() && nested_.empty() && tries < 4 * u; ++tries) {
      u32 m = tries < 2 * u ? 1 + rng_.below(u) : 1 + tries % u;
      if (cycle_length_[m] == 1) continue;
      cycle_length_[m] = 1;
      for (u32 x = 0; x < parent_.size(); ++x)
        if (s_method_[label_[x]] == m) consider(x);
      // consider() may list contexts whose recursive call exists: expand() checks.
    }
    if (candidates_.empty() && nested_.empty()) fail("no room for " + std::to_string(shape_.nodes) + " contexts within depth " + std::to_string(shape_.max_depth));
  }

  u32 deep_root(std::size_t budget) {
    const u32 d1 = shape_.recursion_free_depth;
    const auto n = static_cast<u32>(s_parent_.size());
    std::vector<u32> pool;
    for (u32 x = 1; x < n; ++x)
      if (2 * s_depth_[x] >= d1 && shape_.max_depth - s_depth_[x] <= budget) pool.push_back(x);
    if (pool.empty())
      for (u32 x = 1; x < n; ++x)
        if (s_depth_[x] == d1) pool.push_back(x);
    return pool[rng_.below(static_cast<u32>(pool.size()))];
  }

  u32 add_node(u32 parent, u32 label) {
    auto x = static_cast<u32>(parent_.size());
    parent_.push_back(parent);
    label_.push_back(label);
    depth_.push_back(depth_[parent] + 1);
    recursive_a_.push_back(none);
    recursive_b_.push_back(none);
    consider(x);
    return x;
  }

  // A recursion from x: `reps` repetitions of the cycle (the skeleton path from the target
  // down to label(x)), each repetition possibly calling back early (a branch) and calling some
  // of its callees again (ribs). At most `budget` nodes, none deeper than D. Depth-first with
  // the cycle's next node on top of the stack, so the cycle reaches its depth before ribs
  // grow; with `reach`, ribs never take the nodes the cycle needs to get there.
  void expand(u32 x, u32 c, u32 reps, std::size_t budget, u32 reach) {
    const u32 max_depth = shape_.max_depth;
    if (depth_[x] >= max_depth || budget == 0) return;
    cycle_of(label_[x], c, cycle_);
    if (!add_recursive_call(x, cycle_[0])) return;
    std::size_t left = budget - 1;
    u32 deepest = depth_[x] + 1;
    work_.clear();
    work_.push_back({add_node(x, cycle_[0]), 0, reps - 1, none});
    auto room = [&](u32 parent) {
      std::size_t need = reach > deepest ? reach - deepest : 0;
      return left > need && depth_[parent] < max_depth;
    };
    while (!work_.empty() && left > 0) {
      work_item it = work_.back();
      work_.pop_back();
      u32 y = it.node;
      if (it.rib != none) {
        if (it.rib > 0 && rng_.chance(0.6)) add_ribs(y, none, it.rib, left, room);
        continue;
      }
      // The cycle continues, or calls back into its target once more.
      u32 spine = none, position = 0, more = it.reps;
      if (it.position + 1 < c) spine = cycle_[it.position + 1], position = it.position + 1;
      else if (it.reps > 0) spine = cycle_[0], more = it.reps - 1;
      u32 spine_node = none;
      if (spine != none && depth_[y] < max_depth) {
        --left;
        spine_node = add_node(y, spine);
        deepest = std::max(deepest, depth_[spine_node]);
        if (position == 0) add_recursive_call(y, spine);
      }
      if (it.position + 1 < c && rng_.chance(model_.branches / static_cast<double>(c - 1)) && room(y)) {
        --left;
        add_recursive_call(y, cycle_[0]);
        work_.push_back({add_node(y, cycle_[0]), 0, rng_.geometric(model_.levels - 1), none});
      }
      if (rng_.chance(model_.ribs)) add_ribs(y, spine, model_.rib_depth, left, room);
      if (spine_node != none) work_.push_back({spine_node, position, more, none});
    }
  }

  // Calls some callees of label(y) again under y (not `skip`, the cycle's next node), each
  // repeating `rib - 1` further levels.
  template <class Room>
  void add_ribs(u32 y, u32 skip, u32 rib, std::size_t& left, Room& room) {
    u32 s = label_[y], count = child_count_[s];
    if (count == 0) return;
    u32 want = std::min(count, 1 + rng_.geometric(1.0));
    u32 start = rng_.below(count);
    for (u32 i = 0; i < count && want > 0 && room(y); ++i) {
      u32 child = child_begin_[s] + (start + i) % count;
      if (child == skip) continue;
      --want;
      --left;
      work_.push_back({add_node(y, child), 0, 0, rib - 1});
    }
  }

  // Records that x calls back into `target`; false if it already does (siblings are unique),
  // or already makes two recursive calls (one as part of the recursion that created it, one
  // as the start of another: enough for any node).
  bool add_recursive_call(u32 x, u32 target) {
    if (recursive_a_[x] == target || recursive_b_[x] == target || recursive_b_[x] != none) return false;
    (recursive_a_[x] == none ? recursive_a_[x] : recursive_b_[x]) = target;
    return true;
  }

  // The tree in depth-first order (as a profiler creates it: a context before its callees, a
  // subtree before the next sibling's), then the metrics.
  profile build() {
    const std::size_t n = parent_.size();
    std::vector<std::string> names = java_method_names(shape_.methods, model_.package, class_of_, index_in_class_);
    name_threads(names, levels_[1], model_.package);
    profile p({"calls", "bytecodes"});
    for (std::size_t m = 1; m <= shape_.methods; ++m) p.intern(names[m]);  // frame m is method m
    CCRC_ASSERT(p.symbols().frame_count() == shape_.methods + 1, "ccrc: generator: two methods share a name");
    p.reserve(n);
    {
      // Children lists (ascending ids: the skeleton's calls first, then recursive ones).
      std::vector<u32> start(n + 1, 0), kids(n);
      for (u32 x = 1; x < n; ++x) ++start[parent_[x]];
      for (std::size_t i = 0, sum = 0; i <= n; ++i) sum = start[i] += static_cast<u32>(sum);  // block ends
      for (u32 x = static_cast<u32>(n); x-- > 1;) kids[--start[parent_[x]]] = x;       // now block starts
      std::vector<u32>& new_id = depth_;  // depths are no longer needed
      new_id[0] = root_node;
      std::vector<u32> stack{0};
      while (!stack.empty()) {
        u32 x = stack.back();
        stack.pop_back();
        if (x != 0) {
          new_id[x] = p.find_or_add_child(new_id[parent_[x]], s_method_[label_[x]]);
          CCRC_ASSERT(new_id[x] + 1 == p.size(), "ccrc: generator: two siblings share a frame");
        }
        for (u32 i = start[x + 1]; i-- > start[x];) stack.push_back(kids[i]);
      }
    }
    const std::vector<u32>& new_id = depth_;
    // log(calls) drifts from caller to callee (loops multiply, rare paths divide), floored at
    // one call; then calls = 1 + floor(k (e^lc - 1)) with k making the total exactly C.
    std::span<double> calls = p.column(0), bytecodes = p.column(1);
    std::vector<float> log_calls(n, 0.0f);
    const double cap = std::log(std::max(2.0, shape_.calls / 50));
    double sum = 0;
    node_id hottest = 1;
    for (u32 x = 1; x < n; ++x) {
      double lc = parent_[x] == 0 ? 0.0 : log_calls[parent_[x]] + model_.call_drift + model_.call_spread * rng_.normal();
      lc = std::clamp(lc, 0.0, cap);
      log_calls[x] = static_cast<float>(lc);
      double w = calls[new_id[x]] = std::expm1(lc);
      sum += w;
      if (w > calls[hottest]) hottest = new_id[x];
    }
    double k = sum > 0 ? (shape_.calls - static_cast<double>(n - 1)) / sum : 0;
    double total = 0;
    for (std::size_t i = 1; i < n; ++i) total += calls[i] = 1 + std::floor(k * calls[i]);
    calls[hottest] += std::round(shape_.calls - total);
    // Bytecodes per call vary around the method's size (branches taken, loop trip counts).
    for (std::size_t i = 1; i < n; ++i)
      bytecodes[i] = std::max(1.0, std::round(calls[i] * bytecodes_[p.tree().frame(static_cast<node_id>(i))] *
                                              (0.75 + 0.5 * rng_.uniform())));
    return p;
  }

  cct_shape shape_;
  generator_model model_;
  detail::random rng_;
  std::vector<std::size_t> levels_;
  // the skeleton, ids in level order
  std::vector<u32> s_parent_, s_depth_, s_method_, child_begin_, child_count_;
  // methods
  std::vector<double> popularity_, bytecodes_;
  std::vector<u32> class_of_, index_in_class_, class_begin_, cycle_length_;
  std::vector<std::vector<u32>> callees_;
  // the full tree
  std::vector<u32> parent_, label_, depth_;
  std::vector<u32> candidates_, nested_;  // nodes that may start a recursion: skeleton, added
  std::vector<u32> recursive_a_, recursive_b_;  // labels of a node's recursive calls (two at most)
  struct work_item {
    u32 node, position, reps, rib;  // rib: levels of callees left to repeat; none on the cycle
  };
  std::vector<work_item> work_;
  std::vector<u32> cycle_;
};

}  // namespace detail

/// A calling context tree with the statistics of `shape`, deterministic for a seed: the
/// synthetic stand-in for a real profile when none can be had (the papers' DaCapo CCTs: see
/// ccrc::generate_dacapo). Metrics `calls` (summing to shape.calls exactly) and `bytecodes`.
///
/// The model, in three steps (knobs in ccrc::generator_model):
/// 1. A recursion-free tree of N' contexts and depth D' exactly: contexts per level follow a
///    gamma curve; each level's contexts are shared out among the level above by
///    Pareto-distributed weights that callees partly inherit (skewed fan-out, busy subtrees).
///    Methods are assigned depth-first from per-method callee lists (popular methods and the
///    caller's class), never repeating on a path; every one of the U methods gets a context.
/// 2. Recursion adds N - N' contexts: recursive methods (direct, mutual over 2-4 methods, or
///    long delegation cycles over 5-12) repeat the skeleton path from the method they call
///    back into, with branches and ribs (callees called again at each level); one recursion
///    reaches depth D exactly. Each added context repeats a context of the recursion-free
///    tree, so eliminate_recursion gives back exactly N' contexts and depth D'.
/// 3. Calls follow a log-normal cascade down the tree (hot paths), scaled to total C;
///    bytecodes are calls times a per-method size.
///
/// Node ids are in depth-first pre-order. O(N log N) time, about a second for two million
/// contexts in an optimised build. Throws ccrc::error for an impossible shape (say, more
/// methods than recursion-free contexts).
///
///     ccrc::profile p = ccrc::generate_cct({.nodes = 100000, .max_depth = 80, .methods = 2000,
///                                           .calls = 1e7, .recursion_free_nodes = 50000,
///                                           .recursion_free_depth = 40});
[[nodiscard]] inline profile generate_cct(const cct_shape& shape, std::uint64_t seed = 1,
                                          const generator_model& model = {}) {
  return detail::cct_generator(shape, model, seed).run();
}

/// `shape` with `factor` times the contexts and calls, the same depths, and the methods and
/// depths capped where the smaller tree could not hold them: for scaling a benchmark's shape
/// from 10^4 to 10^7 contexts. O(1).
///
///     auto big = ccrc::scaled(ccrc::find_dacapo("pmd")->shape, 10);  // 8 million contexts
[[nodiscard]] inline cct_shape scaled(const cct_shape& shape, double factor) {
  auto times = [&](std::size_t n) { return std::max<std::size_t>(1, static_cast<std::size_t>(std::llround(static_cast<double>(n) * factor))); };
  cct_shape s = shape;
  s.nodes = times(shape.nodes);
  s.recursion_free_nodes = std::min(s.nodes, times(shape.recursion_free_nodes));
  s.methods = std::min(shape.methods, s.recursion_free_nodes);
  s.recursion_free_depth = static_cast<std::uint32_t>(
      std::min<std::size_t>({shape.recursion_free_depth, s.methods, s.recursion_free_nodes}));
  s.max_depth = static_cast<std::uint32_t>(
      std::min<std::size_t>(shape.max_depth, s.recursion_free_depth + (s.nodes - s.recursion_free_nodes)));
  if (s.nodes > s.recursion_free_nodes) s.max_depth = std::max<std::uint32_t>(s.max_depth, 2);
  s.calls = std::max(static_cast<double>(s.nodes), std::round(shape.calls * factor));
  return s;
}

/// The shape of a profile, measured: statistics, the total of its metric `calls` (0 if it has
/// none) and the statistics after eliminate_recursion. What a generated tree is checked
/// against, and what `ccrc stats` prints. O(N), plus the elimination's O(N).
///
///     ccrc::cct_shape s = ccrc::shape_of(ccrc::generate_dacapo("pmd"));  // s.max_depth == 416
[[nodiscard]] inline cct_shape shape_of(const profile& p) {
  tree_statistics s = statistics(p.tree());
  cct_shape shape{.nodes = s.nodes, .max_depth = s.max_depth, .methods = s.methods};
  if (auto calls = p.find_metric("calls"))
    for (double c : p.column(*calls)) shape.calls += c;
  tree_statistics r = statistics(eliminate_recursion(p).tree.tree());
  shape.recursion_free_nodes = r.nodes;
  shape.recursion_free_depth = r.max_depth;
  return shape;
}

}  // namespace ccrc
