#include "structures/collision/io/scene.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <istream>
#include <map>
#include <ostream>
#include <sstream>

#include "kds/errors.hpp"
#include "structures/collision/io/number_text.hpp"
#include "structures/collision/io/validate_spheres.hpp"

namespace kds {
namespace {

constexpr const char* kSphereFields[9] = {"x", "y", "z", "vx", "vy", "vz", "radius", "mass", "max_acceleration"};
constexpr const char* kSphereLine = "x y z vx vy vz radius mass [max_acceleration]";
constexpr const char* kKeywords[6] = {"box", "mode", "gravity", "restitution", "tolerance", "spheres"};

/// Reads one file, line by line; knows where it is for the error messages.
class SceneReader {
 public:
  SceneReader(std::istream& in, const std::string& name) : in_(in), name_(name) {}

  Scene read() {
    std::string text;
    bool in_spheres = false;
    while (std::getline(in_, text)) {
      ++line_;
      // A UTF-8 byte-order mark (which some editors write) is not part of the first keyword.
      if (line_ == 1 && text.starts_with("\xEF\xBB\xBF")) text.erase(0, 3);
      split(text);
      if (tokens_.empty()) continue;
      if (in_spheres)
        sphere_line();
      else
        in_spheres = header_line();
    }
    if (in_.bad()) fail_file("read error after line " + std::to_string(line_));
    if (!in_spheres) {
      line_ = 0;
      if (!seen_.count("box")) fail_file("missing 'box x0 y0 z0 x1 y1 z1' line");
      if (!seen_.count("mode")) fail_file("missing 'mode ballistic|unknown' line");
      fail_file("missing 'spheres' line (it precedes the sphere lines, and may be followed by none)");
    }
    check_pairs();
    return std::move(scene_);
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw InvalidInput(name_ + ":" + std::to_string(line_) + ": " + what);
  }
  [[noreturn]] void fail_file(const std::string& what) const { throw InvalidInput(name_ + ": " + what); }

  void split(const std::string& text) {
    tokens_.clear();
    std::istringstream is(text.substr(0, text.find('#')));
    for (std::string t; is >> t;) tokens_.push_back(t);
  }

  /// Token i (after the keyword, or of a sphere line) as a finite number.
  /// `who` ("sphere 3, ") prefixes the messages of a sphere line.
  double number(std::size_t i, const std::string& field, const std::string& who = "") const {
    const text::Parsed p = text::parse(tokens_[i]);
    if (!p.value) fail(who + "field '" + field + "': " + text::quoted(tokens_[i]) + " " + p.problem);
    if (std::isnan(*p.value)) fail(who + "field '" + field + "' is NaN");
    if (std::isinf(*p.value)) fail(who + "field '" + field + "' is infinite");
    return *p.value;
  }

  void expect_count(const std::string& keyword, std::size_t values, const char* usage) const {
    if (tokens_.size() - 1 != values)
      fail("'" + keyword + "' takes " + std::to_string(values) + (values == 1 ? " value" : " values") + " (" +
           usage + "), got " + std::to_string(tokens_.size() - 1));
  }

  /// Returns true on the `spheres` line.
  bool header_line() {
    const std::string& key = tokens_[0];
    static const std::map<std::string, const char*> usage = {
        {"box", "box x0 y0 z0 x1 y1 z1"}, {"mode", "mode ballistic|unknown"}, {"gravity", "gravity gx gy gz"},
        {"restitution", "restitution e"},  {"tolerance", "tolerance d"},    {"spheres", "spheres"}};
    const auto u = usage.find(key);
    if (u == usage.end()) {
      if (text::parse(key).value) fail("sphere line before the 'spheres' line");
      fail("unknown keyword " + text::quoted(key) + " (expected box, mode, gravity, restitution, tolerance or spheres)");
    }
    if (const auto s = seen_.find(key); s != seen_.end())
      fail("'" + key + "' given twice (first on line " + std::to_string(s->second) + ")");
    seen_[key] = line_;
    if (key == "box") {
      expect_count(key, 6, u->second);
      static const char* corner[6] = {"x0", "y0", "z0", "x1", "y1", "z1"};
      for (int k = 0; k < 3; ++k) {
        scene_.box.lo[k] = number(1 + k, corner[k]);
        scene_.box.hi[k] = number(4 + k, corner[3 + k]);
      }
      if (auto p = box_problem(scene_.box)) fail(*p);
    } else if (key == "mode") {
      expect_count(key, 1, u->second);
      if (tokens_[1] == "unknown")
        scene_.unknown = true;
      else if (tokens_[1] != "ballistic")
        fail("field 'mode': " + text::quoted(tokens_[1]) + " is neither 'ballistic' nor 'unknown'");
    } else if (key == "gravity") {
      expect_count(key, 3, u->second);
      static const char* g[3] = {"gx", "gy", "gz"};
      for (int k = 0; k < 3; ++k) scene_.gravity[k] = number(1 + k, g[k]);
      if (auto problem = gravity_problem(scene_.gravity)) fail(*problem);
    } else if (key == "restitution") {
      expect_count(key, 1, u->second);
      scene_.restitution = number(1, "e");
      if (!(scene_.restitution >= 0 && scene_.restitution <= 1))
        fail("field 'e': restitution must be in [0, 1], got " + text::shortest(scene_.restitution));
    } else if (key == "tolerance") {
      expect_count(key, 1, u->second);
      scene_.tolerance = number(1, "d");
      if (!(*scene_.tolerance > 0)) fail("field 'd': tolerance must be > 0, got " + text::shortest(*scene_.tolerance));
    } else {
      expect_count(key, 0, u->second);
      if (!seen_.count("box")) fail("'spheres' before the 'box' line");
      if (!seen_.count("mode")) fail("'spheres' before the 'mode' line");
      if (scene_.tolerance)
        if (auto problem = tolerance_problem(*scene_.tolerance, scene_.box)) {
          line_ = seen_["tolerance"];
          fail("field 'd': tolerance " + *problem);
        }
      if (scene_.unknown && scene_.gravity != Vec<3>{0, 0, 0})
        fail("gravity in mode unknown (line " + std::to_string(seen_["gravity"]) +
             "): the integrator applies every force there; include gravity in max_acceleration instead");
      return true;
    }
    return false;
  }

