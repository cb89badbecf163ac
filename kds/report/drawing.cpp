#include "kds/report/drawing.hpp"

#include <iomanip>
#include <sstream>

namespace kds {
namespace {

const char* kind_name(Shape::Kind k) {
  switch (k) {
    case Shape::Kind::box: return "box";
    case Shape::Kind::sphere: return "sphere";
    case Shape::Kind::segment: return "segment";
    case Shape::Kind::label: return "label";
  }
  return "?";
}

void write_string(std::ostream& os, const std::string& s) {
  os << '"';
  for (const char ch : s) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') os << '\\' << ch;
    else if (c < 0x20) os << "\\u" << std::hex << std::setw(4) << std::setfill('0') << int(c) << std::dec;
    else os << ch;
  }
  os << '"';
}

void write_point(std::ostream& os, const char* name, const Drawing::Point& p) {
  os << ",\"" << name << "\":[" << p[0] << ',' << p[1] << ',' << p[2] << ']';
}

}  // namespace

void Drawing::translate(const Point& d) {
  for (Shape& s : shapes_) {
    if (s.follow != Shape::fixed) continue;
    for (int k = 0; k < 3; ++k) {
      s.a[k] += d[k];
      s.b[k] += d[k];
    }
  }
}

std::string Drawing::json() const {
  std::ostringstream os;
  os.precision(17);
  os << '[';
  for (std::size_t i = 0; i < shapes_.size(); ++i) {
    const Shape& s = shapes_[i];
    os << (i ? "," : "") << "{\"shape\":\"" << kind_name(s.kind) << "\",\"role\":";
    write_string(os, s.role);
    switch (s.kind) {
      case Shape::Kind::box:
        write_point(os, "lo", s.a);
        write_point(os, "hi", s.b);
        break;
      case Shape::Kind::sphere:
        write_point(os, "centre", s.a);
        os << ",\"radius\":" << s.radius;
        break;
      case Shape::Kind::segment:
        write_point(os, "a", s.a);
        write_point(os, "b", s.b);
        break;
      case Shape::Kind::label:
        write_point(os, "at", s.a);
        os << ",\"text\":";
        write_string(os, s.text);
        break;
    }
    if (s.follow != Shape::fixed) os << ",\"follow\":" << s.follow;
    os << '}';
  }
  os << ']';
  return os.str();
}

}  // namespace kds
