// syclify CUB helper header — shipped with code migrated from CUDA by syclify
// when that code used CUB's block- and warp-wide collectives.
//
// Plain SYCL 2020 (group algorithms, sub-group shifts and work-group local
// memory): it builds with Intel DPC++ and with AdaptiveCpp. `cub::X` in the
// original becomes `syclify::cub::X`; a collective's constructor receives the
// kernel's `nd_item` after its temporary storage (`BlockReduce(temp, item)`).
//
// Semantics kept from CUB:
//   * every work-item of the block (warp) must call a collective, as in CUB;
//   * the `TempStorage` a kernel declares `__shared__` is work-group local
//     memory here too, and may be reused after a barrier, as in CUB;
//   * results CUB defines only in thread 0 (reductions) or in lane 0 (warp
//     reductions) are given to every work-item: a superset of CUB's contract;
//   * `Sum`/`Max`/`Min` over arithmetic types use SYCL's group algorithms
//     (`sycl::reduce_over_group`, `sycl::exclusive_scan_over_group`, ...);
//     any other operator or type (a user's functor, `KeyValuePair` with
//     `ArgMax`) runs a tree over the temporary storage with barriers;
//   * warp collectives work on the sub-group: kernels that use them are
//     launched with [[sycl::reqd_sub_group_size(32)]], CUB's warp size.
//
// Contents
//   1. Operators        Sum, Max, Min, ArgMax, ArgMin, Equality, KeyValuePair
//   2. BlockReduce      Sum/Reduce, with num_valid and items-per-thread arrays
//   3. BlockScan        Exclusive/InclusiveSum, Exclusive/InclusiveScan, aggregates
//   4. WarpReduce       Sum/Reduce over logical warps of 1–32 lanes, valid_items
//   5. WarpScan         Exclusive/InclusiveSum, Exclusive/InclusiveScan, aggregates
//   5b. BlockAdjacentDifference  SubtractLeft/Right (tile neighbours, partial tiles)
//   6. Iterators        CountingInputIterator, ConstantInputIterator, TransformInputIterator
//   7. Device-wide      DeviceReduce (Sum/Max/Min/Reduce), DeviceScan
//                       (Exclusive/InclusiveSum, Exclusive/InclusiveScan),
//                       DeviceSelect (Flagged/If), DeviceRunLengthEncode
//                       (Encode/NonTrivialRuns), with CUB's two-call
//                       temporary-storage protocol, on the stream's queue
//   8. CachingDeviceAllocator  DeviceAllocate/DeviceFree on USM device memory
#pragma once

#include <sycl/sycl.hpp>

#include "syclify.hpp"

// The CUB API level these helpers follow (CUB 2.8's: cub::Sum/Max/Min and the
// input iterators that CUB 3 removed), for code that tests CUB_VERSION.
#ifndef CUB_VERSION
#define CUB_VERSION 200800
#define CUB_MAJOR_VERSION 2
#define CUB_MINOR_VERSION 8
#define CUB_SUBMINOR_VERSION 0
#endif

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <cstdio>
#include <cstdlib>
#include <iterator>

#include <limits>
#include <type_traits>
#include <vector>

