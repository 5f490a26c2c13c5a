// syclify wmma helper header — shipped with code migrated from CUDA by
// syclify when that code included mma.h (CUDA's warp matrix functions,
// nvcuda::wmma). The names keep CUDA's spelling under syclify::nvcuda::wmma,
// so `using namespace nvcuda;` becomes `using namespace syclify::nvcuda;` and
// `wmma::fragment<...>` is left as written; every *_sync function takes the
// kernel's nd_item first (syclify passes it).
//
// Two implementations, chosen when the file is compiled:
//
// * joint_matrix — where the implementation defines SYCL_EXT_ONEAPI_MATRIX
//   (DPC++: the sycl_ext_oneapi_matrix extension, tensor cores on NVIDIA),
//   a fragment is a sycl::ext::oneapi::experimental::matrix::joint_matrix on
//   the sub-group and the functions are joint_matrix_fill/load/mad/store.
//   joint_matrix has no per-work-item element array, so a program that uses
//   a fragment's `x[]` or `num_elements` cannot use it: syclify defines
//   SYCLIFY_WMMA_PORTABLE before including this header in such a file (and
//   says so, note SY0403).
//
// * portable — everywhere else (AdaptiveCpp 24.06 has no joint_matrix) and
//   under SYCLIFY_WMMA_PORTABLE: plain SYCL 2020 on a sub-group of 32 (syclify
//   launches every kernel that uses wmma with reqd_sub_group_size(32)). Each
//   work-item holds rows*cols/32 elements of a fragment in `x[]`, as CUDA's
//   fragments do, and mma_sync exchanges them with select_from_group. The
//   element-to-work-item mapping is syclify's own: CUDA leaves it unspecified,
//   so programs only rely on all fragments of one type sharing it, which they
//   do. Arithmetic is exact per product and accumulates in the accumulator's
//   type in order of k; tensor cores may round sums differently. It is
//   correct everywhere, not fast: no tensor cores.
//
// Shapes and types: CUDA's m16n16k16, m32n8k16 and m8n32k16 for half,
// bfloat16 and 8-bit integers, m16n16k8 for precision::tf32 and m8n8k4 for
// double. The sub-byte experimental types (s4, u4, b1) and bmma_sync are not
// migrated.
#pragma once

#include <sycl/sycl.hpp>

#include "syclify.hpp"

#include <cstdint>
#include <cstring>
#include <type_traits>

#if defined(SYCL_EXT_ONEAPI_MATRIX) && !defined(SYCLIFY_WMMA_PORTABLE)
#define SYCLIFY_WMMA_JOINT_MATRIX 1
#endif

