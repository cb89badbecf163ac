#include "tools/kds/replay_writer.hpp"

#include <sstream>

#include <nlohmann/json.hpp>

#include "kds/errors.hpp"
#include "kds/report/drawing.hpp"

namespace kds::cli {
namespace {

std::string number(double x) {
  std::ostringstream os;
  os.precision(17);
  os << x;
  return os.str();
}

std::string point(const Vec<3>& p) { return "[" + number(p[0]) + "," + number(p[1]) + "," + number(p[2]) + "]"; }

/// The collision world the replay draws: the motions of its bodies and its broad phase's shapes.
const CollisionWorld& drawn_world(ScenarioRun& run) {
  run.simulator("--replay");  // refuses a structure without a simulator, naming the option
  const CollisionWorld* w = run.world().collision_world();
  if (w == nullptr)
    throw InvalidInput("--replay: the viewer draws the motions and shapes of a collision world, and the structure " +
                       run.structure() + " has none");
  return *w;
}

}  // namespace

ReplayWriter::ReplayWriter(std::ostream& out, ScenarioRun& run)
    : out_(out), run_(run), world_(drawn_world(run)), events_(out), motion_(run.world().size()), draw_(run.world().size()),
      drawn_(run.world().size(), 0) {
  const CollisionWorld& w = world_;
  const Box3& box = run.scenario().box;
  nlohmann::ordered_json spheres = nlohmann::json::array();
  for (SphereId i = 0; i < w.size(); ++i)
    spheres.push_back({{"radius", w.sphere(i).radius},
                       {"mass", w.sphere(i).mass},
                       {"max_acceleration", w.sphere(i).max_acceleration}});
  std::ostringstream scene;
  scene.precision(17);
  scene << "{\"kds_replay\":" << replay_version << ",\"time\":" << run.world().now()
        << ",\"structure\":" << nlohmann::json(run.structure()).dump() << ",\"box\":{\"lo\":" << point(box.lo)
        << ",\"hi\":" << point(box.hi) << "},\"spheres\":" << spheres.dump() << "}\n";
  out_ << scene.str();
  write_changes(run.world().now());
}

void ReplayWriter::on_event(const EventRecord& e) {
  events_.on_event(e);
  write_changes(e.time.approx());
}

void ReplayWriter::write_changes(double time) {
  const std::string at = ",\"time\":" + number(time);
  for (SphereId i = 0; i < run_.world().size(); ++i) {
    std::string m = motion_json(i);
    if (m != motion_[i]) {
      out_ << "{\"motion\":" << i << at << "," << m << "}\n";
      motion_[i] = std::move(m);
    }
    Drawing d = drawing(i);
    if (d.shapes() != draw_[i] || !drawn_[i]) {
      out_ << "{\"draw\":" << i << at << ",\"shapes\":" << d.json() << "}\n";
      draw_[i] = d.shapes();
      drawn_[i] = true;
    }
  }
}

std::string ReplayWriter::motion_json(SphereId id) const {
  const CollisionWorld& w = world_;
  const Motion<3>& m = w.centre_motion(id);
  std::string s = "\"t0\":" + number(m.start()) + ",\"coefficients\":[";
  for (int k = 0; k < 3; ++k) {
    const auto& c = m.coefficients(k);
    s += (k ? ",[" : "[") + number(c[0] + w.origin()[k]);  // the user's frame
    for (int p = 1; p < Motion<3>::max_degree + 1; ++p) s += "," + number(c[p]);
    s += "]";
  }
  const Bound& b = w.bound(id);
  s += "],\"bound\":{\"radius\":" + number(b.radius) + ",\"acceleration\":" + number(b.acceleration) +
       ",\"reset\":" + number(b.reset_time) + "}";
  return s;
}

Drawing ReplayWriter::drawing(SphereId id) const {
  const CollisionWorld& w = world_;
  Drawing d;
  w.broad_phase().draw(id, d);
  d.translate(w.origin());
  // Carried shapes name bodies; the file names spheres.
  Drawing named;
  for (Shape s : d.shapes()) {
    if (s.follow != Shape::fixed) s.follow = w.sphere_of(BodyId{s.follow, 0});
    named.add(std::move(s));
  }
  return named;
}

}  // namespace kds::cli
