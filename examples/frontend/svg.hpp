// The front ends: a minimal SVG writer shared by the renderers. Not part of the library.
#pragma once

#include <string>
#include <string_view>

namespace svg {

/// Appends `s` with the five XML special characters escaped (text and attribute values), and
/// every byte sequence that is not a character XML 1.0 allows (ill-formed UTF-8, C0 and C1
/// controls other than tab and newlines, U+FFFE, U+FFFF) replaced by U+FFFD, so that output is
/// well-formed XML and valid UTF-8 for any name. O(s.size()). Used by every SVG and HTML writer.
void append_escaped(std::string& out, std::string_view s);

/// The number of code points in UTF-8 text (lead bytes counted): what a label's width grows
/// with. O(s.size()).
std::size_t code_points(std::string_view s);

/// `s` if it has at most `room` code points, else its first room - 1 code points and "…":
/// cut between characters, never inside a UTF-8 sequence. O(s.size()).
std::string shorten(std::string_view s, std::size_t room);

/// Appends a coordinate or length with at most two decimals ("12.5", "3", "-0.25"), and 0
/// for a non-finite value, so that no "nan" ever reaches a file.
void append_number(std::string& out, double v);

/// Appends ` name="value"`, the value escaped (or written as by append_number).
void append_attr(std::string& out, std::string_view name, std::string_view value);
void append_attr(std::string& out, std::string_view name, double value);

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
