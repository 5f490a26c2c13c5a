// syclify helper header — shipped with code migrated from CUDA by syclify.
//
// Plain SYCL 2020: it builds with Intel DPC++ and with AdaptiveCpp. Everything
// here is something the migrated code needs that SYCL 2020 does not give in
// one call; each helper says which CUDA construct it stands for and keeps
// CUDA's semantics where they differ from SYCL's.
//
// Contents
//   1. Queues and streams   default_queue, stream_t, queue_of, stream_create/...
//   2. Error codes          error_t, success, get_last_error, get_error_string
//   3. Memory               malloc_device/shared/host, free, memcpy, memset
//   4. Launch support       as_range3, local_ptr, dynamic_local_memory, local_bytes
//   5. Barriers             syncthreads_count/and/or
//   6. Function attributes  SYCLIFY_FORCEINLINE, SYCLIFY_NOINLINE, SYCLIFY_EXTERNAL
//   7. Warp primitives      shfl/shfl_up/shfl_down/shfl_xor with masks and widths,
//                           all/any/ballot, activemask, match_any/match_all, syncwarp
//   8. Atomics, fences      threadfence<scope>, atomic_add/sub/exch/min/max/inc/dec/and/or/xor/cas
//   9. Math                 sincos, saturate, popc/clz/ffs/brev, sad, byte_perm,
//                           hadd/rhadd, min/max/abs with CUDA's mixed-type rules,
//                           convert<T, rounding>, double_hi/lo
//  10. Vector types         float4, int2, uchar4, ... with CUDA's layout; make_*
//  11. Half and bfloat16    half2, bfloat16, bfloat162 and the __h* intrinsics
//  12. Cooperative groups   syclify::cg: thread_block, thread_block_tile<N>,
//                           coalesced_group, reduce, plus/less/greater
//  13. Device printf        SYCLIFY_PRINTF, SYCLIFY_ASSERT
#pragma once

#include <sycl/sycl.hpp>

#include <atomic>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <mutex>
#include <type_traits>
#include <vector>

// ---------------------------------------------------------------------------
// 6. Function attributes
// __forceinline__ -> inline plus always_inline where the compiler has it.
#if defined(__clang__) || defined(__GNUC__)
#define SYCLIFY_FORCEINLINE __attribute__((always_inline)) inline
#define SYCLIFY_NOINLINE __attribute__((noinline))
#else
#define SYCLIFY_FORCEINLINE inline
#define SYCLIFY_NOINLINE
#endif

// Device code declared in one translation unit and defined in another:
// SYCL 2020's SYCL_EXTERNAL where the implementation defines it (DPC++,
// AdaptiveCpp's generic target); empty otherwise (AdaptiveCpp's CUDA
// multipass target links such code with -fgpu-rdc instead).
#ifdef SYCL_EXTERNAL
#define SYCLIFY_EXTERNAL SYCL_EXTERNAL
#else
#define SYCLIFY_EXTERNAL
#endif

