#pragma once
/// \file
/// Extended XYZ frames (the format of OVITO, VMD's plugins and ASE): per frame, the
/// number of spheres, a comment line of key=value pairs, and one line per sphere:
///   3
///   Lattice="200 0 0 0 200 0 0 0 200" Origin="0 0 0" Properties=species:S:1:pos:R:3:radius:R:1:vel:R:3 Time=0.5 pbc="F F F"
///   X 12.5 40 3.25 1.5 2 0 -1
/// The species is X for every sphere (a dummy atom for chemistry readers), numbers have 17
/// significant digits, so positions read back exactly.

#include <fstream>
#include <string>

#include "tools/kds/scenario_run.hpp"

namespace kds::cli {

class XyzWriter {
 public:
  /// Opens `path`; InvalidInput if it cannot.
  explicit XyzWriter(const std::string& path);
  /// Appends a frame: every sphere's true state at t (the run's clock must be at t).
  void frame(ScenarioRun& run, double t);

 private:
  std::string path_;
  std::ofstream out_;
};

/// The times of `frames` frames from 0 to `until` evenly, both ends included (one frame:
/// `until` only).
std::vector<double> frame_times(double until, std::size_t frames);

}  // namespace kds::cli
