// syclify: which oneAPI math library the cuBLAS and cuRAND helpers
// (blas.hpp, rand.hpp) call.
//
//   * Intel oneMKL (`oneapi/mkl.hpp`, namespace oneapi::mkl): DPC++ on Intel
//     CPUs and GPUs;
//   * the open-source oneMath (uxlfoundation/oneMath, `oneapi/math.hpp`,
//     namespace oneapi::math): DPC++ or AdaptiveCpp, with its cuBLAS and
//     cuRAND backends on NVIDIA GPUs.
//
// oneMath is chosen when SYCLIFY_ONEMATH is defined, or when
// <oneapi/math.hpp> is on the include path and SYCLIFY_ONEMKL is not
// defined. Where the two differ (oneMath has no value_or_pointer scalars, no
// index base for iamax/iamin, fewer RNG engines), the helpers say so where
// they choose.
#pragma once

#if !defined(SYCLIFY_ONEMATH) && !defined(SYCLIFY_ONEMKL) && __has_include(<oneapi/math.hpp>)
#define SYCLIFY_ONEMATH 1
#endif

#ifdef SYCLIFY_ONEMATH
namespace oneapi::math {}
namespace syclify {
namespace math_library = oneapi::math;
}
#else
namespace oneapi::mkl {}
namespace syclify {
namespace math_library = oneapi::mkl;
}
#endif
