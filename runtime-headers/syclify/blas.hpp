// syclify cuBLAS helper header — shipped with code migrated from CUDA by
// syclify when that code used cuBLAS. Each cuBLAS call becomes a call of the
// helper of the same operation (`cublasSgemm` → `syclify::blas::gemm`), which
// calls oneMKL's BLAS (the USM API, column_major: CUDA's layout is kept, no
// data is transposed) on the handle's queue.
//
// Needs oneMKL's SYCL interfaces: Intel oneMKL (`oneapi/mkl.hpp`), or the
// open-source oneMath (`oneapi/math.hpp`) with its cuBLAS backend on NVIDIA
// GPUs, with DPC++ or AdaptiveCpp (math_backend.hpp says which is chosen).
//
// How cuBLAS's model maps:
//   * a handle (cublasHandle_t) is a small object holding the queue of its
//     stream (cublasSetStream) and its pointer mode;
//   * status codes keep working like the runtime API's error codes: every
//     helper returns a status_t (CUBLAS_STATUS_SUCCESS is 0); an exception
//     from oneMKL or SYCL becomes CUBLAS_STATUS_EXECUTION_FAILED, or
//     CUBLAS_STATUS_INVALID_VALUE for oneMKL's invalid-argument errors;
//   * scalars (alpha, beta) are read as cuBLAS reads them: host values in
//     CUBLAS_POINTER_MODE_HOST (the default), device pointers in
//     CUBLAS_POINTER_MODE_DEVICE (oneMKL's value_or_pointer; oneMath takes
//     values only, so there a device scalar is copied to the host first,
//     which waits for the stream's earlier work where cuBLAS would not);
//   * results of reductions (dot, nrm2, asum, iamax) go where cuBLAS puts
//     them: to host memory, after waiting, in host pointer mode; to device
//     memory in device pointer mode (asynchronously, except iamax/iamin,
//     whose 64-bit index is narrowed to cuBLAS's int after a wait).
//     iamax/iamin keep cuBLAS's 1-based index (oneMKL's index_base::one;
//     oneMath's 0-based index plus one) and give 0 where n <= 0 or incx <= 0;
//   * cuComplex/cuDoubleComplex (syclify::float2/double2 after migration)
//     are passed to oneMKL as std::complex, whose layout they share.
#pragma once
// what `#ifdef` tests of cuBLAS's header guards became (rules/cuda_macros.yaml)
#define SYCLIFY_CUBLAS 1

#include <sycl/sycl.hpp>

#include "syclify.hpp"
#include "blas_types.hpp"

#include "math_backend.hpp"
#ifdef SYCLIFY_ONEMATH
#include <oneapi/math.hpp>
#else
// the domains used, not <oneapi/mkl.hpp>: that one includes oneMKL's C API
// (mkl.h), whose global names (`second`, `sgemm`, ...) collide with programs'
#include <oneapi/mkl/blas.hpp>
#include <oneapi/mkl/lapack.hpp>
#endif

#include <algorithm>
#include <complex>
#include <cstdint>
#include <exception>
#include <new>
#include <type_traits>
#include <vector>

