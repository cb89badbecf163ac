#pragma once
/// \file
/// The measured runs of the event-cost benchmark, one configuration per process: the
/// work of each line of issue 8's table done by kds and by the plain floating-point code
/// written for the comparison (bench/baselines/), on identical input.
///
///   hard_spheres     equal spheres, volume fraction phi, lattice start in a walled cube
///                    (bench/tvb_grid/lattice_scene.hpp); after a warm-up of a quarter
///                    as many, `per_sphere` collisions per sphere are timed
///   paper_unknown    Kim-Guibas-Shin's scene (examples/paper_experiment), unknown
///                    trajectories, kds only (the anchor is the paper's own figure)
///   paper_ballistic  the same scene with A = 0
///   sorted_list      random linear motions on a line (bench/sorted_list/scene.hpp)
///
/// Codes: "kds" (filtered: exact answers), "kds_floating" (kds in its floating-point-only
/// mode), "kds_hard_spheres" (hard spheres only: structures/hard_spheres, item 3's path,
/// exact answers), "kds_linear" (sorted list only: structures/sorted_list/
/// linear_sorted_list.hpp, the list of linear points on its own queue, exact answers),
/// "baseline" (bench/baselines/).

#include <cstdint>
#include <string>
#include <vector>

namespace kds::bench {

struct Measurement {
  std::string work, code;
  std::size_t n = 0;
  double setup_cpu_s = 0;        ///< building the structure (kds: to the first failure times)
  double run_cpu_s = 0;          ///< the timed stretch
  std::uint64_t events = 0;      ///< events processed in it (kds: certificate failures; baseline: valid events)
  std::uint64_t collisions = 0;  ///< sphere-sphere collisions in it (sorted list: swaps)
  double simulated_s = 0;        ///< simulated time it covered
  std::size_t start_rss = 0, peak_rss = 0;  ///< bytes: before building the scene, and the process's peak
  // kds only, over the timed stretch:
  std::uint64_t failure_computations = 0, certificates_created = 0, certificates_destroyed = 0, comparisons = 0,
                exact_fallbacks = 0;

  /// The unit of work the rates are stated in: collisions (hard spheres), simulated
  /// seconds (the paper's scene), events (sorted list).
  double work_units() const;
  /// CPU seconds per unit of work.
  double cost() const { return run_cpu_s / work_units(); }
};

struct RunSettings {
  double phi = 0.4;
  double per_sphere = 2;     ///< timed collisions per sphere (hard spheres)
  double paper_seconds = 1;  ///< simulated seconds (paper scene)
  double unknown_cell_ratio = 2;  ///< the plain code's cell ratio on the unknown paper scene
  double min_events = 3e6;   ///< sorted list: repeat small scenes up to this many events
  double budget = 30;        ///< CPU seconds after which a timed stretch stops early
  std::uint64_t seed = 1;
  bool shuffled = false;  ///< hard spheres: ids in a random order, not along the lattice (scenes.hpp)
};

/// Runs one configuration in this process. Throws std::invalid_argument for an unknown work or code.
Measurement measure(const std::string& work, const std::string& code, std::size_t n, const RunSettings& settings);

/// The header and one line of the CSV the child process prints and the driver collects.
std::string csv_header();
std::string csv_line(const Measurement& m);
Measurement parse_csv_line(const std::string& line);

}  // namespace kds::bench
