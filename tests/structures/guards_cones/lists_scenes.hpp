#pragma once
// What the degenerate tests of guards-cones-lists share: audited runs beside all-pairs
// and a few look-ups.
#include <gtest/gtest.h>

#include <vector>

#include "collision_world_support.hpp"
#include "guards_scenes.hpp"
#include "structures/guards_cones/guards_cones_lists.hpp"

namespace kds::testing {

inline constexpr const char* kLists = "guards-cones-lists";

/// Runs w to t_end, auditing (Simulator::audit: every structure and certificate) every
/// `every`-th event and at the end; the facet lists make thousands of order certificates
/// per ball, too many to audit after every event. Returns the events processed.
inline std::uint64_t run_audited(WorldRun& w, double t_end, std::uint64_t every = 2000) {
  std::uint64_t events = 0;
  while (compare(w.sim->next_event_time(), t_end) <= 0) {
    EXPECT_TRUE(w.sim->step());
    if (++events % every == 0) {
      EXPECT_NO_THROW(w.sim->audit()) << "after event " << events;
    }
    if (events > 2'000'000) {
      ADD_FAILURE() << "event cap reached";
      break;
    }
  }
  w.sim->run_until(t_end);
  EXPECT_NO_THROW(w.sim->audit());
  return events;
}

/// guards-cones-lists audited (run_audited) and all-pairs: the same contacts; returns them.
inline std::vector<Contact> lists_twins(const std::vector<Sphere>& spheres, double t_end) {
  WorldRun w(spheres, guards_settings(100, kLists));
  const std::uint64_t events = run_audited(w, t_end);
  WorldRun a(spheres, guards_settings(100, "all-pairs"));
  EXPECT_TRUE(a.run_until(t_end));
  EXPECT_TRUE(same_contacts(w.contacts(), a.contacts()));
  std::cout << "[ twins    ] " << spheres.size() << " spheres, " << events << " events, " << w.contacts().size()
            << " contacts\n";
  return w.contacts();
}

struct Audited {
  explicit Audited(const std::vector<Sphere>& s) : run(s, guards_settings(100, kLists)) {}
  const GuardsConesLists& gl() const { return dynamic_cast<const GuardsConesLists&>(run.world->broad_phase()); }
  /// Runs to t, audited every 2000 events and at t (run_audited).
  bool run_until(double t) {
    run_audited(run, t, 2000);
    return true;
  }
  WorldRun run;
};

inline GuardId guard_with_offset(const GuardsConesLists& gl, SphereId owner, const Vec<3>& offset) {
  for (GuardId g = 0; g < gl.guards(); ++g)
    if (gl.guard_owner(g) == owner && gl.guard_offset(g) == offset) return g;
  ADD_FAILURE() << "no guard of sphere " << owner << " at offset " << offset[0] << ", " << offset[1] << ", "
                << offset[2];
  return 0;
}

/// The cone of g whose closest object is k, or no_cone.
inline ConeIndex cone_led_by(const GuardsConesLists& gl, GuardId g, SphereId k) {
  for (const auto& [cone, j] : gl.closest(g))
    if (j == k) return cone;
  return no_cone;
}

}  // namespace kds::testing
