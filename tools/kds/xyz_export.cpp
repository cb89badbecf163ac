#include "tools/kds/xyz_export.hpp"

#include "kds/errors.hpp"
#include "structures/collision/io/number_text.hpp"

namespace kds::cli {

XyzWriter::XyzWriter(const std::string& path) : path_(path), out_(path) {
  if (!out_) throw InvalidInput(path + ": cannot write the file");
}

void XyzWriter::frame(ScenarioRun& run, double t) {
  using text::significant17;
  const Box3& box = run.scenario().box;
  std::string out = std::to_string(run.world().size()) + "\nLattice=\"";
  for (int k = 0; k < 3; ++k)
    for (int c = 0; c < 3; ++c) out += (k + c ? " " : "") + significant17(c == k ? box.hi[k] - box.lo[k] : 0.0);
  out += "\" Origin=\"" + significant17(box.lo[0]) + " " + significant17(box.lo[1]) + " " + significant17(box.lo[2]) +
         "\" Properties=species:S:1:pos:R:3:radius:R:1:vel:R:3 Time=" + significant17(t) + " pbc=\"F F F\"\n";
  for (SphereId i = 0; i < run.world().size(); ++i) {
    const SphereState s = run.state(i, t);
    out += "X";
    for (double x : s.position) out += " " + significant17(x);
    out += " " + significant17(run.scenario().spheres[i].radius);
    for (double v : s.velocity) out += " " + significant17(v);
    out += "\n";
  }
  out_ << out;
  if (!out_) throw InvalidInput(path_ + ": write failed");
}

std::vector<double> frame_times(double until, std::size_t frames) {
  if (frames <= 1) return {until};
  std::vector<double> times;
  for (std::size_t k = 0; k < frames; ++k)
    times.push_back(k + 1 == frames ? until : until * static_cast<double>(k) / static_cast<double>(frames - 1));
  return times;
}

}  // namespace kds::cli