namespace syclify {

// ---------------------------------------------------------------------------
// 2. Error codes
// CUDA reports failures as return codes; SYCL throws exceptions. The helpers
// below that stand for CUDA calls whose value is used catch SYCL exceptions,
// record them as the "last error" (as CUDA does) and return a non-zero code.
using error_t = int;
constexpr error_t success = 0;
constexpr error_t error_invalid_value = 1;
constexpr error_t error_memory_allocation = 2;
constexpr error_t error_invalid_configuration = 9;
constexpr error_t error_launch_failure = 719;
constexpr error_t error_unknown = 999;

namespace detail {
inline error_t &last_error() {
  static thread_local error_t e = success;
  return e;
}
inline error_t record(error_t e) {
  if (e != success)
    last_error() = e;
  return e;
}
inline error_t from_exception(const sycl::exception &ex) {
  const std::error_code c = ex.code();
  if (c == sycl::errc::memory_allocation)
    return record(error_memory_allocation);
  if (c == sycl::errc::nd_range || c == sycl::errc::kernel_argument)
    return record(error_invalid_configuration);
  if (c == sycl::errc::invalid)
    return record(error_invalid_value);
  return record(error_unknown);
}
// Runs f, turning a SYCL exception into an error code.
template <class F> error_t guarded(F &&f) {
  try {
    f();
    return success;
  } catch (const sycl::exception &ex) {
    return from_exception(ex);
  }
}
} // namespace detail

// cudaGetLastError: returns the last error and resets it.
inline error_t get_last_error() {
  error_t e = detail::last_error();
  detail::last_error() = success;
  return e;
}
// cudaPeekAtLastError: returns the last error, keeping it.
inline error_t peek_last_error() { return detail::last_error(); }

// cudaGetErrorString
inline const char *get_error_string(error_t e) {
  switch (e) {
  case success: return "no error";
  case error_invalid_value: return "invalid argument";
  case error_memory_allocation: return "out of memory";
  case error_invalid_configuration: return "invalid configuration argument";
  case error_launch_failure: return "unspecified launch failure";
  default: return "unknown error";
  }
}

// ---------------------------------------------------------------------------
// 1. Queues and streams
// CUDA streams are ordered, so every queue here is in-order. The default
// queue stands for the default stream; it uses SYCL's default device
// selection (set ONEAPI_DEVICE_SELECTOR or ACPP_VISIBILITY_MASK to choose).
namespace detail {
inline void async_handler(sycl::exception_list errors) {
  for (const std::exception_ptr &p : errors) {
    try {
      std::rethrow_exception(p);
    } catch (const sycl::exception &ex) {
      from_exception(ex);
    }
  }
}
struct stream_registry {
  std::mutex m;
  std::vector<sycl::queue *> queues;
};
inline stream_registry &streams() {
  static stream_registry r;
  return r;
}
} // namespace detail

inline sycl::queue &default_queue() {
  static sycl::queue q{sycl::default_selector_v, detail::async_handler, sycl::property::queue::in_order{}};
  return q;
}

// cudaStream_t: a pointer to an in-order queue; 0 is the default stream.
using stream_t = sycl::queue *;

// The queue a launch or copy on `s` goes to.
inline sycl::queue &queue_of(stream_t s) { return s ? *s : default_queue(); }

// cudaStreamCreate: a new in-order queue on the default queue's device and context.
inline error_t stream_create(stream_t *s) {
  return detail::guarded([&] {
    sycl::queue &d = default_queue();
    *s = new sycl::queue(d.get_context(), d.get_device(), detail::async_handler, sycl::property::queue::in_order{});
    std::lock_guard<std::mutex> lock(detail::streams().m);
    detail::streams().queues.push_back(*s);
  });
}

// cudaStreamDestroy: waits for the queue's work, then releases it.
inline error_t stream_destroy(stream_t s) {
  if (!s)
    return detail::record(error_invalid_value);
  error_t e = detail::guarded([&] { s->wait_and_throw(); });
  {
    std::lock_guard<std::mutex> lock(detail::streams().m);
    auto &v = detail::streams().queues;
    for (auto it = v.begin(); it != v.end(); ++it)
      if (*it == s) {
        v.erase(it);
        break;
      }
  }
  delete s;
  return e;
}

// cudaStreamSynchronize
inline error_t stream_synchronize(stream_t s) {
  return detail::guarded([&] { queue_of(s).wait_and_throw(); });
}

// cudaDeviceSynchronize: waits for the default queue and every live stream.
inline error_t device_synchronize() {
  return detail::guarded([&] {
    default_queue().wait_and_throw();
    std::lock_guard<std::mutex> lock(detail::streams().m);
    for (sycl::queue *q : detail::streams().queues)
      q->wait_and_throw();
  });
}

// ---------------------------------------------------------------------------
// 3. Memory (error-code forms; unused results are migrated to direct SYCL)
enum memcpy_kind {
  memcpy_host_to_host = 0,
  memcpy_host_to_device = 1,
  memcpy_device_to_host = 2,
  memcpy_device_to_device = 3,
  memcpy_default = 4
};

namespace detail {
template <class T> error_t allocate(T **p, std::size_t bytes, void *mem) {
  *p = static_cast<T *>(mem);
  return (mem || bytes == 0) ? success : record(error_memory_allocation);
}
} // namespace detail

// cudaMalloc
template <class T> error_t malloc_device(T **p, std::size_t bytes) {
  void *mem = nullptr;
  error_t e = detail::guarded([&] { mem = sycl::malloc_device(bytes, default_queue()); });
  return e != success ? e : detail::allocate(p, bytes, mem);
}
// cudaMallocManaged (flags are ignored: shared USM is visible to the host and every device of the context)
template <class T> error_t malloc_shared(T **p, std::size_t bytes, unsigned = 0) {
  void *mem = nullptr;
  error_t e = detail::guarded([&] { mem = sycl::malloc_shared(bytes, default_queue()); });
  return e != success ? e : detail::allocate(p, bytes, mem);
}
// cudaMallocHost
template <class T> error_t malloc_host(T **p, std::size_t bytes) {
  void *mem = nullptr;
  error_t e = detail::guarded([&] { mem = sycl::malloc_host(bytes, default_queue()); });
  return e != success ? e : detail::allocate(p, bytes, mem);
}
// cudaFree / cudaFreeHost
inline error_t free(void *p) {
  return detail::guarded([&] { sycl::free(p, default_queue()); });
}
// cudaMemcpy: synchronous, like CUDA's; the direction is implied by the USM pointers.
inline error_t memcpy(void *dst, const void *src, std::size_t bytes, memcpy_kind = memcpy_default) {
  return detail::guarded([&] { default_queue().memcpy(dst, src, bytes).wait_and_throw(); });
}
// cudaMemset: sets `bytes` bytes to the low byte of `value`, synchronously.
inline error_t memset(void *p, int value, std::size_t bytes) {
  return detail::guarded([&] { default_queue().memset(p, value, bytes).wait_and_throw(); });
}

// ---------------------------------------------------------------------------
// 4. Launch support
// A grid or block given as an integer n is the SYCL range (1, 1, n); a range
// is itself (CUDA dim3 values are migrated to already-reversed ranges).
inline sycl::range<3> as_range3(const sycl::range<3> &r) { return r; }
template <class T, typename std::enable_if<std::is_integral<T>::value, int>::type = 0>
sycl::range<3> as_range3(T n) {
  return sycl::range<3>(1, 1, static_cast<std::size_t>(n));
}

// A raw pointer to the start of a work-group local allocation. (Written as
// &acc[0] rather than get_multi_ptr(), which AdaptiveCpp only has since 25.02.)
template <class T> T *local_ptr(const sycl::local_accessor<T, 1> &acc) {
  return &acc[0];
}

// Dynamic shared memory (`extern __shared__`): one buffer of `bytes` bytes
// per work-group, 16-byte aligned like CUDA's.
struct alignas(16) local_chunk {
  unsigned char bytes[16];
};
inline sycl::local_accessor<local_chunk, 1> dynamic_local_memory(std::size_t bytes, sycl::handler &cgh) {
  return sycl::local_accessor<local_chunk, 1>(sycl::range<1>((bytes + sizeof(local_chunk) - 1) / sizeof(local_chunk)), cgh);
}
inline unsigned char *local_bytes(const sycl::local_accessor<local_chunk, 1> &acc) {
  return reinterpret_cast<unsigned char *>(local_ptr(acc));
}

// ---------------------------------------------------------------------------
// 5. Barriers with a predicate (each is a work-group barrier, as in CUDA)
// __syncthreads_count(p): the number of work-items for which p is non-zero.
inline int syncthreads_count(const sycl::nd_item<3> &item, int pred) {
  sycl::group_barrier(item.get_group());
  return sycl::reduce_over_group(item.get_group(), pred ? 1 : 0, sycl::plus<int>());
}
// __syncthreads_and(p): non-zero iff p is non-zero for every work-item.
inline int syncthreads_and(const sycl::nd_item<3> &item, int pred) {
  sycl::group_barrier(item.get_group());
  return sycl::all_of_group(item.get_group(), pred != 0) ? 1 : 0;
}
// __syncthreads_or(p): non-zero iff p is non-zero for some work-item.
inline int syncthreads_or(const sycl::nd_item<3> &item, int pred) {
  sycl::group_barrier(item.get_group());
  return sycl::any_of_group(item.get_group(), pred != 0) ? 1 : 0;
}

// ---------------------------------------------------------------------------
// 7. Warp primitives
// A CUDA warp is a SYCL sub-group (32 work-items on NVIDIA; launches of
// kernels using these are marked [[sycl::reqd_sub_group_size(32)]]).
// Full-mask, full-width forms are migrated straight to SYCL group algorithms;
// the helpers below keep CUDA's semantics for member masks and widths:
//
// - `width` (a power of two, 2..32) splits the warp into independent
//   segments; a source lane is segment-relative (`(lane / width) * width +
//   src % width`), and for up/down/xor a source outside the caller's segment
//   returns the caller's own value.
// - `mask` names the lanes taking part. On NVIDIA devices (the device pass
//   of DPC++'s CUDA backend or of AdaptiveCpp's CUDA target: SYCLIFY_NVPTX_DEVICE)
//   the helpers use the hardware's *.sync instructions, so masks
//   and divergent callers behave exactly as in CUDA. Elsewhere they fall back
//   to SYCL group algorithms, which are collective: that fallback assumes
//   every lane of the sub-group reaches the call (syclify reports SY0601 where
//   a mask other than the full one is used).
// The device pass for an NVIDIA GPU: DPC++ (__SYCL_DEVICE_ONLY__) or
// AdaptiveCpp's CUDA target (__CUDA_ARCH__), compiling for NVPTX.
#if defined(__NVPTX__) && (defined(__SYCL_DEVICE_ONLY__) || defined(__CUDA_ARCH__))
#define SYCLIFY_NVPTX_DEVICE 1
#endif

namespace detail {
constexpr unsigned full_mask = 0xffffffffu;
inline unsigned lane_id(const sycl::nd_item<3> &item) {
  return static_cast<unsigned>(item.get_sub_group().get_local_linear_id());
}
#if defined(SYCLIFY_NVPTX_DEVICE)
// Applies a 32-bit shuffle to each 32-bit word of v.
template <class T, class F> T by_words(T v, F shfl) {
  constexpr int n = (sizeof(T) + 3) / 4;
  int w[n] = {};
  __builtin_memcpy(w, &v, sizeof(T));
  for (int i = 0; i < n; ++i)
    w[i] = shfl(w[i]);
  T r;
  __builtin_memcpy(&r, w, sizeof(T));
  return r;
}
// The c operand of shfl.sync: segment mask in bits 8..12, clamp in 0..4.
inline int shfl_c(int width, bool up) { return ((32 - width) << 8) | (up ? 0 : 0x1f); }
#endif
// Segment-relative source lane, or the caller's own lane when out of segment.
inline unsigned segment_source(unsigned lane, int src, int width) {
  return (lane / width) * width + static_cast<unsigned>(src) % width;
}
} // namespace detail

// __shfl_sync(mask, v, src, width)
template <class T> T shfl(const sycl::nd_item<3> &item, unsigned mask, T v, int src, int width = 32) {
#if defined(SYCLIFY_NVPTX_DEVICE)
  return detail::by_words(v, [&](int w) { return __nvvm_shfl_sync_idx_i32(mask, w, src, detail::shfl_c(width, false)); });
#else
  (void)mask;
  unsigned lane = detail::lane_id(item);
  return sycl::select_from_group(item.get_sub_group(), v, detail::segment_source(lane, src, width));
#endif
}
// __shfl_up_sync(mask, v, delta, width): lanes below delta in their segment keep v.
template <class T> T shfl_up(const sycl::nd_item<3> &item, unsigned mask, T v, unsigned delta, int width = 32) {
#if defined(SYCLIFY_NVPTX_DEVICE)
  return detail::by_words(v, [&](int w) { return __nvvm_shfl_sync_up_i32(mask, w, delta, detail::shfl_c(width, true)); });
#else
  (void)mask;
  unsigned lane = detail::lane_id(item);
  bool in = (lane % width) >= delta;
  T r = sycl::select_from_group(item.get_sub_group(), v, in ? lane - delta : lane);
  return in ? r : v;
#endif
}
// __shfl_down_sync(mask, v, delta, width): lanes whose source leaves the segment keep v.
template <class T> T shfl_down(const sycl::nd_item<3> &item, unsigned mask, T v, unsigned delta, int width = 32) {
#if defined(SYCLIFY_NVPTX_DEVICE)
  return detail::by_words(v, [&](int w) { return __nvvm_shfl_sync_down_i32(mask, w, delta, detail::shfl_c(width, false)); });
#else
  (void)mask;
  unsigned lane = detail::lane_id(item);
  bool in = (lane % width) + delta < static_cast<unsigned>(width);
  T r = sycl::select_from_group(item.get_sub_group(), v, in ? lane + delta : lane);
  return in ? r : v;
#endif
}
// __shfl_xor_sync(mask, v, lane_mask, width): a source outside the segment keeps v.
template <class T> T shfl_xor(const sycl::nd_item<3> &item, unsigned mask, T v, int lane_mask, int width = 32) {
#if defined(SYCLIFY_NVPTX_DEVICE)
  return detail::by_words(v, [&](int w) { return __nvvm_shfl_sync_bfly_i32(mask, w, lane_mask, detail::shfl_c(width, false)); });
#else
  (void)mask;
  unsigned lane = detail::lane_id(item);
  unsigned src = lane ^ static_cast<unsigned>(lane_mask);
  bool in = src / width == lane / width && src < item.get_sub_group().get_local_linear_range();
  T r = sycl::select_from_group(item.get_sub_group(), v, in ? src : lane);
  return in ? r : v;
#endif
}

// __ballot_sync(mask, pred): bit i set when lane i is in mask and its pred is non-zero.
inline unsigned ballot(const sycl::nd_item<3> &item, unsigned mask, int pred) {
#if defined(SYCLIFY_NVPTX_DEVICE)
  return __nvvm_vote_ballot_sync(mask, pred != 0);
#else
  unsigned lane = detail::lane_id(item);
  unsigned bit = (pred != 0 && lane < 32) ? (1u << lane) : 0u;
  return sycl::reduce_over_group(item.get_sub_group(), bit, sycl::bit_or<unsigned>()) & mask;
#endif
}
// __all_sync(mask, pred): non-zero when pred is non-zero on every lane in mask.
inline int all(const sycl::nd_item<3> &item, unsigned mask, int pred) {
#if defined(SYCLIFY_NVPTX_DEVICE)
  return __nvvm_vote_all_sync(mask, pred != 0);
#else
  unsigned lane = detail::lane_id(item);
  bool in = lane < 32 && ((mask >> lane) & 1u);
  return sycl::all_of_group(item.get_sub_group(), !in || pred != 0);
#endif
}
// __any_sync(mask, pred): non-zero when pred is non-zero on some lane in mask.
inline int any(const sycl::nd_item<3> &item, unsigned mask, int pred) {
#if defined(SYCLIFY_NVPTX_DEVICE)
  return __nvvm_vote_any_sync(mask, pred != 0);
#else
  unsigned lane = detail::lane_id(item);
  bool in = lane < 32 && ((mask >> lane) & 1u);
  return sycl::any_of_group(item.get_sub_group(), in && pred != 0);
#endif
}
// __activemask(): the lanes executing this call. Exact on NVIDIA; the
// portable fallback can only see converged code and reports every lane.
inline unsigned activemask(const sycl::nd_item<3> &item) {
#if defined(SYCLIFY_NVPTX_DEVICE)
  (void)item;
  unsigned mask;
  asm volatile("activemask.b32 %0;" : "=r"(mask));
  return mask;
#else
  return ballot(item, detail::full_mask, 1);
#endif
}
// __match_any_sync(mask, v): the lanes in mask whose v equals the caller's.
template <class T> unsigned match_any(const sycl::nd_item<3> &item, unsigned mask, T v) {
#if defined(SYCLIFY_NVPTX_DEVICE) && (!defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 700)
  if constexpr (sizeof(T) == 8) {
    long long w;
    __builtin_memcpy(&w, &v, 8);
    return __nvvm_match_any_sync_i64(mask, w);
  } else {
    int w = 0;
    __builtin_memcpy(&w, &v, sizeof(T));
    return __nvvm_match_any_sync_i32(mask, w);
  }
#else
  auto sg = item.get_sub_group();
  unsigned n = static_cast<unsigned>(sg.get_local_linear_range());
  unsigned out = 0;
  for (unsigned i = 0; i < n && i < 32; ++i)
    if (sycl::select_from_group(sg, v, i) == v)
      out |= 1u << i;
  return out & mask;
#endif
}
// __match_all_sync(mask, v, &pred): mask when every lane in mask has the same v
// (and *pred = 1), else 0 (and *pred = 0).
template <class T> unsigned match_all(const sycl::nd_item<3> &item, unsigned mask, T v, int *pred) {
  unsigned same = match_any(item, mask, v);
  int all_same = same == mask;
  if (pred)
    *pred = all_same;
  return all_same ? mask : 0u;
}
// __syncwarp(mask): a barrier (and memory fence) among the lanes in mask.
inline void syncwarp(const sycl::nd_item<3> &item, unsigned mask = detail::full_mask) {
#if defined(SYCLIFY_NVPTX_DEVICE)
  (void)item;
  __nvvm_bar_warp_sync(mask);
#else
  (void)mask;
  sycl::group_barrier(item.get_sub_group());
#endif
}

// ---------------------------------------------------------------------------
// 8. Atomics and fences
// __threadfence_block/__threadfence/__threadfence_system: an acquire-release
// fence at work-group/device/system scope. (Written through the NVVM
// membar instructions on NVIDIA and std::atomic_thread_fence in AdaptiveCpp's
// host pass, because AdaptiveCpp 24 lacks sycl::atomic_fence.)
template <sycl::memory_scope S> void threadfence() {
#if defined(SYCLIFY_NVPTX_DEVICE)
  if constexpr (S == sycl::memory_scope::work_group)
    __nvvm_membar_cta();
  else if constexpr (S == sycl::memory_scope::system)
    __nvvm_membar_sys();
  else
    __nvvm_membar_gl();
#elif defined(__ACPP__)
  std::atomic_thread_fence(std::memory_order_acq_rel);
#else
  sycl::atomic_fence(sycl::memory_order::acq_rel, S);
#endif
}

// Each returns the old value, like CUDA's. They work on global and local
// (shared) memory alike: the atomic_ref is on the generic address space.
// Scope: device (atomicX), work_group (atomicX_block), system (atomicX_system).
namespace detail {
template <class T, sycl::memory_scope S>
using atomic = sycl::atomic_ref<T, sycl::memory_order::relaxed, S, sycl::access::address_space::generic_space>;
// 16-bit compare-and-swap on the aligned 32-bit word holding *p.
template <sycl::memory_scope S>
unsigned short cas16(unsigned short *p, unsigned short expected, unsigned short desired) {
  auto addr = reinterpret_cast<std::uintptr_t>(p);
  unsigned int *word = reinterpret_cast<unsigned int *>(addr & ~std::uintptr_t(3));
  const unsigned shift = (addr & 2) ? 16u : 0u;
  atomic<unsigned int, S> ref(*word);
  unsigned int old = ref.load();
  for (;;) {
    unsigned short cur = static_cast<unsigned short>(old >> shift);
    if (cur != expected)
      return cur;
    unsigned int next = (old & ~(0xffffu << shift)) | (static_cast<unsigned int>(desired) << shift);
    if (ref.compare_exchange_weak(old, next))
      return expected;
  }
}
} // namespace detail

#define SYCLIFY_ATOMIC_RMW(name, op)                                                                                    \
  template <sycl::memory_scope S = sycl::memory_scope::device, class T, class U> T atomic_##name(T *p, U v) {         \
    return detail::atomic<T, S>(*p).op(static_cast<T>(v));                                                            \
  }
