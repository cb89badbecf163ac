#include "structures/guards_cones/guard_layout.hpp"

#include <algorithm>
#include <string>

#include "kds/errors.hpp"

namespace kds {
namespace {

/// What the structures read of sphere i: a ball, or a polytope about its reference point
/// (its own box, not its bounding sphere's), the box grown by the contact tolerance.
FatObject fat_object_of(const CollisionWorld& world, SphereId i) {
  const double margin = world.settings().contact_tolerance;
  const Sphere& s = world.sphere(i);
  return s.polytope ? fat_polytope(*s.polytope, margin, i) : fat_ball(s.radius, margin);
}

}  // namespace

GuardLayout layout_guards(const CollisionWorld& world, const char* broad_phase) {
  const std::size_t n = world.size();
  for (SphereId i = 0; i < n; ++i)
    if (!world.ballistic(i))
      throw InvalidInput("sphere " + std::to_string(i) + ": has an unknown trajectory (max_acceleration > 0), which the " +
                         broad_phase +
                         " broad phase does not support (its box would jump at every reset of the bound); use "
                         "tvb-grid or all-pairs");
  GuardLayout l;
  l.objects.resize(n);
  double rho_cone = 1;
  for (SphereId i = 0; i < n; ++i) {
    l.objects[i] = fat_object_of(world, i);
    check_fat_object(l.objects[i], i);
    l.rho = std::max(l.rho, l.objects[i].fatness());
    for (double h : l.objects[i].box_half_width) rho_cone = std::max(rho_cone, h / l.objects[i].inner_radius);
  }
  // Lemma 9 bounds the distance from a guard to the centre of an object whose box holds
  // it by sqrt(3) rho r; with boxes grown beyond the objects that distance is sqrt(3) h,
  // so the cones are cut for rho = max h / r (>= the objects' fatness).
  l.cones = std::make_unique<ConeSet>(rho_cone);
  l.first_guard.assign(1, 0);
  for (SphereId i = 0; i < n; ++i) {
    for (const Vec<3>& o : guard_offsets(l.objects[i], l.rho)) {
      l.owner.push_back(i);
      l.offset.push_back(o);
    }
    l.first_guard.push_back(static_cast<GuardId>(l.owner.size()));
  }
  return l;
}

void draw_guards(const CollisionWorld& world, const FatObject& object, std::span<const Vec<3>> offsets, SphereId id,
                 Drawing& out) {
  const double h = object.inner_radius / 40;
  for (const Vec<3>& o : offsets) out.box_on(world.body(id), {o[0] - h, o[1] - h, o[2] - h}, {o[0] + h, o[1] + h, o[2] + h}, "guard");
}

}  // namespace kds
