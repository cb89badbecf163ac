#pragma once
/// \file
/// `kds run --replay FILE`: a trace (the header and event lines of `--trace`, so that
/// `kds replay --check` reads it too) with the lines a viewer needs to draw the run at any
/// time (docs/viewer.md, "Replay files"):
///   - one scene line after the header: {"kds_replay":1,"box":{...},"spheres":[...],...};
///   - a motion line per sphere at the start and after every event that changed its
///     motion or its bound: {"motion":i,"time":t,"t0":..,"coefficients":[[..],[..],[..]],
///     "bound":{"radius":r,"acceleration":A,"reset":t0}};
///   - a draw line per sphere at the start and after every event that changed what the
///     broad phase shows of it (BroadPhase::draw): {"draw":i,"time":t,"shapes":[...]}.
/// A motion or draw line holds from the event line before it (or the start) until the
/// next line of the same kind for the same sphere. Coordinates are the user's (the
/// world's local frame is undone). Every event costs O(n) here (every sphere is
/// redrawn and compared with its last line): replays are for scenes one can watch.

#include <ostream>
#include <string>
#include <vector>

#include "kds/observer.hpp"
#include "kds/report/drawing.hpp"
#include "kds/report/trace.hpp"
#include "structures/collision/collision_world.hpp"
#include "tools/kds/scenario_run.hpp"

namespace kds::cli {

/// The version of the scene, motion and draw lines (the event lines are the trace's).
inline constexpr int replay_version = 1;

class ReplayWriter final : public Observer {
 public:
  /// Writes the scene line and the first motion and draw lines of every sphere to `out`
  /// (after the trace header, which the caller wrote); register with add_observer.
  /// InvalidInput naming --replay if the run's structure is not a collision world driven
  /// by a simulator (hard-spheres: neither its events nor its drawings are visible).
  ReplayWriter(std::ostream& out, ScenarioRun& run);
  void on_event(const EventRecord& e) override;

 private:
  /// Writes the motion and draw lines that differ from the last ones written.
  void write_changes(double time);
  std::string motion_json(SphereId id) const;
  /// What the broad phase draws of a sphere, in the user's frame, carried shapes naming spheres.
  Drawing drawing(SphereId id) const;

  std::ostream& out_;
  ScenarioRun& run_;
  const CollisionWorld& world_;
  TraceWriter events_;
  std::vector<std::string> motion_;  // the last motion lines' contents, by sphere
  // The last drawings, by sphere: compared shape by shape, so that a structure drawing
  // many shapes (128 guards a ball) costs no JSON text at events that change nothing.
  std::vector<std::vector<Shape>> draw_;
  std::vector<char> drawn_;  // whether a draw line was written for the sphere (the start writes one each)
};

}  // namespace kds::cli
