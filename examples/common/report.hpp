#pragma once
/// \file
/// What every example prints around its own events: the scene as inserted, the trace
/// file, and the closing statistics and quality report.

#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>

#include "common/options.hpp"
#include "common/scene.hpp"
#include "kds/report/quality.hpp"
#include <vector>

#include "kds/report/trace.hpp"
#include "kds/simulator.hpp"

namespace kds::examples {

/// Inserts the scene's motions as bodies of `sim`, lists them, and returns their ids.
inline std::vector<BodyId> insert_scene(Simulator& sim, const Scene& scene) {
  std::vector<BodyId> bodies;
  for (const Motion<1>& m : scene.motions) {
    bodies.push_back(sim.bodies().insert(m));
    std::printf("  point %2u  %s\n", bodies.back().index, describe(m).c_str());
  }
  if (scene.crossing >= 2)
    std::printf("  (points 0 %s %zu %s pass through x = %g at t = %g)\n", scene.crossing == 2 ? "and" : "to",
                scene.crossing - 1, scene.crossing == 2 ? "both" : "all", scene.crossing_x, scene.crossing_time);
  return bodies;
}

/// The --trace file, written by a TraceWriter observing `sim` while this object lives.
class TraceFile {
 public:
  /// No file if `path` is empty; exits with 1 after a message if it cannot be written.
  TraceFile(Simulator& sim, const std::string& path) : sim_(sim), path_(path) {
    if (path.empty()) return;
    file_.open(path);
    if (!file_) {
      std::cerr << "cannot write the trace to '" << path << "'\n";
      std::exit(1);
    }
    writer_ = std::make_unique<TraceWriter>(file_);
    sim_.add_observer(*writer_);
  }
  ~TraceFile() {
    if (writer_) sim_.remove_observer(*writer_);
  }
  TraceFile(const TraceFile&) = delete;
  TraceFile& operator=(const TraceFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  Simulator& sim_;
  std::string path_;
  std::ofstream file_;
  std::unique_ptr<TraceWriter> writer_;
};

/// The closing report: the simulator's statistics, the four quality criteria, the trace.
inline void print_report(Simulator& sim, const TraceFile& trace) {
  std::printf("\nStatistics:\n");
  std::cout << sim.statistics();
  std::printf("\nQuality (Basch, Guibas, Hershberger):\n");
  std::cout << measure_quality(sim);
  if (!trace.path().empty())
    std::printf("\nTrace: %llu events written to %s\n", static_cast<unsigned long long>(sim.statistics().events),
                trace.path().c_str());
  std::cout.flush();
}

}  // namespace kds::examples
