// syclify cuSPARSE helper header — shipped with code migrated from CUDA by
// syclify when that code used cuSPARSE. Each cuSPARSE call becomes a call of
// the helper of the same operation (`cusparseSpMV` → `syclify::sparse::spmv`).
//
// Needs oneMKL's SYCL interfaces (`oneapi/mkl.hpp`): the products of a sparse
// matrix (SpMV, SpMM, SpGEMM), the triangular solves (SpSV, SpSM) and the
// CSR → CSC transpose run in oneMKL's sparse BLAS (oneapi::mkl::sparse, the
// USM API) on the handle's queue. The operations oneMKL has no routine for
// (Axpby, Gather, dense ↔ sparse conversion, nnz counts, csrsort, SDDMM,
// identity permutations) are SYCL kernels here, and run on any SYCL
// implementation; the incomplete LU (csrilu02) runs on the host.
//
// How cuSPARSE's model maps:
//   * a handle (cusparseHandle_t) holds the queue of its stream
//     (cusparseSetStream) and its pointer mode;
//   * the generic API's descriptors (cusparseSpMatDescr_t, DnVec, DnMat,
//     SpVec) are small structs that remember the arrays, sizes, index and
//     value types; a sparse matrix makes its oneMKL matrix_handle when an
//     operation first needs it and again after its arrays change;
//   * the element type named at run time (cudaDataType) selects the
//     template instance: float, double, and std::complex of both;
//   * buffer-size queries report 0 bytes: no external buffer is needed (but
//     SpGEMM's, 1 byte: its calls tell the size query from the work by the
//     buffer's being null);
//   * status codes keep working like the runtime API's error codes: every
//     helper returns a status_t (CUSPARSE_STATUS_SUCCESS is 0); an exception
//     from oneMKL or SYCL becomes CUSPARSE_STATUS_EXECUTION_FAILED (or
//     NOT_SUPPORTED / INVALID_VALUE for oneMKL's errors of that kind);
//   * scalars (alpha, beta) are host values in CUSPARSE_POINTER_MODE_HOST
//     (the default) and are read from the device in DEVICE mode.
#pragma once
// what `#ifdef` tests of cuSPARSE's header guards became (rules/cuda_macros.yaml)
#define SYCLIFY_CUSPARSE 1

#include <sycl/sycl.hpp>

#include "syclify.hpp"

// the sparse BLAS domain, not <oneapi/mkl.hpp>, whose C API (mkl.h) would add
// global names that collide with programs'
#include <oneapi/mkl/spblas.hpp>

