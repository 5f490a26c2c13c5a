// syclify cuRAND (host API) helper header — shipped with code migrated from
// CUDA by syclify when that code used cuRAND's host API (curand.h). A
// generator becomes an object holding a oneMKL RNG engine (the USM API,
// oneapi/mkl/rng.hpp) on the queue of its stream; the cuRAND calls become the
// helpers of the same operation (`curandGenerateUniform` →
// `syclify::rand::generate_uniform`), returning cuRAND's status codes.
//
// Needs oneMKL's SYCL interfaces: Intel oneMKL, or the open-source oneMath
// with its cuRAND backend on NVIDIA GPUs (DPC++ or AdaptiveCpp;
// math_backend.hpp says which is chosen). oneMath has two engines,
// philox4x32x10 and mrg32k3a: there MT19937 and MTGP32 generators become
// philox4x32x10 too, and Sobol generators report CURAND_STATUS_TYPE_ERROR at
// their first generation. Where the library has no Poisson distribution
// (oneMath's cuRAND backend), Poisson numbers come from syclify's own
// kernel over the counter-based Philox generator of rand_kernel.hpp (seeded
// with the generator's seed and offset; numbers differ from the library's).
//
// The numbers are not cuRAND's: the engines are oneMKL's, whose sequences
// differ from cuRAND's for the same seed (XORWOW, cuRAND's default, has no
// oneMKL counterpart and becomes philox4x32x10; MRG32k3a, Philox4x32-10,
// MT19937 and Sobol keep their algorithm but not cuRAND's seeding and
// ordering of substreams). Uniform numbers are in [0, 1) where cuRAND's are
// in (0, 1]. Programs that check statistics, not exact values, keep working.
#pragma once
// what `#ifdef` tests of cuRAND's header guards became (rules/cuda_macros.yaml)
#define SYCLIFY_CURAND 1

#include <sycl/sycl.hpp>

#include "syclify.hpp"

#include "math_backend.hpp"
#include "rand_kernel.hpp"
#ifdef SYCLIFY_ONEMATH
#include <oneapi/math/rng.hpp>
#else
#include <oneapi/mkl/rng.hpp>
#endif

#include <cstdint>
#include <memory>
#include <variant>

