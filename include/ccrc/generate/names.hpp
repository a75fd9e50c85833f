// ccrc - the generator's method names: names that read like a Java program's.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ccrc::detail {

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

}  // namespace ccrc::detail
