// syclify cuFFT helper header — shipped with code migrated from CUDA by
// syclify when that code used cuFFT. Each cuFFT call becomes a call of the
// helper of the same operation (`cufftExecC2C` → `syclify::fft::exec_c2c`),
// which runs oneMKL's DFT (oneapi::mkl::dft, the USM API) on the plan's queue.
//
// Needs oneMKL's SYCL interfaces (`oneapi/mkl.hpp`: Intel oneMKL, or the
// open-source oneMath with its cuFFT backend on NVIDIA GPUs).
//
// How cuFFT's model maps:
//   * a plan (cufftHandle, an int) names an entry of a registry here: its
//     type, sizes, batch and layout (cuFFT's basic layout, or the advanced
//     one of cufftPlanMany's inembed/stride/dist), and the stream it runs on;
//   * oneMKL descriptors are made and committed when a plan first executes
//     in a placement (in place when input and output are the same pointer,
//     as cuFFT decides) and direction, and again after cufftSetStream;
//   * transforms are unnormalised both ways, as cuFFT's (oneMKL's default
//     scales are 1); CUFFT_FORWARD is oneMKL's forward (exponent -1);
//   * real transforms keep cuFFT's layouts: n/2+1 complex values on the last
//     dimension, and real rows padded to 2(n/2+1) values in place;
//   * work areas: oneMKL manages its own; cuFFT's size queries report 0
//     bytes and a work area given by cufftSetWorkArea is not used;
//   * status codes keep working like the runtime API's error codes (every
//     helper returns a result_t; CUFFT_SUCCESS is 0).
#pragma once
// what `#ifdef` tests of cuFFT's header guards became (rules/cuda_macros.yaml)
#define SYCLIFY_CUFFT 1

#include <sycl/sycl.hpp>

#include "syclify.hpp"

// the DFT domain, not <oneapi/mkl.hpp>, whose C API (mkl.h) would add global
// names that collide with programs'
#include <oneapi/mkl/dft.hpp>
#include <oneapi/mkl/exceptions.hpp>

