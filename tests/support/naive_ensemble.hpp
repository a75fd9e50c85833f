// The reference the ensemble is checked against: written from the definitions alone, over the
// runs as folded-stacks text, paths as strings, every value of every run kept, statistics in
// two passes in long double, distances over maps of paths, clusters by rescanning every pair of
// groups and averaging their members' distances. Slow and obviously right.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace naive {

/// A run as its folded text says: the metrics, and each written path's self values.
struct run {
  std::vector<std::string> metrics;
  std::map<std::string, std::vector<double>> self;  // path -> one value per metric
};

/// Reads folded stacks: an optional "# metrics: a b" line, then "a;b;c v1 v2" lines, one count
/// per metric after the last blanks (a path written twice adds up). A run without the header
/// has one metric, "samples".
inline run parse_folded(std::string_view text) {
  run out;
  std::istringstream in{std::string(text)};
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    if (line.rfind("# metrics:", 0) == 0) {
      std::istringstream names(line.substr(10));
      for (std::string name; names >> name;) out.metrics.push_back(name);
      continue;
    }
    if (out.metrics.empty()) out.metrics = {"samples"};
    // The counts are the last words; frame names may hold blanks (V8's "f file:1:2").
    std::size_t end = line.size();
    std::vector<double> counts(out.metrics.size(), 0.0);
    for (std::size_t m = out.metrics.size(); m-- > 0;) {
      const std::size_t blank = line.rfind(' ', end - 1);
      counts[m] = std::stod(line.substr(blank + 1, end - blank - 1));
      end = blank;
    }
    std::vector<double>& values = out.self[line.substr(0, end)];
    values.resize(out.metrics.size(), 0.0);
    for (std::size_t m = 0; m < counts.size(); ++m) values[m] += counts[m];
  }
  return out;
}

/// "a;b;c" -> "a", "a;b", "a;b;c".
inline std::vector<std::string> prefixes(const std::string& path) {
  std::vector<std::string> out;
  for (std::size_t at = path.find(';'); at != std::string::npos; at = path.find(';', at + 1)) out.push_back(path.substr(0, at));
  out.push_back(path);
  return out;
}

struct statistics {
  double mean = 0, min = 0, max = 0, std = 0;
};

/// mean, min, max and population std of the values, two passes in long double.
inline statistics statistics_of(const std::vector<double>& x) {
  if (x.empty()) return {};
  long double sum = 0;
  for (double v : x) sum += v;
  const long double mean = sum / static_cast<long double>(x.size());
  long double squares = 0;
  for (double v : x) squares += (v - mean) * (v - mean);
  return {static_cast<double>(mean), *std::min_element(x.begin(), x.end()), *std::max_element(x.begin(), x.end()),
          static_cast<double>(std::sqrt(squares / static_cast<long double>(x.size())))};
}

struct context {
  std::size_t present = 0;
  std::map<std::string, statistics> self, inclusive;  // by metric
};

/// Every path of any run: its statistics over all runs (0 where a run lacks it or the metric).
inline std::map<std::string, context> ensemble(const std::vector<run>& runs) {
  std::vector<std::string> metrics;
  for (const run& r : runs)
    for (const std::string& m : r.metrics)
      if (std::find(metrics.begin(), metrics.end(), m) == metrics.end()) metrics.push_back(m);
  // Per run: every context's self and inclusive values, by metric name.
  std::vector<std::map<std::string, std::map<std::string, double>>> self(runs.size()), inclusive(runs.size());
  std::set<std::string> paths;
  for (std::size_t i = 0; i < runs.size(); ++i)
    for (const auto& [path, values] : runs[i].self)
      for (const std::string& prefix : prefixes(path)) {
        paths.insert(prefix);
        self[i][prefix];  // present, maybe with no value of its own
        inclusive[i][prefix];
        for (std::size_t m = 0; m < values.size(); ++m) {
          if (prefix == path) self[i][prefix][runs[i].metrics[m]] += values[m];
          inclusive[i][prefix][runs[i].metrics[m]] += values[m];
        }
      }
  std::map<std::string, context> out;
  for (const std::string& path : paths) {
    context c;
    for (std::size_t i = 0; i < runs.size(); ++i) c.present += self[i].count(path);
    for (const std::string& m : metrics) {
      std::vector<double> own, all;
      for (std::size_t i = 0; i < runs.size(); ++i) {
        auto value = [&](const auto& of) {
          auto at = of.find(path);
          if (at == of.end()) return 0.0;
          auto v = at->second.find(m);
          return v == at->second.end() ? 0.0 : v->second;
        };
        own.push_back(value(self[i]));
        all.push_back(value(inclusive[i]));
      }
      c.self[m] = statistics_of(own);
      c.inclusive[m] = statistics_of(all);
    }
    out[path] = c;
  }
  return out;
}