#include <algorithm>
#include <complex>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace syclify {
namespace sparse {

namespace mkl = oneapi::mkl;

// ---------------------------------------------------------------------------
// Status codes and enumerations (cuSPARSE's values)
// ---------------------------------------------------------------------------

enum status_t : int {
  status_success = 0,
  status_not_initialized = 1,
  status_alloc_failed = 2,
  status_invalid_value = 3,
  status_arch_mismatch = 4,
  status_mapping_error = 5,
  status_execution_failed = 6,
  status_internal_error = 7,
  status_matrix_type_not_supported = 8,
  status_zero_pivot = 9,
  status_not_supported = 10,
  status_insufficient_resources = 11,
};

inline const char *get_error_name(status_t s) {
  switch (s) {
  case status_success: return "CUSPARSE_STATUS_SUCCESS";
  case status_not_initialized: return "CUSPARSE_STATUS_NOT_INITIALIZED";
  case status_alloc_failed: return "CUSPARSE_STATUS_ALLOC_FAILED";
  case status_invalid_value: return "CUSPARSE_STATUS_INVALID_VALUE";
  case status_arch_mismatch: return "CUSPARSE_STATUS_ARCH_MISMATCH";
  case status_mapping_error: return "CUSPARSE_STATUS_MAPPING_ERROR";
  case status_execution_failed: return "CUSPARSE_STATUS_EXECUTION_FAILED";
  case status_internal_error: return "CUSPARSE_STATUS_INTERNAL_ERROR";
  case status_matrix_type_not_supported: return "CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED";
  case status_zero_pivot: return "CUSPARSE_STATUS_ZERO_PIVOT";
  case status_not_supported: return "CUSPARSE_STATUS_NOT_SUPPORTED";
  case status_insufficient_resources: return "CUSPARSE_STATUS_INSUFFICIENT_RESOURCES";
  default: return "CUSPARSE_STATUS_UNKNOWN";
  }
}
inline const char *get_error_string(status_t s) {
  switch (s) {
  case status_success: return "success";
  case status_not_initialized: return "initialization error";
  case status_alloc_failed: return "out of memory";
  case status_invalid_value: return "invalid value";
  case status_arch_mismatch: return "architecture mismatch";
  case status_mapping_error: return "mapping error";
  case status_execution_failed: return "execution failed";
  case status_internal_error: return "internal error";
  case status_matrix_type_not_supported: return "matrix type not supported";
  case status_zero_pivot: return "zero pivot";
  case status_not_supported: return "operation not supported";
  case status_insufficient_resources: return "insufficient resources";
  default: return "unknown error";
  }
}

enum operation_t { op_n = 0, op_t = 1, op_c = 2 };
enum index_type_t { index_16u = 1, index_32i = 2, index_64i = 3 };
enum index_base_t { index_base_zero = 0, index_base_one = 1 };
enum order_t { order_col = 1, order_row = 2 };
enum fill_mode_t { fill_lower = 0, fill_upper = 1 };
enum diag_type_t { diag_non_unit = 0, diag_unit = 1 };
enum matrix_type_t { matrix_general = 0, matrix_symmetric = 1, matrix_hermitian = 2, matrix_triangular = 3 };
enum spmat_attribute_t { spmat_fill_mode = 0, spmat_diag_type = 1 };
enum format_t { format_csr = 1, format_csc = 2, format_coo = 3 };
enum action_t { action_symbolic = 0, action_numeric = 1 };
enum direction_t { direction_row = 0, direction_column = 1 };
enum solve_policy_t { solve_policy_no_level = 0, solve_policy_use_level = 1 };
enum pointer_mode_t { pointer_mode_host = 0, pointer_mode_device = 1 };
// The algorithm choices (CUSPARSE_SPMV_ALG_DEFAULT, CUSPARSE_CSR2CSC_ALG1,
// ...) pick among cuSPARSE's kernels; oneMKL chooses its own: no effect.
using alg_t = int;

// ---------------------------------------------------------------------------
// The handle
// ---------------------------------------------------------------------------

struct handle {
  stream_t stream = nullptr;
  pointer_mode_t pointer_mode = pointer_mode_host;
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
inline status_t get_version(handle_t, int *v) {
  *v = 12600; // the cuSPARSE API level these helpers follow
  return status_success;
}

// ---------------------------------------------------------------------------
// Descriptors of the generic API
// ---------------------------------------------------------------------------

struct sp_mat {
  format_t format = format_csr;
  std::int64_t rows = 0, cols = 0, nnz = 0;
  void *row = nullptr; // CSR row offsets, or COO row indices
  void *col = nullptr;
  void *values = nullptr;
  index_type_t row_type = index_32i, col_type = index_32i;
  index_base_t base = index_base_zero;
  data_type_t value_type = r_32f;
  fill_mode_t fill = fill_lower;
  diag_type_t diag = diag_non_unit;
  int batch_count = 1;
  std::int64_t offsets_batch_stride = 0, values_batch_stride = 0;
  // oneMKL's handle, made on first use and whenever the arrays change
  mkl::sparse::matrix_handle_t mkl = nullptr;
  sycl::queue *mkl_queue = nullptr;
  bool mkl_stale = true;
  ~sp_mat() {
    if (mkl) {
      try {
        mkl::sparse::release_matrix_handle(*mkl_queue, &mkl).wait();
      } catch (...) {
      }
    }
  }
};
using sp_mat_descr_t = sp_mat *;
using const_sp_mat_descr_t = const sp_mat *;

struct dn_vec {
  std::int64_t size = 0;
  void *values = nullptr;
  data_type_t value_type = r_32f;
};
using dn_vec_descr_t = dn_vec *;
using const_dn_vec_descr_t = const dn_vec *;

struct sp_vec {
  std::int64_t size = 0, nnz = 0;
  void *indices = nullptr, *values = nullptr;
  index_type_t index_type = index_32i;
  index_base_t base = index_base_zero;
  data_type_t value_type = r_32f;
};
using sp_vec_descr_t = sp_vec *;
using const_sp_vec_descr_t = const sp_vec *;

struct dn_mat {
  std::int64_t rows = 0, cols = 0, ld = 0;
  void *values = nullptr;
  data_type_t value_type = r_32f;
  order_t order = order_col;
  int batch_count = 1;
  std::int64_t batch_stride = 0;
};
using dn_mat_descr_t = dn_mat *;
using const_dn_mat_descr_t = const dn_mat *;

// the legacy API's matrix descriptor
struct mat_descr {
  matrix_type_t type = matrix_general;
  index_base_t base = index_base_zero;
  fill_mode_t fill = fill_lower;
  diag_type_t diag = diag_non_unit;
};
using mat_descr_t = mat_descr *;

// the solve and product descriptors carry no state of their own but the
// SpGEMM's intermediate result
struct spsv_descr {};
using spsv_descr_t = spsv_descr *;
struct spsm_descr {};
using spsm_descr_t = spsm_descr *;
struct spgemm_descr {
  mkl::sparse::matmat_descr_t descr = nullptr;
  sycl::queue *queue = nullptr;
  void *row_offsets = nullptr; // C's row offsets, computed before C's arrays exist
  std::vector<void *> temporaries;
  void release() {
    if (!queue)
      return;
    for (void *p : temporaries)
      sycl::free(p, *queue);
    temporaries.clear();
    if (row_offsets)
      sycl::free(row_offsets, *queue);
    row_offsets = nullptr;
    if (descr)
      mkl::sparse::release_matmat_descr(&descr);
    descr = nullptr;
  }
  ~spgemm_descr() {
    try {
      release();
    } catch (...) {
    }
  }
};
using spgemm_descr_t = spgemm_descr *;
struct csrilu02_info {
  int zero_pivot = -1; // the first structural or numerical zero pivot, -1 if none
};
using csrilu02_info_t = csrilu02_info *;

// ---------------------------------------------------------------------------
// Internals: status mapping, type dispatch, scalars, oneMKL handles
// ---------------------------------------------------------------------------

namespace detail {

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
  } catch (const std::invalid_argument &) {
    return status_invalid_value;
  } catch (const std::bad_alloc &) {
    return status_alloc_failed;
  } catch (const std::exception &) {
    return status_execution_failed;
  }
}

[[noreturn]] inline void unsupported(const char *what) { throw mkl::unimplemented("syclify::sparse", what, ""); }

// calls f with a value of the element type `t` names
template <class F> void with_value_type(data_type_t t, F &&f) {
  switch (t) {
  case r_32f: f(float{}); break;
  case r_64f: f(double{}); break;
  case c_32f: f(std::complex<float>{}); break;
  case c_64f: f(std::complex<double>{}); break;
  default: unsupported("this value type");
  }
}
// calls f with a value of the index type `t` names
template <class F> void with_index_type(index_type_t t, F &&f) {
  switch (t) {
  case index_32i: f(std::int32_t{}); break;
  case index_64i: f(std::int64_t{}); break;
  default: unsupported("16-bit indices");
  }
}

inline mkl::transpose trans(operation_t op) {
  return op == op_n ? mkl::transpose::nontrans : op == op_t ? mkl::transpose::trans : mkl::transpose::conjtrans;
}
inline mkl::index_base base(index_base_t b) { return b == index_base_zero ? mkl::index_base::zero : mkl::index_base::one; }
inline mkl::uplo uplo(fill_mode_t f) { return f == fill_lower ? mkl::uplo::lower : mkl::uplo::upper; }
inline mkl::diag diag(diag_type_t d) { return d == diag_unit ? mkl::diag::unit : mkl::diag::nonunit; }

// a scalar as cuSPARSE reads it: a host value, or read from the device
template <class T> T scalar(handle_t h, const void *p) {
  T v;
  if (h->pointer_mode == pointer_mode_device)
    h->queue().memcpy(&v, p, sizeof(T)).wait();
  else
    std::memcpy(&v, p, sizeof(T));
  return v;
}

template <class T> T *ptr(void *p) { return static_cast<T *>(p); }
template <class T> const T *ptr(const void *p) { return static_cast<const T *>(p); }

// oneMKL's handle of A on q, with A's current arrays; its index type must be
// one type for rows and columns, as oneMKL's set_*_data take
inline mkl::sparse::matrix_handle_t mkl_handle(sycl::queue &q, const sp_mat *cA) {
  auto *A = const_cast<sp_mat *>(cA);
  if (A->row_type != A->col_type && A->format == format_csr)
    unsupported("row offsets and column indices of different types");
  if (A->mkl && !A->mkl_stale && A->mkl_queue == &q)
    return A->mkl;
  if (A->mkl) {
    mkl::sparse::release_matrix_handle(*A->mkl_queue, &A->mkl).wait();
    A->mkl = nullptr;
  }
  mkl::sparse::init_matrix_handle(&A->mkl);
  A->mkl_queue = &q;
  with_value_type(A->value_type, [&](auto v) {
    using T = decltype(v);
    with_index_type(A->col_type, [&](auto i) {
      using I = decltype(i);
      if (A->format == format_csr)
        mkl::sparse::set_csr_data(q, A->mkl, A->rows, A->cols, A->nnz, base(A->base), ptr<I>(A->row), ptr<I>(A->col), ptr<T>(A->values));
      else if (A->format == format_coo)
        mkl::sparse::set_coo_data(q, A->mkl, A->rows, A->cols, A->nnz, base(A->base), ptr<I>(A->row), ptr<I>(A->col), ptr<T>(A->values));
      else
        unsupported("this sparse format");
    });
  });
  A->mkl_stale = false;
  return A->mkl;
}

inline void check_triangular(const sp_mat *A) {
  if (A->format != format_csr)
    unsupported("triangular solves of a matrix not in CSR");
}

// a dense matrix's oneMKL layout
inline mkl::layout layout(order_t o) { return o == order_row ? mkl::layout::row_major : mkl::layout::col_major; }

// element (i, j) of a dense matrix in either order
inline std::int64_t dense_at(order_t o, std::int64_t ld, std::int64_t i, std::int64_t j) { return o == order_row ? i * ld + j : j * ld + i; }

} // namespace detail