#include <complex>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace syclify {
namespace fft {

namespace mkl = oneapi::mkl;

// ---------------------------------------------------------------------------
// Results, types, directions (cuFFT's values)
// ---------------------------------------------------------------------------

enum result_t : int {
  success = 0x0,
  invalid_plan = 0x1,
  alloc_failed = 0x2,
  invalid_type = 0x3,
  invalid_value = 0x4,
  internal_error = 0x5,
  exec_failed = 0x6,
  setup_failed = 0x7,
  invalid_size = 0x8,
  unaligned_data = 0x9,
  invalid_device = 0xB,
  no_workspace = 0xD,
  not_implemented = 0xE,
  not_supported = 0x10,
  missing_dependency = 0x11,
  nvrtc_failure = 0x12,
  nvjitlink_failure = 0x13,
  nvshmem_failure = 0x14,
};

enum type_t { r2c = 0x2a, c2r = 0x2c, c2c = 0x29, d2z = 0x6a, z2d = 0x6c, z2z = 0x69 };
constexpr int forward = -1;
constexpr int inverse = 1;

using handle_t = int;

namespace detail {

inline bool is_double(type_t t) { return t == d2z || t == z2d || t == z2z; }
inline bool is_real(type_t t) { return t != c2c && t != z2z; }

// one layout: strides (oneMKL's form: the offset, then one per dimension)
// and the distance between batches
struct layout {
  std::vector<std::int64_t> strides;
  std::int64_t distance;
};

// a committed oneMKL descriptor, of whichever precision and domain
struct committed {
  std::shared_ptr<void> descriptor;
  bool in_place;
  bool forward_is_input; // the forward domain's layout is the input's
};

struct plan {
  bool made = false;
  type_t type = c2c;
  std::vector<std::int64_t> n;
  std::int64_t batch = 1;
  bool advanced = false;
  std::vector<std::int64_t> inembed, onembed;
  std::int64_t istride = 1, idist = 0, ostride = 1, odist = 0;
  stream_t stream = nullptr;
  std::vector<committed> descriptors;
};

struct registry {
  std::mutex lock;
  std::map<handle_t, plan> plans;
  handle_t next = 1;
  static registry &get() {
    static registry r;
    return r;
  }
};

template <class F> result_t guarded(F &&f) {
  try {
    return f();
  } catch (const mkl::invalid_argument &) {
    return invalid_value;
  } catch (const mkl::unimplemented &) {
    return not_implemented;
  } catch (const mkl::unsupported_device &) {
    return not_supported;
  } catch (const std::bad_alloc &) {
    return alloc_failed;
  } catch (const std::exception &) {
    return exec_failed;
  }
}

// runs f on the plan, under the registry's lock; an unknown handle is invalid_plan
template <class F> result_t with_plan(handle_t h, F &&f) {
  registry &r = registry::get();
  std::lock_guard<std::mutex> g(r.lock);
  auto it = r.plans.find(h);
  if (it == r.plans.end())
    return invalid_plan;
  return guarded([&] { return f(it->second); });
}

// cuFFT's layout of one side of a transform. `complex_side`: the side that
// holds complex values of a real transform (its last dimension is n/2+1);
// `padded`: the real side of an in-place real transform.
inline layout basic_layout(const plan &p, bool complex_side, bool padded) {
  std::vector<std::int64_t> dims = p.n;
  if (is_real(p.type)) {
    const std::int64_t last = p.n.back() / 2 + 1;
    if (complex_side)
      dims.back() = last;
    else if (padded)
      dims.back() = 2 * last;
  }
  layout l{std::vector<std::int64_t>(dims.size() + 1), 1};
  l.strides[0] = 0;
  for (std::size_t d = dims.size(); d-- > 0;) {
    l.strides[d + 1] = l.distance;
    l.distance *= dims[d];
  }
  return l;
}
// the advanced layout of cufftPlanMany: element (x, y, z) of batch b at
// b * dist + ((x * embed[1] + y) * embed[2] + z) * stride
inline layout advanced_layout(const std::vector<std::int64_t> &embed, std::int64_t stride, std::int64_t dist) {
  layout l{std::vector<std::int64_t>(embed.size() + 1), dist};
  l.strides[0] = 0;
  std::int64_t s = stride;
  for (std::size_t d = embed.size(); d-- > 0;) {
    l.strides[d + 1] = s;
    s *= embed[d];
  }
  return l;
}
inline layout input_layout(const plan &p, bool in_place) {
  if (p.advanced)
    return advanced_layout(p.inembed, p.istride, p.idist);
  const bool complex_side = p.type == c2r || p.type == z2d;
  return basic_layout(p, complex_side, in_place && !complex_side);
}
inline layout output_layout(const plan &p, bool in_place) {
  if (p.advanced)
    return advanced_layout(p.onembed, p.ostride, p.odist);
  const bool complex_side = p.type == r2c || p.type == d2z;
  return basic_layout(p, complex_side, in_place && !complex_side);
}

template <mkl::dft::precision P, mkl::dft::domain D> using descriptor_t = mkl::dft::descriptor<P, D>;

// the committed descriptor for this placement and assignment of layouts
template <mkl::dft::precision P, mkl::dft::domain D> descriptor_t<P, D> &descriptor_for(plan &p, bool in_place, bool forward_is_input) {
  for (committed &c : p.descriptors)
    if (c.in_place == in_place && c.forward_is_input == forward_is_input)
      return *static_cast<descriptor_t<P, D> *>(c.descriptor.get());
  auto d = std::make_shared<descriptor_t<P, D>>(p.n);
  const layout in = input_layout(p, in_place), out = output_layout(p, in_place);
  const layout &fwd = forward_is_input ? in : out, &bwd = forward_is_input ? out : in;
  d->set_value(mkl::dft::config_param::NUMBER_OF_TRANSFORMS, p.batch);
  d->set_value(mkl::dft::config_param::PLACEMENT, in_place ? mkl::dft::config_value::INPLACE : mkl::dft::config_value::NOT_INPLACE);
  d->set_value(mkl::dft::config_param::FWD_STRIDES, fwd.strides);
  d->set_value(mkl::dft::config_param::BWD_STRIDES, bwd.strides);
  d->set_value(mkl::dft::config_param::FWD_DISTANCE, fwd.distance);
  d->set_value(mkl::dft::config_param::BWD_DISTANCE, bwd.distance);
  if constexpr (D == mkl::dft::domain::REAL)
    d->set_value(mkl::dft::config_param::COMPLEX_STORAGE, mkl::dft::config_value::COMPLEX_COMPLEX);
  d->commit(queue_of(p.stream));
  p.descriptors.push_back({d, in_place, forward_is_input});
  return *d;
}

// a transform of plan h: forward (input in the forward domain) or backward
template <mkl::dft::precision P, mkl::dft::domain D, class In, class Out> result_t execute(handle_t h, type_t expected, In *in, Out *out, bool fwd) {
  return with_plan(h, [&](plan &p) {
    if (!p.made)
      return invalid_plan;
    if (p.type != expected)
      return invalid_type;
    const bool in_place = static_cast<const void *>(in) == static_cast<const void *>(out);
    auto &d = descriptor_for<P, D>(p, in_place, fwd);
    if (in_place) {
      if (fwd)
        mkl::dft::compute_forward(d, in);
      else
        mkl::dft::compute_backward(d, in);
    } else {
      if (fwd)
        mkl::dft::compute_forward(d, in, out);
      else
        mkl::dft::compute_backward(d, in, out);
    }
    return success;
  });
}

} // namespace detail

// ---------------------------------------------------------------------------
// Plans
// ---------------------------------------------------------------------------

// cufftCreate: a plan handle, not made yet
inline result_t create(handle_t *h) {
  detail::registry &r = detail::registry::get();
  std::lock_guard<std::mutex> g(r.lock);
  *h = r.next++;
  r.plans[*h];
  return success;
}
// cufftDestroy
inline result_t destroy(handle_t h) {
  detail::registry &r = detail::registry::get();
  std::lock_guard<std::mutex> g(r.lock);
  auto it = r.plans.find(h);
  if (it == r.plans.end())
    return invalid_plan;
  queue_of(it->second.stream).wait();
  r.plans.erase(it);
  return success;
}
// cufftSetStream: later transforms run on the stream's queue
inline result_t set_stream(handle_t h, stream_t s) {
  return detail::with_plan(h, [&](detail::plan &p) {
    if (p.stream != s)
      p.descriptors.clear();
    p.stream = s;
    return success;
  });
}

// cufftMakePlanMany (and the 1-D/2-D/3-D forms through it)
inline result_t make_plan_many(handle_t h, int rank, const int *n, const int *inembed, int istride, int idist, const int *onembed, int ostride,
                               int odist, type_t type, int batch, std::size_t *work_size = nullptr) {
  if (rank < 1 || rank > 3 || batch < 1)
    return invalid_value;
  for (int d = 0; d < rank; ++d)
    if (n[d] < 1)
      return invalid_size;
  return detail::with_plan(h, [&](detail::plan &p) {
    p.type = type;
    p.n.assign(n, n + rank);
    p.batch = batch;
    p.advanced = inembed && onembed;
    if (p.advanced) {
      p.inembed.assign(inembed, inembed + rank);
      p.onembed.assign(onembed, onembed + rank);
      p.istride = istride, p.idist = idist, p.ostride = ostride, p.odist = odist;
    }
    p.descriptors.clear();
    p.made = true;
    if (work_size)
      *work_size = 0;
    return success;
  });
}
inline result_t make_plan_1d(handle_t h, int nx, type_t type, int batch, std::size_t *work_size = nullptr) {
  return make_plan_many(h, 1, &nx, nullptr, 1, 0, nullptr, 1, 0, type, batch, work_size);
}
inline result_t make_plan_2d(handle_t h, int nx, int ny, type_t type, std::size_t *work_size = nullptr) {
  const int n[2] = {nx, ny};
  return make_plan_many(h, 2, n, nullptr, 1, 0, nullptr, 1, 0, type, 1, work_size);
}
inline result_t make_plan_3d(handle_t h, int nx, int ny, int nz, type_t type, std::size_t *work_size = nullptr) {
  const int n[3] = {nx, ny, nz};
  return make_plan_many(h, 3, n, nullptr, 1, 0, nullptr, 1, 0, type, 1, work_size);
}
// cufftPlan1d/2d/3d/Many: create and make in one call
inline result_t plan_many(handle_t *h, int rank, const int *n, const int *inembed, int istride, int idist, const int *onembed, int ostride, int odist,
                          type_t type, int batch) {
  result_t r = create(h);
  if (r == success)
    r = make_plan_many(*h, rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch);
  if (r != success)
    destroy(*h);
  return r;
}
inline result_t plan_1d(handle_t *h, int nx, type_t type, int batch) { return plan_many(h, 1, &nx, nullptr, 1, 0, nullptr, 1, 0, type, batch); }
inline result_t plan_2d(handle_t *h, int nx, int ny, type_t type) {
  const int n[2] = {nx, ny};
  return plan_many(h, 2, n, nullptr, 1, 0, nullptr, 1, 0, type, 1);
}
inline result_t plan_3d(handle_t *h, int nx, int ny, int nz, type_t type) {
  const int n[3] = {nx, ny, nz};
  return plan_many(h, 3, n, nullptr, 1, 0, nullptr, 1, 0, type, 1);
}

// work areas: oneMKL allocates its own, so every size is 0 and a given work
// area is not used (cufftGetSize*, cufftEstimate*, cufftSetWorkArea,
// cufftSetAutoAllocation)
inline result_t no_work_area(std::size_t *work_size) {
  if (work_size)
    *work_size = 0;
  return success;
}
inline result_t set_work_area(handle_t h, void *) {
  return detail::with_plan(h, [](detail::plan &) { return success; });
}
inline result_t set_auto_allocation(handle_t h, int) {
  return detail::with_plan(h, [](detail::plan &) { return success; });
}
inline result_t get_version(int *v) {
  *v = 12000; // the cuFFT API level these helpers follow
  return success;
}

// ---------------------------------------------------------------------------
// Transforms (in place when input and output are the same pointer)
// ---------------------------------------------------------------------------

// cufftExecC2C / cufftExecZ2Z: direction CUFFT_FORWARD (-1) or CUFFT_INVERSE (+1)
inline result_t exec_c2c(handle_t h, syclify::float2 *in, syclify::float2 *out, int direction) {
  using C = std::complex<float>;
  return detail::execute<mkl::dft::precision::SINGLE, mkl::dft::domain::COMPLEX>(h, c2c, reinterpret_cast<C *>(in), reinterpret_cast<C *>(out),
                                                                                 direction == forward);
}
inline result_t exec_z2z(handle_t h, syclify::double2 *in, syclify::double2 *out, int direction) {
  using C = std::complex<double>;
  return detail::execute<mkl::dft::precision::DOUBLE, mkl::dft::domain::COMPLEX>(h, z2z, reinterpret_cast<C *>(in), reinterpret_cast<C *>(out),
                                                                                 direction == forward);
}
// cufftExecR2C / D2Z: real to complex (forward)
inline result_t exec_r2c(handle_t h, float *in, syclify::float2 *out) {
  return detail::execute<mkl::dft::precision::SINGLE, mkl::dft::domain::REAL>(h, r2c, in, reinterpret_cast<std::complex<float> *>(out), true);
}
inline result_t exec_d2z(handle_t h, double *in, syclify::double2 *out) {
  return detail::execute<mkl::dft::precision::DOUBLE, mkl::dft::domain::REAL>(h, d2z, in, reinterpret_cast<std::complex<double> *>(out), true);
}
// cufftExecC2R / Z2D: complex to real (backward)
inline result_t exec_c2r(handle_t h, syclify::float2 *in, float *out) {
  return detail::execute<mkl::dft::precision::SINGLE, mkl::dft::domain::REAL>(h, c2r, reinterpret_cast<std::complex<float> *>(in), out, false);
}
inline result_t exec_z2d(handle_t h, syclify::double2 *in, double *out) {
  return detail::execute<mkl::dft::precision::DOUBLE, mkl::dft::domain::REAL>(h, z2d, reinterpret_cast<std::complex<double> *>(in), out, false);
}

} // namespace fft
} // namespace syclify
