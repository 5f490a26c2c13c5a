// The half helpers (syclify::half2float, float2half, hfma, hfma2, hmax, the
// _sat and _relu forms, hcmadd) and sycl::half's own arithmetic against CUDA's
// cuda_fp16.h: every half code to float; ~70k floats to half (random, ties and
// their neighbours, subnormals, overflow); ~120k half triples through every
// operation (random bit patterns, NaN and infinity included; random values of
// nearby exponents; fma cases where rounding the sum to float first and then
// to half would give the other neighbour). NaN results count as one value (CUDA
// returns a canonical NaN; a payload is not compared). Folded into one FNV-1a
// digest; the expected digest (half_vs_nvcc.expected) is this same file
// compiled with nvcc 13 (`nvcc -arch=sm_90 -x cu`, the __CUDACC__ branch:
// CUDA's names, computed in a kernel) and run on an H100. Run with `dump` to
// print every result, for a diff against the CUDA build. With
// -DHALF_VS_NVCC_ON_DEVICE and a SYCL compiler the SYCL build computes in
// kernels (AdaptiveCpp on the H100: the same digest).
#include <cstdio>
#include <cstring>
#ifdef __NVCC__
#include <cuda_fp16.h>
#define HD __host__ __device__
#define DEV __device__ // CUDA's half arithmetic is device code
using H = __half;
using H2 = __half2;
HD unsigned short bits(H h) { return __half_as_ushort(h); }
HD H from_bits(unsigned short b) { return __ushort_as_half(b); }
HD H2 pair(H a, H b) { return __halves2half2(a, b); }
#define TO_FLOAT __half2float
#define TO_HALF __float2half_rn
#define FMA __hfma
#define FMA2 __hfma2
#define MAX __hmax
#define MIN __hmin
#define ADD_SAT __hadd_sat
#define SUB_SAT __hsub_sat
#define MUL_SAT __hmul_sat
#define FMA_SAT __hfma_sat
#define FMA_RELU __hfma_relu
#define CMADD __hcmadd
#define ADD __hadd
#define SUB __hsub
#define MUL __hmul
#define DIV __hdiv
#else
#include <sycl/sycl.hpp>
#include <syclify/syclify.hpp>
#define HD
#define DEV
using H = sycl::half;
using H2 = syclify::half2;
unsigned short bits(H h) { return sycl::bit_cast<unsigned short>(h); }
H from_bits(unsigned short b) { return sycl::bit_cast<H>(b); }
H2 pair(H a, H b) { return H2(a, b); }
#define TO_FLOAT syclify::half2float
#define TO_HALF syclify::float2half
#define FMA syclify::hfma
#define FMA2 syclify::hfma2
#define MAX syclify::hmax
#define MIN syclify::hmin
#define ADD_SAT syclify::hadd_sat
#define SUB_SAT syclify::hsub_sat
#define MUL_SAT syclify::hmul_sat
#define FMA_SAT syclify::hfma_sat
#define FMA_RELU syclify::hfma_relu
#define CMADD syclify::hcmadd
#define ADD syclify::hadd
#define SUB syclify::hsub
#define MUL syclify::hmul
#define DIV syclify::hdiv
// Host code calling sycl:: math links against the SYCL runtime library,
// which the header-only wheel the suite uses does not have: these are the
// host definitions it would provide (the C library's functions).
#include <cmath>
namespace sycl {
inline namespace _V1 {
float __fma_impl(float x, float y, float z) { return std::fma(x, y, z); }
float __fmax_impl(float x, float y) { return std::fmax(x, y); }
float __fmin_impl(float x, float y) { return std::fmin(x, y); }
} // namespace _V1
} // namespace sycl
#endif

const int OPS = 16; // half results per triple

HD unsigned short canon(unsigned short b) { return ((b & 0x7c00) == 0x7c00 && (b & 0x3ff)) ? 0x7fff : b; }
HD unsigned canon_f(float f) {
  unsigned u;
  memcpy(&u, &f, 4);
  return ((u & 0x7f800000u) == 0x7f800000u && (u & 0x7fffffu)) ? 0x7fffffffu : u;
}