// ---------------------------------------------------------------------------
// Descriptor functions
// ---------------------------------------------------------------------------

inline status_t create_csr(sp_mat_descr_t *d, std::int64_t rows, std::int64_t cols, std::int64_t nnz, void *row_offsets, void *col_ind, void *values,
                           index_type_t row_type, index_type_t col_type, index_base_t base, data_type_t type) {
  auto *m = new sp_mat();
  m->format = format_csr;
  m->rows = rows, m->cols = cols, m->nnz = nnz;
  m->row = row_offsets, m->col = col_ind, m->values = values;
  m->row_type = row_type, m->col_type = col_type, m->base = base, m->value_type = type;
  *d = m;
  return status_success;
}
// cusparseCreateConstCsr
inline status_t create_const_csr(sp_mat_descr_t *d, std::int64_t rows, std::int64_t cols, std::int64_t nnz, const void *row_offsets, const void *col_ind,
                                 const void *values, index_type_t row_type, index_type_t col_type, index_base_t base, data_type_t type) {
  return create_csr(d, rows, cols, nnz, const_cast<void *>(row_offsets), const_cast<void *>(col_ind), const_cast<void *>(values), row_type, col_type, base,
                    type);
}
inline status_t create_coo(sp_mat_descr_t *d, std::int64_t rows, std::int64_t cols, std::int64_t nnz, void *row_ind, void *col_ind, void *values,
                           index_type_t index_type, index_base_t base, data_type_t type) {
  status_t s = create_csr(d, rows, cols, nnz, row_ind, col_ind, values, index_type, index_type, base, type);
  (*d)->format = format_coo;
  return s;
}
inline status_t csr_set_pointers(sp_mat_descr_t d, void *row_offsets, void *col_ind, void *values) {
  d->row = row_offsets, d->col = col_ind, d->values = values;
  d->mkl_stale = true;
  return status_success;
}
inline status_t coo_set_pointers(sp_mat_descr_t d, void *row_ind, void *col_ind, void *values) { return csr_set_pointers(d, row_ind, col_ind, values); }
inline status_t csr_get(sp_mat_descr_t d, std::int64_t *rows, std::int64_t *cols, std::int64_t *nnz, void **row_offsets, void **col_ind, void **values,
                        index_type_t *row_type, index_type_t *col_type, index_base_t *base, data_type_t *type) {
  *rows = d->rows, *cols = d->cols, *nnz = d->nnz;
  *row_offsets = d->row, *col_ind = d->col, *values = d->values;
  *row_type = d->row_type, *col_type = d->col_type, *base = d->base, *type = d->value_type;
  return status_success;
}
inline status_t sp_mat_get_size(const_sp_mat_descr_t d, std::int64_t *rows, std::int64_t *cols, std::int64_t *nnz) {
  *rows = d->rows, *cols = d->cols, *nnz = d->nnz;
  return status_success;
}
inline status_t sp_mat_get_format(const_sp_mat_descr_t d, format_t *f) {
  *f = d->format;
  return status_success;
}
inline status_t sp_mat_get_index_base(const_sp_mat_descr_t d, index_base_t *b) {
  *b = d->base;
  return status_success;
}
inline status_t sp_mat_get_values(sp_mat_descr_t d, void **values) {
  *values = d->values;
  return status_success;
}
inline status_t sp_mat_set_values(sp_mat_descr_t d, void *values) {
  d->values = values;
  d->mkl_stale = true;
  return status_success;
}
inline status_t sp_mat_set_attribute(sp_mat_descr_t d, spmat_attribute_t a, const void *data, std::size_t size) {
  if (a == spmat_fill_mode && size >= sizeof(fill_mode_t))
    d->fill = *static_cast<const fill_mode_t *>(data);
  else if (a == spmat_diag_type && size >= sizeof(diag_type_t))
    d->diag = *static_cast<const diag_type_t *>(data);
  else
    return status_invalid_value;
  return status_success;
}
inline status_t sp_mat_get_attribute(const_sp_mat_descr_t d, spmat_attribute_t a, void *data, std::size_t size) {
  if (a == spmat_fill_mode && size >= sizeof(fill_mode_t))
    *static_cast<fill_mode_t *>(data) = d->fill;
  else if (a == spmat_diag_type && size >= sizeof(diag_type_t))
    *static_cast<diag_type_t *>(data) = d->diag;
  else
    return status_invalid_value;
  return status_success;
}
inline status_t csr_set_strided_batch(sp_mat_descr_t d, int count, std::int64_t offsets_stride, std::int64_t values_stride) {
  d->batch_count = count, d->offsets_batch_stride = offsets_stride, d->values_batch_stride = values_stride;
  return status_success;
}
inline status_t coo_set_strided_batch(sp_mat_descr_t d, int count, std::int64_t stride) { return csr_set_strided_batch(d, count, stride, stride); }

inline status_t create_dn_vec(dn_vec_descr_t *d, std::int64_t size, void *values, data_type_t type) {
  *d = new dn_vec{size, values, type};
  return status_success;
}
inline status_t create_const_dn_vec(dn_vec_descr_t *d, std::int64_t size, const void *values, data_type_t type) {
  return create_dn_vec(d, size, const_cast<void *>(values), type);
}
inline status_t dn_vec_get_values(dn_vec_descr_t d, void **values) {
  *values = d->values;
  return status_success;
}
inline status_t dn_vec_set_values(dn_vec_descr_t d, void *values) {
  d->values = values;
  return status_success;
}
inline status_t dn_vec_get(dn_vec_descr_t d, std::int64_t *size, void **values, data_type_t *type) {
  *size = d->size, *values = d->values, *type = d->value_type;
  return status_success;
}

inline status_t create_sp_vec(sp_vec_descr_t *d, std::int64_t size, std::int64_t nnz, void *indices, void *values, index_type_t index_type,
                              index_base_t base, data_type_t type) {
  *d = new sp_vec{size, nnz, indices, values, index_type, base, type};
  return status_success;
}
inline status_t sp_vec_get_values(sp_vec_descr_t d, void **values) {
  *values = d->values;
  return status_success;
}
inline status_t sp_vec_set_values(sp_vec_descr_t d, void *values) {
  d->values = values;
  return status_success;
}