SYCLIFY_ATOMIC_RMW(add, fetch_add)
SYCLIFY_ATOMIC_RMW(sub, fetch_sub)
SYCLIFY_ATOMIC_RMW(exch, exchange)
SYCLIFY_ATOMIC_RMW(min, fetch_min)
SYCLIFY_ATOMIC_RMW(max, fetch_max)
SYCLIFY_ATOMIC_RMW(and, fetch_and)
SYCLIFY_ATOMIC_RMW(or, fetch_or)
SYCLIFY_ATOMIC_RMW(xor, fetch_xor)
#undef SYCLIFY_ATOMIC_RMW

// atomicInc: old >= limit ? 0 : old + 1 (wraps at limit, as CUDA).
template <sycl::memory_scope S = sycl::memory_scope::device> unsigned int atomic_inc(unsigned int *p, unsigned int limit) {
  detail::atomic<unsigned int, S> ref(*p);
  unsigned int old = ref.load();
  while (!ref.compare_exchange_weak(old, old >= limit ? 0u : old + 1u)) {
  }
  return old;
}
// atomicDec: (old == 0 || old > limit) ? limit : old - 1 (as CUDA).
template <sycl::memory_scope S = sycl::memory_scope::device> unsigned int atomic_dec(unsigned int *p, unsigned int limit) {
  detail::atomic<unsigned int, S> ref(*p);
  unsigned int old = ref.load();
  while (!ref.compare_exchange_weak(old, (old == 0u || old > limit) ? limit : old - 1u)) {
  }
  return old;
}
// atomicCAS: stores desired if *p == expected; returns the old value.
template <sycl::memory_scope S = sycl::memory_scope::device, class T, class U, class V> T atomic_cas(T *p, U expected, V desired) {
  if constexpr (sizeof(T) == 2) {
    return static_cast<T>(detail::cas16<S>(reinterpret_cast<unsigned short *>(p), static_cast<unsigned short>(expected),
                                            static_cast<unsigned short>(desired)));
  } else {
    T old = static_cast<T>(expected);
    detail::atomic<T, S>(*p).compare_exchange_strong(old, static_cast<T>(desired));
    return old;
  }
}

