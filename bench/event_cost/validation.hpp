#pragma once
/// \file
/// Issue 8, item 6: exactness is not traded away. Every hard-sphere code the benchmark
/// times also runs, at a small n and audited after every event (what the validating build,
/// CMake option KDS_VALIDATING_BUILD, does by default), on the same scenes against the
/// all-pairs reference, and its contact sequence is compared with the reference's exactly:
/// the same contacts (pair or wall, bit-identical times), in the same order.
///
/// The plain floating-point baseline is not validated this way: it is not exact, and
/// tests/bench checks it against kds with a tolerance instead.

#include <cstddef>
#include <string>
#include <vector>

#include "bench/event_cost/runs.hpp"

namespace kds::bench {

struct ValidationRow {
  std::string work, code;
  std::size_t n = 0;
  std::size_t reference_contacts = 0;  ///< the reference's contacts up to the compared horizon
  std::size_t contacts = 0;            ///< the code's, up to the same horizon
  std::size_t missed = 0;              ///< contacts of the reference the code does not have
  std::size_t spurious = 0;            ///< contacts of the code the reference does not have
  std::size_t reordered = 0;           ///< common contacts at another place in the sequence
  double horizon = 0;                  ///< simulated time compared

  bool agrees() const { return missed == 0 && spurious == 0 && reordered == 0; }
};

/// Runs the hard-sphere scene (lattice start, `s.phi`, `s.seed`) and the paper's ballistic
/// scene at n spheres through the all-pairs reference and through each exact code ("kds":
/// the collision world over tvb-grid; "kds_hard_spheres"), audited after every event,
/// until the reference has ceil(s.per_sphere * n) contacts (at least 20).
std::vector<ValidationRow> validate(std::size_t n, const RunSettings& s);

}  // namespace kds::bench
