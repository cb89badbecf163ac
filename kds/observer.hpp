#pragma once
/// \file
/// Observers see every processed event (the "observe" step of the event loop).

#include <cstdint>
#include <span>

#include "kds/certificate.hpp"

namespace kds {

struct EventRecord {
  std::uint64_t index;               ///< 0 for the first event of the simulation
  const Root& time;                  ///< when it happened
  bool exact;                        ///< the time needed the exact path: computed exactly, or compared exactly with another
  const char* kind;                  ///< the certificate kind
  std::span<const BodyId> bodies;    ///< the certificate's bodies
  std::uint32_t touched;             ///< certificates created, destroyed or rescheduled by the repair
};

class Observer {
 public:
  virtual ~Observer() = default;
  virtual void on_event(const EventRecord& e) = 0;
};

}  // namespace kds