// ---------------------------------------------------------------------------
// 9. Math
// sincosf(x, &s, &c)
template <class T> void sincos(T x, T *s, T *c) {
  *s = sycl::sin(x);
  *c = sycl::cos(x);
}
template <class T> void sincospi(T x, T *s, T *c) {
  *s = sycl::sinpi(x);
  *c = sycl::cospi(x);
}
// __sincosf: the fast (native) versions.
inline void native_sincos(float x, float *s, float *c) {
  *s = sycl::native::sin(x);
  *c = sycl::native::cos(x);
}
// __saturatef: clamps to [0, 1]; NaN gives 0, as CUDA.
inline float saturate(float x) { return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f; }
// __popc/__popcll: number of set bits, as int.
template <class T> int popc(T x) { return static_cast<int>(sycl::popcount(static_cast<typename std::make_unsigned<T>::type>(x))); }
// __clz/__clzll: leading zeros (32/64 for 0), as int.
template <class T> int clz(T x) { return static_cast<int>(sycl::clz(static_cast<typename std::make_unsigned<T>::type>(x))); }
// __ffs/__ffsll: 1-based position of the least significant set bit, 0 for 0.
template <class T> int ffs(T x) {
  using U = typename std::make_unsigned<T>::type;
  U v = static_cast<U>(x);
  if (v == 0)
    return 0;
  // the lowest set bit, counted with popcount (plain SYCL 2020 everywhere)
  return static_cast<int>(sycl::popcount(static_cast<U>((v & (~v + 1)) - 1))) + 1;
}
// __brev/__brevll: bit reversal.
template <class T> T brev(T x) {
  using U = typename std::make_unsigned<T>::type;
  U v = static_cast<U>(x), r = 0;
  for (unsigned i = 0; i < sizeof(U) * 8; ++i) {
    r = (r << 1) | (v & 1u);
    v >>= 1;
  }
  return static_cast<T>(r);
}
// __sad/__usad: |x - y| + z.
template <class T, class U> unsigned int sad(T x, T y, U z) {
  return static_cast<unsigned int>(x > y ? x - y : y - x) + static_cast<unsigned int>(z);
}
// __byte_perm(x, y, s): byte i of the result is byte (s >> 4i) & 7 of y:x.
inline unsigned int byte_perm(unsigned int x, unsigned int y, unsigned int s) {
  unsigned long long xy = (static_cast<unsigned long long>(y) << 32) | x;
  unsigned int r = 0;
  for (int i = 0; i < 4; ++i) {
    unsigned sel = (s >> (4 * i)) & 7u;
    r |= static_cast<unsigned int>((xy >> (8 * sel)) & 0xffu) << (8 * i);
  }
  return r;
}
// __mulhi/__umulhi/__mul64hi/__umul64hi: the high half of the full product.
template <class T> T mul_hi(T a, T b) {
  static_assert(std::is_integral<T>::value && (sizeof(T) == 4 || sizeof(T) == 8), "32- or 64-bit integers");
  if constexpr (sizeof(T) == 4) {
    using W = typename std::conditional<std::is_signed<T>::value, long long, unsigned long long>::type;
    return static_cast<T>((static_cast<W>(a) * static_cast<W>(b)) >> 32);
  } else {
    using W = typename std::conditional<std::is_signed<T>::value, __int128, unsigned __int128>::type;
    return static_cast<T>((static_cast<W>(a) * static_cast<W>(b)) >> 64);
  }
}
template <class T, class U> auto mul_hi(T a, U b) -> decltype(mul_hi<typename std::common_type<T, U>::type>(a, b)) {
  using C = typename std::common_type<T, U>::type;
  return mul_hi<C>(static_cast<C>(a), static_cast<C>(b));
}
// __mul24/__umul24: the low 32 bits of the product of the low 24 bits.
template <class T> T mul24(T a, T b) {
  using W = typename std::conditional<std::is_signed<T>::value, int, unsigned int>::type;
  auto lo24 = [](W v) { return std::is_signed<T>::value ? static_cast<W>(static_cast<int>(static_cast<unsigned>(v) << 8) >> 8) : static_cast<W>(v & 0xffffffu); };
  return static_cast<T>(static_cast<W>(static_cast<unsigned>(lo24(a)) * static_cast<unsigned>(lo24(b))));
}