namespace syclify {
namespace cub {

// ---------------------------------------------------------------------------
// 1. Operators (cub::Sum, cub::Max, ... and cub::KeyValuePair)
// ---------------------------------------------------------------------------

struct Sum {
  template <class T> T operator()(const T &a, const T &b) const { return a + b; }
};
struct Max {
  template <class T> T operator()(const T &a, const T &b) const { return (b > a) ? b : a; }
};
struct Min {
  template <class T> T operator()(const T &a, const T &b) const { return (b < a) ? b : a; }
};
struct Equality {
  template <class T> bool operator()(const T &a, const T &b) const { return a == b; }
};

template <class K, class V> struct KeyValuePair {
  typedef K Key;
  typedef V Value;
  K key;
  V value;
  KeyValuePair() = default;
  KeyValuePair(const K &k, const V &v) : key(k), value(v) {}
  bool operator!=(const KeyValuePair &b) const { return value != b.value || key != b.key; }
};

// the pair with the larger value; the smaller key among equal values (CUB's rule)
struct ArgMax {
  template <class T> T operator()(const T &a, const T &b) const {
    return ((b.value > a.value) || ((a.value == b.value) && (b.key < a.key))) ? b : a;
  }
};
struct ArgMin {
  template <class T> T operator()(const T &a, const T &b) const {
    return ((b.value < a.value) || ((a.value == b.value) && (b.key < a.key))) ? b : a;
  }
};

enum BlockReduceAlgorithm { BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY, BLOCK_REDUCE_RAKING, BLOCK_REDUCE_WARP_REDUCTIONS };
enum BlockScanAlgorithm { BLOCK_SCAN_RAKING, BLOCK_SCAN_RAKING_MEMOIZE, BLOCK_SCAN_WARP_SCANS };

namespace detail {

// the SYCL function object for CUB's Sum/Max/Min over arithmetic T, or void
template <class Op, class T> struct native_op {
  using type = void;
};
template <class T> struct native_op<Sum, T> {
  using type = std::conditional_t<std::is_arithmetic_v<T>, sycl::plus<T>, void>;
};
template <class T> struct native_op<Max, T> {
  using type = std::conditional_t<std::is_arithmetic_v<T>, sycl::maximum<T>, void>;
};
template <class T> struct native_op<Min, T> {
  using type = std::conditional_t<std::is_arithmetic_v<T>, sycl::minimum<T>, void>;
};
template <class Op, class T> using native_op_t = typename native_op<Op, T>::type;
template <class Op, class T> inline constexpr bool is_native = !std::is_void_v<native_op_t<Op, T>>;

// `op` over `v` of a whole work-group, through `scratch` (one T per work-item);
// every work-item gets the result
template <class T, class Op>
T tree_reduce(const sycl::nd_item<3> &item, T *scratch, T v, Op op, std::size_t valid) {
  const std::size_t lid = item.get_local_linear_id();
  const std::size_t n = valid < item.get_local_range().size() ? valid : item.get_local_range().size();
  sycl::group_barrier(item.get_group());
  scratch[lid] = v;
  for (std::size_t width = 1; width < n; width *= 2) {
    sycl::group_barrier(item.get_group());
    if (lid % (2 * width) == 0 && lid + width < n)
      scratch[lid] = op(scratch[lid], scratch[lid + width]);
  }
  sycl::group_barrier(item.get_group());
  T r = scratch[0];
  sycl::group_barrier(item.get_group());
  return r;
}

// inclusive `op`-scan of a whole work-group through `scratch` (Hillis–Steele)
template <class T, class Op> T tree_inclusive_scan(const sycl::nd_item<3> &item, T *scratch, T v, Op op) {
  const std::size_t lid = item.get_local_linear_id();
  const std::size_t n = item.get_local_range().size();
  sycl::group_barrier(item.get_group());
  scratch[lid] = v;
  for (std::size_t off = 1; off < n; off *= 2) {
    sycl::group_barrier(item.get_group());
    T t = lid >= off ? op(scratch[lid - off], scratch[lid]) : scratch[lid];
    sycl::group_barrier(item.get_group());
    scratch[lid] = t;
  }
  sycl::group_barrier(item.get_group());
  return scratch[lid];
}

// the value of the work-item before this one in `scratch` after a tree scan
template <class T> T previous(const sycl::nd_item<3> &item, T *scratch, const T &first) {
  const std::size_t lid = item.get_local_linear_id();
  T r = lid == 0 ? first : scratch[lid - 1];
  return r;
}

template <class T> T last_of(const sycl::nd_item<3> &item, T *scratch) {
  T r = scratch[item.get_local_range().size() - 1];
  sycl::group_barrier(item.get_group());
  return r;
}

template <class T, int N, class Op> T thread_reduce(const T (&v)[N], Op op) {
  T r = v[0];
  for (int i = 1; i < N; ++i)
    r = op(r, v[i]);
  return r;
}

} // namespace detail

// Traits<T>: the unsigned integer of T's size and the order-preserving
// bijection to it that radix sorts use (TwiddleIn/TwiddleOut: floats with the
// sign bit flipped, or all bits for negative values; signed integers with
// the sign bit flipped; unsigned integers as they are)
template <std::size_t N> struct unsigned_of;
template <> struct unsigned_of<1> { using type = std::uint8_t; };
template <> struct unsigned_of<2> { using type = std::uint16_t; };
template <> struct unsigned_of<4> { using type = std::uint32_t; };
template <> struct unsigned_of<8> { using type = std::uint64_t; };

template <class T> struct Traits {
  using UnsignedBits = typename unsigned_of<sizeof(T)>::type;
  static constexpr UnsignedBits HIGH_BIT = UnsignedBits(UnsignedBits(1) << (sizeof(T) * 8 - 1));
  static constexpr bool FLOATING = std::is_floating_point_v<T> || std::is_same_v<T, sycl::half>;
  static constexpr bool SIGNED = FLOATING || std::is_signed_v<T>;
  static UnsignedBits TwiddleIn(UnsignedBits key) {
    if constexpr (FLOATING)
      return UnsignedBits(key ^ ((key & HIGH_BIT) ? UnsignedBits(~UnsignedBits(0)) : HIGH_BIT));
    else if constexpr (SIGNED)
      return UnsignedBits(key ^ HIGH_BIT);
    else
      return key;
  }
  static UnsignedBits TwiddleOut(UnsignedBits key) {
    if constexpr (FLOATING)
      return UnsignedBits(key ^ ((key & HIGH_BIT) ? HIGH_BIT : UnsignedBits(~UnsignedBits(0))));
    else if constexpr (SIGNED)
      return UnsignedBits(key ^ HIGH_BIT);
    else
      return key;
  }
  static T Max() { return std::numeric_limits<T>::max(); }
  static T Lowest() { return std::numeric_limits<T>::lowest(); }
};

// ---------------------------------------------------------------------------
// 2. BlockReduce
// ---------------------------------------------------------------------------

template <class T, int BLOCK_DIM_X, BlockReduceAlgorithm ALGORITHM = BLOCK_REDUCE_WARP_REDUCTIONS, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockReduce {
public:
  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  // one T per work-item: the tree that operators other than Sum/Max/Min need
  struct TempStorage {
    T slot[BLOCK_THREADS];
  };

  BlockReduce(TempStorage &temp, const sycl::nd_item<3> &item) : temp_(temp), item_(item) {}

  T Sum(T v) { return Reduce(v, cub::Sum()); }
  T Sum(T v, int num_valid) { return Reduce(v, cub::Sum(), num_valid); }
  template <int N> T Sum(const T (&v)[N]) { return Reduce(v, cub::Sum()); }

  template <class Op> T Reduce(T v, Op op) {
    if constexpr (detail::is_native<Op, T>)
      return sycl::reduce_over_group(item_.get_group(), v, detail::native_op_t<Op, T>());
    else
      return detail::tree_reduce(item_, temp_.slot, v, op, item_.get_local_range().size());
  }
  template <class Op> T Reduce(T v, Op op, int num_valid) {
    if constexpr (detail::is_native<Op, T>) {
      using S = detail::native_op_t<Op, T>;
      const bool in = item_.get_local_linear_id() < static_cast<std::size_t>(num_valid);
      return sycl::reduce_over_group(item_.get_group(), in ? v : sycl::known_identity_v<S, T>, S());
    } else {
      return detail::tree_reduce(item_, temp_.slot, v, op, static_cast<std::size_t>(num_valid));
    }
  }
  template <int N, class Op> T Reduce(const T (&v)[N], Op op) { return Reduce(detail::thread_reduce(v, op), op); }

private:
  TempStorage &temp_;
  const sycl::nd_item<3> &item_;
};

// ---------------------------------------------------------------------------
// 3. BlockScan
// ---------------------------------------------------------------------------

template <class T, int BLOCK_DIM_X, BlockScanAlgorithm ALGORITHM = BLOCK_SCAN_RAKING, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockScan {
public:
  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  struct TempStorage {
    T slot[BLOCK_THREADS];
  };

  BlockScan(TempStorage &temp, const sycl::nd_item<3> &item) : temp_(temp), item_(item) {}

  // one item per work-item
  void ExclusiveSum(T in, T &out) { ExclusiveScan(in, out, T(0), cub::Sum()); }
  void ExclusiveSum(T in, T &out, T &block_aggregate) { ExclusiveScan(in, out, T(0), cub::Sum(), block_aggregate); }
  void InclusiveSum(T in, T &out) { InclusiveScan(in, out, cub::Sum()); }
  void InclusiveSum(T in, T &out, T &block_aggregate) { InclusiveScan(in, out, cub::Sum(), block_aggregate); }

  template <class Op> void ExclusiveScan(T in, T &out, T initial, Op op) {
    T aggregate;
    ExclusiveScan(in, out, initial, op, aggregate);
  }
  // CUB: the block aggregate does not include the initial value
  template <class Op> void ExclusiveScan(T in, T &out, T initial, Op op, T &block_aggregate) {
    if constexpr (detail::is_native<Op, T>) {
      using S = detail::native_op_t<Op, T>;
      out = sycl::exclusive_scan_over_group(item_.get_group(), in, initial, S());
      block_aggregate = sycl::reduce_over_group(item_.get_group(), in, S());
    } else {
      detail::tree_inclusive_scan(item_, temp_.slot, in, op);
      T prev = detail::previous(item_, temp_.slot, initial);
      out = item_.get_local_linear_id() == 0 ? initial : op(initial, prev);
      block_aggregate = detail::last_of(item_, temp_.slot);
    }
  }
  template <class Op> void InclusiveScan(T in, T &out, Op op) {
    T aggregate;
    InclusiveScan(in, out, op, aggregate);
  }
  template <class Op> void InclusiveScan(T in, T &out, Op op, T &block_aggregate) {
    if constexpr (detail::is_native<Op, T>) {
      using S = detail::native_op_t<Op, T>;
      out = sycl::inclusive_scan_over_group(item_.get_group(), in, S());
      block_aggregate = sycl::reduce_over_group(item_.get_group(), in, S());
    } else {
      out = detail::tree_inclusive_scan(item_, temp_.slot, in, op);
      block_aggregate = detail::last_of(item_, temp_.slot);
    }
  }

  // several items per work-item (blocked arrangement: work-item i holds
  // items i*N .. i*N+N-1)
  template <int N> void ExclusiveSum(const T (&in)[N], T (&out)[N]) { ExclusiveScan(in, out, T(0), cub::Sum()); }
  template <int N> void ExclusiveSum(const T (&in)[N], T (&out)[N], T &block_aggregate) {
    ExclusiveScan(in, out, T(0), cub::Sum(), block_aggregate);
  }
  template <int N> void InclusiveSum(const T (&in)[N], T (&out)[N]) { InclusiveScan(in, out, cub::Sum()); }
  template <int N> void InclusiveSum(const T (&in)[N], T (&out)[N], T &block_aggregate) {
    InclusiveScan(in, out, cub::Sum(), block_aggregate);
  }
  template <int N, class Op> void ExclusiveScan(const T (&in)[N], T (&out)[N], T initial, Op op) {
    T aggregate;
    ExclusiveScan(in, out, initial, op, aggregate);
  }
  template <int N, class Op> void ExclusiveScan(const T (&in)[N], T (&out)[N], T initial, Op op, T &block_aggregate) {
    T prefix;
    ExclusiveScan(detail::thread_reduce(in, op), prefix, initial, op, block_aggregate);
    T running = prefix;
    for (int i = 0; i < N; ++i) {
      T x = in[i];
      out[i] = running;
      running = op(running, x);
    }
  }
  template <int N, class Op> void InclusiveScan(const T (&in)[N], T (&out)[N], Op op) {
    T aggregate;
    InclusiveScan(in, out, op, aggregate);
  }
  template <int N, class Op> void InclusiveScan(const T (&in)[N], T (&out)[N], Op op, T &block_aggregate) {
    // the items of the work-items before this one, then this one's own in order
    const T own = detail::thread_reduce(in, op);
    const bool first = item_.get_local_linear_id() == 0;
    T prefix;
    if constexpr (detail::is_native<Op, T>) {
      using S = detail::native_op_t<Op, T>;
      prefix = sycl::exclusive_scan_over_group(item_.get_group(), own, S());
      block_aggregate = sycl::reduce_over_group(item_.get_group(), own, S());
    } else {
      detail::tree_inclusive_scan(item_, temp_.slot, own, op);
      prefix = detail::previous(item_, temp_.slot, own);
      block_aggregate = detail::last_of(item_, temp_.slot);
    }
    T running = first ? in[0] : op(prefix, in[0]);
    out[0] = running;
    for (int i = 1; i < N; ++i)
      out[i] = running = op(running, in[i]);
  }

  // with a block prefix callback (`prefix_op(block_aggregate)` returns the
  // prefix of this block's items, e.g. a running total over loop iterations).
  // CUB calls it in the first warp only and broadcasts lane 0's value; here
  // every work-item calls its own copy with the same aggregate, so each
  // copy's state stays the same as the first warp's.
  template <class Op, class Prefix, class = std::enable_if_t<!std::is_same_v<Prefix, T>>>
  void InclusiveScan(T in, T &out, Op op, Prefix &prefix_op) {
    T aggregate;
    InclusiveScan(in, out, op, aggregate);
    out = op(prefix_op(aggregate), out);
  }
  template <class Op, class Prefix, class = std::enable_if_t<!std::is_same_v<Prefix, T>>>
  void ExclusiveScan(T in, T &out, Op op, Prefix &prefix_op) {
    T aggregate, inclusive;
    InclusiveScan(in, inclusive, op, aggregate);
    const T prefix = prefix_op(aggregate);
    // the item before this one: this work-item's inclusive value without its own
    T before = exclusive_from_inclusive(in, inclusive, op);
    out = item_.get_local_linear_id() == 0 ? prefix : op(prefix, before);
  }
  template <class Prefix, class = std::enable_if_t<!std::is_same_v<Prefix, T>>> void InclusiveSum(T in, T &out, Prefix &prefix_op) {
    InclusiveScan(in, out, cub::Sum(), prefix_op);
  }
  template <class Prefix, class = std::enable_if_t<!std::is_same_v<Prefix, T>>> void ExclusiveSum(T in, T &out, Prefix &prefix_op) {
    ExclusiveScan(in, out, cub::Sum(), prefix_op);
  }
  template <int N, class Op, class Prefix, class = std::enable_if_t<!std::is_same_v<Prefix, T>>>
  void InclusiveScan(const T (&in)[N], T (&out)[N], Op op, Prefix &prefix_op) {
    T aggregate;
    InclusiveScan(in, out, op, aggregate);
    const T prefix = prefix_op(aggregate);
    for (int i = 0; i < N; ++i)
      out[i] = op(prefix, out[i]);
  }
  template <int N, class Op, class Prefix, class = std::enable_if_t<!std::is_same_v<Prefix, T>>>
  void ExclusiveScan(const T (&in)[N], T (&out)[N], Op op, Prefix &prefix_op) {
    T own = detail::thread_reduce(in, op), inclusive, aggregate;
    InclusiveScan(own, inclusive, op, aggregate);
    const T prefix = prefix_op(aggregate);
    T before = exclusive_from_inclusive(own, inclusive, op);
    T running = item_.get_local_linear_id() == 0 ? prefix : op(prefix, before);
    for (int i = 0; i < N; ++i) {
      T x = in[i];
      out[i] = running;
      running = op(running, x);
    }
  }
  template <int N, class Prefix, class = std::enable_if_t<!std::is_same_v<Prefix, T>>>
  void InclusiveSum(const T (&in)[N], T (&out)[N], Prefix &prefix_op) {
    InclusiveScan(in, out, cub::Sum(), prefix_op);
  }
  template <int N, class Prefix, class = std::enable_if_t<!std::is_same_v<Prefix, T>>>
  void ExclusiveSum(const T (&in)[N], T (&out)[N], Prefix &prefix_op) {
    ExclusiveScan(in, out, cub::Sum(), prefix_op);
  }

private:
  // the previous work-item's inclusive value (unspecified in work-item 0),
  // given this one's own value and inclusive value
  template <class Op> T exclusive_from_inclusive(const T &own, const T &inclusive, Op) {
    if constexpr (detail::is_native<Op, T>) {
      return sycl::exclusive_scan_over_group(item_.get_group(), own, detail::native_op_t<Op, T>());
    } else {
      sycl::group_barrier(item_.get_group());
      temp_.slot[item_.get_local_linear_id()] = inclusive;
      sycl::group_barrier(item_.get_group());
      T r = detail::previous(item_, temp_.slot, inclusive);
      sycl::group_barrier(item_.get_group());
      return r;
    }
  }

  TempStorage &temp_;
  const sycl::nd_item<3> &item_;
};

// ---------------------------------------------------------------------------
// 4. WarpReduce — logical warps of LOGICAL_WARP_THREADS lanes of the sub-group
// ---------------------------------------------------------------------------

template <class T, int LOGICAL_WARP_THREADS = 32, int LEGACY_PTX_ARCH = 0> class WarpReduce {
  static_assert(LOGICAL_WARP_THREADS >= 1 && LOGICAL_WARP_THREADS <= 32, "a logical warp has 1 to 32 lanes");

public:
  struct TempStorage {};

  WarpReduce(TempStorage &, const sycl::nd_item<3> &item) : item_(item) {}

  T Sum(T v) { return Reduce(v, cub::Sum()); }
  T Sum(T v, int valid_items) { return Reduce(v, cub::Sum(), valid_items); }
  template <class Op> T Reduce(T v, Op op) {
    if constexpr (LOGICAL_WARP_THREADS == 32 && detail::is_native<Op, T>) {
      if (item_.get_sub_group().get_local_linear_range() == 32)
        return sycl::reduce_over_group(item_.get_sub_group(), v, detail::native_op_t<Op, T>());
    }
    return Reduce(v, op, LOGICAL_WARP_THREADS);
  }
  // lanes at and above valid_items of each logical warp do not contribute
  template <class Op> T Reduce(T v, Op op, int valid_items) {
    auto sg = item_.get_sub_group();
    const unsigned lane = static_cast<unsigned>(sg.get_local_linear_id());
    const unsigned in_warp = lane % LOGICAL_WARP_THREADS;
    const unsigned first = lane - in_warp;
    for (unsigned off = 1; off < LOGICAL_WARP_THREADS; off *= 2) {
      T other = sycl::shift_group_left(sg, v, off);
      if (in_warp % (2 * off) == 0 && in_warp + off < static_cast<unsigned>(valid_items))
        v = op(v, other);
    }
    // the logical warp's first lane holds the result (CUB's contract): give it to every lane
    return sycl::select_from_group(sg, v, first);
  }

private:
  const sycl::nd_item<3> &item_;
};

// ---------------------------------------------------------------------------
// 5. WarpScan
// ---------------------------------------------------------------------------

template <class T, int LOGICAL_WARP_THREADS = 32, int LEGACY_PTX_ARCH = 0> class WarpScan {
  static_assert(LOGICAL_WARP_THREADS >= 1 && LOGICAL_WARP_THREADS <= 32, "a logical warp has 1 to 32 lanes");

public:
  struct TempStorage {};

  WarpScan(TempStorage &, const sycl::nd_item<3> &item) : item_(item) {}

  void InclusiveSum(T in, T &out) { InclusiveScan(in, out, cub::Sum()); }
  void InclusiveSum(T in, T &out, T &warp_aggregate) { InclusiveScan(in, out, cub::Sum(), warp_aggregate); }
  void ExclusiveSum(T in, T &out) { ExclusiveScan(in, out, T(0), cub::Sum()); }
  void ExclusiveSum(T in, T &out, T &warp_aggregate) { ExclusiveScan(in, out, T(0), cub::Sum(), warp_aggregate); }

  template <class Op> void InclusiveScan(T in, T &out, Op op) { out = inclusive(in, op); }
  template <class Op> void InclusiveScan(T in, T &out, Op op, T &warp_aggregate) {
    out = inclusive(in, op);
    warp_aggregate = last(out);
  }
  template <class Op> void ExclusiveScan(T in, T &out, T initial, Op op) {
    T aggregate;
    ExclusiveScan(in, out, initial, op, aggregate);
  }
  template <class Op> void ExclusiveScan(T in, T &out, T initial, Op op, T &warp_aggregate) {
    auto sg = item_.get_sub_group();
    T incl = inclusive(in, op);
    T prev = sycl::shift_group_right(sg, incl, 1);
    out = lane_in_warp() == 0 ? initial : op(initial, prev);
    warp_aggregate = last(incl);
  }

private:
  unsigned lane_in_warp() const {
    return static_cast<unsigned>(item_.get_sub_group().get_local_linear_id()) % LOGICAL_WARP_THREADS;
  }
  template <class Op> T inclusive(T v, Op op) const {
    auto sg = item_.get_sub_group();
    const unsigned in_warp = lane_in_warp();
    for (unsigned off = 1; off < LOGICAL_WARP_THREADS; off *= 2) {
      T other = sycl::shift_group_right(sg, v, off);
      if (in_warp >= off)
        v = op(other, v);
    }
    return v;
  }
  T last(const T &incl) const {
    auto sg = item_.get_sub_group();
    const unsigned lane = static_cast<unsigned>(sg.get_local_linear_id());
    return sycl::select_from_group(sg, incl, lane - lane_in_warp() + (LOGICAL_WARP_THREADS - 1));
  }
  const sycl::nd_item<3> &item_;
};

// ---------------------------------------------------------------------------
// 5b. BlockAdjacentDifference: each item against its neighbour in the tile
// (the block's items in order: work-item by work-item, N items each).
// Output may be the input array, as in CUB.
// ---------------------------------------------------------------------------

template <class T, int BLOCK_DIM_X, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1> class BlockAdjacentDifference {
public:
  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  struct TempStorage {
    T first[BLOCK_THREADS];
    T last[BLOCK_THREADS];
  };

  BlockAdjacentDifference(TempStorage &temp, const sycl::nd_item<3> &item) : temp_(temp), item_(item) {}

  // output[i] = op(input[i], the item before it); the tile's first item is copied
  template <int N, class Out, class Op> void SubtractLeft(T (&input)[N], Out (&output)[N], Op op) { left(input, output, op, nullptr, -1); }
  // ... with tile_predecessor_item before the tile's first item
  template <int N, class Out, class Op> void SubtractLeft(T (&input)[N], Out (&output)[N], Op op, T tile_predecessor_item) {
    left(input, output, op, &tile_predecessor_item, -1);
  }
  // only the first valid_items items of the tile are differenced; the rest are copied
  template <int N, class Out, class Op> void SubtractLeftPartialTile(T (&input)[N], Out (&output)[N], Op op, int valid_items) {
    left(input, output, op, nullptr, valid_items);
  }
  // output[i] = op(input[i], the item after it); the tile's last item is copied
  template <int N, class Out, class Op> void SubtractRight(T (&input)[N], Out (&output)[N], Op op) { right(input, output, op, nullptr, -1); }
  // ... with tile_successor_item after the tile's last item
  template <int N, class Out, class Op> void SubtractRight(T (&input)[N], Out (&output)[N], Op op, T tile_successor_item) {
    right(input, output, op, &tile_successor_item, -1);
  }
  // the tile ends after valid_items items: the last valid one and the rest are copied
  template <int N, class Out, class Op> void SubtractRightPartialTile(T (&input)[N], Out (&output)[N], Op op, int valid_items) {
    right(input, output, op, nullptr, valid_items);
  }

private:
  template <int N, class Out, class Op> void left(T (&input)[N], Out (&output)[N], Op op, const T *predecessor, int valid) {
    const std::size_t lid = item_.get_local_linear_id();
    temp_.last[lid] = input[N - 1];
    sycl::group_barrier(item_.get_group());
    const long long base = static_cast<long long>(lid) * N;
    const auto counted = [&](int i) { return valid < 0 || base + i < valid; };
    // from the last item down: output may alias input
    for (int i = N - 1; i > 0; --i)
      output[i] = counted(i) ? static_cast<Out>(op(input[i], input[i - 1])) : static_cast<Out>(input[i]);
    // the neighbours as lvalues: CUB's operators may take non-const references
    T before = lid > 0 ? temp_.last[lid - 1] : (predecessor ? *predecessor : input[0]);
    if ((lid > 0 && counted(0)) || (lid == 0 && predecessor))
      output[0] = static_cast<Out>(op(input[0], before));
    else
      output[0] = static_cast<Out>(input[0]);
  }
  template <int N, class Out, class Op> void right(T (&input)[N], Out (&output)[N], Op op, const T *successor, int valid) {
    const std::size_t lid = item_.get_local_linear_id(), threads = item_.get_local_range().size();
    temp_.first[lid] = input[0];
    sycl::group_barrier(item_.get_group());
    const long long base = static_cast<long long>(lid) * N;
    const auto has_next = [&](int i) { return valid < 0 || base + i + 1 < valid; };
    // from the first item up: output may alias input
    for (int i = 0; i < N - 1; ++i)
      output[i] = has_next(i) ? static_cast<Out>(op(input[i], input[i + 1])) : static_cast<Out>(input[i]);
    T after = lid + 1 < threads ? temp_.first[lid + 1] : (successor ? *successor : input[N - 1]);
    if ((lid + 1 < threads && has_next(N - 1)) || (lid + 1 == threads && successor && valid < 0))
      output[N - 1] = static_cast<Out>(op(input[N - 1], after));
    else
      output[N - 1] = static_cast<Out>(input[N - 1]);
  }

  TempStorage &temp_;
  const sycl::nd_item<3> &item_;
};

// ---------------------------------------------------------------------------
// 5c. BlockLoad, BlockStore, BlockExchange: a tile of BLOCK_THREADS * N items
// between memory and the work-items' arrays, in the blocked arrangement
// (work-item t holds items t*N .. t*N+N-1) or the striped one (t, t+T, ...).
// The TRANSPOSE algorithms read and write memory striped (coalesced) and
// exchange through the TempStorage, as CUB's do; DIRECT and VECTORIZE
// access memory blocked.
// ---------------------------------------------------------------------------

enum BlockLoadAlgorithm {
  BLOCK_LOAD_DIRECT,
  BLOCK_LOAD_STRIPED,
  BLOCK_LOAD_VECTORIZE,
  BLOCK_LOAD_TRANSPOSE,
  BLOCK_LOAD_WARP_TRANSPOSE,
  BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED
};
enum BlockStoreAlgorithm {
  BLOCK_STORE_DIRECT,
  BLOCK_STORE_STRIPED,
  BLOCK_STORE_VECTORIZE,
  BLOCK_STORE_TRANSPOSE,
  BLOCK_STORE_WARP_TRANSPOSE,
  BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED
};

template <class T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1> class BlockExchange {
public:
  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static constexpr int TILE_ITEMS = BLOCK_THREADS * ITEMS_PER_THREAD;
  struct TempStorage {
    T items[TILE_ITEMS];
  };
  BlockExchange(TempStorage &temp, const sycl::nd_item<3> &item) : temp_(temp), item_(item) {}

  template <class Out> void StripedToBlocked(const T (&in)[ITEMS_PER_THREAD], Out (&out)[ITEMS_PER_THREAD]) {
    const int t = tid();
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      temp_.items[i * BLOCK_THREADS + t] = in[i];
    sycl::group_barrier(item_.get_group());
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      out[i] = temp_.items[t * ITEMS_PER_THREAD + i];
  }
  template <class Out> void BlockedToStriped(const T (&in)[ITEMS_PER_THREAD], Out (&out)[ITEMS_PER_THREAD]) {
    const int t = tid();
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      temp_.items[t * ITEMS_PER_THREAD + i] = in[i];
    sycl::group_barrier(item_.get_group());
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      out[i] = temp_.items[i * BLOCK_THREADS + t];
  }
  void StripedToBlocked(T (&items)[ITEMS_PER_THREAD]) { StripedToBlocked(items, items); }
  void BlockedToStriped(T (&items)[ITEMS_PER_THREAD]) { BlockedToStriped(items, items); }
  // items go to the tile positions `ranks` gives, then are read blocked / striped
  template <class Rank> void ScatterToBlocked(T (&items)[ITEMS_PER_THREAD], Rank (&ranks)[ITEMS_PER_THREAD]) {
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      temp_.items[ranks[i]] = items[i];
    sycl::group_barrier(item_.get_group());
    const int t = tid();
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      items[i] = temp_.items[t * ITEMS_PER_THREAD + i];
  }
  template <class Rank> void ScatterToStriped(T (&items)[ITEMS_PER_THREAD], Rank (&ranks)[ITEMS_PER_THREAD]) {
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      temp_.items[ranks[i]] = items[i];
    sycl::group_barrier(item_.get_group());
    const int t = tid();
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      items[i] = temp_.items[i * BLOCK_THREADS + t];
  }

private:
  int tid() const { return static_cast<int>(item_.get_local_linear_id()); }
  TempStorage &temp_;
  const sycl::nd_item<3> &item_;
};

template <class T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, BlockLoadAlgorithm ALGORITHM = BLOCK_LOAD_DIRECT, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockLoad {
  using Exchange = BlockExchange<T, BLOCK_DIM_X, ITEMS_PER_THREAD, BLOCK_DIM_Y, BLOCK_DIM_Z>;
  static constexpr bool transposing =
      ALGORITHM == BLOCK_LOAD_TRANSPOSE || ALGORITHM == BLOCK_LOAD_WARP_TRANSPOSE || ALGORITHM == BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED;

public:
  static constexpr int BLOCK_THREADS = Exchange::BLOCK_THREADS;
  using TempStorage = typename Exchange::TempStorage;
  BlockLoad(TempStorage &temp, const sycl::nd_item<3> &item) : temp_(temp), item_(item) {}

  template <class In> void Load(In block_itr, T (&items)[ITEMS_PER_THREAD]) { load(block_itr, items, TILE, nullptr); }
  template <class In> void Load(In block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items) { load(block_itr, items, valid_items, nullptr); }
  // items past valid_items are oob_default
  template <class In, class D> void Load(In block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items, D oob_default) {
    const T fill = static_cast<T>(oob_default);
    load(block_itr, items, valid_items, &fill);
  }

private:
  static constexpr int TILE = Exchange::TILE_ITEMS;
  template <class In> void load(In it, T (&items)[ITEMS_PER_THREAD], int valid, const T *fill) {
    const int t = static_cast<int>(item_.get_local_linear_id());
    const bool striped = ALGORITHM == BLOCK_LOAD_STRIPED || transposing;
    for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
      const int at = striped ? i * BLOCK_THREADS + t : t * ITEMS_PER_THREAD + i;
      if (at < valid)
        items[i] = it[at];
      else if (fill)
        items[i] = *fill;
    }
    if constexpr (transposing)
      Exchange(temp_, item_).StripedToBlocked(items, items);
  }
  TempStorage &temp_;
  const sycl::nd_item<3> &item_;
};

template <class T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, BlockStoreAlgorithm ALGORITHM = BLOCK_STORE_DIRECT, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockStore {
  using Exchange = BlockExchange<T, BLOCK_DIM_X, ITEMS_PER_THREAD, BLOCK_DIM_Y, BLOCK_DIM_Z>;
  static constexpr bool transposing =
      ALGORITHM == BLOCK_STORE_TRANSPOSE || ALGORITHM == BLOCK_STORE_WARP_TRANSPOSE || ALGORITHM == BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED;

public:
  static constexpr int BLOCK_THREADS = Exchange::BLOCK_THREADS;
  using TempStorage = typename Exchange::TempStorage;
  BlockStore(TempStorage &temp, const sycl::nd_item<3> &item) : temp_(temp), item_(item) {}

  template <class Out> void Store(Out block_itr, T (&items)[ITEMS_PER_THREAD]) { store(block_itr, items, Exchange::TILE_ITEMS); }
  template <class Out> void Store(Out block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items) { store(block_itr, items, valid_items); }

private:
  // the TRANSPOSE algorithms leave `items` striped, as CUB's (which exchange in place)
  template <class Out> void store(Out it, T (&items)[ITEMS_PER_THREAD], int valid) {
    const int t = static_cast<int>(item_.get_local_linear_id());
    if constexpr (transposing)
      Exchange(temp_, item_).BlockedToStriped(items, items);
    const bool striped = ALGORITHM == BLOCK_STORE_STRIPED || transposing;
    for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
      const int at = striped ? i * BLOCK_THREADS + t : t * ITEMS_PER_THREAD + i;
      if (at < valid)
        it[at] = items[i];
    }
  }
  TempStorage &temp_;
  const sycl::nd_item<3> &item_;
};

