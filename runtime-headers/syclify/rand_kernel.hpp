// syclify cuRAND device-API helper header — shipped with code migrated from
// CUDA by syclify when that code included curand_kernel.h. Plain SYCL 2020:
// it needs no library and builds with DPC++ and AdaptiveCpp alike.
//
// Philox4x32-10 (curandStatePhilox4_32_10_t) is reproduced exactly: the
// counter-based generator of Salmon et al. (SC'11) with cuRAND's key and
// counter layout, so curand_init(seed, subsequence, offset) gives cuRAND's
// sequence, and the distributions convert its 32-bit draws as cuRAND does
// (uniform floats in (0, 1], Box-Muller normals with the second value kept
// for the next call, doubles from 32 or 53 bits). Normal and log-normal
// values use sycl::native::sin/cos where cuRAND's device code uses
// __sincosf; on NVIDIA GPUs both are the same hardware approximation.
//
// The other device generators (curandState = XORWOW, MRG32k3a) become the
// same Philox generator, seeded with the same arguments: their numbers are
// different from cuRAND's (syclify's note SY0403 says so where they are
// used), their statistics are the same. Sobol and MTGP32 states are not
// migrated.
#pragma once
// what `#ifdef` tests of cuRAND's device API's header guards became (rules/cuda_macros.yaml)
#define SYCLIFY_CURAND_KERNEL 1

#include <sycl/sycl.hpp>

#include "syclify.hpp"

#include <cstdint>

