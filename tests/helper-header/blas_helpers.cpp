// Every cuBLAS helper of syclify/blas.hpp instantiated (level 1-3, batched,
// GemmEx, DotEx, the data-movement helpers, status strings): host-compiled
// against Intel's SYCL headers and oneMKL's by tests/programs.rs. Not run.
#include <sycl/sycl.hpp>
#include <syclify/blas.hpp>
namespace b = syclify::blas;
int all(b::handle_t h, float *x, float *y, double *dx, syclify::float2 *cx, sycl::half *hx, float **pa) {
  float a = 2, r = 0; double dr; int i; syclify::float2 cr, ca{1, 0};
  int s = b::create(&h);
  s |= b::set_stream(h, nullptr);
  s |= b::set_pointer_mode(h, b::pointer_mode_host);
  s |= b::axpy(h, 10, &a, x, 1, y, 1);
  s |= b::scal(h, 10, &a, x, 1);
  s |= b::scal(h, 10, &a, cx, 1);
  s |= b::copy(h, 10, x, 1, y, 1);
  s |= b::swap(h, 10, x, 1, y, 1);
  s |= b::dot(h, 10, x, 1, y, 1, &r);
  s |= b::dot(h, 10, dx, 1, dx, 1, &dr);
  s |= b::dot(h, 10, cx, 1, cx, 1, &cr);
  s |= b::dotc(h, 10, cx, 1, cx, 1, &cr);
  s |= b::nrm2(h, 10, x, 1, &r);
  s |= b::nrm2(h, 10, cx, 1, &r);
  s |= b::asum(h, 10, dx, 1, &dr);
  s |= b::iamax(h, 10, x, 1, &i);
  s |= b::iamin(h, 10, dx, 1, &i);
  s |= b::rot(h, 10, x, 1, y, 1, &a, &a);
  s |= b::gemv(h, b::op_n, 4, 4, &a, x, 4, y, 1, &a, x, 1);
  s |= b::ger(h, 4, 4, &a, x, 1, y, 1, x, 4);
  s |= b::symv(h, b::fill_lower, 4, &a, x, 4, y, 1, &a, x, 1);
  s |= b::trsv(h, b::fill_upper, b::op_t, b::diag_unit, 4, x, 4, y, 1);
  s |= b::gemm(h, b::op_n, b::op_t, 4, 4, 4, &a, x, 4, y, 4, &a, x, 4);
  s |= b::gemm(h, b::op_n, b::op_c, 4, 4, 4, &ca, cx, 4, cx, 4, &ca, cx, 4);
  s |= b::gemm_strided_batched(h, b::op_n, b::op_n, 4, 4, 4, &a, x, 4, 16, y, 4, 16, &a, x, 4, 16, 3);
  s |= b::gemm_batched(h, b::op_n, b::op_n, 4, 4, 4, &a, pa, 4, pa, 4, &a, pa, 4, 3);
  int piv[12], info[3], hinfo;
  syclify::float2 *pc[3];
  double *pd[3];
  s |= b::getrf_batched(h, 4, pa, 4, piv, info, 3) | b::getrf_batched(h, 4, pd, 4, nullptr, info, 3) | b::getrf_batched(h, 4, pc, 4, piv, info, 3);
  s |= b::getrs_batched(h, b::op_t, 4, 2, pa, 4, piv, pa, 4, &hinfo, 3) | b::getri_batched(h, 4, pd, 4, piv, pd, 4, info, 3);
  s |= b::gels_batched(h, b::op_n, 6, 4, 2, pa, 6, pa, 6, &hinfo, info, 3) | b::gels_batched(h, b::op_n, 6, 4, 2, pc, 6, pc, 6, &hinfo, nullptr, 3);
  s |= b::symm(h, b::side_left, b::fill_lower, 4, 4, &a, x, 4, y, 4, &a, x, 4);
  s |= b::syrk(h, b::fill_lower, b::op_n, 4, 4, &a, x, 4, &a, y, 4);
  s |= b::trmm(h, b::side_left, b::fill_lower, b::op_n, b::diag_non_unit, 4, 4, &a, x, 4, y, 4, x, 4);
  s |= b::trsm(h, b::side_right, b::fill_lower, b::op_n, b::diag_non_unit, 4, 4, &a, x, 4, y, 4);
  s |= b::geam(h, b::op_n, b::op_t, 4, 4, &a, x, 4, &a, y, 4, x, 4);
  s |= b::gemm_ex(h, b::op_n, b::op_n, 4, 4, 4, &a, hx, syclify::r_16f, 4, hx, syclify::r_16f, 4, &a, x, syclify::r_32f, 4, b::compute_32f, 0);
  s |= b::dot_ex(h, 4, x, syclify::r_32f, 1, y, syclify::r_32f, 1, &r, syclify::r_32f, syclify::r_32f);
  s |= b::set_vector(4, 4, x, 1, y, 1) | b::get_matrix(4, 4, 4, x, 4, y, 4) | b::set_matrix_async(4, 4, 4, x, 4, y, 4, nullptr);
  s |= b::destroy(h);
  return s + (b::get_status_string(static_cast<b::status_t>(s))[0] == 'C');
}