inline status_t create_dn_mat(dn_mat_descr_t *d, std::int64_t rows, std::int64_t cols, std::int64_t ld, void *values, data_type_t type, order_t order) {
  auto *m = new dn_mat();
  m->rows = rows, m->cols = cols, m->ld = ld, m->values = values, m->value_type = type, m->order = order;
  *d = m;
  return status_success;
}
inline status_t create_const_dn_mat(dn_mat_descr_t *d, std::int64_t rows, std::int64_t cols, std::int64_t ld, const void *values, data_type_t type,
                                    order_t order) {
  return create_dn_mat(d, rows, cols, ld, const_cast<void *>(values), type, order);
}
inline status_t dn_mat_set_strided_batch(dn_mat_descr_t d, int count, std::int64_t stride) {
  d->batch_count = count, d->batch_stride = stride;
  return status_success;
}
inline status_t dn_mat_get_values(dn_mat_descr_t d, void **values) {
  *values = d->values;
  return status_success;
}
inline status_t dn_mat_set_values(dn_mat_descr_t d, void *values) {
  d->values = values;
  return status_success;
}
inline status_t dn_mat_get(dn_mat_descr_t d, std::int64_t *rows, std::int64_t *cols, std::int64_t *ld, void **values, data_type_t *type, order_t *order) {
  *rows = d->rows, *cols = d->cols, *ld = d->ld, *values = d->values, *type = d->value_type, *order = d->order;
  return status_success;
}

// the legacy matrix descriptor
inline status_t create_mat_descr(mat_descr_t *d) {
  *d = new mat_descr();
  return status_success;
}
inline status_t set_mat_type(mat_descr_t d, matrix_type_t t) {
  d->type = t;
  return status_success;
}
inline matrix_type_t get_mat_type(const mat_descr *d) { return d->type; }
inline status_t set_mat_index_base(mat_descr_t d, index_base_t b) {
  d->base = b;
  return status_success;
}
inline index_base_t get_mat_index_base(const mat_descr *d) { return d->base; }
inline status_t set_mat_fill_mode(mat_descr_t d, fill_mode_t f) {
  d->fill = f;
  return status_success;
}
inline status_t set_mat_diag_type(mat_descr_t d, diag_type_t t) {
  d->diag = t;
  return status_success;
}

template <class D> status_t create_descr(D **d) {
  *d = new D();
  return status_success;
}
// every cusparseDestroy* of a descriptor (the sparse matrix's destructor
// releases its oneMKL handle)
template <class D> status_t destroy_descr(D *d) {
  delete d;
  return status_success;
}

// every buffer-size query but SpGEMM's: no external buffer is needed (0 bytes)
template <class S> status_t no_buffer(S *size) {
  *size = 0;
  return status_success;
}
// cusparseSpMV/SpMM/SDDMM_preprocess: nothing to prepare
inline status_t no_preprocess() { return status_success; }

// ---------------------------------------------------------------------------
// Products and solves (oneMKL sparse BLAS)
// ---------------------------------------------------------------------------

// cusparseSpMV: y = alpha op(A) x + beta y
inline status_t spmv(handle_t h, operation_t op, const void *alpha, const_sp_mat_descr_t A, const_dn_vec_descr_t x, const void *beta, dn_vec_descr_t y,
                     data_type_t compute, alg_t = 0, void * = nullptr) {
  return detail::guarded([&] {
    if (compute != A->value_type)
      detail::unsupported("a compute type other than the matrix's value type");
    sycl::queue &q = h->queue();
    auto mh = detail::mkl_handle(q, A);
    detail::with_value_type(A->value_type, [&](auto v) {
      using T = decltype(v);
      mkl::sparse::gemv(q, detail::trans(op), detail::scalar<T>(h, alpha), mh, detail::ptr<T>(x->values), detail::scalar<T>(h, beta),
                        detail::ptr<T>(y->values));
    });
  });
}

// cusparseSpMM: C = alpha op(A) op(B) + beta C, B and C dense of one order
inline status_t spmm(handle_t h, operation_t op_a, operation_t op_b, const void *alpha, const_sp_mat_descr_t A, const_dn_mat_descr_t B, const void *beta,
                     dn_mat_descr_t C, data_type_t compute, alg_t = 0, void * = nullptr) {
  return detail::guarded([&] {
    if (B->order != C->order)
      detail::unsupported("dense operands of different orders");
    if (compute != A->value_type)
      detail::unsupported("a compute type other than the matrix's value type");
    sycl::queue &q = h->queue();
    auto mh = detail::mkl_handle(q, A);
    detail::with_value_type(A->value_type, [&](auto v) {
      using T = decltype(v);
      mkl::sparse::gemm(q, detail::layout(C->order), detail::trans(op_a), detail::trans(op_b), detail::scalar<T>(h, alpha), mh, detail::ptr<T>(B->values),
                        C->cols, B->ld, detail::scalar<T>(h, beta), detail::ptr<T>(C->values), C->ld);
    });
  });
}

// cusparseSpSV_analysis: oneMKL's optimize_trsv
inline status_t spsv_analysis(handle_t h, operation_t op, const void *, const_sp_mat_descr_t A, const_dn_vec_descr_t, dn_vec_descr_t, data_type_t,
                              alg_t, spsv_descr_t, void * = nullptr) {
  return detail::guarded([&] {
    detail::check_triangular(A);
    sycl::queue &q = h->queue();
    mkl::sparse::optimize_trsv(q, detail::uplo(A->fill), detail::trans(op), detail::diag(A->diag), detail::mkl_handle(q, A));
  });
}
// cusparseSpSV_solve: op(A) y = alpha x, A triangular (its fill mode and diagonal type are attributes)
inline status_t spsv_solve(handle_t h, operation_t op, const void *alpha, const_sp_mat_descr_t A, const_dn_vec_descr_t x, dn_vec_descr_t y, data_type_t,
                           alg_t, spsv_descr_t) {
  return detail::guarded([&] {
    detail::check_triangular(A);
    sycl::queue &q = h->queue();
    auto mh = detail::mkl_handle(q, A);
    detail::with_value_type(A->value_type, [&](auto v) {
      using T = decltype(v);
      mkl::sparse::trsv(q, detail::uplo(A->fill), detail::trans(op), detail::diag(A->diag), detail::scalar<T>(h, alpha), mh, detail::ptr<T>(x->values),
                        detail::ptr<T>(y->values));
    });
  });
}

// cusparseSpSM_analysis: oneMKL's optimize_trsm
inline status_t spsm_analysis(handle_t h, operation_t op_a, operation_t, const void *, const_sp_mat_descr_t A, const_dn_mat_descr_t B, dn_mat_descr_t,
                              data_type_t, alg_t, spsm_descr_t, void * = nullptr) {
  return detail::guarded([&] {
    detail::check_triangular(A);
    sycl::queue &q = h->queue();
    mkl::sparse::optimize_trsm(q, detail::layout(B->order), detail::uplo(A->fill), detail::trans(op_a), detail::diag(A->diag), detail::mkl_handle(q, A),
                               B->cols);
  });
}
// cusparseSpSM_solve: op(A) C = alpha op(B)
inline status_t spsm_solve(handle_t h, operation_t op_a, operation_t op_b, const void *alpha, const_sp_mat_descr_t A, const_dn_mat_descr_t B,
                           dn_mat_descr_t C, data_type_t, alg_t, spsm_descr_t) {
  return detail::guarded([&] {
    detail::check_triangular(A);
    if (B->order != C->order)
      detail::unsupported("dense operands of different orders");
    sycl::queue &q = h->queue();
    auto mh = detail::mkl_handle(q, A);
    detail::with_value_type(A->value_type, [&](auto v) {
      using T = decltype(v);
      mkl::sparse::trsm(q, detail::layout(C->order), detail::trans(op_a), detail::trans(op_b), detail::uplo(A->fill), detail::diag(A->diag),
                        detail::scalar<T>(h, alpha), mh, detail::ptr<T>(B->values), C->cols, B->ld, detail::ptr<T>(C->values), C->ld);
    });
  });
}

