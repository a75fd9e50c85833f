// ccrc - a set of methods of one symbol table: what searches find and transforms act on.
#pragma once

#include <ccrc/tree/symbol_table.hpp>

#include <cstddef>
#include <initializer_list>
#include <string_view>
#include <type_traits>
#include <vector>

namespace ccrc {

/// A set of method ids of one symbol table, one flag per method: O(1) membership, the cost a
/// pass over millions of nodes can afford per node. The root's method (0) may be inserted but
/// no transform or search treats the root as a calling context.
///
///     ccrc::method_set s = ccrc::methods_named(p.symbols(), {"f", "g"});
///     auto r = ccrc::merge_function(p, s);  // f and g merged into their callers
class method_set {
 public:
  method_set() = default;
  /// The set holding `methods`.
  method_set(std::initializer_list<method_id> methods) {
    for (method_id m : methods) insert(m);
  }

  [[nodiscard]] bool contains(method_id m) const noexcept { return m < flags_.size() && flags_[m] != 0; }
  /// Adds m. O(1) amortised.
  void insert(method_id m) {
    if (m >= flags_.size()) flags_.resize(std::size_t{m} + 1, 0);
    count_ += flags_[m] == 0;
    flags_[m] = 1;
  }
  /// Number of methods in the set.
  [[nodiscard]] std::size_t size() const noexcept { return count_; }
  [[nodiscard]] bool empty() const noexcept { return count_ == 0; }
  /// The methods, ascending. O(largest id).
  [[nodiscard]] std::vector<method_id> ids() const {
    std::vector<method_id> out;
    for (std::size_t m = 0; m < flags_.size(); ++m)
      if (flags_[m]) out.push_back(static_cast<method_id>(m));
    return out;
  }

  friend bool operator==(const method_set& a, const method_set& b) noexcept {
    return a.count_ == b.count_ && a.ids() == b.ids();
  }

 private:
  std::vector<char> flags_;
  std::size_t count_ = 0;
};

/// The methods of `syms` with these exact names (any range of names: std::vector<std::string>,
/// ...); names the table does not hold are skipped (a profile in which a method never ran has
/// nothing of it to transform). O(total length).
template <class Names>
  requires(!std::is_convertible_v<const Names&, std::string_view>)
[[nodiscard]] method_set methods_named(const symbol_table& syms, const Names& names) {
  method_set s;
  for (const auto& name : names)
    if (auto m = syms.find_method(std::string_view(name)); m && *m != 0) s.insert(*m);
  return s;
}

/// methods_named for a braced list: `methods_named(p.symbols(), {"f", "g"})`.
[[nodiscard]] inline method_set methods_named(const symbol_table& syms, std::initializer_list<std::string_view> names) {
  return methods_named<std::initializer_list<std::string_view>>(syms, names);
}

}  // namespace ccrc
