// syclify cuBLAS helper header — shipped with code migrated from CUDA by
// syclify when that code used cuBLAS. Each cuBLAS call becomes a call of the
// helper of the same operation (`cublasSgemm` → `syclify::blas::gemm`), which
// calls oneMKL's BLAS (the USM API, column_major: CUDA's layout is kept, no
// data is transposed) on the handle's queue.
//
// Needs oneMKL's SYCL interfaces (`oneapi/mkl.hpp`: Intel oneMKL, or the
// open-source oneMath with its cuBLAS backend on NVIDIA GPUs).
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
//     CUBLAS_POINTER_MODE_DEVICE (oneMKL's value_or_pointer);
//   * results of reductions (dot, nrm2, asum, iamax) go where cuBLAS puts
//     them: to host memory, after waiting, in host pointer mode; to device
//     memory, asynchronously, in device pointer mode. iamax/iamin keep
//     cuBLAS's 1-based index (oneMKL's index_base::one);
//   * cuComplex/cuDoubleComplex (syclify::float2/double2 after migration)
//     are passed to oneMKL as std::complex, whose layout they share.
#pragma once

#include <sycl/sycl.hpp>

#include "syclify.hpp"

#include <oneapi/mkl.hpp>

#include <complex>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace syclify {
namespace blas {

namespace mkl = oneapi::mkl;
namespace mklb = oneapi::mkl::blas::column_major;

// ---------------------------------------------------------------------------
// Status codes, enumerations, the handle
// ---------------------------------------------------------------------------

using status_t = int;
constexpr status_t status_success = 0;
constexpr status_t status_not_initialized = 1;
constexpr status_t status_alloc_failed = 3;
constexpr status_t status_invalid_value = 7;
constexpr status_t status_arch_mismatch = 8;
constexpr status_t status_mapping_error = 11;
constexpr status_t status_execution_failed = 13;
constexpr status_t status_internal_error = 14;
constexpr status_t status_not_supported = 15;

inline const char *get_status_string(status_t s) {
  switch (s) {
  case status_success: return "CUBLAS_STATUS_SUCCESS";
  case status_not_initialized: return "CUBLAS_STATUS_NOT_INITIALIZED";
  case status_alloc_failed: return "CUBLAS_STATUS_ALLOC_FAILED";
  case status_invalid_value: return "CUBLAS_STATUS_INVALID_VALUE";
  case status_arch_mismatch: return "CUBLAS_STATUS_ARCH_MISMATCH";
  case status_mapping_error: return "CUBLAS_STATUS_MAPPING_ERROR";
  case status_execution_failed: return "CUBLAS_STATUS_EXECUTION_FAILED";
  case status_internal_error: return "CUBLAS_STATUS_INTERNAL_ERROR";
  case status_not_supported: return "CUBLAS_STATUS_NOT_SUPPORTED";
  default: return "CUBLAS_STATUS_UNKNOWN";
  }
}

enum operation_t { op_n = 0, op_t = 1, op_c = 2 };
enum fill_mode_t { fill_lower = 0, fill_upper = 1, fill_full = 2 };
enum diag_t { diag_non_unit = 0, diag_unit = 1 };
enum side_t { side_left = 0, side_right = 1 };
enum pointer_mode_t { pointer_mode_host = 0, pointer_mode_device = 1 };
enum math_mode_t { default_math = 0, tensor_op_math = 1, pedantic_math = 2, tf32_tensor_op_math = 3 };

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

// a scalar as cuBLAS reads it: the value in host pointer mode, the device pointer otherwise
template <class T> mkl::value_or_pointer<mkl_t<T>> scalar(handle_t h, const T *p) {
  if (h->pointer_mode == pointer_mode_device)
    return mkl::value_or_pointer<mkl_t<T>>(cast(p));
  return mkl::value_or_pointer<mkl_t<T>>(*cast(p));
}

// a scalar's value on the host, for the oneMKL calls that take values only
// (omatadd, the group form of gemm_batch): copied from the device in device
// pointer mode
template <class T> mkl_t<T> host_scalar(handle_t h, const T *p) {
  if (h->pointer_mode == pointer_mode_device) {
    mkl_t<T> v;
    h->queue().memcpy(&v, p, sizeof(v)).wait();
    return v;
  }
  return *cast(p);
}

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
template <class R, class F> status_t reduce_to(handle_t h, R *result, F &&f) {
  return guarded([&] {
    sycl::queue &q = h->queue();
    if (h->pointer_mode == pointer_mode_device) {
      f(q, result);
      return;
    }
    R *tmp = sycl::malloc_shared<R>(1, q);
    try {
      f(q, tmp).wait_and_throw();
      *result = *tmp;
    } catch (...) {
      sycl::free(tmp, q);
      throw;
    }
    sycl::free(tmp, q);
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
// the 1-based index of iamax/iamin (oneMKL's index_base::one), as cuBLAS's
template <class F> status_t index_to(handle_t h, int *result, F &&f) {
  std::int64_t r64 = 0;
  status_t s = reduce_to(h, &r64, f);
  if (s == status_success)
    *result = static_cast<int>(r64);
  return s;
}
} // namespace detail
template <class T> status_t iamax(handle_t h, int n, const T *x, int incx, int *result) {
  return detail::index_to(h, result, [&](sycl::queue &q, std::int64_t *r) { return mklb::iamax(q, n, detail::cast(x), incx, r, mkl::index_base::one); });
}
template <class T> status_t iamin(handle_t h, int n, const T *x, int incx, int *result) {
  return detail::index_to(h, result, [&](sycl::queue &q, std::int64_t *r) { return mklb::iamin(q, n, detail::cast(x), incx, r, mkl::index_base::one); });
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
    const mkl::transpose ta = detail::trans(transa), tb = detail::trans(transb);
    const std::int64_t m64 = m, n64 = n, k64 = k, lda64 = lda, ldb64 = ldb, ldc64 = ldc, group = batch_count;
    const M al = detail::host_scalar(h, alpha), be = detail::host_scalar(h, beta);
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

enum data_type_t { r_16f = 2, r_32f = 0, r_64f = 1, r_16bf = 14, c_32f = 4, c_64f = 5, r_8i = 3, r_32i = 10 };
enum compute_type_t {
  compute_16f = 64,
  compute_16f_pedantic = 65,
  compute_32f = 68,
  compute_32f_pedantic = 69,
  compute_32f_fast_16f = 74,
  compute_32f_fast_16bf = 75,
  compute_32f_fast_tf32 = 77,
  compute_64f = 70,
  compute_64f_pedantic = 71,
  compute_32i = 72,
  compute_32i_pedantic = 73,
};
using gemm_algo_t = int;

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
      if (h->pointer_mode == pointer_mode_device)
        throw mkl::unimplemented("syclify::blas", "gemm_ex", "half data with float scalars in device pointer mode");
      const sycl::half al = static_cast<sycl::half>(*static_cast<const float *>(alpha)), be = static_cast<sycl::half>(*static_cast<const float *>(beta));
      mklb::gemm(h->queue(), detail::trans(transa), detail::trans(transb), m, n, k, al, static_cast<const sycl::half *>(a), lda,
                 static_cast<const sycl::half *>(b), ldb, be, static_cast<sycl::half *>(c), ldc);
    }
    else if (atype == r_16f && ctype == r_32f)
      detail::gemm_typed<sycl::half, float, float>(h, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    else if (atype == r_16bf && ctype == r_16bf)
      mklb::gemm(h->queue(), detail::trans(transa), detail::trans(transb), m, n, k, detail::scalar(h, static_cast<const float *>(alpha)),
                 static_cast<const oneapi::mkl::bfloat16 *>(a), lda, static_cast<const oneapi::mkl::bfloat16 *>(b), ldb,
                 detail::scalar(h, static_cast<const float *>(beta)), static_cast<oneapi::mkl::bfloat16 *>(c), ldc);
    else if (atype == r_16bf && ctype == r_32f)
      mklb::gemm(h->queue(), detail::trans(transa), detail::trans(transb), m, n, k, detail::scalar(h, static_cast<const float *>(alpha)),
                 static_cast<const oneapi::mkl::bfloat16 *>(a), lda, static_cast<const oneapi::mkl::bfloat16 *>(b), ldb,
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

} // namespace blas
} // namespace syclify
