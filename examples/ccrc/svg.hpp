// The ccrc tool: a minimal SVG writer shared by the renderers. Not part of the library.
#pragma once

#include <string>
#include <string_view>

namespace svg {

/// Appends `s` with the five XML special characters escaped (text and attribute values).
void append_escaped(std::string& out, std::string_view s);

/// Appends a coordinate or length with at most two decimals ("12.5", "3", "-0.25"), and 0
/// for a non-finite value, so that no "nan" ever reaches a file.
void append_number(std::string& out, double v);

/// An SVG document written front to back.
class document {
 public:
  /// Opens <svg> with a viewBox of width x height and a white background.
  document(double width, double height);

  /// Appends raw markup (already escaped).
  document& raw(std::string_view markup) {
    out_ += markup;
    return *this;
  }
  /// Appends ` name="value"` with the value escaped.
  document& attr(std::string_view name, std::string_view value);
  /// Appends ` name="number"`.
  document& attr(std::string_view name, double value);
  /// Appends escaped text.
  document& text(std::string_view s) {
    append_escaped(out_, s);
    return *this;
  }

  /// Closes </svg> and returns the document.
  [[nodiscard]] std::string finish();

 private:
  std::string out_;
};

}  // namespace svg
