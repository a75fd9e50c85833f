#include "svg.hpp"

#include <cmath>
#include <cstdio>

namespace svg {

void append_escaped(std::string& out, std::string_view s) {
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += c;
    }
  }
}

void append_number(std::string& out, double v) {
  if (!std::isfinite(v)) v = 0;
  char buf[48];
  int n = std::snprintf(buf, sizeof buf, "%.2f", v);
  // Trim trailing zeros and a trailing point: "12.50" -> "12.5", "3.00" -> "3".
  while (n > 0 && buf[n - 1] == '0') --n;
  if (n > 0 && buf[n - 1] == '.') --n;
  std::string_view s(buf, static_cast<std::size_t>(n));
  out += s == "-0" ? std::string_view("0") : s;
}

document::document(double width, double height) {
  out_ = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"";
  attr("width", width).attr("height", height);
  out_ += " viewBox=\"0 0 ";
  append_number(out_, width);
  out_ += ' ';
  append_number(out_, height);
  out_ += "\" font-family=\"sans-serif\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
}

document& document::attr(std::string_view name, std::string_view value) {
  out_ += ' ';
  out_ += name;
  out_ += "=\"";
  append_escaped(out_, value);
  out_ += '"';
  return *this;
}

document& document::attr(std::string_view name, double value) {
  out_ += ' ';
  out_ += name;
  out_ += "=\"";
  append_number(out_, value);
  out_ += '"';
  return *this;
}

std::string document::finish() {
  out_ += "</svg>\n";
  return std::move(out_);
}

}  // namespace svg
