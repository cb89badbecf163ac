#include "kds/report/trace.hpp"

#include <iomanip>
#include <sstream>

namespace kds {
namespace {

/// A JSON string literal (kinds are short names, but nothing stops a quote in one).
void write_string(std::ostream& os, const char* s) {
  os << '"';
  for (; *s != '\0'; ++s) {
    const unsigned char c = static_cast<unsigned char>(*s);
    if (c == '"' || c == '\\') os << '\\' << *s;
    else if (c < 0x20) os << "\\u" << std::hex << std::setw(4) << std::setfill('0') << int(c) << std::dec;
    else os << *s;
  }
  os << '"';
}

}  // namespace

void TraceWriter::on_event(const EventRecord& e) {
  // Built in a local stream so that the caller's stream formatting is left alone and a
  // line is written in one piece.
  std::ostringstream line;
  line.precision(17);
  line << "{\"event\":" << e.index << ",\"time\":" << e.time.approx() << ",\"interval\":[" << e.time.lo() << ','
       << e.time.hi() << "],\"exact\":" << (e.exact ? "true" : "false") << ",\"kind\":";
  write_string(line, e.kind);
  line << ",\"bodies\":[";
  for (std::size_t i = 0; i < e.bodies.size(); ++i) line << (i ? "," : "") << e.bodies[i];
  line << "],\"touched\":" << e.touched << "}\n";
  out_ << line.str();
}

}  // namespace kds
