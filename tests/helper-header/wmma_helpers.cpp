// Every wmma helper of syclify/wmma.hpp, in every shape and element type
// CUDA's wmma has (besides the sub-byte ones), called in a kernel;
// host-compiled against Intel's SYCL headers by tests/programs.rs. Intel's
// headers define SYCL_EXT_ONEAPI_MATRIX, so this file compiles the
// joint_matrix implementation; wmma_portable_helpers.cpp compiles the same
// calls with the portable one (run on the H100 through the wmma fixtures).
#include <sycl/sycl.hpp>
#include <syclify/wmma.hpp>

using namespace syclify::nvcuda;

template <int M, int N, int K, class Tab, class Tc, class La, class Lb, class Pab, class Pc>
void gemm(sycl::queue &q, const Pab *a, const Pab *b, Pc *c, Pc *d) {
  q.parallel_for(sycl::nd_range<3>(sycl::range<3>(1, 1, 32), sycl::range<3>(1, 1, 32)),
                 [=](sycl::nd_item<3> item) [[sycl::reqd_sub_group_size(32)]] {
                   wmma::fragment<wmma::matrix_a, M, N, K, Tab, La> fa;
                   wmma::fragment<wmma::matrix_b, M, N, K, Tab, Lb> fb;
                   wmma::fragment<wmma::accumulator, M, N, K, Tc> acc, fc;
                   wmma::fill_fragment(item, acc, 0);
                   wmma::load_matrix_sync(item, fa, a, K);
                   wmma::load_matrix_sync(item, fb, b, K);
                   wmma::load_matrix_sync(item, fc, c, N, wmma::mem_row_major);
                   const auto &cfa = fa;
                   wmma::mma_sync(item, acc, cfa, fb, fc);
                   wmma::mma_sync(item, acc, fa, fb, acc, false);
                   wmma::store_matrix_sync(item, d, acc, M, wmma::mem_col_major);
                 });
}

void all(sycl::queue &q, void *mem, float *f) {
  using half = sycl::half;
  auto *h = static_cast<half *>(mem);
  auto *bf = static_cast<syclify::bfloat16 *>(mem);
  auto *s8 = static_cast<signed char *>(mem);
  auto *u8 = static_cast<unsigned char *>(mem);
  auto *i32 = static_cast<int *>(mem);
  auto *f64 = static_cast<double *>(mem);
  gemm<16, 16, 16, half, float, wmma::row_major, wmma::col_major>(q, h, h, f, f);
  gemm<32, 8, 16, half, half, wmma::col_major, wmma::row_major>(q, h, h, h, h);
  gemm<8, 32, 16, half, float, wmma::row_major, wmma::row_major>(q, h, h, f, f);
  gemm<16, 16, 16, syclify::bfloat16, float, wmma::col_major, wmma::col_major>(q, bf, bf, f, f);
  gemm<16, 16, 16, signed char, int, wmma::row_major, wmma::col_major>(q, s8, s8, i32, i32);
  gemm<32, 8, 16, unsigned char, int, wmma::row_major, wmma::row_major>(q, u8, u8, i32, i32);
  gemm<16, 16, 8, wmma::precision::tf32, float, wmma::row_major, wmma::row_major>(q, f, f, f, f);
  gemm<8, 8, 4, double, double, wmma::row_major, wmma::col_major>(q, f64, f64, f64, f64);
  q.parallel_for(sycl::range<1>(8), [=](sycl::id<1> i) { f[i] = wmma::__float_to_tf32(f[i]); });
}
