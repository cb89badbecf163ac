#pragma once
/// \file
/// The interface a kinetic structure offers the simulator: a name, and an audit.

#include "kds/number_types.hpp"

namespace kds {

/// Where and when an audit happens: a rational time strictly between two events, at
/// which every certificate holds strictly or with equality, and nothing is in flux.
struct AuditContext {
  double time;  ///< the audit time (a double, hence an exact rational)
  Rational exact_time() const { return Rational(time); }
};

class Structure {
 public:
  virtual ~Structure() = default;
  virtual const char* name() const = 0;
  /// Checks every invariant against a static computation at ctx.time; throws AuditFailure.
  virtual void audit(const AuditContext& ctx) const = 0;
};

}  // namespace kds
