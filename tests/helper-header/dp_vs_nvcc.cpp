// The byte and half-word dot products (syclify::dp4a, syclify::dp2a<High>)
// against CUDA's __dp4a, __dp2a_lo and __dp2a_hi, in both overloads (signed
// int, unsigned int), over pseudo-random words and edge values, folded into
// one FNV-1a digest. The expected digest (dp_vs_nvcc.expected) is this same
// file compiled with nvcc 13 (`nvcc -x cu -arch=sm_90`, the __CUDACC__
// branch: CUDA's intrinsics, which exist in device code only, run in a
// <<<1, 1>>> kernel) and run on an H100.
#include <cstdio>
#ifdef __CUDACC__
#define HD __device__
#define DP4A __dp4a
#define DP2A_LO __dp2a_lo
#define DP2A_HI __dp2a_hi
#else
#include <sycl/sycl.hpp>
#include <syclify/syclify.hpp>
#define HD
#define DP4A syclify::dp4a
#define DP2A_LO syclify::dp2a<false>
#define DP2A_HI syclify::dp2a<true>
#endif

HD void fold(unsigned long long &h, unsigned v) {
  for (int i = 0; i < 4; ++i) {
    h ^= (v >> (8 * i)) & 0xffu;
    h *= 1099511628211ull;
  }
}

HD unsigned long long digest() {
  const unsigned edge[] = {0u, 1u, 0x7f7f7f7fu, 0x80808080u, 0xffffffffu, 0x7fff8000u, 0x8000ffffu, 0x01ff80ffu};
  unsigned long long h = 1469598103934665603ull;
  unsigned x = 2463534242u;
  for (int i = 0; i < 8 * 8 * 8 + 4000; ++i) {
    unsigned a, b, c;
    if (i < 512) {
      a = edge[i % 8];
      b = edge[(i / 8) % 8];
      c = edge[i / 64];
    } else {
      x ^= x << 13, x ^= x >> 17, x ^= x << 5, a = x;
      x ^= x << 13, x ^= x >> 17, x ^= x << 5, b = x;
      x ^= x << 13, x ^= x >> 17, x ^= x << 5, c = x;
    }
    fold(h, (unsigned)DP4A((int)a, (int)b, (int)c));
    fold(h, DP4A(a, b, c));
    fold(h, (unsigned)DP2A_LO((int)a, (int)b, (int)c));
    fold(h, DP2A_LO(a, b, c));
    fold(h, (unsigned)DP2A_HI((int)a, (int)b, (int)c));
    fold(h, DP2A_HI(a, b, c));
  }
  return h;
}

#ifdef __CUDACC__
__global__ void kernel(unsigned long long *out) { *out = digest(); }
int main() {
  unsigned long long *d, h;
  cudaMalloc(&d, sizeof(h));
  kernel<<<1, 1>>>(d);
  cudaMemcpy(&h, d, sizeof(h), cudaMemcpyDeviceToHost);
  printf("%016llx\n", h);
  return 0;
}
#else
int main() {
  printf("%016llx\n", digest());
  return 0;
}
#endif