namespace syclify {
namespace rand {

namespace mrng = syclify::math_library::rng;

enum status_t : int {
  status_success = 0,
  status_version_mismatch = 100,
  status_not_initialized = 101,
  status_allocation_failed = 102,
  status_type_error = 103,
  status_out_of_range = 104,
  status_length_not_multiple = 105,
  status_double_precision_required = 106,
  status_launch_failure = 201,
  status_preexisting_failure = 202,
  status_initialization_failed = 203,
  status_arch_mismatch = 204,
  status_internal_error = 999,
};

enum rng_type_t {
  rng_pseudo_default = 100,
  rng_pseudo_xorwow = 101,
  rng_pseudo_mrg32k3a = 121,
  rng_pseudo_mtgp32 = 141,
  rng_pseudo_mt19937 = 142,
  rng_pseudo_philox4_32_10 = 161,
  rng_quasi_default = 200,
  rng_quasi_sobol32 = 201,
};
enum ordering_t { ordering_pseudo_best = 100, ordering_pseudo_default = 101, ordering_pseudo_seeded = 102, ordering_quasi_default = 201 };

struct generator {
  rng_type_t type;
  std::uint64_t seed = 0;
  std::uint64_t offset = 0;
  std::uint32_t dimensions = 1;
  stream_t stream = nullptr;
  // made at the first generation after a change of seed, offset or stream
#ifdef SYCLIFY_ONEMATH
  std::variant<std::monostate, mrng::philox4x32x10, mrng::mrg32k3a> engine;
#else
  std::variant<std::monostate, mrng::philox4x32x10, mrng::mrg32k3a, mrng::mt19937, mrng::sobol> engine;
#endif
  bool fresh = false;
  // Poisson numbers drawn by syclify's own kernel so far (its Philox
  // subsequences), where the library has no Poisson distribution
  std::uint64_t own_poisson_draws = 0;
};
using generator_t = generator *;

inline status_t create_generator(generator_t *g, rng_type_t type) {
  *g = new generator{type};
  return status_success;
}
// cuRAND's host-side generator: the same, generating on the host's queue here
inline status_t create_generator_host(generator_t *g, rng_type_t type) { return create_generator(g, type); }
inline status_t destroy_generator(generator_t g) {
  if (g)
    queue_of(g->stream).wait();
  delete g;
  return status_success;
}
inline status_t set_stream(generator_t g, stream_t s) {
  g->stream = s;
  g->fresh = false;
  return status_success;
}
inline status_t set_pseudo_random_generator_seed(generator_t g, unsigned long long seed) {
  g->seed = seed;
  g->fresh = false;
  g->own_poisson_draws = 0;
  return status_success;
}
inline status_t set_generator_offset(generator_t g, unsigned long long offset) {
  g->offset = offset;
  g->fresh = false;
  g->own_poisson_draws = 0;
  return status_success;
}
// substream ordering chooses among cuRAND's layouts of its output: no oneMKL counterpart
inline status_t set_generator_ordering(generator_t, ordering_t) { return status_success; }
inline status_t set_quasi_random_generator_dimensions(generator_t g, unsigned int d) {
  g->dimensions = d;
  g->fresh = false;
  return status_success;
}
inline status_t get_version(int *v) {
  *v = 10300; // the cuRAND API level these helpers follow
  return status_success;
}

namespace detail {
// a generator the library has no engine for (Sobol with oneMath)
struct unsupported_engine : std::exception {
  const char *what() const noexcept override { return "syclify::rand: no engine for this generator type in oneMath"; }
};
inline void make_engine(generator_t g) {
  if (g->fresh)
    return;
  sycl::queue &q = queue_of(g->stream);
  switch (g->type) {
  case rng_pseudo_mrg32k3a: g->engine.emplace<mrng::mrg32k3a>(q, static_cast<std::uint32_t>(g->seed)); break;
#ifdef SYCLIFY_ONEMATH
  case rng_quasi_default:
  case rng_quasi_sobol32: throw unsupported_engine();
#else
  case rng_pseudo_mt19937:
  case rng_pseudo_mtgp32: g->engine.emplace<mrng::mt19937>(q, static_cast<std::uint32_t>(g->seed)); break;
  case rng_quasi_default:
  case rng_quasi_sobol32: g->engine.emplace<mrng::sobol>(q, g->dimensions); break;
#endif
  default: g->engine.emplace<mrng::philox4x32x10>(q, g->seed); break;
  }
  if (g->offset)
    std::visit(
        [&](auto &e) {
          if constexpr (!std::is_same_v<std::decay_t<decltype(e)>, std::monostate>)
            mrng::skip_ahead(e, g->offset);
        },
        g->engine);
  g->fresh = true;
}
template <class Distr, class T> status_t generate(generator_t g, const Distr &d, T *out, std::size_t n) {
  try {
    make_engine(g);
    std::visit(
        [&](auto &e) {
          if constexpr (!std::is_same_v<std::decay_t<decltype(e)>, std::monostate>)
            mrng::generate(d, e, static_cast<std::int64_t>(n), out);
        },
        g->engine);
    return status_success;
  } catch (const unsupported_engine &) {
    return status_type_error;
  } catch (const syclify::math_library::invalid_argument &) {
    return status_out_of_range;
  } catch (const std::exception &) {
    return status_launch_failure;
  }
}
} // namespace detail

// curandGenerate: 32 random bits each (oneMKL's uniform_bits) from Philox and
// MT19937; the engine's own 32-bit outputs (oneMKL's bits) from MRG32k3a and
// Sobol, as cuRAND gives them (oneMath has only bits: Philox's outputs are
// 32 uniform bits each)
inline status_t generate(generator_t g, unsigned int *out, std::size_t n) {
#ifdef SYCLIFY_ONEMATH
  return detail::generate(g, mrng::bits<std::uint32_t>(), out, n);
#else
  switch (g->type) {
  case rng_pseudo_mrg32k3a:
  case rng_quasi_default:
  case rng_quasi_sobol32: return detail::generate(g, mrng::bits<std::uint32_t>(), out, n);
  default: return detail::generate(g, mrng::uniform_bits<std::uint32_t>(), out, n);
  }
#endif
}
inline status_t generate_uniform(generator_t g, float *out, std::size_t n) { return detail::generate(g, mrng::uniform<float>(0.0f, 1.0f), out, n); }
inline status_t generate_uniform_double(generator_t g, double *out, std::size_t n) {
  return detail::generate(g, mrng::uniform<double>(0.0, 1.0), out, n);
}
inline status_t generate_normal(generator_t g, float *out, std::size_t n, float mean, float stddev) {
  return detail::generate(g, mrng::gaussian<float>(mean, stddev), out, n);
}
inline status_t generate_normal_double(generator_t g, double *out, std::size_t n, double mean, double stddev) {
  return detail::generate(g, mrng::gaussian<double>(mean, stddev), out, n);
}
inline status_t generate_log_normal(generator_t g, float *out, std::size_t n, float mean, float stddev) {
  return detail::generate(g, mrng::lognormal<float>(mean, stddev), out, n);
}
inline status_t generate_log_normal_double(generator_t g, double *out, std::size_t n, double mean, double stddev) {
  return detail::generate(g, mrng::lognormal<double>(mean, stddev), out, n);
}
namespace detail {
// Poisson numbers from syclify's Philox kernel: number i of this call is
// drawn from subsequence (draws so far + i) of the generator's seed
inline status_t own_poisson(generator_t g, unsigned int *out, std::size_t n, double lambda) {
  try {
    const std::uint64_t seed = g->seed, offset = g->offset, first = g->own_poisson_draws;
    queue_of(g->stream).parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) {
      philox4x32_10_state s;
      syclify::rand::init(seed, first + i[0], offset, &s);
      out[i[0]] = syclify::rand::poisson(&s, lambda);
    });
    g->own_poisson_draws += n;
    return status_success;
  } catch (const std::exception &) {
    return status_launch_failure;
  }
}
} // namespace detail

// curandGeneratePoisson: the library's Poisson distribution; syclify's own
// kernel where the library has none (oneMath)
inline status_t generate_poisson(generator_t g, unsigned int *out, std::size_t n, double lambda) {
  if (lambda <= 0.0)
    return status_out_of_range;
#ifdef SYCLIFY_ONEMATH
  return detail::own_poisson(g, out, n, lambda);
#else
  return detail::generate(g, mrng::poisson<std::uint32_t>(lambda), out, n);
#endif
}

} // namespace rand
} // namespace syclify
