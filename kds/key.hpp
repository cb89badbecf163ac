#pragma once
/// \file
/// Keys: polynomial functions of time built from bodies, the values that kinetic sorted
/// lists and tournaments order.
///
/// A key is what a structure compares, not a body: the x-coordinate of a body, its
/// right extreme (x + r), the gap between two neighbours of a sorted list, a squared
/// distance, or a user's own function. The comparison certificate of two keys depends on
/// the bodies of both (at most four), so a motion change of any of them reschedules it.
///
/// Built-in keys are values (`Key::coordinate`, `Key::difference`,
/// `Key::squared_distance`), evaluated without a virtual call. A user's key derives
/// from `KeyOf<Derived>` and writes its function once over the number type, like a
/// certificate (docs/certificates.md):
///
///     struct Height : kds::KeyOf<Height> {             // z + 0.5 * vz^2 / g, say
///       kds::BodyId body;
///       kds::BodyList bodies() const override { return {body}; }
///       template <class NT> kds::Polynomial<NT> function(const kds::Bodies& b, double origin) const;
///     };
///     list.insert(kds::Key::custom(std::make_shared<Height>(...)));
///
/// Its function may depend only on the bodies it lists and on data fixed when it was
/// made: a key that changes otherwise must be replaced (`Tournament::set_key`).

#include <array>
#include <cmath>
#include <memory>
#include <string>

#include "kds/bodies.hpp"
#include "kds/function.hpp"
#include "kds/linear_form.hpp"

namespace kds {

/// An entry of a keyed structure (a sorted list, a tournament): its own dense index of a
/// key it holds, reused after the entry is erased.
using EntryId = std::uint32_t;
inline constexpr EntryId no_entry = ~EntryId{0};

/// A user's key (see the file comment). At most two bodies.
class KeySource {
 public:
  virtual ~KeySource() = default;
  /// The bodies the function depends on.
  virtual BodyList bodies() const = 0;
  virtual Polynomial<Interval> interval_function(const Bodies& b, double origin) const = 0;
  virtual Polynomial<double> double_function(const Bodies& b, double origin) const = 0;
  virtual Polynomial<Rational> rational_function(const Bodies& b, double origin) const = 0;
  virtual Polynomial<Dyadic> dyadic_function(const Bodies& b, double origin) const = 0;
  virtual Polynomial<DoubleDoubleBall> double_double_function(const Bodies& b, double origin) const = 0;
  /// Fills `out` and returns true if the function is exactly u . (position(body) + offset)
  /// for fixed u and offset (kds/linear_form.hpp): order certificates between two keys
  /// with one u, of one body or of two bodies moving alike along u (at rest, say), then
  /// know their difference is a constant and decide its sign exactly, without the filter. The promise must be exact: a wrong form gives wrong
  /// orders. Not a linear form by default.
  virtual bool linear_form(LinearForm& /*out*/) const { return false; }

  /// The function in NT, in s = t - origin.
  template <class NT>
  Polynomial<NT> function_in(const Bodies& b, double origin) const {
    if constexpr (std::is_same_v<NT, Interval>) return interval_function(b, origin);
    else if constexpr (std::is_same_v<NT, double>) return double_function(b, origin);
    else if constexpr (std::is_same_v<NT, Rational>) return rational_function(b, origin);
    else if constexpr (std::is_same_v<NT, DoubleDoubleBall>) return double_double_function(b, origin);
    else return dyadic_function(b, origin);
  }
};

/// Implements KeySource from `template <class NT> Polynomial<NT> Derived::function(const Bodies&, double origin) const`.
template <class Derived>
class KeyOf : public KeySource {
 public:
  Polynomial<Interval> interval_function(const Bodies& b, double origin) const final {
    return self().template function<Interval>(b, origin);
  }
  Polynomial<double> double_function(const Bodies& b, double origin) const final {
    return self().template function<double>(b, origin);
  }
  Polynomial<Rational> rational_function(const Bodies& b, double origin) const final {
    // Order certificates (and the exact path through them) read keys in Dyadic: a key's
    // function must be exact there (doubles, integers and their sums and products are).
    static_assert(exact_in_dyadic<Derived>(), "a key's function must be exact in Dyadic");
    return to_rational(self().template function<Dyadic>(b, origin));  // the same value, cheaper than mpq
  }
  Polynomial<Dyadic> dyadic_function(const Bodies& b, double origin) const final {
    return self().template function<Dyadic>(b, origin);
  }
  Polynomial<DoubleDoubleBall> double_double_function(const Bodies& b, double origin) const final {
    return self().template function<DoubleDoubleBall>(b, origin);
  }

