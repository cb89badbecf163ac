#include "structures/guards_cones/fat_object.hpp"

#include <cmath>
#include <limits>
#include <string>

#include "kds/errors.hpp"
#include "structures/collision/io/number_text.hpp"

namespace kds {

FatObject fat_ball(double radius, double box_margin) {
  FatObject o;
  o.inner_radius = o.outer_radius = radius;
  double h = radius + box_margin;
  // Strictly above r even when the margin is below half an ulp of r (as box_half_width in
  // structures/box_overlap/box_extreme.hpp).
  if (!(h > radius)) h = std::nextafter(radius, std::numeric_limits<double>::infinity());
  o.box_half_width = {h, h, h};
  return o;
}

void check_fat_object(const FatObject& o, std::size_t id) {
  const std::string who = "object " + std::to_string(id) + ": ";
  auto bad = [](double x) { return !std::isfinite(x) || x <= 0; };
  if (bad(o.inner_radius))
    throw InvalidInput(who + "inner radius must be finite and positive, not " + text::shortest(o.inner_radius));
  if (bad(o.outer_radius))
    throw InvalidInput(who + "outer radius must be finite and positive, not " + text::shortest(o.outer_radius));
  if (o.outer_radius < o.inner_radius)
    throw InvalidInput(who + "outer radius " + text::shortest(o.outer_radius) + " is below the inner radius " +
                       text::shortest(o.inner_radius));
  if (o.fatness() > max_fatness)
    throw InvalidInput(who + "fatness " + text::shortest(o.fatness()) + " (outer / inner radius) is beyond the limit " +
                       text::shortest(max_fatness) + " of guards and cones");
  for (int k = 0; k < 3; ++k)
    if (!std::isfinite(o.box_half_width[k]) || o.box_half_width[k] < o.outer_radius)
      throw InvalidInput(who + "box half width " + text::shortest(o.box_half_width[k]) + " on axis " +
                         std::to_string(k) + " is below the outer radius " + text::shortest(o.outer_radius));
}

}  // namespace kds
