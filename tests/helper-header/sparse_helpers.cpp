// Every cuSPARSE helper of syclify/sparse.hpp instantiated: descriptors of
// every kind, the products and solves on oneMKL, SpGEMM's phases, the
// conversions, the vector operations, the legacy calls in both precisions;
// host-compiled against Intel's SYCL headers and oneMKL's by tests/programs.rs. Not run.
#include <sycl/sycl.hpp>
#include <syclify/sparse.hpp>

int all(syclify::stream_t stream, int *rp, int *ci, float *fv, double *dv, void *buf, std::size_t *bytes) {
  namespace sp = syclify::sparse;
  int st = 0, v = 0, ibytes = 0;
  sp::handle_t h;
  st |= sp::create(&h) | sp::set_stream(h, stream) | sp::set_pointer_mode(h, sp::pointer_mode_host) | sp::get_version(h, &v);
  sp::sp_mat_descr_t A, B, C;
  sp::dn_vec_descr_t x, y;
  sp::dn_mat_descr_t X, Y;
  sp::sp_vec_descr_t s;
  st |= sp::create_csr(&A, 4, 4, 8, rp, ci, fv, sp::index_32i, sp::index_32i, sp::index_base_zero, syclify::r_32f);
  st |= sp::create_const_csr(&B, 4, 4, 8, rp, ci, fv, sp::index_32i, sp::index_32i, sp::index_base_zero, syclify::r_32f);
  st |= sp::create_coo(&C, 4, 4, 8, rp, ci, dv, sp::index_64i, sp::index_base_one, syclify::r_64f);
  st |= sp::create_dn_vec(&x, 4, fv, syclify::r_32f) | sp::create_const_dn_vec(&y, 4, fv, syclify::r_32f);
  st |= sp::create_dn_mat(&X, 4, 2, 4, fv, syclify::r_32f, sp::order_col) | sp::create_const_dn_mat(&Y, 4, 2, 2, fv, syclify::r_32f, sp::order_row);
  st |= sp::create_sp_vec(&s, 8, 4, ci, fv, sp::index_32i, sp::index_base_zero, syclify::r_32f);
  const float one = 1.0f, zero = 0.0f;
  sp::fill_mode_t fill = sp::fill_lower;
  st |= sp::sp_mat_set_attribute(A, sp::spmat_fill_mode, &fill, sizeof(fill)) | sp::sp_mat_get_attribute(A, sp::spmat_fill_mode, &fill, sizeof(fill));
  st |= sp::csr_set_strided_batch(A, 2, 5, 8) | sp::coo_set_strided_batch(C, 2, 8) | sp::dn_mat_set_strided_batch(X, 2, 8);
  std::int64_t r, c, n;
  st |= sp::sp_mat_get_size(A, &r, &c, &n);
  st |= sp::no_buffer(bytes) | sp::no_buffer(&ibytes) | sp::no_preprocess();
  st |= sp::spmv(h, sp::op_n, &one, A, x, &zero, y, syclify::r_32f, 0, buf);
  st |= sp::spmm(h, sp::op_n, sp::op_t, &one, A, X, &zero, Y, syclify::r_32f, 0, buf);
  sp::spsv_descr_t sv;
  sp::spsm_descr_t sm;
  sp::spgemm_descr_t gm;
  st |= sp::create_descr(&sv) | sp::create_descr(&sm) | sp::create_descr(&gm);
  st |= sp::spsv_analysis(h, sp::op_n, &one, A, x, y, syclify::r_32f, 0, sv, buf) | sp::spsv_solve(h, sp::op_n, &one, A, x, y, syclify::r_32f, 0, sv);
  st |= sp::spsm_analysis(h, sp::op_n, sp::op_n, &one, A, X, Y, syclify::r_32f, 0, sm, buf) |
        sp::spsm_solve(h, sp::op_n, sp::op_n, &one, A, X, Y, syclify::r_32f, 0, sm);
  st |= sp::spgemm_work_estimation(h, sp::op_n, sp::op_n, &one, A, B, &zero, C, syclify::r_32f, 0, gm, bytes, buf);
  st |= sp::spgemm_compute(h, sp::op_n, sp::op_n, &one, A, B, &zero, C, syclify::r_32f, 0, gm, bytes, buf);
  st |= sp::csr_set_pointers(C, rp, ci, fv) | sp::spgemm_copy(h, sp::op_n, sp::op_n, &one, A, B, &zero, C, syclify::r_32f, 0, gm);
  st |= sp::csr2csc(h, 4, 4, 8, fv, rp, ci, fv, rp, ci, syclify::r_32f, sp::action_numeric, sp::index_base_zero, 1, buf);
  st |= sp::axpby(h, &one, s, &zero, x) | sp::gather(h, y, s) | sp::scatter(h, s, x);
  st |= sp::gthr(h, 4, fv, fv, ci, sp::index_base_zero) | sp::gthr(h, 4, dv, dv, ci, sp::index_base_one);
  st |= sp::create_identity_permutation(h, 8, ci);
  sp::mat_descr_t md;
  st |= sp::create_mat_descr(&md) | sp::set_mat_type(md, sp::matrix_general) | sp::set_mat_index_base(md, sp::index_base_zero);
  st |= sp::set_mat_fill_mode(md, sp::fill_upper) | sp::set_mat_diag_type(md, sp::diag_unit);
  st |= sp::csrsort(h, 4, 4, 8, md, rp, ci, ci, buf) | sp::coosort_by_row(h, 4, 4, 8, rp, ci, ci, buf);
  int total;
  st |= sp::nnz(h, sp::direction_row, 4, 4, md, fv, 4, ci, &total) | sp::nnz(h, sp::direction_column, 4, 4, md, dv, 4, ci, &total);
  st |= sp::sparse_to_dense(h, A, X, 0, buf) | sp::dense_to_sparse_analysis(h, X, A, 0, buf) | sp::dense_to_sparse_convert(h, X, A, 0, buf);
  st |= sp::sddmm(h, sp::op_t, sp::op_n, &one, X, Y, &zero, A, syclify::r_32f, 0, buf);
  sp::csrilu02_info_t info;
  int pivot;
  st |= sp::create_descr(&info);
  st |= sp::csrilu02_analysis(h, 4, 8, md, dv, rp, ci, info, sp::solve_policy_use_level, buf) | sp::csrilu02(h, 4, 8, md, dv, rp, ci, info);
  st |= sp::csrilu02_analysis(h, 4, 8, md, fv, rp, ci, info) | sp::csrilu02(h, 4, 8, md, fv, rp, ci, info, sp::solve_policy_no_level, buf);
  st |= sp::csrilu02_zero_pivot(h, info, &pivot);
  st |= sp::destroy_descr(info) | sp::destroy_descr(sv) | sp::destroy_descr(sm) | sp::destroy_descr(gm) | sp::destroy_descr(md);
  st |= sp::destroy_descr(A) | sp::destroy_descr(B) | sp::destroy_descr(C) | sp::destroy_descr(x) | sp::destroy_descr(y);
  st |= sp::destroy_descr(X) | sp::destroy_descr(Y) | sp::destroy_descr(s) | sp::destroy(h);
  (void)sp::get_error_string(static_cast<sp::status_t>(st));
  (void)sp::get_error_name(static_cast<sp::status_t>(st));
  return st + v;
}
