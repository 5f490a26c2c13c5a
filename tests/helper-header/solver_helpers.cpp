// Every cuSOLVER helper of syclify/solver.hpp instantiated for every element
// type (legacy API, batched Cholesky, the 64-bit API, Jacobi and selected
// eigenvalues): host-compiled against Intel's SYCL headers and oneMKL's by
// tests/programs.rs. Not run.
#include <sycl/sycl.hpp>
#include <syclify/solver.hpp>
namespace s = syclify::solver;
namespace b = syclify::blas;

template <class T, class R> int legacy(s::handle_t h, T *a, T *bm, T *tau, T *work, R *w, R *d, int *ipiv, int *info, T **pa, T **pb) {
  int lw = 0, meig = 0, st = 0;
  s::gesvdj_info_t gj;
  s::syevj_info_t sj;
  st |= s::create_jacobi_info(&gj);
  st |= s::create_jacobi_info(&sj);
  st |= s::jacobi_set_tolerance(sj, 1e-7);
  st |= s::jacobi_set_max_sweeps(gj, 15);
  st |= s::getrf_buffer_size(h, 4, 4, a, 4, &lw);
  st |= s::getrf(h, 4, 4, a, 4, work, ipiv, info);
  st |= s::getrf(h, 4, 4, a, 4, work, nullptr, info);
  st |= s::getrs(h, b::op_n, 4, 1, a, 4, ipiv, bm, 4, info);
  st |= s::potrf_buffer_size(h, b::fill_lower, 4, a, 4, &lw);
  st |= s::potrf(h, b::fill_lower, 4, a, 4, work, lw, info);
  st |= s::potrs(h, b::fill_lower, 4, 1, a, 4, bm, 4, info);
  st |= s::potri_buffer_size(h, b::fill_upper, 4, a, 4, &lw);
  st |= s::potri(h, b::fill_upper, 4, a, 4, work, lw, info);
  st |= s::potrf_batched(h, b::fill_lower, 4, pa, 4, info, 2);
  st |= s::potrs_batched(h, b::fill_lower, 4, 1, pa, 4, pb, 4, info, 2);
  st |= s::geqrf_buffer_size(h, 4, 4, a, 4, &lw);
  st |= s::geqrf(h, 4, 4, a, 4, tau, work, lw, info);
  st |= s::orgqr_buffer_size(h, 4, 4, 4, a, 4, tau, &lw);
  st |= s::orgqr(h, 4, 4, 4, a, 4, tau, work, lw, info);
  st |= s::ormqr_buffer_size(h, b::side_left, b::op_t, 4, 1, 4, a, 4, tau, bm, 4, &lw);
  st |= s::ormqr(h, b::side_left, b::op_t, 4, 1, 4, a, 4, tau, bm, 4, work, lw, info);
  st |= s::sytrf_buffer_size(h, 4, a, 4, &lw);
  st |= s::sytrf(h, b::fill_lower, 4, a, 4, ipiv, work, lw, info);
  st |= s::gebrd_buffer_size<T>(h, 4, 4, &lw);
  st |= s::gebrd(h, 4, 4, a, 4, d, w, tau, tau, work, lw, info);
  st |= s::orgbr_buffer_size(h, b::side_left, 4, 4, 4, a, 4, tau, &lw);
  st |= s::orgbr(h, b::side_right, 4, 4, 4, a, 4, tau, work, lw, info);
  st |= s::sytrd_buffer_size(h, b::fill_lower, 4, a, 4, d, w, tau, &lw);
  st |= s::sytrd(h, b::fill_lower, 4, a, 4, d, w, tau, work, lw, info);
  st |= s::orgtr_buffer_size(h, b::fill_lower, 4, a, 4, tau, &lw);
  st |= s::orgtr(h, b::fill_lower, 4, a, 4, tau, work, lw, info);
  st |= s::ormtr_buffer_size(h, b::side_left, b::fill_lower, b::op_n, 4, 1, a, 4, tau, bm, 4, &lw);
  st |= s::ormtr(h, b::side_left, b::fill_lower, b::op_n, 4, 1, a, 4, tau, bm, 4, work, lw, info);
  st |= s::gesvd_buffer_size<T>(h, 4, 4, &lw);
  st |= s::gesvd(h, 'A', 'A', 4, 4, a, 4, w, bm, 4, bm, 4, work, lw, static_cast<R *>(nullptr), info);
  // NULL where cuSOLVER allows it, and integer literals as real bounds
  st |= s::gesvd(h, 'N', 'N', 4, 4, a, 4, w, NULL, 1, NULL, 1, work, lw, NULL, info);
  st |= s::syevdx(h, s::eig_mode_novector, s::eig_range_i, b::fill_lower, 4, a, 4, 0, 0, 1, 2, &meig, w, work, lw, info);
  st |= s::gesvdj_buffer_size(h, s::eig_mode_vector, 1, 4, 4, a, 4, w, bm, 4, bm, 4, &lw, gj);
  st |= s::gesvdj(h, s::eig_mode_vector, 0, 4, 4, a, 4, w, bm, 4, bm, 4, work, lw, info, gj);
  st |= s::syevd_buffer_size(h, s::eig_mode_vector, b::fill_lower, 4, a, 4, w, &lw);
  st |= s::syevd(h, s::eig_mode_vector, b::fill_lower, 4, a, 4, w, work, lw, info);
  st |= s::syevj_buffer_size(h, s::eig_mode_vector, b::fill_lower, 4, a, 4, w, &lw, sj);
  st |= s::syevj(h, s::eig_mode_vector, b::fill_lower, 4, a, 4, w, work, lw, info, sj);
  st |= s::sygvd_buffer_size(h, s::eig_type_1, s::eig_mode_vector, b::fill_lower, 4, a, 4, bm, 4, w, &lw);
  st |= s::sygvd(h, s::eig_type_1, s::eig_mode_vector, b::fill_lower, 4, a, 4, bm, 4, w, work, lw, info);
  st |= s::sygvj_buffer_size(h, s::eig_type_1, s::eig_mode_vector, b::fill_lower, 4, a, 4, bm, 4, w, &lw, sj);
  st |= s::sygvj(h, s::eig_type_1, s::eig_mode_vector, b::fill_lower, 4, a, 4, bm, 4, w, work, lw, info, sj);
  st |= s::syevdx_buffer_size(h, s::eig_mode_vector, s::eig_range_i, b::fill_lower, 4, a, 4, R(0), R(0), 1, 2, &meig, w, &lw);
  st |= s::syevdx(h, s::eig_mode_vector, s::eig_range_v, b::fill_lower, 4, a, 4, R(0), R(1), 0, 0, &meig, w, work, lw, info);
  st |= s::sygvdx_buffer_size(h, s::eig_type_1, s::eig_mode_vector, s::eig_range_all, b::fill_lower, 4, a, 4, bm, 4, R(0), R(0), 0, 0, &meig, w, &lw);
  st |= s::sygvdx(h, s::eig_type_2, s::eig_mode_vector, s::eig_range_all, b::fill_lower, 4, a, 4, bm, 4, R(0), R(0), 0, 0, &meig, w, work, lw, info);
  double res;
  int sweeps;
  st |= s::jacobi_get_residual(h, sj, &res);
  st |= s::jacobi_get_sweeps(h, gj, &sweeps);
  st |= s::destroy_jacobi_info(gj);
  st |= s::destroy_jacobi_info(sj);
  return st;
}