 private:
  const Derived& self() const { return static_cast<const Derived&>(*this); }
};

class Key {
 public:
  /// Coordinate `axis` of a body plus a constant: x(t) + offset (offset = r for the right
  /// extreme of a ball, -r for its left one).
  static Key coordinate(BodyId body, int axis = 0, double offset = 0) {
    Key k(Kind::linear);
    k.terms_[0] = Term{body, offset, static_cast<std::int8_t>(axis), 1};
    k.n_terms_ = 1;
    return k;
  }
  /// plus - minus, for two coordinate keys (the gap between two neighbours of a sorted
  /// list). InvalidInput unless both are coordinate keys.
  static Key difference(const Key& plus, const Key& minus) {
    if (plus.kind_ != Kind::linear || minus.kind_ != Kind::linear || plus.n_terms_ + minus.n_terms_ > 2)
      throw InvalidInput("Key::difference: takes two coordinate keys");
    Key k(Kind::linear);
    k.terms_[0] = plus.terms_[0];
    k.terms_[1] = minus.terms_[0];
    k.terms_[1].sign = static_cast<std::int8_t>(-k.terms_[1].sign);
    k.n_terms_ = 2;
    return k;
  }
  /// |p_a(t) - p_b(t)|^2 over all axes (unused axes are zero).
  static Key squared_distance(BodyId a, BodyId b) {
    Key k(Kind::squared_distance);
    k.terms_[0].body = a;
    k.terms_[1].body = b;
    k.n_terms_ = 2;
    return k;
  }
  /// A user's key.
  static Key custom(std::shared_ptr<const KeySource> source) {
    if (!source) throw InvalidInput("Key::custom: no key source given");
    Key k(Kind::custom);
    k.custom_ = std::move(source);
    return k;
  }

  /// Whether the key is one body's coordinate plus an offset (Key::coordinate): keyed
  /// structures store those compactly and evaluate them without a switch.
  bool is_coordinate() const { return kind_ == Kind::linear && n_terms_ == 1 && terms_[0].sign > 0; }
  /// For a coordinate key: its body, axis and offset (unspecified otherwise).
  BodyId coordinate_body() const { return terms_[0].body; }
  int coordinate_axis() const { return terms_[0].axis; }
  double coordinate_offset() const { return terms_[0].offset; }

  /// Fills `out` if the key is a fixed linear form of one body's position
  /// (kds/linear_form.hpp): a coordinate key, or a user's key that says it is one.
  bool linear_form(LinearForm& out) const {
    if (kind_ == Kind::custom) return custom_->linear_form(out);
    if (!is_coordinate() || terms_[0].axis < 0 || terms_[0].axis >= 3) return false;
    out = LinearForm{};
    out.body = terms_[0].body;
    out.u[terms_[0].axis] = 1;
    out.offset[terms_[0].axis] = terms_[0].offset;
    return true;
  }

  /// The bodies the key depends on.
  BodyList bodies() const {
    if (kind_ == Kind::custom) return custom_->bodies();
    BodyList l;
    for (int i = 0; i < n_terms_; ++i) l.add(terms_[i].body);
    return l;
  }
  /// Throws InvalidInput "<operation>: ..." unless every body is live in `b` and every
  /// coordinate axis exists (a stale, erased or foreign body; a 1D body's y).
  void require(const Bodies& b, std::string_view operation) const {
    if (kind_ == Kind::custom) {
      const BodyList l = custom_->bodies();
      if (l.view().size() > 2) throw InvalidInput(std::string(operation) + ": a key depends on at most two bodies");
      for (BodyId id : l.view()) b.require(id, operation);
      return;
    }
    for (int i = 0; i < n_terms_; ++i) {
      if (kind_ == Kind::linear) b.require_axis(terms_[i].body, terms_[i].axis, operation);
      else b.require(terms_[i].body, operation);
      // An infinite or NaN offset would reach the exact path, which has no such number.
      if (!std::isfinite(terms_[i].offset))
        throw InvalidInput(std::string(operation) + ": a key's offset must be finite (got " +
                           std::to_string(terms_[i].offset) + ")");
    }
  }

  /// The key as a polynomial in s = t - origin, in NT.
  template <class NT>
  Polynomial<NT> value(const Bodies& b, double origin) const {
    switch (kind_) {
      case Kind::linear: {
        Polynomial<NT> p = term<NT>(b, terms_[0], origin);
        if (terms_[0].sign < 0) p = -p;
        if (n_terms_ == 2) {
          const Polynomial<NT> q = term<NT>(b, terms_[1], origin);
          p = terms_[1].sign > 0 ? p + q : p - q;
        }
        return p;
      }
      case Kind::squared_distance: {
        Polynomial<NT> f;
        for (int k = 0; k < Bodies::max_dimension; ++k) {
          const Polynomial<NT> d =
              b.coordinate<NT>(terms_[0].body, k, origin) - b.coordinate<NT>(terms_[1].body, k, origin);
          f += d * d;
        }
        return f;
      }
      case Kind::custom:
        break;
    }
    return custom_->function_in<NT>(b, origin);
  }

 private:
  enum class Kind : std::uint8_t { linear, squared_distance, custom };
  /// sign * (coordinate + offset): offsets stay apart so that a difference is exact.
  struct Term {
    BodyId body;
    double offset = 0;
    std::int8_t axis = 0;
    std::int8_t sign = 1;
  };
  explicit Key(Kind kind) : kind_(kind) {}
  template <class NT>
  static Polynomial<NT> term(const Bodies& b, const Term& t, double origin) {
    Polynomial<NT> p = b.coordinate<NT>(t.body, t.axis, origin);
    if (t.offset != 0) p += Polynomial<NT>(NT(t.offset));
    return p;
  }

  Kind kind_;
  std::uint8_t n_terms_ = 0;
  std::array<Term, 2> terms_{};
  std::shared_ptr<const KeySource> custom_;
};

}  // namespace kds