  void sphere_line() {
    const std::size_t index = scene_.spheres.size();
    for (const char* keyword : kKeywords)
      if (tokens_[0] == keyword)
        fail("'" + tokens_[0] + "' after the 'spheres' line (line " + std::to_string(seen_["spheres"]) +
             "): header lines come before it, and every line after it is a sphere");
    const std::string who = "sphere " + std::to_string(index) + ", ";
    if (tokens_.size() < 8)
      fail(who + "field '" + kSphereFields[tokens_.size()] + "' missing (a sphere line is " + kSphereLine + ")");
    if (tokens_.size() > 9)
      fail(who + "unexpected 10th field " + text::quoted(tokens_[9]) + " (a sphere line is " + kSphereLine + ")");
    double v[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
    for (std::size_t i = 0; i < tokens_.size(); ++i) v[i] = number(i, kSphereFields[i], who);
    Sphere s;
    s.position = {v[0], v[1], v[2]};
    s.velocity = {v[3], v[4], v[5]};
    s.radius = v[6];
    s.mass = v[7];
    s.max_acceleration = v[8];
    if (!scene_.unknown && s.max_acceleration != 0)
      fail(who + "field 'max_acceleration': must be 0 or absent in mode ballistic, got " +
           text::shortest(s.max_acceleration));
    if (auto p = single_sphere_problem(s, index, scene_.box)) fail(who + "field '" + p->field + "' " + p->message);
    scene_.spheres.push_back(s);
    sphere_lines_.push_back(line_);
  }

  void check_pairs() {
    const auto p = find_sphere_problem(scene_.spheres, scene_.box);
    if (!p) return;
    if (!p->other) {  // a problem of the set, such as a radius too large beside the smallest one
      line_ = sphere_lines_[p->sphere];
      fail("sphere " + std::to_string(p->sphere) + ", field '" + p->field + "' " + p->message);
    }
    line_ = sphere_lines_[*p->other];
    fail("sphere " + std::to_string(*p->other) + " overlaps sphere " + std::to_string(p->sphere) + " (line " +
         std::to_string(sphere_lines_[p->sphere]) + "): " + p->message);
  }

  std::istream& in_;
  const std::string& name_;
  std::size_t line_ = 0;
  std::vector<std::string> tokens_;
  std::map<std::string, std::size_t> seen_;
  std::vector<std::size_t> sphere_lines_;
  Scene scene_;
};

void write_vec(std::ostream& out, const Vec<3>& v) {
  out << text::shortest(v[0]) << ' ' << text::shortest(v[1]) << ' ' << text::shortest(v[2]);
}

}  // namespace

Scene read_scene(std::istream& in, const std::string& name) { return SceneReader(in, name).read(); }

Scene load_scene(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    throw InvalidInput(path + ": is a directory, not a scene file");
  errno = 0;
  std::ifstream in(path);
  if (!in) {
    const int error = errno;
    throw InvalidInput(path + ": cannot open the scene file" + (error != 0 ? std::string(": ") + std::strerror(error) : ""));
  }
  return read_scene(in, path);
}

void write_scene(std::ostream& out, const Scene& scene) {
  out << "# kds scene (docs/scene-format.md)\nbox ";
  write_vec(out, scene.box.lo);
  out << ' ';
  write_vec(out, scene.box.hi);
  out << "\nmode " << (scene.unknown ? "unknown" : "ballistic") << '\n';
  if (scene.gravity != Vec<3>{0, 0, 0}) {
    out << "gravity ";
    write_vec(out, scene.gravity);
    out << '\n';
  }
  out << "restitution " << text::shortest(scene.restitution) << '\n';
  if (scene.tolerance) out << "tolerance " << text::shortest(*scene.tolerance) << '\n';
  out << "spheres\n# " << kSphereLine << '\n';
  for (const Sphere& s : scene.spheres) {
    write_vec(out, s.position);
    out << ' ';
    write_vec(out, s.velocity);
    out << ' ' << text::shortest(s.radius) << ' ' << text::shortest(s.mass);
    if (scene.unknown || s.max_acceleration != 0) out << ' ' << text::shortest(s.max_acceleration);
    out << '\n';
  }
}

}  // namespace kds