// ---------------------------------------------------------------------------
// 5d. BlockRadixSort: the tile's keys (and values) sorted across the block,
// one bit per pass from begin_bit to end_bit over the keys' order-preserving
// unsigned bits (Traits), each pass a stable split by a group scan; the
// result is blocked (or striped with the *BlockedToStriped forms)
// ---------------------------------------------------------------------------

struct NullType {};

template <class Key, int BLOCK_DIM_X, int ITEMS_PER_THREAD, class Value = NullType, int RADIX_BITS = 4, bool MEMOIZE_OUTER_SCAN = true,
          BlockScanAlgorithm INNER_SCAN_ALGORITHM = BLOCK_SCAN_WARP_SCANS, int SMEM_CONFIG = 0, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockRadixSort {
  static constexpr bool has_values = !std::is_same_v<Value, NullType>;
  using Bits = typename Traits<Key>::UnsignedBits;

public:
  static constexpr int BLOCK_THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static constexpr int TILE_ITEMS = BLOCK_THREADS * ITEMS_PER_THREAD;
  struct TempStorage {
    Bits keys[TILE_ITEMS];
    std::conditional_t<has_values, Value, char> values[has_values ? TILE_ITEMS : 1];
  };
  BlockRadixSort(TempStorage &temp, const sycl::nd_item<3> &item) : temp_(temp), item_(item) {}

  void Sort(Key (&keys)[ITEMS_PER_THREAD], int begin_bit = 0, int end_bit = sizeof(Key) * 8) { sort(keys, nullptr, begin_bit, end_bit, false, false); }
  void Sort(Key (&keys)[ITEMS_PER_THREAD], Value (&values)[ITEMS_PER_THREAD], int begin_bit = 0, int end_bit = sizeof(Key) * 8) {
    sort(keys, &values, begin_bit, end_bit, false, false);
  }
  void SortDescending(Key (&keys)[ITEMS_PER_THREAD], int begin_bit = 0, int end_bit = sizeof(Key) * 8) {
    sort(keys, nullptr, begin_bit, end_bit, true, false);
  }
  void SortDescending(Key (&keys)[ITEMS_PER_THREAD], Value (&values)[ITEMS_PER_THREAD], int begin_bit = 0, int end_bit = sizeof(Key) * 8) {
    sort(keys, &values, begin_bit, end_bit, true, false);
  }
  void SortBlockedToStriped(Key (&keys)[ITEMS_PER_THREAD], int begin_bit = 0, int end_bit = sizeof(Key) * 8) {
    sort(keys, nullptr, begin_bit, end_bit, false, true);
  }
  void SortBlockedToStriped(Key (&keys)[ITEMS_PER_THREAD], Value (&values)[ITEMS_PER_THREAD], int begin_bit = 0, int end_bit = sizeof(Key) * 8) {
    sort(keys, &values, begin_bit, end_bit, false, true);
  }
  void SortDescendingBlockedToStriped(Key (&keys)[ITEMS_PER_THREAD], int begin_bit = 0, int end_bit = sizeof(Key) * 8) {
    sort(keys, nullptr, begin_bit, end_bit, true, true);
  }
  void SortDescendingBlockedToStriped(Key (&keys)[ITEMS_PER_THREAD], Value (&values)[ITEMS_PER_THREAD], int begin_bit = 0,
                                      int end_bit = sizeof(Key) * 8) {
    sort(keys, &values, begin_bit, end_bit, true, true);
  }

private:
  using V = std::conditional_t<has_values, Value, char>;
  void sort(Key (&keys)[ITEMS_PER_THREAD], void *values_ptr, int begin_bit, int end_bit, bool descending, bool striped_out) {
    const int t = static_cast<int>(item_.get_local_linear_id());
    auto grp = item_.get_group();
    Bits k[ITEMS_PER_THREAD];
    V v[ITEMS_PER_THREAD];
    for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
      k[i] = Traits<Key>::TwiddleIn(bit_cast_key(keys[i]));
      if constexpr (has_values)
        v[i] = (*static_cast<Value(*)[ITEMS_PER_THREAD]>(values_ptr))[i];
    }
    for (int bit = begin_bit; bit < end_bit; ++bit) {
      // items whose bit sorts first (0 ascending, 1 descending) go first, in order
      int firsts = 0;
      bool first[ITEMS_PER_THREAD];
      for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
        const bool b = (k[i] >> bit) & Bits(1);
        first[i] = descending ? b : !b;
        firsts += first[i];
      }
      const int before = sycl::exclusive_scan_over_group(grp, firsts, sycl::plus<int>());
      const int total = sycl::reduce_over_group(grp, firsts, sycl::plus<int>());
      int f = before, s = 0;
      // the seconds before this work-item's: its blocked position minus the firsts before it
      const int seconds_before = t * ITEMS_PER_THREAD - before;
      for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
        const int to = first[i] ? f++ : total + seconds_before + s++;
        temp_.keys[to] = k[i];
        if constexpr (has_values)
          temp_.values[to] = v[i];
      }
      sycl::group_barrier(grp);
      for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
        k[i] = temp_.keys[t * ITEMS_PER_THREAD + i];
        if constexpr (has_values)
          v[i] = temp_.values[t * ITEMS_PER_THREAD + i];
      }
      sycl::group_barrier(grp);
    }
    if (striped_out) {
      for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
        temp_.keys[t * ITEMS_PER_THREAD + i] = k[i];
        if constexpr (has_values)
          temp_.values[t * ITEMS_PER_THREAD + i] = v[i];
      }
      sycl::group_barrier(grp);
      for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
        k[i] = temp_.keys[i * BLOCK_THREADS + t];
        if constexpr (has_values)
          v[i] = temp_.values[i * BLOCK_THREADS + t];
      }
      sycl::group_barrier(grp);
    }
    for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
      keys[i] = key_of(Traits<Key>::TwiddleOut(k[i]));
      if constexpr (has_values)
        (*static_cast<Value(*)[ITEMS_PER_THREAD]>(values_ptr))[i] = v[i];
    }
  }
  static Bits bit_cast_key(Key key) {
    Bits b;
    std::memcpy(&b, &key, sizeof(Bits));
    return b;
  }
  static Key key_of(Bits b) {
    Key key;
    std::memcpy(&key, &b, sizeof(Bits));
    return key;
  }
  TempStorage &temp_;
  const sycl::nd_item<3> &item_;
};

