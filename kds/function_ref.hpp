#pragma once
/// \file
/// A non-owning reference to a callable: what a function takes when it calls back into
/// its caller and must not allocate. std::function copies the callable, on the heap once
/// it holds more than two pointers' worth of captures; this stores one pointer to it and
/// one to a function that calls it. The callable must outlive the reference (pass a
/// lambda as an argument, never keep the reference past the call).

#include <memory>
#include <type_traits>
#include <utility>

namespace kds {

template <class Signature>
class FunctionRef;

template <class R, class... Args>
class FunctionRef<R(Args...)> {
 public:
  template <class F>
    requires(!std::is_same_v<std::remove_cvref_t<F>, FunctionRef> && std::is_invocable_r_v<R, F&, Args...>)
  FunctionRef(F&& f) noexcept  // NOLINT(google-explicit-constructor): stands in for a callable
      : object_(const_cast<void*>(static_cast<const void*>(std::addressof(f)))),
        call_([](void* object, Args... args) -> R {
          return (*static_cast<std::remove_reference_t<F>*>(object))(std::forward<Args>(args)...);
        }) {}

  R operator()(Args... args) const { return call_(object_, std::forward<Args>(args)...); }

 private:
  void* object_;
  R (*call_)(void*, Args...);
};

}  // namespace kds