// __hadd/__rhadd: (x + y) >> 1 and (x + y + 1) >> 1 without overflow.
template <class T> T hadd(T x, T y) { return (x >> 1) + (y >> 1) + (x & y & 1); }
template <class T> T rhadd(T x, T y) { return (x >> 1) + (y >> 1) + ((x | y) & 1); }
// min/max/abs with CUDA's overloads: mixed integer types use the usual
// arithmetic conversions (so min(int, unsigned) is unsigned), floating types
// compare as floating.
template <class T, class U> typename std::common_type<T, U>::type min(T a, U b) {
  using C = typename std::common_type<T, U>::type;
  return static_cast<C>(b) < static_cast<C>(a) ? static_cast<C>(b) : static_cast<C>(a);
}
template <class T, class U> typename std::common_type<T, U>::type max(T a, U b) {
  using C = typename std::common_type<T, U>::type;
  return static_cast<C>(a) < static_cast<C>(b) ? static_cast<C>(b) : static_cast<C>(a);
}
template <class T> T abs(T x) {
  if constexpr (std::is_floating_point<T>::value)
    return sycl::fabs(x);
  else
    return x < 0 ? static_cast<T>(-x) : x;
}
// __float2int_rn and friends: conversion with an explicit rounding mode.
// Floating to integer rounds first (rint/trunc/ceil/floor), then converts
// with CUDA's saturation (NaN gives 0); other conversions use SYCL's
// vec::convert with the rounding mode.
template <class To, sycl::rounding_mode R, class From> To convert(From x) {
  if constexpr (std::is_floating_point<From>::value && std::is_integral<To>::value) {
    From r = R == sycl::rounding_mode::rtz   ? sycl::trunc(x)
             : R == sycl::rounding_mode::rtp ? sycl::ceil(x)
             : R == sycl::rounding_mode::rtn ? sycl::floor(x)
                                             : sycl::rint(x);
    if (r != r)
      return To(0);
    if (r <= static_cast<From>(std::numeric_limits<To>::lowest()))
      return std::numeric_limits<To>::lowest();
    if (r >= static_cast<From>(std::numeric_limits<To>::max()))
      return std::numeric_limits<To>::max();
    return static_cast<To>(r);
  } else if constexpr (R == sycl::rounding_mode::rte || R == sycl::rounding_mode::automatic) {
    return static_cast<To>(x);
  } else {
    return sycl::vec<From, 1>(x).template convert<To, R>()[0];
  }
}
// __double2hiint/__double2loint/__hiloint2double
inline int double_hi(double d) { return static_cast<int>(sycl::bit_cast<unsigned long long>(d) >> 32); }
inline int double_lo(double d) { return static_cast<int>(sycl::bit_cast<unsigned long long>(d) & 0xffffffffull); }
inline double hilo_to_double(int hi, int lo) {
  return sycl::bit_cast<double>((static_cast<unsigned long long>(static_cast<unsigned int>(hi)) << 32) | static_cast<unsigned int>(lo));
}

