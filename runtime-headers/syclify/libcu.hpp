// syclify/libcu.hpp: libcu++ (CUDA's C++ standard library: cuda::std::, cuda::atomic,
// cuda::atomic_ref, cuda::atomic_thread_fence, thread scopes, and the pipeline primitives
// __pipeline_memcpy_async / __pipeline_commit / __pipeline_wait_prior) for SYCL 2020. Written to
// <out-root>/include/syclify/ when a migrated file includes a libcu++ header; the rule
// library-namespaces turns `cuda::` into `syclify::cuda::` (rules/libcu.yaml).
//
// - cuda::std::X is std::X (libcu++ is the standard library made usable in device code; SYCL
//   device code uses the standard library's header-only, constexpr parts the same way), except
//   complex, which is this header's own: libstdc++'s complex division and multiplication call
//   runtime functions (__divsc3, __mulsc3) that SYCL devices do not have. Its arithmetic is
//   libcu++'s (C99 Annex G: division scaled by the divisor's exponent).
// - cuda::atomic<T, Scope> and cuda::atomic_ref<T, Scope> are sycl::atomic_ref with the matching
//   memory scope (system, device, block → work_group, thread → work_item) and every operation's
//   memory order as given (seq_cst by default, as in CUDA). T must be a type sycl::atomic_ref
//   takes (integers, float, double, pointers).
// - cuda::barrier is CUDA's split barrier in software (counters in the barrier object: see
//   there); cuda::memcpy_async copies synchronously (the asynchrony is lost), and a block-scope
//   cuda::pipeline keeps CUDA's producer/consumer protocol with counters (see there).
// - The pipeline primitives copy synchronously: the copy is done when __pipeline_memcpy_async
//   returns, so committing and waiting have nothing left to do (the asynchrony is lost, not the
//   result; the __syncthreads CUDA code needs before other threads read the copy is still there).
#pragma once
#include "syclify.hpp"
#include <complex>
#include <cstdint>
#include <cstring>

