#pragma once
/// \file
/// A progress bar on stderr for long runs: drawn only when stderr is a terminal and the
/// run has lasted more than a second, so that short runs, pipes and logs stay clean. Fed
/// by the world's progress observer (SphereWorld::on_progress): it reads the time and the
/// count of events and never changes the run.

#include <chrono>
#include <cstdint>

namespace kds::cli {

class ProgressBar {
 public:
  /// A bar for a run from 0 to `until`; `enabled` false draws nothing (--quiet, tests).
  ProgressBar(double until, bool enabled);
  /// The run reached time t after `events` events.
  void update(double t, std::uint64_t events);
  /// Draws the bar at 100% and ends its line, if it was drawn at all.
  void finish();

 private:
  void draw(double t);
  using Clock = std::chrono::steady_clock;
  double until_;
  bool enabled_;
  bool drawn_ = false;
  std::uint64_t events_ = 0, updates_ = 0;
  Clock::time_point start_ = Clock::now();
  Clock::time_point last_draw_{};
};

}  // namespace kds::cli
