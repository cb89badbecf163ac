#include "structures/collision/io/contact_log.hpp"

#include <charconv>
#include <cmath>
#include <istream>
#include <limits>
#include <ostream>
#include <sstream>

#include "kds/errors.hpp"
#include "structures/collision/io/number_text.hpp"

namespace kds {
namespace {

[[noreturn]] void fail(const std::string& name, std::size_t line, const std::string& what) {
  throw InvalidInput(name + ":" + std::to_string(line) + ": " + what);
}

std::vector<std::string> tokens_of(const std::string& line) {
  std::istringstream is(line.substr(0, line.find('#')));
  std::vector<std::string> t;
  for (std::string s; is >> s;) t.push_back(s);
  return t;
}

double number_field(const std::string& name, std::size_t line, const char* field, const std::string& token) {
  const text::Parsed p = text::parse(token);
  if (!p.value) fail(name, line, std::string("field '") + field + "': " + text::quoted(token) + " " + p.problem);
  if (!std::isfinite(*p.value)) fail(name, line, std::string("field '") + field + "' is not finite");
  return *p.value;
}

SphereId id_field(const std::string& name, std::size_t line, const char* field, const std::string& token) {
  std::uint64_t v = 0;
  auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), v);
  if (ec != std::errc() || end != token.data() + token.size() || v > std::numeric_limits<SphereId>::max())
    fail(name, line, std::string("field '") + field + "': " + text::quoted(token) + " is not a sphere id");
  return static_cast<SphereId>(v);
}

}  // namespace

std::string wall_name(Wall w) {
  const int v = static_cast<int>(w);
  return std::string("w") + "xyz"[v / 2] + (v % 2 == 0 ? '-' : '+');
}

void write_contacts(std::ostream& out, const std::vector<Contact>& contacts) {
  for (const Contact& c : contacts) {
    out << text::significant17(c.time) << ' ' << c.a << ' ';
    if (c.with_wall)
      out << wall_name(c.wall);
    else
      out << c.b;
    out << '\n';
  }
}

std::vector<Contact> read_contacts(std::istream& in, const std::string& name) {
  std::vector<Contact> contacts;
  std::string line;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    const auto t = tokens_of(line);
    if (t.empty()) continue;
    if (t.size() != 3) fail(name, number, "expected 'time i j' (3 fields), got " + std::to_string(t.size()));
    Contact c;
    c.time = number_field(name, number, "time", t[0]);
    c.a = id_field(name, number, "i", t[1]);
    if (!t[2].empty() && t[2][0] == 'w') {
      bool known = false;
      for (int w = 0; w < 6; ++w)
        if (t[2] == wall_name(static_cast<Wall>(w))) {
          c.with_wall = true;
          c.wall = static_cast<Wall>(w);
          known = true;
        }
      if (!known) fail(name, number, "field 'j': " + text::quoted(t[2]) + " is not a wall (wx-, wx+, wy-, wy+, wz-, wz+)");
    } else {
      c.b = id_field(name, number, "j", t[2]);
    }
    contacts.push_back(c);
  }
  return contacts;
}

void write_states(std::ostream& out, const std::vector<SphereState>& states) {
  for (const SphereState& s : states) {
    for (int k = 0; k < 3; ++k) out << text::significant17(s.position[k]) << ' ';
    for (int k = 0; k < 3; ++k) out << text::significant17(s.velocity[k]) << (k < 2 ? ' ' : '\n');
  }
}

std::vector<SphereState> read_states(std::istream& in, const std::string& name) {
  static const char* field[6] = {"x", "y", "z", "vx", "vy", "vz"};
  std::vector<SphereState> states;
  std::string line;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    const auto t = tokens_of(line);
    if (t.empty()) continue;
    if (t.size() != 6) fail(name, number, "expected 'x y z vx vy vz' (6 fields), got " + std::to_string(t.size()));
    SphereState s;
    for (int k = 0; k < 3; ++k) {
      s.position[k] = number_field(name, number, field[k], t[k]);
      s.velocity[k] = number_field(name, number, field[3 + k], t[3 + k]);
    }
    states.push_back(s);
  }
  return states;
}

}  // namespace kds
