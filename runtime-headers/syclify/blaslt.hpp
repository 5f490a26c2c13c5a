// syclify cuBLASLt helper header — shipped with code migrated from CUDA by
// syclify when that code used cuBLASLt (cublasLt.h). Plain SYCL 2020: it
// needs no library and builds with DPC++ and AdaptiveCpp alike.
//
// cublasLtMatmul computes D = epilogue(alpha op(A) op(B) + beta C) here with
// syclify's own tiled GEMM kernel on the stream's queue, for any mix of the
// element types cuBLASLt takes (FP32, FP64, FP16, BF16, INT8/INT32, FP8
// E4M3/E5M2), column- or row-major layouts, strided batches, FP8 scale
// factors and the amax of D, and the epilogues that add a bias and apply
// ReLU or GELU (tanh form). It is exact in its arithmetic, not tuned like a
// vendor's GEMM (note SY0403 where it is used). Algorithm selection
// (cublasLtMatmulAlgoGetHeuristic) returns one algorithm that needs no work
// space; preferences are accepted and have no effect.
#pragma once

#include <sycl/sycl.hpp>

#include "syclify.hpp"
#include "blas_types.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>

namespace syclify {
namespace blaslt {

// cuBLAS's status codes, operations and compute types (blas_types.hpp)
using status_t = blas::status_t;
using blas::status_success;
using blas::status_invalid_value;
using blas::status_execution_failed;
using blas::status_not_supported;
using operation_t = blas::operation_t;
using blas::op_n;
using blas::op_t;
using blas::op_c;
using compute_type_t = blas::compute_type_t;
using blas::compute_32f;
using blas::compute_64f;
using blas::compute_64f_pedantic;
using blas::compute_32i;
using blas::compute_32i_pedantic;

enum order_t { order_col = 0, order_row = 1 };
enum pointer_mode_t { pointer_mode_host = 0, pointer_mode_device = 1 };
enum epilogue_t { epilogue_default = 1, epilogue_relu = 2, epilogue_bias = 4, epilogue_relu_bias = 6, epilogue_gelu = 32, epilogue_gelu_bias = 36 };
enum matmul_desc_attribute_t {
  desc_compute_type = 0,
  desc_scale_type = 1,
  desc_pointer_mode = 2,
  desc_transa = 3,
  desc_transb = 4,
  desc_transc = 5,
  desc_fill_mode = 6,
  desc_epilogue = 7,
  desc_bias_pointer = 8,
  desc_bias_batch_stride = 10,
  desc_a_scale_pointer = 17,
  desc_b_scale_pointer = 18,
  desc_c_scale_pointer = 19,
  desc_d_scale_pointer = 20,
  desc_amax_d_pointer = 21,
  desc_fast_accum = 25,
  desc_bias_data_type = 26,
};
enum matrix_layout_attribute_t {
  layout_type = 0,
  layout_order = 1,
  layout_rows = 2,
  layout_cols = 3,
  layout_ld = 4,
  layout_batch_count = 5,
  layout_strided_batch_offset = 6,
};
using preference_attribute_t = int;

struct context {};
using handle_t = context *;

struct matmul_desc {
  compute_type_t compute = compute_32f;
  data_type_t scale_type = r_32f;
  pointer_mode_t pointer_mode = pointer_mode_host;
  operation_t transa = op_n, transb = op_n;
  int epilogue = epilogue_default;
  const void *bias = nullptr;
  std::int64_t bias_batch_stride = 0;
  data_type_t bias_type = r_32f;
  bool bias_type_set = false;
  const float *a_scale = nullptr, *b_scale = nullptr, *c_scale = nullptr, *d_scale = nullptr;
  float *amax_d = nullptr;
};
using matmul_desc_t = matmul_desc *;
using matmul_desc_opaque_t = matmul_desc;

struct matrix_layout {
  data_type_t type = r_32f;
  order_t order = order_col;
  std::uint64_t rows = 0, cols = 0;
  std::int64_t ld = 0;
  int batch_count = 1;
  std::int64_t batch_offset = 0;
};
using matrix_layout_t = matrix_layout *;
using matrix_layout_opaque_t = matrix_layout;

struct preference {};
using preference_t = preference *;
using preference_opaque_t = preference;

struct matmul_algo {
  std::uint64_t data[8];
};
struct heuristic_result {
  matmul_algo algo;
  std::size_t workspaceSize;
  status_t state;
  float wavesCount;
  int reserved[4];
};

// ---------------------------------------------------------------------------
// Handles and descriptors
// ---------------------------------------------------------------------------

inline status_t create(handle_t *h) {
  *h = new context();
  return status_success;
}
inline status_t destroy(handle_t h) {
  delete h;
  return status_success;
}

inline status_t matmul_desc_init(matmul_desc *d, compute_type_t compute, data_type_t scale_type) {
  *d = matmul_desc();
  d->compute = compute;
  d->scale_type = scale_type;
  return status_success;
}
inline status_t matmul_desc_create(matmul_desc_t *d, compute_type_t compute, data_type_t scale_type) {
  *d = new matmul_desc();
  return matmul_desc_init(*d, compute, scale_type);
}
inline status_t matmul_desc_destroy(matmul_desc_t d) {
  delete d;
  return status_success;
}

namespace detail {
template <class T> bool read(const void *buf, std::size_t size, T &out) {
  if (size < sizeof(T) && size != 1 && size != 4 && size != 8)
    return false;
  std::int64_t v = 0;
  if (size == sizeof(T)) {
    std::memcpy(&out, buf, sizeof(T));
    return true;
  }
  // an enumeration or integer given in another width
  if (size == 1)
    v = *static_cast<const std::int8_t *>(buf);
  else if (size == 4)
    v = *static_cast<const std::int32_t *>(buf);
  else
    v = *static_cast<const std::int64_t *>(buf);
  out = static_cast<T>(v);
  return true;
}
template <class P> bool read_pointer(const void *buf, std::size_t size, P &out) {
  if (size != sizeof(void *))
    return false;
  std::memcpy(&out, buf, sizeof(void *));
  return true;
}
} // namespace detail

inline status_t matmul_desc_set_attribute(matmul_desc_t d, matmul_desc_attribute_t a, const void *buf, std::size_t size) {
  bool ok = true;
  switch (a) {
  case desc_compute_type: ok = detail::read(buf, size, d->compute); break;
  case desc_scale_type: ok = detail::read(buf, size, d->scale_type); break;
  case desc_pointer_mode: ok = detail::read(buf, size, d->pointer_mode); break;
  case desc_transa: ok = detail::read(buf, size, d->transa); break;
  case desc_transb: ok = detail::read(buf, size, d->transb); break;
  case desc_epilogue: ok = detail::read(buf, size, d->epilogue); break;
  case desc_bias_pointer: ok = detail::read_pointer(buf, size, d->bias); break;
  case desc_bias_batch_stride: ok = detail::read(buf, size, d->bias_batch_stride); break;
  case desc_bias_data_type:
    ok = detail::read(buf, size, d->bias_type);
    d->bias_type_set = true;
    break;
  case desc_a_scale_pointer: ok = detail::read_pointer(buf, size, d->a_scale); break;
  case desc_b_scale_pointer: ok = detail::read_pointer(buf, size, d->b_scale); break;
  case desc_c_scale_pointer: ok = detail::read_pointer(buf, size, d->c_scale); break;
  case desc_d_scale_pointer: ok = detail::read_pointer(buf, size, d->d_scale); break;
  case desc_amax_d_pointer: ok = detail::read_pointer(buf, size, d->amax_d); break;
  case desc_fast_accum: break; // a speed hint: accumulation is always in the compute type here
  case desc_transc:
  case desc_fill_mode: break;
  default: return status_not_supported;
  }
  return ok ? status_success : status_invalid_value;
}
inline status_t matmul_desc_get_attribute(matmul_desc_t d, matmul_desc_attribute_t a, void *buf, std::size_t size, std::size_t *written) {
  auto put = [&](const auto &v) {
    if (written)
      *written = sizeof(v);
    if (size < sizeof(v))
      return status_invalid_value;
    std::memcpy(buf, &v, sizeof(v));
    return status_success;
  };
  switch (a) {
  case desc_compute_type: return put(d->compute);
  case desc_scale_type: return put(d->scale_type);
  case desc_transa: return put(d->transa);
  case desc_transb: return put(d->transb);
  case desc_epilogue: return put(d->epilogue);
  case desc_bias_pointer: return put(d->bias);
  default: return status_not_supported;
  }
}

inline status_t matrix_layout_init(matrix_layout *l, data_type_t type, std::uint64_t rows, std::uint64_t cols, std::int64_t ld) {
  *l = matrix_layout();
  l->type = type, l->rows = rows, l->cols = cols, l->ld = ld;
  return status_success;
}
inline status_t matrix_layout_create(matrix_layout_t *l, data_type_t type, std::uint64_t rows, std::uint64_t cols, std::int64_t ld) {
  *l = new matrix_layout();
  return matrix_layout_init(*l, type, rows, cols, ld);
}
inline status_t matrix_layout_destroy(matrix_layout_t l) {
  delete l;
  return status_success;
}
inline status_t matrix_layout_set_attribute(matrix_layout_t l, matrix_layout_attribute_t a, const void *buf, std::size_t size) {
  bool ok = true;
  switch (a) {
  case layout_type: ok = detail::read(buf, size, l->type); break;
  case layout_order: {
    int o = 0;
    ok = detail::read(buf, size, o);
    if (o != order_col && o != order_row)
      return status_not_supported; // the tiled orders (COL32, ...)
    l->order = static_cast<order_t>(o);
    break;
  }
  case layout_rows: ok = detail::read(buf, size, l->rows); break;
  case layout_cols: ok = detail::read(buf, size, l->cols); break;
  case layout_ld: ok = detail::read(buf, size, l->ld); break;
  case layout_batch_count: ok = detail::read(buf, size, l->batch_count); break;
  case layout_strided_batch_offset: ok = detail::read(buf, size, l->batch_offset); break;
  default: return status_not_supported;
  }
  return ok ? status_success : status_invalid_value;
}

// preferences steer cuBLASLt's algorithm search: accepted, no effect here
inline status_t preference_init(preference *) { return status_success; }
inline status_t preference_create(preference_t *p) {
  *p = new preference();
  return status_success;
}
inline status_t preference_destroy(preference_t p) {
  delete p;
  return status_success;
}
inline status_t preference_set_attribute(preference_t, preference_attribute_t, const void *, std::size_t) { return status_success; }

// cublasLtMatmulAlgoGetHeuristic: one algorithm (this header's kernel), no work space
inline status_t matmul_algo_get_heuristic(handle_t, matmul_desc_t, matrix_layout_t, matrix_layout_t, matrix_layout_t, matrix_layout_t, preference_t,
                                          int requested, heuristic_result *results, int *returned) {
  if (requested < 1) {
    *returned = 0;
    return status_invalid_value;
  }
  results[0] = heuristic_result();
  results[0].workspaceSize = 0;
  results[0].state = status_success;
  results[0].wavesCount = 1.0f;
  *returned = 1;
  return status_success;
}

// ---------------------------------------------------------------------------
// The matmul
// ---------------------------------------------------------------------------

namespace detail {

// element i of an array of run-time type t, as Acc
template <class Acc> Acc load(const void *p, data_type_t t, std::int64_t i) {
  switch (t) {
  case r_32f: return static_cast<Acc>(static_cast<const float *>(p)[i]);
  case r_64f: return static_cast<Acc>(static_cast<const double *>(p)[i]);
  case r_16f: return static_cast<Acc>(static_cast<float>(static_cast<const sycl::half *>(p)[i]));
  case r_16bf: return static_cast<Acc>(static_cast<float>(static_cast<const syclify::bfloat16 *>(p)[i]));
  case r_8i: return static_cast<Acc>(static_cast<const std::int8_t *>(p)[i]);
  case r_32i: return static_cast<Acc>(static_cast<const std::int32_t *>(p)[i]);
  case r_8f_e4m3: return static_cast<Acc>(static_cast<float>(static_cast<const syclify::fp8_e4m3 *>(p)[i]));
  case r_8f_e5m2: return static_cast<Acc>(static_cast<float>(static_cast<const syclify::fp8_e5m2 *>(p)[i]));
  default: return Acc(0);
  }
}
template <class Acc> void store(void *p, data_type_t t, std::int64_t i, Acc v) {
  switch (t) {
  case r_32f: static_cast<float *>(p)[i] = static_cast<float>(v); break;
  case r_64f: static_cast<double *>(p)[i] = static_cast<double>(v); break;
  case r_16f: static_cast<sycl::half *>(p)[i] = static_cast<sycl::half>(static_cast<float>(v)); break;
  case r_16bf: static_cast<syclify::bfloat16 *>(p)[i] = syclify::bfloat16(static_cast<float>(v)); break;
  case r_8i: static_cast<std::int8_t *>(p)[i] = static_cast<std::int8_t>(sycl::clamp(sycl::rint(static_cast<double>(v)), -128.0, 127.0)); break;
  case r_32i: static_cast<std::int32_t *>(p)[i] = static_cast<std::int32_t>(v); break;
  case r_8f_e4m3: static_cast<syclify::fp8_e4m3 *>(p)[i] = syclify::fp8_e4m3(static_cast<float>(v)); break;
  case r_8f_e5m2: static_cast<syclify::fp8_e5m2 *>(p)[i] = syclify::fp8_e5m2(static_cast<float>(v)); break;
  default: break;
  }
}
inline bool supported(data_type_t t) {
  switch (t) {
  case r_32f:
  case r_64f:
  case r_16f:
  case r_16bf:
  case r_8i:
  case r_32i:
  case r_8f_e4m3:
  case r_8f_e5m2: return true;
  default: return false;
  }
}
inline std::size_t type_size(data_type_t t) {
  switch (t) {
  case r_64f: return 8;
  case r_32f:
  case r_32i: return 4;
  case r_16f:
  case r_16bf: return 2;
  default: return 1;
  }
}

// offset of element (r, c) of a layout
inline std::int64_t at(order_t o, std::int64_t ld, std::int64_t r, std::int64_t c) { return o == order_row ? r * ld + c : c * ld + r; }

// a host scalar of the scale type, as Acc (read from the device in device pointer mode)
template <class Acc> Acc scalar(sycl::queue &q, const matmul_desc &d, const void *p) {
  const std::size_t bytes = type_size(d.scale_type);
  unsigned char raw[8] = {};
  if (d.pointer_mode == pointer_mode_device)
    q.memcpy(raw, p, bytes).wait();
  else
    std::memcpy(raw, p, bytes);
  return load<Acc>(raw, d.scale_type, 0);
}

constexpr int tile = 16;

// the GEMM with the epilogue, accumulating in Acc
template <class Acc>
void matmul(sycl::queue &q, const matmul_desc &d, Acc alpha, const void *A, const matrix_layout &la, const void *B, const matrix_layout &lb, Acc beta,
            const void *C, const matrix_layout &lc, void *D, const matrix_layout &ld) {
  const bool ta = d.transa != op_n, tb = d.transb != op_n;
  const std::int64_t m = static_cast<std::int64_t>(ld.rows), n = static_cast<std::int64_t>(ld.cols);
  const std::int64_t k = static_cast<std::int64_t>(ta ? la.rows : la.cols);
  const int batches = std::max(ld.batch_count, 1);
  const data_type_t at_ = la.type, bt = lb.type, ct = lc.type, dt = ld.type;
  const data_type_t bias_t = d.bias_type_set ? d.bias_type : dt;
  const order_t oa = la.order, ob = lb.order, oc = lc.order, od = ld.order;
  const std::int64_t lda = la.ld, ldb = lb.ld, ldc = lc.ld, ldd = ld.ld;
  const std::int64_t sa = la.batch_count > 1 ? la.batch_offset : 0, sb = lb.batch_count > 1 ? lb.batch_offset : 0;
  const std::int64_t sc = lc.batch_count > 1 ? lc.batch_offset : 0, sd = ld.batch_offset, sbias = d.bias_batch_stride;
  const int epi = d.epilogue;
  const void *bias = d.bias;
  const float *scale_a = d.a_scale, *scale_b = d.b_scale, *scale_c = d.c_scale, *scale_d = d.d_scale;
  float *amax = d.amax_d;
  if (amax)
    q.memset(amax, 0, sizeof(float));
  const std::size_t rows = static_cast<std::size_t>((m + tile - 1) / tile * tile), cols = static_cast<std::size_t>((n + tile - 1) / tile * tile);
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<Acc, 2> ta_tile(sycl::range<2>(tile, tile), h), tb_tile(sycl::range<2>(tile, tile), h);
    h.parallel_for(sycl::nd_range<3>({static_cast<std::size_t>(batches), cols, rows}, {1, tile, tile}), [=](sycl::nd_item<3> it) {
      const std::int64_t b = it.get_global_id(0), j = it.get_global_id(1), i = it.get_global_id(2);
      const int lj = static_cast<int>(it.get_local_id(1)), li = static_cast<int>(it.get_local_id(2));
      const char *pa = static_cast<const char *>(A) + type_size(at_) * static_cast<std::size_t>(b * sa);
      const char *pb = static_cast<const char *>(B) + type_size(bt) * static_cast<std::size_t>(b * sb);
      Acc sum = Acc(0);
      for (std::int64_t l0 = 0; l0 < k; l0 += tile) {
        // A's tile: rows of op(A) by this group's i, columns l0 + lj
        const std::int64_t ai = it.get_group(2) * tile + li, al = l0 + lj;
        ta_tile[li][lj] = (ai < m && al < k) ? load<Acc>(pa, at_, ta ? at(oa, lda, al, ai) : at(oa, lda, ai, al)) : Acc(0);
        // B's tile: rows l0 + li of op(B), columns by this group's j
        const std::int64_t bl = l0 + li, bj = it.get_group(1) * tile + lj;
        tb_tile[li][lj] = (bl < k && bj < n) ? load<Acc>(pb, bt, tb ? at(ob, ldb, bj, bl) : at(ob, ldb, bl, bj)) : Acc(0);
        sycl::group_barrier(it.get_group());
        for (int l = 0; l < tile; ++l)
          sum += ta_tile[li][l] * tb_tile[l][lj];
        sycl::group_barrier(it.get_group());
      }
      if (i >= m || j >= n)
        return;
      Acc ab = alpha * sum;
      if (scale_a)
        ab *= static_cast<Acc>(*scale_a);
      if (scale_b)
        ab *= static_cast<Acc>(*scale_b);
      Acc v = ab;
      if (beta != Acc(0)) {
        Acc c = load<Acc>(static_cast<const char *>(C) + type_size(ct) * static_cast<std::size_t>(b * sc), ct, at(oc, ldc, i, j));
        if (scale_c)
          c *= static_cast<Acc>(*scale_c);
        v += beta * c;
      }
      if ((epi & epilogue_bias) && bias)
        v += load<Acc>(static_cast<const char *>(bias) + type_size(bias_t) * static_cast<std::size_t>(b * sbias), bias_t, i);
      if (epi & epilogue_relu)
        v = v > Acc(0) ? v : Acc(0);
      if (epi & epilogue_gelu) {
        const double x = static_cast<double>(v);
        v = static_cast<Acc>(0.5 * x * (1.0 + sycl::tanh(0.7978845608028654 * (x + 0.044715 * x * x * x))));
      }
      if (amax) {
        sycl::atomic_ref<float, sycl::memory_order::relaxed, sycl::memory_scope::device> ref(*amax);
        ref.fetch_max(static_cast<float>(sycl::fabs(static_cast<double>(v))));
      }
      if (scale_d)
        v *= static_cast<Acc>(*scale_d);
      store<Acc>(static_cast<char *>(D) + type_size(dt) * static_cast<std::size_t>(b * sd), dt, at(od, ldd, i, j), v);
    });
  });
}

} // namespace detail

