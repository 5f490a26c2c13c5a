// syclify cuSOLVER helper header — shipped with code migrated from CUDA by
// syclify when that code used cuSOLVER's dense API (cusolverDn.h). Each
// cuSOLVER call becomes a call of the helper of the same operation
// (`cusolverDnDgetrf` → `syclify::solver::getrf`), which calls oneMKL's
// LAPACK (the USM API; column-major, as cuSOLVER) on the handle's queue.
//
// Needs oneMKL's SYCL LAPACK: Intel oneMKL (`oneapi/mkl.hpp`), or the
// open-source oneMath (`oneapi/math.hpp`; its cuSOLVER backend builds with
// DPC++ only), chosen as for cuBLAS (math_backend.hpp).
//
// How cuSOLVER's model maps:
//   * a handle (cusolverDnHandle_t) holds the queue of its stream
//     (cusolverDnSetStream); cusolverDnParams_t and the Jacobi info objects
//     (syevjInfo_t, gesvdjInfo_t) record their settings;
//   * every helper returns a status_t with cuSOLVER's values;
//   * workspace sizes: the legacy `_bufferSize` calls give oneMKL's
//     scratchpad size in elements, as cuSOLVER's `lwork`; the 64-bit API's
//     give it in bytes on the device and 0 bytes on the host. A call uses the
//     workspace it is given when it is large enough, else a temporary one;
//   * `info` (device memory): 0 on success; i > 0 where oneMKL reports a
//     computation error with info i (a singular U(i,i) in getrf, a leading
//     minor that is not positive definite in potrf, unconverged values in
//     gesvd/syevd), as cuSOLVER; -i for an invalid i-th argument (oneMKL
//     counts its own arguments: the queue is the first);
//   * 32-bit pivots (the legacy API) are converted from oneMKL's 64-bit
//     ones; the 64-bit API's pivots are oneMKL's as they are;
//   * cuSOLVER's calls are asynchronous; these wait for the device before
//     they return, so that oneMKL's errors reach `info` (SY0403 at the call
//     says so where it matters);
//   * the Jacobi methods (syevj, sygvj, gesvdj) are computed by the
//     divide-and-conquer and QR methods of oneMKL (syevd, sygvd, gesvd):
//     the same eigenvalues and singular values to rounding, vectors up to
//     sign; their tolerance and sweep count are recorded but not used, and
//     the residual and sweeps they report are 0;
//   * cuComplex/cuDoubleComplex (syclify::float2/double2 after migration)
//     are passed to oneMKL as std::complex, whose layout they share.
#pragma once
// what `#ifdef` tests of cuSOLVER's header guards became (rules/cuda_macros.yaml)
#define SYCLIFY_CUSOLVER 1

#include <sycl/sycl.hpp>

#include "syclify.hpp"
#include "blas.hpp"

