#include "svg.hpp"

#include <charconv>
#include <cmath>
#include <system_error>

namespace svg {

namespace {

// The length of the UTF-8 sequence that starts at s[i] and its code point, or 0 when the
// bytes there are not one well-formed sequence (overlong, surrogate, beyond U+10FFFF, cut).
std::size_t decode(std::string_view s, std::size_t i, char32_t& cp) {
  auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char b = byte(i);
  std::size_t len = b < 0x80 ? 1 : (b & 0xe0) == 0xc0 ? 2 : (b & 0xf0) == 0xe0 ? 3 : (b & 0xf8) == 0xf0 ? 4 : 0;
  if (len == 0 || i + len > s.size()) return 0;
  cp = len == 1 ? b : len == 2 ? b & 0x1fu : len == 3 ? b & 0x0fu : b & 0x07u;
  for (std::size_t k = 1; k < len; ++k) {
    if ((byte(i + k) & 0xc0) != 0x80) return 0;
    cp = (cp << 6) | (byte(i + k) & 0x3fu);
  }
  static constexpr char32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < least[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
  return len;
}

// XML 1.0's Char production, without the C1 controls (XML discourages them and HTML calls
// them parse errors).
bool xml_char(char32_t c) {
  return c == 0x9 || c == 0xa || c == 0xd || (c >= 0x20 && c < 0x7f) || (c > 0x9f && c <= 0xfffd && !(c >= 0xd800 && c <= 0xdfff)) ||
         (c >= 0x10000 && c <= 0x10ffff);
}

}  // namespace

void append_escaped(std::string& out, std::string_view s) {
  // Printable ASCII other than the five specials, and tab and newlines, go in runs: a tooltip
  // is mostly such text, and a code point at a time made escaping half of an SVG's cost.
  auto plain = [](char c) {
    return (c >= 0x20 && c < 0x7f && c != '&' && c != '<' && c != '>' && c != '"' && c != '\'') || c == '\t' ||
           c == '\n' || c == '\r';
  };
  for (std::size_t i = 0; i < s.size();) {
    std::size_t run = i;
    while (run < s.size() && plain(s[run])) ++run;
    out.append(s.substr(i, run - i));
    i = run;
    if (i == s.size()) break;
    char c = s[i];
    switch (c) {
      case '&': out += "&amp;"; ++i; continue;
      case '<': out += "&lt;"; ++i; continue;
      case '>': out += "&gt;"; ++i; continue;
      case '"': out += "&quot;"; ++i; continue;
      case '\'': out += "&apos;"; ++i; continue;
      default: break;
    }
    char32_t cp = 0;
    std::size_t len = decode(s, i, cp);
    if (len > 0 && xml_char(cp)) {
      out.append(s, i, len);
      i += len;
    } else {
      out += "\xef\xbf\xbd";  // U+FFFD REPLACEMENT CHARACTER
      i += len > 0 ? len : 1;
    }
  }
}

std::size_t code_points(std::string_view s) {
  std::size_t n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xc0) != 0x80;
  return n;
}

std::string shorten(std::string_view s, std::size_t room) {
  if (code_points(s) <= room) return std::string(s);
  std::size_t keep = room > 0 ? room - 1 : 0, end = 0;
  // Stop before the (keep + 1)-th code point's first byte: never inside a sequence.
  for (std::size_t seen = 0; end < s.size(); ++end)
    if ((static_cast<unsigned char>(s[end]) & 0xc0) != 0x80 && seen++ == keep) break;
  return std::string(s.substr(0, end)) + "\xe2\x80\xa6";
}

void append_number(std::string& out, double v) {
  if (!std::isfinite(v)) v = 0;
  // Room for the largest double in fixed notation (309 digits, sign, point, two decimals):
  // snprintf's return value is the length it wanted, not what fit, so it cannot be trusted
  // as a length; to_chars says where it stopped.
  char buf[330];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, 2);
  if (ec != std::errc{}) end = buf;
  auto n = static_cast<std::size_t>(end - buf);
  // Trim trailing zeros and a trailing point: "12.50" -> "12.5", "3.00" -> "3".
  while (n > 0 && buf[n - 1] == '0') --n;
  if (n > 0 && buf[n - 1] == '.') --n;
  std::string_view s(buf, n);
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

void append_attr(std::string& out, std::string_view name, std::string_view value) {
  out += ' ';
  out += name;
  out += "=\"";
  append_escaped(out, value);
  out += '"';
}

void append_attr(std::string& out, std::string_view name, double value) {
  out += ' ';
  out += name;
  out += "=\"";
  append_number(out, value);
  out += '"';
}

document& document::attr(std::string_view name, std::string_view value) {
  append_attr(out_, name, value);
  return *this;
}

document& document::attr(std::string_view name, double value) {
  append_attr(out_, name, value);
  return *this;
}

std::string document::finish() {
  out_ += "</svg>\n";
  return std::move(out_);
}

}  // namespace svg