// cublasLtMatmul: D = epilogue(alpha op(A) op(B) + beta C) on the stream;
// alpha and beta of the descriptor's scale type; the algorithm and work
// space are not needed
inline status_t matmul(handle_t, matmul_desc_t d, const void *alpha, const void *A, matrix_layout_t la, const void *B, matrix_layout_t lb,
                       const void *beta, const void *C, matrix_layout_t lc, void *D, matrix_layout_t ld, const matmul_algo *, void *, std::size_t,
                       stream_t stream) {
  for (const matrix_layout *l : {la, lb, lc, ld})
    if (!detail::supported(l->type))
      return status_not_supported;
  if (d->transa == op_c || d->transb == op_c)
    return status_not_supported; // complex types are not taken here
  const std::uint64_t k_a = d->transa == op_n ? la->cols : la->rows, k_b = d->transb == op_n ? lb->rows : lb->cols;
  const std::uint64_t m_a = d->transa == op_n ? la->rows : la->cols, n_b = d->transb == op_n ? lb->cols : lb->rows;
  if (k_a != k_b || m_a != ld->rows || n_b != ld->cols || lc->rows != ld->rows || lc->cols != ld->cols)
    return status_invalid_value;
  try {
    sycl::queue &q = queue_of(stream);
    const bool wide = d->compute == compute_64f || d->compute == compute_64f_pedantic || d->compute == compute_32i ||
                      d->compute == compute_32i_pedantic;
    if (wide)
      detail::matmul<double>(q, *d, detail::scalar<double>(q, *d, alpha), A, *la, B, *lb, detail::scalar<double>(q, *d, beta), C, *lc, D, *ld);
    else
      detail::matmul<float>(q, *d, detail::scalar<float>(q, *d, alpha), A, *la, B, *lb, detail::scalar<float>(q, *d, beta), C, *lc, D, *ld);
    return status_success;
  } catch (const std::exception &) {
    return status_execution_failed;
  }
}

} // namespace blaslt
} // namespace syclify