// cusparseSpGEMM_*: C = alpha op(A) op(B), in oneMKL's matmat phases (beta C
// is not added: cuSPARSE's SpGEMM documents beta 0 for a new C). Work estimation and compute run them
// up to C's size (with C's row offsets in a temporary, as C's arrays do not
// exist yet); SpMatGetSize then reads the size, and copy fills the arrays
// that CsrSetPointers gave. The buffers cuSPARSE asks for are not used.
namespace detail {
template <class T, class I>
void spgemm_through_nnz(sycl::queue &q, operation_t op_a, operation_t op_b, const sp_mat *A, const sp_mat *B, sp_mat *C, spgemm_descr *g) {
  g->release();
  g->queue = &q;
  g->row_offsets = sycl::malloc_device<I>(C->rows + 1, q);
  mkl::sparse::init_matmat_descr(&g->descr);
  mkl::sparse::set_matmat_data(g->descr, mkl::sparse::matrix_view_descr::general, trans(op_a), mkl::sparse::matrix_view_descr::general, trans(op_b),
                               mkl::sparse::matrix_view_descr::general);
  if (C->mkl)
    mkl::sparse::release_matrix_handle(*C->mkl_queue, &C->mkl).wait();
  C->mkl = nullptr;
  mkl::sparse::init_matrix_handle(&C->mkl);
  C->mkl_queue = &q;
  mkl::sparse::set_csr_data(q, C->mkl, C->rows, C->cols, 0, base(C->base), static_cast<I *>(g->row_offsets), static_cast<I *>(nullptr),
                            static_cast<T *>(nullptr));
  C->mkl_stale = false;
  auto a = mkl_handle(q, A), b = mkl_handle(q, B);
  std::int64_t *size = sycl::malloc_shared<std::int64_t>(1, q);
  g->temporaries.push_back(size);
  auto phase = [&](mkl::sparse::matmat_request size_request, mkl::sparse::matmat_request request) {
    mkl::sparse::matmat(q, a, b, C->mkl, size_request, g->descr, size, nullptr, {}).wait();
    void *work = sycl::malloc_device(std::max<std::int64_t>(*size, 1), q);
    g->temporaries.push_back(work);
    mkl::sparse::matmat(q, a, b, C->mkl, request, g->descr, size, work, {}).wait();
  };
  phase(mkl::sparse::matmat_request::get_work_estimation_buf_size, mkl::sparse::matmat_request::work_estimation);
  phase(mkl::sparse::matmat_request::get_compute_structure_buf_size, mkl::sparse::matmat_request::compute_structure);
  std::int64_t *nnz = sycl::malloc_shared<std::int64_t>(1, q);
  g->temporaries.push_back(nnz);
  mkl::sparse::matmat(q, a, b, C->mkl, mkl::sparse::matmat_request::get_nnz, g->descr, nnz, nullptr, {}).wait();
  C->nnz = *nnz;
}
template <class T, class I> void spgemm_finish(sycl::queue &q, const sp_mat *A, const sp_mat *B, sp_mat *C, spgemm_descr *g, T alpha) {
  auto a = mkl_handle(q, A), b = mkl_handle(q, B);
  q.memcpy(C->row, g->row_offsets, sizeof(I) * (C->rows + 1)).wait();
  mkl::sparse::set_csr_data(q, C->mkl, C->rows, C->cols, C->nnz, base(C->base), static_cast<I *>(C->row), static_cast<I *>(C->col),
                            static_cast<T *>(C->values));
  mkl::sparse::matmat(q, a, b, C->mkl, mkl::sparse::matmat_request::finalize_structure, g->descr, nullptr, nullptr, {}).wait();
  mkl::sparse::matmat(q, a, b, C->mkl, mkl::sparse::matmat_request::compute, g->descr, nullptr, nullptr, {}).wait();
  mkl::sparse::matmat(q, a, b, C->mkl, mkl::sparse::matmat_request::finalize, g->descr, nullptr, nullptr, {}).wait();
  if (alpha != T(1)) {
    T *v = static_cast<T *>(C->values);
    q.parallel_for(sycl::range<1>(static_cast<std::size_t>(C->nnz)), [=](sycl::id<1> i) { v[i] *= alpha; }).wait();
  }
  C->mkl_stale = false;
}
} // namespace detail

// the two-call protocol: a call without a buffer asks for its size (1 byte,
// so that the buffer the program then allocates is not null); a call with one
// does the work
inline status_t spgemm_work_estimation(handle_t, operation_t, operation_t, const void *, const_sp_mat_descr_t, const_sp_mat_descr_t, const void *,
                                       sp_mat_descr_t, data_type_t, alg_t, spgemm_descr_t, std::size_t *size, void *buffer) {
  if (!buffer)
    *size = 1;
  return status_success;
}
inline status_t spgemm_compute(handle_t h, operation_t op_a, operation_t op_b, const void *, const_sp_mat_descr_t A, const_sp_mat_descr_t B, const void *,
                               sp_mat_descr_t C, data_type_t compute, alg_t, spgemm_descr_t g, std::size_t *size, void *buffer) {
  if (!buffer) {
    *size = 1;
    return status_success;
  }
  return detail::guarded([&] {
    if (compute != C->value_type || A->value_type != C->value_type)
      detail::unsupported("a compute type other than the matrices' value type");
    sycl::queue &q = h->queue();
    detail::with_value_type(C->value_type, [&](auto v) {
      using T = decltype(v);
      detail::with_index_type(C->row_type, [&](auto i) {
        using I = decltype(i);
        detail::spgemm_through_nnz<T, I>(q, op_a, op_b, A, B, C, g);
      });
    });
  });
}
inline status_t spgemm_copy(handle_t h, operation_t, operation_t, const void *alpha, const_sp_mat_descr_t A, const_sp_mat_descr_t B, const void *,
                            sp_mat_descr_t C, data_type_t, alg_t, spgemm_descr_t g) {
  return detail::guarded([&] {
    if (!g->descr)
      throw std::invalid_argument("cusparseSpGEMM_copy before cusparseSpGEMM_compute");
    sycl::queue &q = h->queue();
    detail::with_value_type(C->value_type, [&](auto v) {
      using T = decltype(v);
      detail::with_index_type(C->row_type, [&](auto i) {
        using I = decltype(i);
        detail::spgemm_finish<T, I>(q, A, B, C, g, detail::scalar<T>(h, alpha));
      });
    });
  });
}

