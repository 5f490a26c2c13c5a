// The helper header's per-thread default streams (nvcc --default-stream
// per-thread becomes -DSYCLIFY_PER_THREAD_DEFAULT_STREAM): host-compiled by
// tests/programs.rs against Intel's SYCL headers, as every_helper.cpp is in
// the legacy mode.
#define CUDA_API_PER_THREAD_DEFAULT_STREAM 1
#include <syclify/syclify.hpp>

int main() {
  syclify::stream_t s;
  syclify::stream_create(&s);
  float *p = nullptr;
  syclify::malloc_device(&p, 64);
  syclify::default_queue().memset(p, 0, 64).wait();
  syclify::queue_of(s).memset(p, 0, 64);
  syclify::stream_synchronize(nullptr);
  syclify::device_synchronize();
  syclify::stream_destroy(s);
  syclify::usm_free(p);
#if !defined(SYCLIFY_PER_THREAD_DEFAULT_STREAM)
#error CUDA_API_PER_THREAD_DEFAULT_STREAM selects the per-thread default stream
#endif
  return 0;
}
