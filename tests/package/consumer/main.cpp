// Uses the installed kds: a kinetic sorted list of two points that swap once.
#include <iostream>

#include "kds/simulator.hpp"
#include "structures/sorted_list/sorted_list.hpp"

int main() {
  kds::Simulator sim;
  kds::SortedList list(sim);
  kds::ObjectId a = list.insert(kds::Motion<1>::linear(0, {0.0}, {1.0}));
  kds::ObjectId b = list.insert(kds::Motion<1>::linear(0, {1.0}, {0.0}));
  sim.run_until(2.0);
  const bool swapped = list.order().front() == b && list.order().back() == a && list.swaps() == 1;
  std::cout << (swapped ? "ok" : "wrong order") << '\n';
  return swapped ? 0 : 1;
}