// cusparseCsr2cscEx2: the CSC arrays of an m x n CSR matrix are the CSR arrays
// of its transpose (oneMKL's omatcopy with transpose)
inline status_t csr2csc(handle_t h, int m, int n, int nnz, const void *csr_val, const int *csr_row_ptr, const int *csr_col_ind, void *csc_val,
                        int *csc_col_ptr, int *csc_row_ind, data_type_t type, action_t action, index_base_t base, alg_t = 1, void * = nullptr) {
  return detail::guarded([&] {
    sycl::queue &q = h->queue();
    detail::with_value_type(type, [&](auto v) {
      using T = decltype(v);
      // the symbolic action may come without values: oneMKL needs some
      T *in_val = static_cast<T *>(const_cast<void *>(csr_val)), *out_val = static_cast<T *>(csc_val);
      std::vector<T *> owned;
      if (action == action_symbolic || !in_val || !out_val) {
        in_val = sycl::malloc_device<T>(std::max(nnz, 1), q);
        out_val = sycl::malloc_device<T>(std::max(nnz, 1), q);
        q.fill(in_val, T(0), std::max(nnz, 1)).wait();
        owned = {in_val, out_val};
      }
      mkl::sparse::matrix_handle_t in = nullptr, out = nullptr;
      mkl::sparse::init_matrix_handle(&in);
      mkl::sparse::init_matrix_handle(&out);
      mkl::sparse::set_csr_data(q, in, m, n, nnz, detail::base(base), const_cast<int *>(csr_row_ptr), const_cast<int *>(csr_col_ind), in_val);
      mkl::sparse::set_csr_data(q, out, n, m, nnz, detail::base(base), csc_col_ptr, csc_row_ind, out_val);
      mkl::sparse::omatcopy(q, mkl::transpose::trans, in, out).wait();
      mkl::sparse::release_matrix_handle(q, &in).wait();
      mkl::sparse::release_matrix_handle(q, &out).wait();
      for (T *p : owned)
        sycl::free(p, q);
    });
  });
}

// ---------------------------------------------------------------------------
// The operations oneMKL has no routine for: SYCL kernels
// ---------------------------------------------------------------------------

namespace detail {
// runs f(k, j) in a kernel on q for every entry k of the sparse vector x,
// j being the entry's 0-based position in the dense vector (the indices of
// a sparse vector are distinct: no two work-items touch one element)
template <class F> void for_each_entry(sycl::queue &q, const sp_vec *x, F f) {
  const std::int64_t off = x->base == index_base_one ? 1 : 0;
  with_index_type(x->index_type, [&](auto i) {
    using I = decltype(i);
    const I *idx = static_cast<const I *>(x->indices);
    if (x->nnz > 0)
      q.parallel_for(sycl::range<1>(static_cast<std::size_t>(x->nnz)),
                     [=](sycl::id<1> k) { f(k[0], static_cast<std::int64_t>(idx[k]) - off); });
  });
}
} // namespace detail

// cusparseAxpby: y = alpha x + beta y, x sparse
inline status_t axpby(handle_t h, const void *alpha, const_sp_vec_descr_t x, const void *beta, dn_vec_descr_t y) {
  return detail::guarded([&] {
    sycl::queue &q = h->queue();
    detail::with_value_type(y->value_type, [&](auto v) {
      using T = decltype(v);
      const T a = detail::scalar<T>(h, alpha), b = detail::scalar<T>(h, beta);
      T *yv = static_cast<T *>(y->values);
      const T *xv = static_cast<const T *>(x->values);
      q.parallel_for(sycl::range<1>(static_cast<std::size_t>(y->size)), [=](sycl::id<1> i) { yv[i] *= b; });
      detail::for_each_entry(q, x, [=](std::size_t k, std::int64_t j) { yv[j] += a * xv[k]; });
    });
  });
}

// cusparseGather: x's values = y at x's indices
inline status_t gather(handle_t h, const_dn_vec_descr_t y, sp_vec_descr_t x) {
  return detail::guarded([&] {
    detail::with_value_type(y->value_type, [&](auto v) {
      using T = decltype(v);
      const T *yv = static_cast<const T *>(y->values);
      T *xv = static_cast<T *>(x->values);
      detail::for_each_entry(h->queue(), x, [=](std::size_t k, std::int64_t j) { xv[k] = yv[j]; });
    });
  });
}
// cusparseScatter: y at x's indices = x's values
inline status_t scatter(handle_t h, const_sp_vec_descr_t x, dn_vec_descr_t y) {
  return detail::guarded([&] {
    detail::with_value_type(y->value_type, [&](auto v) {
      using T = decltype(v);
      T *yv = static_cast<T *>(y->values);
      const T *xv = static_cast<const T *>(x->values);
      detail::for_each_entry(h->queue(), x, [=](std::size_t k, std::int64_t j) { yv[j] = xv[k]; });
    });
  });
}
// cusparse<t>gthr (legacy): x_val[k] = y[x_ind[k]]
template <class T> status_t gthr(handle_t h, int nnz, const T *y, T *x_val, const int *x_ind, index_base_t base) {
  return detail::guarded([&] {
    const int off = base == index_base_one ? 1 : 0;
    if (nnz > 0)
      h->queue().parallel_for(sycl::range<1>(static_cast<std::size_t>(nnz)), [=](sycl::id<1> k) { x_val[k] = y[x_ind[k] - off]; });
  });
}

// cusparseCreateIdentityPermutation: p = 0, 1, ..., n-1
inline status_t create_identity_permutation(handle_t h, int n, int *p) {
  return detail::guarded([&] {
    if (n > 0)
      h->queue().parallel_for(sycl::range<1>(static_cast<std::size_t>(n)), [=](sycl::id<1> i) { p[i] = static_cast<int>(i[0]); });
  });
}

// cusparseXcsrsort: sorts the column indices within each row, and permutes P
// the same way (P then gathers the values: cusparseGather / gthr). One
// work-item sorts one row (insertion sort: rows are short).
inline status_t csrsort(handle_t h, int m, int, int, const mat_descr *, const int *row_ptr, int *col_ind, int *perm, void * = nullptr) {
  return detail::guarded([&] {
    if (m > 0)
      h->queue().parallel_for(sycl::range<1>(static_cast<std::size_t>(m)), [=](sycl::id<1> r) {
        const int begin = row_ptr[r] - row_ptr[0], end = row_ptr[r + 1] - row_ptr[0];
        for (int i = begin + 1; i < end; ++i) {
          const int c = col_ind[i], p = perm ? perm[i] : 0;
          int j = i - 1;
          while (j >= begin && col_ind[j] > c) {
            col_ind[j + 1] = col_ind[j];
            if (perm)
              perm[j + 1] = perm[j];
            --j;
          }
          col_ind[j + 1] = c;
          if (perm)
            perm[j + 1] = p;
        }
      });
  });
}
// cusparseXcoosortByRow: sorts COO entries by (row, column), permuting P (on the host)
inline status_t coosort_by_row(handle_t h, int, int, int nnz, int *rows, int *cols, int *perm, void * = nullptr) {
  return detail::guarded([&] {
    sycl::queue &q = h->queue();
    std::vector<int> r(nnz), c(nnz), p(nnz), order(nnz);
    q.memcpy(r.data(), rows, sizeof(int) * nnz);
    q.memcpy(c.data(), cols, sizeof(int) * nnz);
    q.memcpy(p.data(), perm, sizeof(int) * nnz).wait();
    for (int i = 0; i < nnz; ++i)
      order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return r[a] != r[b] ? r[a] < r[b] : c[a] < c[b]; });
    std::vector<int> r2(nnz), c2(nnz), p2(nnz);
    for (int i = 0; i < nnz; ++i)
      r2[i] = r[order[i]], c2[i] = c[order[i]], p2[i] = p[order[i]];
    q.memcpy(rows, r2.data(), sizeof(int) * nnz);
    q.memcpy(cols, c2.data(), sizeof(int) * nnz);
    q.memcpy(perm, p2.data(), sizeof(int) * nnz).wait();
  });
}