// ---------------------------------------------------------------------------
// 6. Iterators (device-copyable, random access through operator[])
// ---------------------------------------------------------------------------

template <class T, class Offset = std::ptrdiff_t> struct CountingInputIterator {
  using value_type = T;
  using difference_type = Offset;
  T base;
  explicit CountingInputIterator(T b) : base(b) {}
  T operator[](Offset i) const { return base + static_cast<T>(i); }
  T operator*() const { return base; }
  CountingInputIterator operator+(Offset n) const { return CountingInputIterator(base + static_cast<T>(n)); }
};

// every element is the same value
template <class T, class Offset = std::ptrdiff_t> struct ConstantInputIterator {
  using value_type = T;
  using difference_type = Offset;
  T value;
  explicit ConstantInputIterator(T v) : value(v) {}
  T operator[](Offset) const { return value; }
  T operator*() const { return value; }
  ConstantInputIterator operator+(Offset) const { return *this; }
};

template <class Value, class Op, class It, class Offset = std::ptrdiff_t> struct TransformInputIterator {
  using value_type = Value;
  using difference_type = Offset;
  It it;
  Op op;
  TransformInputIterator(It i, Op o) : it(i), op(o) {}
  Value operator[](Offset i) const { return op(it[i]); }
  Value operator*() const { return op(it[0]); }
  TransformInputIterator operator+(Offset n) const { return TransformInputIterator(it + n, op); }
};