namespace syclify {
namespace nvcuda {
namespace wmma {

// What a fragment is for (CUDA's tag types).
struct matrix_a {};
struct matrix_b {};
struct accumulator {};
// How matrix_a and matrix_b fragments are laid out in memory.
struct row_major {};
struct col_major {};
// How an accumulator is laid out in memory (a run-time argument).
enum layout_t { mem_row_major, mem_col_major };

namespace precision {
// TF32: a float with 10 bits of mantissa; its fragments hold floats.
struct tf32 {};
} // namespace precision

// CUDA's __float_to_tf32: rounds to the nearest TF32 value, ties away from
// zero (cvt.rna.tf32.f32); NaN and infinity unchanged.
inline float __float_to_tf32(float f) {
  unsigned int u = sycl::bit_cast<unsigned int>(f);
  if ((u & 0x7f800000u) != 0x7f800000u) {
    u = (u + 0x1000u) & 0xffffe000u;
  }
  return sycl::bit_cast<float>(u);
}

namespace detail {

// The type a fragment's elements are stored as (tf32 is stored as float).
template <class T> struct storage { using type = T; };
template <> struct storage<precision::tf32> { using type = float; };
template <class T> using storage_t = typename storage<T>::type;

// Rows and columns of a fragment: A is M x K, B is K x N, the accumulator M x N.
template <class Use, int M, int N, int K> struct shape;
template <int M, int N, int K> struct shape<matrix_a, M, N, K> {
  static constexpr int rows = M, cols = K;
};
template <int M, int N, int K> struct shape<matrix_b, M, N, K> {
  static constexpr int rows = K, cols = N;
};
template <int M, int N, int K> struct shape<accumulator, M, N, K> {
  static constexpr int rows = M, cols = N;
};

template <class Item> inline sycl::sub_group sub_group_of(const Item &item) { return item.get_sub_group(); }

} // namespace detail

#ifdef SYCLIFY_WMMA_JOINT_MATRIX

namespace jm = sycl::ext::oneapi::experimental::matrix;

namespace detail {
// The joint_matrix element type of a CUDA element type.
template <class T> struct jm_element { using type = T; };
template <> struct jm_element<precision::tf32> { using type = jm::precision::tf32; };
template <> struct jm_element<syclify::bfloat16> { using type = sycl::ext::oneapi::bfloat16; };
template <> struct jm_element<char> { using type = std::int8_t; };
template <class Use> constexpr jm::use jm_use() {
  if constexpr (std::is_same_v<Use, matrix_a>) {
    return jm::use::a;
  } else if constexpr (std::is_same_v<Use, matrix_b>) {
    return jm::use::b;
  } else {
    return jm::use::accumulator;
  }
}
template <class Layout> constexpr jm::layout jm_layout() {
  if constexpr (std::is_same_v<Layout, row_major>) {
    return jm::layout::row_major;
  } else if constexpr (std::is_same_v<Layout, col_major>) {
    return jm::layout::col_major;
  } else {
    return jm::layout::dynamic;
  }
}
// What joint_matrix loads and fills a fragment from: its element type, float for tf32.
template <class E> using jm_storage_t = std::conditional_t<std::is_same_v<E, jm::precision::tf32>, float, E>;
inline jm::layout jm_layout(layout_t l) { return l == mem_row_major ? jm::layout::row_major : jm::layout::col_major; }

// The memory a fragment is loaded from or stored to, as the multi_ptr the
// extension takes (generic: global and local memory alike).
template <class Jm, class P> auto jm_ptr(P *p) {
  using E = std::conditional_t<std::is_const_v<P>, const Jm, Jm>;
  return sycl::address_space_cast<sycl::access::address_space::generic_space, sycl::access::decorated::no>(
      reinterpret_cast<E *>(p));
}
} // namespace detail

inline namespace joint_matrix_impl {

template <class Use, int M, int N, int K, class T, class Layout = void> struct fragment {
  static_assert(!std::is_same_v<Use, accumulator> || std::is_void_v<Layout>, "an accumulator fragment has no layout");
  using element_type = T;
  using storage_element_type = detail::storage_t<T>;
  using jm_element_type = typename detail::jm_element<T>::type;
  static constexpr int rows = detail::shape<Use, M, N, K>::rows;
  static constexpr int cols = detail::shape<Use, M, N, K>::cols;
  jm::joint_matrix<sycl::sub_group, jm_element_type, detail::jm_use<Use>(), rows, cols, detail::jm_layout<Layout>()> m;
};

template <class Item, class Use, int M, int N, int K, class T, class L, class V>
inline void fill_fragment(const Item &item, fragment<Use, M, N, K, T, L> &f, const V &v) {
  using E = typename fragment<Use, M, N, K, T, L>::jm_element_type;
  jm::joint_matrix_fill(detail::sub_group_of(item), f.m, static_cast<detail::jm_storage_t<E>>(v));
}

// matrix_a and matrix_b: the layout is the fragment's.
template <class Item, class Use, int M, int N, int K, class T, class L, class P>
inline void load_matrix_sync(const Item &item, fragment<Use, M, N, K, T, L> &f, const P *p, unsigned ldm) {
  using E = typename fragment<Use, M, N, K, T, L>::jm_element_type;
  jm::joint_matrix_load(detail::sub_group_of(item), f.m, detail::jm_ptr<detail::jm_storage_t<E>>(p), ldm);
}

template <class Item, int M, int N, int K, class T, class P>
inline void load_matrix_sync(const Item &item, fragment<accumulator, M, N, K, T> &f, const P *p, unsigned ldm,
                             layout_t layout) {
  using E = typename fragment<accumulator, M, N, K, T>::jm_element_type;
  jm::joint_matrix_load(detail::sub_group_of(item), f.m, detail::jm_ptr<E>(p), ldm, detail::jm_layout(layout));
}

template <class Item, int M, int N, int K, class T, class P>
inline void store_matrix_sync(const Item &item, P *p, const fragment<accumulator, M, N, K, T> &f, unsigned ldm,
                              layout_t layout) {
  using E = typename fragment<accumulator, M, N, K, T>::jm_element_type;
  jm::joint_matrix_store(detail::sub_group_of(item), f.m, detail::jm_ptr<E>(p), ldm, detail::jm_layout(layout));
}

template <class Item, int M, int N, int K, class Ta, class La, class Tb, class Lb, class Tc, class Td>
inline void mma_sync(const Item &item, fragment<accumulator, M, N, K, Td> &d,
                     const fragment<matrix_a, M, N, K, Ta, La> &a, const fragment<matrix_b, M, N, K, Tb, Lb> &b,
                     const fragment<accumulator, M, N, K, Tc> &c, bool satf = false) {
  (void)satf; // saturation of half results to finite values: not in joint_matrix (and deprecated in CUDA)
  jm::joint_matrix_mad(detail::sub_group_of(item), d.m, a.m, b.m, c.m);
}
} // inline namespace joint_matrix_impl

#else

namespace detail {
template <class Item> inline int lane_of(const Item &item) {
  return static_cast<int>(item.get_sub_group().get_local_linear_id());
}
// Offset of element (row, col) in memory with leading dimension ldm.
inline std::size_t offset(bool row_major_memory, int row, int col, unsigned ldm) {
  return row_major_memory ? static_cast<std::size_t>(row) * ldm + col : static_cast<std::size_t>(col) * ldm + row;
}
// The type products are formed and summed in: the accumulator's (float for
// half, bfloat16 and tf32; int for 8-bit integers; double).
template <class Tc> struct compute { using type = Tc; };
template <> struct compute<sycl::half> { using type = float; };
template <class Tc> using compute_t = typename compute<Tc>::type;
// A TF32 operand: tensor cores read only its upper 19 bits.
template <class T, class S> inline S operand(S v) {
  if constexpr (std::is_same_v<T, precision::tf32>) {
    return sycl::bit_cast<float>(sycl::bit_cast<unsigned int>(v) & 0xffffe000u);
  } else {
    return v;
  }
}
} // namespace detail

inline namespace portable_impl {

// A fragment of a matrix spread over the 32 work-items of a sub-group.
//
// Element mapping, with lane L of the sub-group and P = 32 / N (N divides 32
// in every CUDA shape):
// * accumulator (M x N) and matrix_b (K x N): x[s] of lane L is element
//   (s * P + L / N, L % N) — a row-major walk, 32 elements per slot;
// * matrix_a (M x K): x[s] of lane L is element (r * P + L % P, k) where
//   r * K + k = s * N + L / P — so the A values that the accumulator's slot r
//   needs for one k sit in one slot of P lanes, and mma_sync reads each
//   with one select_from_group.
template <class Use, int M, int N, int K, class T, class Layout = void> struct fragment {
  static_assert(32 % N == 0 && M % (32 / N) == 0 && K % (32 / N) == 0, "not a shape of CUDA's wmma");
  static_assert(!std::is_same_v<Use, accumulator> || std::is_void_v<Layout>, "an accumulator fragment has no layout");
  using element_type = T;
  using storage_element_type = detail::storage_t<T>;
  static constexpr int rows = detail::shape<Use, M, N, K>::rows;
  static constexpr int cols = detail::shape<Use, M, N, K>::cols;
  static constexpr int num_elements = rows * cols / 32;
  storage_element_type x[num_elements];

  // Row and column (in the fragment) of x[s] on lane `lane`.
  static constexpr int row_of(int s, int lane) {
    if constexpr (std::is_same_v<Use, matrix_a>) {
      constexpr int P = 32 / N;
      return (s * N + lane / P) / K * P + lane % P;
    } else {
      return s * (32 / N) + lane / N;
    }
  }
  static constexpr int col_of(int s, int lane) {
    if constexpr (std::is_same_v<Use, matrix_a>) {
      return (s * N + lane / (32 / N)) % K;
    } else {
      return lane % N;
    }
  }
};


template <class Item, class Use, int M, int N, int K, class T, class L, class V>
inline void fill_fragment(const Item &item, fragment<Use, M, N, K, T, L> &f, const V &v) {
  (void)item;
  using S = typename fragment<Use, M, N, K, T, L>::storage_element_type;
  for (int s = 0; s < f.num_elements; ++s) {
    f.x[s] = static_cast<S>(v);
  }
}

// matrix_a and matrix_b: the layout is the fragment's.
template <class Item, class Use, int M, int N, int K, class T, class L, class P>
inline void load_matrix_sync(const Item &item, fragment<Use, M, N, K, T, L> &f, const P *p, unsigned ldm) {
  static_assert(!std::is_same_v<Use, accumulator>, "an accumulator is loaded with a layout_t");
  using F = fragment<Use, M, N, K, T, L>;
  using S = typename F::storage_element_type;
  const int lane = detail::lane_of(item);
  constexpr bool rm = std::is_same_v<L, row_major>;
  for (int s = 0; s < F::num_elements; ++s) {
    f.x[s] = static_cast<S>(p[detail::offset(rm, F::row_of(s, lane), F::col_of(s, lane), ldm)]);
  }
}

template <class Item, int M, int N, int K, class T, class P>
inline void load_matrix_sync(const Item &item, fragment<accumulator, M, N, K, T> &f, const P *p, unsigned ldm,
                             layout_t layout) {
  using F = fragment<accumulator, M, N, K, T>;
  const int lane = detail::lane_of(item);
  for (int s = 0; s < F::num_elements; ++s) {
    f.x[s] = static_cast<T>(p[detail::offset(layout == mem_row_major, F::row_of(s, lane), F::col_of(s, lane), ldm)]);
  }
}

template <class Item, int M, int N, int K, class T, class P>
inline void store_matrix_sync(const Item &item, P *p, const fragment<accumulator, M, N, K, T> &f, unsigned ldm,
                              layout_t layout) {
  using F = fragment<accumulator, M, N, K, T>;
  const int lane = detail::lane_of(item);
  for (int s = 0; s < F::num_elements; ++s) {
    p[detail::offset(layout == mem_row_major, F::row_of(s, lane), F::col_of(s, lane), ldm)] = static_cast<P>(f.x[s]);
  }
}

// d = a * b + c. d may be c.
template <class Item, int M, int N, int K, class Ta, class La, class Tb, class Lb, class Tc, class Td>
inline void mma_sync(const Item &item, fragment<accumulator, M, N, K, Td> &d,
                     const fragment<matrix_a, M, N, K, Ta, La> &a, const fragment<matrix_b, M, N, K, Tb, Lb> &b,
                     const fragment<accumulator, M, N, K, Tc> &c, bool satf = false) {
  using C = detail::compute_t<Tc>;
  constexpr int P = 32 / N;
  auto sg = item.get_sub_group();
  const int lane = static_cast<int>(sg.get_local_linear_id());
  // column L % N of b, all K rows: b's slot k / P on lane (k % P) * N + L % N
  C bcol[K];
  for (int k = 0; k < K; ++k) {
    C v = static_cast<C>(detail::operand<Tb>(b.x[k / P]));
    bcol[k] = sycl::select_from_group(sg, v, static_cast<unsigned>((k % P) * N + lane % N));
  }
  constexpr int R = fragment<accumulator, M, N, K, Tc>::num_elements;
  Td out[R];
  for (int r = 0; r < R; ++r) {
    C acc = static_cast<C>(c.x[r]);
    for (int k = 0; k < K; ++k) {
      // a(r * P + L / N, k): a's slot (r * K + k) / N on lane ((r * K + k) % N) * P + L / N
      const int q = r * K + k;
      C v = static_cast<C>(detail::operand<Ta>(a.x[q / N]));
      C av = sycl::select_from_group(sg, v, static_cast<unsigned>((q % N) * P + lane / N));
      acc += av * bcol[k];
    }
    out[r] = static_cast<Td>(acc);
    if constexpr (std::is_same_v<Td, sycl::half>) {
      if (satf && !sycl::isfinite(static_cast<float>(out[r]))) {
        // saturate to finite: NaN becomes 0, infinities the largest half
        float o = static_cast<float>(out[r]);
        out[r] = sycl::isnan(o) ? sycl::half(0.0f) : sycl::half(o > 0 ? 65504.0f : -65504.0f);
      }
    }
  }
  for (int r = 0; r < R; ++r) {
    d.x[r] = out[r];
  }
}
} // inline namespace portable_impl

#endif // SYCLIFY_WMMA_JOINT_MATRIX

} // namespace wmma
} // namespace nvcuda
} // namespace syclify