DEV void triple(const unsigned short *in, unsigned short *o) {
  H a = from_bits(in[0]), b = from_bits(in[1]), c = from_bits(in[2]);
  H2 f2 = FMA2(pair(a, c), pair(b, a), pair(c, b));
  H2 cm = CMADD(pair(a, b), pair(c, a), pair(b, c));
  H r[OPS] = {FMA(a, b, c), f2.x, f2.y, MAX(a, b), MIN(a, b), ADD_SAT(a, b), SUB_SAT(a, b), MUL_SAT(a, b),
                 FMA_SAT(a, b, c), FMA_RELU(a, b, c), cm.x, cm.y, ADD(a, b), SUB(a, b), MUL(a, b), DIV(a, b)};
  for (int k = 0; k < OPS; k++) o[k] = canon(bits(r[k]));
}

// A deterministic generator (the same stream on both builds: inputs are made
// on the host).
struct Lcg {
  unsigned long long s = 0x9e3779b97f4a7c15ull;
  unsigned next() {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return (unsigned)(s >> 33);
  }
};

unsigned short random_half(Lcg &g, int emin, int emax) {
  unsigned e = emin + g.next() % (emax - emin + 1);
  return (unsigned short)(((g.next() & 1) << 15) | (e << 10) | (g.next() & 0x3ff));
}

int make_triples(unsigned short *t) {
  Lcg g;
  int n = 0;
  for (int i = 0; i < 40000; i++, n++) // any bit pattern
    for (int k = 0; k < 3; k++) t[3 * n + k] = (unsigned short)g.next();
  for (int i = 0; i < 60000; i++, n++) { // products and addends of nearby size
    t[3 * n] = random_half(g, 10, 20);
    t[3 * n + 1] = random_half(g, 10, 20);
    t[3 * n + 2] = random_half(g, 15, 26);
  }
  for (int i = 0; i < 20000; i++, n++) // subnormal and tiny
    for (int k = 0; k < 3; k++) t[3 * n + k] = random_half(g, 0, 4);
  // a*b = (2^20 - 1) 2^e = 1023 * 1025 * 2^e lies just below a tie of c's
  // neighbours; in float it rounds onto the tie, and the tie then rounds to
  // even: the other neighbour than the exact sum's. Every scale and sign.
  for (int ea = 1; ea < 30; ea++)
    for (int eb = 1; eb < 30; eb++)
      for (unsigned s = 0; s < 4; s++, n++) {
        t[3 * n] = (unsigned short)(((s & 1) << 15) | (ea << 10) | 0x3fe);     // 1023 * 2^k
        t[3 * n + 1] = (unsigned short)(((s >> 1) << 15) | (eb << 10) | 0x001); // 1025 * 2^k
        int ec = ea + eb - 3; // c's half ulp is the product's size
        ec = ec < 1 ? 1 : (ec > 30 ? 30 : ec);
        t[3 * n + 2] = (unsigned short)((((s ^ (s >> 1)) & 1) << 15) | (ec << 10) | 0x001);
      }
  return n;
}

int make_floats(float *v) {
  Lcg g;
  g.s = 12345;
  int n = 0;
  for (int i = 0; i < 50000; i++) { // exponents from below half's subnormals to above its range
    unsigned e = 127 - 27 + g.next() % 46;
    unsigned u = ((g.next() & 1u) << 31) | (e << 23) | (g.next() & 0x7fffffu);
    memcpy(&v[n++], &u, 4);
  }
  for (int i = 0; i < 20000; i++) { // ties between halves and the floats next to them
    unsigned e = 127 - 26 + g.next() % 43;
    unsigned u = ((g.next() & 1u) << 31) | (e << 23) | ((g.next() & 0x3ffu) << 13) | 0x1000u;
    u += (int)(i % 3) - 1;
    memcpy(&v[n++], &u, 4);
  }
  return n;
}

#ifdef __NVCC__
__global__ void triple_k(const unsigned short *t, int n, unsigned short *o) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) triple(t + 3 * i, o + OPS * i);
}
__global__ void to_float_k(unsigned *o) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  o[i] = canon_f(TO_FLOAT(from_bits((unsigned short)i)));
}
__global__ void to_half_k(const float *v, int n, unsigned short *o) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = canon(bits(TO_HALF(v[i])));
}
#endif