// ---------------------------------------------------------------------------
// 7. Device-wide algorithms. CUB's protocol: a first call with a null
// d_temp_storage only sets temp_storage_bytes; the caller allocates that
// many bytes and calls again to run. Here the temporary storage holds one
// partial per work-group. Calls are asynchronous on the stream's queue, as
// CUB's are on the stream; they return syclify::success or the error of a
// failed submission.
// ---------------------------------------------------------------------------

namespace detail {

inline constexpr std::size_t device_wg = 256;

inline std::size_t groups_for(std::size_t n) {
  std::size_t g = (n + device_wg - 1) / device_wg;
  return std::max<std::size_t>(1, std::min<std::size_t>(g, 1024));
}

template <class A> std::size_t partial_bytes(std::size_t n) { return groups_for(n) * sizeof(A) + alignof(std::max_align_t); }

template <class A> A *partials(void *temp) {
  std::size_t space = sizeof(A) * 1024 + alignof(std::max_align_t);
  void *p = temp;
  return static_cast<A *>(std::align(alignof(A), sizeof(A), p, space));
}

// `op` over in[0, n) into *out, starting from init: each work-group reduces
// a strided share into one partial, then one work-group reduces the partials
template <class A, class In, class Out, class Op>
void device_reduce(sycl::queue &q, A *part, In in, Out out, std::size_t n, Op op, A init) {
  const std::size_t groups = groups_for(n);
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<A, 1> scratch(sycl::range<1>(device_wg), h);
    h.parallel_for(sycl::nd_range<3>({1, 1, groups * device_wg}, {1, 1, device_wg}), [=](sycl::nd_item<3> it) {
      const std::size_t gid = it.get_global_linear_id(), stride = it.get_global_range().size();
      A acc = init;
      bool any = false;
      for (std::size_t i = gid; i < n; i += stride) {
        acc = any ? op(acc, static_cast<A>(in[i])) : static_cast<A>(in[i]);
        any = true;
      }
      const std::size_t valid = n < stride ? (n > it.get_group_linear_id() * device_wg ? n - it.get_group_linear_id() * device_wg : 0) : device_wg;
      A r = tree_reduce(it, &scratch[0], acc, op, valid < device_wg ? valid : device_wg);
      if (it.get_local_linear_id() == 0)
        part[it.get_group_linear_id()] = r;
    });
  });
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<A, 1> scratch(sycl::range<1>(device_wg), h);
    const std::size_t valid_groups = n == 0 ? 0 : std::min(groups, (n + device_wg - 1) / device_wg);
    h.parallel_for(sycl::nd_range<3>({1, 1, device_wg}, {1, 1, device_wg}), [=](sycl::nd_item<3> it) {
      const std::size_t lid = it.get_local_linear_id();
      A acc = init;
      bool any = false;
      for (std::size_t i = lid; i < valid_groups; i += device_wg) {
        acc = any ? op(acc, part[i]) : part[i];
        any = true;
      }
      A r = tree_reduce(it, &scratch[0], acc, op, valid_groups < device_wg ? valid_groups : device_wg);
      if (lid == 0)
        *out = valid_groups == 0 ? init : op(init, r);
    });
  });
}