/// Half the L1 distance between the runs' self-value shares of `metric` over paths (each
/// run's total: the sum of the absolute values); a run without cost is 1 from any run with
/// some and 0 from another without.
inline double distance(const run& a, const run& b, const std::string& metric) {
  auto shares = [&](const run& r) {
    std::map<std::string, long double> out;
    auto m = std::find(r.metrics.begin(), r.metrics.end(), metric);
    if (m == r.metrics.end()) return out;
    const auto k = static_cast<std::size_t>(m - r.metrics.begin());
    long double total = 0;
    for (const auto& [path, values] : r.self) total += std::fabs(values[k]);
    for (const auto& [path, values] : r.self)
      if (values[k] != 0) out[path] = values[k] / total;
    return out;
  };
  auto sa = shares(a), sb = shares(b);
  if (sa.empty() || sb.empty()) return sa.empty() && sb.empty() ? 0.0 : 1.0;
  long double sum = 0;
  for (const auto& [path, s] : sa) sum += std::fabs(s - (sb.count(path) ? sb[path] : 0));
  for (const auto& [path, s] : sb)
    if (!sa.count(path)) sum += std::fabs(s);
  return static_cast<double>(sum / 2);
}

struct cluster {
  std::vector<std::size_t> members;
  std::size_t exemplar = 0;
};

/// Average linkage from the definition: at every step every pair of groups is compared by the
/// mean distance of their members' pairs; the least (ties: the pair with the lowest first
/// members) is merged, until `groups` remain or the least exceeds max_distance. Exemplar: the
/// least summed distance to the others, the lowest index of equals.
inline std::vector<cluster> clusters(const std::vector<std::vector<double>>& d, std::size_t groups,
                                     double max_distance = std::numeric_limits<double>::infinity()) {
  std::vector<std::vector<std::size_t>> g;
  for (std::size_t i = 0; i < d.size(); ++i) g.push_back({i});
  auto average = [&](const std::vector<std::size_t>& a, const std::vector<std::size_t>& b) {
    long double sum = 0;
    for (std::size_t i : a)
      for (std::size_t j : b) sum += d[i][j];
    return static_cast<double>(sum / static_cast<long double>(a.size() * b.size()));
  };
  while (g.size() > std::max<std::size_t>(groups, 1)) {
    std::size_t bi = 0, bj = 0;
    double best = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < g.size(); ++i)
      for (std::size_t j = i + 1; j < g.size(); ++j)
        if (double a = average(g[i], g[j]); a < best) best = a, bi = i, bj = j;  // g sorted by first member
    if (!(best <= max_distance)) break;
    g[bi].insert(g[bi].end(), g[bj].begin(), g[bj].end());
    std::sort(g[bi].begin(), g[bi].end());
    g.erase(g.begin() + static_cast<std::ptrdiff_t>(bj));
  }
  std::vector<cluster> out;
  for (const auto& members : g) {
    cluster c{members, members[0]};
    long double least = std::numeric_limits<long double>::infinity();
    for (std::size_t m : members) {
      long double sum = 0;
      for (std::size_t o : members) sum += d[m][o];
      if (sum < least) least = sum, c.exemplar = m;
    }
    out.push_back(c);
  }
  return out;
}

}  // namespace naive
