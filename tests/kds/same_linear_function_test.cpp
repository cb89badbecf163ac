// Function::same_linear_function over stored lines (kds/solver.cpp): two differences of
// linear keys are called one function (or its negation) exactly when their exact
// polynomials say so, on random lines, the same lines, swapped lines, other lines with
// equal or opposite differences (shifted starts, offsets moved into positions, mirrored
// pairs), and those perturbed by one ulp; and compare() then calls their roots equal
// without exact arithmetic.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "kds/function.hpp"
#include "kds/line.hpp"
#include "kds/solver.hpp"
#include "test_functions.hpp"
#include "test_seed.hpp"

namespace {

using kds::Polynomial;
using kds::Rational;
using kds::StoredLine;
using kds::testing::uniform;
using kds::testing::uniform_int;

/// upper - lower for two lines as motions store them: x + offset + v (t - t0).
class LineDifference final : public kds::FunctionOf<LineDifference> {
 public:
  LineDifference(StoredLine upper, StoredLine lower) : upper_(upper), lower_(lower) {}
  template <class NT>
  Polynomial<NT> function(double origin) const {
    return value<NT>(upper_, origin) - value<NT>(lower_, origin);
  }
  bool stored_lines(StoredLine& upper, StoredLine& lower) const override {
    upper = upper_;
    lower = lower_;
    return true;
  }
  Polynomial<Rational> exact() const { return exact_polynomial(); }

 private:
  template <class NT>
  static Polynomial<NT> value(const StoredLine& l, double origin) {
    // x + offset + v (origin - t0) + v s, with s = t - origin.
    return Polynomial<NT>({NT(l.x) + NT(l.offset) + NT(l.v) * (NT(origin) - NT(l.t0)), NT(l.v)});
  }
  StoredLine upper_, lower_;
};

/// One polynomial of degree 1 or its negation, exactly.
bool same_or_negated(const Polynomial<Rational>& f, const Polynomial<Rational>& g) {
  if (f.degree() != 1 || g.degree() != 1) return false;
  return (f[0] == g[0] && f[1] == g[1]) || (f[0] == -g[0] && f[1] == -g[1]);
}

StoredLine random_line(std::mt19937_64& rng) {
  // Coordinates and speeds on a coarse grid now and then, so that equal sums happen.
  auto pick = [&](double scale) {
    return uniform_int(rng, 0, 3) == 0 ? uniform_int(rng, -8, 8) * 0.25 * scale : uniform(rng, -scale, scale);
  };
  return StoredLine{pick(4), pick(100), pick(3), uniform_int(rng, 0, 2) == 0 ? 0.0 : pick(10)};
}

TEST(SameLinearFunction, StoredLinesMatchTheExactPolynomials) {
  const std::uint64_t seed = kds::testing::test_seed();
  std::mt19937_64 rng(seed);
  int same = 0, other = 0, moved = 0;
  for (int i = 0; i < 40000; ++i) {
    const StoredLine fu = random_line(rng), fl = random_line(rng);
    StoredLine gu = fu, gl = fl;
    switch (i % 6) {
      case 0:  // independent lines
        gu = random_line(rng);
        gl = random_line(rng);
        break;
      case 1:  // swapped: the negation
        std::swap(gu, gl);
        break;
      case 2: {  // both shifted by one exact amount, in the offset or the position
        const double d = uniform_int(rng, -16, 16) * 0.125;
        if (i % 12 == 2) {
          gu.offset += d;
          gl.offset += d;
        } else {
          gu.x += d;
          gl.x += d;
        }
        break;
      }
      case 3:  // mirrored: (-lower) - (-upper), on positions and speeds negated
        gu = StoredLine{fl.t0, -fl.x, -fl.v, -fl.offset};
        gl = StoredLine{fu.t0, -fu.x, -fu.v, -fu.offset};
        break;
      case 4:  // the start moved along the line: x at another t0 (exact on the grid)
        if (fu.v == std::round(fu.v * 4) / 4) {
          gu.t0 += 0.5;
          gu.x += fu.v * 0.5;
        }
        break;
      default:  // one ulp away
        gu.x = std::nextafter(gu.x, 1e300);
        break;
    }
    const LineDifference f(fu, fl), g(gu, gl);
    const bool claimed = f.same_linear_function(g);
    ASSERT_EQ(claimed, same_or_negated(f.exact(), g.exact()))
        << "seed " << seed << ", case " << i << ": (" << fu.x << ", " << fu.v << ") - (" << fl.x << ", " << fl.v
        << ") against (" << gu.x << ", " << gu.v << ") - (" << gl.x << ", " << gl.v << ")";
    ASSERT_EQ(claimed, g.same_linear_function(f));
    (claimed ? same : other) += 1;
    moved += claimed && i % 6 >= 2;
  }
  EXPECT_GT(same, 10000) << "seed " << seed;
  EXPECT_GT(other, 10000) << "seed " << seed;
  EXPECT_GT(moved, 3000) << "seed " << seed << ": identities with different lines";
}

TEST(SameLinearFunction, RootsOfMirroredDifferencesAreEqualWithoutExactArithmetic) {
  // a(t) = 1 + t / 3 and b(t) = 2 - t / 7 cross at t = 21 / 10 (not a double); the mirrored
  // pair -b, -a crosses at the same time, and so do a and b shifted by 1/8.
  const StoredLine a{0, 1, 1.0 / 3, 0}, b{0, 2, -1.0 / 7, 0};
  const LineDifference f(b, a);
  const LineDifference mirrored(StoredLine{0, -1, -1.0 / 3, 0}, StoredLine{0, -2, 1.0 / 7, 0});
  const LineDifference shifted(StoredLine{0, 2, -1.0 / 7, 0.125}, StoredLine{0, 1, 1.0 / 3, 0.125});
  const kds::Root now = kds::Root::at(0.0);
  const kds::Root rf = kds::first_failure(f, now), rm = kds::first_failure(mirrored, now),
                  rs = kds::first_failure(shifted, now);
  ASSERT_FALSE(rf.is_infinite());
  const kds::SolverCounters before = kds::solver_counters();
  EXPECT_EQ(kds::compare(rf, rm), 0);
  EXPECT_EQ(kds::compare(rf, rs), 0);
  const kds::SolverCounters& after = kds::solver_counters();
  EXPECT_EQ(after.comparisons_exact, before.comparisons_exact);
  EXPECT_EQ(after.comparisons_same_line, before.comparisons_same_line + 2);
}

}  // namespace