namespace syclify {
namespace blas {

namespace mkl = syclify::math_library;
namespace mklb = syclify::math_library::blas::column_major;

// ---------------------------------------------------------------------------
// The handle (status codes and enumerations: blas_types.hpp)
// ---------------------------------------------------------------------------

struct handle {
  stream_t stream = nullptr;
  pointer_mode_t pointer_mode = pointer_mode_host;
  math_mode_t math_mode = default_math;
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
inline status_t set_pointer_mode(handle_t h, pointer_mode_t m) {
  h->pointer_mode = m;
  return status_success;
}
inline status_t get_pointer_mode(handle_t h, pointer_mode_t *m) {
  *m = h->pointer_mode;
  return status_success;
}
// the math mode is a hint for cuBLAS's choice of kernels: recorded, no effect
inline status_t set_math_mode(handle_t h, math_mode_t m) {
  h->math_mode = m;
  return status_success;
}
inline status_t get_math_mode(handle_t h, math_mode_t *m) {
  *m = h->math_mode;
  return status_success;
}
inline status_t get_version(handle_t, int *v) {
  *v = 120000; // the cuBLAS API level these helpers follow
  return status_success;
}

namespace detail {

inline mkl::transpose trans(operation_t op) {
  return op == op_n ? mkl::transpose::nontrans : op == op_t ? mkl::transpose::trans : mkl::transpose::conjtrans;
}
inline mkl::uplo uplo(fill_mode_t f) { return f == fill_lower ? mkl::uplo::lower : mkl::uplo::upper; }
inline mkl::diag diag(diag_t d) { return d == diag_unit ? mkl::diag::unit : mkl::diag::nonunit; }
inline mkl::side side(side_t s) { return s == side_left ? mkl::side::left : mkl::side::right; }

// CUDA's types as oneMKL's: cuComplex (float2) is std::complex<float>, half is sycl::half
template <class T> struct mkl_type {
  using type = T;
};
template <> struct mkl_type<syclify::float2> {
  using type = std::complex<float>;
};
template <> struct mkl_type<syclify::double2> {
  using type = std::complex<double>;
};
template <class T> using mkl_t = typename mkl_type<std::remove_cv_t<T>>::type;

template <class T> auto *cast(T *p) {
  using M = std::conditional_t<std::is_const_v<T>, const mkl_t<T>, mkl_t<T>>;
  return reinterpret_cast<M *>(p);
}
template <class T> auto *cast(T **p) {
  using M = std::conditional_t<std::is_const_v<T>, const mkl_t<T>, mkl_t<T>>;
  return reinterpret_cast<M **>(p);
}
template <class T> auto **cast(T *const *p) {
  using M = std::conditional_t<std::is_const_v<T>, const mkl_t<T>, mkl_t<T>>;
  return reinterpret_cast<M *const *>(p);
}

// a scalar's value on the host, for the calls that take values only
// (omatadd, the group form of gemm_batch; every call with oneMath): copied
// from the device in device pointer mode
template <class T> mkl_t<T> host_scalar(handle_t h, const T *p) {
  if (h->pointer_mode == pointer_mode_device) {
    mkl_t<T> v;
    h->queue().memcpy(&v, p, sizeof(v)).wait();
    return v;
  }
  return *cast(p);
}

#ifdef SYCLIFY_ONEMATH
// a scalar as cuBLAS reads it: oneMath takes values only
template <class T> mkl_t<T> scalar(handle_t h, const T *p) { return host_scalar(h, p); }
#else
// a scalar as cuBLAS reads it: the value in host pointer mode, the device pointer otherwise
template <class T> mkl::value_or_pointer<mkl_t<T>> scalar(handle_t h, const T *p) {
  if (h->pointer_mode == pointer_mode_device)
    return mkl::value_or_pointer<mkl_t<T>>(cast(p));
  return mkl::value_or_pointer<mkl_t<T>>(*cast(p));
}
#endif

// runs f, mapping exceptions to cuBLAS status codes
template <class F> status_t guarded(F &&f) {
  try {
    f();
    return status_success;
  } catch (const mkl::invalid_argument &) {
    return status_invalid_value;
  } catch (const mkl::unsupported_device &) {
    return status_not_supported;
  } catch (const mkl::unimplemented &) {
    return status_not_supported;
  } catch (const std::exception &) {
    return status_execution_failed;
  }
}

// a reduction whose result R goes to `result` as cuBLAS puts it: through a
// shared temporary and a wait in host pointer mode, directly otherwise
// the value f(q, tmp) writes to a shared temporary, after a wait
template <class R, class F> R through_host(sycl::queue &q, F &&f) {
  R *tmp = sycl::malloc_shared<R>(1, q);
  try {
    f(q, tmp).wait_and_throw();
  } catch (...) {
    sycl::free(tmp, q);
    throw;
  }
  const R value = *tmp;
  sycl::free(tmp, q);
  return value;
}

template <class R, class F> status_t reduce_to(handle_t h, R *result, F &&f) {
  return guarded([&] {
    sycl::queue &q = h->queue();
    if (h->pointer_mode == pointer_mode_device)
      f(q, result);
    else
      *result = through_host<R>(q, f);
  });
}

} // namespace detail

// ---------------------------------------------------------------------------
// Data movement (cublasSetVector/GetVector/SetMatrix/GetMatrix and *Async)
// ---------------------------------------------------------------------------

// strided copies of `rows` elements of `elem` bytes, `cols` times
inline status_t copy_2d(sycl::queue &q, int rows, int cols, int elem, const void *src, int lds, void *dst, int ldd, bool wait) {
  if (rows < 0 || cols < 0 || elem <= 0 || lds < rows || ldd < rows)
    return status_invalid_value;
  return detail::guarded([&] {
    sycl::event e;
    if (lds == rows && ldd == rows) {
      e = q.memcpy(dst, src, static_cast<std::size_t>(rows) * cols * elem);
    } else {
      for (int c = 0; c < cols; ++c)
        e = q.memcpy(static_cast<char *>(dst) + static_cast<std::size_t>(c) * ldd * elem,
                     static_cast<const char *>(src) + static_cast<std::size_t>(c) * lds * elem, static_cast<std::size_t>(rows) * elem);
    }
    if (wait)
      q.wait_and_throw();
  });
}
// vectors with increments: element i is at x + i * incx
inline status_t copy_vector(sycl::queue &q, int n, int elem, const void *x, int incx, void *y, int incy, bool wait) {
  if (incx == 1 && incy == 1)
    return copy_2d(q, n, 1, elem, x, n, y, n, wait);
  if (incx <= 0 || incy <= 0)
    return status_invalid_value;
  return detail::guarded([&] {
    for (int i = 0; i < n; ++i)
      q.memcpy(static_cast<char *>(y) + static_cast<std::size_t>(i) * incy * elem, static_cast<const char *>(x) + static_cast<std::size_t>(i) * incx * elem, elem);
    if (wait)
      q.wait_and_throw();
  });
}
inline status_t set_vector(int n, int elem, const void *x, int incx, void *y, int incy) {
  return copy_vector(default_queue(), n, elem, x, incx, y, incy, true);
}
inline status_t get_vector(int n, int elem, const void *x, int incx, void *y, int incy) {
  return copy_vector(default_queue(), n, elem, x, incx, y, incy, true);
}
inline status_t set_matrix(int rows, int cols, int elem, const void *a, int lda, void *b, int ldb) {
  return copy_2d(default_queue(), rows, cols, elem, a, lda, b, ldb, true);
}
inline status_t get_matrix(int rows, int cols, int elem, const void *a, int lda, void *b, int ldb) {
  return copy_2d(default_queue(), rows, cols, elem, a, lda, b, ldb, true);
}
inline status_t set_vector_async(int n, int elem, const void *x, int incx, void *y, int incy, stream_t s) {
  return copy_vector(queue_of(s), n, elem, x, incx, y, incy, false);
}
inline status_t get_vector_async(int n, int elem, const void *x, int incx, void *y, int incy, stream_t s) {
  return copy_vector(queue_of(s), n, elem, x, incx, y, incy, false);
}
inline status_t set_matrix_async(int rows, int cols, int elem, const void *a, int lda, void *b, int ldb, stream_t s) {
  return copy_2d(queue_of(s), rows, cols, elem, a, lda, b, ldb, false);
}
inline status_t get_matrix_async(int rows, int cols, int elem, const void *a, int lda, void *b, int ldb, stream_t s) {
  return copy_2d(queue_of(s), rows, cols, elem, a, lda, b, ldb, false);
}

// ---------------------------------------------------------------------------
// Level 1
// ---------------------------------------------------------------------------

template <class T> status_t axpy(handle_t h, int n, const T *alpha, const T *x, int incx, T *y, int incy) {
  return detail::guarded([&] { mklb::axpy(h->queue(), n, detail::scalar(h, alpha), detail::cast(x), incx, detail::cast(y), incy); });
}
template <class T, class S> status_t scal(handle_t h, int n, const S *alpha, T *x, int incx) {
  return detail::guarded([&] { mklb::scal(h->queue(), n, detail::scalar(h, alpha), detail::cast(x), incx); });
}
template <class T> status_t copy(handle_t h, int n, const T *x, int incx, T *y, int incy) {
  return detail::guarded([&] { mklb::copy(h->queue(), n, detail::cast(x), incx, detail::cast(y), incy); });
}
template <class T> status_t swap(handle_t h, int n, T *x, int incx, T *y, int incy) {
  return detail::guarded([&] { mklb::swap(h->queue(), n, detail::cast(x), incx, detail::cast(y), incy); });
}
template <class T, class C, class S> status_t rot(handle_t h, int n, T *x, int incx, T *y, int incy, const C *c, const S *s) {
  return detail::guarded([&] {
    mklb::rot(h->queue(), n, detail::cast(x), incx, detail::cast(y), incy, detail::scalar(h, c), detail::scalar(h, s));
  });
}
// dot (real), dotu (complex, unconjugated), dotc (complex, x conjugated)
template <class T> status_t dot(handle_t h, int n, const T *x, int incx, const T *y, int incy, T *result) {
  return detail::reduce_to(h, detail::cast(result), [&](sycl::queue &q, auto *r) {
    if constexpr (std::is_floating_point_v<T>)
      return mklb::dot(q, n, detail::cast(x), incx, detail::cast(y), incy, r);
    else
      return mklb::dotu(q, n, detail::cast(x), incx, detail::cast(y), incy, r);
  });
}
template <class T> status_t dotc(handle_t h, int n, const T *x, int incx, const T *y, int incy, T *result) {
  return detail::reduce_to(h, detail::cast(result), [&](sycl::queue &q, auto *r) { return mklb::dotc(q, n, detail::cast(x), incx, detail::cast(y), incy, r); });
}
template <class T, class R> status_t nrm2(handle_t h, int n, const T *x, int incx, R *result) {
  return detail::reduce_to(h, result, [&](sycl::queue &q, R *r) { return mklb::nrm2(q, n, detail::cast(x), incx, r); });
}
template <class T, class R> status_t asum(handle_t h, int n, const T *x, int incx, R *result) {
  return detail::reduce_to(h, result, [&](sycl::queue &q, R *r) { return mklb::asum(q, n, detail::cast(x), incx, r); });
}
namespace detail {
// iamax/iamin: cuBLAS's 1-based int index, written where cuBLAS writes it
// (0 where n <= 0 or incx <= 0, as cuBLAS). oneMKL is asked for a 1-based
// index; oneMath's is 0-based and gets one added. The 64-bit result is
// narrowed on the host, so device pointer mode waits here.
template <class F> status_t index_to(handle_t h, int n, int incx, int *result, F &&f) {
  return guarded([&] {
    sycl::queue &q = h->queue();
    int index = 0;
    if (n > 0 && incx > 0) {
      const std::int64_t found = through_host<std::int64_t>(q, f);
#ifdef SYCLIFY_ONEMATH
      index = static_cast<int>(found + 1);
#else
      index = static_cast<int>(found);
#endif
    }
    if (h->pointer_mode == pointer_mode_device)
      q.memcpy(result, &index, sizeof(int)).wait();
    else
      *result = index;
  });
}
#ifdef SYCLIFY_ONEMATH
template <class T> sycl::event iamax(sycl::queue &q, int n, const T *x, int incx, std::int64_t *r) { return mklb::iamax(q, n, x, incx, r); }
template <class T> sycl::event iamin(sycl::queue &q, int n, const T *x, int incx, std::int64_t *r) { return mklb::iamin(q, n, x, incx, r); }
#else
template <class T> sycl::event iamax(sycl::queue &q, int n, const T *x, int incx, std::int64_t *r) {
  return mklb::iamax(q, n, x, incx, r, mkl::index_base::one);
}
template <class T> sycl::event iamin(sycl::queue &q, int n, const T *x, int incx, std::int64_t *r) {
  return mklb::iamin(q, n, x, incx, r, mkl::index_base::one);
}
#endif
} // namespace detail
template <class T> status_t iamax(handle_t h, int n, const T *x, int incx, int *result) {
  return detail::index_to(h, n, incx, result, [&](sycl::queue &q, std::int64_t *r) { return detail::iamax(q, n, detail::cast(x), incx, r); });
}
template <class T> status_t iamin(handle_t h, int n, const T *x, int incx, int *result) {
  return detail::index_to(h, n, incx, result, [&](sycl::queue &q, std::int64_t *r) { return detail::iamin(q, n, detail::cast(x), incx, r); });
}

// ---------------------------------------------------------------------------
// Level 2
// ---------------------------------------------------------------------------

template <class T>
status_t gemv(handle_t h, operation_t trans, int m, int n, const T *alpha, const T *a, int lda, const T *x, int incx, const T *beta, T *y, int incy) {
  return detail::guarded([&] {
    mklb::gemv(h->queue(), detail::trans(trans), m, n, detail::scalar(h, alpha), detail::cast(a), lda, detail::cast(x), incx, detail::scalar(h, beta),
               detail::cast(y), incy);
  });
}
template <class T> status_t ger(handle_t h, int m, int n, const T *alpha, const T *x, int incx, const T *y, int incy, T *a, int lda) {
  return detail::guarded([&] {
    if constexpr (std::is_floating_point_v<T>)
      mklb::ger(h->queue(), m, n, detail::scalar(h, alpha), detail::cast(x), incx, detail::cast(y), incy, detail::cast(a), lda);
    else
      mklb::geru(h->queue(), m, n, detail::scalar(h, alpha), detail::cast(x), incx, detail::cast(y), incy, detail::cast(a), lda);
  });
}
template <class T>
status_t symv(handle_t h, fill_mode_t uplo, int n, const T *alpha, const T *a, int lda, const T *x, int incx, const T *beta, T *y, int incy) {
  return detail::guarded([&] {
    mklb::symv(h->queue(), detail::uplo(uplo), n, detail::scalar(h, alpha), detail::cast(a), lda, detail::cast(x), incx, detail::scalar(h, beta),
               detail::cast(y), incy);
  });
}
template <class T> status_t trsv(handle_t h, fill_mode_t uplo, operation_t trans, diag_t diag, int n, const T *a, int lda, T *x, int incx) {
  return detail::guarded(
      [&] { mklb::trsv(h->queue(), detail::uplo(uplo), detail::trans(trans), detail::diag(diag), n, detail::cast(a), lda, detail::cast(x), incx); });
}
template <class T> status_t trmv(handle_t h, fill_mode_t uplo, operation_t trans, diag_t diag, int n, const T *a, int lda, T *x, int incx) {
  return detail::guarded(
      [&] { mklb::trmv(h->queue(), detail::uplo(uplo), detail::trans(trans), detail::diag(diag), n, detail::cast(a), lda, detail::cast(x), incx); });
}

// ---------------------------------------------------------------------------
// Level 3
// ---------------------------------------------------------------------------

template <class T>
status_t gemm(handle_t h, operation_t transa, operation_t transb, int m, int n, int k, const T *alpha, const T *a, int lda, const T *b, int ldb,
              const T *beta, T *c, int ldc) {
  return detail::guarded([&] {
    mklb::gemm(h->queue(), detail::trans(transa), detail::trans(transb), m, n, k, detail::scalar(h, alpha), detail::cast(a), lda, detail::cast(b), ldb,
               detail::scalar(h, beta), detail::cast(c), ldc);
  });
}
template <class T>
status_t gemm_strided_batched(handle_t h, operation_t transa, operation_t transb, int m, int n, int k, const T *alpha, const T *a, int lda,
                              long long stride_a, const T *b, int ldb, long long stride_b, const T *beta, T *c, int ldc, long long stride_c,
                              int batch_count) {
  return detail::guarded([&] {
    mklb::gemm_batch(h->queue(), detail::trans(transa), detail::trans(transb), m, n, k, detail::scalar(h, alpha), detail::cast(a), lda, stride_a,
                     detail::cast(b), ldb, stride_b, detail::scalar(h, beta), detail::cast(c), ldc, stride_c, batch_count);
  });
}
// arrays of matrix pointers (in device memory, as cuBLAS's): one group of batch_count
template <class T>
status_t gemm_batched(handle_t h, operation_t transa, operation_t transb, int m, int n, int k, const T *alpha, const T *const a[], int lda,
                      const T *const b[], int ldb, const T *beta, T *const c[], int ldc, int batch_count) {
  return detail::guarded([&] {
    using M = detail::mkl_t<T>;
    // not const: oneMath's group form takes these through non-const pointers
    mkl::transpose ta = detail::trans(transa), tb = detail::trans(transb);
    std::int64_t m64 = m, n64 = n, k64 = k, lda64 = lda, ldb64 = ldb, ldc64 = ldc, group = batch_count;
    M al = detail::host_scalar(h, alpha), be = detail::host_scalar(h, beta);
    mklb::gemm_batch(h->queue(), &ta, &tb, &m64, &n64, &k64, &al, reinterpret_cast<const M **>(const_cast<const T **>(a)), &lda64,
                     reinterpret_cast<const M **>(const_cast<const T **>(b)), &ldb64, &be, reinterpret_cast<M **>(const_cast<T **>(c)), &ldc64, 1, &group)
        .wait_and_throw(); // the group arrays above live on this stack
  });
}
template <class T>
status_t symm(handle_t h, side_t side, fill_mode_t uplo, int m, int n, const T *alpha, const T *a, int lda, const T *b, int ldb, const T *beta, T *c,
              int ldc) {
  return detail::guarded([&] {
    mklb::symm(h->queue(), detail::side(side), detail::uplo(uplo), m, n, detail::scalar(h, alpha), detail::cast(a), lda, detail::cast(b), ldb,
               detail::scalar(h, beta), detail::cast(c), ldc);
  });
}
template <class T>
status_t syrk(handle_t h, fill_mode_t uplo, operation_t trans, int n, int k, const T *alpha, const T *a, int lda, const T *beta, T *c, int ldc) {
  return detail::guarded([&] {
    mklb::syrk(h->queue(), detail::uplo(uplo), detail::trans(trans), n, k, detail::scalar(h, alpha), detail::cast(a), lda, detail::scalar(h, beta),
               detail::cast(c), ldc);
  });
}
// cuBLAS's trmm writes a separate C (C = alpha op(A) B); oneMKL's works in place on B
template <class T>
status_t trmm(handle_t h, side_t side, fill_mode_t uplo, operation_t trans, diag_t diag, int m, int n, const T *alpha, const T *a, int lda, const T *b,
              int ldb, T *c, int ldc) {
  return detail::guarded([&] {
    sycl::queue &q = h->queue();
    if (c != b)
      for (int j = 0; j < n; ++j)
        q.memcpy(c + static_cast<std::size_t>(j) * ldc, b + static_cast<std::size_t>(j) * ldb, sizeof(T) * m);
    mklb::trmm(q, detail::side(side), detail::uplo(uplo), detail::trans(trans), detail::diag(diag), m, n, detail::scalar(h, alpha), detail::cast(a), lda,
               detail::cast(c), ldc);
  });
}
template <class T>
status_t trsm(handle_t h, side_t side, fill_mode_t uplo, operation_t trans, diag_t diag, int m, int n, const T *alpha, const T *a, int lda, T *b, int ldb) {
  return detail::guarded([&] {
    mklb::trsm(h->queue(), detail::side(side), detail::uplo(uplo), detail::trans(trans), detail::diag(diag), m, n, detail::scalar(h, alpha),
               detail::cast(a), lda, detail::cast(b), ldb);
  });
}
// cublas<t>geam: C = alpha op(A) + beta op(B) (oneMKL's omatadd)
template <class T>
status_t geam(handle_t h, operation_t transa, operation_t transb, int m, int n, const T *alpha, const T *a, int lda, const T *beta, const T *b, int ldb,
              T *c, int ldc) {
  return detail::guarded([&] {
    mklb::omatadd(h->queue(), detail::trans(transa), detail::trans(transb), m, n, detail::host_scalar(h, alpha), detail::cast(a), lda,
                  detail::host_scalar(h, beta), detail::cast(b), ldb, detail::cast(c), ldc);
  });
}

// ---------------------------------------------------------------------------
// Mixed precision: cublasGemmEx, cublasDotEx (the types cuBLAS names at run time)
// ---------------------------------------------------------------------------


namespace detail {
template <class Ta, class Tc, class Ts>
void gemm_typed(handle_t h, operation_t transa, operation_t transb, int m, int n, int k, const void *alpha, const void *a, int lda, const void *b, int ldb,
                const void *beta, void *c, int ldc) {
  mklb::gemm(h->queue(), trans(transa), trans(transb), m, n, k, scalar(h, static_cast<const Ts *>(alpha)), static_cast<const mkl_t<Ta> *>(a), lda,
             static_cast<const mkl_t<Ta> *>(b), ldb, scalar(h, static_cast<const Ts *>(beta)), static_cast<mkl_t<Tc> *>(c), ldc);
}
} // namespace detail

// the scalars' type follows the compute type, as cuBLAS's: float for the 32F
// compute types (also with half inputs), half for 16F, double for 64F
inline status_t gemm_ex(handle_t h, operation_t transa, operation_t transb, int m, int n, int k, const void *alpha, const void *a, data_type_t atype,
                        int lda, const void *b, data_type_t btype, int ldb, const void *beta, void *c, data_type_t ctype, int ldc,
                        compute_type_t compute, gemm_algo_t = -1) {
  if (atype != btype)
    return status_not_supported;
  return detail::guarded([&] {
    const bool c16 = compute == compute_16f || compute == compute_16f_pedantic;
    const bool c64 = compute == compute_64f || compute == compute_64f_pedantic;
    if (atype == r_32f && ctype == r_32f)
      detail::gemm_typed<float, float, float>(h, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    else if (atype == r_64f && ctype == r_64f && c64)
      detail::gemm_typed<double, double, double>(h, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    else if (atype == r_16f && ctype == r_16f && c16)
      detail::gemm_typed<sycl::half, sycl::half, sycl::half>(h, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    else if (atype == r_16f && ctype == r_16f) {
      // half in and out, float scalars: oneMKL's half GEMM takes half scalars
      // (read on the host, copied there first in device pointer mode)
      const sycl::half al = static_cast<sycl::half>(detail::host_scalar(h, static_cast<const float *>(alpha)));
      const sycl::half be = static_cast<sycl::half>(detail::host_scalar(h, static_cast<const float *>(beta)));
      mklb::gemm(h->queue(), detail::trans(transa), detail::trans(transb), m, n, k, al, static_cast<const sycl::half *>(a), lda,
                 static_cast<const sycl::half *>(b), ldb, be, static_cast<sycl::half *>(c), ldc);
    }
    else if (atype == r_16f && ctype == r_32f)
      detail::gemm_typed<sycl::half, float, float>(h, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
#ifdef SYCLIFY_ONEMATH
    else if (atype == r_16bf && ctype == r_16bf)
      throw mkl::unimplemented("syclify::blas", "gemm_ex", "bfloat16 output: oneMath's bfloat16 GEMM writes float");
#else
    else if (atype == r_16bf && ctype == r_16bf)
      mklb::gemm(h->queue(), detail::trans(transa), detail::trans(transb), m, n, k, detail::scalar(h, static_cast<const float *>(alpha)),
                 static_cast<const mkl::bfloat16 *>(a), lda, static_cast<const mkl::bfloat16 *>(b), ldb,
                 detail::scalar(h, static_cast<const float *>(beta)), static_cast<mkl::bfloat16 *>(c), ldc);
#endif
    else if (atype == r_16bf && ctype == r_32f)
      mklb::gemm(h->queue(), detail::trans(transa), detail::trans(transb), m, n, k, detail::scalar(h, static_cast<const float *>(alpha)),
                 static_cast<const mkl::bfloat16 *>(a), lda, static_cast<const mkl::bfloat16 *>(b), ldb,
                 detail::scalar(h, static_cast<const float *>(beta)), static_cast<float *>(c), ldc);
    else if (atype == c_32f && ctype == c_32f)
      detail::gemm_typed<std::complex<float>, std::complex<float>, std::complex<float>>(h, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    else if (atype == c_64f && ctype == c_64f)
      detail::gemm_typed<std::complex<double>, std::complex<double>, std::complex<double>>(h, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c,
                                                                                         ldc);
    else
      throw mkl::unimplemented("syclify::blas", "gemm_ex", "this combination of data and compute types");
  });
}

// cublasDotEx: x and y of one type, the result of another, computed in a third
inline status_t dot_ex(handle_t h, int n, const void *x, data_type_t xtype, int incx, const void *y, data_type_t ytype, int incy, void *result,
                       data_type_t rtype, data_type_t exec) {
  (void)exec;
  if (xtype != ytype || xtype != rtype)
    return status_not_supported;
  switch (xtype) {
  case r_32f: return dot(h, n, static_cast<const float *>(x), incx, static_cast<const float *>(y), incy, static_cast<float *>(result));
  case r_64f: return dot(h, n, static_cast<const double *>(x), incx, static_cast<const double *>(y), incy, static_cast<double *>(result));
  default: return status_not_supported;
  }
}

// ---------------------------------------------------------------------------
// Batched LU and least squares (cublas<t>getrfBatched, getrsBatched,
// getriBatched, gelsBatched) on oneMKL's LAPACK group batch API
// ---------------------------------------------------------------------------
//
// cuBLAS takes device arrays of device pointers and 32-bit pivots; oneMKL
// takes arrays of pointers it reads on the host and the device (copied here
// into shared memory), 64-bit pivots through an array of pointers, and a
// scratchpad. A singular factor is reported by oneMKL as an exception per
// failed matrix: its info goes to cuBLAS's per-matrix info array. These calls
// wait for the device, as cuBLAS's do for their info results.

namespace detail {

// USM of one kind that frees itself
template <class T, sycl::usm::alloc Kind> struct usm_array {
  sycl::queue &q;
  T *p;
  usm_array(sycl::queue &queue, std::size_t n) : q(queue), p(sycl::malloc<T>(n ? n : 1, queue, Kind)) {
    if (!p)
      throw std::bad_alloc();
  }
  ~usm_array() { sycl::free(p, q); }
  usm_array(const usm_array &) = delete;
  usm_array &operator=(const usm_array &) = delete;
};
template <class T> using shared_array = usm_array<T, sycl::usm::alloc::shared>;
template <class T> using device_array = usm_array<T, sycl::usm::alloc::device>;

// the batch's matrix pointers, copied from the device array cuBLAS was given
template <class T> void copy_pointers(sycl::queue &q, T *const *from, T **to, int batch) { q.memcpy(to, from, sizeof(T *) * batch).wait(); }

// 64-bit pivots, n per matrix, and oneMKL's array of pointers to them
struct pivots {
  shared_array<std::int64_t> values;
  shared_array<std::int64_t *> pointers;
  pivots(sycl::queue &q, int n, int batch) : values(q, static_cast<std::size_t>(n) * batch), pointers(q, batch) {
    for (int b = 0; b < batch; ++b)
      pointers.p[b] = values.p + static_cast<std::size_t>(n) * b;
  }
};

// 64-bit pivots (oneMKL's) to 32-bit ones (cuBLAS's and cuSOLVER's), and back
inline void narrow_pivots(sycl::queue &q, const std::int64_t *from, int *to, std::int64_t n) {
  if (to && n > 0)
    q.parallel_for(sycl::range<1>(static_cast<std::size_t>(n)), [=](sycl::id<1> i) { to[i] = static_cast<int>(from[i]); }).wait();
}
inline void widen_pivots(sycl::queue &q, const int *from, std::int64_t *to, std::int64_t n) {
  if (n > 0)
    q.parallel_for(sycl::range<1>(static_cast<std::size_t>(n)), [=](sycl::id<1> i) { to[i] = from[i]; }).wait();
}

// runs a LAPACK batch call, writing each matrix's info (0, or oneMKL's info
// for the matrices it reports) to `info` (device memory, may be null)
template <class F> void with_batch_info(sycl::queue &q, int *info, int batch, F &&f) {
  std::vector<int> infos(batch, 0);
  try {
    f();
  } catch (const mkl::lapack::batch_error &e) {
    const auto &ids = e.ids();
    const auto &errors = e.exceptions();
    for (std::size_t i = 0; i < ids.size() && i < errors.size(); ++i) {
      try {
        std::rethrow_exception(errors[i]);
      } catch (const mkl::lapack::exception &x) {
        if (ids[i] >= 0 && ids[i] < batch)
          infos[ids[i]] = static_cast<int>(x.info());
      } catch (...) {
        throw;
      }
    }
  }
  if (info)
    q.memcpy(info, infos.data(), sizeof(int) * batch).wait();
}

} // namespace detail

// cublas<t>getrfBatched: LU with partial pivoting (P != null) or without
// (P null), in place; P gets the 1-based pivots, n per matrix
template <class T> status_t getrf_batched(handle_t h, int n, T *const a[], int lda, int *P, int *info, int batch) {
  using M = detail::mkl_t<T>;
  return detail::guarded([&] {
    sycl::queue &q = h->queue();
    detail::shared_array<M *> ptrs(q, batch);
    detail::copy_pointers(q, reinterpret_cast<M *const *>(a), ptrs.p, batch);
    std::int64_t m64 = n, n64 = n, lda64 = lda, size = batch;
    if (P) {
      detail::pivots piv(q, n, batch);
      const std::int64_t scratch = mkl::lapack::getrf_batch_scratchpad_size<M>(q, &m64, &n64, &lda64, 1, &size);
      detail::device_array<M> work(q, static_cast<std::size_t>(scratch));
      detail::with_batch_info(q, info, batch, [&] {
        mkl::lapack::getrf_batch(q, &m64, &n64, ptrs.p, &lda64, piv.pointers.p, 1, &size, work.p, scratch).wait_and_throw();
      });
      detail::narrow_pivots(q, piv.values.p, P, static_cast<std::int64_t>(n) * batch);
    } else {
#ifdef SYCLIFY_ONEMATH
      throw mkl::unimplemented("syclify::blas", "getrf_batched", "LU without pivoting: oneMath has no getrfnp_batch");
#else
      const std::int64_t scratch = mkl::lapack::getrfnp_batch_scratchpad_size<M>(q, &m64, &n64, &lda64, 1, &size);
      detail::device_array<M> work(q, static_cast<std::size_t>(scratch));
      detail::with_batch_info(q, info, batch, [&] {
        mkl::lapack::getrfnp_batch(q, &m64, &n64, ptrs.p, &lda64, 1, &size, work.p, scratch).wait_and_throw();
      });
#endif
    }
  });
}

// cublas<t>getrsBatched: solves op(A) X = B with getrf's factors; `info`
// (host) reports an invalid argument as cuBLAS does, 0 otherwise
template <class T>
status_t getrs_batched(handle_t h, operation_t trans, int n, int nrhs, const T *const a[], int lda, const int *P, T *const b[], int ldb, int *info,
                       int batch) {
  using M = detail::mkl_t<T>;
  *info = 0;
  if (n < 0)
    *info = -2;
  else if (nrhs < 0)
    *info = -3;
  else if (lda < std::max(1, n))
    *info = -5;
  else if (ldb < std::max(1, n))
    *info = -8;
  else if (batch < 0)
    *info = -10;
  if (*info != 0)
    return status_invalid_value;
  return detail::guarded([&] {
    sycl::queue &q = h->queue();
    detail::shared_array<const M *> aptrs(q, batch);
    detail::shared_array<M *> bptrs(q, batch);
    q.memcpy(aptrs.p, a, sizeof(M *) * batch);
    q.memcpy(bptrs.p, b, sizeof(M *) * batch).wait();
    detail::pivots piv(q, n, batch);
    detail::widen_pivots(q, P, piv.values.p, static_cast<std::int64_t>(n) * batch);
    mkl::transpose t = detail::trans(trans);
    std::int64_t n64 = n, nrhs64 = nrhs, lda64 = lda, ldb64 = ldb, size = batch;
    const std::int64_t scratch = mkl::lapack::getrs_batch_scratchpad_size<M>(q, &t, &n64, &nrhs64, &lda64, &ldb64, 1, &size);
    detail::device_array<M> work(q, static_cast<std::size_t>(scratch));
#ifdef SYCLIFY_ONEMATH
    M **factors = const_cast<M **>(aptrs.p); // oneMath's getrs_batch takes non-const matrices (and reads them only)
#else
    const M **factors = aptrs.p;
#endif
    mkl::lapack::getrs_batch(q, &t, &n64, &nrhs64, factors, &lda64, piv.pointers.p, bptrs.p, &ldb64, 1, &size, work.p, scratch).wait_and_throw();
  });
}

// cublas<t>getriBatched: C = inv(A) from getrf's factors (out of place: A is
// copied to C, which oneMKL then inverts in place)
template <class T>
status_t getri_batched(handle_t h, int n, const T *const a[], int lda, const int *P, T *const c[], int ldc, int *info, int batch) {
  using M = detail::mkl_t<T>;
  return detail::guarded([&] {
    sycl::queue &q = h->queue();
    detail::shared_array<const M *> aptrs(q, batch);
    detail::shared_array<M *> cptrs(q, batch);
    q.memcpy(aptrs.p, a, sizeof(M *) * batch);
    q.memcpy(cptrs.p, c, sizeof(M *) * batch).wait();
    const M *const *ap = aptrs.p;
    M *const *cp = cptrs.p;
    q.parallel_for(sycl::range<3>(static_cast<std::size_t>(batch), static_cast<std::size_t>(n), static_cast<std::size_t>(n)), [=](sycl::id<3> i) {
       cp[i[0]][i[1] * ldc + i[2]] = ap[i[0]][i[1] * lda + i[2]];
     }).wait();
    detail::pivots piv(q, n, batch);
    std::int64_t *to = piv.values.p;
    if (P)
      detail::widen_pivots(q, P, to, static_cast<std::int64_t>(n) * batch);
    else
      q.parallel_for(sycl::range<1>(static_cast<std::size_t>(n) * batch), [=](sycl::id<1> i) { to[i] = static_cast<std::int64_t>(i[0] % n) + 1; }).wait();
    std::int64_t n64 = n, ldc64 = ldc, size = batch;
    const std::int64_t scratch = mkl::lapack::getri_batch_scratchpad_size<M>(q, &n64, &ldc64, 1, &size);
    detail::device_array<M> work(q, static_cast<std::size_t>(scratch));
    detail::with_batch_info(q, info, batch, [&] {
      mkl::lapack::getri_batch(q, &n64, cptrs.p, &ldc64, piv.pointers.p, 1, &size, work.p, scratch).wait_and_throw();
    });
  });
}

// cublas<t>gelsBatched: least squares min ||op(A) X - C|| for full-rank A
// (m >= n, no transpose, as cuBLAS supports); X overwrites C. `info` (host)
// reports an invalid argument; `dev_info` (device, may be null) each
// matrix's info
template <class T>
status_t gels_batched(handle_t h, operation_t trans, int m, int n, int nrhs, T *const a[], int lda, T *const c[], int ldc, int *info, int *dev_info,
                      int batch) {
  using M = detail::mkl_t<T>;
  *info = 0;
  if (m < 0)
    *info = -2;
  else if (n < 0 || n > m)
    *info = -3;
  else if (nrhs < 0)
    *info = -4;
  else if (lda < std::max(1, m))
    *info = -6;
  else if (ldc < std::max(1, m))
    *info = -8;
  else if (batch < 0)
    *info = -11;
  if (*info != 0)
    return status_invalid_value;
  if (trans != op_n)
    return status_not_supported;
#ifdef SYCLIFY_ONEMATH
  return status_not_supported; // oneMath has no gels_batch
#else
  return detail::guarded([&] {
    sycl::queue &q = h->queue();
    detail::shared_array<M *> aptrs(q, batch), cptrs(q, batch);
    detail::copy_pointers(q, reinterpret_cast<M *const *>(a), aptrs.p, batch);
    detail::copy_pointers(q, reinterpret_cast<M *const *>(c), cptrs.p, batch);
    mkl::transpose t = mkl::transpose::nontrans;
    std::int64_t m64 = m, n64 = n, nrhs64 = nrhs, lda64 = lda, ldc64 = ldc, size = batch;
    const std::int64_t scratch = mkl::lapack::gels_batch_scratchpad_size<M>(q, &t, &m64, &n64, &nrhs64, &lda64, &ldc64, 1, &size);
    detail::device_array<M> work(q, static_cast<std::size_t>(scratch));
    detail::with_batch_info(q, dev_info, batch, [&] {
      mkl::lapack::gels_batch(q, &t, &m64, &n64, &nrhs64, aptrs.p, &lda64, cptrs.p, &ldc64, 1, &size, work.p, scratch).wait_and_throw();
    });
  });
#endif
}

} // namespace blas
} // namespace syclify