// ---------------------------------------------------------------------------
// 10. Vector types
// CUDA's vector types are structs with members x, y, z, w; their size and
// alignment are part of programs (reinterpret_cast loads, sizeof, arrays).
// These have exactly CUDA's: T2 aligned to 2*sizeof(T), T4 to min(4*sizeof(T),
// 16), T3 unaligned (a float3 is 12 bytes, unlike SYCL's 16-byte vec<float,3>).
#define SYCLIFY_VECTOR_TYPES(T, N)                                                                                      \
  struct alignas(sizeof(T)) N##1 {                                                                                      \
    T x;                                                                                                                \
  };                                                                                                                    \
  struct alignas(2 * sizeof(T)) N##2 {                                                                                  \
    T x, y;                                                                                                             \
  };                                                                                                                    \
  struct N##3 {                                                                                                         \
    T x, y, z;                                                                                                          \
  };                                                                                                                    \
  struct alignas(4 * sizeof(T) < 16 ? 4 * sizeof(T) : 16) N##4 {                                                       \
    T x, y, z, w;                                                                                                       \
  };                                                                                                                    \
  inline N##1 make_##N##1(T x) { return N##1{x}; }                                                                      \
  inline N##2 make_##N##2(T x, T y) { return N##2{x, y}; }                                                              \
  inline N##3 make_##N##3(T x, T y, T z) { return N##3{x, y, z}; }                                                      \
  inline N##4 make_##N##4(T x, T y, T z, T w) { return N##4{x, y, z, w}; }
