// The cuComplex.h helpers (syclify::complex_addf, complex_divf, complex_absf,
// ...) against CUDA's cuComplex.h: every operation in float and double over
// pseudo-random pairs and hand-picked edge cases (huge and tiny parts where
// CUDA's scaled division and modulus matter, zeros, infinities), results
// folded bit for bit into one FNV-1a digest. The expected digest
// (complex_vs_nvcc.expected) is this same file compiled with nvcc 13
// (`nvcc -x cu`, the __CUDACC__ branch: CUDA's names; cuComplex.h's
// functions are host-device, so both builds compute on the host, where
// neither compiler contracts to fused multiply-adds). Run with `dump` to
// print every result, for a diff against the CUDA build.
#include <cstdio>
#include <cstring>
#ifdef __CUDACC__
#include <cuComplex.h>
#define CF cuFloatComplex
#define CD cuDoubleComplex
#define MKF make_cuFloatComplex
#define MKD make_cuDoubleComplex
#define RF cuCrealf
#define IF cuCimagf
#define RD cuCreal
#define ID cuCimag
#define ADDF cuCaddf
#define SUBF cuCsubf
#define MULF cuCmulf
#define DIVF cuCdivf
#define ABSF cuCabsf
#define CONJF cuConjf
#define FMAF cuCfmaf
#define ADDD cuCadd
#define SUBD cuCsub
#define MULD cuCmul
#define DIVD cuCdiv
#define ABSD cuCabs
#define CONJD cuConj
#define FMAD cuCfma
#define F2D cuComplexFloatToDouble
#define D2F cuComplexDoubleToFloat
#else
#include <sycl/sycl.hpp>
#include <syclify/syclify.hpp>
#define CF syclify::float2
#define CD syclify::double2
#define MKF syclify::make_complexf
#define MKD syclify::make_complex
#define RF syclify::complex_realf
#define IF syclify::complex_imagf
#define RD syclify::complex_real
#define ID syclify::complex_imag
#define ADDF syclify::complex_addf
#define SUBF syclify::complex_subf
#define MULF syclify::complex_mulf
#define DIVF syclify::complex_divf
#define ABSF syclify::complex_absf
#define CONJF syclify::complex_conjf
#define FMAF syclify::complex_fmaf
#define ADDD syclify::complex_add
#define SUBD syclify::complex_sub
#define MULD syclify::complex_mul
#define DIVD syclify::complex_div
#define ABSD syclify::complex_abs
#define CONJD syclify::complex_conj
#define FMAD syclify::complex_fma
#define F2D syclify::complex_float_to_double
#define D2F syclify::complex_double_to_float
// Host code calling sycl:: math links against the SYCL runtime library,
// which the header-only wheel the suite uses does not have: these are the
// host definitions it would provide (the C library's functions).
#include <cmath>
namespace sycl {
inline namespace _V1 {
#define SYCLIFY_HOST_MATH1(N) \
  float __##N##_impl(float x) { return std::N(x); } \
  double __##N##_impl(double x) { return std::N(x); }
#define SYCLIFY_HOST_MATH2(N) \
  float __##N##_impl(float x, float y) { return std::N(x, y); } \
  double __##N##_impl(double x, double y) { return std::N(x, y); }
SYCLIFY_HOST_MATH1(fabs)
SYCLIFY_HOST_MATH1(sqrt)
SYCLIFY_HOST_MATH2(fmax)
SYCLIFY_HOST_MATH2(fmin)
} // namespace _V1
} // namespace sycl
#endif

static unsigned long long digest = 1469598103934665603ull;
static bool dump = false;
static void fold(const void *p, size_t n, const char *what) {
  const unsigned char *b = (const unsigned char *)p;
  for (size_t i = 0; i < n; i++) digest = (digest ^ b[i]) * 1099511628211ull;
  if (dump) {
    printf("%s", what);
    for (size_t i = 0; i < n; i++) printf(" %02x", b[i]);
    printf("\n");
  }
}
static void foldf(float f, const char *w) { fold(&f, sizeof f, w); }
static void foldd(double d, const char *w) { fold(&d, sizeof d, w); }
static void foldcf(CF z, const char *w) { foldf(RF(z), w); foldf(IF(z), w); }
static void foldcd(CD z, const char *w) { foldd(RD(z), w); foldd(ID(z), w); }

static unsigned state = 12345u;
static double rnd() {
  state = state * 1664525u + 1013904223u;
  double m = (double)(state >> 8) / 16777216.0 * 2.0 - 1.0; // [-1, 1)
  state = state * 1664525u + 1013904223u;
  int e = (int)(state >> 27) - 16;                        // 2^-16 .. 2^15
  double s = 1.0;
  for (int i = 0; i < (e < 0 ? -e : e); i++) s *= 2.0;
  return e < 0 ? m / s : m * s;
}

int main(int argc, char **argv) {
  dump = argc > 1 && !strcmp(argv[1], "dump");
  const double inf = 1.0 / 0.0;
  const double edge[] = {0.0, -0.0, 1.0, -2.5, 1e-30, 3e38, -3.3e38, 1e-40, 1e300, -1e-300, 1e308, 4.9e-324, inf, -inf};
  const int ne = sizeof edge / sizeof edge[0];
  int count = 0;
  auto one = [&](double a, double b, double c, double d, double e, double f) {
    CF x = MKF((float)a, (float)b), y = MKF((float)c, (float)d), z = MKF((float)e, (float)f);
    foldcf(ADDF(x, y), "addf");
    foldcf(SUBF(x, y), "subf");
    foldcf(MULF(x, y), "mulf");
    foldcf(DIVF(x, y), "divf");
    foldf(ABSF(x), "absf");
    foldcf(CONJF(x), "conjf");
    foldcf(FMAF(x, y, z), "fmaf");
    foldcd(F2D(x), "f2d");
    CD X = MKD(a, b), Y = MKD(c, d), Z = MKD(e, f);
    foldcd(ADDD(X, Y), "add");
    foldcd(SUBD(X, Y), "sub");
    foldcd(MULD(X, Y), "mul");
    foldcd(DIVD(X, Y), "div");
    foldd(ABSD(X), "abs");
    foldcd(CONJD(X), "conj");
    foldcd(FMAD(X, Y, Z), "fma");
    foldcf(D2F(X), "d2f");
    count++;
  };
  for (int i = 0; i < ne; i++)
    for (int j = 0; j < ne; j++)
      for (int k = 0; k < ne; k += 3) one(edge[i], edge[j], edge[k], edge[(k + i) % ne], edge[j], edge[i]);
  for (int i = 0; i < 20000; i++) {
    double a = rnd(), b = rnd(), c = rnd(), d = rnd(), e = rnd(), f = rnd();
    one(a, b, c, d, e, f);
  }
  printf("%d inputs, digest %016llx\n", count, digest);
  return 0;
}
