#include "structures/collision/cost_model.hpp"

#include <algorithm>
#include <cmath>

namespace kds {

double choose_cell_ratio(const std::vector<Sphere>& spheres, const Box3& box) {
  if (spheres.empty()) return 2.0;
  std::vector<double> radii, speeds, accels;
  for (const Sphere& s : spheres) {
    radii.push_back(s.radius);
    speeds.push_back(std::sqrt(s.velocity[0] * s.velocity[0] + s.velocity[1] * s.velocity[1] + s.velocity[2] * s.velocity[2]));
    accels.push_back(s.max_acceleration);
  }
  auto median = [](std::vector<double>& v) {
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
    return v[v.size() / 2];
  };
  const double r = median(radii), v = std::max(median(speeds), 1e-12), a = median(accels);
  double volume = 1;
  for (int k = 0; k < 3; ++k) volume *= box.hi[k] - box.lo[k];
  const double density = double(spheres.size()) / volume;
  // Relative costs of a cell-crossing event and of a pair certificate (see the header).
  // Fitted to the sweep of bench/tvb_grid/cell_size.cpp: a pair certificate (a quartic
  // or quadratic, recomputed at every motion change of either sphere) costs about ten
  // cell events (linear or quadratic face certificates of one sphere).
  constexpr double c_cross = 1.0, c_pair = 10.0;
  double best_k = 2, best_cost = INFINITY;
  for (double k = 2; k <= 16.0001; k += 0.25) {
    const double L = k * 2 * r;
    double crossings = 6 * v / L;
    if (a > 0) crossings += std::sqrt(a / (L - 2 * r));  // one reset per sqrt((L - 2r) / A), eq. (8)
    const double neighbours = density * std::pow(L + 2 * r, 3);
    const double pair_rate = v / std::max(L, 1e-300);  // pair certificates are renewed as spheres move on
    const double cost = c_cross * crossings + c_pair * neighbours * pair_rate;
    if (cost < best_cost) {
      best_cost = cost;
      best_k = k;
    }
  }
  return best_k;
}

}  // namespace kds