namespace syclify {
namespace cuda {

enum thread_scope { thread_scope_system = 0, thread_scope_device = 1, thread_scope_block = 2, thread_scope_thread = 3 };

namespace std {
using namespace ::std;

// cuda::std::complex
template <class T> class complex {
  T re_, im_;

public:
  using value_type = T;
  constexpr complex(const T &re = T(), const T &im = T()) : re_(re), im_(im) {}
  template <class U> constexpr complex(const complex<U> &o) : re_(static_cast<T>(o.real())), im_(static_cast<T>(o.imag())) {}
  constexpr complex(const ::std::complex<T> &o) : re_(o.real()), im_(o.imag()) {}
  operator ::std::complex<T>() const { return ::std::complex<T>(re_, im_); }
  constexpr T real() const { return re_; }
  constexpr T imag() const { return im_; }
  void real(T v) { re_ = v; }
  void imag(T v) { im_ = v; }
  complex &operator=(const T &v) {
    re_ = v;
    im_ = T();
    return *this;
  }
  complex &operator+=(const T &v) {
    re_ += v;
    return *this;
  }
  complex &operator-=(const T &v) {
    re_ -= v;
    return *this;
  }
  complex &operator*=(const T &v) {
    re_ *= v;
    im_ *= v;
    return *this;
  }
  complex &operator/=(const T &v) {
    re_ /= v;
    im_ /= v;
    return *this;
  }
  template <class U> complex &operator+=(const complex<U> &o) {
    re_ += o.real();
    im_ += o.imag();
    return *this;
  }
  template <class U> complex &operator-=(const complex<U> &o) {
    re_ -= o.real();
    im_ -= o.imag();
    return *this;
  }
  template <class U> complex &operator*=(const complex<U> &o) { return *this = *this * complex(o); }
  template <class U> complex &operator/=(const complex<U> &o) { return *this = *this / complex(o); }
};

template <class T> complex<T> operator+(const complex<T> &a, const complex<T> &b) { return complex<T>(a.real() + b.real(), a.imag() + b.imag()); }
template <class T> complex<T> operator+(const complex<T> &a, const T &b) { return complex<T>(a.real() + b, a.imag()); }
template <class T> complex<T> operator+(const T &a, const complex<T> &b) { return complex<T>(a + b.real(), b.imag()); }
template <class T> complex<T> operator-(const complex<T> &a, const complex<T> &b) { return complex<T>(a.real() - b.real(), a.imag() - b.imag()); }
template <class T> complex<T> operator-(const complex<T> &a, const T &b) { return complex<T>(a.real() - b, a.imag()); }
template <class T> complex<T> operator-(const T &a, const complex<T> &b) { return complex<T>(a - b.real(), -b.imag()); }
template <class T> complex<T> operator+(const complex<T> &a) { return a; }
template <class T> complex<T> operator-(const complex<T> &a) { return complex<T>(-a.real(), -a.imag()); }
template <class T> complex<T> operator*(const complex<T> &z, const complex<T> &w) {
  const T a = z.real(), b = z.imag(), c = w.real(), d = w.imag();
  T x = a * c - b * d, y = a * d + b * c;
  if (sycl::isnan(x) && sycl::isnan(y)) { // an infinite operand (Annex G)
    T a2 = a, b2 = b, c2 = c, d2 = d;
    bool recalc = false;
    if (sycl::isinf(a2) || sycl::isinf(b2)) {
      a2 = sycl::copysign(sycl::isinf(a2) ? T(1) : T(0), a2);
      b2 = sycl::copysign(sycl::isinf(b2) ? T(1) : T(0), b2);
      c2 = sycl::isnan(c2) ? sycl::copysign(T(0), c2) : c2;
      d2 = sycl::isnan(d2) ? sycl::copysign(T(0), d2) : d2;
      recalc = true;
    }
    if (sycl::isinf(c2) || sycl::isinf(d2)) {
      c2 = sycl::copysign(sycl::isinf(c2) ? T(1) : T(0), c2);
      d2 = sycl::copysign(sycl::isinf(d2) ? T(1) : T(0), d2);
      a2 = sycl::isnan(a2) ? sycl::copysign(T(0), a2) : a2;
      b2 = sycl::isnan(b2) ? sycl::copysign(T(0), b2) : b2;
      recalc = true;
    }
    if (recalc) {
      const T inf = ::std::numeric_limits<T>::infinity();
      x = inf * (a2 * c2 - b2 * d2);
      y = inf * (a2 * d2 + b2 * c2);
    }
  }
  return complex<T>(x, y);
}
template <class T> complex<T> operator*(const complex<T> &a, const T &b) { return complex<T>(a.real() * b, a.imag() * b); }
template <class T> complex<T> operator*(const T &a, const complex<T> &b) { return complex<T>(a * b.real(), a * b.imag()); }
// z / w, scaled by w's exponent so that |w|^2 neither overflows nor underflows
template <class T> complex<T> operator/(const complex<T> &z, const complex<T> &w) {
  T a = z.real(), b = z.imag(), c = w.real(), d = w.imag();
  int scale = 0;
  const T logbw = sycl::logb(sycl::fmax(sycl::fabs(c), sycl::fabs(d)));
  if (sycl::isfinite(logbw)) {
    scale = static_cast<int>(logbw);
    c = sycl::ldexp(c, -scale);
    d = sycl::ldexp(d, -scale);
  }
  const T denom = c * c + d * d;
  T x = sycl::ldexp((a * c + b * d) / denom, -scale);
  T y = sycl::ldexp((b * c - a * d) / denom, -scale);
  if (sycl::isnan(x) && sycl::isnan(y)) {
    const T inf = ::std::numeric_limits<T>::infinity();
    if (denom == T(0) && (!sycl::isnan(a) || !sycl::isnan(b))) {
      x = sycl::copysign(inf, c) * a;
      y = sycl::copysign(inf, c) * b;
    } else if ((sycl::isinf(a) || sycl::isinf(b)) && sycl::isfinite(c) && sycl::isfinite(d)) {
      a = sycl::copysign(sycl::isinf(a) ? T(1) : T(0), a);
      b = sycl::copysign(sycl::isinf(b) ? T(1) : T(0), b);
      x = inf * (a * c + b * d);
      y = inf * (b * c - a * d);
    } else if (sycl::isinf(logbw) && logbw > T(0) && sycl::isfinite(a) && sycl::isfinite(b)) {
      c = sycl::copysign(sycl::isinf(c) ? T(1) : T(0), c);
      d = sycl::copysign(sycl::isinf(d) ? T(1) : T(0), d);
      x = T(0) * (a * c + b * d);
      y = T(0) * (b * c - a * d);
    }
  }
  return complex<T>(x, y);
}
template <class T> complex<T> operator/(const complex<T> &a, const T &b) { return complex<T>(a.real() / b, a.imag() / b); }
template <class T> complex<T> operator/(const T &a, const complex<T> &b) { return complex<T>(a) / b; }
template <class T> bool operator==(const complex<T> &a, const complex<T> &b) { return a.real() == b.real() && a.imag() == b.imag(); }
template <class T> bool operator==(const complex<T> &a, const T &b) { return a.real() == b && a.imag() == T(0); }
template <class T> bool operator!=(const complex<T> &a, const complex<T> &b) { return !(a == b); }
template <class T> bool operator!=(const complex<T> &a, const T &b) { return !(a == b); }
template <class T> T real(const complex<T> &z) { return z.real(); }
template <class T> T imag(const complex<T> &z) { return z.imag(); }
template <class T> T abs(const complex<T> &z) { return sycl::hypot(z.real(), z.imag()); }
template <class T> T arg(const complex<T> &z) { return sycl::atan2(z.imag(), z.real()); }
template <class T> T norm(const complex<T> &z) { return z.real() * z.real() + z.imag() * z.imag(); }
template <class T> complex<T> conj(const complex<T> &z) { return complex<T>(z.real(), -z.imag()); }
template <class T> complex<T> polar(const T &r, const T &theta = T()) { return complex<T>(r * sycl::cos(theta), r * sycl::sin(theta)); }
template <class T> complex<T> exp(const complex<T> &z) {
  const T e = sycl::exp(z.real());
  return complex<T>(e * sycl::cos(z.imag()), e * sycl::sin(z.imag()));
}
template <class T> complex<T> log(const complex<T> &z) { return complex<T>(sycl::log(abs(z)), arg(z)); }
// as libcu++ computes it: through polar form (so sqrt(-4) is (-0, 2) to rounding, as in CUDA)
template <class T> complex<T> sqrt(const complex<T> &z) {
  const T inf = ::std::numeric_limits<T>::infinity();
  if (sycl::isinf(z.imag()))
    return complex<T>(inf, z.imag());
  if (sycl::isinf(z.real())) {
    if (z.real() > T(0))
      return complex<T>(z.real(), sycl::isnan(z.imag()) ? z.imag() : sycl::copysign(T(0), z.imag()));
    return complex<T>(sycl::isnan(z.imag()) ? z.imag() : T(0), sycl::copysign(z.real(), z.imag()));
  }
  return polar(sycl::sqrt(abs(z)), arg(z) / T(2));
}
template <class T> complex<T> pow(const complex<T> &z, const complex<T> &w) { return z == T(0) ? complex<T>() : exp(w * log(z)); }
template <class T> complex<T> pow(const complex<T> &z, const T &w) { return pow(z, complex<T>(w)); }
template <class T> complex<T> proj(const complex<T> &z) {
  if (sycl::isinf(z.real()) || sycl::isinf(z.imag()))
    return complex<T>(::std::numeric_limits<T>::infinity(), sycl::copysign(T(0), z.imag()));
  return z;
}
} // namespace std

namespace detail {
constexpr sycl::memory_scope scope_of(thread_scope s) {
  return s == thread_scope_system   ? sycl::memory_scope::system
         : s == thread_scope_device ? sycl::memory_scope::device
         : s == thread_scope_block  ? sycl::memory_scope::work_group
                                    : sycl::memory_scope::work_item;
}
// Every operation is a relaxed atomic between fences at its scope (the fences as strong as the
// order asks; syclify::threadfence, a full fence): LLVM's NVPTX back end of AdaptiveCpp 24 (and
// DPC++'s CUDA target alike) selects relaxed atomic loads and stores only.
template <class T, thread_scope S> using aref = sycl::atomic_ref<T, sycl::memory_order::relaxed, scope_of(S), sycl::access::address_space::generic_space>;
template <thread_scope S> inline void fence() {
  if constexpr (S == thread_scope_system)
    threadfence<sycl::memory_scope::system>();
  else if constexpr (S == thread_scope_device)
    threadfence<sycl::memory_scope::device>();
  else
    threadfence<sycl::memory_scope::work_group>();
}
// before an operation of order o (release and stronger), and after one (acquire and stronger)
template <thread_scope S> inline void fence_before(::std::memory_order o) {
  if (o == ::std::memory_order_release || o == ::std::memory_order_acq_rel || o == ::std::memory_order_seq_cst)
    fence<S>();
}
template <thread_scope S> inline void fence_after(::std::memory_order o) {
  if (o != ::std::memory_order_relaxed && o != ::std::memory_order_release)
    fence<S>();
}
// an operation `op` on the atomic reference with order o
template <thread_scope S, class Op> inline auto ordered(::std::memory_order o, Op op) {
  fence_before<S>(o);
  auto r = op();
  fence_after<S>(o);
  return r;
}
} // namespace detail

// cuda::atomic_ref<T, Scope>: atomic operations on an object it does not own.
template <class T, thread_scope S = thread_scope_system> class atomic_ref {
  T *p_;
  detail::aref<T, S> r() const { return detail::aref<T, S>(*p_); }

public:
  using value_type = T;
  explicit atomic_ref(T &v) : p_(&v) {}
  atomic_ref(const atomic_ref &) = default;
  T load(::std::memory_order o = ::std::memory_order_seq_cst) const {
    if (o == ::std::memory_order_seq_cst)
      detail::fence<S>();
    return detail::ordered<S>(o == ::std::memory_order_seq_cst ? ::std::memory_order_acquire : o, [&] { return r().load(); });
  }
  void store(T v, ::std::memory_order o = ::std::memory_order_seq_cst) const {
    detail::fence_before<S>(o);
    r().store(v);
    if (o == ::std::memory_order_seq_cst)
      detail::fence<S>();
  }
  operator T() const { return load(); }
  T operator=(T v) const {
    store(v);
    return v;
  }
  T exchange(T v, ::std::memory_order o = ::std::memory_order_seq_cst) const {
    return detail::ordered<S>(o, [&] { return r().exchange(v); });
  }
  bool compare_exchange_weak(T &expected, T desired, ::std::memory_order o = ::std::memory_order_seq_cst) const {
    return detail::ordered<S>(o, [&] { return r().compare_exchange_weak(expected, desired); });
  }
  bool compare_exchange_weak(T &expected, T desired, ::std::memory_order success, ::std::memory_order failure) const {
    return detail::ordered<S>(success == ::std::memory_order_relaxed ? failure : success, [&] { return r().compare_exchange_weak(expected, desired); });
  }
  bool compare_exchange_strong(T &expected, T desired, ::std::memory_order o = ::std::memory_order_seq_cst) const {
    return detail::ordered<S>(o, [&] { return r().compare_exchange_strong(expected, desired); });
  }
  bool compare_exchange_strong(T &expected, T desired, ::std::memory_order success, ::std::memory_order failure) const {
    return detail::ordered<S>(success == ::std::memory_order_relaxed ? failure : success, [&] { return r().compare_exchange_strong(expected, desired); });
  }
  T fetch_add(T v, ::std::memory_order o = ::std::memory_order_seq_cst) const { return detail::ordered<S>(o, [&] { return r().fetch_add(v); }); }
  T fetch_sub(T v, ::std::memory_order o = ::std::memory_order_seq_cst) const { return detail::ordered<S>(o, [&] { return r().fetch_sub(v); }); }
  T fetch_and(T v, ::std::memory_order o = ::std::memory_order_seq_cst) const { return detail::ordered<S>(o, [&] { return r().fetch_and(v); }); }
  T fetch_or(T v, ::std::memory_order o = ::std::memory_order_seq_cst) const { return detail::ordered<S>(o, [&] { return r().fetch_or(v); }); }
  T fetch_xor(T v, ::std::memory_order o = ::std::memory_order_seq_cst) const { return detail::ordered<S>(o, [&] { return r().fetch_xor(v); }); }
  T fetch_min(T v, ::std::memory_order o = ::std::memory_order_seq_cst) const { return detail::ordered<S>(o, [&] { return r().fetch_min(v); }); }
  T fetch_max(T v, ::std::memory_order o = ::std::memory_order_seq_cst) const { return detail::ordered<S>(o, [&] { return r().fetch_max(v); }); }
  T operator++() const { return fetch_add(T(1)) + T(1); }
  T operator++(int) const { return fetch_add(T(1)); }
  T operator--() const { return fetch_sub(T(1)) - T(1); }
  T operator--(int) const { return fetch_sub(T(1)); }
  T operator+=(T v) const { return fetch_add(v) + v; }
  T operator-=(T v) const { return fetch_sub(v) - v; }
  T operator&=(T v) const { return fetch_and(v) & v; }
  T operator|=(T v) const { return fetch_or(v) | v; }
  T operator^=(T v) const { return fetch_xor(v) ^ v; }
  static constexpr bool is_always_lock_free = true;
  bool is_lock_free() const { return true; }
};

// cuda::atomic<T, Scope>: an atomic object (trivially constructible, so it can live in
// __shared__ memory as in CUDA).
template <class T, thread_scope S = thread_scope_system> class atomic {
  mutable T v_;
  atomic_ref<T, S> ref() const { return atomic_ref<T, S>(v_); }

public:
  using value_type = T;
  atomic() = default;
  constexpr atomic(T v) : v_(v) {}
  atomic(const atomic &) = delete;
  atomic &operator=(const atomic &) = delete;
  T load(::std::memory_order o = ::std::memory_order_seq_cst) const { return ref().load(o); }
  void store(T v, ::std::memory_order o = ::std::memory_order_seq_cst) { ref().store(v, o); }
  operator T() const { return load(); }
  T operator=(T v) {
    store(v);
    return v;
  }
  T exchange(T v, ::std::memory_order o = ::std::memory_order_seq_cst) { return ref().exchange(v, o); }
  bool compare_exchange_weak(T &e, T d, ::std::memory_order o = ::std::memory_order_seq_cst) { return ref().compare_exchange_weak(e, d, o); }
  bool compare_exchange_weak(T &e, T d, ::std::memory_order s, ::std::memory_order f) { return ref().compare_exchange_weak(e, d, s, f); }
  bool compare_exchange_strong(T &e, T d, ::std::memory_order o = ::std::memory_order_seq_cst) { return ref().compare_exchange_strong(e, d, o); }
  bool compare_exchange_strong(T &e, T d, ::std::memory_order s, ::std::memory_order f) { return ref().compare_exchange_strong(e, d, s, f); }
  T fetch_add(T v, ::std::memory_order o = ::std::memory_order_seq_cst) { return ref().fetch_add(v, o); }
  T fetch_sub(T v, ::std::memory_order o = ::std::memory_order_seq_cst) { return ref().fetch_sub(v, o); }
  T fetch_and(T v, ::std::memory_order o = ::std::memory_order_seq_cst) { return ref().fetch_and(v, o); }
  T fetch_or(T v, ::std::memory_order o = ::std::memory_order_seq_cst) { return ref().fetch_or(v, o); }
  T fetch_xor(T v, ::std::memory_order o = ::std::memory_order_seq_cst) { return ref().fetch_xor(v, o); }
  T fetch_min(T v, ::std::memory_order o = ::std::memory_order_seq_cst) { return ref().fetch_min(v, o); }
  T fetch_max(T v, ::std::memory_order o = ::std::memory_order_seq_cst) { return ref().fetch_max(v, o); }
  T operator++() { return ++ref(); }
  T operator++(int) { return ref()++; }
  T operator--() { return --ref(); }
  T operator--(int) { return ref()--; }
  T operator+=(T v) { return ref() += v; }
  T operator-=(T v) { return ref() -= v; }
  T operator&=(T v) { return ref() &= v; }
  T operator|=(T v) { return ref() |= v; }
  T operator^=(T v) { return ref() ^= v; }
  static constexpr bool is_always_lock_free = true;
  bool is_lock_free() const { return true; }
};

// cuda::atomic_thread_fence(order, scope): a full fence at the scope (syclify::threadfence,
// which AdaptiveCpp needs: it lacks sycl::atomic_fence), at least as strong as any order asks;
// a relaxed fence does nothing, as in C++.
inline void atomic_thread_fence(::std::memory_order o, thread_scope s = thread_scope_system) {
  if (o == ::std::memory_order_relaxed)
    return;
  if (s == thread_scope_system)
    detail::fence<thread_scope_system>();
  else if (s == thread_scope_device)
    detail::fence<thread_scope_device>();
  else
    detail::fence<thread_scope_block>();
}

// cuda::barrier<Scope>: CUDA's split barrier (arrive, then wait for the phase to complete), as
// counters in the barrier object (block scope: in local memory, where `__shared__` put it). The
// last arrival of a phase resets the count and starts the next phase (release); a wait spins
// until the phase it arrived at is over (acquire), so what a thread wrote before arriving is
// visible to every thread after its wait. Any expected count, arrive(n), arrive_and_drop. The
// waits spin: they rely on the work-items of a work-group making progress independently, as
// CUDA's threads do (NVIDIA GPUs since Volta).
template <thread_scope S = thread_scope_system> class barrier {
  int expected_;
  int pending_;
  unsigned phase_;
  template <class T> static detail::aref<T, S> at(T &v) { return detail::aref<T, S>(v); }

public:
  using arrival_token = unsigned;
  barrier() = default;
  explicit barrier(::std::ptrdiff_t expected) : expected_(static_cast<int>(expected)), pending_(static_cast<int>(expected)), phase_(0) {}
  barrier(const barrier &) = delete;
  barrier &operator=(const barrier &) = delete;
  friend void init(barrier *b, ::std::ptrdiff_t expected) {
    b->expected_ = static_cast<int>(expected);
    b->pending_ = static_cast<int>(expected);
    b->phase_ = 0;
  }
  arrival_token arrive(::std::ptrdiff_t update = 1) {
    detail::fence<S>(); // release what this thread wrote
    const unsigned phase = at(phase_).load();
    const int left = at(pending_).fetch_sub(static_cast<int>(update)) - static_cast<int>(update);
    if (left == 0) {
      at(pending_).store(at(expected_).load());
      detail::fence<S>();
      at(phase_).store(phase + 1);
    }
    return phase;
  }
  void wait(arrival_token &&phase) const {
    while (at(const_cast<unsigned &>(phase_)).load() == phase) {
    }
    detail::fence<S>(); // acquire what the others wrote
  }
  void arrive_and_wait() { wait(arrive()); }
  // leaves the barrier: later phases expect one arrival fewer
  void arrive_and_drop() {
    at(expected_).fetch_sub(1);
    arrive();
  }
  static constexpr ::std::ptrdiff_t max() { return 0x7fffffff; }
};

// cuda::aligned_size_t<N>: a size whose alignment the copy may assume.
template <::std::size_t N> struct aligned_size_t {
  ::std::size_t value;
  explicit constexpr aligned_size_t(::std::size_t v) : value(v) {}
  constexpr operator ::std::size_t() const { return value; }
};

// cuda::pipeline<Scope>: stages of copies that producers commit and consumers wait for. The
// copies themselves are synchronous (done when memcpy_async returns). A thread-scope pipeline
// (make_pipeline()) has nothing to wait for. A block-scope pipeline (make_pipeline(group, &state
// [, role or producer count])) keeps CUDA's protocol between its threads with counters in the
// shared state: per stage, the producers' commits and the consumers' releases; consumer_wait
// spins until every producer committed the stage, producer_acquire until every consumer
// released it from its previous round (the spins rely on independent progress, as for
// cuda::barrier).
enum class pipeline_role { producer, consumer };
template <thread_scope S, std::uint8_t Stages = 1> struct pipeline_shared_state {
  unsigned commits[Stages];
  unsigned releases[Stages];
  unsigned producers, consumers;
};
template <thread_scope S> class pipeline {
  unsigned *commits_ = nullptr, *releases_ = nullptr;
  unsigned stages_ = 0, producers_ = 0, consumers_ = 0;
  unsigned head_ = 0, tail_ = 0; // this thread's next stage to produce and to consume
  static detail::aref<unsigned, S> at(unsigned &v) { return detail::aref<unsigned, S>(v); }

public:
  pipeline() = default;
  pipeline(unsigned *commits, unsigned *releases, unsigned stages, unsigned producers, unsigned consumers)
      : commits_(commits), releases_(releases), stages_(stages), producers_(producers), consumers_(consumers) {}
  void producer_acquire() {
    if (!commits_)
      return;
    const unsigned j = head_ % stages_, round = head_ / stages_;
    while (at(releases_[j]).load() < round * consumers_) {
    }
    detail::fence<S>();
  }
  void producer_commit() {
    if (!commits_)
      return;
    detail::fence<S>();
    at(commits_[head_ % stages_]).fetch_add(1u);
    ++head_;
  }
  void consumer_wait() {
    if (!commits_)
      return;
    const unsigned j = tail_ % stages_, round = tail_ / stages_;
    while (at(commits_[j]).load() < (round + 1) * producers_) {
    }
    detail::fence<S>();
  }
  template <class Duration> bool consumer_wait_for(const Duration &) {
    consumer_wait();
    return true;
  }
  void consumer_release() {
    if (!commits_)
      return;
    detail::fence<S>();
    at(releases_[tail_ % stages_]).fetch_add(1u);
    ++tail_;
  }
  bool quit() { return true; }
};
inline pipeline<thread_scope_thread> make_pipeline() { return pipeline<thread_scope_thread>(); }
namespace detail {
// A group's pipeline (collective): the counters zeroed, then each thread counted in its role.
template <class Group, thread_scope S, std::uint8_t N> pipeline<S> group_pipeline(const Group &g, pipeline_shared_state<S, N> *st, int role) {
  if (g.thread_rank() == 0) {
    for (unsigned j = 0; j < N; ++j)
      st->commits[j] = st->releases[j] = 0;
    st->producers = st->consumers = 0;
  }
  g.sync();
  if (role != 1) // producer, or both
    aref<unsigned, S>(st->producers).fetch_add(1u);
  if (role != 0) // consumer, or both
    aref<unsigned, S>(st->consumers).fetch_add(1u);
  g.sync();
  return pipeline<S>(st->commits, st->releases, N, st->producers, st->consumers);
}
} // namespace detail
template <class Group, thread_scope S, std::uint8_t N> pipeline<S> make_pipeline(const Group &g, pipeline_shared_state<S, N> *st) {
  return detail::group_pipeline(g, st, 2);
}
template <class Group, thread_scope S, std::uint8_t N> pipeline<S> make_pipeline(const Group &g, pipeline_shared_state<S, N> *st, pipeline_role role) {
  return detail::group_pipeline(g, st, role == pipeline_role::producer ? 0 : 1);
}
// (the first `producers` threads of the group produce, the others consume)
template <class Group, thread_scope S, std::uint8_t N> pipeline<S> make_pipeline(const Group &g, pipeline_shared_state<S, N> *st, ::std::size_t producers) {
  return detail::group_pipeline(g, st, static_cast<::std::size_t>(g.thread_rank()) < producers ? 0 : 1);
}
template <std::uint8_t Prior, thread_scope S> void pipeline_consumer_wait_prior(pipeline<S> &p) { p.consumer_wait(); }
template <thread_scope S> void pipeline_producer_commit(pipeline<S> &p, barrier<S> &) { p.producer_commit(); }

// cuda::memcpy_async: the copy is made at once. By one thread (dst, src, size, barrier or
// pipeline), or by a group of threads, each copying every group-size'th 4-byte word or byte.
namespace detail {
inline void copy_bytes(void *dst, const void *src, ::std::size_t n, unsigned rank, unsigned count) {
  char *d = static_cast<char *>(dst);
  const char *s = static_cast<const char *>(src);
  if (reinterpret_cast<::std::uintptr_t>(d) % 4 == 0 && reinterpret_cast<::std::uintptr_t>(s) % 4 == 0 && n % 4 == 0) {
    for (::std::size_t i = rank; i < n / 4; i += count)
      reinterpret_cast<unsigned *>(d)[i] = reinterpret_cast<const unsigned *>(s)[i];
    return;
  }
  for (::std::size_t i = rank; i < n; i += count)
    d[i] = s[i];
}
} // namespace detail
template <class Sync> void memcpy_async(void *dst, const void *src, ::std::size_t size, Sync &) { detail::copy_bytes(dst, src, size, 0, 1); }
template <class Group, class Sync, class = decltype(::std::declval<const Group &>().thread_rank())>
void memcpy_async(const Group &g, void *dst, const void *src, ::std::size_t size, Sync &) {
  detail::copy_bytes(dst, src, size, static_cast<unsigned>(g.thread_rank()), static_cast<unsigned>(g.size()));
}
} // namespace cuda

// The pipeline primitives (cuda_pipeline.h): a synchronous copy of `bytes` (4, 8 or 16 in CUDA),
// the rest of the destination up to `bytes` zero-filled when `zero_fill` is given.
inline void pipeline_memcpy_async(void *dst, const void *src, std::size_t bytes, std::size_t zero_fill = 0) {
  char *d = static_cast<char *>(dst);
  const char *s = static_cast<const char *>(src);
  if (zero_fill == 0 && bytes == 16) { // CUDA's sizes, aligned as CUDA asks
    *reinterpret_cast<sycl::int4 *>(d) = *reinterpret_cast<const sycl::int4 *>(s);
    return;
  }
  if (zero_fill == 0 && bytes == 8) {
    *reinterpret_cast<sycl::int2 *>(d) = *reinterpret_cast<const sycl::int2 *>(s);
    return;
  }
  if (zero_fill == 0 && bytes == 4) {
    *reinterpret_cast<int *>(d) = *reinterpret_cast<const int *>(s);
    return;
  }
  const std::size_t copied = bytes - zero_fill;
  for (std::size_t i = 0; i < copied; ++i)
    d[i] = s[i];
  for (std::size_t i = copied; i < bytes; ++i)
    d[i] = 0;
}
inline void pipeline_commit() {}
inline void pipeline_wait_prior(std::size_t) {}
} // namespace syclify