int x_api(s::handle_t h, void *a, void *bm, std::int64_t *ipiv, int *info, void *work, void *host) {
  s::params_t p;
  std::size_t dev = 0, hst = 0;
  std::int64_t meig = 0;
  double vl = 0, vu = 1;
  int st = s::create_params(&p);
  st |= s::set_adv_options(p, s::function_getrf, s::alg_0);
  for (syclify::data_type_t t : {syclify::r_32f, syclify::r_64f, syclify::c_32f, syclify::c_64f}) {
    st |= s::xgetrf_buffer_size(h, p, 4, 4, t, a, 4, t, &dev, &hst);
    st |= s::xgetrf(h, p, 4, 4, t, a, 4, ipiv, t, work, dev, host, hst, info);
    st |= s::xgetrs(h, p, b::op_n, 4, 1, t, a, 4, ipiv, t, bm, 4, info);
    st |= s::xpotrf_buffer_size(h, p, b::fill_upper, 4, t, a, 4, t, &dev, &hst);
    st |= s::xpotrf(h, p, b::fill_upper, 4, t, a, 4, t, work, dev, host, hst, info);
    st |= s::xpotrs(h, p, b::fill_upper, 4, 1, t, a, 4, t, bm, 4, info);
    st |= s::xgeqrf_buffer_size(h, p, 4, 4, t, a, 4, t, bm, t, &dev, &hst);
    st |= s::xgeqrf(h, p, 4, 4, t, a, 4, t, bm, t, work, dev, host, hst, info);
    st |= s::xgesvd_buffer_size(h, p, 'A', 'N', 4, 4, t, a, 4, t, bm, t, bm, 4, t, bm, 4, t, &dev, &hst);
    st |= s::xgesvd(h, p, 'S', 'S', 4, 4, t, a, 4, t, bm, t, bm, 4, t, bm, 4, t, work, dev, host, hst, info);
    st |= s::xsyevd_buffer_size(h, p, s::eig_mode_vector, b::fill_lower, 4, t, a, 4, t, bm, t, &dev, &hst);
    st |= s::xsyevd(h, p, s::eig_mode_vector, b::fill_lower, 4, t, a, 4, t, bm, t, work, dev, host, hst, info);
    st |= s::xsyevdx_buffer_size(h, p, s::eig_mode_vector, s::eig_range_v, b::fill_lower, 4, t, a, 4, &vl, &vu, 0, 0, &meig, t, bm, t, &dev, &hst);
    st |= s::xsyevdx(h, p, s::eig_mode_vector, s::eig_range_v, b::fill_lower, 4, t, a, 4, &vl, &vu, 0, 0, &meig, t, bm, t, work, dev, host, hst, info);
    st |= s::xtrtri_buffer_size(h, b::fill_lower, b::diag_non_unit, 4, t, a, 4, &dev, &hst);
    st |= s::xtrtri(h, b::fill_lower, b::diag_non_unit, 4, t, a, 4, work, dev, host, hst, info);
  }
  st |= s::destroy_params(p);
  return st;
}

int main() {
  s::handle_t h;
  syclify::stream_t stream = nullptr;
  int st = s::create(&h) | s::set_stream(h, stream) | s::get_stream(h, &stream);
  st |= legacy<float, float>(h, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr);
  st |= legacy<double, double>(h, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr);
  st |= legacy<syclify::float2, float>(h, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr);
  st |= legacy<syclify::double2, double>(h, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr);
  st |= x_api(h, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr);
  st |= s::destroy(h);
  return st == s::status_success ? 0 : 1;
}