// scan of in[0, n) into out: tiles of device_wg items; the tiles' totals are
// scanned by one work-group, then each tile is scanned with its prefix
template <class A, class In, class Out, class Op>
void device_scan(sycl::queue &q, A *part, In in, Out out, std::size_t n, Op op, bool exclusive, bool has_init, A init) {
  if (n == 0)
    return;
  const std::size_t tiles = (n + device_wg - 1) / device_wg;
  // more tiles than partial slots: scan in chunks of 1024 tiles, carrying the prefix
  for (std::size_t first_tile = 0; first_tile < tiles; first_tile += 1024) {
    const std::size_t count = std::min<std::size_t>(1024, tiles - first_tile);
    const std::size_t base = first_tile * device_wg;
    const bool carry = first_tile > 0;
    q.submit([&](sycl::handler &h) {
      sycl::local_accessor<A, 1> scratch(sycl::range<1>(device_wg), h);
      h.parallel_for(sycl::nd_range<3>({1, 1, count * device_wg}, {1, 1, device_wg}), [=](sycl::nd_item<3> it) {
        const std::size_t i = base + it.get_global_linear_id();
        const std::size_t tile_start = base + it.get_group_linear_id() * device_wg;
        const std::size_t valid = std::min<std::size_t>(device_wg, n - tile_start);
        A x = i < n ? static_cast<A>(in[i]) : A();
        A r = tree_reduce(it, &scratch[0], x, op, valid);
        if (it.get_local_linear_id() == 0)
          part[it.get_group_linear_id()] = r;
      });
    });
    // exclusive prefixes of the tiles (slot 1024 keeps the running carry)
    q.submit([&](sycl::handler &h) {
      h.single_task([=]() {
        A run = carry ? part[1024] : init;
        bool any = carry || has_init;
        for (std::size_t t = 0; t < count; ++t) {
          A total = part[t];
          part[t] = run;
          run = any ? op(run, total) : total;
          any = true;
        }
        part[1024] = run;
      });
    });
    q.submit([&](sycl::handler &h) {
      sycl::local_accessor<A, 1> scratch(sycl::range<1>(device_wg), h);
      h.parallel_for(sycl::nd_range<3>({1, 1, count * device_wg}, {1, 1, device_wg}), [=](sycl::nd_item<3> it) {
        const std::size_t lid = it.get_local_linear_id();
        const std::size_t i = base + it.get_global_linear_id();
        const bool has_prefix = carry || has_init || it.get_group_linear_id() > 0;
        const A prefix = part[it.get_group_linear_id()];
        A x = i < n ? static_cast<A>(in[i]) : A();
        A incl = tree_inclusive_scan(it, &scratch[0], x, op);
        A before = previous(it, &scratch[0], incl);
        sycl::group_barrier(it.get_group());
        if (i < n) {
          if (!exclusive)
            out[i] = has_prefix ? op(prefix, incl) : incl;
          else if (lid == 0)
            out[i] = has_prefix ? prefix : A();
          else
            out[i] = has_prefix ? op(prefix, before) : before;
        }
      });
    });
  }
}

template <class A> std::size_t scan_bytes() { return (1025) * sizeof(A) + alignof(std::max_align_t); }
// the scan's partials of long long, rounded up so that arrays of long long
// can follow them in the same temporary storage
inline std::size_t scan_head_bytes() { return (scan_bytes<long long>() + alignof(long long) - 1) / alignof(long long) * alignof(long long); }

template <class It> using value_of = std::remove_cv_t<std::remove_reference_t<decltype(std::declval<It>()[0])>>;

} // namespace detail

struct DeviceReduce {
  template <class In, class Out, class Op, class T>
  static error_t Reduce(void *d_temp_storage, std::size_t &temp_storage_bytes, In in, Out out, int num_items, Op op, T init,
                        stream_t stream = nullptr, bool = false) {
    using A = T;
    if (!d_temp_storage) {
      temp_storage_bytes = detail::partial_bytes<A>(static_cast<std::size_t>(num_items > 0 ? num_items : 0));
      return success;
    }
    return syclify::detail::guarded([&] {
      detail::device_reduce<A>(queue_of(stream), detail::partials<A>(d_temp_storage), in, out,
                               static_cast<std::size_t>(num_items > 0 ? num_items : 0), op, init);
    });
  }
  template <class In, class Out>
  static error_t Sum(void *d_temp_storage, std::size_t &temp_storage_bytes, In in, Out out, int num_items, stream_t stream = nullptr,
                     bool = false) {
    using A = detail::value_of<Out>;
    return Reduce(d_temp_storage, temp_storage_bytes, in, out, num_items, cub::Sum(), A(0), stream);
  }
  template <class In, class Out>
  static error_t Max(void *d_temp_storage, std::size_t &temp_storage_bytes, In in, Out out, int num_items, stream_t stream = nullptr,
                     bool = false) {
    using A = detail::value_of<In>;
    return Reduce(d_temp_storage, temp_storage_bytes, in, out, num_items, cub::Max(), std::numeric_limits<A>::lowest(), stream);
  }
  template <class In, class Out>
  static error_t Min(void *d_temp_storage, std::size_t &temp_storage_bytes, In in, Out out, int num_items, stream_t stream = nullptr,
                     bool = false) {
    using A = detail::value_of<In>;
    return Reduce(d_temp_storage, temp_storage_bytes, in, out, num_items, cub::Min(), std::numeric_limits<A>::max(), stream);
  }
};

