#pragma once
/// \file
/// The exceptions kds throws. Every message names the object or field and the problem.

#include <stdexcept>
#include <string>
#include <vector>

#include "kds/body_id.hpp"

namespace kds {

/// Bad input from the user: NaN or infinite values, a motion replaced in the past,
/// an unknown object, a malformed scenario file... The message says which and why.
class InvalidInput : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// A certificate that a structure requires to hold was already violated when created.
class CertificateViolated : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// An audit found a structure or certificate inconsistent with a static computation.
class AuditFailure : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

/// The clock stopped: more events at one instant than SimulatorSettings allows (a chain
/// of touching spheres between two walls collides forever at one time). `bodies` are the
/// bodies of the certificates that failed in the last events at that instant, by index.
class NoProgress : public std::runtime_error {
 public:
  NoProgress(const std::string& what, std::vector<BodyId> bodies) : std::runtime_error(what), bodies(std::move(bodies)) {}
  std::vector<BodyId> bodies;
};

}  // namespace kds