int main(int argc, char **argv) {
  static unsigned short t[3 * 130000], o[OPS * 130000], ho[80000];
  static unsigned fo[65536];
  static float v[80000];
  int n = make_triples(t), m = make_floats(v);
#ifdef __NVCC__
  unsigned short *dt, *dout, *dho;
  unsigned *dfo;
  float *dv;
  cudaMalloc(&dt, n * 6); cudaMalloc(&dout, n * OPS * 2); cudaMalloc(&dho, m * 2);
  cudaMalloc(&dfo, 65536 * 4); cudaMalloc(&dv, m * 4);
  cudaMemcpy(dt, t, n * 6, cudaMemcpyHostToDevice);
  cudaMemcpy(dv, v, m * 4, cudaMemcpyHostToDevice);
  triple_k<<<(n + 255) / 256, 256>>>(dt, n, dout);
  to_float_k<<<256, 256>>>(dfo);
  to_half_k<<<(m + 255) / 256, 256>>>(dv, m, dho);
  cudaMemcpy(o, dout, n * OPS * 2, cudaMemcpyDeviceToHost);
  cudaMemcpy(fo, dfo, 65536 * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(ho, dho, m * 2, cudaMemcpyDeviceToHost);
#elif defined(HALF_VS_NVCC_ON_DEVICE)
  { // the helpers' device code: the same operations in kernels of a SYCL compiler
    sycl::queue q;
    unsigned short *dt = sycl::malloc_shared<unsigned short>(3 * n, q), *dout = sycl::malloc_shared<unsigned short>(OPS * n, q);
    unsigned short *dho = sycl::malloc_shared<unsigned short>(m, q);
    unsigned *dfo = sycl::malloc_shared<unsigned>(65536, q);
    float *dv = sycl::malloc_shared<float>(m, q);
    memcpy(dt, t, n * 6);
    memcpy(dv, v, m * 4);
    q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { triple(dt + 3 * i[0], dout + OPS * i[0]); });
    q.parallel_for(sycl::range<1>(65536), [=](sycl::id<1> i) { dfo[i] = canon_f(TO_FLOAT(from_bits((unsigned short)i[0]))); });
    q.parallel_for(sycl::range<1>(m), [=](sycl::id<1> i) { dho[i] = canon(bits(TO_HALF(dv[i]))); });
    q.wait();
    memcpy(o, dout, n * OPS * 2);
    memcpy(fo, dfo, 65536 * 4);
    memcpy(ho, dho, m * 2);
  }
#else
  for (int i = 0; i < n; i++) triple(t + 3 * i, o + OPS * i);
  for (int i = 0; i < 65536; i++) fo[i] = canon_f(TO_FLOAT(from_bits((unsigned short)i)));
  for (int i = 0; i < m; i++) ho[i] = canon(bits(TO_HALF(v[i])));
#endif
  bool dump = argc > 1 && !strcmp(argv[1], "dump");
  unsigned long long h = 0xcbf29ce484222325ull; // FNV-1a over every result, in order
  auto fold = [&](unsigned x, int bytes) {
    for (int k = 0; k < bytes; k++) { h ^= (x >> (8 * k)) & 0xff; h *= 0x100000001b3ull; }
  };
  for (int i = 0; i < n * OPS; i++) fold(o[i], 2);
  for (int i = 0; i < 65536; i++) fold(fo[i], 4);
  for (int i = 0; i < m; i++) fold(ho[i], 2);
  if (dump) {
    for (int i = 0; i < n; i++) {
      printf("tri %04x %04x %04x:", t[3 * i], t[3 * i + 1], t[3 * i + 2]);
      for (int k = 0; k < OPS; k++) printf(" %04x", o[OPS * i + k]);
      printf("\n");
    }
    for (int i = 0; i < 65536; i++) printf("h2f %04x: %08x\n", i, fo[i]);
    for (int i = 0; i < m; i++) {
      unsigned u;
      memcpy(&u, &v[i], 4);
      printf("f2h %08x: %04x\n", u, ho[i]);
    }
  }
  printf("%d triples, %d floats, digest %016llx\n", n, m, h);
  return 0;
}
