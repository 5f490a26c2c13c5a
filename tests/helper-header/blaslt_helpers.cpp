// Every cuBLASLt helper of syclify/blaslt.hpp called: descriptors made both
// ways, every attribute the migrations set, the heuristic and the matmul;
// host-compiled against Intel's SYCL headers by tests/programs.rs (no
// library needed). Run on the H100 through the cublaslt fixtures.
#include <sycl/sycl.hpp>
#include <syclify/blaslt.hpp>

int all(syclify::stream_t s, const float *a, const float *b, float *c, const float *bias, float *scale, float *amax) {
  namespace lt = syclify::blaslt;
  lt::handle_t h;
  lt::matmul_desc_t d;
  lt::matmul_desc_opaque_t od;
  lt::matrix_layout_t la, lb;
  lt::matrix_layout_opaque_t lc;
  lt::preference_t p;
  lt::preference_opaque_t op;
  int st = lt::create(&h) | lt::matmul_desc_create(&d, lt::compute_32f, syclify::r_32f) | lt::matmul_desc_init(&od, lt::compute_64f, syclify::r_64f);
  syclify::blas::operation_t t = syclify::blas::op_t;
  lt::epilogue_t e = lt::epilogue_gelu_bias;
  lt::order_t row = lt::order_row;
  int batch = 2;
  long long stride = 64;
  std::int8_t fast = 1;
  st |= lt::matmul_desc_set_attribute(d, lt::desc_transa, &t, sizeof(t)) | lt::matmul_desc_set_attribute(d, lt::desc_epilogue, &e, sizeof(e));
  st |= lt::matmul_desc_set_attribute(d, lt::desc_bias_pointer, &bias, sizeof(bias)) | lt::matmul_desc_set_attribute(d, lt::desc_fast_accum, &fast, 1);
  st |= lt::matmul_desc_set_attribute(d, lt::desc_a_scale_pointer, &scale, sizeof(scale)) | lt::matmul_desc_set_attribute(d, lt::desc_amax_d_pointer, &amax, sizeof(amax));
  std::size_t written = 0;
  st |= lt::matmul_desc_get_attribute(d, lt::desc_epilogue, &e, sizeof(e), &written);
  st |= lt::matrix_layout_create(&la, syclify::r_32f, 8, 8, 8) | lt::matrix_layout_create(&lb, syclify::r_16f, 8, 8, 8);
  st |= lt::matrix_layout_init(&lc, syclify::r_8f_e4m3, 8, 8, 8) | lt::matrix_layout_set_attribute(la, lt::layout_order, &row, sizeof(row));
  st |= lt::matrix_layout_set_attribute(la, lt::layout_batch_count, &batch, sizeof(batch));
  st |= lt::matrix_layout_set_attribute(la, lt::layout_strided_batch_offset, &stride, sizeof(stride));
  std::size_t ws = 1 << 20;
  st |= lt::preference_create(&p) | lt::preference_init(&op) | lt::preference_set_attribute(p, 1, &ws, sizeof(ws));
  lt::heuristic_result r[1];
  int found = 0;
  st |= lt::matmul_algo_get_heuristic(h, d, la, lb, &lc, &lc, p, 1, r, &found);
  const float one = 1.0f, zero = 0.0f;
  st |= lt::matmul(h, d, &one, a, la, b, lb, &zero, c, &lc, c, &lc, &r[0].algo, nullptr, 0, s);
  const double done = 1.0, dzero = 0.0;
  st |= lt::matmul(h, &od, &done, a, la, b, lb, &dzero, c, &lc, c, &lc, nullptr, nullptr, 0, s);
  st |= lt::preference_destroy(p) | lt::matrix_layout_destroy(la) | lt::matrix_layout_destroy(lb) | lt::matmul_desc_destroy(d) | lt::destroy(h);
  return st;
}