// cusparse<t>nnz (legacy): non-zeros of a column-major dense matrix per row
// or per column, and their total (to the host in host pointer mode)
template <class T>
status_t nnz(handle_t h, direction_t dir, int m, int n, const mat_descr *, const T *a, int lda, int *per_row_col, int *total) {
  return detail::guarded([&] {
    sycl::queue &q = h->queue();
    const int count = dir == direction_row ? m : n;
    if (count > 0)
      q.parallel_for(sycl::range<1>(static_cast<std::size_t>(count)), [=](sycl::id<1> id) {
         const int k = static_cast<int>(id[0]);
         int c = 0;
         if (dir == direction_row) {
           for (int j = 0; j < n; ++j)
             c += a[static_cast<std::size_t>(j) * lda + k] != T(0);
         } else {
           for (int i = 0; i < m; ++i)
             c += a[static_cast<std::size_t>(k) * lda + i] != T(0);
         }
         per_row_col[k] = c;
       }).wait();
    std::vector<int> counts(count);
    if (count > 0)
      q.memcpy(counts.data(), per_row_col, sizeof(int) * count).wait();
    int sum = 0;
    for (int c : counts)
      sum += c;
    if (h->pointer_mode == pointer_mode_device)
      q.memcpy(total, &sum, sizeof(int)).wait();
    else
      *total = sum;
  });
}

// cusparseSparseToDense: B = A (every element of B written)
inline status_t sparse_to_dense(handle_t h, const_sp_mat_descr_t A, dn_mat_descr_t B, alg_t = 0, void * = nullptr) {
  return detail::guarded([&] {
    sycl::queue &q = h->queue();
    if (A->format != format_csr && A->format != format_coo)
      detail::unsupported("this sparse format");
    detail::with_value_type(A->value_type, [&](auto v) {
      using T = decltype(v);
      T *b = static_cast<T *>(B->values);
      const T *av = static_cast<const T *>(A->values);
      const order_t order = B->order;
      const std::int64_t ld = B->ld, rows = B->rows, cols = B->cols, off = A->base == index_base_one ? 1 : 0, nnz = A->nnz;
      q.parallel_for(sycl::range<2>(static_cast<std::size_t>(rows), static_cast<std::size_t>(cols)),
                     [=](sycl::id<2> id) { b[detail::dense_at(order, ld, id[0], id[1])] = T(0); });
      detail::with_index_type(A->col_type, [&](auto i) {
        using I = decltype(i);
        const I *row = static_cast<const I *>(A->row), *col = static_cast<const I *>(A->col);
        if (A->format == format_csr) {
          q.parallel_for(sycl::range<1>(static_cast<std::size_t>(rows)), [=](sycl::id<1> r) {
            for (I p = row[r] - off; p < row[r + 1] - off; ++p)
              b[detail::dense_at(order, ld, r[0], col[p] - off)] += av[p];
          });
        } else {
          // one work-item: COO entries of one element may repeat
          q.single_task([=] {
            for (std::int64_t p = 0; p < nnz; ++p)
              b[detail::dense_at(order, ld, row[p] - off, col[p] - off)] += av[p];
          });
        }
      });
    });
  });
}

// cusparseDenseToSparse_analysis: counts B's non-zeros per row into its row
// offsets (CSR, given at creation) and sets its nnz; _convert fills the
// column indices and values that CsrSetPointers gave
inline status_t dense_to_sparse_analysis(handle_t h, const_dn_mat_descr_t A, sp_mat_descr_t B, alg_t = 0, void * = nullptr) {
  return detail::guarded([&] {
    if (B->format != format_csr)
      detail::unsupported("dense to a sparse format other than CSR");
    sycl::queue &q = h->queue();
    detail::with_value_type(A->value_type, [&](auto v) {
      using T = decltype(v);
      detail::with_index_type(B->row_type, [&](auto i) {
        using I = decltype(i);
        const T *a = static_cast<const T *>(A->values);
        const order_t order = A->order;
        const std::int64_t ld = A->ld, rows = A->rows, cols = A->cols;
        std::vector<I> offsets(static_cast<std::size_t>(rows) + 1);
        {
          sycl::buffer<I, 1> counts(offsets.data() + 1, sycl::range<1>(static_cast<std::size_t>(rows)));
          q.submit([&](sycl::handler &cgh) {
            sycl::accessor out(counts, cgh, sycl::write_only, sycl::no_init);
            cgh.parallel_for(sycl::range<1>(static_cast<std::size_t>(rows)), [=](sycl::id<1> r) {
              I c = 0;
              for (std::int64_t j = 0; j < cols; ++j)
                c += a[detail::dense_at(order, ld, r[0], j)] != T(0);
              out[r] = c;
            });
          });
        }
        const I base = B->base == index_base_one ? 1 : 0;
        offsets[0] = base;
        for (std::size_t r = 1; r < offsets.size(); ++r)
          offsets[r] += offsets[r - 1];
        q.memcpy(B->row, offsets.data(), sizeof(I) * offsets.size()).wait();
        B->nnz = static_cast<std::int64_t>(offsets.back() - base);
        B->mkl_stale = true;
      });
    });
  });
}
inline status_t dense_to_sparse_convert(handle_t h, const_dn_mat_descr_t A, sp_mat_descr_t B, alg_t = 0, void * = nullptr) {
  return detail::guarded([&] {
    if (B->format != format_csr)
      detail::unsupported("dense to a sparse format other than CSR");
    sycl::queue &q = h->queue();
    detail::with_value_type(A->value_type, [&](auto v) {
      using T = decltype(v);
      detail::with_index_type(B->row_type, [&](auto i) {
        using I = decltype(i);
        const T *a = static_cast<const T *>(A->values);
        T *bv = static_cast<T *>(B->values);
        const I *row = static_cast<const I *>(B->row);
        I *col = static_cast<I *>(B->col);
        const order_t order = A->order;
        const std::int64_t ld = A->ld, cols = A->cols;
        const I base = B->base == index_base_one ? 1 : 0;
        q.parallel_for(sycl::range<1>(static_cast<std::size_t>(A->rows)), [=](sycl::id<1> r) {
           I p = row[r] - base;
           for (std::int64_t j = 0; j < cols; ++j) {
             const T x = a[detail::dense_at(order, ld, r[0], j)];
             if (x != T(0)) {
               col[p] = static_cast<I>(j) + base;
               bv[p] = x;
               ++p;
             }
           }
         }).wait();
        B->mkl_stale = true;
      });
    });
  });
}