#include <algorithm>
#include <climits>
#include <complex>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace syclify {
namespace solver {

namespace mkl = syclify::math_library;
namespace lapack = syclify::math_library::lapack;
using blas::diag_t;
using blas::fill_mode_t;
using blas::operation_t;
using blas::side_t;

// ---------------------------------------------------------------------------
// Status codes, enumerations, handles
// ---------------------------------------------------------------------------

// cusolverStatus_t: an enumeration of its own, so that a program's overloads
// on it and on cuBLAS's status stay apart (helper_cuda.h's _cudaGetErrorEnum)
enum status_t {
  status_success = 0,
  status_not_initialized = 1,
  status_alloc_failed = 2,
  status_invalid_value = 3,
  status_arch_mismatch = 4,
  status_mapping_error = 5,
  status_execution_failed = 6,
  status_internal_error = 7,
  status_matrix_type_not_supported = 8,
  status_not_supported = 9,
  status_zero_pivot = 10,
  status_invalid_license = 11,
  status_irs_params_not_initialized = 12,
  status_irs_params_invalid = 13,
  status_irs_params_invalid_prec = 14,
  status_irs_params_invalid_refine = 15,
  status_irs_params_invalid_maxiter = 16,
  status_irs_internal_error = 20,
  status_irs_not_supported = 21,
  status_irs_out_of_range = 22,
  status_irs_nrhs_not_supported_for_refine_gmres = 23,
  status_irs_infos_not_initialized = 25,
  status_irs_infos_not_destroyed = 26,
  status_irs_matrix_singular = 30,
  status_invalid_workspace = 31,
};

enum eig_type_t { eig_type_1 = 1, eig_type_2 = 2, eig_type_3 = 3 };
enum eig_mode_t { eig_mode_novector = 0, eig_mode_vector = 1 };
enum eig_range_t { eig_range_all = 1001, eig_range_i = 1002, eig_range_v = 1003 };
enum alg_mode_t { alg_0 = 0, alg_1 = 1, alg_2 = 2 };
enum function_t { function_getrf = 0, function_potrf = 1 };

struct handle {
  stream_t stream = nullptr;
  sycl::queue &queue() const { return queue_of(stream); }
};
using handle_t = handle *;

inline status_t create(handle_t *h) {
  *h = new handle();
  return status_success;
}
inline status_t destroy(handle_t h) {
  if (h)
    h->queue().wait();
  delete h;
  return status_success;
}
inline status_t set_stream(handle_t h, stream_t s) {
  h->stream = s;
  return status_success;
}
inline status_t get_stream(handle_t h, stream_t *s) {
  *s = h->stream;
  return status_success;
}

// cusolverDnParams_t: the algorithm chosen per function (cusolverDnSetAdvOptions);
// oneMKL chooses its own, so it is recorded only
struct params {
  alg_mode_t getrf = alg_0;
  alg_mode_t potrf = alg_0;
};
using params_t = params *;
inline status_t create_params(params_t *p) {
  *p = new params();
  return status_success;
}
inline status_t destroy_params(params_t p) {
  delete p;
  return status_success;
}
inline status_t set_adv_options(params_t p, function_t f, alg_mode_t a) {
  if (!p)
    return status_invalid_value;
  (f == function_potrf ? p->potrf : p->getrf) = a;
  return status_success;
}

// syevjInfo_t, gesvdjInfo_t: the Jacobi settings (recorded, see above)
struct jacobi_info {
  double tolerance = 0;
  int max_sweeps = 100;
  int sort = 1;
};
using syevj_info_t = jacobi_info *;
using gesvdj_info_t = jacobi_info *;
inline status_t create_jacobi_info(jacobi_info **i) {
  *i = new jacobi_info();
  return status_success;
}
inline status_t destroy_jacobi_info(jacobi_info *i) {
  delete i;
  return status_success;
}
inline status_t jacobi_set_tolerance(jacobi_info *i, double t) {
  i->tolerance = t;
  return status_success;
}
inline status_t jacobi_set_max_sweeps(jacobi_info *i, int s) {
  i->max_sweeps = s;
  return status_success;
}
inline status_t jacobi_set_sort(jacobi_info *i, int s) {
  i->sort = s;
  return status_success;
}
// the residual and the sweeps of the last Jacobi call: none was run
inline status_t jacobi_get_residual(handle_t, jacobi_info *, double *r) {
  *r = 0;
  return status_success;
}
inline status_t jacobi_get_sweeps(handle_t, jacobi_info *, int *s) {
  *s = 0;
  return status_success;
}

namespace detail {

using blas::detail::device_array;
using blas::detail::shared_array;
template <class T> using mkl_t = blas::detail::mkl_t<T>;
using blas::detail::cast;

template <class M> struct real_of {
  using type = M;
};
template <class R> struct real_of<std::complex<R>> {
  using type = R;
};
template <class M> using real_t = typename real_of<M>::type;
template <class M> constexpr bool is_complex_v = !std::is_same_v<M, real_t<M>>;
// a parameter that does not take part in deducing T (NULL may be passed to
// it), and the real type of T (eigenvalues, singular values, bounds)
template <class T> struct identity {
  using type = T;
};
template <class T> using nd = typename identity<T>::type;
template <class T> using rt = real_t<mkl_t<T>>;

inline mkl::uplo uplo(fill_mode_t f) { return blas::detail::uplo(f); }
inline mkl::transpose trans(operation_t op) { return blas::detail::trans(op); }
inline mkl::side side(side_t s) { return blas::detail::side(s); }
inline mkl::diag diag(diag_t d) { return blas::detail::diag(d); }
inline mkl::job job(eig_mode_t m) { return m == eig_mode_vector ? mkl::job::vec : mkl::job::novec; }
inline mkl::compz compz(eig_mode_t m) { return m == eig_mode_vector ? mkl::compz::vectors : mkl::compz::novectors; }
inline mkl::rangev range(eig_range_t r) { return r == eig_range_v ? mkl::rangev::values : r == eig_range_i ? mkl::rangev::indices : mkl::rangev::all; }
// gesvd's jobu/jobvt: 'A' all, 'S' the first min(m, n), 'O' over A, 'N' none
inline mkl::jobsvd jobsvd(signed char c) {
  switch (c) {
  case 'A':
  case 'a': return mkl::jobsvd::vectors;
  case 'S':
  case 's': return mkl::jobsvd::somevec;
  case 'O':
  case 'o': return mkl::jobsvd::vectorsina;
  default: return mkl::jobsvd::novec;
  }
}

// the workspace a call runs with: the caller's when it holds `need`
// elements, else a temporary that frees itself
template <class M> struct scratch {
  sycl::queue &q;
  M *p;
  std::int64_t size;
  bool owned;
  scratch(sycl::queue &queue, void *given, std::int64_t given_elems, std::int64_t need)
      : q(queue), p(static_cast<M *>(given)), size(std::max<std::int64_t>(need, 1)), owned(false) {
    if (!p || given_elems < need) {
      p = sycl::malloc_device<M>(static_cast<std::size_t>(size), q);
      if (!p)
        throw std::bad_alloc();
      owned = true;
    }
  }
  ~scratch() {
    if (owned)
      sycl::free(p, q);
  }
  scratch(const scratch &) = delete;
  scratch &operator=(const scratch &) = delete;
};

// the info code of a LAPACK call that throws: oneMKL's info for a
// computation error, minus the argument's position for an invalid one
inline int info_of(const lapack::exception &e, bool invalid) {
  const auto i = static_cast<int>(e.info());
  return invalid ? -std::abs(i) : i;
}

// Runs `call` (which runs oneMKL's work and waits for it), then `after` when the call completed or stopped at a computation error
// (pivots are converted then too), and writes the info code to `info`
// (device memory; may be null).
template <class Call, class After> status_t run(handle_t h, int *info, Call &&call, After &&after) {
  sycl::queue &q = h->queue();
  int code = 0;
  status_t status = status_success;
  try {
    try {
      call(q);
    } catch (const lapack::invalid_argument &e) {
      code = info_of(e, true);
      status = status_invalid_value;
    } catch (const lapack::computation_error &e) {
      code = info_of(e, false);
    }
    if (status == status_success)
      after(q);
  } catch (const mkl::unimplemented &) {
    status = status_not_supported;
  } catch (const mkl::unsupported_device &) {
    status = status_not_supported;
  } catch (const std::bad_alloc &) {
    status = status_alloc_failed;
  } catch (const std::exception &) {
    status = status_execution_failed;
  }
  if (info && status != status_not_supported && status != status_alloc_failed) {
    try {
      q.memcpy(info, &code, sizeof(int)).wait();
    } catch (const std::exception &) {
      status = status_execution_failed;
    }
  }
  return status;
}
template <class Call> status_t run(handle_t h, int *info, Call &&call) {
  return run(h, info, std::forward<Call>(call), [](sycl::queue &) {});
}

// a workspace size query: `size()` (elements, 64-bit) to `*out`, its
// exceptions as status codes
template <class F> status_t query(std::int64_t *out, F &&size) {
  try {
    *out = size();
    return status_success;
  } catch (const lapack::invalid_argument &) {
    return status_invalid_value;
  } catch (const mkl::unimplemented &) {
    return status_not_supported;
  } catch (const std::exception &) {
    return status_execution_failed;
  }
}
// ... written to a legacy `lwork` (int)
template <class F> status_t elements(int *lwork, F &&size) {
  std::int64_t n = 0;
  const status_t s = query(&n, std::forward<F>(size));
  if (s == status_success)
    *lwork = static_cast<int>(std::min<std::int64_t>(n, INT32_MAX));
  return s;
}

// 64-bit pivots converted to cuSOLVER's 32-bit ones, and back
using blas::detail::narrow_pivots;
using blas::detail::widen_pivots;

// copies the m x n matrix `from` (leading dimension ldf) to `to` (ldt),
// conjugate-transposed when `conj_transpose` (V from gesvd's V^H)
template <class M>
void copy_matrix(sycl::queue &q, std::int64_t m, std::int64_t n, const M *from, std::int64_t ldf, M *to, std::int64_t ldt, bool conj_transpose) {
  if (m <= 0 || n <= 0)
    return;
  q.parallel_for(sycl::range<2>(static_cast<std::size_t>(n), static_cast<std::size_t>(m)), [=](sycl::id<2> id) {
     const std::int64_t j = id[0], i = id[1];
     M v = from[i + j * ldf];
     if (conj_transpose) {
       if constexpr (is_complex_v<M>)
         v = M(v.real(), -v.imag());
       to[j + i * ldt] = v;
     } else {
       to[i + j * ldt] = v;
     }
   }).wait();
}

} // namespace detail

// ---------------------------------------------------------------------------
// The typed operations, on oneMKL's element types (M: float, double,
// std::complex<float>, std::complex<double>). Each takes its workspace as
// (pointer, elements); the legacy and the 64-bit entry points below call them.
// ---------------------------------------------------------------------------

namespace typed {

using detail::real_t;
using detail::scratch;

// LU with partial pivoting (ipiv, 64-bit) or without (ipiv null)
template <class M> std::int64_t getrf_size(sycl::queue &q, std::int64_t m, std::int64_t n, std::int64_t lda, bool pivoting) {
#ifndef SYCLIFY_ONEMATH
  if (!pivoting)
    return lapack::getrfnp_scratchpad_size<M>(q, m, n, lda);
#endif
  (void)pivoting;
  return lapack::getrf_scratchpad_size<M>(q, m, n, lda);
}
template <class M> sycl::event getrf(sycl::queue &q, std::int64_t m, std::int64_t n, M *a, std::int64_t lda, std::int64_t *ipiv, scratch<M> &w) {
  if (!ipiv) {
#ifdef SYCLIFY_ONEMATH
    throw mkl::unimplemented("syclify::solver", "getrf", "LU without pivoting: oneMath has no getrfnp");
#else
    return lapack::getrfnp(q, m, n, a, lda, w.p, w.size);
#endif
  }
  return lapack::getrf(q, m, n, a, lda, ipiv, w.p, w.size);
}

template <class M> sycl::event potrf(sycl::queue &q, mkl::uplo u, std::int64_t n, M *a, std::int64_t lda, scratch<M> &w) {
  return lapack::potrf(q, u, n, a, lda, w.p, w.size);
}

template <class M> std::int64_t geqrf_size(sycl::queue &q, std::int64_t m, std::int64_t n, std::int64_t lda) {
  return lapack::geqrf_scratchpad_size<M>(q, m, n, lda);
}

template <class M>
std::int64_t gesvd_size(sycl::queue &q, mkl::jobsvd ju, mkl::jobsvd jv, std::int64_t m, std::int64_t n, std::int64_t lda, std::int64_t ldu, std::int64_t ldvt) {
  return lapack::gesvd_scratchpad_size<M>(q, ju, jv, m, n, lda, std::max<std::int64_t>(ldu, 1), std::max<std::int64_t>(ldvt, 1));
}

template <class M> std::int64_t syevd_size(sycl::queue &q, mkl::job j, mkl::uplo u, std::int64_t n, std::int64_t lda) {
  if constexpr (detail::is_complex_v<M>)
    return lapack::heevd_scratchpad_size<M>(q, j, u, n, lda);
  else
    return lapack::syevd_scratchpad_size<M>(q, j, u, n, lda);
}
template <class M> sycl::event syevd(sycl::queue &q, mkl::job j, mkl::uplo u, std::int64_t n, M *a, std::int64_t lda, real_t<M> *w, scratch<M> &s) {
  if constexpr (detail::is_complex_v<M>)
    return lapack::heevd(q, j, u, n, a, lda, w, s.p, s.size);
  else
    return lapack::syevd(q, j, u, n, a, lda, w, s.p, s.size);
}

template <class M> std::int64_t sygvd_size(sycl::queue &q, std::int64_t itype, mkl::job j, mkl::uplo u, std::int64_t n, std::int64_t lda, std::int64_t ldb) {
  if constexpr (detail::is_complex_v<M>)
    return lapack::hegvd_scratchpad_size<M>(q, itype, j, u, n, lda, ldb);
  else
    return lapack::sygvd_scratchpad_size<M>(q, itype, j, u, n, lda, ldb);
}
template <class M>
sycl::event sygvd(sycl::queue &q, std::int64_t itype, mkl::job j, mkl::uplo u, std::int64_t n, M *a, std::int64_t lda, M *b, std::int64_t ldb, real_t<M> *w,
                  scratch<M> &s) {
  if constexpr (detail::is_complex_v<M>)
    return lapack::hegvd(q, itype, j, u, n, a, lda, b, ldb, w, s.p, s.size);
  else
    return lapack::sygvd(q, itype, j, u, n, a, lda, b, ldb, w, s.p, s.size);
}

#ifndef SYCLIFY_ONEMATH
// eigenvalues in a range, or of given indices (syevdx, sygvdx): oneMKL's
// syevx/sygvx write the eigenvectors to z; cuSOLVER's to A's first columns
template <class M>
std::int64_t syevx_size(sycl::queue &q, mkl::compz j, mkl::rangev r, mkl::uplo u, std::int64_t n, std::int64_t lda, real_t<M> vl, real_t<M> vu, std::int64_t il,
                        std::int64_t iu) {
  const std::int64_t ldz = std::max<std::int64_t>(n, 1);
  if constexpr (detail::is_complex_v<M>)
    return lapack::heevx_scratchpad_size<M>(q, j, r, u, n, lda, vl, vu, il, iu, real_t<M>(0), ldz);
  else
    return lapack::syevx_scratchpad_size<M>(q, j, r, u, n, lda, vl, vu, il, iu, real_t<M>(0), ldz);
}
template <class M>
std::int64_t sygvx_size(sycl::queue &q, std::int64_t itype, mkl::compz j, mkl::rangev r, mkl::uplo u, std::int64_t n, std::int64_t lda, std::int64_t ldb,
                        real_t<M> vl, real_t<M> vu, std::int64_t il, std::int64_t iu) {
  const std::int64_t ldz = std::max<std::int64_t>(n, 1);
  if constexpr (detail::is_complex_v<M>)
    return lapack::hegvx_scratchpad_size<M>(q, itype, j, r, u, n, lda, ldb, vl, vu, il, iu, real_t<M>(0), ldz);
  else
    return lapack::sygvx_scratchpad_size<M>(q, itype, j, r, u, n, lda, ldb, vl, vu, il, iu, real_t<M>(0), ldz);
}
#endif

// the eigenvalues (and vectors) of a selection: `b` null for the standard
// problem (syevdx), else the generalized one (sygvdx); the count goes to
// *meig (host). The vectors overwrite A's first *meig columns.
template <class M>
status_t eigen_selected(handle_t h, int *info, std::int64_t itype, eig_mode_t jobz, eig_range_t range, fill_mode_t uplo, std::int64_t n, M *a, std::int64_t lda,
                        M *b, std::int64_t ldb, real_t<M> vl, real_t<M> vu, std::int64_t il, std::int64_t iu, std::int64_t *meig, real_t<M> *w, void *work,
                        std::int64_t lwork) {
#ifdef SYCLIFY_ONEMATH
  (void)h, (void)info, (void)itype, (void)jobz, (void)range, (void)uplo, (void)n, (void)a, (void)lda, (void)b, (void)ldb, (void)vl, (void)vu, (void)il,
      (void)iu, (void)meig, (void)w, (void)work, (void)lwork;
  return status_not_supported; // oneMath has no syevx/sygvx
#else
  detail::shared_array<std::int64_t> found(h->queue(), 1);
  found.p[0] = 0;
  const std::int64_t ldz = std::max<std::int64_t>(n, 1);
  detail::device_array<M> z(h->queue(), static_cast<std::size_t>(jobz == eig_mode_vector ? ldz * std::max<std::int64_t>(n, 1) : 1));
  const mkl::compz j = detail::compz(jobz);
  const mkl::rangev r = detail::range(range);
  const mkl::uplo u = detail::uplo(uplo);
  const status_t s = detail::run(
      h, info,
      [&](sycl::queue &q) {
        if (!b) {
          scratch<M> ws(q, work, lwork, syevx_size<M>(q, j, r, u, n, lda, vl, vu, il, iu));
          if constexpr (detail::is_complex_v<M>)
            lapack::heevx(q, j, r, u, n, a, lda, vl, vu, il, iu, real_t<M>(0), found.p, w, z.p, ldz, ws.p, ws.size).wait_and_throw();
          else
            lapack::syevx(q, j, r, u, n, a, lda, vl, vu, il, iu, real_t<M>(0), found.p, w, z.p, ldz, ws.p, ws.size).wait_and_throw();
          return;
        }
        scratch<M> ws(q, work, lwork, sygvx_size<M>(q, itype, j, r, u, n, lda, ldb, vl, vu, il, iu));
        if constexpr (detail::is_complex_v<M>)
          lapack::hegvx(q, itype, j, r, u, n, a, lda, b, ldb, vl, vu, il, iu, real_t<M>(0), found.p, w, z.p, ldz, ws.p, ws.size).wait_and_throw();
        else
          lapack::sygvx(q, itype, j, r, u, n, a, lda, b, ldb, vl, vu, il, iu, real_t<M>(0), found.p, w, z.p, ldz, ws.p, ws.size).wait_and_throw();
      },
      [&](sycl::queue &q) {
        if (jobz == eig_mode_vector)
          detail::copy_matrix(q, n, found.p[0], z.p, ldz, a, lda, false);
      });
  if (meig)
    *meig = found.p[0];
  return s;
#endif
}

// the singular values (and vectors) of A: gesvd with U and V^H; `v` (when
// not null) receives V itself, as gesvdj gives it
template <class M>
status_t svd(handle_t h, int *info, mkl::jobsvd ju, mkl::jobsvd jv, std::int64_t m, std::int64_t n, M *a, std::int64_t lda, real_t<M> *s, M *u,
             std::int64_t ldu, M *vt, std::int64_t ldvt, M *v, std::int64_t ldv, void *work, std::int64_t lwork) {
  const std::int64_t k = std::min(m, n);
  // V^H to a temporary when V is asked for: k (or n) rows
  const std::int64_t vt_rows = jv == mkl::jobsvd::vectors ? n : k;
  std::unique_ptr<detail::device_array<M>> tmp;
  if (v && jv != mkl::jobsvd::novec) {
    tmp = std::make_unique<detail::device_array<M>>(h->queue(), static_cast<std::size_t>(std::max<std::int64_t>(vt_rows, 1) * std::max<std::int64_t>(n, 1)));
    vt = tmp->p;
    ldvt = std::max<std::int64_t>(vt_rows, 1);
  }
  if (!u)
    ldu = 1;
  if (!vt)
    ldvt = 1;
  return detail::run(
      h, info,
      [&](sycl::queue &q) {
        scratch<M> ws(q, work, lwork, gesvd_size<M>(q, ju, jv, m, n, lda, ldu, ldvt));
        lapack::gesvd(q, ju, jv, m, n, a, lda, s, u, ldu, vt, ldvt, ws.p, ws.size).wait_and_throw();
      },
      [&](sycl::queue &q) {
        if (tmp)
          detail::copy_matrix(q, vt_rows, n, vt, ldvt, v, ldv, true);
      });
}

} // namespace typed

// ---------------------------------------------------------------------------
// The legacy API (cusolverDn<t><op>): 32-bit sizes, `lwork` in elements,
// T: float, double, syclify::float2 (cuComplex), syclify::double2
// ---------------------------------------------------------------------------

// cusolverDn<t>getrf: LU with partial pivoting (ipiv: 32-bit, 1-based) or
// without (ipiv null)
template <class T> status_t getrf_buffer_size(handle_t h, int m, int n, T *, int lda, int *lwork) {
  return detail::elements(lwork, [&] { return typed::getrf_size<detail::mkl_t<T>>(h->queue(), m, n, lda, true); });
}
template <class T> status_t getrf(handle_t h, int m, int n, T *a, int lda, detail::nd<T> *work, int *ipiv, int *info) {
  using M = detail::mkl_t<T>;
  const std::int64_t k = std::max(0, std::min(m, n));
  std::unique_ptr<detail::device_array<std::int64_t>> piv;
  return detail::run(
      h, info,
      [&](sycl::queue &q) {
        const std::int64_t need = typed::getrf_size<M>(q, m, n, lda, ipiv != nullptr);
        typed::scratch<M> ws(q, work, need, need); // cuSOLVER's getrf takes no lwork: getrf_bufferSize's
        if (ipiv)
          piv = std::make_unique<detail::device_array<std::int64_t>>(q, static_cast<std::size_t>(k));
        typed::getrf<M>(q, m, n, detail::cast(a), lda, ipiv ? piv->p : nullptr, ws).wait_and_throw();
      },
      [&](sycl::queue &q) {
        if (piv)
          detail::narrow_pivots(q, piv->p, ipiv, k);
      });
}
// cusolverDn<t>getrs: op(A) X = B with getrf's factors
template <class T> status_t getrs(handle_t h, operation_t trans, int n, int nrhs, const T *a, int lda, const int *ipiv, detail::nd<T> *b, int ldb, int *info) {
  using M = detail::mkl_t<T>;
  return detail::run(h, info, [&](sycl::queue &q) {
    const mkl::transpose t = detail::trans(trans);
    detail::device_array<std::int64_t> piv(q, static_cast<std::size_t>(std::max(n, 1)));
    detail::widen_pivots(q, ipiv, piv.p, n);
    const std::int64_t need = lapack::getrs_scratchpad_size<M>(q, t, n, nrhs, lda, ldb);
    typed::scratch<M> ws(q, nullptr, 0, need);
    lapack::getrs(q, t, n, nrhs, detail::cast(a), lda, piv.p, detail::cast(b), ldb, ws.p, ws.size).wait_and_throw();
  });
}

// cusolverDn<t>potrf: Cholesky factor in the `uplo` triangle
template <class T> status_t potrf_buffer_size(handle_t h, fill_mode_t uplo, int n, T *, int lda, int *lwork) {
  return detail::elements(lwork, [&] { return lapack::potrf_scratchpad_size<detail::mkl_t<T>>(h->queue(), detail::uplo(uplo), n, lda); });
}
template <class T> status_t potrf(handle_t h, fill_mode_t uplo, int n, T *a, int lda, detail::nd<T> *work, int lwork, int *info) {
  using M = detail::mkl_t<T>;
  return detail::run(h, info, [&](sycl::queue &q) {
    typed::scratch<M> ws(q, work, lwork, lapack::potrf_scratchpad_size<M>(q, detail::uplo(uplo), n, lda));
    typed::potrf<M>(q, detail::uplo(uplo), n, detail::cast(a), lda, ws).wait_and_throw();
  });
}
// cusolverDn<t>potrs: A X = B with potrf's factor
template <class T> status_t potrs(handle_t h, fill_mode_t uplo, int n, int nrhs, const T *a, int lda, detail::nd<T> *b, int ldb, int *info) {
  using M = detail::mkl_t<T>;
  return detail::run(h, info, [&](sycl::queue &q) {
    const mkl::uplo u = detail::uplo(uplo);
    typed::scratch<M> ws(q, nullptr, 0, lapack::potrs_scratchpad_size<M>(q, u, n, nrhs, lda, ldb));
    lapack::potrs(q, u, n, nrhs, detail::cast(a), lda, detail::cast(b), ldb, ws.p, ws.size).wait_and_throw();
  });
}
// cusolverDn<t>potri: inverse from potrf's factor
template <class T> status_t potri_buffer_size(handle_t h, fill_mode_t uplo, int n, T *, int lda, int *lwork) {
  return detail::elements(lwork, [&] { return lapack::potri_scratchpad_size<detail::mkl_t<T>>(h->queue(), detail::uplo(uplo), n, lda); });
}
template <class T> status_t potri(handle_t h, fill_mode_t uplo, int n, T *a, int lda, detail::nd<T> *work, int lwork, int *info) {
  using M = detail::mkl_t<T>;
  return detail::run(h, info, [&](sycl::queue &q) {
    const mkl::uplo u = detail::uplo(uplo);
    typed::scratch<M> ws(q, work, lwork, lapack::potri_scratchpad_size<M>(q, u, n, lda));
    lapack::potri(q, u, n, detail::cast(a), lda, ws.p, ws.size).wait_and_throw();
  });
}

// cusolverDn<t>potrfBatched / potrsBatched: arrays of device pointers (in
// device memory); potrf's infos per matrix, potrs's one info
template <class T> status_t potrf_batched(handle_t h, fill_mode_t uplo, int n, T *a[], int lda, int *info, int batch) {
  using M = detail::mkl_t<T>;
  try {
    sycl::queue &q = h->queue();
    detail::shared_array<M *> ptrs(q, static_cast<std::size_t>(std::max(batch, 1)));
    blas::detail::copy_pointers(q, reinterpret_cast<M *const *>(a), ptrs.p, batch);
    mkl::uplo u = detail::uplo(uplo);
    std::int64_t n64 = n, lda64 = lda, size = batch;
    const std::int64_t need = lapack::potrf_batch_scratchpad_size<M>(q, &u, &n64, &lda64, 1, &size);
    typed::scratch<M> ws(q, nullptr, 0, need);
    blas::detail::with_batch_info(q, info, batch, [&] { lapack::potrf_batch(q, &u, &n64, ptrs.p, &lda64, 1, &size, ws.p, ws.size).wait_and_throw(); });
    return status_success;
  } catch (const lapack::invalid_argument &) {
    return status_invalid_value;
  } catch (const std::exception &) {
    return status_execution_failed;
  }
}
template <class T> status_t potrs_batched(handle_t h, fill_mode_t uplo, int n, int nrhs, T *a[], int lda, detail::nd<T> *b[], int ldb, int *info, int batch) {
  using M = detail::mkl_t<T>;
  if (nrhs != 1)
    return status_invalid_value; // as cuSOLVER: one right-hand side per matrix
  return detail::run(h, info, [&](sycl::queue &q) {
    detail::shared_array<const M *> aptrs(q, static_cast<std::size_t>(std::max(batch, 1)));
    detail::shared_array<M *> bptrs(q, static_cast<std::size_t>(std::max(batch, 1)));
    q.memcpy(aptrs.p, a, sizeof(M *) * batch);
    q.memcpy(bptrs.p, b, sizeof(M *) * batch).wait();
    mkl::uplo u = detail::uplo(uplo);
    std::int64_t n64 = n, nrhs64 = nrhs, lda64 = lda, ldb64 = ldb, size = batch;
    const std::int64_t need = lapack::potrs_batch_scratchpad_size<M>(q, &u, &n64, &nrhs64, &lda64, &ldb64, 1, &size);
    typed::scratch<M> ws(q, nullptr, 0, need);
#ifdef SYCLIFY_ONEMATH
    M **factors = const_cast<M **>(aptrs.p);
#else
    const M **factors = aptrs.p;
#endif
    lapack::potrs_batch(q, &u, &n64, &nrhs64, factors, &lda64, bptrs.p, &ldb64, 1, &size, ws.p, ws.size).wait_and_throw();
  });
}

// cusolverDn<t>geqrf: QR; the reflectors below the diagonal, their scalars in tau
template <class T> status_t geqrf_buffer_size(handle_t h, int m, int n, T *, int lda, int *lwork) {
  return detail::elements(lwork, [&] { return typed::geqrf_size<detail::mkl_t<T>>(h->queue(), m, n, lda); });
}
template <class T> status_t geqrf(handle_t h, int m, int n, T *a, int lda, detail::nd<T> *tau, detail::nd<T> *work, int lwork, int *info) {
  using M = detail::mkl_t<T>;
  return detail::run(h, info, [&](sycl::queue &q) {
    typed::scratch<M> ws(q, work, lwork, typed::geqrf_size<M>(q, m, n, lda));
    lapack::geqrf(q, m, n, detail::cast(a), lda, detail::cast(tau), ws.p, ws.size).wait_and_throw();
  });
}

// cusolverDn<t>orgqr / ungqr: Q from geqrf's reflectors
template <class T> std::int64_t orgqr_size(sycl::queue &q, int m, int n, int k, int lda) {
  using M = detail::mkl_t<T>;
  if constexpr (detail::is_complex_v<M>)
    return lapack::ungqr_scratchpad_size<M>(q, m, n, k, lda);
  else
    return lapack::orgqr_scratchpad_size<M>(q, m, n, k, lda);
}
template <class T> status_t orgqr_buffer_size(handle_t h, int m, int n, int k, const T *, int lda, const detail::nd<T> *, int *lwork) {
  return detail::elements(lwork, [&] { return orgqr_size<T>(h->queue(), m, n, k, lda); });
}
template <class T> status_t orgqr(handle_t h, int m, int n, int k, T *a, int lda, const detail::nd<T> *tau, detail::nd<T> *work, int lwork, int *info) {
  using M = detail::mkl_t<T>;
  return detail::run(h, info, [&](sycl::queue &q) {
    typed::scratch<M> ws(q, work, lwork, orgqr_size<T>(q, m, n, k, lda));
    if constexpr (detail::is_complex_v<M>)
      lapack::ungqr(q, m, n, k, detail::cast(a), lda, detail::cast(tau), ws.p, ws.size).wait_and_throw();
    else
      lapack::orgqr(q, m, n, k, detail::cast(a), lda, detail::cast(tau), ws.p, ws.size).wait_and_throw();
  });
}

// cusolverDn<t>ormqr / unmqr: C = op(Q) C or C op(Q)
template <class T> std::int64_t ormqr_size(sycl::queue &q, side_t side, operation_t trans, int m, int n, int k, int lda, int ldc) {
  using M = detail::mkl_t<T>;
  if constexpr (detail::is_complex_v<M>)
    return lapack::unmqr_scratchpad_size<M>(q, detail::side(side), detail::trans(trans), m, n, k, lda, ldc);
  else
    return lapack::ormqr_scratchpad_size<M>(q, detail::side(side), detail::trans(trans), m, n, k, lda, ldc);
}
template <class T>
status_t ormqr_buffer_size(handle_t h, side_t side, operation_t trans, int m, int n, int k, const T *, int lda, const detail::nd<T> *, const detail::nd<T> *,
                           int ldc, int *lwork) {
  return detail::elements(lwork, [&] { return ormqr_size<T>(h->queue(), side, trans, m, n, k, lda, ldc); });
}
template <class T>
status_t ormqr(handle_t h, side_t side, operation_t trans, int m, int n, int k, const T *a, int lda, const detail::nd<T> *tau, detail::nd<T> *c, int ldc,
               detail::nd<T> *work, int lwork, int *info) {
  using M = detail::mkl_t<T>;
  return detail::run(h, info, [&](sycl::queue &q) {
    typed::scratch<M> ws(q, work, lwork, ormqr_size<T>(q, side, trans, m, n, k, lda, ldc));
    const auto s = detail::side(side);
    const auto t = detail::trans(trans);
    if constexpr (detail::is_complex_v<M>)
      lapack::unmqr(q, s, t, m, n, k, detail::cast(a), lda, detail::cast(tau), detail::cast(c), ldc, ws.p, ws.size).wait_and_throw();
    else
      lapack::ormqr(q, s, t, m, n, k, detail::cast(a), lda, detail::cast(tau), detail::cast(c), ldc, ws.p, ws.size).wait_and_throw();
  });
}

// cusolverDn<t>sytrf: Bunch-Kaufman factorization of a symmetric matrix
// (complex: symmetric, not Hermitian, as cuSOLVER's)
template <class T> status_t sytrf_buffer_size(handle_t h, int n, T *, int lda, int *lwork) {
  // cuSOLVER's query names no triangle: the lower one's size
  return detail::elements(lwork, [&] { return lapack::sytrf_scratchpad_size<detail::mkl_t<T>>(h->queue(), mkl::uplo::lower, n, lda); });
}
template <class T> status_t sytrf(handle_t h, fill_mode_t uplo, int n, T *a, int lda, int *ipiv, detail::nd<T> *work, int lwork, int *info) {
  using M = detail::mkl_t<T>;
  std::unique_ptr<detail::device_array<std::int64_t>> piv;
  return detail::run(
      h, info,
      [&](sycl::queue &q) {
        const mkl::uplo u = detail::uplo(uplo);
        typed::scratch<M> ws(q, work, lwork, lapack::sytrf_scratchpad_size<M>(q, u, n, lda));
        piv = std::make_unique<detail::device_array<std::int64_t>>(q, static_cast<std::size_t>(std::max(n, 1)));
        lapack::sytrf(q, u, n, detail::cast(a), lda, piv->p, ws.p, ws.size).wait_and_throw();
      },
      [&](sycl::queue &q) {
        if (piv)
          detail::narrow_pivots(q, piv->p, ipiv, n);
      });
}

// cusolverDn<t>gebrd: bidiagonal reduction (d, e real)
template <class T> status_t gebrd_buffer_size(handle_t h, int m, int n, int *lwork) {
  return detail::elements(lwork, [&] { return lapack::gebrd_scratchpad_size<detail::mkl_t<T>>(h->queue(), m, n, std::max(m, 1)); });
}
template <class T>
status_t gebrd(handle_t h, int m, int n, T *a, int lda, detail::rt<T> *d, detail::rt<T> *e, detail::nd<T> *tauq, detail::nd<T> *taup, detail::nd<T> *work,
               int lwork, int *info) {
  using M = detail::mkl_t<T>;
  return detail::run(h, info, [&](sycl::queue &q) {
    typed::scratch<M> ws(q, work, lwork, lapack::gebrd_scratchpad_size<M>(q, m, n, lda));
    lapack::gebrd(q, m, n, detail::cast(a), lda, d, e, detail::cast(tauq), detail::cast(taup), ws.p, ws.size).wait_and_throw();
  });
}

// cusolverDn<t>orgbr / ungbr: Q (side left) or P^H (side right) from gebrd
template <class T> std::int64_t orgbr_size(sycl::queue &q, side_t side, int m, int n, int k, int lda) {
  using M = detail::mkl_t<T>;
  const mkl::generate g = side == blas::side_left ? mkl::generate::q : mkl::generate::p;
  if constexpr (detail::is_complex_v<M>)
    return lapack::ungbr_scratchpad_size<M>(q, g, m, n, k, lda);
  else
    return lapack::orgbr_scratchpad_size<M>(q, g, m, n, k, lda);
}
template <class T> status_t orgbr_buffer_size(handle_t h, side_t side, int m, int n, int k, const T *, int lda, const detail::nd<T> *, int *lwork) {
  return detail::elements(lwork, [&] { return orgbr_size<T>(h->queue(), side, m, n, k, lda); });
}
template <class T>
status_t orgbr(handle_t h, side_t side, int m, int n, int k, T *a, int lda, const detail::nd<T> *tau, detail::nd<T> *work, int lwork, int *info) {
  using M = detail::mkl_t<T>;
  return detail::run(h, info, [&](sycl::queue &q) {
    typed::scratch<M> ws(q, work, lwork, orgbr_size<T>(q, side, m, n, k, lda));
    const mkl::generate g = side == blas::side_left ? mkl::generate::q : mkl::generate::p;
    if constexpr (detail::is_complex_v<M>)
      lapack::ungbr(q, g, m, n, k, detail::cast(a), lda, detail::cast(tau), ws.p, ws.size).wait_and_throw();
    else
      lapack::orgbr(q, g, m, n, k, detail::cast(a), lda, detail::cast(tau), ws.p, ws.size).wait_and_throw();
  });
}

// cusolverDn<t>sytrd / hetrd: tridiagonal reduction (d, e real)
template <class T> std::int64_t sytrd_size(sycl::queue &q, fill_mode_t uplo, int n, int lda) {
  using M = detail::mkl_t<T>;
  if constexpr (detail::is_complex_v<M>)
    return lapack::hetrd_scratchpad_size<M>(q, detail::uplo(uplo), n, lda);
  else
    return lapack::sytrd_scratchpad_size<M>(q, detail::uplo(uplo), n, lda);
}
template <class T>
status_t sytrd_buffer_size(handle_t h, fill_mode_t uplo, int n, const T *, int lda, const detail::rt<T> *, const detail::rt<T> *, const detail::nd<T> *,
                           int *lwork) {
  return detail::elements(lwork, [&] { return sytrd_size<T>(h->queue(), uplo, n, lda); });
}
template <class T>
status_t sytrd(handle_t h, fill_mode_t uplo, int n, T *a, int lda, detail::rt<T> *d, detail::rt<T> *e, detail::nd<T> *tau, detail::nd<T> *work, int lwork,
               int *info) {
  using M = detail::mkl_t<T>;
  return detail::run(h, info, [&](sycl::queue &q) {
    typed::scratch<M> ws(q, work, lwork, sytrd_size<T>(q, uplo, n, lda));
    if constexpr (detail::is_complex_v<M>)
      lapack::hetrd(q, detail::uplo(uplo), n, detail::cast(a), lda, d, e, detail::cast(tau), ws.p, ws.size).wait_and_throw();
    else
      lapack::sytrd(q, detail::uplo(uplo), n, detail::cast(a), lda, d, e, detail::cast(tau), ws.p, ws.size).wait_and_throw();
  });
}

// cusolverDn<t>orgtr / ungtr: Q from sytrd
template <class T> std::int64_t orgtr_size(sycl::queue &q, fill_mode_t uplo, int n, int lda) {
  using M = detail::mkl_t<T>;
  if constexpr (detail::is_complex_v<M>)
    return lapack::ungtr_scratchpad_size<M>(q, detail::uplo(uplo), n, lda);
  else
    return lapack::orgtr_scratchpad_size<M>(q, detail::uplo(uplo), n, lda);
}
template <class T> status_t orgtr_buffer_size(handle_t h, fill_mode_t uplo, int n, const T *, int lda, const detail::nd<T> *, int *lwork) {
  return detail::elements(lwork, [&] { return orgtr_size<T>(h->queue(), uplo, n, lda); });
}
template <class T> status_t orgtr(handle_t h, fill_mode_t uplo, int n, T *a, int lda, const detail::nd<T> *tau, detail::nd<T> *work, int lwork, int *info) {
  using M = detail::mkl_t<T>;
  return detail::run(h, info, [&](sycl::queue &q) {
    typed::scratch<M> ws(q, work, lwork, orgtr_size<T>(q, uplo, n, lda));
    if constexpr (detail::is_complex_v<M>)
      lapack::ungtr(q, detail::uplo(uplo), n, detail::cast(a), lda, detail::cast(tau), ws.p, ws.size).wait_and_throw();
    else
      lapack::orgtr(q, detail::uplo(uplo), n, detail::cast(a), lda, detail::cast(tau), ws.p, ws.size).wait_and_throw();
  });
}

// cusolverDn<t>ormtr / unmtr: C = op(Q) C or C op(Q), Q from sytrd
template <class T> std::int64_t ormtr_size(sycl::queue &q, side_t side, fill_mode_t uplo, operation_t trans, int m, int n, int lda, int ldc) {
  using M = detail::mkl_t<T>;
  if constexpr (detail::is_complex_v<M>)
    return lapack::unmtr_scratchpad_size<M>(q, detail::side(side), detail::uplo(uplo), detail::trans(trans), m, n, lda, ldc);
  else
    return lapack::ormtr_scratchpad_size<M>(q, detail::side(side), detail::uplo(uplo), detail::trans(trans), m, n, lda, ldc);
}
template <class T>
status_t ormtr_buffer_size(handle_t h, side_t side, fill_mode_t uplo, operation_t trans, int m, int n, const T *, int lda, const detail::nd<T> *,
                           const detail::nd<T> *, int ldc, int *lwork) {
  return detail::elements(lwork, [&] { return ormtr_size<T>(h->queue(), side, uplo, trans, m, n, lda, ldc); });
}
template <class T>
status_t ormtr(handle_t h, side_t side, fill_mode_t uplo, operation_t trans, int m, int n, T *a, int lda, detail::nd<T> *tau, detail::nd<T> *c, int ldc,
               detail::nd<T> *work, int lwork, int *info) {
  using M = detail::mkl_t<T>;
  return detail::run(h, info, [&](sycl::queue &q) {
    typed::scratch<M> ws(q, work, lwork, ormtr_size<T>(q, side, uplo, trans, m, n, lda, ldc));
    const auto s = detail::side(side);
    const auto u = detail::uplo(uplo);
    const auto t = detail::trans(trans);
    if constexpr (detail::is_complex_v<M>)
      lapack::unmtr(q, s, u, t, m, n, detail::cast(a), lda, detail::cast(tau), detail::cast(c), ldc, ws.p, ws.size).wait_and_throw();
    else
      lapack::ormtr(q, s, u, t, m, n, detail::cast(a), lda, detail::cast(tau), detail::cast(c), ldc, ws.p, ws.size).wait_and_throw();
  });
}

// cusolverDn<t>gesvd: A = U S V^H (jobu/jobvt: 'A', 'S', 'O', 'N'); rwork
// (cuSOLVER's unconverged superdiagonal, may be null) is not written
template <class T> status_t gesvd_buffer_size(handle_t h, int m, int n, int *lwork) {
  // the size for all of U and V^H, the most any job needs
  return detail::elements(lwork, [&] {
    return typed::gesvd_size<detail::mkl_t<T>>(h->queue(), mkl::jobsvd::vectors, mkl::jobsvd::vectors, m, n, std::max(m, 1), std::max(m, 1), std::max(n, 1));
  });
}
template <class T>
status_t gesvd(handle_t h, signed char jobu, signed char jobvt, int m, int n, T *a, int lda, detail::rt<T> *s, detail::nd<T> *u, int ldu, detail::nd<T> *vt,
               int ldvt, detail::nd<T> *work, int lwork, const void *, int *info) {
  return typed::svd(h, info, detail::jobsvd(jobu), detail::jobsvd(jobvt), m, n, detail::cast(a), lda, s, detail::cast(u), ldu, detail::cast(vt), ldvt,
                    static_cast<detail::mkl_t<T> *>(nullptr), 1, work, lwork);
}
// cusolverDn<t>gesvdj: A = U S V^H with V itself (econ: the first min(m, n)
// columns of U and V)
template <class T>
status_t gesvdj_buffer_size(handle_t h, eig_mode_t jobz, int econ, int m, int n, const T *, int lda, const detail::rt<T> *, const detail::nd<T> *, int ldu,
                            const detail::nd<T> *, int, int *lwork, gesvdj_info_t) {
  const mkl::jobsvd j = jobz == eig_mode_vector ? (econ ? mkl::jobsvd::somevec : mkl::jobsvd::vectors) : mkl::jobsvd::novec;
  const int k = std::min(m, n);
  const int ldvt = std::max(j == mkl::jobsvd::vectors ? n : k, 1);
  return detail::elements(lwork, [&] { return typed::gesvd_size<detail::mkl_t<T>>(h->queue(), j, j, m, n, lda, ldu, ldvt); });
}
template <class T>
status_t gesvdj(handle_t h, eig_mode_t jobz, int econ, int m, int n, T *a, int lda, detail::rt<T> *s, detail::nd<T> *u, int ldu, detail::nd<T> *v, int ldv,
                detail::nd<T> *work, int lwork, int *info, gesvdj_info_t) {
  const mkl::jobsvd j = jobz == eig_mode_vector ? (econ ? mkl::jobsvd::somevec : mkl::jobsvd::vectors) : mkl::jobsvd::novec;
  return typed::svd(h, info, j, j, m, n, detail::cast(a), lda, s, j == mkl::jobsvd::novec ? nullptr : detail::cast(u), ldu,
                    static_cast<detail::mkl_t<T> *>(nullptr), 1, j == mkl::jobsvd::novec ? nullptr : detail::cast(v), ldv, work, lwork);
}

// cusolverDn<t>syevd / heevd (and syevj / heevj): eigenvalues ascending in W,
// eigenvectors over A
template <class T> status_t syevd_buffer_size(handle_t h, eig_mode_t jobz, fill_mode_t uplo, int n, const T *, int lda, const detail::rt<T> *, int *lwork) {
  return detail::elements(lwork, [&] { return typed::syevd_size<detail::mkl_t<T>>(h->queue(), detail::job(jobz), detail::uplo(uplo), n, lda); });
}
template <class T>
status_t syevd(handle_t h, eig_mode_t jobz, fill_mode_t uplo, int n, T *a, int lda, detail::rt<T> *w, detail::nd<T> *work, int lwork, int *info) {
  using M = detail::mkl_t<T>;
  return detail::run(h, info, [&](sycl::queue &q) {
    typed::scratch<M> ws(q, work, lwork, typed::syevd_size<M>(q, detail::job(jobz), detail::uplo(uplo), n, lda));
    typed::syevd<M>(q, detail::job(jobz), detail::uplo(uplo), n, detail::cast(a), lda, w, ws).wait_and_throw();
  });
}
template <class T>
status_t syevj_buffer_size(handle_t h, eig_mode_t jobz, fill_mode_t uplo, int n, const T *a, int lda, const detail::rt<T> *w, int *lwork, syevj_info_t) {
  return syevd_buffer_size(h, jobz, uplo, n, a, lda, w, lwork);
}
template <class T>
status_t syevj(handle_t h, eig_mode_t jobz, fill_mode_t uplo, int n, T *a, int lda, detail::rt<T> *w, detail::nd<T> *work, int lwork, int *info, syevj_info_t) {
  return syevd(h, jobz, uplo, n, a, lda, w, work, lwork, info);
}

// cusolverDn<t>sygvd / hegvd (and sygvj / hegvj): A x = lambda B x and the
// other two types
template <class T>
status_t sygvd_buffer_size(handle_t h, eig_type_t itype, eig_mode_t jobz, fill_mode_t uplo, int n, const T *, int lda, const detail::nd<T> *, int ldb,
                           const detail::rt<T> *, int *lwork) {
  return detail::elements(lwork, [&] { return typed::sygvd_size<detail::mkl_t<T>>(h->queue(), itype, detail::job(jobz), detail::uplo(uplo), n, lda, ldb); });
}
template <class T>
status_t sygvd(handle_t h, eig_type_t itype, eig_mode_t jobz, fill_mode_t uplo, int n, T *a, int lda, detail::nd<T> *b, int ldb, detail::rt<T> *w,
               detail::nd<T> *work, int lwork, int *info) {
  using M = detail::mkl_t<T>;
  return detail::run(h, info, [&](sycl::queue &q) {
    typed::scratch<M> ws(q, work, lwork, typed::sygvd_size<M>(q, itype, detail::job(jobz), detail::uplo(uplo), n, lda, ldb));
    typed::sygvd<M>(q, itype, detail::job(jobz), detail::uplo(uplo), n, detail::cast(a), lda, detail::cast(b), ldb, w, ws).wait_and_throw();
  });
}
template <class T>
status_t sygvj_buffer_size(handle_t h, eig_type_t itype, eig_mode_t jobz, fill_mode_t uplo, int n, const T *a, int lda, const detail::nd<T> *b, int ldb,
                           const detail::rt<T> *w, int *lwork, syevj_info_t) {
  return sygvd_buffer_size(h, itype, jobz, uplo, n, a, lda, b, ldb, w, lwork);
}
template <class T>
status_t sygvj(handle_t h, eig_type_t itype, eig_mode_t jobz, fill_mode_t uplo, int n, T *a, int lda, detail::nd<T> *b, int ldb, detail::rt<T> *w,
               detail::nd<T> *work, int lwork, int *info, syevj_info_t) {
  return sygvd(h, itype, jobz, uplo, n, a, lda, b, ldb, w, work, lwork, info);
}

// cusolverDn<t>syevdx / heevdx and sygvdx / hegvdx: the eigenvalues in
// (vl, vu] or of indices il..iu (1-based); their count in *meig
template <class T>
status_t syevdx_buffer_size(handle_t h, eig_mode_t jobz, eig_range_t range, fill_mode_t uplo, int n, const T *, int lda, detail::rt<T> vl, detail::rt<T> vu,
                            int il, int iu, int *, const detail::rt<T> *, int *lwork) {
#ifdef SYCLIFY_ONEMATH
  (void)h, (void)jobz, (void)range, (void)uplo, (void)n, (void)lda, (void)vl, (void)vu, (void)il, (void)iu, (void)lwork;
  return status_not_supported;
#else
  return detail::elements(lwork, [&] {
    return typed::syevx_size<detail::mkl_t<T>>(h->queue(), detail::compz(jobz), detail::range(range), detail::uplo(uplo), n, lda, vl, vu, il, iu);
  });
#endif
}
template <class T>
status_t syevdx(handle_t h, eig_mode_t jobz, eig_range_t range, fill_mode_t uplo, int n, T *a, int lda, detail::rt<T> vl, detail::rt<T> vu, int il, int iu,
                int *meig, detail::rt<T> *w, detail::nd<T> *work, int lwork, int *info) {
  std::int64_t found = 0;
  const status_t s =
      typed::eigen_selected<detail::mkl_t<T>>(h, info, 1, jobz, range, uplo, n, detail::cast(a), lda, nullptr, 1, vl, vu, il, iu, &found, w, work, lwork);
  if (meig)
    *meig = static_cast<int>(found);
  return s;
}
template <class T>
status_t sygvdx_buffer_size(handle_t h, eig_type_t itype, eig_mode_t jobz, eig_range_t range, fill_mode_t uplo, int n, const T *, int lda,
                            const detail::nd<T> *, int ldb, detail::rt<T> vl, detail::rt<T> vu, int il, int iu, int *, const detail::rt<T> *, int *lwork) {
#ifdef SYCLIFY_ONEMATH
  (void)h, (void)itype, (void)jobz, (void)range, (void)uplo, (void)n, (void)lda, (void)ldb, (void)vl, (void)vu, (void)il, (void)iu, (void)lwork;
  return status_not_supported;
#else
  return detail::elements(lwork, [&] {
    return typed::sygvx_size<detail::mkl_t<T>>(h->queue(), itype, detail::compz(jobz), detail::range(range), detail::uplo(uplo), n, lda, ldb, vl, vu, il, iu);
  });
#endif
}
template <class T>
status_t sygvdx(handle_t h, eig_type_t itype, eig_mode_t jobz, eig_range_t range, fill_mode_t uplo, int n, T *a, int lda, detail::nd<T> *b, int ldb,
                detail::rt<T> vl, detail::rt<T> vu, int il, int iu, int *meig, detail::rt<T> *w, detail::nd<T> *work, int lwork, int *info) {
  std::int64_t found = 0;
  const status_t s = typed::eigen_selected<detail::mkl_t<T>>(h, info, itype, jobz, range, uplo, n, detail::cast(a), lda, detail::cast(b), ldb, vl, vu, il, iu,
                                                             &found, w, work, lwork);
  if (meig)
    *meig = static_cast<int>(found);
  return s;
}

// ---------------------------------------------------------------------------
// The 64-bit API (cusolverDnX<op>, and the older cusolverDn<Op> with one
// workspace): element types chosen at run time by cudaDataType (R_32F,
// R_64F, C_32F, C_64F; the compute type must match), workspaces in bytes,
// 64-bit pivots as oneMKL's
// ---------------------------------------------------------------------------

namespace detail {

// calls f with a value of the oneMKL element type `t` names
template <class F> status_t by_type(data_type_t t, F &&f) {
  switch (t) {
  case r_32f: return f(float{});
  case r_64f: return f(double{});
  case c_32f: return f(std::complex<float>{});
  case c_64f: return f(std::complex<double>{});
  default: return status_not_supported;
  }
}
// a workspace size in bytes on the device, and none on the host
template <class M, class F> status_t bytes(std::size_t *device, std::size_t *host, F &&size) {
  std::int64_t elems = 0;
  const status_t s = query(&elems, std::forward<F>(size));
  if (device)
    *device = static_cast<std::size_t>(std::max<std::int64_t>(elems, 0)) * sizeof(M);
  if (host)
    *host = 0;
  return s;
}
inline std::int64_t elems_of(std::size_t bytes, std::size_t elem) { return static_cast<std::int64_t>(bytes / elem); }

} // namespace detail

template <class M> using host_real_t = detail::real_t<M>;

inline status_t xgetrf_buffer_size(handle_t h, params_t, std::int64_t m, std::int64_t n, data_type_t ta, const void *, std::int64_t lda, data_type_t,
                                   std::size_t *device, std::size_t *host) {
  return detail::by_type(ta, [&](auto v) {
    using M = decltype(v);
    return detail::bytes<M>(device, host, [&] { return typed::getrf_size<M>(h->queue(), m, n, lda, true); });
  });
}
inline status_t xgetrf(handle_t h, params_t, std::int64_t m, std::int64_t n, data_type_t ta, void *a, std::int64_t lda, std::int64_t *ipiv, data_type_t,
                       void *work, std::size_t work_bytes, void *, std::size_t, int *info) {
  return detail::by_type(ta, [&](auto v) {
    using M = decltype(v);
    return detail::run(h, info, [&](sycl::queue &q) {
      typed::scratch<M> ws(q, work, detail::elems_of(work_bytes, sizeof(M)), typed::getrf_size<M>(q, m, n, lda, ipiv != nullptr));
      typed::getrf<M>(q, m, n, static_cast<M *>(a), lda, ipiv, ws).wait_and_throw();
    });
  });
}
inline status_t xgetrs(handle_t h, params_t, operation_t trans, std::int64_t n, std::int64_t nrhs, data_type_t ta, const void *a, std::int64_t lda,
                       const std::int64_t *ipiv, data_type_t tb, void *b, std::int64_t ldb, int *info) {
  if (ta != tb)
    return status_not_supported;
  return detail::by_type(ta, [&](auto v) {
    using M = decltype(v);
    return detail::run(h, info, [&](sycl::queue &q) {
      const mkl::transpose t = detail::trans(trans);
      typed::scratch<M> ws(q, nullptr, 0, lapack::getrs_scratchpad_size<M>(q, t, n, nrhs, lda, ldb));
      lapack::getrs(q, t, n, nrhs, static_cast<const M *>(a), lda, ipiv, static_cast<M *>(b), ldb, ws.p, ws.size).wait_and_throw();
    });
  });
}

inline status_t xpotrf_buffer_size(handle_t h, params_t, fill_mode_t uplo, std::int64_t n, data_type_t ta, const void *, std::int64_t lda, data_type_t,
                                   std::size_t *device, std::size_t *host) {
  return detail::by_type(ta, [&](auto v) {
    using M = decltype(v);
    return detail::bytes<M>(device, host, [&] { return lapack::potrf_scratchpad_size<M>(h->queue(), detail::uplo(uplo), n, lda); });
  });
}
inline status_t xpotrf(handle_t h, params_t, fill_mode_t uplo, std::int64_t n, data_type_t ta, void *a, std::int64_t lda, data_type_t, void *work,
                       std::size_t work_bytes, void *, std::size_t, int *info) {
  return detail::by_type(ta, [&](auto v) {
    using M = decltype(v);
    return detail::run(h, info, [&](sycl::queue &q) {
      typed::scratch<M> ws(q, work, detail::elems_of(work_bytes, sizeof(M)), lapack::potrf_scratchpad_size<M>(q, detail::uplo(uplo), n, lda));
      typed::potrf<M>(q, detail::uplo(uplo), n, static_cast<M *>(a), lda, ws).wait_and_throw();
    });
  });
}
inline status_t xpotrs(handle_t h, params_t, fill_mode_t uplo, std::int64_t n, std::int64_t nrhs, data_type_t ta, const void *a, std::int64_t lda,
                       data_type_t tb, void *b, std::int64_t ldb, int *info) {
  if (ta != tb)
    return status_not_supported;
  return detail::by_type(ta, [&](auto v) {
    using M = decltype(v);
    return detail::run(h, info, [&](sycl::queue &q) {
      const mkl::uplo u = detail::uplo(uplo);
      typed::scratch<M> ws(q, nullptr, 0, lapack::potrs_scratchpad_size<M>(q, u, n, nrhs, lda, ldb));
      lapack::potrs(q, u, n, nrhs, static_cast<const M *>(a), lda, static_cast<M *>(b), ldb, ws.p, ws.size).wait_and_throw();
    });
  });
}

inline status_t xgeqrf_buffer_size(handle_t h, params_t, std::int64_t m, std::int64_t n, data_type_t ta, const void *, std::int64_t lda, data_type_t,
                                   const void *, data_type_t, std::size_t *device, std::size_t *host) {
  return detail::by_type(ta, [&](auto v) {
    using M = decltype(v);
    return detail::bytes<M>(device, host, [&] { return typed::geqrf_size<M>(h->queue(), m, n, lda); });
  });
}
inline status_t xgeqrf(handle_t h, params_t, std::int64_t m, std::int64_t n, data_type_t ta, void *a, std::int64_t lda, data_type_t ttau, void *tau,
                       data_type_t, void *work, std::size_t work_bytes, void *, std::size_t, int *info) {
  if (ta != ttau)
    return status_not_supported;
  return detail::by_type(ta, [&](auto v) {
    using M = decltype(v);
    return detail::run(h, info, [&](sycl::queue &q) {
      typed::scratch<M> ws(q, work, detail::elems_of(work_bytes, sizeof(M)), typed::geqrf_size<M>(q, m, n, lda));
      lapack::geqrf(q, m, n, static_cast<M *>(a), lda, static_cast<M *>(tau), ws.p, ws.size).wait_and_throw();
    });
  });
}

inline status_t xgesvd_buffer_size(handle_t h, params_t, signed char jobu, signed char jobvt, std::int64_t m, std::int64_t n, data_type_t ta, const void *,
                                   std::int64_t lda, data_type_t, const void *, data_type_t, const void *, std::int64_t ldu, data_type_t, const void *,
                                   std::int64_t ldvt, data_type_t, std::size_t *device, std::size_t *host) {
  return detail::by_type(ta, [&](auto v) {
    using M = decltype(v);
    return detail::bytes<M>(device, host, [&] { return typed::gesvd_size<M>(h->queue(), detail::jobsvd(jobu), detail::jobsvd(jobvt), m, n, lda, ldu, ldvt); });
  });
}
inline status_t xgesvd(handle_t h, params_t, signed char jobu, signed char jobvt, std::int64_t m, std::int64_t n, data_type_t ta, void *a, std::int64_t lda,
                       data_type_t, void *s, data_type_t, void *u, std::int64_t ldu, data_type_t, void *vt, std::int64_t ldvt, data_type_t, void *work,
                       std::size_t work_bytes, void *, std::size_t, int *info) {
  return detail::by_type(ta, [&](auto v) {
    using M = decltype(v);
    return typed::svd<M>(h, info, detail::jobsvd(jobu), detail::jobsvd(jobvt), m, n, static_cast<M *>(a), lda, static_cast<detail::real_t<M> *>(s),
                         static_cast<M *>(u), ldu, static_cast<M *>(vt), ldvt, nullptr, 1, work, detail::elems_of(work_bytes, sizeof(M)));
  });
}

inline status_t xsyevd_buffer_size(handle_t h, params_t, eig_mode_t jobz, fill_mode_t uplo, std::int64_t n, data_type_t ta, const void *, std::int64_t lda,
                                   data_type_t, const void *, data_type_t, std::size_t *device, std::size_t *host) {
  return detail::by_type(ta, [&](auto v) {
    using M = decltype(v);
    return detail::bytes<M>(device, host, [&] { return typed::syevd_size<M>(h->queue(), detail::job(jobz), detail::uplo(uplo), n, lda); });
  });
}
inline status_t xsyevd(handle_t h, params_t, eig_mode_t jobz, fill_mode_t uplo, std::int64_t n, data_type_t ta, void *a, std::int64_t lda, data_type_t, void *w,
                       data_type_t, void *work, std::size_t work_bytes, void *, std::size_t, int *info) {
  return detail::by_type(ta, [&](auto v) {
    using M = decltype(v);
    return detail::run(h, info, [&](sycl::queue &q) {
      typed::scratch<M> ws(q, work, detail::elems_of(work_bytes, sizeof(M)), typed::syevd_size<M>(q, detail::job(jobz), detail::uplo(uplo), n, lda));
      typed::syevd<M>(q, detail::job(jobz), detail::uplo(uplo), n, static_cast<M *>(a), lda, static_cast<detail::real_t<M> *>(w), ws).wait_and_throw();
    });
  });
}

// vl and vu: host pointers to values of W's type
inline status_t xsyevdx_buffer_size(handle_t h, params_t, eig_mode_t jobz, eig_range_t range, fill_mode_t uplo, std::int64_t n, data_type_t ta, const void *,
                                    std::int64_t lda, void *vl, void *vu, std::int64_t il, std::int64_t iu, std::int64_t *, data_type_t, const void *,
                                    data_type_t, std::size_t *device, std::size_t *host) {
#ifdef SYCLIFY_ONEMATH
  (void)h, (void)jobz, (void)range, (void)uplo, (void)n, (void)ta, (void)lda, (void)vl, (void)vu, (void)il, (void)iu, (void)device, (void)host;
  return status_not_supported;
#else
  return detail::by_type(ta, [&](auto v) {
    using M = decltype(v);
    using R = detail::real_t<M>;
    const R lo = vl ? *static_cast<const R *>(vl) : R(0), hi = vu ? *static_cast<const R *>(vu) : R(0);
    return detail::bytes<M>(
        device, host, [&] { return typed::syevx_size<M>(h->queue(), detail::compz(jobz), detail::range(range), detail::uplo(uplo), n, lda, lo, hi, il, iu); });
  });
#endif
}
inline status_t xsyevdx(handle_t h, params_t, eig_mode_t jobz, eig_range_t range, fill_mode_t uplo, std::int64_t n, data_type_t ta, void *a, std::int64_t lda,
                        void *vl, void *vu, std::int64_t il, std::int64_t iu, std::int64_t *meig, data_type_t, void *w, data_type_t, void *work,
                        std::size_t work_bytes, void *, std::size_t, int *info) {
  return detail::by_type(ta, [&](auto v) {
    using M = decltype(v);
    using R = detail::real_t<M>;
    const R lo = vl ? *static_cast<const R *>(vl) : R(0), hi = vu ? *static_cast<const R *>(vu) : R(0);
    return typed::eigen_selected<M>(h, info, 1, jobz, range, uplo, n, static_cast<M *>(a), lda, nullptr, 1, lo, hi, il, iu, meig, static_cast<R *>(w), work,
                                    detail::elems_of(work_bytes, sizeof(M)));
  });
}

// cusolverDnXtrtri: the inverse of a triangular matrix, in place
inline status_t xtrtri_buffer_size(handle_t h, fill_mode_t uplo, diag_t diag, std::int64_t n, data_type_t ta, void *, std::int64_t lda, std::size_t *device,
                                   std::size_t *host) {
#ifdef SYCLIFY_ONEMATH
  (void)h, (void)uplo, (void)diag, (void)n, (void)ta, (void)lda, (void)device, (void)host;
  return status_not_supported; // oneMath has no trtri
#else
  return detail::by_type(ta, [&](auto v) {
    using M = decltype(v);
    return detail::bytes<M>(device, host, [&] { return lapack::trtri_scratchpad_size<M>(h->queue(), detail::uplo(uplo), detail::diag(diag), n, lda); });
  });
#endif
}
inline status_t xtrtri(handle_t h, fill_mode_t uplo, diag_t diag, std::int64_t n, data_type_t ta, void *a, std::int64_t lda, void *work, std::size_t work_bytes,
                       void *, std::size_t, int *info) {
#ifdef SYCLIFY_ONEMATH
  (void)h, (void)uplo, (void)diag, (void)n, (void)ta, (void)a, (void)lda, (void)work, (void)work_bytes, (void)info;
  return status_not_supported;
#else
  return detail::by_type(ta, [&](auto v) {
    using M = decltype(v);
    return detail::run(h, info, [&](sycl::queue &q) {
      const mkl::uplo u = detail::uplo(uplo);
      const mkl::diag d = detail::diag(diag);
      typed::scratch<M> ws(q, work, detail::elems_of(work_bytes, sizeof(M)), lapack::trtri_scratchpad_size<M>(q, u, d, n, lda));
      lapack::trtri(q, u, d, n, static_cast<M *>(a), lda, ws.p, ws.size).wait_and_throw();
    });
  });
#endif
}

} // namespace solver
} // namespace syclify