SYCLIFY_VECTOR_TYPES(signed char, char)
SYCLIFY_VECTOR_TYPES(unsigned char, uchar)
SYCLIFY_VECTOR_TYPES(short, short)
SYCLIFY_VECTOR_TYPES(unsigned short, ushort)
SYCLIFY_VECTOR_TYPES(int, int)
SYCLIFY_VECTOR_TYPES(unsigned int, uint)
SYCLIFY_VECTOR_TYPES(long, long)
SYCLIFY_VECTOR_TYPES(unsigned long, ulong)
SYCLIFY_VECTOR_TYPES(long long, longlong)
SYCLIFY_VECTOR_TYPES(unsigned long long, ulonglong)
SYCLIFY_VECTOR_TYPES(float, float)
SYCLIFY_VECTOR_TYPES(double, double)
#undef SYCLIFY_VECTOR_TYPES
static_assert(sizeof(float3) == 12 && alignof(float4) == 16 && sizeof(uchar4) == 4 && alignof(double2) == 16,
              "CUDA vector layout");

// ---------------------------------------------------------------------------
// 11. Half and bfloat16
// __half is sycl::half. __half2 is a pair with members x and y (CUDA code
// reads .x/.y), 4 bytes, 4-aligned like CUDA's.
struct alignas(4) half2 {
  sycl::half x, y;
};
// __hadd(a, b) on halves (the integer __hadd is the overload in section 9).
inline sycl::half hadd(sycl::half a, sycl::half b) { return a + b; }
inline sycl::half hsub(sycl::half a, sycl::half b) { return a - b; }
inline sycl::half hmul(sycl::half a, sycl::half b) { return a * b; }
inline sycl::half hdiv(sycl::half a, sycl::half b) { return a / b; }
inline sycl::half hfma(sycl::half a, sycl::half b, sycl::half c) {
  return sycl::half(sycl::fma(static_cast<float>(a), static_cast<float>(b), static_cast<float>(c)));
}
inline sycl::half hneg(sycl::half a) { return -a; }
inline sycl::half habs(sycl::half a) { return a < sycl::half(0) ? -a : a; }
inline sycl::half hmax(sycl::half a, sycl::half b) { return a < b ? b : a; }
inline sycl::half hmin(sycl::half a, sycl::half b) { return b < a ? b : a; }
inline half2 hadd2(half2 a, half2 b) { return {a.x + b.x, a.y + b.y}; }
inline half2 hsub2(half2 a, half2 b) { return {a.x - b.x, a.y - b.y}; }
inline half2 hmul2(half2 a, half2 b) { return {a.x * b.x, a.y * b.y}; }
inline half2 h2div(half2 a, half2 b) { return {a.x / b.x, a.y / b.y}; }
inline half2 hfma2(half2 a, half2 b, half2 c) { return {hfma(a.x, b.x, c.x), hfma(a.y, b.y, c.y)}; }
inline half2 hneg2(half2 a) { return {-a.x, -a.y}; }
inline half2 habs2(half2 a) { return {habs(a.x), habs(a.y)}; }

// __nv_bfloat16: the upper 16 bits of a float, rounded to nearest even
// (SYCL 2020 has no bfloat16; DPC++'s is an extension, so this one is plain C++).
struct bfloat16 {
  unsigned short bits;
  bfloat16() = default;
  bfloat16(float f) {
    unsigned int u = sycl::bit_cast<unsigned int>(f);
    if ((u & 0x7fffffffu) > 0x7f800000u) {
      bits = static_cast<unsigned short>((u >> 16) | 0x40u); // quiet NaN
    } else {
      u += 0x7fffu + ((u >> 16) & 1u);
      bits = static_cast<unsigned short>(u >> 16);
    }
  }
  operator float() const { return sycl::bit_cast<float>(static_cast<unsigned int>(bits) << 16); }
};
struct alignas(4) bfloat162 {
  bfloat16 x, y;
};