struct DeviceScan {
  template <class In, class Out, class Op, class T>
  static error_t ExclusiveScan(void *d_temp_storage, std::size_t &temp_storage_bytes, In in, Out out, Op op, T init, int num_items,
                               stream_t stream = nullptr, bool = false) {
    return run<T>(d_temp_storage, temp_storage_bytes, in, out, op, num_items, stream, true, true, init);
  }
  template <class In, class Out, class Op>
  static error_t InclusiveScan(void *d_temp_storage, std::size_t &temp_storage_bytes, In in, Out out, Op op, int num_items,
                               stream_t stream = nullptr, bool = false) {
    using A = detail::value_of<In>;
    return run<A>(d_temp_storage, temp_storage_bytes, in, out, op, num_items, stream, false, false, A());
  }
  template <class In, class Out>
  static error_t ExclusiveSum(void *d_temp_storage, std::size_t &temp_storage_bytes, In in, Out out, int num_items,
                              stream_t stream = nullptr, bool = false) {
    using A = detail::value_of<In>;
    return run<A>(d_temp_storage, temp_storage_bytes, in, out, cub::Sum(), num_items, stream, true, true, A(0));
  }
  template <class In, class Out>
  static error_t InclusiveSum(void *d_temp_storage, std::size_t &temp_storage_bytes, In in, Out out, int num_items,
                              stream_t stream = nullptr, bool = false) {
    using A = detail::value_of<In>;
    return run<A>(d_temp_storage, temp_storage_bytes, in, out, cub::Sum(), num_items, stream, false, false, A(0));
  }

private:
  template <class A, class In, class Out, class Op>
  static error_t run(void *d_temp_storage, std::size_t &temp_storage_bytes, In in, Out out, Op op, int num_items, stream_t stream,
                     bool exclusive, bool has_init, A init) {
    if (!d_temp_storage) {
      temp_storage_bytes = detail::scan_bytes<A>();
      return success;
    }
    return syclify::detail::guarded([&] {
      detail::device_scan<A>(queue_of(stream), detail::partials<A>(d_temp_storage), in, out,
                             static_cast<std::size_t>(num_items > 0 ? num_items : 0), op, exclusive, has_init, init);
    });
  }
};

struct DeviceSelect {
  // the items whose flag is nonzero, in order, to out; their count to *num_selected
  template <class In, class Flags, class Out, class NumSelected>
  static error_t Flagged(void *d_temp_storage, std::size_t &temp_storage_bytes, In in, Flags flags, Out out, NumSelected num_selected,
                         int num_items, stream_t stream = nullptr, bool = false) {
    return select(d_temp_storage, temp_storage_bytes, in, out, num_selected, num_items, stream,
                  [flags](std::size_t i, const auto &) { return static_cast<bool>(flags[i]); });
  }
  // the items for which select_op is true
  template <class In, class Out, class NumSelected, class Pred>
  static error_t If(void *d_temp_storage, std::size_t &temp_storage_bytes, In in, Out out, NumSelected num_selected, int num_items,
                    Pred select_op, stream_t stream = nullptr, bool = false) {
    return select(d_temp_storage, temp_storage_bytes, in, out, num_selected, num_items, stream,
                  [select_op](std::size_t, const auto &v) { return static_cast<bool>(select_op(v)); });
  }

private:
  template <class In, class Out, class NumSelected, class Keep>
  static error_t select(void *d_temp_storage, std::size_t &temp_storage_bytes, In in, Out out, NumSelected num_selected, int num_items,
                        stream_t stream, Keep keep) {
    const std::size_t n = static_cast<std::size_t>(num_items > 0 ? num_items : 0);
    // the scan's partials, then one position per item
    const std::size_t head = detail::scan_head_bytes();
    if (!d_temp_storage) {
      temp_storage_bytes = head + (n + 1) * sizeof(long long);
      return success;
    }
    return syclify::detail::guarded([&] {
      sycl::queue &q = queue_of(stream);
      long long *pos = reinterpret_cast<long long *>(static_cast<char *>(d_temp_storage) + head);
      q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { pos[i] = keep(i[0], in[i[0]]) ? 1 : 0; });
      detail::device_scan<long long>(q, detail::partials<long long>(d_temp_storage), pos, pos, n, cub::Sum(), true, true, 0LL);
      q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) {
        const std::size_t k = i[0];
        if (keep(k, in[k]))
          out[pos[k]] = in[k];
        if (k == n - 1)
          *num_selected = static_cast<std::remove_reference_t<decltype(*num_selected)>>(pos[k] + (keep(k, in[k]) ? 1 : 0));
      });
      if (n == 0)
        q.single_task([=]() { *num_selected = 0; });
    });
  }
};

struct DeviceRunLengthEncode {
  // the first item of each run of equal items to unique_out, the run's
  // length to counts_out, the number of runs to *num_runs
  template <class In, class UniqueOut, class CountsOut, class NumRuns>
  static error_t Encode(void *d_temp_storage, std::size_t &temp_storage_bytes, In in, UniqueOut unique_out, CountsOut counts_out,
                        NumRuns num_runs, int num_items, stream_t stream = nullptr, bool = false) {
    return runs(d_temp_storage, temp_storage_bytes, in, num_items, stream, [=](long long r, std::size_t start, long long length, long long) {
      unique_out[r] = in[start];
      counts_out[r] = static_cast<std::remove_reference_t<decltype(counts_out[0])>>(length);
    }, false, num_runs);
  }
  // the offset and length of each run longer than one item, and their number
  template <class In, class OffsetsOut, class LengthsOut, class NumRuns>
  static error_t NonTrivialRuns(void *d_temp_storage, std::size_t &temp_storage_bytes, In in, OffsetsOut offsets_out, LengthsOut lengths_out,
                                NumRuns num_runs, int num_items, stream_t stream = nullptr, bool = false) {
    return runs(d_temp_storage, temp_storage_bytes, in, num_items, stream, [=](long long, std::size_t start, long long length, long long k) {
      offsets_out[k] = static_cast<std::remove_reference_t<decltype(offsets_out[0])>>(start);
      lengths_out[k] = static_cast<std::remove_reference_t<decltype(lengths_out[0])>>(length);
    }, true, num_runs);
  }

private:
  // run r starts at item start and has `length` items; k counts the runs kept
  // (only those longer than one item when `non_trivial`)
  template <class In, class Emit, class NumRuns>
  static error_t runs(void *d_temp_storage, std::size_t &temp_storage_bytes, In in, int num_items, stream_t stream, Emit emit, bool non_trivial,
                      NumRuns num_runs) {
    const std::size_t n = static_cast<std::size_t>(num_items > 0 ? num_items : 0);
    const std::size_t head = detail::scan_head_bytes();
    // the scan's partials; a run index per item; each run's start; a kept index per run
    if (!d_temp_storage) {
      temp_storage_bytes = head + (3 * n + 3) * sizeof(long long);
      return success;
    }
    return syclify::detail::guarded([&] {
      sycl::queue &q = queue_of(stream);
      long long *run = reinterpret_cast<long long *>(static_cast<char *>(d_temp_storage) + head);
      long long *start = run + n + 1, *kept = start + n + 1;
      long long *partials = detail::partials<long long>(d_temp_storage);
      using NR = std::remove_reference_t<decltype(*num_runs)>;
      if (n == 0) {
        q.single_task([=]() { *num_runs = NR(0); });
        return;
      }
      q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) { run[i] = (i[0] == 0 || !(in[i[0]] == in[i[0] - 1])) ? 1 : 0; });
      detail::device_scan<long long>(q, partials, run, run, n, cub::Sum(), true, true, 0LL);
      q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) {
        const std::size_t k = i[0];
        const bool head = k == 0 || !(in[k] == in[k - 1]);
        if (head)
          start[run[k]] = static_cast<long long>(k);
        if (k == n - 1)
          run[n] = run[k] + (head ? 1 : 0); // the number of runs
      });
      // a kept flag per run, scanned into positions
      q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) {
        const long long r = static_cast<long long>(i[0]), total = run[n];
        if (r < total) {
          const long long end = r + 1 < total ? start[r + 1] : static_cast<long long>(n);
          kept[r] = (!non_trivial || end - start[r] > 1) ? 1 : 0;
        } else {
          kept[r] = 0;
        }
      });
      detail::device_scan<long long>(q, partials, kept, kept, n, cub::Sum(), true, true, 0LL);
      q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) {
        const long long r = static_cast<long long>(i[0]), total = run[n];
        if (r >= total)
          return;
        const long long end = r + 1 < total ? start[r + 1] : static_cast<long long>(n), length = end - start[r];
        if (!non_trivial || length > 1)
          emit(r, static_cast<std::size_t>(start[r]), length, kept[r]);
        if (r == total - 1) {
          const long long count = non_trivial ? kept[r] + (length > 1 ? 1 : 0) : total;
          *num_runs = static_cast<NR>(count);
        }
      });
    });
  }
};

