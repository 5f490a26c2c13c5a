// wmma_helpers.cpp with syclify/wmma.hpp's portable implementation (what a
// file that reads its fragments' elements gets), plus that element access.
#define SYCLIFY_WMMA_PORTABLE 1
#include "wmma_helpers.cpp"

void elements(sycl::queue &q, float *f) {
  q.parallel_for(sycl::nd_range<3>(sycl::range<3>(1, 1, 32), sycl::range<3>(1, 1, 32)),
                 [=](sycl::nd_item<3> item) [[sycl::reqd_sub_group_size(32)]] {
                   wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
                   wmma::load_matrix_sync(item, acc, f, 16, wmma::mem_row_major);
                   for (int i = 0; i < acc.num_elements; i++) acc.x[i] *= 2.0f;
                   wmma::store_matrix_sync(item, f, acc, 16, wmma::mem_row_major);
                 });
}