// ---------------------------------------------------------------------------
// 12. Cooperative groups (the block and warp-tile subset)
// `namespace cg = cooperative_groups;` becomes `namespace cg = syclify::cg;`
// and this_thread_block()/coalesced_threads() receive the nd_item. A tile of
// N lanes is a segment of the 32-lane sub-group; its operations are the warp
// helpers with width N and the tile's member mask.
namespace cg {
struct thread_block {
  const sycl::nd_item<3> &item;
  void sync() const { sycl::group_barrier(item.get_group()); }
  unsigned thread_rank() const { return static_cast<unsigned>(item.get_local_linear_id()); }
  unsigned size() const { return static_cast<unsigned>(item.get_local_range().size()); }
  unsigned num_threads() const { return size(); }
};
inline thread_block this_thread_block(const sycl::nd_item<3> &item) { return thread_block{item}; }
inline void sync(const thread_block &g) { g.sync(); }

template <unsigned N> struct thread_block_tile {
  static_assert(N == 1 || N == 2 || N == 4 || N == 8 || N == 16 || N == 32, "tiles of up to 32 lanes");
  const sycl::nd_item<3> &item;
  unsigned lane() const { return detail::lane_id(item); }
  // The member mask of this tile within its warp.
  unsigned tile_mask() const { return N == 32 ? detail::full_mask : ((1u << N) - 1u) << (lane() / N * N); }
  unsigned thread_rank() const { return lane() % N; }
  unsigned size() const { return N; }
  unsigned num_threads() const { return N; }
  unsigned meta_group_rank() const { return static_cast<unsigned>(item.get_local_linear_id()) / N; }
  unsigned meta_group_size() const { return static_cast<unsigned>((item.get_local_range().size() + N - 1) / N); }
  void sync() const { syncwarp(item, tile_mask()); }
  template <class T> T shfl(T v, int src) const { return syclify::shfl(item, tile_mask(), v, src, N); }
  template <class T> T shfl_up(T v, unsigned d) const { return syclify::shfl_up(item, tile_mask(), v, d, N); }
  template <class T> T shfl_down(T v, unsigned d) const { return syclify::shfl_down(item, tile_mask(), v, d, N); }
  template <class T> T shfl_xor(T v, int m) const { return syclify::shfl_xor(item, tile_mask(), v, m, N); }
  // ballot: bit i for tile lane i.
  unsigned ballot(int pred) const { return (syclify::ballot(item, tile_mask(), pred) >> (lane() / N * N)) & (N == 32 ? detail::full_mask : (1u << N) - 1u); }
  int any(int pred) const { return ballot(pred) != 0; }
  int all(int pred) const { return ballot(pred) == (N == 32 ? detail::full_mask : (1u << N) - 1u); }
};
template <unsigned N> thread_block_tile<N> tiled_partition(const thread_block &g) { return thread_block_tile<N>{g.item}; }

// The lanes active where coalesced_threads() was called.
struct coalesced_group {
  const sycl::nd_item<3> &item;
  unsigned mask;
  unsigned lane() const { return detail::lane_id(item); }
  unsigned size() const { return static_cast<unsigned>(sycl::popcount(mask)); }
  unsigned num_threads() const { return size(); }
  unsigned thread_rank() const { return static_cast<unsigned>(sycl::popcount(mask & ((1u << lane()) - 1u))); }
  void sync() const { syncwarp(item, mask); }
  unsigned ballot(int pred) const { return syclify::ballot(item, mask, pred); }
  int any(int pred) const { return ballot(pred) != 0; }
  int all(int pred) const { return ballot(pred) == mask; }
};
inline coalesced_group coalesced_threads(const sycl::nd_item<3> &item) { return coalesced_group{item, activemask(item)}; }

// cg::plus / cg::less / cg::greater as used by cg::reduce (less/greater pick
// the lesser/greater value).
template <class T> struct plus {
  T operator()(T a, T b) const { return a + b; }
};
template <class T> struct less {
  T operator()(T a, T b) const { return b < a ? b : a; }
};
template <class T> struct greater {
  T operator()(T a, T b) const { return a < b ? b : a; }
};
template <class T> struct bit_and {
  T operator()(T a, T b) const { return a & b; }
};
template <class T> struct bit_or {
  T operator()(T a, T b) const { return a | b; }
};
template <class T> struct bit_xor {
  T operator()(T a, T b) const { return a ^ b; }
};
// cg::reduce(tile, v, op): every lane of the tile gets the reduction.
template <unsigned N, class T, class Op> T reduce(const thread_block_tile<N> &g, T v, Op op) {
  for (unsigned offset = N / 2; offset > 0; offset /= 2)
    v = op(v, g.shfl_xor(v, static_cast<int>(offset)));
  return v;
}
} // namespace cg


} // namespace syclify

// ---------------------------------------------------------------------------
// 13. Device printf
// DPC++ prints from kernels through its printf extension, whose format string
// must live in the constant address space; AdaptiveCpp's CUDA/HIP targets and
// host code use printf itself.
#if defined(__SYCL_DEVICE_ONLY__) && defined(__INTEL_LLVM_COMPILER) && !defined(__ACPP__)
#define SYCLIFY_PRINTF(format, ...)                                                                                     \
  do {                                                                                                                  \
    static const __attribute__((opencl_constant)) char syclify_format_[] = format;                                     \
    sycl::ext::oneapi::experimental::printf(syclify_format_, ##__VA_ARGS__);                                           \
  } while (0)
#else
#define SYCLIFY_PRINTF(...) ::printf(__VA_ARGS__)
#endif

// assert() in device code. DPC++ supports it; AdaptiveCpp's CUDA target
// cannot link the C library's __assert_fail, so there a failed assertion
// prints CUDA-style and traps. NDEBUG disables it as usual.
#if defined(NDEBUG)
#define SYCLIFY_ASSERT(cond) ((void)0)
#elif defined(SYCLIFY_NVPTX_DEVICE) && defined(__ACPP__)
#define SYCLIFY_ASSERT(cond)                                                                                            \
  ((cond) ? (void)0 : (::printf("%s:%d: Assertion `%s` failed.\n", __FILE__, __LINE__, #cond), __builtin_trap()))
#else
#define SYCLIFY_ASSERT(cond) assert(cond)
#endif