// DeviceRadixSort: keys (and values) sorted by the bits [begin_bit, end_bit)
// of their order-preserving unsigned form (Traits), one bit per pass, each
// pass a stable split through a device-wide scan; stable, as CUB's
struct DeviceRadixSort {
  template <class K>
  static error_t SortKeys(void *d_temp_storage, std::size_t &temp_storage_bytes, const K *keys_in, K *keys_out, int num_items, int begin_bit = 0,
                          int end_bit = sizeof(K) * 8, stream_t stream = nullptr, bool = false) {
    return sort<K, NullType>(d_temp_storage, temp_storage_bytes, keys_in, keys_out, nullptr, nullptr, num_items, begin_bit, end_bit, stream, false);
  }
  template <class K>
  static error_t SortKeysDescending(void *d_temp_storage, std::size_t &temp_storage_bytes, const K *keys_in, K *keys_out, int num_items,
                                    int begin_bit = 0, int end_bit = sizeof(K) * 8, stream_t stream = nullptr, bool = false) {
    return sort<K, NullType>(d_temp_storage, temp_storage_bytes, keys_in, keys_out, nullptr, nullptr, num_items, begin_bit, end_bit, stream, true);
  }
  template <class K, class V>
  static error_t SortPairs(void *d_temp_storage, std::size_t &temp_storage_bytes, const K *keys_in, K *keys_out, const V *values_in, V *values_out,
                           int num_items, int begin_bit = 0, int end_bit = sizeof(K) * 8, stream_t stream = nullptr, bool = false) {
    return sort<K, V>(d_temp_storage, temp_storage_bytes, keys_in, keys_out, values_in, values_out, num_items, begin_bit, end_bit, stream, false);
  }
  template <class K, class V>
  static error_t SortPairsDescending(void *d_temp_storage, std::size_t &temp_storage_bytes, const K *keys_in, K *keys_out, const V *values_in,
                                     V *values_out, int num_items, int begin_bit = 0, int end_bit = sizeof(K) * 8, stream_t stream = nullptr,
                                     bool = false) {
    return sort<K, V>(d_temp_storage, temp_storage_bytes, keys_in, keys_out, values_in, values_out, num_items, begin_bit, end_bit, stream, true);
  }

private:
  static std::size_t aligned(std::size_t bytes) { return (bytes + 15) / 16 * 16; }
  template <class K, class V>
  static error_t sort(void *d_temp_storage, std::size_t &temp_storage_bytes, const K *keys_in, K *keys_out, const V *values_in, V *values_out,
                      int num_items, int begin_bit, int end_bit, stream_t stream, bool descending) {
    using Bits = typename Traits<K>::UnsignedBits;
    constexpr bool has_values = !std::is_same_v<V, NullType>;
    using VS = std::conditional_t<has_values, V, char>;
    const std::size_t n = static_cast<std::size_t>(num_items > 0 ? num_items : 0);
    // the scan's partials; a position per item; two key and two value buffers
    const std::size_t head = aligned(detail::scan_bytes<long long>());
    const std::size_t pos_bytes = aligned((n + 1) * sizeof(long long)), key_bytes = aligned(n * sizeof(Bits)),
                      value_bytes = has_values ? aligned(n * sizeof(VS)) : 0;
    if (!d_temp_storage) {
      temp_storage_bytes = head + pos_bytes + 2 * key_bytes + 2 * value_bytes + 16;
      return success;
    }
    return syclify::detail::guarded([&] {
      if (n == 0)
        return;
      sycl::queue &q = queue_of(stream);
      char *base = static_cast<char *>(d_temp_storage);
      long long *pos = reinterpret_cast<long long *>(base + head);
      Bits *kb[2] = {reinterpret_cast<Bits *>(base + head + pos_bytes), reinterpret_cast<Bits *>(base + head + pos_bytes + key_bytes)};
      VS *vb[2] = {reinterpret_cast<VS *>(base + head + pos_bytes + 2 * key_bytes),
                   reinterpret_cast<VS *>(base + head + pos_bytes + 2 * key_bytes + value_bytes)};
      long long *partials = detail::partials<long long>(d_temp_storage);
      {
        Bits *k0 = kb[0];
        VS *v0 = vb[0];
        q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) {
          k0[i] = Traits<K>::TwiddleIn(sycl::bit_cast<Bits>(keys_in[i]));
          if constexpr (has_values)
            v0[i] = values_in[i];
        });
      }
      int cur = 0;
      for (int bit = begin_bit; bit < end_bit; ++bit, cur ^= 1) {
        const Bits *ks = kb[cur];
        Bits *kd = kb[cur ^ 1];
        const VS *vs = vb[cur];
        VS *vd = vb[cur ^ 1];
        // 1 for the items whose bit sorts first (0 ascending, 1 descending)
        q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) {
          const bool b = (ks[i] >> bit) & Bits(1);
          pos[i] = (descending ? b : !b) ? 1 : 0;
        });
        q.parallel_for(sycl::range<1>(1), [=](sycl::id<1>) { pos[n] = pos[n - 1]; });
        detail::device_scan<long long>(q, partials, pos, pos, n, cub::Sum(), true, true, 0LL);
        q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> id) {
          const std::size_t i = id[0];
          const long long total = pos[n - 1] + pos[n]; // the firsts: the last position plus the last flag
          const bool b = (ks[i] >> bit) & Bits(1);
          const bool first = descending ? b : !b;
          const long long to = first ? pos[i] : total + (static_cast<long long>(i) - pos[i]);
          kd[to] = ks[i];
          if constexpr (has_values)
            vd[to] = vs[i];
        });
      }
      const Bits *kf = kb[cur];
      const VS *vf = vb[cur];
      q.parallel_for(sycl::range<1>(n), [=](sycl::id<1> i) {
        keys_out[i] = sycl::bit_cast<K>(Traits<K>::TwiddleOut(kf[i]));
        if constexpr (has_values)
          values_out[i] = vf[i];
      });
    });
  }
};

// CubDebug / CubDebugExit (CUB's util_debug): an error code printed with its
// place, and passed on (or the program ended)
inline error_t Debug(error_t e, const char *file, int line) {
  if (e != success)
    std::fprintf(stderr, "%s(%d): error %d: %s\n", file, line, e, get_error_string(e));
  return e;
}

// ---------------------------------------------------------------------------
// 8. CachingDeviceAllocator: CUB's pool of device allocations. Here each
// allocation is USM device memory on the default queue's context, freed by
// DeviceFree (no caching: SYCL implementations pool allocations themselves).
// ---------------------------------------------------------------------------

struct CachingDeviceAllocator {
  static constexpr unsigned INVALID_BIN = static_cast<unsigned>(-1);
  static constexpr std::size_t INVALID_SIZE = static_cast<std::size_t>(-1);
  explicit CachingDeviceAllocator(bool = false, bool = false) {}
  CachingDeviceAllocator(unsigned, unsigned, unsigned, std::size_t = INVALID_SIZE, bool = false, bool = false) {}
  CachingDeviceAllocator(const CachingDeviceAllocator &) = delete;
  CachingDeviceAllocator &operator=(const CachingDeviceAllocator &) = delete;
  // memory still allocated is not freed here: allocators are often globals,
  // destroyed after the SYCL runtime's queues (call FreeAllCached before)
  ~CachingDeviceAllocator() = default;

  error_t DeviceAllocate(void **d_ptr, std::size_t bytes, stream_t = nullptr) {
    error_t e = syclify::malloc_device(d_ptr, bytes);
    if (e == success && *d_ptr)
      live_.push_back(*d_ptr);
    return e;
  }
  error_t DeviceAllocate(int, void **d_ptr, std::size_t bytes, stream_t stream = nullptr) { return DeviceAllocate(d_ptr, bytes, stream); }
  error_t DeviceFree(void *d_ptr) {
    for (std::size_t i = 0; i < live_.size(); ++i)
      if (live_[i] == d_ptr) {
        live_.erase(live_.begin() + static_cast<long>(i));
        break;
      }
    return syclify::usm_free(d_ptr);
  }
  error_t DeviceFree(int, void *d_ptr) { return DeviceFree(d_ptr); }
  // every allocation still live is freed (CUB frees its cached blocks)
  error_t FreeAllCached() {
    error_t e = success;
    for (void *p : live_)
      if (syclify::usm_free(p) != success)
        e = error_invalid_value;
    live_.clear();
    return e;
  }

private:
  std::vector<void *> live_;
};

} // namespace cub
} // namespace syclify

#ifndef CubDebug
#define CubDebug(e) ::syclify::cub::Debug((e), __FILE__, __LINE__)
#endif
#ifndef CubDebugExit
#define CubDebugExit(e)                                                                                                                          \
  if (::syclify::cub::Debug((e), __FILE__, __LINE__)) {                                                                                          \
    std::exit(1);                                                                                                                                \
  }
#endif
