#pragma once
/// \file
/// Dyadic rationals m * 2^e (m a GMP integer): the exact ring that doubles generate under
/// +, - and *. Certificate functions need nothing else (no division), so evaluating one
/// exactly at a double is a dyadic computation: no gcd per operation, unlike mpq, which
/// makes it several times cheaper than kds::Rational for the exact evaluations that
/// rounding the clock and the contact rules of kds need at every event.

#include <gmpxx.h>

#include <cmath>
#include <cstdint>

namespace kds {

class Dyadic {
 public:
  Dyadic() = default;
  Dyadic(double x) {  // NOLINT: implicit, like a number type; exact
    if (x == 0) return;
    int e = 0;
    const double f = std::frexp(x, &e);  // x = f * 2^e, 0.5 <= |f| < 1
    m_ = static_cast<std::int64_t>(std::ldexp(f, 53));
    e_ = e - 53;
  }

  int sign() const { return sgn(m_); }
  /// The exact value as a GMP rational.
  mpq_class to_rational() const {
    mpq_class q(m_);
    if (e_ > 0) mpq_mul_2exp(q.get_mpq_t(), q.get_mpq_t(), static_cast<unsigned long>(e_));
    if (e_ < 0) mpq_div_2exp(q.get_mpq_t(), q.get_mpq_t(), static_cast<unsigned long>(-e_));
    return q;
  }

  friend Dyadic operator-(const Dyadic& a) { return Dyadic(-a.m_, a.e_); }
  friend Dyadic operator+(const Dyadic& a, const Dyadic& b) {
    if (a.m_ == 0) return b;
    if (b.m_ == 0) return a;
    if (a.e_ <= b.e_) return Dyadic(a.m_ + shifted(b.m_, b.e_ - a.e_), a.e_);
    return Dyadic(shifted(a.m_, a.e_ - b.e_) + b.m_, b.e_);
  }
  friend Dyadic operator-(const Dyadic& a, const Dyadic& b) { return a + (-b); }
  friend Dyadic operator*(const Dyadic& a, const Dyadic& b) {
    if (a.m_ == 0 || b.m_ == 0) return Dyadic();
    return Dyadic(a.m_ * b.m_, a.e_ + b.e_);
  }
  Dyadic& operator+=(const Dyadic& b) { return *this = *this + b; }
  Dyadic& operator-=(const Dyadic& b) { return *this = *this - b; }
  Dyadic& operator*=(const Dyadic& b) { return *this = *this * b; }

 private:
  Dyadic(mpz_class m, long e) : m_(std::move(m)), e_(e) {}
  static mpz_class shifted(const mpz_class& m, long by) {
    mpz_class r;
    mpz_mul_2exp(r.get_mpz_t(), m.get_mpz_t(), static_cast<unsigned long>(by));
    return r;
  }
  mpz_class m_;  // zero means the value zero, whatever e_
  long e_ = 0;
};

inline bool is_zero(const Dyadic& x) { return x.sign() == 0; }
inline bool is_finite(const Dyadic&) { return true; }

}  // namespace kds
