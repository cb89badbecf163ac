// Uses the installed kds: two bodies on a line, a kinetic sorted list of their
// x-coordinates and a tournament naming the rightmost; they swap once.
#include <iostream>

#include "kds/simulator.hpp"
#include "structures/sorted_list/sorted_list.hpp"
#include "structures/tournament/tournament.hpp"

int main() {
  kds::Simulator sim;
  kds::SortedList list(sim);
  kds::Tournament rightmost(sim, kds::Extremum::largest);
  const kds::BodyId a = sim.bodies().insert(kds::Motion<1>::linear(0, {0.0}, {1.0}));
  const kds::BodyId b = sim.bodies().insert(kds::Motion<1>::linear(0, {1.0}, {0.0}));
  const kds::EntryId ea = list.insert(kds::Key::coordinate(a));
  const kds::EntryId eb = list.insert(kds::Key::coordinate(b));
  const kds::EntryId ra = rightmost.insert(kds::Key::coordinate(a));
  rightmost.insert(kds::Key::coordinate(b));
  sim.run_until(2.0);
  const bool swapped = list.order().front() == eb && list.order().back() == ea && list.swaps() == 1 &&
                       rightmost.winner() == ra;
  std::cout << (swapped ? "ok" : "wrong order") << '\n';
  return swapped ? 0 : 1;
}