namespace syclify {
namespace rand {

// A Philox4x32-10 generator's state, laid out as cuRAND's (the size of a
// state matters to programs that allocate arrays of states).
struct philox4x32_10_state {
  syclify::uint4 ctr;
  syclify::uint4 output;
  syclify::uint2 key;
  unsigned int index;       // the next word of `output` to hand out
  int box_muller_flag;      // 1: a normal is kept, 2: a log-normal
  int box_muller_flag_double;
  float box_muller_extra;
  double box_muller_extra_double;
};
// curandState (XORWOW) and curandStateMRG32k3a: the Philox generator (see above)
using xorwow_state = philox4x32_10_state;
using mrg32k3a_state = philox4x32_10_state;

namespace detail {

constexpr std::uint32_t philox_m0 = 0xD2511F53u, philox_m1 = 0xCD9E8D57u;
constexpr std::uint32_t philox_w0 = 0x9E3779B9u, philox_w1 = 0xBB67AE85u;
constexpr int extra_normal = 1, extra_log_normal = 2;

inline syclify::uint4 philox_round(syclify::uint4 c, syclify::uint2 k) {
  const std::uint64_t p0 = static_cast<std::uint64_t>(philox_m0) * c.x;
  const std::uint64_t p1 = static_cast<std::uint64_t>(philox_m1) * c.z;
  const std::uint32_t hi0 = static_cast<std::uint32_t>(p0 >> 32), lo0 = static_cast<std::uint32_t>(p0);
  const std::uint32_t hi1 = static_cast<std::uint32_t>(p1 >> 32), lo1 = static_cast<std::uint32_t>(p1);
  return syclify::make_uint4(hi1 ^ c.y ^ k.x, lo1, hi0 ^ c.w ^ k.y, lo0);
}
// ten rounds, the key bumped by the Weyl constants between them
inline syclify::uint4 philox4x32_10(syclify::uint4 c, syclify::uint2 k) {
  for (int round = 0; round < 9; ++round) {
    c = philox_round(c, k);
    k.x += philox_w0;
    k.y += philox_w1;
  }
  return philox_round(c, k);
}
// the 128-bit counter advanced by one block
inline void increment(philox4x32_10_state *s) {
  if (++s->ctr.x)
    return;
  if (++s->ctr.y)
    return;
  if (++s->ctr.z)
    return;
  ++s->ctr.w;
}
// advanced by n blocks (the low 64 bits, carrying into the high ones)
inline void increment(philox4x32_10_state *s, unsigned long long n) {
  const std::uint32_t lo = static_cast<std::uint32_t>(n);
  std::uint32_t hi = static_cast<std::uint32_t>(n >> 32);
  s->ctr.x += lo;
  if (s->ctr.x < lo)
    ++hi;
  s->ctr.y += hi;
  if (hi <= s->ctr.y)
    return;
  if (++s->ctr.z)
    return;
  ++s->ctr.w;
}
// the high 64 bits advanced by n: the start of subsequence n
inline void increment_high(philox4x32_10_state *s, unsigned long long n) {
  const std::uint32_t lo = static_cast<std::uint32_t>(n);
  std::uint32_t hi = static_cast<std::uint32_t>(n >> 32);
  s->ctr.z += lo;
  if (s->ctr.z < lo)
    ++hi;
  s->ctr.w += hi;
}

constexpr float two_pow32_inv = 2.3283064e-10f;
constexpr float two_pow32_inv_2pi = 2.3283064e-10f * 6.2831855f;
constexpr double two_pow32_inv_double = 2.3283064365386963e-10;
constexpr double two_pow53_inv_double = 1.1102230246251565e-16;

inline float uniform_of(std::uint32_t x) { return x * two_pow32_inv + (two_pow32_inv / 2.0f); }

// two normals from two 32-bit draws (Box-Muller)
inline syclify::float2 box_muller(std::uint32_t x, std::uint32_t y) {
  const float u = x * two_pow32_inv + (two_pow32_inv / 2);
  const float v = y * two_pow32_inv_2pi + (two_pow32_inv_2pi / 2);
  const float s = sycl::sqrt(-2.0f * sycl::log(u));
  return syclify::make_float2(sycl::native::sin(v) * s, sycl::native::cos(v) * s);
}
// two double normals from four draws (53 bits each for u and v)
inline syclify::double2 box_muller_double(std::uint32_t x0, std::uint32_t x1, std::uint32_t y0, std::uint32_t y1) {
  const unsigned long long zx = static_cast<unsigned long long>(x0) ^ (static_cast<unsigned long long>(x1) << (53 - 32));
  const double u = zx * two_pow53_inv_double + (two_pow53_inv_double / 2.0);
  const unsigned long long zy = static_cast<unsigned long long>(y0) ^ (static_cast<unsigned long long>(y1) << (53 - 32));
  const double v = zy * (two_pow53_inv_double * 2.0) + two_pow53_inv_double;
  const double s = sycl::sqrt(-2.0 * sycl::log(u));
  return syclify::make_double2(sycl::sinpi(v) * s, sycl::cospi(v) * s);
}

} // namespace detail

// skipahead(n, &state): n draws further
inline void skipahead(unsigned long long n, philox4x32_10_state *s) {
  s->index += static_cast<unsigned int>(n & 3);
  n /= 4;
  if (s->index > 3) {
    n += 1;
    s->index -= 4;
  }
  detail::increment(s, n);
  s->output = detail::philox4x32_10(s->ctr, s->key);
}
// skipahead_sequence(n, &state): n subsequences (of 2^66 draws each) further
inline void skipahead_sequence(unsigned long long n, philox4x32_10_state *s) {
  detail::increment_high(s, n);
  s->output = detail::philox4x32_10(s->ctr, s->key);
}

// curand_init(seed, subsequence, offset, &state)
inline void init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset, philox4x32_10_state *s) {
  s->ctr = syclify::make_uint4(0, 0, 0, 0);
  s->key.x = static_cast<unsigned int>(seed);
  s->key.y = static_cast<unsigned int>(seed >> 32);
  s->index = 0;
  s->box_muller_flag = 0;
  s->box_muller_flag_double = 0;
  s->box_muller_extra = 0.0f;
  s->box_muller_extra_double = 0.0;
  skipahead_sequence(subsequence, s);
  skipahead(offset, s);
}

// curand(&state): the next 32 random bits
inline unsigned int generate(philox4x32_10_state *s) {
  unsigned int r;
  switch (s->index++) {
  case 0: r = s->output.x; break;
  case 1: r = s->output.y; break;
  case 2: r = s->output.z; break;
  default: r = s->output.w; break;
  }
  if (s->index == 4) {
    detail::increment(s);
    s->output = detail::philox4x32_10(s->ctr, s->key);
    s->index = 0;
  }
  return r;
}
// curand4(&state): the next four words
inline syclify::uint4 generate4(philox4x32_10_state *s) {
  const syclify::uint4 t = s->output;
  detail::increment(s);
  s->output = detail::philox4x32_10(s->ctr, s->key);
  switch (s->index) {
  case 1: return syclify::make_uint4(t.y, t.z, t.w, s->output.x);
  case 2: return syclify::make_uint4(t.z, t.w, s->output.x, s->output.y);
  case 3: return syclify::make_uint4(t.w, s->output.x, s->output.y, s->output.z);
  default: return t;
  }
}

// curand_uniform: a float in (0, 1]
inline float uniform(philox4x32_10_state *s) { return detail::uniform_of(generate(s)); }
// curand_uniform4
inline syclify::float4 uniform4(philox4x32_10_state *s) {
  const syclify::uint4 x = generate4(s);
  return syclify::make_float4(detail::uniform_of(x.x), detail::uniform_of(x.y), detail::uniform_of(x.z), detail::uniform_of(x.w));
}
// curand_uniform_double: a double in (0, 1], from one 32-bit draw (as cuRAND's Philox)
inline double uniform_double(philox4x32_10_state *s) { return generate(s) * detail::two_pow32_inv_double + detail::two_pow32_inv_double; }
// curand_uniform2_double: two doubles with 53 random bits each
inline syclify::double2 uniform2_double(philox4x32_10_state *s) {
  const syclify::uint4 x = generate4(s);
  const auto hq = [](std::uint32_t a, std::uint32_t b) {
    const unsigned long long z = static_cast<unsigned long long>(a) ^ (static_cast<unsigned long long>(b) << (53 - 32));
    return z * detail::two_pow53_inv_double + (detail::two_pow53_inv_double / 2.0);
  };
  return syclify::make_double2(hq(x.x, x.y), hq(x.z, x.w));
}

// curand_normal: standard normal; each pair of draws gives two values, the
// second kept for the next call
inline float normal(philox4x32_10_state *s) {
  if (s->box_muller_flag != detail::extra_normal) {
    const unsigned int x = generate(s), y = generate(s);
    const syclify::float2 v = detail::box_muller(x, y);
    s->box_muller_extra = v.y;
    s->box_muller_flag = detail::extra_normal;
    return v.x;
  }
  s->box_muller_flag = 0;
  return s->box_muller_extra;
}
// curand_normal2
inline syclify::float2 normal2(philox4x32_10_state *s) {
  const unsigned int x = generate(s), y = generate(s);
  return detail::box_muller(x, y);
}
// curand_normal4
inline syclify::float4 normal4(philox4x32_10_state *s) {
  const syclify::uint4 x = generate4(s);
  const syclify::float2 a = detail::box_muller(x.x, x.y), b = detail::box_muller(x.z, x.w);
  return syclify::make_float4(a.x, a.y, b.x, b.y);
}
// curand_normal_double
inline double normal_double(philox4x32_10_state *s) {
  if (s->box_muller_flag_double != detail::extra_normal) {
    const syclify::uint4 x = generate4(s);
    const syclify::double2 v = detail::box_muller_double(x.x, x.y, x.z, x.w);
    s->box_muller_extra_double = v.y;
    s->box_muller_flag_double = detail::extra_normal;
    return v.x;
  }
  s->box_muller_flag_double = 0;
  return s->box_muller_extra_double;
}
// curand_normal2_double
inline syclify::double2 normal2_double(philox4x32_10_state *s) {
  const syclify::uint4 x = generate4(s);
  return detail::box_muller_double(x.x, x.y, x.z, x.w);
}
// curand_log_normal: exp of a normal of the given mean and deviation
inline float log_normal(philox4x32_10_state *s, float mean, float stddev) {
  if (s->box_muller_flag != detail::extra_log_normal) {
    const unsigned int x = generate(s), y = generate(s);
    const syclify::float2 v = detail::box_muller(x, y);
    s->box_muller_extra = sycl::exp(mean + stddev * v.y);
    s->box_muller_flag = detail::extra_log_normal;
    return sycl::exp(mean + stddev * v.x);
  }
  s->box_muller_flag = 0;
  return s->box_muller_extra;
}
// curand_log_normal_double
inline double log_normal_double(philox4x32_10_state *s, double mean, double stddev) {
  if (s->box_muller_flag_double != detail::extra_log_normal) {
    const syclify::uint4 x = generate4(s);
    const syclify::double2 v = detail::box_muller_double(x.x, x.y, x.z, x.w);
    s->box_muller_extra_double = sycl::exp(mean + stddev * v.y);
    s->box_muller_flag_double = detail::extra_log_normal;
    return sycl::exp(mean + stddev * v.x);
  }
  s->box_muller_flag_double = 0;
  return s->box_muller_extra_double;
}
// curand_poisson: a Poisson draw of mean lambda. Knuth's product of
// uniforms for small means, the normal approximation (rounded, clamped at
// 0) above 64: the distribution is Poisson's, the numbers are not cuRAND's.
inline unsigned int poisson(philox4x32_10_state *s, double lambda) {
  if (lambda > 64.0) {
    const double x = lambda + sycl::sqrt(lambda) * normal_double(s) + 0.5;
    return x <= 0.0 ? 0u : static_cast<unsigned int>(x);
  }
  const double limit = sycl::exp(-lambda);
  unsigned int k = 0;
  double p = uniform_double(s);
  while (p > limit) {
    ++k;
    p *= uniform_double(s);
  }
  return k;
}

} // namespace rand
} // namespace syclify