// cusparseSDDMM: C = alpha (op(A) op(B)) sampled at C's pattern + beta C, CSR
// C, with strided batches of all three
inline status_t sddmm(handle_t h, operation_t op_a, operation_t op_b, const void *alpha, const_dn_mat_descr_t A, const_dn_mat_descr_t B, const void *beta,
                      sp_mat_descr_t C, data_type_t compute, alg_t = 0, void * = nullptr) {
  return detail::guarded([&] {
    if (C->format != format_csr)
      detail::unsupported("SDDMM into a sparse format other than CSR");
    if (compute != C->value_type)
      detail::unsupported("a compute type other than the matrix's value type");
    sycl::queue &q = h->queue();
    detail::with_value_type(C->value_type, [&](auto v) {
      using T = decltype(v);
      detail::with_index_type(C->row_type, [&](auto i) {
        using I = decltype(i);
        const T al = detail::scalar<T>(h, alpha), be = detail::scalar<T>(h, beta);
        const T *a = static_cast<const T *>(A->values), *b = static_cast<const T *>(B->values);
        T *cv = static_cast<T *>(C->values);
        const I *row = static_cast<const I *>(C->row), *col = static_cast<const I *>(C->col);
        const order_t oa = A->order, ob = B->order;
        const std::int64_t lda = A->ld, ldb = B->ld, rows = C->rows;
        const std::int64_t k = op_a == op_n ? A->cols : A->rows;
        const bool ta = op_a != op_n, tb = op_b != op_n;
        const std::int64_t sa = A->batch_count > 1 ? A->batch_stride : 0, sb = B->batch_count > 1 ? B->batch_stride : 0;
        const std::int64_t so = C->offsets_batch_stride, sv = C->values_batch_stride;
        const I base = C->base == index_base_one ? 1 : 0;
        const std::size_t batches = static_cast<std::size_t>(std::max(C->batch_count, 1));
        q.parallel_for(sycl::range<2>(batches, static_cast<std::size_t>(rows)), [=](sycl::id<2> id) {
           const std::int64_t bt = id[0], r = id[1];
           const I *rp = row + bt * so;
           const I *ci = col + bt * sv;
           T *vals = cv + bt * sv;
           const T *ab = a + bt * sa, *bb = b + bt * sb;
           for (I p = rp[r] - base; p < rp[r + 1] - base; ++p) {
             const std::int64_t c = ci[p] - base;
             T s = T(0);
             for (std::int64_t l = 0; l < k; ++l) {
               const T x = ta ? ab[detail::dense_at(oa, lda, l, r)] : ab[detail::dense_at(oa, lda, r, l)];
               const T y = tb ? bb[detail::dense_at(ob, ldb, c, l)] : bb[detail::dense_at(ob, ldb, l, c)];
               s += x * y;
             }
             vals[p] = al * s + be * vals[p];
           }
         }).wait();
      });
    });
  });
}

// ---------------------------------------------------------------------------
// Incomplete LU without fill (csrilu02), on the host
// ---------------------------------------------------------------------------

// cusparse<t>csrilu02_analysis: finds a structural zero pivot (a row with no
// diagonal entry); the factorisation itself: the rows in order, each
// updated by the earlier rows it references, restricted to A's pattern
// (IKJ), in place. It runs on the host: cuSPARSE's level scheduling has no
// counterpart in oneMKL's SYCL API.
namespace detail {
// an m-row CSR pattern on the device, copied to the host with 0-based
// offsets and columns
struct host_pattern {
  std::vector<int> rp, ci;
  host_pattern(sycl::queue &q, int m, int base, const int *row_ptr, const int *col_ind) : rp(m + 1) {
    q.memcpy(rp.data(), row_ptr, sizeof(int) * (m + 1)).wait();
    ci.resize(static_cast<std::size_t>(rp[m] - base));
    if (!ci.empty())
      q.memcpy(ci.data(), col_ind, sizeof(int) * ci.size()).wait();
    for (int &r : rp)
      r -= base;
    for (int &c : ci)
      c -= base;
  }
};
inline int index_base_of(const mat_descr *descr) { return descr && descr->base == index_base_one ? 1 : 0; }
} // namespace detail

template <class T>
status_t csrilu02_analysis(handle_t h, int m, int, const mat_descr *descr, const T *val, const int *row_ptr, const int *col_ind, csrilu02_info_t info,
                           solve_policy_t = solve_policy_no_level, void * = nullptr) {
  (void)val;
  return detail::guarded([&] {
    const int base = detail::index_base_of(descr);
    const detail::host_pattern a(h->queue(), m, base, row_ptr, col_ind);
    info->zero_pivot = -1;
    for (int i = 0; i < m && info->zero_pivot < 0; ++i) {
      bool found = false;
      for (int p = a.rp[i]; p < a.rp[i + 1]; ++p)
        found |= a.ci[p] == i;
      if (!found)
        info->zero_pivot = i + base;
    }
  });
}
template <class T>
status_t csrilu02(handle_t h, int m, int, const mat_descr *descr, T *val, const int *row_ptr, const int *col_ind, csrilu02_info_t info,
                  solve_policy_t = solve_policy_no_level, void * = nullptr) {
  return detail::guarded([&] {
    sycl::queue &q = h->queue();
    const int base = detail::index_base_of(descr);
    const detail::host_pattern a(q, m, base, row_ptr, col_ind);
    const std::vector<int> &rp = a.rp, &ci = a.ci;
    const int nnz = static_cast<int>(ci.size());
    std::vector<T> lu(nnz);
    if (nnz > 0)
      q.memcpy(lu.data(), val, sizeof(T) * nnz).wait();
    std::vector<int> diag(m, -1), where(m, -1);
    for (int i = 0; i < m; ++i)
      for (int p = rp[i]; p < rp[i + 1]; ++p)
        if (ci[p] == i)
          diag[i] = p;
    info->zero_pivot = -1;
    for (int i = 0; i < m; ++i) {
      for (int p = rp[i]; p < rp[i + 1]; ++p)
        where[ci[p]] = p;
      for (int p = rp[i]; p < rp[i + 1]; ++p) {
        const int k = ci[p];
        if (k >= i)
          continue;
        if (diag[k] < 0 || lu[diag[k]] == T(0)) {
          if (info->zero_pivot < 0)
            info->zero_pivot = k + base;
          continue;
        }
        lu[p] /= lu[diag[k]];
        for (int r = rp[k]; r < rp[k + 1]; ++r)
          if (ci[r] > k && where[ci[r]] >= 0)
            lu[where[ci[r]]] -= lu[p] * lu[r];
      }
      for (int p = rp[i]; p < rp[i + 1]; ++p)
        where[ci[p]] = -1;
      if ((diag[i] < 0 || lu[diag[i]] == T(0)) && info->zero_pivot < 0)
        info->zero_pivot = i + base;
    }
    if (nnz > 0)
      q.memcpy(val, lu.data(), sizeof(T) * nnz).wait();
  });
}
// cusparseXcsrilu02_zeroPivot: CUSPARSE_STATUS_ZERO_PIVOT and its position, if any
inline status_t csrilu02_zero_pivot(handle_t h, csrilu02_info_t info, int *position) {
  if (info->zero_pivot < 0)
    return status_success;
  if (h->pointer_mode == pointer_mode_device)
    h->queue().memcpy(position, &info->zero_pivot, sizeof(int)).wait();
  else
    *position = info->zero_pivot;
  return status_zero_pivot;
}

} // namespace sparse
} // namespace syclify
