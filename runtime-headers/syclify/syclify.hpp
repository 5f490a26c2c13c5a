// syclify helper header — shipped with code migrated from CUDA by syclify.
//
// Plain SYCL 2020: it builds with Intel DPC++ and with AdaptiveCpp. Everything
// here is something the migrated code needs that SYCL 2020 does not give in
// one call; each helper says which CUDA construct it stands for and keeps
// CUDA's semantics where they differ from SYCL's.
//
// Contents
//   1. Queues and streams   default_queue, stream_t, queue_of, stream_create/...
//   2. Error codes          error_t, success, get_last_error, get_error_string;
//                           data_type_t (cudaDataType)
//   3. Memory               malloc_device/shared/host, free, memcpy, memset
//   4. Launch support       as_range3, pointee_t, local_ptr, dynamic_local_memory, local_bytes,
//                           call_with_local
//   5. Barriers             syncthreads_count/and/or
//   6. Function attributes  SYCLIFY_FORCEINLINE, SYCLIFY_NOINLINE, SYCLIFY_EXTERNAL
//   7. Warp primitives      shfl/shfl_up/shfl_down/shfl_xor with masks and widths,
//                           all/any/ballot, activemask, match_any/match_all, syncwarp
//   8. Atomics, fences      threadfence<scope>, atomic_add/sub/exch/min/max/inc/dec/and/or/xor/cas
//   9. Math                 pow/powf (mixed types), sincos, saturate, popc/clz/ffs/brev, sad, byte_perm,
//                           hadd/rhadd, min/max/abs with CUDA's mixed-type rules,
//                           convert<T, rounding>, double_hi/lo, SIMD within a
//                           word (vadd4, vcmpgtu2, vsads4, vimax3_s32, ...)
//  10. Vector types         float4, int2, uchar4, ... with CUDA's layout; make_*
//  11. Half and bfloat16    half2, bfloat16, bfloat162 and the __h* intrinsics;
//                           fp8 (E4M3/E5M2, x2/x4 packs, __nv_cvt_*)
//  12. Cooperative groups   syclify::cg: thread_block, thread_block_tile<N>,
//                           coalesced_group, reduce, plus/less/greater,
//                           grid_group (a grid barrier checked for residency)
//  13. Device printf        SYCLIFY_PRINTF, SYCLIFY_ASSERT
//  14. Host runtime         stream flags/query/wait_event, events with real
//                           elapsed time, async/pitched/2-D/3-D memory, memory
//                           info, prefetch, pointer attributes, devices and
//                           device_prop, device attributes, occupancy model
//  15. Device globals       symbol<T>, managed_symbol<T>, memcpy_to/from_symbol,
//                           get_symbol_address/size
//  16. Arrays, textures    (texture.hpp) CUDA arrays (layered, cubemap, mipmapped) in
//      and surfaces         USM and their copies, texture objects sampled in software
//                           with CUDA's arithmetic, surface objects
//  17. Graphs              (graph.hpp) graphs built node by node or captured from
//                           streams, instantiated in dependency order; conditional
//                           nodes, memory nodes, cudaGraphExecUpdate
//  18. Driver API          (driver.hpp) cuda.h's devices, contexts, memory, arrays,
//                           modules (migrated module sources built as shared
//                           libraries) and cuLaunchKernel
#pragma once

// CUDA's header guards and versions, as migrated code tests them
// (rules/cuda_macros.yaml, SY0111): `#ifdef __DRIVER_TYPES_H__` became
// `#ifdef SYCLIFY_CUDA_RUNTIME`, true where this header replaces CUDA's
// runtime header; `CUDART_VERSION` became `SYCLIFY_CUDART_VERSION`, the
// version of the CUDA API the code was migrated from (12.8); `#ifdef
// __cuda_cuda_h__` (cuda.h, the driver API) became `#ifdef SYCLIFY_CUDA_DRIVER`.
#define SYCLIFY_CUDA_RUNTIME 1
#define SYCLIFY_CUDA_DRIVER 1
#define SYCLIFY_CUDART_VERSION 12080
#define SYCLIFY_CUDA_VERSION 12080
#define SYCLIFY_CUDACC_VER_MAJOR 12
#define SYCLIFY_CUDACC_VER_MINOR 8
#define SYCLIFY_CUDACC_VER_BUILD 0

// Migrated files include this header before <sycl/sycl.hpp>, so that it can
// set up the SYCL implementation first. AdaptiveCpp: kernels and copies on
// an in-order queue without buffers (what migrated CUDA code submits) skip
// the runtime's task graph and go straight to the CUDA stream ("instant
// submission"): a launch costs the host ~1 µs less (H100, AdaptiveCpp
// 24.06; README "Speed"). Define ACPP_ALLOW_INSTANT_SUBMISSION=0 to turn
// it off. Every translation unit of a program should agree (the setting
// lives in inline functions of AdaptiveCpp's headers).
#if !defined(ACPP_ALLOW_INSTANT_SUBMISSION) && !defined(HIPSYCL_ALLOW_INSTANT_SUBMISSION)
#define ACPP_ALLOW_INSTANT_SUBMISSION 1
#endif
#include <sycl/sycl.hpp>

#include <atomic>
#include <cassert>
#include <cmath>
// CUDA's runtime header includes <math.h>, so CUDA host code may call the C
// math and classification functions unqualified (`isfinite(x)`, `fabsf`):
// kept here for the code that relied on it
#include <math.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <chrono>
#include <climits>
#include <string>
#include <system_error>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

// Work crossing between the legacy default stream and a blocking stream
// (detail::default_follows_streams) is ordered with a device-side wait.
// Portable SYCL needs two submissions for one: an operation on the source
// queue for an event of its work so far, and one on the target queue that
// depends on it (each a few microseconds of host time). AdaptiveCpp on
// CUDA with instant submission (every operation is on the CUDA stream when
// its submission returns) does what CUDA does instead: an event recorded
// on the source queue's CUDA stream and waited for on the target's
// (cuEventRecord, cuStreamWaitEvent, from the CUDA driver the backend has
// loaded). Elsewhere, or with SYCLIFY_PORTABLE_STREAM_ORDER defined, the
// portable way.
#if (defined(__ACPP__) || defined(__HIPSYCL__)) && defined(__linux__) && !defined(SYCLIFY_PORTABLE_STREAM_ORDER) && \
    defined(ACPP_ALLOW_INSTANT_SUBMISSION)
#if ACPP_ALLOW_INSTANT_SUBMISSION
#define SYCLIFY_NATIVE_STREAM_ORDER 1
#include <dlfcn.h>
#endif
#endif

#if defined(__ACPP__) || defined(__HIPSYCL__)
// AdaptiveCpp 24.06's `sycl::half` declares its unary minus as
// `half& operator-(half&)`: it negates a non-const lvalue in place and does
// not apply to a temporary or a const half, where `-h` falls back to float
// (`c ? -static_cast<half>(v) : static_cast<half>(v)` is then ambiguous).
// CUDA's `-h` is a half, its operand untouched: this overload, found by
// argument-dependent lookup, gives that for temporaries and const halves.
// A non-const lvalue still takes AdaptiveCpp's own (an exact non-template
// match wins); the helpers negate through syclify::hneg, never `-h`. An
// AdaptiveCpp whose half has a `half operator-(const half&)` makes this one
// unused (a non-template wins a tie).
namespace hipsycl::sycl {
template <class H, std::enable_if_t<std::is_same_v<H, half>, int> = 0>
inline H operator-(const H &a) noexcept {
  return bit_cast<H>(static_cast<unsigned short>(bit_cast<unsigned short>(a) ^ 0x8000u));
}
} // namespace hipsycl::sycl
#endif

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

// A launch whose block size is a compile-time constant:
// SYCLIFY_REQD_WORK_GROUP_SIZE(z, y, x) after the launch lambda's parameters,
// SYCL 2020's [[sycl::reqd_work_group_size(z, y, x)]] where the compiler
// knows it (DPC++), nothing where it would only warn "unknown attribute"
// (AdaptiveCpp's multipass compiler: a warning at every launch, an error
// under -Werror). A hint for the compiler, so leaving it out changes no
// result; reqd_sub_group_size(32), which warp code needs, is written as is.
#if defined(__has_cpp_attribute)
#if __has_cpp_attribute(sycl::reqd_work_group_size)
#define SYCLIFY_REQD_WORK_GROUP_SIZE(...) [[sycl::reqd_work_group_size(__VA_ARGS__)]]
#endif
#endif
#ifndef SYCLIFY_REQD_WORK_GROUP_SIZE
#define SYCLIFY_REQD_WORK_GROUP_SIZE(...)
#endif

// __launch_bounds__(maxThreads[, minBlocks]) of a kernel, at its launches
// with a one-dimensional block: SYCLIFY_LAUNCH_BOUNDS(maxThreads[, minBlocks])
// after the launch lambda's parameters. DPC++ has equivalents (PTX .maxntid
// and .minnctapersm on NVIDIA GPUs), named on its device compilation; other
// compilers have none, and the macro is empty.
#if defined(__has_cpp_attribute)
#if __has_cpp_attribute(intel::max_work_group_size) && __has_cpp_attribute(intel::min_work_groups_per_cu)
#define SYCLIFY_LAUNCH_BOUNDS_1(max_threads) [[intel::max_work_group_size(1, 1, max_threads)]]
#define SYCLIFY_LAUNCH_BOUNDS_2(max_threads, min_blocks)                                                                   \
  [[intel::max_work_group_size(1, 1, max_threads), intel::min_work_groups_per_cu(min_blocks)]]
#endif
#endif
#ifndef SYCLIFY_LAUNCH_BOUNDS_1
#define SYCLIFY_LAUNCH_BOUNDS_1(max_threads)
#define SYCLIFY_LAUNCH_BOUNDS_2(max_threads, min_blocks)
#endif
#define SYCLIFY_LAUNCH_BOUNDS_PICK(a, b, name, ...) name
#define SYCLIFY_LAUNCH_BOUNDS(...) SYCLIFY_LAUNCH_BOUNDS_PICK(__VA_ARGS__, SYCLIFY_LAUNCH_BOUNDS_2, SYCLIFY_LAUNCH_BOUNDS_1, )(__VA_ARGS__)

// __global__ -> SYCLIFY_KERNEL: a kernel becomes a function called from the
// kernel lambda of each of its launches; always_inline makes its body part of
// that lambda, so that it is optimised as CUDA optimises a kernel, as the
// entry point: above all, work-group local memory it is passed as pointers is
// accessed as local memory (PTX ld.shared), where an out-of-line call would
// see generic pointers. Define SYCLIFY_KERNEL empty (-DSYCLIFY_KERNEL=) to
// compile kernels with many launch sites once instead.
#ifndef SYCLIFY_KERNEL
#if defined(__clang__)
#define SYCLIFY_KERNEL __attribute__((always_inline))
#else
#define SYCLIFY_KERNEL
#endif
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
// 2. Error codes, library data types
// cudaDataType (library_types.h): the element type that a CUDA library call
// names at run time (cuBLAS's GemmEx, cuSPARSE's descriptors). CUDA's values.
enum data_type_t {
  r_32f = 0, r_64f = 1, r_16f = 2, r_8i = 3, c_32f = 4, c_64f = 5, c_16f = 6, c_8i = 7, r_8u = 8, c_8u = 9,
  r_32i = 10, c_32i = 11, r_32u = 12, c_32u = 13, r_16bf = 14, c_16bf = 15, r_4i = 16, c_4i = 17, r_4u = 18,
  c_4u = 19, r_16i = 20, c_16i = 21, r_16u = 22, c_16u = 23, r_64i = 24, c_64i = 25, r_64u = 26, c_64u = 27,
  r_8f_e4m3 = 28, r_8f_e5m2 = 29,
};

// CUDA reports failures as return codes; SYCL throws exceptions. The helpers
// below that stand for CUDA calls whose value is used catch SYCL exceptions,
// record them as the "last error" (as CUDA does) and return a non-zero code.
using error_t = int;
constexpr error_t success = 0;
constexpr error_t error_invalid_value = 1;
constexpr error_t error_memory_allocation = 2;
constexpr error_t error_invalid_configuration = 9;
constexpr error_t error_invalid_device = 101;
constexpr error_t error_not_ready = 600;
constexpr error_t error_launch_failure = 719;
constexpr error_t error_not_supported = 801;
constexpr error_t error_unknown = 999;
constexpr error_t error_invalid_symbol = 13;
constexpr error_t error_invalid_device_function = 98;
constexpr error_t error_invalid_resource_handle = 400;
constexpr error_t error_illegal_address = 700;
constexpr error_t error_launch_out_of_resources = 701;
constexpr error_t error_launch_timeout = 702;
constexpr error_t error_assert = 710;
constexpr error_t error_cooperative_launch_too_large = 720;
constexpr error_t error_stream_capture_unsupported = 900;
constexpr error_t error_graph_exec_update_failure = 910;
constexpr error_t error_peer_access_unsupported = 217;
constexpr error_t error_peer_access_already_enabled = 704;
constexpr error_t error_peer_access_not_enabled = 705;

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
// CUDA's own codes, for failures the helpers detect themselves (a
// cooperative launch too large): sycl::exception carries any error category.
struct cuda_category_t : std::error_category {
  const char *name() const noexcept override { return "cuda"; }
  std::string message(int) const override { return "CUDA error"; }
};
inline const std::error_category &cuda_category() {
  static const cuda_category_t c;
  return c;
}
inline error_t from_exception(const sycl::exception &ex) {
  const std::error_code c = ex.code();
  if (c.category() == cuda_category())
    return record(c.value());
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

namespace detail {
void flush_async_errors();
}
// cudaGetLastError: returns the last error (including errors the queues have
// reported asynchronously so far) and resets it.
inline error_t get_last_error() {
  detail::flush_async_errors();
  error_t e = detail::last_error();
  detail::last_error() = success;
  return e;
}
// cudaPeekAtLastError: returns the last error, keeping it.
inline error_t peek_last_error() {
  detail::flush_async_errors();
  return detail::last_error();
}

// cudaGetErrorString
inline const char *get_error_string(error_t e) {
  switch (e) {
  case success: return "no error";
  case error_invalid_value: return "invalid argument";
  case error_memory_allocation: return "out of memory";
  case error_invalid_configuration: return "invalid configuration argument";
  case error_invalid_device: return "invalid device ordinal";
  case error_peer_access_unsupported: return "peer access is not supported between these two devices";
  case error_peer_access_already_enabled: return "peer access is already enabled";
  case error_peer_access_not_enabled: return "peer access has not been enabled";
  case error_not_ready: return "device not ready";
  case error_launch_failure: return "unspecified launch failure";
  case error_not_supported: return "operation not supported";
  case error_invalid_symbol: return "invalid device symbol";
  case error_invalid_device_function: return "invalid device function";
  case error_invalid_resource_handle: return "invalid resource handle";
  case error_illegal_address: return "an illegal memory access was encountered";
  case error_launch_out_of_resources: return "too many resources requested for launch";
  case error_launch_timeout: return "the launch timed out and was terminated";
  case error_assert: return "device-side assert triggered";
  case error_cooperative_launch_too_large: return "too many blocks in cooperative launch";
  case error_stream_capture_unsupported: return "operation not permitted when stream is capturing";
  case error_graph_exec_update_failure: return "the graph update was not performed because it included changes which violated constraints specific to instantiated graph update";
  default: return "unknown error";
  }
}
// cudaGetErrorName: CUDA's enumerator name for each code.
inline const char *get_error_name(error_t e) {
  switch (e) {
  case success: return "cudaSuccess";
  case error_invalid_value: return "cudaErrorInvalidValue";
  case error_memory_allocation: return "cudaErrorMemoryAllocation";
  case error_invalid_configuration: return "cudaErrorInvalidConfiguration";
  case error_invalid_device: return "cudaErrorInvalidDevice";
  case error_peer_access_unsupported: return "cudaErrorPeerAccessUnsupported";
  case error_peer_access_already_enabled: return "cudaErrorPeerAccessAlreadyEnabled";
  case error_peer_access_not_enabled: return "cudaErrorPeerAccessNotEnabled";
  case error_not_ready: return "cudaErrorNotReady";
  case error_launch_failure: return "cudaErrorLaunchFailure";
  case error_not_supported: return "cudaErrorNotSupported";
  case error_invalid_symbol: return "cudaErrorInvalidSymbol";
  case error_invalid_device_function: return "cudaErrorInvalidDeviceFunction";
  case error_invalid_resource_handle: return "cudaErrorInvalidResourceHandle";
  case error_illegal_address: return "cudaErrorIllegalAddress";
  case error_launch_out_of_resources: return "cudaErrorLaunchOutOfResources";
  case error_launch_timeout: return "cudaErrorLaunchTimeout";
  case error_assert: return "cudaErrorAssert";
  case error_cooperative_launch_too_large: return "cudaErrorCooperativeLaunchTooLarge";
  case error_stream_capture_unsupported: return "cudaErrorStreamCaptureUnsupported";
  case error_graph_exec_update_failure: return "cudaErrorGraphExecUpdateFailure";
  default: return "cudaErrorUnknown";
  }
}

// ---------------------------------------------------------------------------
// 1. Queues and streams
// Per-thread default streams (nvcc --default-stream per-thread, or
// CUDA_API_PER_THREAD_DEFAULT_STREAM defined before CUDA's headers): every
// translation unit of a program must agree, as the build flag makes them.
#if defined(CUDA_API_PER_THREAD_DEFAULT_STREAM) && !defined(SYCLIFY_PER_THREAD_DEFAULT_STREAM)
#define SYCLIFY_PER_THREAD_DEFAULT_STREAM 1
#endif
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
#if defined(SYCLIFY_NATIVE_STREAM_ORDER)
// The CUDA driver's functions the native stream order uses, from the driver
// the CUDA backend loaded (none where it is not loaded).
struct cuda_driver_api {
  using fn_event_create = int (*)(void **, unsigned);
  using fn_event_record = int (*)(void *, void *);
  using fn_event_destroy = int (*)(void *);
  using fn_stream_wait_event = int (*)(void *, void *, unsigned);
  using fn_stream_get_ctx = int (*)(void *, void **);
  using fn_ctx_push = int (*)(void *);
  using fn_ctx_pop = int (*)(void **);
  fn_event_create event_create = nullptr;
  fn_event_record event_record = nullptr;
  fn_event_destroy event_destroy = nullptr;
  fn_stream_wait_event stream_wait_event = nullptr;
  fn_stream_get_ctx stream_get_ctx = nullptr;
  fn_ctx_push ctx_push = nullptr;
  fn_ctx_pop ctx_pop = nullptr;
  bool ok = false;
};
inline const cuda_driver_api &cuda_driver() {
  static const cuda_driver_api api = [] {
    cuda_driver_api a;
    void *h = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
    if (!h)
      return a;
    a.event_create = reinterpret_cast<cuda_driver_api::fn_event_create>(dlsym(h, "cuEventCreate"));
    a.event_record = reinterpret_cast<cuda_driver_api::fn_event_record>(dlsym(h, "cuEventRecord"));
    a.event_destroy = reinterpret_cast<cuda_driver_api::fn_event_destroy>(dlsym(h, "cuEventDestroy_v2"));
    a.stream_wait_event = reinterpret_cast<cuda_driver_api::fn_stream_wait_event>(dlsym(h, "cuStreamWaitEvent"));
    a.stream_get_ctx = reinterpret_cast<cuda_driver_api::fn_stream_get_ctx>(dlsym(h, "cuStreamGetCtx"));
    a.ctx_push = reinterpret_cast<cuda_driver_api::fn_ctx_push>(dlsym(h, "cuCtxPushCurrent_v2"));
    a.ctx_pop = reinterpret_cast<cuda_driver_api::fn_ctx_pop>(dlsym(h, "cuCtxPopCurrent_v2"));
    a.ok = a.event_create && a.event_record && a.event_destroy && a.stream_wait_event && a.stream_get_ctx && a.ctx_push && a.ctx_pop;
    return a;
  }();
  return api;
}
#endif
// A queue's CUDA stream and an event of its own to record on it, for the
// native stream order (both null until first asked for, and where there is
// none).
struct native_link {
  const sycl::queue *for_queue = nullptr;
  void *stream = nullptr;
  void *event = nullptr;
  // the generation of the default stream's work the event was last
  // recorded after (the legacy default stream's link only)
  std::uint64_t recorded_at = 0;
  void release() {
#if defined(SYCLIFY_NATIVE_STREAM_ORDER)
    if (event)
      cuda_driver().event_destroy(event);
#endif
    *this = native_link{};
  }
};
// Makes `l` the link of `q`; false where the native order does not apply
// (not AdaptiveCpp's CUDA backend, a queue without a CUDA stream of its
// own, no driver found). Asked once a queue.
inline bool native_link_of(sycl::queue &q, native_link &l) {
#if defined(SYCLIFY_NATIVE_STREAM_ORDER)
  if (l.for_queue == &q)
    return l.event != nullptr;
  l.release();
  l.for_queue = &q;
  const cuda_driver_api &cu = cuda_driver();
  if (q.get_device().get_backend() != sycl::backend::cuda || !cu.ok)
    return false;
  hipsycl::rt::inorder_executor *exec = q.AdaptiveCpp_inorder_executor();
  if (!exec || !exec->get_queue())
    return false;
  void *stream = exec->get_queue()->get_native_type();
  void *ctx = nullptr;
  // (the event made in the stream's context, current for the call)
  if (!stream || cu.stream_get_ctx(stream, &ctx) != 0 || cu.ctx_push(ctx) != 0)
    return false;
  void *event = nullptr;
  // CU_EVENT_DISABLE_TIMING: an event for ordering only
  int made = cu.event_create(&event, 0x2);
  void *popped = nullptr;
  cu.ctx_pop(&popped);
  if (made != 0)
    return false;
  l.stream = stream;
  l.event = event;
  return true;
#else
  (void)q;
  (void)l;
  return false;
#endif
}
// The CUDA stream of `to` waits, on the device, for the work on `from`'s
// so far (its event recorded now, unless `recorded` says it was already
// for this work).
inline bool native_follow(const native_link &to, const native_link &from, bool recorded = false) {
#if defined(SYCLIFY_NATIVE_STREAM_ORDER)
  const cuda_driver_api &cu = cuda_driver();
  return (recorded || cu.event_record(from.event, from.stream) == 0) && cu.stream_wait_event(to.stream, from.event, 0) == 0;
#else
  (void)to;
  (void)from;
  (void)recorded;
  return false;
#endif
}

// A stream that synchronises with the legacy default stream (created
// without cudaStreamNonBlocking): the default stream's next work waits for
// the stream's work so far when `pending`, and the stream's next work waits
// for the default stream's work when `followed` is not the default stream's
// current generation (see default_queue and queue_of).
struct blocking_stream {
  sycl::queue *q;
  int device;
  std::uint64_t followed;
  bool pending;
  native_link link;
};
struct stream_registry {
  std::mutex m;
  // every live stream, for cudaDeviceSynchronize and cudaFree
  std::vector<sycl::queue *> queues;
  // the blocking ones (their count is read without the lock)
  std::vector<blocking_stream> blocking;
  std::atomic<int> blocking_count{0};
  // bumped whenever the legacy default stream may have received work
  std::uint64_t default_generation = 1;
  // the default stream's tail at default_tail_generation (streams that follow
  // the same generation share it)
  std::vector<sycl::event> default_tail;
  std::uint64_t default_tail_generation = 0;
  // the legacy default stream's native link (streams that follow the same
  // generation wait for the same record of its event)
  native_link default_link;
};
inline stream_registry &streams() {
  static stream_registry r;
  return r;
}
// Removes a queue from the registry (a destroyed stream, a thread's ended
// default stream).
inline void forget_stream(const sycl::queue *q) {
  stream_registry &r = streams();
  std::lock_guard<std::mutex> lock(r.m);
  for (auto it = r.queues.begin(); it != r.queues.end(); ++it)
    if (*it == q) {
      r.queues.erase(it);
      break;
    }
  for (auto it = r.blocking.begin(); it != r.blocking.end(); ++it)
    if (it->q == q) {
      it->link.release();
      r.blocking.erase(it);
      r.blocking_count.fetch_sub(1, std::memory_order_release);
      break;
    }
}
} // namespace detail

namespace detail {
// The devices cudaGetDeviceCount counts and cudaSetDevice picks from: the
// GPUs SYCL sees (all devices when there is no GPU), in SYCL's order; the
// default one is SYCL's default selection.
inline std::vector<sycl::device> &devices() {
  static std::vector<sycl::device> v = [] {
    std::vector<sycl::device> gpus = sycl::device::get_devices(sycl::info::device_type::gpu);
    return gpus.empty() ? sycl::device::get_devices() : gpus;
  }();
  return v;
}
inline int &current_device_index() {
  static int i = [] {
    sycl::device d{sycl::default_selector_v};
    auto &v = devices();
    for (std::size_t k = 0; k < v.size(); ++k)
      if (v[k] == d)
        return static_cast<int>(k);
    return 0;
  }();
  return i;
}
// Whether queues record profiling information: only when SYCLIFY_PROFILING=1
// is set. Profiling costs every command two device timestamps (AdaptiveCpp's
// CUDA backend: ~5 µs a launch); event timing does not need it where the
// device has a clock (see event_record).
inline bool queue_profiling() {
  static const bool on = [] {
    const char *v = std::getenv("SYCLIFY_PROFILING");
    return v && *v && std::string(v) != "0";
  }();
  return on;
}
// An in-order queue on `d` (with profiling when queue_profiling()).
inline sycl::queue make_queue(const sycl::context &c, const sycl::device &d) {
  if (queue_profiling() && d.has(sycl::aspect::queue_profiling))
    return sycl::queue(c, d, async_handler, sycl::property_list{sycl::property::queue::in_order{}, sycl::property::queue::enable_profiling{}});
  return sycl::queue(c, d, async_handler, sycl::property_list{sycl::property::queue::in_order{}});
}
struct default_queue_holder {
  std::mutex m;
  std::unique_ptr<sycl::queue> q;
  // the device index q is on; -1 before the first call (read without the
  // lock on the fast path of default_queue)
  std::atomic<int> device{-1};
};
// CUDA loads a kernel at its first launch (CUDA_MODULE_LOADING=LAZY, the
// driver's default since CUDA 12.2), and loading waits for the kernels
// running on the device. A CUDA kernel is one kernel wherever it is
// launched; migrated, every launch site is a kernel of its own, so a site's
// first launch beside a running kernel would wait for it (a kernel that
// spins until a kernel on another stream sets a flag would never see it).
// So the CUDA driver is asked to load a module's kernels together (EAGER),
// unless the environment chose already; SYCL implementations initialise the
// driver after static initialisation.
inline const bool module_loading_chosen = [] {
  if (!std::getenv("CUDA_MODULE_LOADING")) {
#if defined(_WIN32)
    _putenv_s("CUDA_MODULE_LOADING", "EAGER");
#else
    setenv("CUDA_MODULE_LOADING", "EAGER", 0);
#endif
  }
  return true;
}();
inline default_queue_holder &default_holder() {
  static default_queue_holder h;
  return h;
}
} // namespace detail

namespace detail {
// The legacy default stream of the current device: an in-order queue, made
// when first asked for (called before every launch and copy: looked up
// without a lock once it exists).
inline sycl::queue &legacy_queue() {
  auto &h = detail::default_holder();
  int dev = detail::current_device_index();
  if (h.device.load(std::memory_order_acquire) == dev)
    return *h.q;
  std::lock_guard<std::mutex> lock(h.m);
  if (!h.q || h.device.load(std::memory_order_relaxed) != dev) {
    if (h.q)
      h.q->wait();
    sycl::device d = detail::devices().at(static_cast<std::size_t>(dev));
    h.q = std::make_unique<sycl::queue>(detail::make_queue(sycl::context(d), d));
    h.device.store(dev, std::memory_order_release);
  }
  return *h.q;
}
// Events that complete when the work submitted to `q` so far has; no new
// command where the implementation can tell (AdaptiveCpp: the queue's wait
// list, empty when its last command is known to be done; DPC++: a barrier).
inline std::vector<sycl::event> tail_of(sycl::queue &q) {
#if defined(ACPP_EXT_QUEUE_WAIT_LIST) || defined(HIPSYCL_EXT_QUEUE_WAIT_LIST)
  return q.get_wait_list();
#elif defined(SYCL_EXT_ONEAPI_ENQUEUE_BARRIER)
  return {q.ext_oneapi_submit_barrier()};
#else
  return {q.single_task([] {})};
#endif
}
// Later work on the in-order queue `q` waits for `evs`, without the host
// waiting: a barrier or an empty operation that depends on them (a device-
// side wait between the two queues, as cudaStreamWaitEvent is).
inline void follow(sycl::queue &q, const std::vector<sycl::event> &evs) {
  if (evs.empty())
    return;
#if defined(SYCL_EXT_ONEAPI_ENQUEUE_BARRIER)
  q.ext_oneapi_submit_barrier(evs);
#elif defined(ACPP_EXT_ENQUEUE_CUSTOM_OPERATION)
  q.submit([&](sycl::handler &h) {
    h.depends_on(evs);
    h.AdaptiveCpp_enqueue_custom_operation([](sycl::interop_handle &) {});
  });
#else
  q.submit([&](sycl::handler &h) {
    h.depends_on(evs);
    h.single_task([] {});
  });
#endif
}
// CUDA's legacy default stream: work on it waits for the work of every
// blocking stream of its device submitted before it, and their later work
// waits for it. Emulated with dependencies between queues only where work
// crossed from one to the other since they last met: a program without
// blocking streams pays one relaxed load per call, one whose streams are all
// non-blocking the same.
inline void default_follows_streams(sycl::queue &q, int dev) {
  stream_registry &r = streams();
  std::vector<sycl::event> deps;
  std::lock_guard<std::mutex> lock(r.m);
  bool native = native_link_of(q, r.default_link);
  for (blocking_stream &b : r.blocking)
    if (b.pending && b.device == dev) {
      if (!(native && native_link_of(*b.q, b.link) && native_follow(r.default_link, b.link)))
        for (sycl::event &e : tail_of(*b.q))
          deps.push_back(std::move(e));
      b.pending = false;
    }
  follow(q, deps);
  ++r.default_generation;
}
inline void stream_follows_default(sycl::queue &s) {
  stream_registry &r = streams();
  std::lock_guard<std::mutex> lock(r.m);
  for (blocking_stream &b : r.blocking)
    if (b.q == &s) {
      if (b.followed != r.default_generation) {
        if (b.device == default_holder().device.load(std::memory_order_acquire)) {
          sycl::queue &d = legacy_queue();
          if (native_link_of(d, r.default_link) && native_link_of(s, b.link) &&
              native_follow(b.link, r.default_link, r.default_link.recorded_at == r.default_generation)) {
            r.default_link.recorded_at = r.default_generation;
          } else {
            if (r.default_tail_generation != r.default_generation) {
              r.default_tail = tail_of(d);
              r.default_tail_generation = r.default_generation;
            }
            follow(s, r.default_tail);
          }
        }
        b.followed = r.default_generation;
      }
      b.pending = true;
      return;
    }
}
#if defined(SYCLIFY_PER_THREAD_DEFAULT_STREAM)
// nvcc --default-stream per-thread (CUDA_API_PER_THREAD_DEFAULT_STREAM): each
// host thread's default stream is its own in-order queue, which synchronises
// with no other stream; registered as a stream while the thread lives.
struct per_thread_queue_holder {
  std::unique_ptr<sycl::queue> q;
  int device = -1;
  void release() {
    if (!q)
      return;
    q->wait();
    forget_stream(q.get());
    q.reset();
  }
  ~per_thread_queue_holder() { release(); }
};
inline sycl::queue &per_thread_queue() {
  static thread_local per_thread_queue_holder h;
  int dev = current_device_index();
  if (h.device != dev || !h.q) {
    h.release();
    sycl::queue &d = legacy_queue();
    h.q = std::make_unique<sycl::queue>(make_queue(d.get_context(), d.get_device()));
    h.device = dev;
    std::lock_guard<std::mutex> lock(streams().m);
    streams().queues.push_back(h.q.get());
  }
  return *h.q;
}
#endif
} // namespace detail

// The default stream, the queue of launches and copies without a stream.
// CUDA's legacy default stream (see detail::default_follows_streams), or with
// SYCLIFY_PER_THREAD_DEFAULT_STREAM (nvcc --default-stream per-thread) the
// calling thread's own queue.
inline sycl::queue &default_queue() {
#if defined(SYCLIFY_PER_THREAD_DEFAULT_STREAM)
  return detail::per_thread_queue();
#else
  sycl::queue &q = detail::legacy_queue();
  if (detail::streams().blocking_count.load(std::memory_order_acquire) != 0)
    detail::default_follows_streams(q, detail::current_device_index());
  return q;
#endif
}

namespace detail {
// Delivers the errors queues have collected to the async handler.
inline void flush_async_errors() {
  default_queue().throw_asynchronous();
  std::lock_guard<std::mutex> lock(streams().m);
  for (sycl::queue *q : streams().queues)
    q->throw_asynchronous();
}
} // namespace detail

// cudaStream_t: a pointer to an in-order queue; 0 is the default stream.
using stream_t = sycl::queue *;

// The queue a launch or copy on `s` goes to (a blocking stream's first work
// after the legacy default stream's waits for it).
inline sycl::queue &queue_of(stream_t s) {
  if (!s)
    return default_queue();
  if (detail::streams().blocking_count.load(std::memory_order_acquire) != 0)
    detail::stream_follows_default(*s);
  return *s;
}

// Stream flags with CUDA's values (cudaStreamDefault, cudaStreamNonBlocking).
// cudaStreamDefault is the flag 0, which programs also pass where a stream
// is expected (CUDA takes that 0 as the default stream): it converts to both.
struct stream_flag_zero {
  constexpr operator unsigned() const { return 0; }
  constexpr operator stream_t() const { return nullptr; }
};
constexpr stream_flag_zero stream_default{};
constexpr unsigned stream_non_blocking = 1;

namespace detail {
// A new in-order queue on the default stream's device and context, with a
// priority where the implementation takes one (CUDA's convention: lower is
// more urgent; 0 is the default).
inline sycl::queue *new_stream_queue(int priority) {
  sycl::queue &d = legacy_queue();
#if defined(ACPP_EXT_QUEUE_PRIORITY)
  if (priority != 0)
    return new sycl::queue(d.get_context(), d.get_device(), async_handler,
                           sycl::property_list{sycl::property::queue::in_order{}, sycl::property::queue::AdaptiveCpp_priority{priority}});
#elif defined(SYCL_EXT_ONEAPI_QUEUE_PRIORITY)
  if (priority < 0)
    return new sycl::queue(d.get_context(), d.get_device(), async_handler,
                           sycl::property_list{sycl::property::queue::in_order{}, sycl::ext::oneapi::property::queue::priority_high{}});
  if (priority > 0)
    return new sycl::queue(d.get_context(), d.get_device(), async_handler,
                           sycl::property_list{sycl::property::queue::in_order{}, sycl::ext::oneapi::property::queue::priority_low{}});
#endif
  (void)priority;
  return new sycl::queue(make_queue(d.get_context(), d.get_device()));
}
inline error_t create_stream(stream_t *s, unsigned flags, int priority) {
  if (!s)
    return record(error_invalid_value);
  return guarded([&] {
    *s = new_stream_queue(priority);
    stream_registry &r = streams();
    std::lock_guard<std::mutex> lock(r.m);
    r.queues.push_back(*s);
    if ((flags & stream_non_blocking) == 0) {
      // follows the default stream's work so far at its first use
      r.blocking.push_back(blocking_stream{*s, default_holder().device.load(std::memory_order_acquire), 0, false});
      r.blocking_count.fetch_add(1, std::memory_order_release);
    }
  });
}
} // namespace detail

// cudaStreamCreate: a blocking stream (synchronises with the legacy default stream).
inline error_t stream_create(stream_t *s) { return detail::create_stream(s, stream_default, 0); }
// cudaStreamCreateWithFlags: cudaStreamNonBlocking streams do not synchronise
// with the default stream.
inline error_t stream_create_with_flags(stream_t *s, unsigned flags = stream_default) { return detail::create_stream(s, flags, 0); }
// cudaStreamCreateWithPriority: the priority is passed on where the SYCL
// implementation takes one (AdaptiveCpp on CUDA: the CUDA stream's priority).
inline error_t stream_create_with_priority(stream_t *s, unsigned flags, int priority) { return detail::create_stream(s, flags, priority); }

// cudaStreamDestroy: waits for the queue's work, then releases it.
inline error_t stream_destroy(stream_t s) {
  if (!s)
    return detail::record(error_invalid_value);
  error_t e = detail::guarded([&] { s->wait_and_throw(); });
  detail::forget_stream(s);
  delete s;
  return e;
}

// cudaStreamSynchronize
inline error_t stream_synchronize(stream_t s) {
  return detail::guarded([&] { queue_of(s).wait_and_throw(); });
}

namespace detail {
// Waits for the default queue and every live stream (errors rethrown, or
// left to the async handler).
inline void wait_for_device(bool rethrow) {
  auto wait = [rethrow](sycl::queue &q) { rethrow ? q.wait_and_throw() : q.wait(); };
  wait(legacy_queue());
  std::lock_guard<std::mutex> lock(streams().m);
  for (sycl::queue *q : streams().queues)
    wait(*q);
}
} // namespace detail

// cudaDeviceSynchronize: waits for the default queue and every live stream.
inline error_t device_synchronize() {
  return detail::guarded([&] { detail::wait_for_device(true); });
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
  error_t e = detail::guarded([&] { mem = sycl::malloc_device(bytes, detail::legacy_queue()); });
  return e != success ? e : detail::allocate(p, bytes, mem);
}
// cudaMallocManaged (flags are ignored: shared USM is visible to the host and every device of the context)
template <class T> error_t malloc_shared(T **p, std::size_t bytes, unsigned = 0) {
  void *mem = nullptr;
  error_t e = detail::guarded([&] { mem = sycl::malloc_shared(bytes, detail::legacy_queue()); });
  return e != success ? e : detail::allocate(p, bytes, mem);
}
// cudaMallocHost
template <class T> error_t malloc_host(T **p, std::size_t bytes) {
  void *mem = nullptr;
  error_t e = detail::guarded([&] { mem = sycl::malloc_host(bytes, detail::legacy_queue()); });
  return e != success ? e : detail::allocate(p, bytes, mem);
}
// Helpers whose CUDA-derived name would be a C library function (free,
// memcpy, memset) carry the prefix `usm_`: argument-dependent lookup would
// otherwise make a user's own `free(events)` on an array of syclify types
// ambiguous with ::free.
// cudaFree / cudaFreeHost (a null pointer is no error, as in CUDA)
// cudaFree / cudaFreeHost wait for the device first, as CUDA's do (an
// implicit device synchronisation): a kernel still running on any stream may
// use the memory. sycl::free does not wait.
namespace detail {
// A graph's memory allocation freed by the program (cudaFree, cudaFreeAsync)
// is given back to its graph, which keeps it at the same address for its
// next launch, as CUDA does (graph.hpp): whether p was one.
bool graph_release(void *p);
inline std::atomic<int> &graph_allocations() {
  static std::atomic<int> n{0};
  return n;
}
// Whether p was a graph's allocation, now given back to it (one relaxed load
// where no graph holds memory).
inline bool given_back_to_graph(void *p) { return graph_allocations().load(std::memory_order_relaxed) && graph_release(p); }
} // namespace detail
inline error_t usm_free(void *p) {
  return detail::guarded([&] {
    if (!p)
      return;
    detail::wait_for_device(true);
    if (detail::given_back_to_graph(p))
      return;
    sycl::free(p, detail::legacy_queue());
  });
}
// the statement form: frees nothing for a null pointer, as CUDA does (SYCL
// implementations may report one as unknown)
inline void usm_free(void *p, const sycl::queue &q) {
  if (!p)
    return;
  detail::wait_for_device(false);
  if (detail::given_back_to_graph(p))
    return;
  sycl::free(p, q);
}
// cudaMemcpy: synchronous, like CUDA's; the direction is implied by the USM pointers.
inline error_t usm_memcpy(void *dst, const void *src, std::size_t bytes, memcpy_kind = memcpy_default) {
  return detail::guarded([&] { default_queue().memcpy(dst, src, bytes).wait_and_throw(); });
}
// cudaMemset: sets `bytes` bytes to the low byte of `value`, synchronously.
inline error_t usm_memset(void *p, int value, std::size_t bytes) {
  return detail::guarded([&] { default_queue().memset(p, value, bytes).wait_and_throw(); });
}

// ---------------------------------------------------------------------------
// 4. Launch support
// A kernel launch (k<<<...>>>): submits the command group to the stream's
// queue. A launch SYCL rejects when it is submitted (e.g. a work-group larger
// than the device allows) becomes the error get_last_error() returns, and
// errors reported asynchronously reach it through the queues' async handler,
// so CUDA's `k<<<...>>>(); if (cudaGetLastError() != cudaSuccess)` still works.
namespace detail {
// CUDA graphs (graph.hpp): while a stream captures (cudaStreamBeginCapture),
// launches and asynchronous operations on its queue are recorded as nodes of
// the graph instead of submitted, each depending on the stream's last ones
// (its frontier), and cudaGraphLaunch submits them again. A recorded launch
// keeps its command group, which reads the variables it names when it is
// submitted (CUDA reads kernel arguments at capture).
struct graph_rec;
struct graph_node;
using graph_op = std::function<void(sycl::queue &)>;
// A stream taking part in a capture: the graph and the nodes its next
// operation depends on. Streams join a capture by waiting for an event
// recorded on a capturing stream (fork and join, as in CUDA).
struct capture_entry {
  const sycl::queue *q;
  graph_rec *g;
  std::vector<graph_node *> frontier;
  bool origin; // the stream whose cudaStreamEndCapture ends the capture
};
struct capture_registry {
  std::mutex m;
  std::atomic<int> active{0};
  std::vector<std::unique_ptr<capture_entry>> by_queue;
};
inline capture_registry &captures() {
  static capture_registry r;
  return r;
}
// The capture `q` takes part in, or null (one relaxed load when none captures).
inline capture_entry *capturing(const sycl::queue &q) {
  capture_registry &c = captures();
  if (c.active.load(std::memory_order_relaxed) == 0)
    return nullptr;
  std::lock_guard<std::mutex> lock(c.m);
  for (auto &e : c.by_queue)
    if (e->q == &q)
      return e.get();
  return nullptr;
}
// Records `op` as a node of the capture (graph.hpp): `type` is the
// graph_node_type it counts as (0: kernel).
void graph_record(capture_entry *c, graph_op op, int type);
// A device's work-group limits, which launch_range checks every launch
// against: asked once per device and thread (the last device asked is kept),
// not at every launch.
struct launch_limits {
  std::size_t max_wg;
  sycl::id<3> max_dims;
  // for cooperative launches: compute units and local memory per work-group
  std::size_t compute_units, local_mem;
};
inline const launch_limits &limits_of(const sycl::device &d) {
  static thread_local std::optional<sycl::device> dev;
  static thread_local launch_limits l{};
  if (!dev || *dev != d) {
    l.max_wg = d.get_info<sycl::info::device::max_work_group_size>();
    l.max_dims = d.get_info<sycl::info::device::max_work_item_sizes<3>>();
    l.compute_units = d.get_info<sycl::info::device::max_compute_units>();
    l.local_mem = d.get_info<sycl::info::device::local_mem_size>();
    dev = d;
  }
  return l;
}
// The occupancy model (SYCL 2020 exposes neither registers nor the
// per-compute-unit limits): a compute unit runs 2 x max_work_group_size
// work-items, in at most 2 x max_work_group_size / 32 work-groups, and as
// much local memory as one work-group may have. Work-groups of `block`
// work-items with `local_bytes` of local memory one compute unit runs at once.
// The environment variable SYCLIFY_GROUPS_PER_CU caps the figure (registers
// the model cannot see: a grid barrier's watchdog says when it is needed).
inline std::size_t groups_per_compute_unit(std::size_t max_wg, std::size_t local_mem, std::size_t block, std::size_t local_bytes) {
  if (block == 0 || block > max_wg)
    return 0;
  std::size_t n = std::min(2 * max_wg / block, 2 * max_wg / 32);
  if (local_bytes > 0)
    n = std::min(n, local_mem / local_bytes);
  static const std::size_t cap = [] {
    const char *v = std::getenv("SYCLIFY_GROUPS_PER_CU");
    long c = v ? std::strtol(v, nullptr, 10) : 0;
    return c > 0 ? static_cast<std::size_t>(c) : std::size_t{0};
  }();
  return cap > 0 ? std::min(n, cap) : n;
}
// The queue of the launch being submitted (for the grid barrier).
inline sycl::queue *&launch_queue() {
  static thread_local sycl::queue *q = nullptr;
  return q;
}
// A grid barrier's state in device memory (see cg::grid_group): the
// arrival counter and the watchdog's flag, each on a cache line of its own.
struct grid_state {
  alignas(128) unsigned arrived;
  alignas(128) unsigned broken;
};
// Set by grid_sync_for when a launch's configuration is new on its queue:
// the launch then waits for the kernel and checks that its barrier held.
inline grid_state *&grid_check() {
  static thread_local grid_state *s = nullptr;
  return s;
}
void check_grid_launch(sycl::queue &q, grid_state *s);
// The limits of the device of the launch being submitted (for launch_range).
inline const launch_limits *&launch_device() {
  static thread_local const launch_limits *l = nullptr;
  return l;
}
void prepare_symbols();
} // namespace detail
// A kernel launch: submits the command group to q. Per launch it costs a
// graph-capture check (one relaxed load), a device-globals check (one
// acquire load once they are allocated) and the cached limits; the command
// group is forwarded, not copied.
template <class CG> void launch(sycl::queue &q, CG &&cg) {
  if (detail::capture_entry *g = detail::capturing(q)) {
    detail::graph_record(g, [c = std::decay_t<CG>(std::forward<CG>(cg))](sycl::queue &rq) { launch(rq, c); }, 0);
    return;
  }
  try {
    // device globals are allocated before the command group runs (they
    // cannot submit their initial copy from inside it)
    detail::prepare_symbols();
    detail::launch_device() = &detail::limits_of(q.get_device());
    detail::launch_queue() = &q;
#if defined(ACPP_EXT_COARSE_GRAINED_EVENTS) && !defined(SYCLIFY_FINE_GRAINED_EVENTS)
    // AdaptiveCpp: the launch's event is coarse-grained (the queue's
    // progress, not a CUDA event of its own; nothing waits on a launch's
    // event: event_record and the stream functions keep their own). Kernels
    // queued back to back then run without the ~2 µs the GPU spends on each
    // kernel's event (H100: a 2.4 µs kernel queued behind another, 4.5 µs with
    // its event, 2.4 µs without), and with instant submission (above) the
    // host's launch is cheaper too (5.9 against 7.0 µs). Define
    // SYCLIFY_FINE_GRAINED_EVENTS for an event per launch.
    q.submit(sycl::property_list{sycl::property::command_group::AdaptiveCpp_coarse_grained_events{}}, std::forward<CG>(cg));
#else
    q.submit(std::forward<CG>(cg));
#endif
    detail::launch_device() = nullptr;
    detail::launch_queue() = nullptr;
    if (detail::grid_state *s = detail::grid_check()) {
      detail::grid_check() = nullptr;
      detail::check_grid_launch(q, s);
    }
  } catch (const sycl::exception &ex) {
    detail::launch_device() = nullptr;
    detail::launch_queue() = nullptr;
    detail::grid_check() = nullptr;
    detail::from_exception(ex);
  }
}
// cudaLaunchKernel, cudaLaunchCooperativeKernel: a launch whose status is
// the call's value (and, when it failed, the last error, as in CUDA). A
// configuration over the device's limits is cudaErrorInvalidValue here,
// where <<<>>> reports cudaErrorInvalidConfiguration (both measured with
// nvcc 13: a block of 4096 threads).
template <class CG> error_t launch_status(sycl::queue &q, CG &&cg) {
  error_t saved = detail::last_error();
  detail::last_error() = success;
  launch(q, std::forward<CG>(cg));
  if (detail::last_error() == error_invalid_configuration)
    detail::last_error() = error_invalid_value;
  error_t e = detail::last_error();
  if (e == success)
    detail::last_error() = saved;
  return e;
}
// The arguments of cudaLaunchKernel's `void **args` (one pointer per
// parameter, to a value of the parameter's type), read on the host into a
// tuple of the kernel's N own parameter types: those before position At and
// those after the Extra parameters syclify adds there (the nd_item and the
// rest go before the first parameter with a default argument).
// (the type of packed argument I: the kernel parameter I, or I + Extra past At)
template <std::size_t I, std::size_t At, std::size_t Extra, class T> using packed_param_t = std::tuple_element_t<(I < At ? I : I + Extra), T>;
template <std::size_t At, std::size_t Extra, class... P, std::size_t... I> auto unpack_args_of(void **args, std::index_sequence<I...>) {
  using T = std::tuple<std::decay_t<P>...>;
  return std::tuple<packed_param_t<I, At, Extra, T>...>(*static_cast<packed_param_t<I, At, Extra, T> *>(args[I])...);
}
template <std::size_t N, std::size_t At = N, std::size_t Extra = 0, class R, class... P> auto unpack_args(R (*)(P...), void **args) {
  static_assert(N + Extra <= sizeof...(P), "more arguments than the kernel has parameters");
  return unpack_args_of<At, Extra, P...>(args, std::make_index_sequence<N>{});
}
// The nd_range of a launch: sycl::nd_range<3>(grid * block, block), checked
// like CUDA checks a launch (a block over the device's work-group limits is an
// invalid configuration, reported by get_last_error) before anything runs.
inline sycl::nd_range<3> launch_range(const sycl::range<3> &grid, const sycl::range<3> &block) {
  if (const detail::launch_limits *l = detail::launch_device()) {
    const std::size_t max_wg = l->max_wg;
    const sycl::id<3> &max_dims = l->max_dims;
    bool ok = block.size() > 0 && block.size() <= max_wg && grid.size() > 0;
    for (int i = 0; i < 3; ++i)
      ok = ok && block[i] <= max_dims[i];
    if (!ok)
      throw sycl::exception(sycl::make_error_code(sycl::errc::nd_range), "invalid launch configuration");
  }
  return sycl::nd_range<3>(grid * block, block);
}

// A grid or block given as an integer n is the SYCL range (1, 1, n); a range
// is itself (CUDA dim3 values are migrated to already-reversed ranges).
inline sycl::range<3> as_range3(const sycl::range<3> &r) { return r; }
template <class T, typename std::enable_if<std::is_integral<T>::value, int>::type = 0>
sycl::range<3> as_range3(T n) {
  return sycl::range<3>(1, 1, static_cast<std::size_t>(n));
}

// The type a kernel template parameter `T` of a parameter `T *p` is deduced
// as from an argument of type P (local memory of `T` is sized at the launch).
template <class P> using pointee_t = std::remove_cv_t<std::remove_pointer_t<std::decay_t<P>>>;

// A raw pointer to the start of a work-group local allocation. (Written as
// &acc[0] rather than get_multi_ptr(), which AdaptiveCpp only has since 25.02.)
template <class T> T *local_ptr(const sycl::local_accessor<T, 1> &acc) {
  return &acc[0];
}

// Local memory is allocated in 16-byte units, so that its start is 16-byte
// aligned, and the compiler is told so: it may then combine neighbouring
// accesses into vector loads (PTX ld.shared.v4), as nvcc does for a
// __shared__ array. (SYCL implementations align a local allocation to its
// element type: AdaptiveCpp to sizeof(T), so a float array alone would be
// 4-byte aligned.)
struct alignas(16) local_chunk {
  unsigned char bytes[16];
};
// (a kernel says it of each `__shared__` array where it was declared: an
// assumption made only at the launch may be lost before the kernel's loops)
template <class T> T *assume_local_aligned(T *p) {
#if defined(__clang__) || defined(__GNUC__)
  // (through `const void *`: a `volatile` array's pointer too)
  const void *raw = const_cast<const void *>(static_cast<const volatile void *>(p));
  return static_cast<T *>(__builtin_assume_aligned(raw, alignof(local_chunk)));
#else
  return p;
#endif
}

// A kernel's static `__shared__ T name[n]`, allocated in the launch's command
// group: n elements of T, 16-byte aligned. local_ptr gives the kernel its
// pointer; a scalar `__shared__ T x` is element 0.
template <class T> class local_array {
  sycl::local_accessor<local_chunk, 1> acc_;

public:
  template <class N, typename std::enable_if<std::is_integral<N>::value, int>::type = 0>
  local_array(N n, sycl::handler &cgh)
      : acc_(sycl::range<1>((static_cast<std::size_t>(n) * sizeof(T) + sizeof(local_chunk) - 1) / sizeof(local_chunk)), cgh) {}
  T *get() const { return assume_local_aligned(reinterpret_cast<T *>(&acc_[0])); }
  T &operator[](std::size_t i) const { return get()[i]; }
};
template <class T> T *local_ptr(const local_array<T> &a) {
  return a.get();
}

// Dynamic shared memory (`extern __shared__`): one buffer of `bytes` bytes
// per work-group, 16-byte aligned like CUDA's.
inline sycl::local_accessor<local_chunk, 1> dynamic_local_memory(std::size_t bytes, sycl::handler &cgh) {
  // (at least one chunk: a launch may give size 0 to a kernel that takes the buffer)
  const std::size_t chunks = (bytes + sizeof(local_chunk) - 1) / sizeof(local_chunk);
  return sycl::local_accessor<local_chunk, 1>(sycl::range<1>(chunks > 0 ? chunks : 1), cgh);
}
inline unsigned char *local_bytes(const sycl::local_accessor<local_chunk, 1> &acc) {
  return assume_local_aligned(reinterpret_cast<unsigned char *>(local_ptr(acc)));
}
// A launch whose kernel is a macro parameter and whose configuration gives
// dynamic local memory (`k<<<g, b, smem, s>>>(__VA_ARGS__)` in a macro):
// `call` is the kernel call with its extra arguments left open; the buffer
// is passed where the kernel takes one (an `extern __shared__` user),
// else only the nd_item. Decided by the compiler for each use.
template <class Call> inline void call_with_local(Call &&call, const sycl::nd_item<3> &item, unsigned char *local) {
  if constexpr (std::is_invocable_v<Call &, const sycl::nd_item<3> &, unsigned char *>) {
    call(item, local);
  } else {
    call(item);
  }
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

// The sub-group size warp code is compiled for (kernels that use warp
// operations carry [[sycl::reqd_sub_group_size(32)]]): `warpSize` where no
// nd_item can be named, e.g. in a default argument.
constexpr int warp_size = 32;

namespace detail {
// The GPU's global nanosecond timer (%globaltimer) on NVIDIA, else no_clock:
// event markers' timestamps and the grid barrier's watchdog.
constexpr std::uint64_t no_clock = ~std::uint64_t{0};
inline std::uint64_t marker_clock_ns() {
#if defined(SYCLIFY_NVPTX_DEVICE)
  std::uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
#else
  return no_clock;
#endif
}
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
// __reduce_add/min/max/and/or/xor_sync(mask, v) (sm_80's redux.sync): every
// lane in mask gets the reduction of their values. On NVIDIA sm_80 and later
// the hardware's redux.sync itself (so a call by lanes outside mask behaves
// as under CUDA: the threads that execute it take part); on older NVIDIA a
// partial mask reduces with shfl.sync over the members; elsewhere (and for
// the full mask) SYCL's reduce_over_group, lanes outside mask contributing
// the identity.
namespace detail {
#if defined(SYCLIFY_NVPTX_DEVICE) && (!defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800)
#define SYCLIFY_REDUX 1
#define SYCLIFY_REDUX_OP(NAME, INSN)                                                                                   \
  inline unsigned NAME(unsigned mask, unsigned v) {                                                                     \
    unsigned r;                                                                                                         \
    asm volatile(INSN " %0, %1, %2;" : "=r"(r) : "r"(v), "r"(mask));                                                   \
    return r;                                                                                                           \
  }
SYCLIFY_REDUX_OP(redux_add, "redux.sync.add.u32")
SYCLIFY_REDUX_OP(redux_min_u, "redux.sync.min.u32")
SYCLIFY_REDUX_OP(redux_max_u, "redux.sync.max.u32")
SYCLIFY_REDUX_OP(redux_min_s, "redux.sync.min.s32")
SYCLIFY_REDUX_OP(redux_max_s, "redux.sync.max.s32")
SYCLIFY_REDUX_OP(redux_and, "redux.sync.and.b32")
SYCLIFY_REDUX_OP(redux_or, "redux.sync.or.b32")
SYCLIFY_REDUX_OP(redux_xor, "redux.sync.xor.b32")
#undef SYCLIFY_REDUX_OP
#endif
template <class T, class Op> T reduce_sync(const sycl::nd_item<3> &item, unsigned mask, T v, Op op, T identity) {
#if defined(SYCLIFY_REDUX)
  if constexpr (sizeof(T) == 4 && std::is_integral_v<T>) {
    const unsigned u = static_cast<unsigned>(v);
    unsigned r;
    if constexpr (std::is_same_v<Op, sycl::plus<T>>)
      r = redux_add(mask, u);
    else if constexpr (std::is_same_v<Op, sycl::minimum<T>>)
      r = std::is_signed_v<T> ? redux_min_s(mask, u) : redux_min_u(mask, u);
    else if constexpr (std::is_same_v<Op, sycl::maximum<T>>)
      r = std::is_signed_v<T> ? redux_max_s(mask, u) : redux_max_u(mask, u);
    else if constexpr (std::is_same_v<Op, sycl::bit_and<T>>)
      r = redux_and(mask, u);
    else if constexpr (std::is_same_v<Op, sycl::bit_or<T>>)
      r = redux_or(mask, u);
    else
      r = redux_xor(mask, u);
    return static_cast<T>(r);
  }
#endif
#if defined(SYCLIFY_NVPTX_DEVICE)
  if (mask != full_mask) {
    T r = identity;
    for (int l = 0; l < 32; ++l)
      if ((mask >> l) & 1u)
        r = op(r, shfl(item, mask, v, l));
    return r;
  }
  return sycl::reduce_over_group(item.get_sub_group(), v, op);
#else
  unsigned lane = lane_id(item);
  return sycl::reduce_over_group(item.get_sub_group(), ((mask >> lane) & 1u) ? v : identity, op);
#endif
}
} // namespace detail
template <class T> T reduce_add_sync(const sycl::nd_item<3> &item, unsigned mask, T v) {
  return detail::reduce_sync(item, mask, v, sycl::plus<T>(), T(0));
}
template <class T> T reduce_min_sync(const sycl::nd_item<3> &item, unsigned mask, T v) {
  return detail::reduce_sync(item, mask, v, sycl::minimum<T>(), std::numeric_limits<T>::max());
}
template <class T> T reduce_max_sync(const sycl::nd_item<3> &item, unsigned mask, T v) {
  return detail::reduce_sync(item, mask, v, sycl::maximum<T>(), std::numeric_limits<T>::lowest());
}
inline unsigned reduce_and_sync(const sycl::nd_item<3> &item, unsigned mask, unsigned v) {
  return detail::reduce_sync(item, mask, v, sycl::bit_and<unsigned>(), ~0u);
}
inline unsigned reduce_or_sync(const sycl::nd_item<3> &item, unsigned mask, unsigned v) {
  return detail::reduce_sync(item, mask, v, sycl::bit_or<unsigned>(), 0u);
}
inline unsigned reduce_xor_sync(const sycl::nd_item<3> &item, unsigned mask, unsigned v) {
  return detail::reduce_sync(item, mask, v, sycl::bit_xor<unsigned>(), 0u);
}
// __nanosleep(ns): the hardware's nanosleep on NVIDIA (sm_70+), else nothing
// (a hint: CUDA sleeps "approximately" ns, between 0 and 2 * ns).
inline void nanosleep(unsigned ns) {
#if defined(SYCLIFY_NVPTX_DEVICE) && (!defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 700)
  asm volatile("nanosleep.u32 %0;" ::"r"(ns));
#else
  (void)ns;
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

// System scope on NVIDIA (atomicX_system: the host or another GPU touches
// the same managed or pinned memory at once): the hardware's atom.sys. (LLVM's
// NVPTX backend lowers every atomic_ref to the GPU scope's atom, whatever its
// memory_scope: host and device updates would then be lost.)
namespace detail {
#if defined(SYCLIFY_NVPTX_DEVICE)
// (integers: CUDA's *_system operations on them all have an atom.sys form;
// a float's system-scope add keeps the portable form)
template <class T> constexpr bool sys_atomic_v = std::is_integral_v<T> && (sizeof(T) == 4 || sizeof(T) == 8);
#define SYCLIFY_SYS_ATOM(op, t32, t64, f32, f64)                                                                       \
  template <class T> T sys_##op(T *p, T v) {                                                                          \
    if constexpr (std::is_floating_point_v<T> && sizeof(T) == 4) {                                                    \
      T r;                                                                                                            \
      asm volatile("atom.sys." #op "." f32 " %0, [%1], %2;" : "=f"(r) : "l"(p), "f"(v) : "memory");                   \
      return r;                                                                                                       \
    } else if constexpr (std::is_floating_point_v<T>) {                                                               \
      T r;                                                                                                            \
      asm volatile("atom.sys." #op "." f64 " %0, [%1], %2;" : "=d"(r) : "l"(p), "d"(v) : "memory");                   \
      return r;                                                                                                       \
    } else if constexpr (sizeof(T) == 4) {                                                                            \
      T r;                                                                                                            \
      asm volatile("atom.sys." #op "." t32 " %0, [%1], %2;" : "=r"(r) : "l"(p), "r"(v) : "memory");                   \
      return r;                                                                                                       \
    } else {                                                                                                          \
      T r;                                                                                                            \
      asm volatile("atom.sys." #op "." t64 " %0, [%1], %2;" : "=l"(r) : "l"(p), "l"(v) : "memory");                   \
      return r;                                                                                                       \
    }                                                                                                                 \
  }
SYCLIFY_SYS_ATOM(add, "u32", "u64", "f32", "f64")
SYCLIFY_SYS_ATOM(exch, "b32", "b64", "b32", "b64")
SYCLIFY_SYS_ATOM(and, "b32", "b64", "b32", "b64")
SYCLIFY_SYS_ATOM(or, "b32", "b64", "b32", "b64")
SYCLIFY_SYS_ATOM(xor, "b32", "b64", "b32", "b64")
#undef SYCLIFY_SYS_ATOM
template <class T> T sys_minmax(T *p, T v, bool is_max) {
  T r;
  if constexpr (sizeof(T) == 4 && std::is_signed_v<T>) {
    if (is_max)
      asm volatile("atom.sys.max.s32 %0, [%1], %2;" : "=r"(r) : "l"(p), "r"(v) : "memory");
    else
      asm volatile("atom.sys.min.s32 %0, [%1], %2;" : "=r"(r) : "l"(p), "r"(v) : "memory");
  } else if constexpr (sizeof(T) == 4) {
    if (is_max)
      asm volatile("atom.sys.max.u32 %0, [%1], %2;" : "=r"(r) : "l"(p), "r"(v) : "memory");
    else
      asm volatile("atom.sys.min.u32 %0, [%1], %2;" : "=r"(r) : "l"(p), "r"(v) : "memory");
  } else if constexpr (std::is_signed_v<T>) {
    if (is_max)
      asm volatile("atom.sys.max.s64 %0, [%1], %2;" : "=l"(r) : "l"(p), "l"(v) : "memory");
    else
      asm volatile("atom.sys.min.s64 %0, [%1], %2;" : "=l"(r) : "l"(p), "l"(v) : "memory");
  } else {
    if (is_max)
      asm volatile("atom.sys.max.u64 %0, [%1], %2;" : "=l"(r) : "l"(p), "l"(v) : "memory");
    else
      asm volatile("atom.sys.min.u64 %0, [%1], %2;" : "=l"(r) : "l"(p), "l"(v) : "memory");
  }
  return r;
}
template <class T> T sys_cas(T *p, T expected, T desired) {
  T r;
  if constexpr (sizeof(T) == 4)
    asm volatile("atom.sys.cas.b32 %0, [%1], %2, %3;" : "=r"(r) : "l"(p), "r"(expected), "r"(desired) : "memory");
  else
    asm volatile("atom.sys.cas.b64 %0, [%1], %2, %3;" : "=l"(r) : "l"(p), "l"(expected), "l"(desired) : "memory");
  return r;
}
// the system-scope form where the hardware has one for T
template <sycl::memory_scope S, class T> constexpr bool use_sys_v = S == sycl::memory_scope::system && sys_atomic_v<T>;
#else
template <sycl::memory_scope S, class T> constexpr bool use_sys_v = false;
#endif
} // namespace detail

#if defined(SYCLIFY_NVPTX_DEVICE)
#define SYCLIFY_SYS_CALL(call)                                                                                        \
  if constexpr (detail::use_sys_v<S, T>) {                                                                            \
    return call;                                                                                                      \
  } else
#else
#define SYCLIFY_SYS_CALL(call)
#endif
#define SYCLIFY_ATOMIC_RMW(name, op, sys)                                                                               \
  template <sycl::memory_scope S = sycl::memory_scope::device, class T, class U> T atomic_##name(T *p, U v) {         \
    SYCLIFY_SYS_CALL(sys)                                                                                             \
    return detail::atomic<T, S>(*p).op(static_cast<T>(v));                                                            \
  }
SYCLIFY_ATOMIC_RMW(add, fetch_add, detail::sys_add(p, static_cast<T>(v)))
SYCLIFY_ATOMIC_RMW(sub, fetch_sub, detail::sys_add(p, static_cast<T>(T(0) - static_cast<T>(v))))
SYCLIFY_ATOMIC_RMW(exch, exchange, detail::sys_exch(p, static_cast<T>(v)))
SYCLIFY_ATOMIC_RMW(min, fetch_min, detail::sys_minmax(p, static_cast<T>(v), false))
SYCLIFY_ATOMIC_RMW(max, fetch_max, detail::sys_minmax(p, static_cast<T>(v), true))
SYCLIFY_ATOMIC_RMW(and, fetch_and, detail::sys_and(p, static_cast<T>(v)))
SYCLIFY_ATOMIC_RMW(or, fetch_or, detail::sys_or(p, static_cast<T>(v)))
SYCLIFY_ATOMIC_RMW(xor, fetch_xor, detail::sys_xor(p, static_cast<T>(v)))
#undef SYCLIFY_ATOMIC_RMW

// atomicInc: old >= limit ? 0 : old + 1 (wraps at limit, as CUDA).
template <sycl::memory_scope S = sycl::memory_scope::device> unsigned int atomic_inc(unsigned int *p, unsigned int limit) {
#if defined(SYCLIFY_NVPTX_DEVICE)
  if constexpr (S == sycl::memory_scope::system) {
    unsigned int old = *static_cast<volatile unsigned int *>(p), seen;
    while ((seen = detail::sys_cas(p, old, old >= limit ? 0u : old + 1u)) != old)
      old = seen;
    return old;
  }
#endif
  detail::atomic<unsigned int, S> ref(*p);
  unsigned int old = ref.load();
  while (!ref.compare_exchange_weak(old, old >= limit ? 0u : old + 1u)) {
  }
  return old;
}
// atomicDec: (old == 0 || old > limit) ? limit : old - 1 (as CUDA).
template <sycl::memory_scope S = sycl::memory_scope::device> unsigned int atomic_dec(unsigned int *p, unsigned int limit) {
#if defined(SYCLIFY_NVPTX_DEVICE)
  if constexpr (S == sycl::memory_scope::system) {
    unsigned int old = *static_cast<volatile unsigned int *>(p), seen;
    while ((seen = detail::sys_cas(p, old, (old == 0u || old > limit) ? limit : old - 1u)) != old)
      old = seen;
    return old;
  }
#endif
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
#if defined(SYCLIFY_NVPTX_DEVICE)
    if constexpr (detail::use_sys_v<S, T>)
      return detail::sys_cas(p, static_cast<T>(expected), static_cast<T>(desired));
#endif
    T old = static_cast<T>(expected);
    detail::atomic<T, S>(*p).compare_exchange_strong(old, static_cast<T>(desired));
    return old;
  }
}

// CUDA 12.8's __nv_atomic_* builtins (GCC style, with a memory order and an
// optional scope argument). Orders and scopes are the values of CUDA's
// __NV_ATOMIC_* and __NV_THREAD_SCOPE_* macros.
enum nv_atomic_order : int { nv_atomic_relaxed = 0, nv_atomic_consume = 1, nv_atomic_acquire = 2, nv_atomic_release = 3, nv_atomic_acq_rel = 4, nv_atomic_seq_cst = 5 };
enum nv_thread_scope : int { nv_thread_scope_system = 0, nv_thread_scope_device = 1, nv_thread_scope_block = 2, nv_thread_scope_thread = 3 };
namespace detail {
inline sycl::memory_order nv_order(int o) {
  switch (o) {
  case nv_atomic_relaxed: return sycl::memory_order::relaxed;
  case nv_atomic_consume:
  case nv_atomic_acquire: return sycl::memory_order::acquire;
  case nv_atomic_release: return sycl::memory_order::release;
  case nv_atomic_acq_rel: return sycl::memory_order::acq_rel;
  default: return sycl::memory_order::seq_cst;
  }
}
inline sycl::memory_scope nv_scope(int s) {
  switch (s) {
  case nv_thread_scope_system: return sycl::memory_scope::system;
  case nv_thread_scope_block: return sycl::memory_scope::work_group;
  case nv_thread_scope_thread: return sycl::memory_scope::work_item;
  default: return sycl::memory_scope::device;
  }
}
template <class T> using nv_atomic = sycl::atomic_ref<T, sycl::memory_order::relaxed, sycl::memory_scope::system, sycl::access::address_space::generic_space>;
} // namespace detail
template <class T> T nv_atomic_load_n(T *p, int order, int scope = nv_thread_scope_system) {
  return detail::nv_atomic<T>(*p).load(detail::nv_order(order == nv_atomic_release || order == nv_atomic_acq_rel ? nv_atomic_acquire : order), detail::nv_scope(scope));
}
template <class T, class U> void nv_atomic_store_n(T *p, U v, int order, int scope = nv_thread_scope_system) {
  detail::nv_atomic<T>(*p).store(static_cast<T>(v), detail::nv_order(order == nv_atomic_acquire || order == nv_atomic_acq_rel ? nv_atomic_release : order), detail::nv_scope(scope));
}
template <class T, class U> T nv_atomic_exchange_n(T *p, U v, int order, int scope = nv_thread_scope_system) {
  return detail::nv_atomic<T>(*p).exchange(static_cast<T>(v), detail::nv_order(order), detail::nv_scope(scope));
}
#define SYCLIFY_NV_ATOMIC_FETCH(name, op)                                                                               \
  template <class T, class U> T nv_atomic_fetch_##name(T *p, U v, int order, int scope = nv_thread_scope_system) {    \
    return detail::nv_atomic<T>(*p).op(static_cast<T>(v), detail::nv_order(order), detail::nv_scope(scope));          \
  }
SYCLIFY_NV_ATOMIC_FETCH(add, fetch_add)
SYCLIFY_NV_ATOMIC_FETCH(sub, fetch_sub)
SYCLIFY_NV_ATOMIC_FETCH(and, fetch_and)
SYCLIFY_NV_ATOMIC_FETCH(or, fetch_or)
SYCLIFY_NV_ATOMIC_FETCH(xor, fetch_xor)
SYCLIFY_NV_ATOMIC_FETCH(min, fetch_min)
SYCLIFY_NV_ATOMIC_FETCH(max, fetch_max)
#undef SYCLIFY_NV_ATOMIC_FETCH

// ---------------------------------------------------------------------------
// 9. Math
// rsqrtf: CUDA's is the hardware's approximate reciprocal square root
// (rsqrt.approx.f32, 2 ulp), and so is this one on an NVIDIA GPU: AdaptiveCpp
// implements sycl::rsqrt there as a correctly rounded square root and
// division, more than twice as slow in a kernel that computes many. Elsewhere
// (and on the host) sycl::rsqrt.
inline float rsqrt(float x) {
#if defined(SYCLIFY_NVPTX_DEVICE)
  return __nvvm_rsqrt_approx_f(x);
#else
  return sycl::rsqrt(x);
#endif
}
// sincosf(x, &s, &c)
template <class T> void sincos(T x, T *s, T *c) {
  *s = sycl::sin(x);
  *c = sycl::cos(x);
}
template <class T> void sincospi(T x, T *s, T *c) {
  *s = sycl::sinpi(x);
  *c = sycl::cospi(x);
}
// frexp/modf/remquo (and frexpf/modff/remquof): the second result through a
// plain pointer, as CUDA's prototypes give it (SYCL's builtins take a
// multi_ptr, and AdaptiveCpp has no remquo); exact, as the C library's are.
template <class T> T frexp(T x, int *e) {
  if (x == T(0) || !sycl::isfinite(x)) {
    *e = 0;
    return x;
  }
  int k = sycl::ilogb(x) + 1; // x = m * 2^k with 0.5 <= |m| < 1 (subnormals too)
  *e = k;
  return sycl::ldexp(x, -k);
}
template <class T> T modf(T x, T *integral) {
  T i = sycl::trunc(x);
  *integral = i;
  // the fraction has x's sign (-0.0 for a negative whole number; 0 for inf)
  return sycl::copysign(sycl::isinf(x) ? T(0) : x - i, x);
}
template <class T> T remquo(T x, T y, int *quo) {
  T r = sycl::remainder(x, y);
  int q = 0;
  if (sycl::isfinite(x) && !sycl::isnan(y) && y != T(0) && !sycl::isinf(y)) {
    // the low three bits of the rounded quotient: the remainder of |x| by
    // 8|y| (exact) holds them, and rounding to even keeps their parity
    T ay = sycl::fabs(y);
    T m = sycl::fmod(sycl::fabs(x), T(8) * ay);
    q = static_cast<int>(sycl::rint((m - sycl::remainder(m, ay)) / ay)) & 7;
    if (sycl::signbit(x) != sycl::signbit(y))
      q = -q;
  }
  *quo = q;
  return r;
}
// pow/powf with CUDA's overloads for mixed argument types (sycl::pow takes
// one floating type): powf computes in float; pow keeps a float with an
// integer exponent in float (CUDA's pow(float, int)) and otherwise computes
// as std::pow does (in double where either is double or both integers).
template <class T, class U> auto pow(T a, U b) {
  if constexpr (std::is_same<T, U>::value && !std::is_integral<T>::value) {
    return sycl::pow(a, b);
  } else if constexpr (std::is_arithmetic<T>::value && std::is_arithmetic<U>::value) {
    using C = typename std::conditional<
        std::is_same<T, float>::value && std::is_integral<U>::value, float,
        typename std::conditional<std::is_floating_point<T>::value && std::is_floating_point<U>::value,
                                  typename std::common_type<T, U>::type, double>::type>::type;
    return sycl::pow(static_cast<C>(a), static_cast<C>(b));
  } else {
    return sycl::pow(a, b);
  }
}
template <class T, class U> float powf(T a, U b) { return sycl::pow(static_cast<float>(a), static_cast<float>(b)); }
// nan/nanf(tagp) in device code: a quiet NaN whose payload is the number the
// tag spells (decimal; octal after a leading 0; hex after 0x), payload 0 for
// a tag with any other character, as CUDA's device nan computes it (and the
// C library on the host). sycl::nan takes an integer, not a string.
namespace detail {
inline unsigned long long nan_payload(const char *s) {
  if (!s) return 0;
  unsigned base = 10;
  if (*s == '0') {
    ++s;
    base = 8;
    if (*s == 'x' || *s == 'X') { ++s; base = 16; }
  }
  unsigned long long i = 0;
  for (; *s; ++s) {
    char c = *s;
    unsigned d = c >= '0' && c <= '9' ? unsigned(c - '0') : c >= 'a' && c <= 'f' ? unsigned(c - 'a' + 10) : c >= 'A' && c <= 'F' ? unsigned(c - 'A' + 10) : 99u;
    if (d >= base) return 0;
    i = i * base + d;
  }
  return i;
}
} // namespace detail
inline double nan(const char *tagp) { return sycl::bit_cast<double>((detail::nan_payload(tagp) & 0x000fffffffffffffull) | 0x7ff8000000000000ull); }
inline float nanf(const char *tagp) { return sycl::bit_cast<float>(static_cast<unsigned>((detail::nan_payload(tagp) & 0x003fffffull) | 0x7fc00000u)); }
// CUDA's math without a SYCL builtin of its own: rcbrt, rhypot, norm3d/4d
// and their reciprocals, normcdf (the standard normal distribution).
template <class T> T rcbrt(T x) { return T(1) / sycl::cbrt(x); }
template <class T> T rhypot(T x, T y) { return T(1) / sycl::hypot(x, y); }
template <class T> T norm3d(T a, T b, T c) { return sycl::sqrt(a * a + b * b + c * c); }
template <class T> T rnorm3d(T a, T b, T c) { return sycl::rsqrt(a * a + b * b + c * c); }
template <class T> T norm4d(T a, T b, T c, T d) { return sycl::sqrt(a * a + b * b + c * c + d * d); }
template <class T> T rnorm4d(T a, T b, T c, T d) { return sycl::rsqrt(a * a + b * b + c * c + d * d); }
template <class T> T normcdf(T x) { return T(0.5) * sycl::erfc(-x * T(0.70710678118654752440)); }
// __sincosf: the fast (native) versions.
inline void native_sincos(float x, float *s, float *c) {
  *s = sycl::native::sin(x);
  *c = sycl::native::cos(x);
}
// __saturatef: clamps to [0, 1]; NaN gives 0, as CUDA.
// lrint/llrint (current rounding mode: to nearest even) and lround/llround
// (halfway cases away from zero) with C's integer results.
template <class T> long lrint(T x) { return static_cast<long>(sycl::rint(x)); }
template <class T> long long llrint(T x) { return static_cast<long long>(sycl::rint(x)); }
template <class T> long lround(T x) { return static_cast<long>(sycl::round(x)); }
template <class T> long long llround(T x) { return static_cast<long long>(sycl::round(x)); }
// cmath: the C library's math under its C names (logf, log, logl, ...) with
// C's prototypes, for names a program forms by token pasting, which syclify
// cannot rewrite one by one (`#define MATHFN(x) x##f` ... `MATHFN(log)(v)`
// becomes `MATHFN(syclify::cmath::log)(v)`, which pastes to
// `syclify::cmath::logf`). The float and double forms compute with SYCL's
// builtins (device code has no C library: AdaptiveCpp leaves `logf` an
// undefined symbol); the long double forms with the C++ library's, as CUDA
// has no long double on the device.
namespace cmath {
#define SYCLIFY_CMATH_1(name, impl)                                                                                     \
  inline double name(double x) { return impl(x); }                                                                      \
  inline float name##f(float x) { return impl(x); }                                                                     \
  inline long double name##l(long double x) { return std::name(x); }
#define SYCLIFY_CMATH_2(name, impl)                                                                                     \
  inline double name(double x, double y) { return impl(x, y); }                                                         \
  inline float name##f(float x, float y) { return impl(x, y); }                                                         \
  inline long double name##l(long double x, long double y) { return std::name(x, y); }
SYCLIFY_CMATH_1(acos, sycl::acos)
SYCLIFY_CMATH_1(acosh, sycl::acosh)
SYCLIFY_CMATH_1(asin, sycl::asin)
SYCLIFY_CMATH_1(asinh, sycl::asinh)
SYCLIFY_CMATH_1(atan, sycl::atan)
SYCLIFY_CMATH_1(atanh, sycl::atanh)
SYCLIFY_CMATH_1(cbrt, sycl::cbrt)
SYCLIFY_CMATH_1(ceil, sycl::ceil)
SYCLIFY_CMATH_1(cos, sycl::cos)
SYCLIFY_CMATH_1(cosh, sycl::cosh)
SYCLIFY_CMATH_1(erf, sycl::erf)
SYCLIFY_CMATH_1(erfc, sycl::erfc)
SYCLIFY_CMATH_1(exp, sycl::exp)
SYCLIFY_CMATH_1(exp2, sycl::exp2)
SYCLIFY_CMATH_1(expm1, sycl::expm1)
SYCLIFY_CMATH_1(fabs, sycl::fabs)
SYCLIFY_CMATH_1(floor, sycl::floor)
SYCLIFY_CMATH_1(lgamma, sycl::lgamma)
SYCLIFY_CMATH_1(log, sycl::log)
SYCLIFY_CMATH_1(log10, sycl::log10)
SYCLIFY_CMATH_1(log1p, sycl::log1p)
SYCLIFY_CMATH_1(log2, sycl::log2)
SYCLIFY_CMATH_1(logb, sycl::logb)
SYCLIFY_CMATH_1(nearbyint, sycl::rint)
SYCLIFY_CMATH_1(rint, sycl::rint)
SYCLIFY_CMATH_1(round, sycl::round)
SYCLIFY_CMATH_1(sin, sycl::sin)
SYCLIFY_CMATH_1(sinh, sycl::sinh)
SYCLIFY_CMATH_1(sqrt, sycl::sqrt)
SYCLIFY_CMATH_1(tan, sycl::tan)
SYCLIFY_CMATH_1(tanh, sycl::tanh)
SYCLIFY_CMATH_1(tgamma, sycl::tgamma)
SYCLIFY_CMATH_1(trunc, sycl::trunc)
SYCLIFY_CMATH_2(atan2, sycl::atan2)
SYCLIFY_CMATH_2(copysign, sycl::copysign)
SYCLIFY_CMATH_2(fdim, sycl::fdim)
SYCLIFY_CMATH_2(fmax, sycl::fmax)
SYCLIFY_CMATH_2(fmin, sycl::fmin)
SYCLIFY_CMATH_2(fmod, sycl::fmod)
SYCLIFY_CMATH_2(hypot, sycl::hypot)
SYCLIFY_CMATH_2(nextafter, sycl::nextafter)
SYCLIFY_CMATH_2(pow, sycl::pow)
SYCLIFY_CMATH_2(remainder, sycl::remainder)
#undef SYCLIFY_CMATH_1
#undef SYCLIFY_CMATH_2
inline double fma(double x, double y, double z) { return sycl::fma(x, y, z); }
inline float fmaf(float x, float y, float z) { return sycl::fma(x, y, z); }
inline long double fmal(long double x, long double y, long double z) { return std::fma(x, y, z); }
inline double ldexp(double x, int e) { return sycl::ldexp(x, e); }
inline float ldexpf(float x, int e) { return sycl::ldexp(x, e); }
inline long double ldexpl(long double x, int e) { return std::ldexp(x, e); }
inline int ilogb(double x) { return sycl::ilogb(x); }
inline int ilogbf(float x) { return sycl::ilogb(x); }
inline int ilogbl(long double x) { return std::ilogb(x); }
inline double frexp(double x, int *e) { return syclify::frexp(x, e); }
inline float frexpf(float x, int *e) { return syclify::frexp(x, e); }
inline long double frexpl(long double x, int *e) { return std::frexp(x, e); }
inline double modf(double x, double *i) { return syclify::modf(x, i); }
inline float modff(float x, float *i) { return syclify::modf(x, i); }
inline long double modfl(long double x, long double *i) { return std::modf(x, i); }
inline long lrint(double x) { return syclify::lrint(x); }
inline long lrintf(float x) { return syclify::lrint(x); }
inline long lrintl(long double x) { return std::lrint(x); }
inline long lround(double x) { return syclify::lround(x); }
inline long lroundf(float x) { return syclify::lround(x); }
inline long lroundl(long double x) { return std::lround(x); }
} // namespace cmath
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
// __dp4a(a, b, c): c plus the dot product of a's and b's four bytes, signed
// for int, unsigned for unsigned int (CUDA's two overloads).
inline int dp4a(int a, int b, int c) {
  for (int i = 0; i < 32; i += 8)
    c += static_cast<int>(static_cast<signed char>(a >> i)) * static_cast<int>(static_cast<signed char>(b >> i));
  return c;
}
inline unsigned int dp4a(unsigned int a, unsigned int b, unsigned int c) {
  for (int i = 0; i < 32; i += 8)
    c += ((a >> i) & 0xffu) * ((b >> i) & 0xffu);
  return c;
}
// __dp2a_lo/__dp2a_hi(a, b, c): c plus a's two 16-bit halves times b's low
// (lo) or high (hi) two bytes; signed for int, unsigned for unsigned int.
template <bool High> inline int dp2a(int a, int b, int c) {
  const int shift = High ? 16 : 0;
  return c + static_cast<int>(static_cast<short>(a)) * static_cast<int>(static_cast<signed char>(b >> shift)) +
         static_cast<int>(static_cast<short>(a >> 16)) * static_cast<int>(static_cast<signed char>(b >> (shift + 8)));
}
template <bool High> inline unsigned int dp2a(unsigned int a, unsigned int b, unsigned int c) {
  const int shift = High ? 16 : 0;
  return c + (a & 0xffffu) * ((b >> shift) & 0xffu) + (a >> 16) * ((b >> (shift + 8)) & 0xffu);
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
// SIMD within a word (__vadd4, __vcmpgtu2, __vsads4, ...): 2 lanes of 16 bits
// or 4 lanes of 8 bits of an unsigned int, signed (s) or unsigned (u).
namespace simd {
template <int Lanes, bool Signed> struct lanes {
  static constexpr int bits = 32 / Lanes;
  static constexpr unsigned mask = (1u << bits) - 1u;
  static constexpr int lo = Signed ? -(1 << (bits - 1)) : 0;
  static constexpr int hi = Signed ? (1 << (bits - 1)) - 1 : (1 << bits) - 1;
  static int get(unsigned w, int i) {
    unsigned v = (w >> (i * bits)) & mask;
    return Signed ? static_cast<int>(v << (32 - bits)) >> (32 - bits) : static_cast<int>(v);
  }
  static int sat(int v) { return v < lo ? lo : (v > hi ? hi : v); }
};
// Applies op lane by lane; the result lanes are truncated to their width.
template <int Lanes, bool Signed, class Op> unsigned map(unsigned a, unsigned b, Op op) {
  using L = lanes<Lanes, Signed>;
  unsigned r = 0;
  for (int i = 0; i < Lanes; ++i)
    r |= (static_cast<unsigned>(op(L::get(a, i), L::get(b, i))) & L::mask) << (i * L::bits);
  return r;
}
template <int Lanes, bool Signed> unsigned sad(unsigned a, unsigned b) {
  using L = lanes<Lanes, Signed>;
  unsigned s = 0;
  for (int i = 0; i < Lanes; ++i) {
    int d = L::get(a, i) - L::get(b, i);
    s += static_cast<unsigned>(d < 0 ? -d : d);
  }
  return s;
}
} // namespace simd
#define SYCLIFY_SIMD(name, N, S, expr)                                                                                                               \
  inline unsigned name(unsigned a, unsigned b) {                                                                                                   \
    using L = simd::lanes<N, S>;                                                                                                                   \
    (void)sizeof(L);                                                                                                                               \
    return simd::map<N, S>(a, b, [](int x, int y) { return expr; });                                                                             \
  }
#define SYCLIFY_SIMD_BOTH(name, sgn, expr) SYCLIFY_SIMD(name##2, 2, sgn, expr) SYCLIFY_SIMD(name##4, 4, sgn, expr)
SYCLIFY_SIMD_BOTH(vadd, false, x + y)
SYCLIFY_SIMD_BOTH(vsub, false, x - y)
SYCLIFY_SIMD_BOTH(vaddss, true, L::sat(x + y))
SYCLIFY_SIMD_BOTH(vaddus, false, L::sat(x + y))
SYCLIFY_SIMD_BOTH(vsubss, true, L::sat(x - y))
SYCLIFY_SIMD_BOTH(vsubus, false, L::sat(x - y))
SYCLIFY_SIMD_BOTH(vabsdiffs, true, x > y ? x - y : y - x)
SYCLIFY_SIMD_BOTH(vabsdiffu, false, x > y ? x - y : y - x)
SYCLIFY_SIMD_BOTH(vavgs, true, (x + y) >= 0 ? (x + y + 1) >> 1 : -((1 - x - y) >> 1)) // halves round away from zero
SYCLIFY_SIMD_BOTH(vavgu, false, (x + y + 1) >> 1)
SYCLIFY_SIMD_BOTH(vhaddu, false, (x + y) >> 1)
SYCLIFY_SIMD_BOTH(vmaxs, true, x > y ? x : y)
SYCLIFY_SIMD_BOTH(vmaxu, false, x > y ? x : y)
SYCLIFY_SIMD_BOTH(vmins, true, x < y ? x : y)
SYCLIFY_SIMD_BOTH(vminu, false, x < y ? x : y)
SYCLIFY_SIMD_BOTH(vcmpeq, false, x == y ? -1 : 0)
SYCLIFY_SIMD_BOTH(vcmpne, false, x != y ? -1 : 0)
SYCLIFY_SIMD_BOTH(vcmpges, true, x >= y ? -1 : 0)
SYCLIFY_SIMD_BOTH(vcmpgeu, false, x >= y ? -1 : 0)
SYCLIFY_SIMD_BOTH(vcmpgts, true, x > y ? -1 : 0)
SYCLIFY_SIMD_BOTH(vcmpgtu, false, x > y ? -1 : 0)
SYCLIFY_SIMD_BOTH(vcmples, true, x <= y ? -1 : 0)
SYCLIFY_SIMD_BOTH(vcmpleu, false, x <= y ? -1 : 0)
SYCLIFY_SIMD_BOTH(vcmplts, true, x < y ? -1 : 0)
SYCLIFY_SIMD_BOTH(vcmpltu, false, x < y ? -1 : 0)
SYCLIFY_SIMD_BOTH(vseteq, false, x == y ? 1 : 0)
SYCLIFY_SIMD_BOTH(vsetne, false, x != y ? 1 : 0)
SYCLIFY_SIMD_BOTH(vsetges, true, x >= y ? 1 : 0)
SYCLIFY_SIMD_BOTH(vsetgeu, false, x >= y ? 1 : 0)
SYCLIFY_SIMD_BOTH(vsetgts, true, x > y ? 1 : 0)
SYCLIFY_SIMD_BOTH(vsetgtu, false, x > y ? 1 : 0)
SYCLIFY_SIMD_BOTH(vsetles, true, x <= y ? 1 : 0)
SYCLIFY_SIMD_BOTH(vsetleu, false, x <= y ? 1 : 0)
SYCLIFY_SIMD_BOTH(vsetlts, true, x < y ? 1 : 0)
SYCLIFY_SIMD_BOTH(vsetltu, false, x < y ? 1 : 0)
#undef SYCLIFY_SIMD_BOTH
#undef SYCLIFY_SIMD
// one-operand forms
inline unsigned vabs2(unsigned a) { return simd::map<2, true>(a, 0, [](int x, int) { return x < 0 ? -x : x; }); }
inline unsigned vabs4(unsigned a) { return simd::map<4, true>(a, 0, [](int x, int) { return x < 0 ? -x : x; }); }
inline unsigned vabsss2(unsigned a) { return simd::map<2, true>(a, 0, [](int x, int) { return simd::lanes<2, true>::sat(x < 0 ? -x : x); }); }
inline unsigned vabsss4(unsigned a) { return simd::map<4, true>(a, 0, [](int x, int) { return simd::lanes<4, true>::sat(x < 0 ? -x : x); }); }
inline unsigned vneg2(unsigned a) { return simd::map<2, true>(a, 0, [](int x, int) { return -x; }); }
inline unsigned vneg4(unsigned a) { return simd::map<4, true>(a, 0, [](int x, int) { return -x; }); }
inline unsigned vnegss2(unsigned a) { return simd::map<2, true>(a, 0, [](int x, int) { return simd::lanes<2, true>::sat(-x); }); }
inline unsigned vnegss4(unsigned a) { return simd::map<4, true>(a, 0, [](int x, int) { return simd::lanes<4, true>::sat(-x); }); }
// sums of absolute differences over the lanes
inline unsigned vsads2(unsigned a, unsigned b) { return simd::sad<2, true>(a, b); }
inline unsigned vsads4(unsigned a, unsigned b) { return simd::sad<4, true>(a, b); }
inline unsigned vsadu2(unsigned a, unsigned b) { return simd::sad<2, false>(a, b); }
inline unsigned vsadu4(unsigned a, unsigned b) { return simd::sad<4, false>(a, b); }
// CUDA 12's three-operand and relu forms on 32-bit values or 2 x 16-bit lanes
namespace simd {
// Three operands, 2 x 16-bit lanes.
template <bool Signed, class Op> unsigned map3_16x2(unsigned a, unsigned b, unsigned c, Op op) {
  using L = lanes<2, Signed>;
  unsigned r = 0;
  for (int i = 0; i < 2; ++i)
    r |= (static_cast<unsigned>(op(L::get(a, i), L::get(b, i), L::get(c, i))) & L::mask) << (i * L::bits);
  return r;
}
template <class T> T max2(T a, T b) { return a > b ? a : b; }
template <class T> T min2(T a, T b) { return a < b ? a : b; }
} // namespace simd
inline int vimax3_s32(int a, int b, int c) { return simd::max2(simd::max2(a, b), c); }
inline unsigned vimax3_u32(unsigned a, unsigned b, unsigned c) { return simd::max2(simd::max2(a, b), c); }
inline int vimin3_s32(int a, int b, int c) { return simd::min2(simd::min2(a, b), c); }
inline unsigned vimin3_u32(unsigned a, unsigned b, unsigned c) { return simd::min2(simd::min2(a, b), c); }
inline int vimax3_s32_relu(int a, int b, int c) { return simd::max2(vimax3_s32(a, b, c), 0); }
inline int vimin3_s32_relu(int a, int b, int c) { return simd::max2(vimin3_s32(a, b, c), 0); }
inline int vimax_s32_relu(int a, int b) { return simd::max2(simd::max2(a, b), 0); }
inline int vimin_s32_relu(int a, int b) { return simd::max2(simd::min2(a, b), 0); }
inline int viaddmax_s32(int a, int b, int c) { return simd::max2(a + b, c); }
inline unsigned viaddmax_u32(unsigned a, unsigned b, unsigned c) { return simd::max2(a + b, c); }
inline int viaddmin_s32(int a, int b, int c) { return simd::min2(a + b, c); }
inline unsigned viaddmin_u32(unsigned a, unsigned b, unsigned c) { return simd::min2(a + b, c); }
inline int viaddmax_s32_relu(int a, int b, int c) { return simd::max2(simd::max2(a + b, c), 0); }
inline int viaddmin_s32_relu(int a, int b, int c) { return simd::max2(simd::min2(a + b, c), 0); }
inline unsigned vimax3_s16x2(unsigned a, unsigned b, unsigned c) { return simd::map3_16x2<true>(a, b, c, [](int x, int y, int z) { return simd::max2(simd::max2(x, y), z); }); }
inline unsigned vimin3_s16x2(unsigned a, unsigned b, unsigned c) { return simd::map3_16x2<true>(a, b, c, [](int x, int y, int z) { return simd::min2(simd::min2(x, y), z); }); }
inline unsigned vimax3_u16x2(unsigned a, unsigned b, unsigned c) { return simd::map3_16x2<false>(a, b, c, [](int x, int y, int z) { return simd::max2(simd::max2(x, y), z); }); }
inline unsigned vimin3_u16x2(unsigned a, unsigned b, unsigned c) { return simd::map3_16x2<false>(a, b, c, [](int x, int y, int z) { return simd::min2(simd::min2(x, y), z); }); }
inline unsigned vimax3_s16x2_relu(unsigned a, unsigned b, unsigned c) { return simd::map3_16x2<true>(a, b, c, [](int x, int y, int z) { return simd::max2(simd::max2(simd::max2(x, y), z), 0); }); }
inline unsigned vimin3_s16x2_relu(unsigned a, unsigned b, unsigned c) { return simd::map3_16x2<true>(a, b, c, [](int x, int y, int z) { return simd::max2(simd::min2(simd::min2(x, y), z), 0); }); }
inline unsigned vimax_s16x2_relu(unsigned a, unsigned b) { return simd::map3_16x2<true>(a, b, 0, [](int x, int y, int) { return simd::max2(simd::max2(x, y), 0); }); }
inline unsigned vimin_s16x2_relu(unsigned a, unsigned b) { return simd::map3_16x2<true>(a, b, 0, [](int x, int y, int) { return simd::max2(simd::min2(x, y), 0); }); }
inline unsigned viaddmax_s16x2(unsigned a, unsigned b, unsigned c) { return simd::map3_16x2<true>(a, b, c, [](int x, int y, int z) { return simd::max2(static_cast<int>(static_cast<short>(x + y)), z); }); }
inline unsigned viaddmin_s16x2(unsigned a, unsigned b, unsigned c) { return simd::map3_16x2<true>(a, b, c, [](int x, int y, int z) { return simd::min2(static_cast<int>(static_cast<short>(x + y)), z); }); }
inline unsigned viaddmax_u16x2(unsigned a, unsigned b, unsigned c) { return simd::map3_16x2<false>(a, b, c, [](int x, int y, int z) { return simd::max2((x + y) & 0xffff, z); }); }
inline unsigned viaddmin_u16x2(unsigned a, unsigned b, unsigned c) { return simd::map3_16x2<false>(a, b, c, [](int x, int y, int z) { return simd::min2((x + y) & 0xffff, z); }); }
inline unsigned viaddmax_s16x2_relu(unsigned a, unsigned b, unsigned c) { return simd::map3_16x2<true>(a, b, c, [](int x, int y, int z) { return simd::max2(simd::max2(static_cast<int>(static_cast<short>(x + y)), z), 0); }); }
inline unsigned viaddmin_s16x2_relu(unsigned a, unsigned b, unsigned c) { return simd::map3_16x2<true>(a, b, c, [](int x, int y, int z) { return simd::max2(simd::min2(static_cast<int>(static_cast<short>(x + y)), z), 0); }); }
// __vibmax/__vibmin: the max/min and whether the first operand was chosen
inline int vibmax_s32(int a, int b, bool *pred) { *pred = a >= b; return a >= b ? a : b; }
inline unsigned vibmax_u32(unsigned a, unsigned b, bool *pred) { *pred = a >= b; return a >= b ? a : b; }
inline int vibmin_s32(int a, int b, bool *pred) { *pred = a <= b; return a <= b ? a : b; }
inline unsigned vibmin_u32(unsigned a, unsigned b, bool *pred) { *pred = a <= b; return a <= b ? a : b; }
namespace simd {
template <bool Signed, bool Max> unsigned ib16x2(unsigned a, unsigned b, bool *hi, bool *lo) {
  using L = lanes<2, Signed>;
  int a0 = L::get(a, 0), b0 = L::get(b, 0), a1 = L::get(a, 1), b1 = L::get(b, 1);
  *lo = Max ? a0 >= b0 : a0 <= b0;
  *hi = Max ? a1 >= b1 : a1 <= b1;
  return ((static_cast<unsigned>(*lo ? a0 : b0) & 0xffffu)) | ((static_cast<unsigned>(*hi ? a1 : b1) & 0xffffu) << 16);
}
} // namespace simd
inline unsigned vibmax_s16x2(unsigned a, unsigned b, bool *hi, bool *lo) { return simd::ib16x2<true, true>(a, b, hi, lo); }
inline unsigned vibmax_u16x2(unsigned a, unsigned b, bool *hi, bool *lo) { return simd::ib16x2<false, true>(a, b, hi, lo); }
inline unsigned vibmin_s16x2(unsigned a, unsigned b, bool *hi, bool *lo) { return simd::ib16x2<true, false>(a, b, hi, lo); }
inline unsigned vibmin_u16x2(unsigned a, unsigned b, bool *hi, bool *lo) { return simd::ib16x2<false, false>(a, b, hi, lo); }

// __double2hiint/__double2loint/__hiloint2double
inline int double_hi(double d) { return static_cast<int>(sycl::bit_cast<unsigned long long>(d) >> 32); }
inline int double_lo(double d) { return static_cast<int>(sycl::bit_cast<unsigned long long>(d) & 0xffffffffull); }
inline double hilo_to_double(int hi, int lo) {
  return sycl::bit_cast<double>((static_cast<unsigned long long>(static_cast<unsigned int>(hi)) << 32) | static_cast<unsigned int>(lo));
}

// ---------------------------------------------------------------------------
// 10. Vector types
// The value types a migrated program names (vector types, half2, bfloat16,
// bfloat162, fp8) live in syclify::types with their operators and are
// brought into syclify by using-declarations: argument-dependent lookup on
// them then sees only those operators, never a helper, so a user's own
// function named like one (`hmul2(x, y)`, `dot(a, b)`) stays the only match.
// CUDA's vector types are structs with members x, y, z, w; their size and
// alignment are part of programs (reinterpret_cast loads, sizeof, arrays).
// These have exactly CUDA's: T2 aligned to 2*sizeof(T), T4 to min(4*sizeof(T),
// 16), T3 unaligned (a float3 is 12 bytes, unlike SYCL's 16-byte vec<float,3>).
#define SYCLIFY_VECTOR_TYPES(T, N)                                                                                      \
  namespace types {                                                                                                     \
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
  }                                                                                                                     \
  using types::N##1;                                                                                                    \
  using types::N##2;                                                                                                    \
  using types::N##3;                                                                                                    \
  using types::N##4;                                                                                                    \
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
// a dim3 given a uint3 (CUDA's converting constructor), as a launch range
inline sycl::range<3> as_range3(const uint3 &v) { return sycl::range<3>(v.z, v.y, v.x); }

// cuComplex.h: cuFloatComplex is float2 and cuDoubleComplex is double2 (real
// part .x, imaginary part .y), as in CUDA; the operations follow CUDA's
// definitions, including its scaled division and modulus (no overflow for
// large parts) and the operation order of its fused multiply-add.
#define SYCLIFY_COMPLEX(C, R, S)                                                                                        \
  inline R complex_real##S(C z) { return z.x; }                                                                         \
  inline R complex_imag##S(C z) { return z.y; }                                                                         \
  inline C make_complex##S(R re, R im) { return C{re, im}; }                                                            \
  inline C complex_conj##S(C z) { return C{z.x, -z.y}; }                                                               \
  inline C complex_add##S(C a, C b) { return C{a.x + b.x, a.y + b.y}; }                                                \
  inline C complex_sub##S(C a, C b) { return C{a.x - b.x, a.y - b.y}; }                                                \
  inline C complex_mul##S(C a, C b) { return C{a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x}; }                        \
  inline C complex_div##S(C a, C b) {                                                                                   \
    R scale = sycl::fabs(b.x) + sycl::fabs(b.y);                                                                        \
    R inv = R(1) / scale;                                                                                               \
    R ar = a.x * inv, ai = a.y * inv, br = b.x * inv, bi = b.y * inv;                                                   \
    inv = R(1) / (br * br + bi * bi);                                                                                   \
    return C{(ar * br + ai * bi) * inv, (ai * br - ar * bi) * inv};                                                     \
  }                                                                                                                     \
  inline R complex_abs##S(C z) {                                                                                        \
    R a = sycl::fabs(z.x), b = sycl::fabs(z.y);                                                                         \
    R v = sycl::fmax(a, b), w = sycl::fmin(a, b);                                                                       \
    R t = w / v;                                                                                                        \
    t = v * sycl::sqrt(R(1) + t * t);                                                                                   \
    if (v == R(0) || v > std::numeric_limits<R>::max() || w > std::numeric_limits<R>::max()) t = v + w;                \
    return t;                                                                                                           \
  }                                                                                                                     \
  inline C complex_fma##S(C a, C b, C d) {                                                                              \
    R re = a.x * b.x + d.x;                                                                                             \
    re = -a.y * b.y + re;                                                                                               \
    R im = a.x * b.y + d.y;                                                                                             \
    im = a.y * b.x + im;                                                                                                \
    return C{re, im};                                                                                                   \
  }
SYCLIFY_COMPLEX(float2, float, f)
SYCLIFY_COMPLEX(double2, double, )
#undef SYCLIFY_COMPLEX
inline double2 complex_float_to_double(float2 z) { return double2{z.x, z.y}; }
inline float2 complex_double_to_float(double2 z) { return float2{static_cast<float>(z.x), static_cast<float>(z.y)}; }

// ---------------------------------------------------------------------------
// 11. Half and bfloat16
// __half is sycl::half. __half2 is a pair with members x and y (CUDA code
// reads .x/.y), 4 bytes, 4-aligned like CUDA's.
namespace types {
struct alignas(4) half2 {
  sycl::half x, y;
  half2() = default;
  half2(sycl::half a, sycl::half b) : x(a), y(b) {} // __half2(a, b)
};
} // namespace types
using types::half2;
namespace detail {
// sycl::half to float and back, as CUDA converts (round to nearest even; a
// NaN becomes CUDA's 0x7fff). On AdaptiveCpp's NVPTX pass, the cvt
// instructions CUDA's __half2float and __float2half_rn use: AdaptiveCpp 24.06
// converts sycl::half in software even in CUDA device code (a few dozen
// integer instructions each way: ert's half2 loop ran over 20x slower than
// nvcc's). In other device code, sycl::half's own conversions (the device's
// instructions). In host code, these bit operations: the host conversions of
// DPC++'s headers truncate where the result is a half subnormal.
inline unsigned short float_to_half_bits(float f) {
  unsigned u = sycl::bit_cast<unsigned>(f);
  unsigned short sign = static_cast<unsigned short>((u >> 16) & 0x8000u);
  unsigned a = u & 0x7fffffffu;
  if (a > 0x7f800000u)
    return 0x7fffu;
  if (a >= 0x477ff000u) // 65520 and above: infinity
    return sign | 0x7c00u;
  if (a >= 0x38800000u) { // a normal half: rebias the exponent, round 13 bits away
    unsigned r = a - 0x38000000u, m = r >> 13, rem = r & 0x1fffu;
    return sign | static_cast<unsigned short>(m + (rem > 0x1000u || (rem == 0x1000u && (m & 1u))));
  }
  if (a <= 0x33000000u) // 2^-25 and below: zero
    return sign;
  unsigned shift = 126u - (a >> 23), mant = (a & 0x7fffffu) | 0x800000u; // a subnormal half
  unsigned m = mant >> shift, rem = mant & ((1u << shift) - 1u), halfway = 1u << (shift - 1u);
  return sign | static_cast<unsigned short>(m + (rem > halfway || (rem == halfway && (m & 1u))));
}
inline float half_bits_to_float(unsigned short h) {
  unsigned sign = static_cast<unsigned>(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
  if (e == 0x1fu) // infinity, or a NaN made quiet (as the hardware's conversion does)
    return sycl::bit_cast<float>(sign | 0x7f800000u | (m ? 0x400000u | (m << 13) : 0u));
  if (e != 0)
    return sycl::bit_cast<float>(sign | ((e + 112u) << 23) | (m << 13));
  float f = static_cast<float>(m) * 5.9604644775390625e-8f; // m * 2^-24, exact
  return sign ? -f : f;
}
inline float half_to_float(sycl::half h) {
#if defined(SYCLIFY_NVPTX_DEVICE) && defined(__ACPP__)
  float f;
  asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(sycl::bit_cast<unsigned short>(h)));
  return f;
#elif defined(__SYCL_DEVICE_ONLY__)
  return static_cast<float>(h);
#else
  return half_bits_to_float(sycl::bit_cast<unsigned short>(h));
#endif
}
inline sycl::half float_to_half(float f) {
#if defined(SYCLIFY_NVPTX_DEVICE) && defined(__ACPP__)
  unsigned short b;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(b) : "f"(f));
  return sycl::bit_cast<sycl::half>(b);
#elif defined(__SYCL_DEVICE_ONLY__)
  return sycl::half(f);
#else
  return sycl::bit_cast<sycl::half>(float_to_half_bits(f));
#endif
}
} // namespace detail
// __half2float, __float2half(_rn): exact, and round to nearest even.
inline float half2float(sycl::half h) { return detail::half_to_float(h); }
inline sycl::half float2half(float f) { return detail::float_to_half(f); }
inline float2 half22float2(half2 h) { return float2{detail::half_to_float(h.x), detail::half_to_float(h.y)}; }
inline half2 float22half2(float2 f) { return {detail::float_to_half(f.x), detail::float_to_half(f.y)}; }
inline half2 floats2half2(float a, float b) { return {detail::float_to_half(a), detail::float_to_half(b)}; }
inline half2 float2half2(float a) { return {detail::float_to_half(a), detail::float_to_half(a)}; }
// __hadd(a, b) on halves (the integer __hadd is the overload in section 9).
// In device code sycl::half's operators (the device's instructions); in host
// code through float, which rounds +, -, * and / of halves correctly (float
// has more than twice half's precision), with the exact conversions above.
#if defined(__SYCL_DEVICE_ONLY__)
inline sycl::half hadd(sycl::half a, sycl::half b) { return a + b; }
inline sycl::half hsub(sycl::half a, sycl::half b) { return a - b; }
inline sycl::half hmul(sycl::half a, sycl::half b) { return a * b; }
inline sycl::half hdiv(sycl::half a, sycl::half b) { return a / b; }
#else
inline sycl::half hadd(sycl::half a, sycl::half b) { return detail::float_to_half(detail::half_to_float(a) + detail::half_to_float(b)); }
inline sycl::half hsub(sycl::half a, sycl::half b) { return detail::float_to_half(detail::half_to_float(a) - detail::half_to_float(b)); }
inline sycl::half hmul(sycl::half a, sycl::half b) { return detail::float_to_half(detail::half_to_float(a) * detail::half_to_float(b)); }
inline sycl::half hdiv(sycl::half a, sycl::half b) { return detail::float_to_half(detail::half_to_float(a) / detail::half_to_float(b)); }
#endif
// __hfma: a * b + c rounded once, as CUDA's. On NVIDIA GPUs the f16 fma
// instruction. Elsewhere in float: the product of two halves is exact there,
// but rounding the sum to float and that to half can land on a tie between
// two halves that the exact sum is not on (1023/1024 * 1025/1024 + 2050 gives
// 2052, not 2050), so the sum is rounded to odd (the odd one of the two floats
// around it, from its exact error), which a second rounding to half, 13 bits
// shorter, cannot misplace.
inline sycl::half hfma(sycl::half a, sycl::half b, sycl::half c) {
#if defined(SYCLIFY_NVPTX_DEVICE)
  unsigned short r;
  asm("fma.rn.f16 %0, %1, %2, %3;"
      : "=h"(r)
      : "h"(sycl::bit_cast<unsigned short>(a)), "h"(sycl::bit_cast<unsigned short>(b)), "h"(sycl::bit_cast<unsigned short>(c)));
  return sycl::bit_cast<sycl::half>(r);
#else
  float p = detail::half_to_float(a) * detail::half_to_float(b), fc = detail::half_to_float(c);
  float s = p + fc;
  float bv = s - p;
  float err = (p - (s - bv)) + (fc - bv); // p + fc - s, exactly (TwoSum)
  unsigned u = sycl::bit_cast<unsigned>(s);
  if (err != 0.0f && (u & 1u) == 0 && (u & 0x7f800000u) != 0x7f800000u)
    u = (err > 0.0f) == (s > 0.0f) ? u + 1 : u - 1;
  return detail::float_to_half(sycl::bit_cast<float>(u));
#endif
}
// (the sign bit flipped: AdaptiveCpp 24.06's unary minus negates its operand in place)
inline sycl::half hneg(sycl::half a) { return sycl::bit_cast<sycl::half>(static_cast<unsigned short>(sycl::bit_cast<unsigned short>(a) ^ 0x8000u)); }
inline sycl::half habs(sycl::half a) { return a < sycl::half(0) ? hneg(a) : a; }
// __hmax/__hmin: where one operand is NaN, the other (fmax/fmin)
inline sycl::half hmax(sycl::half a, sycl::half b) { return detail::float_to_half(sycl::fmax(detail::half_to_float(a), detail::half_to_float(b))); }
inline sycl::half hmin(sycl::half a, sycl::half b) { return detail::float_to_half(sycl::fmin(detail::half_to_float(a), detail::half_to_float(b))); }
inline half2 hadd2(half2 a, half2 b) { return {hadd(a.x, b.x), hadd(a.y, b.y)}; }
inline half2 hsub2(half2 a, half2 b) { return {hsub(a.x, b.x), hsub(a.y, b.y)}; }
inline half2 hmul2(half2 a, half2 b) { return {hmul(a.x, b.x), hmul(a.y, b.y)}; }
inline half2 h2div(half2 a, half2 b) { return {hdiv(a.x, b.x), hdiv(a.y, b.y)}; }
inline half2 hfma2(half2 a, half2 b, half2 c) {
#if defined(SYCLIFY_NVPTX_DEVICE)
  unsigned r;
  asm("fma.rn.f16x2 %0, %1, %2, %3;"
      : "=r"(r)
      : "r"(sycl::bit_cast<unsigned>(a)), "r"(sycl::bit_cast<unsigned>(b)), "r"(sycl::bit_cast<unsigned>(c)));
  return sycl::bit_cast<half2>(r);
#else
  return {hfma(a.x, b.x, c.x), hfma(a.y, b.y, c.y)};
#endif
}
inline half2 hneg2(half2 a) { return {hneg(a.x), hneg(a.y)}; }
inline half2 habs2(half2 a) { return {habs(a.x), habs(a.y)}; }

// __nv_bfloat16: the upper 16 bits of a float, rounded to nearest even
// (SYCL 2020 has no bfloat16; DPC++'s is an extension, so this one is plain C++).
namespace types {
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
  bfloat162() = default;
  bfloat162(bfloat16 a, bfloat16 b) : x(a), y(b) {} // __nv_bfloat162(a, b)
};
} // namespace types
using types::bfloat16;
using types::bfloat162;

// half2 arithmetic as cuda_fp16.hpp's operators (lane by lane).
namespace types {
inline half2 operator+(half2 a, half2 b) { return hadd2(a, b); }
inline half2 operator-(half2 a, half2 b) { return hsub2(a, b); }
inline half2 operator*(half2 a, half2 b) { return hmul2(a, b); }
inline half2 operator/(half2 a, half2 b) { return h2div(a, b); }
inline half2 operator-(half2 a) { return hneg2(a); }
inline half2 operator+(half2 a) { return a; }
inline half2 &operator+=(half2 &a, half2 b) { return a = a + b; }
inline half2 &operator-=(half2 &a, half2 b) { return a = a - b; }
inline half2 &operator*=(half2 &a, half2 b) { return a = a * b; }
inline half2 &operator/=(half2 &a, half2 b) { return a = a / b; }
inline bool operator==(half2 a, half2 b) { return a.x == b.x && a.y == b.y; }
inline bool operator!=(half2 a, half2 b) { return a.x != b.x || a.y != b.y; }
} // namespace types

namespace detail {
inline bool unordered(float a, float b) { return a != a || b != b; }
inline float sat01(float v) { return v > 0.0f ? (v > 1.0f ? 1.0f : v) : 0.0f; } // NaN and -0 give +0
// 1.0 or 0.0 in the lane type of a half2 or bfloat162
template <class T2> auto lane(bool b) -> decltype(T2{}.x) { return decltype(T2{}.x)(b ? 1.0f : 0.0f); }
} // namespace detail
// Comparisons: __heq2 (1.0/0.0 per lane), __hbeq2 (both lanes), __heq2_mask
// (0xffff per lane), and the unordered forms (u: true where either is NaN).
#define SYCLIFY_HALF_CMP(name, op)                                                                                                                   \
  inline bool h##name(float x, float y) { return !detail::unordered(x, y) && (x op y); }                                                          \
  inline bool h##name##u(float x, float y) { return detail::unordered(x, y) || (x op y); }                                                        \
  template <class T2> T2 h##name##2(T2 a, T2 b) { return {detail::lane<T2>(h##name(a.x, b.x)), detail::lane<T2>(h##name(a.y, b.y))}; }             \
  template <class T2> T2 h##name##u2(T2 a, T2 b) { return {detail::lane<T2>(h##name##u(a.x, b.x)), detail::lane<T2>(h##name##u(a.y, b.y))}; }     \
  template <class T2> bool hb##name##2(T2 a, T2 b) { return h##name(a.x, b.x) && h##name(a.y, b.y); }                                             \
  template <class T2> bool hb##name##u2(T2 a, T2 b) { return h##name##u(a.x, b.x) && h##name##u(a.y, b.y); }                                      \
  template <class T2> unsigned h##name##2_mask(T2 a, T2 b) { return (h##name(a.x, b.x) ? 0xffffu : 0u) | (h##name(a.y, b.y) ? 0xffff0000u : 0u); } \
  template <class T2> unsigned h##name##u2_mask(T2 a, T2 b) {                                                                                      \
    return (h##name##u(a.x, b.x) ? 0xffffu : 0u) | (h##name##u(a.y, b.y) ? 0xffff0000u : 0u);                                                       \
  }
SYCLIFY_HALF_CMP(eq, ==)
SYCLIFY_HALF_CMP(ne, !=)
SYCLIFY_HALF_CMP(lt, <)
SYCLIFY_HALF_CMP(le, <=)
SYCLIFY_HALF_CMP(gt, >)
SYCLIFY_HALF_CMP(ge, >=)
#undef SYCLIFY_HALF_CMP
template <class T2> T2 hisnan2(T2 a) { return {detail::lane<T2>(float(a.x) != float(a.x)), detail::lane<T2>(float(a.y) != float(a.y))}; }
// __hmax/__hmin return the other operand where one is NaN; the _nan forms return NaN.
inline sycl::half hmax_nan(sycl::half a, sycl::half b) { return detail::unordered(a, b) ? sycl::half(NAN) : hmax(a, b); }
inline sycl::half hmin_nan(sycl::half a, sycl::half b) { return detail::unordered(a, b) ? sycl::half(NAN) : hmin(a, b); }
inline half2 hmax2(half2 a, half2 b) { return {hmax(a.x, b.x), hmax(a.y, b.y)}; }
inline half2 hmin2(half2 a, half2 b) { return {hmin(a.x, b.x), hmin(a.y, b.y)}; }
inline half2 hmax2_nan(half2 a, half2 b) { return {hmax_nan(a.x, b.x), hmax_nan(a.y, b.y)}; }
inline half2 hmin2_nan(half2 a, half2 b) { return {hmin_nan(a.x, b.x), hmin_nan(a.y, b.y)}; }
// _sat: the result clamped to [0, 1] (NaN gives 0); _relu: negative results give 0.
inline sycl::half hadd_sat(sycl::half a, sycl::half b) { return detail::float_to_half(detail::sat01(detail::half_to_float(hadd(a, b)))); }
inline sycl::half hsub_sat(sycl::half a, sycl::half b) { return detail::float_to_half(detail::sat01(detail::half_to_float(hsub(a, b)))); }
inline sycl::half hmul_sat(sycl::half a, sycl::half b) { return detail::float_to_half(detail::sat01(detail::half_to_float(hmul(a, b)))); }
inline sycl::half hfma_sat(sycl::half a, sycl::half b, sycl::half c) {
  return detail::float_to_half(detail::sat01(detail::half_to_float(hfma(a, b, c))));
}
inline sycl::half hfma_relu(sycl::half a, sycl::half b, sycl::half c) {
  sycl::half r = hfma(a, b, c);
  float f = detail::half_to_float(r);
  return f > 0.0f || f != f ? r : sycl::half(0.0f); // -0 gives +0, as CUDA's
}
inline half2 hadd2_sat(half2 a, half2 b) { return {hadd_sat(a.x, b.x), hadd_sat(a.y, b.y)}; }
inline half2 hsub2_sat(half2 a, half2 b) { return {hsub_sat(a.x, b.x), hsub_sat(a.y, b.y)}; }
inline half2 hmul2_sat(half2 a, half2 b) { return {hmul_sat(a.x, b.x), hmul_sat(a.y, b.y)}; }
inline half2 hfma2_sat(half2 a, half2 b, half2 c) { return {hfma_sat(a.x, b.x, c.x), hfma_sat(a.y, b.y, c.y)}; }
inline half2 hfma2_relu(half2 a, half2 b, half2 c) { return {hfma_relu(a.x, b.x, c.x), hfma_relu(a.y, b.y, c.y)}; }
// __hcmadd: complex multiply-add, (a.x + i a.y)(b.x + i b.y) + (c.x + i c.y)
inline half2 hcmadd(half2 a, half2 b, half2 c) { // CUDA's four half fmas, in its order
  sycl::half re = hfma(a.x, b.x, c.x), im = hfma(a.x, b.y, c.y);
  return {hfma(hneg(a.y), b.y, re), hfma(a.y, b.x, im)};
}

// Halves from a wider value with a rounding direction (__float2half_rd,
// __int2half_ru, ...): the nearest half, stepped once toward the direction.
namespace detail {
inline sycl::half step_half(sycl::half h, bool up) {
  unsigned short b = sycl::bit_cast<unsigned short>(h);
  if ((b & 0x7fffu) == 0)
    return sycl::bit_cast<sycl::half>(static_cast<unsigned short>(up ? 0x0001u : 0x8001u));
  bool neg = b & 0x8000u;
  return sycl::bit_cast<sycl::half>(static_cast<unsigned short>(up != neg ? b + 1 : b - 1));
}
} // namespace detail
inline sycl::half to_half(double f, sycl::rounding_mode m) {
  // (the nearest half through the conversions above: sycl::half's own
  // rounds otherwise on some hosts)
  sycl::half h = detail::float_to_half(static_cast<float>(f));
  double back = detail::half_to_float(h);
  if (f != f || back == f || sycl::isinf(back) || m == sycl::rounding_mode::rte || m == sycl::rounding_mode::automatic)
    return h;
  bool up = m == sycl::rounding_mode::rtp || (m == sycl::rounding_mode::rtz && f < 0);
  if (up ? back < f : back > f)
    h = detail::step_half(h, up);
  return h;
}

// bfloat16 arithmetic through float, rounded back (cuda_bf16.hpp's operators).
namespace types {
inline bfloat16 operator-(bfloat16 a) { return bfloat16(-float(a)); }
inline bfloat16 &operator+=(bfloat16 &a, float b) { return a = bfloat16(float(a) + b); }
inline bfloat16 &operator-=(bfloat16 &a, float b) { return a = bfloat16(float(a) - b); }
inline bfloat16 &operator*=(bfloat16 &a, float b) { return a = bfloat16(float(a) * b); }
inline bfloat16 &operator/=(bfloat16 &a, float b) { return a = bfloat16(float(a) / b); }
} // namespace types
inline bfloat16 hadd(bfloat16 a, bfloat16 b) { return bfloat16(float(a) + float(b)); }
inline bfloat16 hsub(bfloat16 a, bfloat16 b) { return bfloat16(float(a) - float(b)); }
inline bfloat16 hmul(bfloat16 a, bfloat16 b) { return bfloat16(float(a) * float(b)); }
inline bfloat16 hdiv(bfloat16 a, bfloat16 b) { return bfloat16(float(a) / float(b)); }
inline bfloat16 hfma(bfloat16 a, bfloat16 b, bfloat16 c) { return bfloat16(sycl::fma(float(a), float(b), float(c))); }
inline bfloat16 hneg(bfloat16 a) { return -a; }
inline bfloat16 habs(bfloat16 a) { return bfloat16(sycl::fabs(float(a))); }
inline bfloat16 hmax(bfloat16 a, bfloat16 b) { return bfloat16(sycl::fmax(float(a), float(b))); }
inline bfloat16 hmin(bfloat16 a, bfloat16 b) { return bfloat16(sycl::fmin(float(a), float(b))); }
namespace types {
inline bfloat162 operator+(bfloat162 a, bfloat162 b) { return {hadd(a.x, b.x), hadd(a.y, b.y)}; }
inline bfloat162 operator-(bfloat162 a, bfloat162 b) { return {hsub(a.x, b.x), hsub(a.y, b.y)}; }
inline bfloat162 operator*(bfloat162 a, bfloat162 b) { return {hmul(a.x, b.x), hmul(a.y, b.y)}; }
inline bfloat162 operator/(bfloat162 a, bfloat162 b) { return {hdiv(a.x, b.x), hdiv(a.y, b.y)}; }
inline bfloat162 operator-(bfloat162 a) { return {-a.x, -a.y}; }
inline bfloat162 &operator+=(bfloat162 &a, bfloat162 b) { return a = a + b; }
inline bfloat162 &operator-=(bfloat162 &a, bfloat162 b) { return a = a - b; }
inline bfloat162 &operator*=(bfloat162 &a, bfloat162 b) { return a = a * b; }
inline bfloat162 &operator/=(bfloat162 &a, bfloat162 b) { return a = a / b; }
} // namespace types
inline bfloat162 hadd2(bfloat162 a, bfloat162 b) { return a + b; }
inline bfloat162 hsub2(bfloat162 a, bfloat162 b) { return a - b; }
inline bfloat162 hmul2(bfloat162 a, bfloat162 b) { return a * b; }
inline bfloat162 h2div(bfloat162 a, bfloat162 b) { return a / b; }
inline bfloat162 hfma2(bfloat162 a, bfloat162 b, bfloat162 c) { return {hfma(a.x, b.x, c.x), hfma(a.y, b.y, c.y)}; }
inline bfloat162 hneg2(bfloat162 a) { return -a; }
inline bfloat162 habs2(bfloat162 a) { return {habs(a.x), habs(a.y)}; }
inline bfloat162 hmax2(bfloat162 a, bfloat162 b) { return {hmax(a.x, b.x), hmax(a.y, b.y)}; }
inline bfloat162 hmin2(bfloat162 a, bfloat162 b) { return {hmin(a.x, b.x), hmin(a.y, b.y)}; }

// atomicAdd on __half, __half2, __nv_bfloat16 and __nv_bfloat162: a
// compare-and-swap loop on the 16- or 32-bit word (SYCL's atomic_ref has no
// 16-bit or pair types).
namespace detail {
template <sycl::memory_scope S, class T, class F> T atomic_update(T *p, F f) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "16- or 32-bit values");
  if constexpr (sizeof(T) == 4) {
    atomic<unsigned int, S> ref(*reinterpret_cast<unsigned int *>(p));
    unsigned int old = ref.load();
    for (;;) {
      T o = sycl::bit_cast<T>(old);
      if (ref.compare_exchange_weak(old, sycl::bit_cast<unsigned int>(f(o))))
        return o;
    }
  } else {
    unsigned short *q = reinterpret_cast<unsigned short *>(p);
    unsigned short old = *q;
    for (;;) {
      T o = sycl::bit_cast<T>(old);
      unsigned short seen = cas16<S>(q, old, sycl::bit_cast<unsigned short>(f(o)));
      if (seen == old)
        return o;
      old = seen;
    }
  }
}
} // namespace detail
template <sycl::memory_scope S = sycl::memory_scope::device> sycl::half atomic_add(sycl::half *p, sycl::half v) {
  return detail::atomic_update<S>(p, [v](sycl::half o) { return sycl::half(o + v); });
}
template <sycl::memory_scope S = sycl::memory_scope::device> half2 atomic_add(half2 *p, half2 v) {
  return detail::atomic_update<S>(p, [v](half2 o) { return o + v; });
}
template <sycl::memory_scope S = sycl::memory_scope::device> bfloat16 atomic_add(bfloat16 *p, bfloat16 v) {
  return detail::atomic_update<S>(p, [v](bfloat16 o) { return hadd(o, v); });
}
template <sycl::memory_scope S = sycl::memory_scope::device> bfloat162 atomic_add(bfloat162 *p, bfloat162 v) {
  return detail::atomic_update<S>(p, [v](bfloat162 o) { return o + v; });
}

// Half and bfloat16 math (hsqrt, h2exp, ...): computed in float, rounded back.
#define SYCLIFY_HALF_FN(name, expr)                                                                                                                  \
  inline sycl::half h##name(sycl::half a) {                                                                                                       \
    float x = a;                                                                                                                                   \
    return sycl::half(expr);                                                                                                                       \
  }                                                                                                                                                \
  inline bfloat16 h##name(bfloat16 a) {                                                                                                           \
    float x = a;                                                                                                                                   \
    return bfloat16(expr);                                                                                                                         \
  }                                                                                                                                                \
  template <class T2> T2 h2##name(T2 a) { return {h##name(a.x), h##name(a.y)}; }
SYCLIFY_HALF_FN(sqrt, sycl::sqrt(x))
SYCLIFY_HALF_FN(rsqrt, rsqrt(x))
SYCLIFY_HALF_FN(rcp, 1.0f / x)
SYCLIFY_HALF_FN(exp, sycl::exp(x))
SYCLIFY_HALF_FN(exp2, sycl::exp2(x))
SYCLIFY_HALF_FN(exp10, sycl::exp10(x))
SYCLIFY_HALF_FN(log, sycl::log(x))
SYCLIFY_HALF_FN(log2, sycl::log2(x))
SYCLIFY_HALF_FN(log10, sycl::log10(x))
SYCLIFY_HALF_FN(sin, sycl::sin(x))
SYCLIFY_HALF_FN(cos, sycl::cos(x))
SYCLIFY_HALF_FN(tanh, sycl::tanh(x))
SYCLIFY_HALF_FN(floor, sycl::floor(x))
SYCLIFY_HALF_FN(ceil, sycl::ceil(x))
SYCLIFY_HALF_FN(trunc, sycl::trunc(x))
SYCLIFY_HALF_FN(rint, sycl::rint(x))
#undef SYCLIFY_HALF_FN
// bfloat16 with a rounding direction (__float2bfloat16_rd, __int2bfloat16_ru,
// ...): float's upper half, one step away from zero where that is the direction.
inline bfloat16 to_bfloat16(double d, sycl::rounding_mode m) {
  float f = static_cast<float>(d);
  if (m == sycl::rounding_mode::rte || m == sycl::rounding_mode::automatic || f != f)
    return bfloat16(f);
  unsigned int u = sycl::bit_cast<unsigned int>(f);
  bfloat16 t;
  t.bits = static_cast<unsigned short>(u >> 16); // toward zero
  bool exact = (u & 0xffffu) == 0 && static_cast<double>(f) == d;
  bool neg = u >> 31;
  if (!exact && ((m == sycl::rounding_mode::rtp && !neg) || (m == sycl::rounding_mode::rtn && neg)))
    t.bits = static_cast<unsigned short>(t.bits + 1);
  return t;
}

// FP8 (cuda_fp8.h): __nv_fp8_e4m3 / __nv_fp8_e5m2 (one byte), their x2 and x4
// packs (lane 0 in the low byte) and the __nv_cvt_* conversions. E4M3: bias 7,
// no infinities, S.1111.111 is NaN, largest finite 448. E5M2: bias 15, IEEE
// infinities and NaNs, largest finite 57344. Conversions round to nearest
// even as CUDA's; __NV_SATFINITE clamps out-of-range values (and infinities)
// to the largest finite value, __NV_NOSAT makes them NaN (E4M3) or infinite
// (E5M2), keeping the sign; NaN converts to 0x7f (from double: with its
// sign, and 0x7e in E5M2), and back to 0x7fffffff (float) or 0x7fff (half).
// Checked bit for bit against nvcc on an H100 (tests/helper-header/fp8_vs_nvcc.cpp).
enum fp8_interpretation_t { E4M3, E5M2 };
enum saturation_t { NOSAT, SATFINITE };
using fp8_storage_t = unsigned char;
using fp8x2_storage_t = unsigned short;
using fp8x4_storage_t = unsigned int;

namespace detail {
// (-1)^neg * m * 2^e2, m < 2^53, rounded to the fp8 format k.
inline fp8_storage_t fp8_round(bool neg, unsigned long long m, int e2, saturation_t sat, fp8_interpretation_t k) {
  const int man = k == E4M3 ? 3 : 2, bias = k == E4M3 ? 7 : 15;
  const unsigned maxcode = k == E4M3 ? 0x7eu : 0x7bu;
  const unsigned sign = neg ? 0x80u : 0u;
  const unsigned over = sign | (sat == SATFINITE ? maxcode : (k == E4M3 ? 0x7fu : 0x7cu));
  if (m == 0)
    return static_cast<fp8_storage_t>(sign);
  int top = 63;
  while (!((m >> top) & 1u))
    --top;
  const int e = e2 + top; // the value lies in [2^e, 2^(e+1))
  if (e > 17)
    return static_cast<fp8_storage_t>(over);
  const int q = (e < 1 - bias ? 1 - bias : e) - man; // exponent of the last mantissa bit
  const int shift = q - e2;
  unsigned long long r;
  if (shift <= 0) {
    r = m << -shift;
  } else if (shift > 63) {
    r = 0;
  } else {
    r = m >> shift;
    const unsigned long long rem = m & ((1ull << shift) - 1), half = 1ull << (shift - 1);
    if (rem > half || (rem == half && (r & 1u)))
      ++r;
  }
  // Subnormal: the code is r itself (r == 2^man is the smallest normal);
  // normal: the exponent field counts from 1 - bias, and a rounding carry
  // into 2^(man+1) moves into the exponent field by itself.
  const unsigned long long code = e < 1 - bias ? r : (static_cast<unsigned long long>(e + bias) << man) + (r - (1ull << man));
  return static_cast<fp8_storage_t>(code > maxcode ? over : (sign | code));
}
inline fp8_storage_t fp8_from_float(float f, saturation_t sat, fp8_interpretation_t k) {
  const unsigned u = sycl::bit_cast<unsigned>(f);
  const unsigned ex = (u >> 23) & 0xffu, fr = u & 0x7fffffu;
  const bool neg = u >> 31;
  if (ex == 0xffu)
    return fr ? fp8_storage_t(0x7f) : fp8_round(neg, 1, 100, sat, k);
  return fp8_round(neg, ex ? (fr | 0x800000u) : fr, (ex ? int(ex) : 1) - 150, sat, k);
}
inline fp8_storage_t fp8_from_double(double d, saturation_t sat, fp8_interpretation_t k) {
  const unsigned long long u = sycl::bit_cast<unsigned long long>(d);
  const unsigned ex = static_cast<unsigned>((u >> 52) & 0x7ffu);
  const unsigned long long fr = u & 0xfffffffffffffull;
  const bool neg = u >> 63;
  if (ex == 0x7ffu) // a NaN keeps its sign here (not from float)
    return fr ? fp8_storage_t((neg ? 0x80u : 0u) | (k == E4M3 ? 0x7fu : 0x7eu)) : fp8_round(neg, 1, 100, sat, k);
  return fp8_round(neg, ex ? (fr | 0x10000000000000ull) : fr, (ex ? int(ex) : 1) - 1075, sat, k);
}
// Every fp8 value is exact in half and in float; NaN becomes 0x7fffffff.
inline float fp8_to_float(fp8_storage_t c, fp8_interpretation_t k) {
  const int man = k == E4M3 ? 3 : 2, bias = k == E4M3 ? 7 : 15;
  const unsigned ex = (c & 0x7fu) >> man, fr = c & ((1u << man) - 1);
  const float s = (c & 0x80u) ? -1.0f : 1.0f;
  if ((k == E4M3 && (c & 0x7fu) == 0x7fu) || (k == E5M2 && ex == 31u && fr))
    return sycl::bit_cast<float>(0x7fffffffu);
  if (k == E5M2 && ex == 31u)
    return s * std::numeric_limits<float>::infinity();
  const float mant = ex ? float((1u << man) | fr) : float(fr);
  const int e = (ex ? int(ex) : 1) - bias - man;
  // 2^e by exact float multiplication (|e| < 32)
  const float p = e >= 0 ? float(1u << e) : 1.0f / float(1u << -e);
  return s * mant * p;
}
} // namespace detail

namespace detail {
// Lanes packed low first: two fp8 bytes in 16 bits, two such pairs in 32.
inline fp8x2_storage_t pack_fp8x2(fp8_storage_t lo, fp8_storage_t hi) { return static_cast<fp8x2_storage_t>(lo | (hi << 8)); }
inline fp8x4_storage_t pack_fp8x4(fp8x2_storage_t lo, fp8x2_storage_t hi) { return static_cast<fp8x4_storage_t>(lo) | (static_cast<fp8x4_storage_t>(hi) << 16); }
} // namespace detail

inline fp8_storage_t cvt_float_to_fp8(float x, saturation_t sat, fp8_interpretation_t k) { return detail::fp8_from_float(x, sat, k); }
inline fp8_storage_t cvt_double_to_fp8(double x, saturation_t sat, fp8_interpretation_t k) { return detail::fp8_from_double(x, sat, k); }
inline fp8_storage_t cvt_halfraw_to_fp8(sycl::half x, saturation_t sat, fp8_interpretation_t k) { return detail::fp8_from_float(float(x), sat, k); }
inline fp8_storage_t cvt_bfloat16raw_to_fp8(bfloat16 x, saturation_t sat, fp8_interpretation_t k) { return detail::fp8_from_float(float(x), sat, k); }
inline fp8x2_storage_t cvt_float2_to_fp8x2(float2 x, saturation_t sat, fp8_interpretation_t k) {
  return detail::pack_fp8x2(cvt_float_to_fp8(x.x, sat, k), cvt_float_to_fp8(x.y, sat, k));
}
inline fp8x2_storage_t cvt_double2_to_fp8x2(double2 x, saturation_t sat, fp8_interpretation_t k) {
  return detail::pack_fp8x2(cvt_double_to_fp8(x.x, sat, k), cvt_double_to_fp8(x.y, sat, k));
}
inline fp8x2_storage_t cvt_halfraw2_to_fp8x2(half2 x, saturation_t sat, fp8_interpretation_t k) {
  return detail::pack_fp8x2(cvt_halfraw_to_fp8(x.x, sat, k), cvt_halfraw_to_fp8(x.y, sat, k));
}
inline fp8x2_storage_t cvt_bfloat16raw2_to_fp8x2(bfloat162 x, saturation_t sat, fp8_interpretation_t k) {
  return detail::pack_fp8x2(cvt_bfloat16raw_to_fp8(x.x, sat, k), cvt_bfloat16raw_to_fp8(x.y, sat, k));
}
// NaN becomes 0x7fff.
inline sycl::half cvt_fp8_to_halfraw(fp8_storage_t x, fp8_interpretation_t k) {
  const float f = detail::fp8_to_float(x, k);
  return f != f ? sycl::bit_cast<sycl::half>(static_cast<unsigned short>(0x7fffu)) : sycl::half(f);
}
inline half2 cvt_fp8x2_to_halfraw2(fp8x2_storage_t x, fp8_interpretation_t k) {
  return {cvt_fp8_to_halfraw(static_cast<fp8_storage_t>(x & 0xffu), k), cvt_fp8_to_halfraw(static_cast<fp8_storage_t>(x >> 8), k)};
}

namespace detail {
// fp8 → integer as CUDA's explicit conversions: through float, NaN → 0,
// saturated to the integer type's range, truncated toward zero.
template <class I> I fp8_to_int(float f) {
  if (f != f)
    return I(0);
  if (f <= float(std::numeric_limits<I>::lowest()))
    return std::numeric_limits<I>::lowest();
  if (f >= float(std::numeric_limits<I>::max()))
    return std::numeric_limits<I>::max();
  return static_cast<I>(f);
}
} // namespace detail

namespace types {
// One fp8 value of format K; the byte is __x as in CUDA.
template <fp8_interpretation_t K> struct fp8 {
  fp8_storage_t __x;
  fp8() = default;
  explicit fp8(float f) : __x(detail::fp8_from_float(f, SATFINITE, K)) {}
  explicit fp8(double d) : __x(detail::fp8_from_double(d, SATFINITE, K)) {}
  explicit fp8(sycl::half h) : __x(detail::fp8_from_float(float(h), SATFINITE, K)) {}
  explicit fp8(bfloat16 b) : __x(detail::fp8_from_float(float(b), SATFINITE, K)) {}
  template <class I, std::enable_if_t<std::is_integral_v<I>, int> = 0> explicit fp8(I i) : __x(detail::fp8_from_float(float(i), SATFINITE, K)) {}
  explicit operator float() const { return detail::fp8_to_float(__x, K); }
  explicit operator double() const { return detail::fp8_to_float(__x, K); }
  explicit operator sycl::half() const { return cvt_fp8_to_halfraw(__x, K); }
  explicit operator bfloat16() const { return bfloat16(detail::fp8_to_float(__x, K)); }
  explicit operator bool() const { return (__x & 0x7fu) != 0; }
  template <class I, std::enable_if_t<std::is_integral_v<I> && !std::is_same_v<I, bool>, int> = 0> explicit operator I() const {
    return detail::fp8_to_int<I>(detail::fp8_to_float(__x, K));
  }
};
// Two fp8 values of format K (lane x in the low byte).
template <fp8_interpretation_t K> struct alignas(2) fp8x2 {
  fp8x2_storage_t __x;
  fp8x2() = default;
  explicit fp8x2(float2 f) : __x(cvt_float2_to_fp8x2(f, SATFINITE, K)) {}
  explicit fp8x2(double2 d) : __x(cvt_double2_to_fp8x2(d, SATFINITE, K)) {}
  explicit fp8x2(half2 h) : __x(cvt_halfraw2_to_fp8x2(h, SATFINITE, K)) {}
  explicit fp8x2(bfloat162 b) : __x(cvt_bfloat16raw2_to_fp8x2(b, SATFINITE, K)) {}
  explicit operator half2() const { return cvt_fp8x2_to_halfraw2(__x, K); }
  explicit operator float2() const {
    return {detail::fp8_to_float(static_cast<fp8_storage_t>(__x & 0xffu), K), detail::fp8_to_float(static_cast<fp8_storage_t>(__x >> 8), K)};
  }
};
// Four fp8 values of format K (lane x in the low byte).
template <fp8_interpretation_t K> struct alignas(4) fp8x4 {
  fp8x4_storage_t __x;
  fp8x4() = default;
  explicit fp8x4(float4 f)
      : __x(detail::pack_fp8x4(cvt_float2_to_fp8x2(float2{f.x, f.y}, SATFINITE, K), cvt_float2_to_fp8x2(float2{f.z, f.w}, SATFINITE, K))) {}
  explicit fp8x4(double4 d)
      : __x(detail::pack_fp8x4(cvt_double2_to_fp8x2(double2{d.x, d.y}, SATFINITE, K), cvt_double2_to_fp8x2(double2{d.z, d.w}, SATFINITE, K))) {}
  fp8x4(half2 lo, half2 hi) : __x(detail::pack_fp8x4(cvt_halfraw2_to_fp8x2(lo, SATFINITE, K), cvt_halfraw2_to_fp8x2(hi, SATFINITE, K))) {}
  fp8x4(bfloat162 lo, bfloat162 hi)
      : __x(detail::pack_fp8x4(cvt_bfloat16raw2_to_fp8x2(lo, SATFINITE, K), cvt_bfloat16raw2_to_fp8x2(hi, SATFINITE, K))) {}
  explicit operator float4() const {
    auto lane = [this](int i) { return detail::fp8_to_float(static_cast<fp8_storage_t>((__x >> (8 * i)) & 0xffu), K); };
    return {lane(0), lane(1), lane(2), lane(3)};
  }
};
} // namespace types
using types::fp8;
using types::fp8x2;
using types::fp8x4;
using fp8_e4m3 = fp8<E4M3>;
using fp8_e5m2 = fp8<E5M2>;
using fp8x2_e4m3 = fp8x2<E4M3>;
using fp8x2_e5m2 = fp8x2<E5M2>;
using fp8x4_e4m3 = fp8x4<E4M3>;
using fp8x4_e5m2 = fp8x4<E5M2>;

// ---------------------------------------------------------------------------
// 12. Cooperative groups (blocks, warp tiles, coalesced groups, the grid)
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
  // CUDA's dim3 results (members .x/.y/.z, x fastest)
  uint3 thread_index() const { return uint3{unsigned(item.get_local_id(2)), unsigned(item.get_local_id(1)), unsigned(item.get_local_id(0))}; }
  uint3 group_index() const { return uint3{unsigned(item.get_group(2)), unsigned(item.get_group(1)), unsigned(item.get_group(0))}; }
  uint3 dim_threads() const {
    return uint3{unsigned(item.get_local_range(2)), unsigned(item.get_local_range(1)), unsigned(item.get_local_range(0))};
  }
  uint3 group_dim() const { return dim_threads(); }
};
inline thread_block this_thread_block(const sycl::nd_item<3> &item) { return thread_block{item}; }

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

// The lanes active where coalesced_threads() was called. Ranks count the
// member lanes in order; a shuffle's source is a rank (shfl) or a rank
// offset (shfl_up/down), and a source outside the group returns the caller's
// own value, as CUDA's coalesced groups do.
struct coalesced_group {
  const sycl::nd_item<3> &item;
  unsigned mask;
  unsigned lane() const { return detail::lane_id(item); }
  unsigned size() const { return static_cast<unsigned>(sycl::popcount(mask)); }
  unsigned num_threads() const { return size(); }
  unsigned thread_rank() const { return static_cast<unsigned>(sycl::popcount(mask & ((1u << lane()) - 1u))); }
  unsigned meta_group_rank() const { return 0; }
  unsigned meta_group_size() const { return 1; }
  void sync() const { syncwarp(item, mask); }
  unsigned ballot(int pred) const {
    // bit i for member rank i (CUDA packs a coalesced group's ballot by rank)
    unsigned lanes = syclify::ballot(item, mask, pred), out = 0, rank = 0;
    for (unsigned l = 0; l < 32; ++l)
      if ((mask >> l) & 1u)
        out |= ((lanes >> l) & 1u) << rank++;
    return out;
  }
  int any(int pred) const { return syclify::ballot(item, mask, pred) != 0; }
  int all(int pred) const { return syclify::ballot(item, mask, pred) == mask; }
  // the lane of member rank r (r < size())
  unsigned lane_of(unsigned r) const {
    unsigned m = mask;
    for (unsigned i = 0; i < r; ++i)
      m &= m - 1u;
    return static_cast<unsigned>(sycl::popcount((m & (0u - m)) - 1u)); // the lowest set bit's index
  }
  template <class T> T shfl(T v, unsigned rank) const {
    unsigned src = rank < size() ? lane_of(rank) : lane();
    return syclify::shfl(item, mask, v, static_cast<int>(src));
  }
  template <class T> T shfl_down(T v, unsigned d) const {
    unsigned r = thread_rank() + d;
    T got = syclify::shfl(item, mask, v, static_cast<int>(r < size() ? lane_of(r) : lane()));
    return r < size() ? got : v;
  }
  template <class T> T shfl_up(T v, unsigned d) const {
    unsigned me = thread_rank();
    T got = syclify::shfl(item, mask, v, static_cast<int>(me >= d ? lane_of(me - d) : lane()));
    return me >= d ? got : v;
  }
  template <class T> unsigned match_any(T v) const { return syclify::match_any(item, mask, v); }
  template <class T> unsigned match_all(T v, int &pred) const { return syclify::match_all(item, mask, v, &pred); }
};
inline coalesced_group coalesced_threads(const sycl::nd_item<3> &item) { return coalesced_group{item, activemask(item)}; }

// thread_group: any of the groups above, chosen at run time (what
// tiled_partition(g, n) returns, and what a function taking "a group"
// receives): a block, or a set of lanes of one warp (a tile of n lanes or a
// coalesced group).
struct thread_group {
  const sycl::nd_item<3> &item;
  bool block;
  unsigned mask; // the member lanes, for a warp-level group
  thread_group(const thread_block &b) : item(b.item), block(true), mask(0) {}
  template <unsigned N> thread_group(const thread_block_tile<N> &t) : item(t.item), block(false), mask(t.tile_mask()) {}
  thread_group(const coalesced_group &c) : item(c.item), block(false), mask(c.mask) {}
  thread_group(const sycl::nd_item<3> &i, unsigned m) : item(i), block(false), mask(m) {}
  unsigned lane() const { return detail::lane_id(item); }
  void sync() const {
    if (block)
      sycl::group_barrier(item.get_group());
    else
      syncwarp(item, mask);
  }
  unsigned size() const { return block ? static_cast<unsigned>(item.get_local_range().size()) : static_cast<unsigned>(sycl::popcount(mask)); }
  unsigned num_threads() const { return size(); }
  unsigned thread_rank() const {
    return block ? static_cast<unsigned>(item.get_local_linear_id()) : static_cast<unsigned>(sycl::popcount(mask & ((1u << lane()) - 1u)));
  }
};
// tiled_partition(parent, n) with n known only at run time: a thread_group
// of n lanes (n a power of two up to 32, as CUDA requires).
inline thread_group tiled_partition(const thread_block &g, unsigned n) {
  unsigned lane = detail::lane_id(g.item);
  unsigned m = n >= 32 ? detail::full_mask : ((1u << n) - 1u) << (lane / n * n);
  return thread_group(g.item, m);
}
inline thread_group tiled_partition(const thread_group &g, unsigned n) {
  if (g.block)
    return tiled_partition(thread_block{g.item}, n);
  unsigned lane = g.lane();
  unsigned m = n >= 32 ? detail::full_mask : ((1u << n) - 1u) << (lane / n * n);
  return thread_group(g.item, m & g.mask);
}
// a tile of a tile (tiled_partition<4>(tile32))
template <unsigned M, unsigned N> thread_block_tile<M> tiled_partition(const thread_block_tile<N> &t) {
  static_assert(M <= N, "a tile's partition is smaller than the tile");
  return thread_block_tile<M>{t.item};
}
// binary_partition / labeled_partition: the lanes of a warp tile or a
// coalesced group that share the predicate or the label, as a coalesced group.
inline coalesced_group binary_partition(const coalesced_group &g, bool pred) {
  const unsigned yes = syclify::ballot(g.item, g.mask, pred) & g.mask;
  return coalesced_group{g.item, pred ? yes : (g.mask & ~yes)};
}
template <unsigned N> coalesced_group binary_partition(const thread_block_tile<N> &t, bool pred) {
  return binary_partition(coalesced_group{t.item, t.tile_mask()}, pred);
}
template <class T> coalesced_group labeled_partition(const coalesced_group &g, T label) {
  return coalesced_group{g.item, syclify::match_any(g.item, g.mask, label) & g.mask};
}
template <unsigned N, class T> coalesced_group labeled_partition(const thread_block_tile<N> &t, T label) {
  return labeled_partition(coalesced_group{t.item, t.tile_mask()}, label);
}
// Grid-wide groups: this_grid() → this_grid(item, syclify_grid), where
// syclify_grid is the launch's grid barrier (a parameter syclify adds to the
// kernels and device functions that reach this_grid()). SYCL 2020 has no
// barrier across work-groups: this one counts the arriving work-groups in
// device memory (one counter per queue, kept between its launches, whose
// top bit flips when all have arrived), with device-scope fences on both
// sides. It is correct when every work-group of the launch runs at once,
// which a cooperative launch checks against the occupancy model before
// anything runs (cudaErrorCooperativeLaunchTooLarge otherwise; see
// grid_sync_for), and which the occupancy query of a grid-syncing kernel
// promises on NVIDIA GPUs whatever its registers (see
// occupancy_max_active_blocks_per_multiprocessor). A barrier that waits 5 s
// without any work-group arriving gives up instead of hanging, and the first
// launch of each configuration on a queue is waited for and reports that as
// cudaErrorCooperativeLaunchTooLarge, with a message on stderr (a later
// launch that breaks is not reported, and its queue's later syncs return at
// once).
struct grid_sync {
  detail::grid_state *state;
};
namespace detail {
// The GPU's clock in units of 1024 ns, in 32 bits (wraps after 73 minutes;
// differences are taken modulo 2^32). Few registers: the barrier is inlined
// into kernels whose residency depends on their register count.
inline unsigned grid_clock() { return static_cast<unsigned>(syclify::detail::marker_clock_ns() >> 10); }
// Has a barrier waited too long with no work-group arriving? (5 s of the
// GPU's clock on NVIDIA; elsewhere a count of polls of about that order.)
inline bool grid_patience_over(unsigned since, unsigned polls) {
#if defined(SYCLIFY_NVPTX_DEVICE)
  (void)polls;
  return grid_clock() - since > 5000000000u / 1024u;
#else
  (void)since;
  return polls > 400000000u;
#endif
}
// The barrier's words, atomically (relaxed: the fences order the rest).
using grid_word = sycl::atomic_ref<unsigned, sycl::memory_order::relaxed, sycl::memory_scope::device, sycl::access::address_space::global_space>;
// A work-group's arrival at the grid barrier (its leader's), for `total`
// work-groups: one atomic add on the counter, whose top bit flips once all
// have arrived (the first work-group adds 2^31 - (total - 1), the others 1:
// 2^31 in all, the low bits back where they were), after a device-scope
// fence that publishes the work-group's writes. Returns the counter before
// the add, for grid_wait.
inline unsigned grid_arrive(syclify::detail::grid_state &s, unsigned total, bool first) {
  syclify::threadfence<sycl::memory_scope::device>();
  if (grid_word(s.broken).load() != 0u)
    return 0u;
  return grid_word(s.arrived).fetch_add(first ? 0x80000000u - (total - 1u) : 1u);
}
// Waits (the leader) until the counter's top bit differs from `before`'s,
// then fences so that every work-group's writes are seen. The watchdog:
// every 1024 polls it looks whether any work-group arrived since it last
// looked, and gives up (marking the state broken) after 5 s without one.
inline void grid_wait(syclify::detail::grid_state &s, unsigned before) {
  grid_word arrived(s.arrived), broken(s.broken);
  unsigned seen = before, since = grid_clock(), polls = 0;
  for (;;) {
    const unsigned now = arrived.load();
    if (((now ^ before) & 0x80000000u) != 0u)
      break;
    if ((++polls & 1023u) == 0) {
      if (now != seen) {
        seen = now;
        since = grid_clock();
        polls = 0;
      } else if (broken.load() != 0u || grid_patience_over(since, polls)) {
        broken.store(1u);
        break;
      }
    }
  }
  syclify::threadfence<sycl::memory_scope::device>();
}
} // namespace detail
struct grid_group {
  const sycl::nd_item<3> &item;
  syclify::detail::grid_state *state;
  // every launch passes a barrier (CUDA 13 gives a <<<>>> launch a valid
  // grid group too; measured on an H200)
  bool is_valid() const { return state != nullptr; }
  void sync() const { barrier_wait(barrier_arrive()); }
  // the split barrier: arrive, do independent work, wait
  using arrival_token = unsigned;
  arrival_token barrier_arrive() const {
    sycl::group_barrier(item.get_group());
    if (state && item.get_local_linear_id() == 0)
      return detail::grid_arrive(*state, static_cast<unsigned>(item.get_group_range().size()), item.get_group_linear_id() == 0);
    return 0;
  }
  void barrier_wait(arrival_token gen) const {
    if (state && item.get_local_linear_id() == 0)
      detail::grid_wait(*state, gen);
    sycl::group_barrier(item.get_group());
  }
  // ranks as CUDA counts them: blocks x fastest, a block's threads together
  unsigned long long block_rank() const { return item.get_group_linear_id(); }
  unsigned long long num_blocks() const { return item.get_group_range().size(); }
  unsigned long long thread_rank() const { return block_rank() * item.get_local_range().size() + item.get_local_linear_id(); }
  unsigned long long num_threads() const { return item.get_global_range().size(); }
  unsigned long long size() const { return num_threads(); }
  uint3 block_index() const { return uint3{unsigned(item.get_group(2)), unsigned(item.get_group(1)), unsigned(item.get_group(0))}; }
  uint3 dim_blocks() const { return uint3{unsigned(item.get_group_range(2)), unsigned(item.get_group_range(1)), unsigned(item.get_group_range(0))}; }
  uint3 group_dim() const { return dim_blocks(); }
  uint3 dim_threads() const {
    return uint3{unsigned(item.get_global_range(2)), unsigned(item.get_global_range(1)), unsigned(item.get_global_range(0))};
  }
  uint3 thread_index() const { return uint3{unsigned(item.get_global_id(2)), unsigned(item.get_global_id(1)), unsigned(item.get_global_id(0))}; }
};
inline grid_group this_grid(const sycl::nd_item<3> &item, grid_sync g) { return grid_group{item, g.state}; }
// The grid barrier of the launch being submitted (called in its command
// group, whose nd_range and dynamic local memory it is given — what the
// occupancy query counts — the static local memory left to the watchdog):
// a cooperative launch (cudaLaunchCooperativeKernel) is refused when its
// work-groups do not all fit on the device at once by the occupancy model,
// as CUDA refuses it; any other launch is not (a kernel may use its grid
// group for ranks alone, on any grid), and only the watchdog speaks for it.
inline grid_sync grid_sync_for(const sycl::nd_range<3> &r, std::size_t local_bytes = 0, bool cooperative = true) {
  const syclify::detail::launch_limits *l = syclify::detail::launch_device();
  sycl::queue *q = syclify::detail::launch_queue();
  if (!l || !q)
    throw sycl::exception(std::error_code(error_invalid_configuration, syclify::detail::cuda_category()), "a grid barrier outside syclify::launch");
  const std::size_t groups = r.get_group_range().size(), block = r.get_local_range().size();
  const std::size_t fit = l->compute_units * syclify::detail::groups_per_compute_unit(l->max_wg, l->local_mem, block, local_bytes);
  if (cooperative && groups > fit) {
    std::fprintf(stderr,
                 "syclify: a launch of %zu work-groups of %zu work-items (%zu bytes of local memory each) uses a grid barrier, but "
                 "the device runs at most %zu such work-groups at once\n",
                 groups, block, local_bytes, fit);
    throw sycl::exception(std::error_code(error_cooperative_launch_too_large, syclify::detail::cuda_category()), "cooperative launch too large");
  }
  struct entry {
    syclify::detail::grid_state *state;
    std::vector<std::tuple<std::size_t, std::size_t, std::size_t>> checked;
  };
  static std::mutex m;
  static std::vector<std::pair<sycl::queue, entry>> states;
  std::lock_guard<std::mutex> lock(m);
  auto it = std::find_if(states.begin(), states.end(), [&](const auto &e) { return e.first == *q; });
  if (it == states.end()) {
    // shared memory, zeroed here: no copy can be submitted from inside a command group
    auto *s = sycl::malloc_shared<syclify::detail::grid_state>(1, *q);
    if (!s)
      throw sycl::exception(sycl::make_error_code(sycl::errc::memory_allocation), "grid barrier");
    *s = syclify::detail::grid_state{};
    states.emplace_back(*q, entry{s, {}});
    it = std::prev(states.end());
  }
  auto config = std::make_tuple(groups, block, local_bytes);
  if (std::find(it->second.checked.begin(), it->second.checked.end(), config) == it->second.checked.end()) {
    it->second.checked.push_back(config);
    syclify::detail::grid_check() = it->second.state;
  }
  return grid_sync{it->second.state};
}
// The local memory of a launch's accessors, in bytes (for grid_sync_for).
template <class... A> std::size_t local_bytes(const A &...a) { return (std::size_t{0} + ... + a.byte_size()); }

// cg::sync(g) for a block, a tile, a coalesced group or the grid
template <class Group> void sync(const Group &g) { g.sync(); }

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
// cg::reduce over a coalesced group: every member gets op over the members'
// values in rank order.
template <class T, class Op> T reduce(const coalesced_group &g, T v, Op op) {
  T r = g.shfl(v, 0u);
  for (unsigned k = 1; k < g.size(); ++k)
    r = op(r, g.shfl(v, k));
  return r;
}
// cg::inclusive_scan / cg::exclusive_scan over a tile or a coalesced group
// (ranks in order; op defaults to plus). An exclusive scan gives rank 0 the
// value-initialised T, or init where one is given.
namespace detail {
template <class G, class T, class Op> T inclusive_scan_of(const G &g, T v, Op op) {
  unsigned rank = g.thread_rank(), n = g.size();
  for (unsigned d = 1; d < n; d *= 2) {
    T t = g.shfl_up(v, d);
    if (rank >= d)
      v = op(t, v);
  }
  return v;
}
} // namespace detail
template <unsigned N, class T, class Op = plus<T>> T inclusive_scan(const thread_block_tile<N> &g, T v, Op op = Op()) {
  return detail::inclusive_scan_of(g, v, op);
}
template <class T, class Op = plus<T>> T inclusive_scan(const coalesced_group &g, T v, Op op = Op()) {
  return detail::inclusive_scan_of(g, v, op);
}
template <unsigned N, class T, class Op = plus<T>> T exclusive_scan(const thread_block_tile<N> &g, T v, Op op = Op()) {
  T inc = detail::inclusive_scan_of(g, v, op);
  T prev = g.shfl_up(inc, 1);
  return g.thread_rank() == 0 ? T{} : prev;
}
template <class T, class Op = plus<T>> T exclusive_scan(const coalesced_group &g, T v, Op op = Op()) {
  T inc = detail::inclusive_scan_of(g, v, op);
  T prev = g.shfl_up(inc, 1u);
  return g.thread_rank() == 0 ? T{} : prev;
}
} // namespace cg


// ---------------------------------------------------------------------------
// 14. Host runtime: streams, events, memory, devices, occupancy, no-ops
// cudaDeviceGetStreamPriorityRange: the priorities stream_create_with_priority
// passes on. AdaptiveCpp on an NVIDIA GPU gives them to CUDA, which clamps
// them to its range: [0, -5] since Volta; DPC++'s priority extension has a
// high and a low one ([1, -1] here); otherwise none ([0, 0], as CUDA reports
// on devices without priorities).
inline error_t device_get_stream_priority_range(int *least, int *greatest) {
  int lo = 0, hi = 0;
#if defined(ACPP_EXT_QUEUE_PRIORITY)
  if (detail::legacy_queue().get_device().get_info<sycl::info::device::vendor_id>() == 0x10de)
    hi = -5;
#elif defined(SYCL_EXT_ONEAPI_QUEUE_PRIORITY)
  lo = 1;
  hi = -1;
#endif
  if (least)
    *least = lo;
  if (greatest)
    *greatest = hi;
  return success;
}
// cudaStreamQuery: success when all work submitted to the stream is done.
// (Exact on DPC++, which has queue::ext_oneapi_empty; elsewhere it waits for
// the stream, so the answer is always "done" but the call may block.)
inline error_t stream_query(stream_t s) {
  return detail::guarded([&] {
#if defined(SYCL_EXT_ONEAPI_QUEUE_EMPTY)
    if (!queue_of(s).ext_oneapi_empty())
      throw sycl::exception(sycl::make_error_code(sycl::errc::runtime), "not ready");
#else
    queue_of(s).wait_and_throw();
#endif
  }) == success ? success : error_not_ready;
}

// cudaEvent_t: a marker in a stream. Recording submits a one-work-item
// kernel to the stream's in-order queue that, on an NVIDIA GPU, writes the
// device's global nanosecond timer (%globaltimer) into a slot of pinned host
// memory: elapsed time is the difference of two markers' timestamps, device
// time between the two points in the stream as in CUDA, and no queue needs
// profiling (which costs every launch). On a device without such a clock
// (found by the first marker on it) elapsed time comes from the queues'
// profiling information when SYCLIFY_PROFILING=1 turned it on, else from host
// timestamps taken after waiting for the marker (then it includes host
// synchronisation).
namespace detail {
// Timestamp slots: pinned host memory, allocated 256 at a time per context
// and reused (events are created and destroyed in loops; a pinned allocation
// each would cost more than the marker). Slabs live until the program ends.
// A context's entry also remembers whether its device has the clock.
struct stamp_pool {
  sycl::context ctx;
  std::vector<std::uint64_t *> free;
  int clock = -1; // -1 not known yet, 0 no, 1 yes
};
struct stamp_pools {
  std::mutex m;
  std::vector<std::unique_ptr<stamp_pool>> all;
};
inline stamp_pools &stamps() {
  static stamp_pools p;
  return p;
}
inline stamp_pool &stamp_pool_of(const sycl::queue &q) {
  stamp_pools &p = stamps();
  sycl::context c = q.get_context();
  for (auto &e : p.all)
    if (e->ctx == c)
      return *e;
  p.all.push_back(std::unique_ptr<stamp_pool>(new stamp_pool{c, {}, -1}));
  return *p.all.back();
}
} // namespace detail
struct event_state {
  sycl::event ev;
  bool recorded = false;
  bool timing = true;
  bool profiled = false;
  // the marker's timestamp slot and the pool it came from (timing events)
  std::uint64_t *stamp = nullptr;
  detail::stamp_pool *pool = nullptr;
  bool clock = false; // the last record's marker wrote the device clock
  std::chrono::steady_clock::time_point host_time;
  // recorded on a stream that captures a graph: the graph and the nodes a
  // stream that waits for the event then depends on (graph.hpp)
  detail::graph_rec *capture = nullptr;
  std::vector<detail::graph_node *> capture_at;
  ~event_state() {
    if (stamp) {
      std::lock_guard<std::mutex> lock(detail::stamps().m);
      pool->free.push_back(stamp);
    }
  }
};
using event_t = event_state *;
constexpr unsigned event_default = 0, event_blocking_sync = 1, event_disable_timing = 2, event_interprocess = 4;
// Flags with CUDA's values, under names that say what they were
// (cudaStreamNonBlocking, cudaHostAllocMapped, cudaDeviceScheduleBlockingSync, ...)
constexpr unsigned host_alloc_default = 0, host_alloc_portable = 1, host_alloc_mapped = 2, host_alloc_write_combined = 4;
constexpr unsigned host_register_default = 0, host_register_portable = 1, host_register_mapped = 2;
constexpr unsigned mem_attach_global = 1, mem_attach_host = 2, mem_attach_single = 4;
constexpr unsigned device_schedule_auto = 0, device_schedule_spin = 1, device_schedule_yield = 2, device_schedule_blocking_sync = 4,
                   device_blocking_sync = 4, device_map_host = 8, device_lmem_resize_to_max = 16;

inline error_t event_create(event_t *e) {
  *e = new event_state;
  return success;
}
inline error_t event_create_with_flags(event_t *e, unsigned flags) {
  *e = new event_state;
  (*e)->timing = (flags & event_disable_timing) == 0;
  return success;
}
inline error_t event_destroy(event_t e) {
  delete e;
  return success;
}
namespace detail {
// Records e's point on q (cudaEventRecord; an event record node).
inline void event_record_on(event_t e, sycl::queue &q) {
  e->capture = nullptr;
  if (!e->timing) {
    e->ev = q.single_task([] {});
    e->recorded = true;
    return;
  }
  int clock;
  {
    std::lock_guard<std::mutex> lock(detail::stamps().m);
    detail::stamp_pool &pool = detail::stamp_pool_of(q);
    if (e->stamp && e->pool != &pool) { // recorded on another context before
      e->pool->free.push_back(e->stamp);
      e->stamp = nullptr;
    }
    if (!e->stamp) {
      if (pool.free.empty()) {
        std::uint64_t *slab = sycl::malloc_host<std::uint64_t>(256, q);
        if (!slab)
          throw sycl::exception(sycl::make_error_code(sycl::errc::memory_allocation), "cannot allocate event timestamps");
        for (int k = 255; k >= 0; --k)
          pool.free.push_back(slab + k);
      }
      e->stamp = pool.free.back();
      pool.free.pop_back();
      e->pool = &pool;
    }
    clock = pool.clock;
  }
  std::uint64_t *slot = e->stamp;
  e->ev = q.single_task([=] { *slot = detail::marker_clock_ns(); });
  e->profiled = q.has_property<sycl::property::queue::enable_profiling>();
  if (clock < 0) { // the first marker on this context: does the device have the clock?
    e->ev.wait_and_throw();
    clock = *slot != detail::no_clock ? 1 : 0;
    std::lock_guard<std::mutex> lock(detail::stamps().m);
    e->pool->clock = clock;
  }
  e->clock = clock == 1;
  if (!e->clock && !e->profiled) {
    e->ev.wait_and_throw();
    e->host_time = std::chrono::steady_clock::now();
  }
  e->recorded = true;
}
// A stream that waits for an event recorded during a capture joins it (graph.hpp).
void capture_join(const sycl::queue &q, event_t e);
} // namespace detail
inline error_t event_record(event_t e, stream_t s = nullptr) {
  if (!e)
    return detail::record(error_invalid_value);
  return detail::guarded([&] {
    sycl::queue &q = queue_of(s);
    if (detail::capture_entry *c = detail::capturing(q)) {
      e->capture = c->g;
      e->capture_at = c->frontier;
      return;
    }
    detail::event_record_on(e, q);
  });
}
inline error_t event_synchronize(event_t e) {
  if (!e)
    return detail::record(error_invalid_value);
  return detail::guarded([&] { e->ev.wait_and_throw(); });
}
inline error_t event_query(event_t e) {
  if (!e)
    return detail::record(error_invalid_value);
  if (!e->recorded)
    return success;
  return e->ev.get_info<sycl::info::event::command_execution_status>() == sycl::info::event_command_status::complete ? success : error_not_ready;
}
// cudaEventElapsedTime: milliseconds between two recorded events.
inline error_t event_elapsed_time(float *ms, event_t start, event_t stop) {
  if (!ms || !start || !stop || !start->recorded || !stop->recorded || !start->timing || !stop->timing)
    return detail::record(error_invalid_value);
  return detail::guarded([&] {
    start->ev.wait_and_throw();
    stop->ev.wait_and_throw();
    if (start->clock && stop->clock) {
      const auto t0 = static_cast<long long>(*start->stamp), t1 = static_cast<long long>(*stop->stamp);
      *ms = static_cast<float>(static_cast<double>(t1 - t0) * 1e-6);
    } else if (start->profiled && stop->profiled) {
      auto t0 = start->ev.get_profiling_info<sycl::info::event_profiling::command_end>();
      auto t1 = stop->ev.get_profiling_info<sycl::info::event_profiling::command_end>();
      *ms = static_cast<float>(static_cast<double>(static_cast<long long>(t1 - t0)) * 1e-6);
    } else {
      *ms = std::chrono::duration<float, std::milli>(stop->host_time - start->host_time).count();
    }
  });
}
// cudaStreamWaitEvent: later work on `s` waits for the event's point.
// While s captures a graph, an event recorded in the same capture makes s
// depend on the nodes before the record (it joins the capture if it was not
// taking part); another event is waited for when the graph runs.
namespace detail {
inline void wait_event_on(sycl::queue &q, event_t e) {
  if (!e->recorded)
    return;
  sycl::event dep = e->ev;
  q.submit([&](sycl::handler &h) {
    h.depends_on(dep);
    h.single_task([] {});
  });
}
} // namespace detail
inline error_t stream_wait_event(stream_t s, event_t e, unsigned = 0) {
  if (!e)
    return detail::record(error_invalid_value);
  return detail::guarded([&] {
    sycl::queue &q = queue_of(s);
    if (e->capture) {
      detail::capture_join(q, e);
      return;
    }
    if (detail::capture_entry *c = detail::capturing(q)) {
      detail::graph_record(c, [e](sycl::queue &rq) { detail::wait_event_on(rq, e); }, 6);
      return;
    }
    detail::wait_event_on(q, e);
  });
}

namespace detail {
// An operation on stream s: recorded while its queue captures a graph (and run
// on the replaying queue by cudaGraphLaunch) as a node of `type`
// (graph_node_type: 1 memcpy, 2 memset, 3 host), else run on its queue now.
template <class Op> error_t on_stream(stream_t s, Op op, int type) {
  if (capture_entry *g = capturing(queue_of(s))) {
    graph_record(g, op, type);
    return success;
  }
  return guarded([&] { op(queue_of(s)); });
}
} // namespace detail
// Asynchronous copies (on the stream's queue, not waited for).
inline error_t memcpy_async(void *dst, const void *src, std::size_t bytes, memcpy_kind = memcpy_default, stream_t s = nullptr) {
  return detail::on_stream(s, [=](sycl::queue &q) { q.memcpy(dst, src, bytes); }, 1);
}
inline error_t memset_async(void *p, int value, std::size_t bytes, stream_t s = nullptr) {
  return detail::on_stream(s, [=](sycl::queue &q) { q.memset(p, value, bytes); }, 2);
}

// Host callbacks (cudaLaunchHostFunc, cudaStreamAddCallback): a host task on
// the stream's in-order queue, so it runs after the work queued before it and
// the work queued after it waits for it, as in CUDA; recorded like a launch
// while the stream captures a graph.
using host_fn_t = void (*)(void *);
using stream_callback_t = void (*)(stream_t, error_t, void *);
namespace detail {
#if defined(__ACPP__)
// AdaptiveCpp has no host tasks: the callback runs on the calling thread once
// the work before it completed, before the work after it is queued (the
// order is CUDA's; the host waits where CUDA's would not). A kernel holding
// the stream until another thread ran the callback would be asynchronous,
// but deadlocks where CUDA loads a kernel lazily while it runs.
template <class F> void host_task(sycl::queue &q, F f) {
  q.wait_and_throw();
  f();
}
#else
template <class F> void host_task(sycl::queue &q, F f) {
  q.submit([&](sycl::handler &h) { h.host_task(f); });
}
#endif
} // namespace detail
inline error_t launch_host_func(stream_t s, host_fn_t fn, void *data) {
  if (!fn)
    return detail::record(error_invalid_value);
  return detail::on_stream(s, [fn, data](sycl::queue &q) { detail::host_task(q, [fn, data] { fn(data); }); }, 3);
}
// (CUDA passes the stream's status: the work before a callback completed, or
// the callback does not run at all when it failed: success here too)
namespace detail {
// A stream callback of either API (cudaStreamCallback_t, the driver's
// CUstreamCallback), run in stream order and given `ok`, its API's success.
template <class Cb, class Status> error_t add_callback(stream_t s, Cb cb, void *data, unsigned flags, Status ok) {
  if (!cb || flags != 0)
    return record(error_invalid_value);
  return on_stream(s, [s, cb, data, ok](sycl::queue &q) { host_task(q, [s, cb, data, ok] { cb(s, ok, data); }); }, 3);
}
} // namespace detail
inline error_t stream_add_callback(stream_t s, stream_callback_t cb, void *data, unsigned flags = 0) { return detail::add_callback(s, cb, data, flags, success); }

// CUDA graphs: graph.hpp.
// cudaHostAlloc: pinned host memory is SYCL host USM (flags are hints).
template <class T> error_t host_alloc(T **p, std::size_t bytes, unsigned = 0) { return malloc_host(p, bytes); }
// cudaMallocPitch: rows padded to 256 bytes; the pitch is returned, as in CUDA.
template <class T> error_t malloc_pitch(T **p, std::size_t *pitch, std::size_t width, std::size_t height) {
  *pitch = (width + 255) / 256 * 256;
  return malloc_device(p, *pitch * height);
}
namespace detail {
inline void copy_2d(sycl::queue &q, void *dst, std::size_t dpitch, const void *src, std::size_t spitch, std::size_t width, std::size_t height) {
  if (dpitch == width && spitch == width) {
    q.memcpy(dst, src, width * height);
    return;
  }
  for (std::size_t r = 0; r < height; ++r)
    q.memcpy(static_cast<char *>(dst) + r * dpitch, static_cast<const char *>(src) + r * spitch, width);
}
} // namespace detail
// cudaMemcpy2D/cudaMemcpy2DAsync: `height` rows of `width` bytes between pitched buffers.
inline error_t memcpy_2d(void *dst, std::size_t dpitch, const void *src, std::size_t spitch, std::size_t width, std::size_t height, memcpy_kind = memcpy_default) {
  return detail::guarded([&] {
    detail::copy_2d(default_queue(), dst, dpitch, src, spitch, width, height);
    default_queue().wait_and_throw();
  });
}
inline error_t memcpy_2d_async(void *dst, std::size_t dpitch, const void *src, std::size_t spitch, std::size_t width, std::size_t height, memcpy_kind = memcpy_default, stream_t s = nullptr) {
  return detail::on_stream(s, [=](sycl::queue &q) { detail::copy_2d(q, dst, dpitch, src, spitch, width, height); }, 1);
}
// cudaMemset2D
inline error_t memset_2d(void *p, std::size_t pitch, int value, std::size_t width, std::size_t height) {
  return detail::guarded([&] {
    sycl::queue &q = default_queue();
    for (std::size_t r = 0; r < height; ++r)
      q.memset(static_cast<char *>(p) + r * pitch, value, width);
    q.wait_and_throw();
  });
}
// cudaMemset2DAsync: the rows on the stream
inline error_t memset_2d_async(void *p, std::size_t pitch, int value, std::size_t width, std::size_t height, stream_t s = nullptr) {
  return detail::on_stream(
      s,
      [=](sycl::queue &q) {
        for (std::size_t r = 0; r < height; ++r)
          q.memset(static_cast<char *>(p) + r * pitch, value, width);
      },
      2);
}
// cudaMemcpy3D (cudaPitchedPtr/cudaExtent/cudaPos keep CUDA's fields; a CUDA array on
// either side: texture.hpp).
struct pitched_ptr {
  void *ptr;
  std::size_t pitch, xsize, ysize;
};
struct extent_3d {
  std::size_t width, height, depth;
};
struct pos_3d {
  std::size_t x, y, z;
};
struct array; // a CUDA array (texture.hpp)
struct memcpy3d_parms {
  array *srcArray;
  pos_3d srcPos;
  pitched_ptr srcPtr;
  array *dstArray;
  pos_3d dstPos;
  pitched_ptr dstPtr;
  extent_3d extent;
  memcpy_kind kind;
};
inline pitched_ptr make_pitched_ptr(void *p, std::size_t pitch, std::size_t xsize, std::size_t ysize) { return {p, pitch, xsize, ysize}; }
inline extent_3d make_extent(std::size_t w, std::size_t h, std::size_t d) { return {w, h, d}; }
inline pos_3d make_pos(std::size_t x, std::size_t y, std::size_t z) { return {x, y, z}; }
// cudaMalloc3D: rows padded like malloc_pitch, height * depth of them.
inline error_t malloc_3d(pitched_ptr *p, extent_3d e) {
  std::size_t pitch = (e.width + 255) / 256 * 256;
  void *mem = nullptr;
  error_t r = malloc_device(&mem, pitch * (e.height ? e.height : 1) * (e.depth ? e.depth : 1));
  *p = {mem, pitch, e.width, e.height};
  return r;
}
// cudaMemset3D: every row of every slice of the extent.
inline error_t memset_3d(pitched_ptr p, int value, extent_3d e) {
  return detail::guarded([&] {
    sycl::queue &q = default_queue();
    for (std::size_t z = 0; z < e.depth; ++z)
      for (std::size_t y = 0; y < e.height; ++y)
        q.memset(static_cast<char *>(p.ptr) + (z * p.ysize + y) * p.pitch, value, e.width);
    q.wait_and_throw();
  });
}
// cudaMemset3DAsync
inline error_t memset_3d_async(pitched_ptr p, int value, extent_3d e, stream_t s = nullptr) {
  return detail::on_stream(
      s,
      [=](sycl::queue &q) {
        for (std::size_t z = 0; z < e.depth; ++z)
          for (std::size_t y = 0; y < e.height; ++y)
            q.memset(static_cast<char *>(p.ptr) + (z * p.ysize + y) * p.pitch, value, e.width);
      },
      2);
}
namespace detail {
inline error_t memcpy_3d_arrays(const memcpy3d_parms *p, stream_t s, bool wait);
inline void copy_3d(sycl::queue &q, const memcpy3d_parms &c);
}
inline error_t memcpy_3d(const memcpy3d_parms *p, stream_t s = nullptr, bool wait = true) {
  if (!p)
    return detail::record(error_invalid_value);
  if (p->srcArray || p->dstArray)
    return detail::memcpy_3d_arrays(p, s, wait);
  if (!wait) {
    const memcpy3d_parms c = *p;
    return detail::on_stream(s, [c](sycl::queue &q) { detail::copy_3d(q, c); }, 1);
  }
  return detail::guarded([&] {
    sycl::queue &q = queue_of(s);
    detail::copy_3d(q, *p);
    q.wait_and_throw();
  });
}
// cudaMemcpy3DAsync(p, stream = 0)
inline error_t memcpy_3d_async(const memcpy3d_parms *p, stream_t s = nullptr) { return memcpy_3d(p, s, false); }
namespace detail {
// cudaMemcpy3D between pitched pointers: one copy per row, queued on q.
inline void copy_3d(sycl::queue &q, const memcpy3d_parms &p) {
  const std::size_t sslice = p.srcPtr.pitch * p.srcPtr.ysize, dslice = p.dstPtr.pitch * p.dstPtr.ysize;
  for (std::size_t z = 0; z < p.extent.depth; ++z)
    for (std::size_t y = 0; y < p.extent.height; ++y) {
      const char *src = static_cast<const char *>(p.srcPtr.ptr) + (p.srcPos.z + z) * sslice + (p.srcPos.y + y) * p.srcPtr.pitch + p.srcPos.x;
      char *dst = static_cast<char *>(p.dstPtr.ptr) + (p.dstPos.z + z) * dslice + (p.dstPos.y + y) * p.dstPtr.pitch + p.dstPos.x;
      q.memcpy(dst, src, p.extent.width);
    }
}
} // namespace detail
// cudaMemGetInfo: SYCL 2020 reports only the total; free is reported as the
// total unless the implementation can say more (DPC++'s ext_intel_free_memory).
inline error_t mem_get_info(std::size_t *free_bytes, std::size_t *total_bytes) {
  return detail::guarded([&] {
    sycl::device d = detail::legacy_queue().get_device();
    std::size_t total = d.get_info<sycl::info::device::global_mem_size>();
    std::size_t avail = total;
#if defined(SYCL_EXT_INTEL_DEVICE_INFO) && SYCL_EXT_INTEL_DEVICE_INFO >= 4
    if (d.has(sycl::aspect::ext_intel_free_memory))
      avail = d.get_info<sycl::ext::intel::info::device::free_memory>();
#endif
    if (free_bytes)
      *free_bytes = avail;
    if (total_bytes)
      *total_bytes = total;
  });
}
// cudaMemPrefetchAsync: a prefetch on the stream's queue (the device argument
// is implied by the queue).
inline error_t mem_prefetch_async(const void *p, std::size_t bytes, int = 0, stream_t s = nullptr) {
  return detail::guarded([&] { queue_of(s).prefetch(p, bytes); });
}
// cudaMemLocation (CUDA 13's cudaMemPrefetchAsync takes one): a prefetch to a
// device goes to the stream's queue; to the host it is a no-op (SYCL 2020
// prefetches only towards a queue's device).
enum mem_location_type { mem_location_type_invalid = 0, mem_location_type_device = 1, mem_location_type_host = 2, mem_location_type_host_numa = 3, mem_location_type_host_numa_current = 4 };
struct mem_location {
  mem_location_type type;
  int id;
};
inline error_t mem_prefetch_async(const void *p, std::size_t bytes, mem_location loc, unsigned = 0, stream_t s = nullptr) {
  if (loc.type != mem_location_type_device)
    return success;
  return detail::guarded([&] { queue_of(s).prefetch(p, bytes); });
}
// clock()/clock64() in device code: SYCL 2020 has no device clock. On an
// NVIDIA GPU it is the SM's cycle counter, as in CUDA; DPC++'s
// sycl_ext_oneapi_clock gives one elsewhere; otherwise it reads 0
// (differences of it, the usual use, are then 0).
inline long long device_clock() {
#if defined(SYCLIFY_NVPTX_DEVICE)
  long long t;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t));
  return t;
#elif defined(SYCL_EXT_ONEAPI_CLOCK)
  return static_cast<long long>(sycl::ext::oneapi::experimental::clock<sycl::ext::oneapi::experimental::clock_scope::device>());
#else
  return 0;
#endif
}
// cudaHostGetDevicePointer: host USM is device-accessible at the same address.
template <class T> error_t host_get_device_pointer(T **d, void *h, unsigned = 0) {
  *d = static_cast<T *>(h);
  return success;
}
// Peer access. SYCL 2020 has no peer-access query: with DPC++'s
// sycl_ext_oneapi_peer_access it is asked; otherwise no pair of distinct
// devices reports access (programs take their path without peer access).
inline error_t device_can_access_peer(int *can, int dev, int peer) {
  auto &v = detail::devices();
  if (dev < 0 || peer < 0 || static_cast<std::size_t>(dev) >= v.size() || static_cast<std::size_t>(peer) >= v.size())
    return detail::record(error_invalid_device);
  *can = 0;
#ifdef SYCL_EXT_ONEAPI_PEER_ACCESS
  if (dev != peer)
    *can = v[static_cast<std::size_t>(dev)].ext_oneapi_can_access_peer(v[static_cast<std::size_t>(peer)]) ? 1 : 0;
#endif
  return success;
}
inline error_t device_enable_peer_access(int peer, unsigned = 0) {
#ifdef SYCL_EXT_ONEAPI_PEER_ACCESS
  return detail::guarded([&] { detail::devices()[static_cast<std::size_t>(detail::current_device_index())].ext_oneapi_enable_peer_access(detail::devices().at(static_cast<std::size_t>(peer))); });
#else
  (void)peer;
  return detail::record(error_peer_access_unsupported);
#endif
}
inline error_t device_disable_peer_access(int peer) {
#ifdef SYCL_EXT_ONEAPI_PEER_ACCESS
  return detail::guarded([&] { detail::devices()[static_cast<std::size_t>(detail::current_device_index())].ext_oneapi_disable_peer_access(detail::devices().at(static_cast<std::size_t>(peer))); });
#else
  (void)peer;
  return detail::record(error_peer_access_not_enabled);
#endif
}
// Stream-ordered memory pools (cudaMemPool_t): SYCL 2020 has none, so a pool
// is a record of its attributes and allocations from it are ordinary device
// allocations (as cudaMallocAsync's).
enum mem_pool_attr {
  mem_pool_reuse_follow_event_dependencies = 1, mem_pool_reuse_allow_opportunistic = 2, mem_pool_reuse_allow_internal_dependencies = 3,
  mem_pool_attr_release_threshold = 4, mem_pool_attr_reserved_mem_current = 5, mem_pool_attr_reserved_mem_high = 6,
  mem_pool_attr_used_mem_current = 7, mem_pool_attr_used_mem_high = 8
};
struct mem_pool {
  int device;
  unsigned long long attrs[9];
};
using mem_pool_t = mem_pool *;
inline error_t device_get_default_mem_pool(mem_pool_t *pool, int dev) {
  static std::mutex m;
  static std::vector<std::unique_ptr<mem_pool>> pools;
  if (dev < 0 || static_cast<std::size_t>(dev) >= detail::devices().size())
    return detail::record(error_invalid_device);
  std::lock_guard<std::mutex> lock(m);
  if (pools.size() < detail::devices().size())
    pools.resize(detail::devices().size());
  auto &p = pools[static_cast<std::size_t>(dev)];
  if (!p)
    p.reset(new mem_pool{dev, {}});
  *pool = p.get();
  return success;
}
inline error_t mem_pool_set_attribute(mem_pool_t pool, mem_pool_attr a, void *value) {
  if (!pool || !value || a < 1 || a > 8)
    return detail::record(error_invalid_value);
  pool->attrs[a] = a <= 3 ? static_cast<unsigned long long>(*static_cast<int *>(value)) : *static_cast<unsigned long long *>(value);
  return success;
}
inline error_t mem_pool_get_attribute(mem_pool_t pool, mem_pool_attr a, void *value) {
  if (!pool || !value || a < 1 || a > 8)
    return detail::record(error_invalid_value);
  if (a <= 3)
    *static_cast<int *>(value) = static_cast<int>(pool->attrs[a]);
  else
    *static_cast<unsigned long long *>(value) = pool->attrs[a];
  return success;
}
inline error_t mem_pool_trim_to(mem_pool_t pool, std::size_t) { return pool ? success : detail::record(error_invalid_value); }
// cudaMallocAsync/cudaFreeAsync: stream-ordered allocation becomes an
// ordinary allocation; the free waits for the stream first. While the stream
// captures a graph they are its memory nodes: the allocation is made once,
// when captured, and lives until the graph is destroyed (graph.hpp).
namespace detail {
void graph_adopt(capture_entry *c, void *p);
void graph_adopt_alloc(capture_entry *c, void *p, std::size_t bytes);
} // namespace detail
template <class T> error_t malloc_async(T **p, std::size_t bytes, stream_t s = nullptr) {
  error_t r = malloc_device(p, bytes);
  if (detail::capture_entry *c = r == success ? detail::capturing(queue_of(s)) : nullptr)
    return detail::guarded([&] {
      detail::graph_record(c, [](sycl::queue &) {}, 10);
      detail::graph_adopt_alloc(c, *p, bytes);
    });
  return r;
}
template <class T> error_t malloc_from_pool_async(T **p, std::size_t bytes, mem_pool_t, stream_t s = nullptr) { return malloc_async(p, bytes, s); }
inline error_t free_async(void *p, stream_t s = nullptr) {
  if (detail::capture_entry *c = detail::capturing(queue_of(s)))
    return detail::guarded([&] {
      detail::graph_record(c, [](sycl::queue &) {}, 11);
      detail::graph_adopt(c, p);
    });
  return detail::guarded([&] {
    queue_of(s).wait_and_throw();
    if (detail::given_back_to_graph(p))
      return;
    sycl::free(p, detail::legacy_queue());
  });
}
// cudaPointerGetAttributes
enum memory_type { memory_type_unregistered = 0, memory_type_host = 1, memory_type_device = 2, memory_type_managed = 3 };
struct pointer_attributes {
  memory_type type;
  int device;
  void *devicePointer;
  void *hostPointer;
};
inline error_t pointer_get_attributes(pointer_attributes *a, const void *p) {
  return detail::guarded([&] {
    sycl::queue &q = detail::legacy_queue();
    sycl::usm::alloc k = sycl::get_pointer_type(p, q.get_context());
    a->device = detail::current_device_index();
    a->type = k == sycl::usm::alloc::device ? memory_type_device
              : k == sycl::usm::alloc::shared ? memory_type_managed
              : k == sycl::usm::alloc::host   ? memory_type_host
                                              : memory_type_unregistered;
    a->devicePointer = a->type == memory_type_host || a->type == memory_type_unregistered ? nullptr : const_cast<void *>(p);
    a->hostPointer = a->type == memory_type_device ? nullptr : const_cast<void *>(p);
  });
}

// cudaRuntimeGetVersion / cudaDriverGetVersion: the version of the CUDA API
// the code was migrated from (SYCLIFY_CUDART_VERSION), which is what
// version tests in migrated code compare against.
inline error_t runtime_get_version(int *v) {
  if (!v)
    return detail::record(error_invalid_value);
  *v = SYCLIFY_CUDART_VERSION;
  return success;
}
inline error_t driver_get_version(int *v) { return runtime_get_version(v); }

// Devices
inline error_t get_device_count(int *n) {
  *n = static_cast<int>(detail::devices().size());
  return success;
}
inline error_t set_device(int i) {
  if (i < 0 || static_cast<std::size_t>(i) >= detail::devices().size())
    return detail::record(error_invalid_device);
  detail::current_device_index() = i;
  return success;
}
inline error_t get_device(int *i) {
  *i = detail::current_device_index();
  return success;
}
// cudaDeviceReset: waits for all work; allocations are not released.
inline error_t device_reset() { return device_synchronize(); }

// cudaLimit and cudaDeviceGetLimit: SYCL 2020 has no device limits (stack,
// printf FIFO, heap); the values CUDA starts with are reported.
enum limit {
  limit_stack_size = 0,
  limit_printf_fifo_size = 1,
  limit_malloc_heap_size = 2,
  limit_dev_runtime_sync_depth = 3,
  limit_dev_runtime_pending_launch_count = 4,
  limit_max_l2_fetch_granularity = 5,
  limit_persisting_l2_cache_size = 6
};
inline error_t device_get_limit(std::size_t *value, limit what) {
  if (!value)
    return detail::record(error_invalid_value);
  switch (what) {
  case limit_stack_size: *value = 1024; break;
  case limit_printf_fifo_size: *value = 1048576; break;
  case limit_malloc_heap_size: *value = 8388608; break;
  case limit_dev_runtime_sync_depth: *value = 2; break;
  case limit_dev_runtime_pending_launch_count: *value = 2048; break;
  case limit_max_l2_fetch_granularity: *value = 64; break;
  case limit_persisting_l2_cache_size: *value = 0; break;
  default: return detail::record(error_invalid_value);
  }
  return success;
}

// cudaDeviceP2PAttr and cudaDeviceGetP2PAttribute: access as
// device_can_access_peer answers; no performance rank, atomics or arrays.
enum device_p2p_attr {
  dev_p2p_attr_performance_rank = 1,
  dev_p2p_attr_access_supported = 2,
  dev_p2p_attr_native_atomic_supported = 3,
  dev_p2p_attr_cuda_array_access_supported = 4
};
inline error_t device_get_p2p_attribute(int *value, device_p2p_attr attr, int src, int dst) {
  if (!value)
    return detail::record(error_invalid_value);
  int can = 0;
  if (error_t e = device_can_access_peer(&can, src, dst); e != success)
    return e;
  *value = attr == dev_p2p_attr_access_supported ? can : 0;
  return success;
}

// cudaDeviceProp, with CUDA's field names, filled from SYCL device queries.
// Fields SYCL cannot report are 0 (noted per field).
struct device_prop {
  char name[256];
  std::size_t totalGlobalMem;
  std::size_t sharedMemPerBlock;
  int regsPerBlock; // 0: not reported by SYCL
  int warpSize;
  std::size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int clockRate; // kHz
  std::size_t totalConstMem;
  int major, minor; // from the device version when it reads "major.minor" (the compute capability on CUDA devices), else 0
  int multiProcessorCount;
  int maxThreadsPerMultiProcessor; // model: 2 * maxThreadsPerBlock
  std::size_t sharedMemPerMultiprocessor;
  int l2CacheSize;
  int memoryClockRate; // 0: not reported by SYCL
  int memoryBusWidth;  // 0: not reported by SYCL
  int integrated;
  int canMapHostMemory;
  int concurrentKernels;
  int unifiedAddressing;
  int managedMemory;
  int concurrentManagedAccess;
  int ECCEnabled;
  int computeMode;                 // always 0 (default): SYCL has no compute modes
  int pageableMemoryAccess;        // 0: SYCL 2020 kernels reach USM allocations only
  int cooperativeLaunch;           // 1: the helper's grid barrier (cg::grid_group)
  int asyncEngineCount;            // 0: not reported by SYCL
  std::size_t sharedMemPerBlockOptin; // = sharedMemPerBlock (SYCL has no opt-in)
  int maxBlocksPerMultiProcessor;  // model: maxThreadsPerMultiProcessor / 32
  int regsPerMultiprocessor;       // 0: not reported by SYCL
  int pciBusID, pciDeviceID, pciDomainID; // 0: not reported by SYCL
  int kernelExecTimeoutEnabled;    // 0: not reported by SYCL
  int deviceOverlap;               // 1: copies and kernels may overlap (queues are concurrent)
  std::size_t textureAlignment;    // 0: no textures in SYCL 2020
  int persistingL2CacheMaxSize;    // 0: not reported by SYCL
};
inline error_t get_device_properties(device_prop *p, int dev) {
  if (dev < 0 || static_cast<std::size_t>(dev) >= detail::devices().size())
    return detail::record(error_invalid_device);
  return detail::guarded([&] {
    const sycl::device &d = detail::devices()[static_cast<std::size_t>(dev)];
    *p = device_prop{};
    std::string name = d.get_info<sycl::info::device::name>();
    std::size_t n = name.size() < sizeof(p->name) - 1 ? name.size() : sizeof(p->name) - 1;
    std::memcpy(p->name, name.data(), n);
    p->name[n] = 0;
    p->totalGlobalMem = d.get_info<sycl::info::device::global_mem_size>();
    p->sharedMemPerBlock = d.get_info<sycl::info::device::local_mem_size>();
    std::vector<std::size_t> sg = d.get_info<sycl::info::device::sub_group_sizes>();
    p->warpSize = 32;
    if (!sg.empty() && std::find(sg.begin(), sg.end(), std::size_t(32)) == sg.end())
      p->warpSize = static_cast<int>(*std::max_element(sg.begin(), sg.end()));
    p->memPitch = INT_MAX;
    p->maxThreadsPerBlock = static_cast<int>(d.get_info<sycl::info::device::max_work_group_size>());
    sycl::id<3> dims = d.get_info<sycl::info::device::max_work_item_sizes<3>>();
    p->maxThreadsDim[0] = static_cast<int>(dims[2]); // CUDA x is SYCL dimension 2
    p->maxThreadsDim[1] = static_cast<int>(dims[1]);
    p->maxThreadsDim[2] = static_cast<int>(dims[0]);
    p->maxGridSize[0] = INT_MAX; // SYCL 2020 has no grid-size limit query
    p->maxGridSize[1] = 65535;
    p->maxGridSize[2] = 65535;
    p->clockRate = static_cast<int>(d.get_info<sycl::info::device::max_clock_frequency>()) * 1000;
    p->totalConstMem = p->totalGlobalMem;
    // the compute capability: DPC++'s CUDA backend reports "9.0",
    // AdaptiveCpp's the architecture, "sm_90" (the last digit the minor)
    std::string ver = d.get_info<sycl::info::device::version>();
    if (ver.size() >= 3 && ver[0] >= '0' && ver[0] <= '9' && (ver[1] == '.' || (ver[2] == '.' && ver[1] >= '0' && ver[1] <= '9'))) {
      std::size_t dot = ver.find('.');
      p->major = std::atoi(ver.substr(0, dot).c_str());
      p->minor = std::atoi(ver.substr(dot + 1).c_str());
    } else if (ver.rfind("sm_", 0) == 0 && ver.size() >= 5) {
      std::size_t digits = 3;
      while (digits < ver.size() && ver[digits] >= '0' && ver[digits] <= '9')
        ++digits;
      if (digits >= 5) {
        p->major = std::atoi(ver.substr(3, digits - 4).c_str());
        p->minor = ver[digits - 1] - '0';
      }
    }
    p->multiProcessorCount = static_cast<int>(d.get_info<sycl::info::device::max_compute_units>());
    p->maxThreadsPerMultiProcessor = 2 * p->maxThreadsPerBlock;
    p->sharedMemPerMultiprocessor = p->sharedMemPerBlock;
    p->l2CacheSize = static_cast<int>(d.get_info<sycl::info::device::global_mem_cache_size>());
    p->integrated = 0;
    p->canMapHostMemory = d.has(sycl::aspect::usm_host_allocations);
    p->concurrentKernels = 1;
    p->unifiedAddressing = 1;
    p->managedMemory = d.has(sycl::aspect::usm_shared_allocations);
    p->concurrentManagedAccess = p->managedMemory;
    p->ECCEnabled = d.get_info<sycl::info::device::error_correction_support>();
    p->sharedMemPerBlockOptin = p->sharedMemPerBlock;
    p->maxBlocksPerMultiProcessor = p->maxThreadsPerMultiProcessor / 32;
    p->cooperativeLaunch = 1;
    p->deviceOverlap = 1;
  });
}
enum device_attr {
  dev_attr_max_threads_per_block = 1, dev_attr_max_block_dim_x = 2, dev_attr_max_block_dim_y = 3, dev_attr_max_block_dim_z = 4,
  dev_attr_max_grid_dim_x = 5, dev_attr_max_grid_dim_y = 6, dev_attr_max_grid_dim_z = 7, dev_attr_max_shared_memory_per_block = 8,
  dev_attr_total_constant_memory = 9, dev_attr_warp_size = 10, dev_attr_max_pitch = 11, dev_attr_max_registers_per_block = 12,
  dev_attr_clock_rate = 13, dev_attr_gpu_overlap = 15, dev_attr_multi_processor_count = 16, dev_attr_integrated = 18, dev_attr_can_map_host_memory = 19,
  dev_attr_compute_mode = 20, dev_attr_concurrent_kernels = 31, dev_attr_ecc_enabled = 32, dev_attr_memory_clock_rate = 36,
  dev_attr_global_memory_bus_width = 37, dev_attr_l2_cache_size = 38, dev_attr_max_threads_per_multi_processor = 39,
  dev_attr_async_engine_count = 40,
  dev_attr_unified_addressing = 41, dev_attr_compute_capability_major = 75, dev_attr_compute_capability_minor = 76,
  dev_attr_max_shared_memory_per_multiprocessor = 81, dev_attr_managed_memory = 83, dev_attr_pageable_memory_access = 88,
  dev_attr_concurrent_managed_access = 89, dev_attr_cooperative_launch = 95, dev_attr_max_shared_memory_per_block_optin = 97,
  dev_attr_max_blocks_per_multiprocessor = 106, dev_attr_memory_pools_supported = 115,
  dev_attr_texture_alignment = 14, dev_attr_kernel_exec_timeout = 17, dev_attr_max_texture_1d_width = 21,
  dev_attr_max_texture_2d_width = 22, dev_attr_max_texture_2d_height = 23, dev_attr_max_texture_3d_width = 24,
  dev_attr_max_texture_3d_height = 25, dev_attr_max_texture_3d_depth = 26, dev_attr_max_texture_2d_layered_width = 27,
  dev_attr_max_texture_2d_layered_height = 28, dev_attr_max_texture_2d_layered_layers = 29, dev_attr_surface_alignment = 30,
  dev_attr_pci_bus_id = 33, dev_attr_pci_device_id = 34, dev_attr_tcc_driver = 35, dev_attr_max_texture_1d_layered_width = 42,
  dev_attr_max_texture_1d_layered_layers = 43, dev_attr_pci_domain_id = 50, dev_attr_compute_preemption_supported = 90,
  dev_attr_cooperative_multi_device_launch = 96, dev_attr_host_native_atomic_supported = 86
};
// cudaComputeMode: SYCL has no exclusive or prohibited modes; every device reads as default.
enum compute_mode { compute_mode_default = 0, compute_mode_exclusive = 1, compute_mode_prohibited = 2, compute_mode_exclusive_process = 3 };
// cudaDeviceGetAttribute, from the same queries as get_device_properties.
inline error_t device_get_attribute(int *v, device_attr a, int dev) {
  device_prop p;
  error_t e = get_device_properties(&p, dev);
  if (e != success)
    return e;
  switch (a) {
  case dev_attr_max_threads_per_block: *v = p.maxThreadsPerBlock; break;
  case dev_attr_max_block_dim_x: *v = p.maxThreadsDim[0]; break;
  case dev_attr_max_block_dim_y: *v = p.maxThreadsDim[1]; break;
  case dev_attr_max_block_dim_z: *v = p.maxThreadsDim[2]; break;
  case dev_attr_max_grid_dim_x: *v = p.maxGridSize[0]; break;
  case dev_attr_max_grid_dim_y: *v = p.maxGridSize[1]; break;
  case dev_attr_max_grid_dim_z: *v = p.maxGridSize[2]; break;
  case dev_attr_max_shared_memory_per_block: *v = static_cast<int>(p.sharedMemPerBlock); break;
  case dev_attr_total_constant_memory: *v = static_cast<int>(p.totalConstMem > INT_MAX ? INT_MAX : p.totalConstMem); break;
  case dev_attr_warp_size: *v = p.warpSize; break;
  case dev_attr_clock_rate: *v = p.clockRate; break;
  case dev_attr_multi_processor_count: *v = p.multiProcessorCount; break;
  case dev_attr_gpu_overlap: *v = p.deviceOverlap; break;
  case dev_attr_async_engine_count: *v = p.asyncEngineCount; break; // 0: not reported by SYCL
  case dev_attr_integrated: *v = p.integrated; break;
  case dev_attr_compute_capability_major: *v = p.major; break;
  case dev_attr_compute_capability_minor: *v = p.minor; break;
  case dev_attr_l2_cache_size: *v = p.l2CacheSize; break;
  case dev_attr_max_threads_per_multi_processor: *v = p.maxThreadsPerMultiProcessor; break;
  case dev_attr_managed_memory: *v = p.managedMemory; break;
  case dev_attr_concurrent_managed_access: *v = p.concurrentManagedAccess; break;
  case dev_attr_max_pitch: *v = static_cast<int>(p.memPitch > INT_MAX ? INT_MAX : p.memPitch); break;
  case dev_attr_max_registers_per_block: *v = p.regsPerBlock; break; // 0: not reported by SYCL
  case dev_attr_can_map_host_memory: *v = p.canMapHostMemory; break;
  case dev_attr_compute_mode: *v = compute_mode_default; break;
  case dev_attr_concurrent_kernels: *v = p.concurrentKernels; break;
  case dev_attr_ecc_enabled: *v = p.ECCEnabled; break;
  case dev_attr_memory_clock_rate: *v = p.memoryClockRate; break;       // 0: not reported by SYCL
  case dev_attr_global_memory_bus_width: *v = p.memoryBusWidth; break;  // 0: not reported by SYCL
  case dev_attr_unified_addressing: *v = p.unifiedAddressing; break;
  case dev_attr_max_shared_memory_per_multiprocessor: *v = static_cast<int>(p.sharedMemPerMultiprocessor); break;
  case dev_attr_pageable_memory_access: *v = 0; break; // SYCL 2020: only USM allocations are device-accessible
  case dev_attr_cooperative_launch: *v = 1; break;     // the helper's grid barrier (cg::grid_group)
  case dev_attr_max_shared_memory_per_block_optin: *v = static_cast<int>(p.sharedMemPerBlock); break;
  case dev_attr_max_blocks_per_multiprocessor: *v = p.maxBlocksPerMultiProcessor; break;
  case dev_attr_memory_pools_supported: *v = 1; break; // stream-ordered allocation is emulated (see mem pools)
  // textures and surfaces are sampled in software from USM (texture.hpp): no
  // limit but memory; CUDA's limits for compute capability 9.0 are reported
  case dev_attr_texture_alignment: *v = 512; break;
  case dev_attr_surface_alignment: *v = 512; break;
  case dev_attr_max_texture_1d_width: *v = 131072; break;
  case dev_attr_max_texture_2d_width: *v = 131072; break;
  case dev_attr_max_texture_2d_height: *v = 65536; break;
  case dev_attr_max_texture_3d_width: case dev_attr_max_texture_3d_height: case dev_attr_max_texture_3d_depth: *v = 16384; break;
  case dev_attr_max_texture_2d_layered_width: case dev_attr_max_texture_2d_layered_height: *v = 32768; break;
  case dev_attr_max_texture_2d_layered_layers: case dev_attr_max_texture_1d_layered_layers: *v = 2048; break;
  case dev_attr_max_texture_1d_layered_width: *v = 32768; break;
  case dev_attr_kernel_exec_timeout: *v = 0; break;
  case dev_attr_tcc_driver: *v = 0; break;
  // SYCL 2020 reports no PCI location
  case dev_attr_pci_bus_id: case dev_attr_pci_device_id: case dev_attr_pci_domain_id: *v = 0; break;
  case dev_attr_compute_preemption_supported: *v = 0; break;
  case dev_attr_cooperative_multi_device_launch: *v = 0; break; // multi_grid groups are refused
  case dev_attr_host_native_atomic_supported: *v = 0; break;     // system atomics are the helper's, not native
  default: return detail::record(error_invalid_value);
  }
  return success;
}

// L2 access-policy windows (cudaAccessPolicyWindow in a cudaStreamAttrValue,
// set by cudaStreamSetAttribute): a cache hint with no SYCL 2020 equivalent;
// the types exist so the code that fills them compiles, the call is removed.
enum access_property { access_property_normal = 0, access_property_streaming = 1, access_property_persisting = 2 };
enum stream_attr_id { stream_attribute_access_policy_window = 1, stream_attribute_synchronization_policy = 3 };
struct access_policy_window {
  void *base_ptr = nullptr;
  std::size_t num_bytes = 0;
  float hitRatio = 0.0f;
  access_property hitProp = access_property_normal, missProp = access_property_normal;
};
struct stream_attr_value {
  access_policy_window accessPolicyWindow;
  int syncPolicy = 0;
};

// cudaFuncAttributes / cudaFuncGetAttributes: SYCL 2020 reports no
// per-kernel resources, so a kernel reads as the device allows: its
// work-group limit, its local memory as the dynamic limit; registers and
// static sizes are 0 (not reported), versions the device's compute
// capability as CUDA writes it (90 for 9.0).
struct func_attributes {
  std::size_t sharedSizeBytes = 0, constSizeBytes = 0, localSizeBytes = 0;
  int maxThreadsPerBlock = 0, numRegs = 0, ptxVersion = 0, binaryVersion = 0, cacheModeCA = 0;
  int maxDynamicSharedSizeBytes = 0, preferredShmemCarveout = -1, clusterDimMustBeSet = 0;
  int requiredClusterWidth = 0, requiredClusterHeight = 0, requiredClusterDepth = 0;
  int clusterSchedulingPolicyPreference = 0, nonPortableClusterSizeAllowed = 0;
};
template <class F> error_t func_get_attributes(func_attributes *a, F) {
  device_prop p;
  error_t e = get_device_properties(&p, detail::current_device_index());
  if (e != success)
    return e;
  *a = func_attributes{};
  a->maxThreadsPerBlock = p.maxThreadsPerBlock;
  a->maxDynamicSharedSizeBytes = static_cast<int>(p.sharedMemPerBlock);
  a->ptxVersion = a->binaryVersion = p.major * 10 + p.minor;
  return success;
}

// Occupancy, by the stated model of detail::groups_per_compute_unit (2 x
// max_work_group_size work-items per compute unit, in work-groups of at
// least 32; the local memory of one work-group; registers not modelled).
// A cooperative launch of multiProcessorCount times the figure passes the
// launch's check.
template <class F> error_t occupancy_max_potential_block_size(int *min_grid, int *block, F, std::size_t = 0, int limit = 0) {
  device_prop p;
  error_t e = get_device_properties(&p, detail::current_device_index());
  if (e != success)
    return e;
  int b = p.maxThreadsPerBlock;
  if (limit > 0 && limit < b)
    b = limit;
  b = b >= 32 ? b / 32 * 32 : b;
  *block = b;
  *min_grid = p.multiProcessorCount * (p.maxThreadsPerMultiProcessor / (b > 0 ? b : 1));
  return success;
}
namespace detail {
// Does kernel type F take a grid barrier (reach this_grid())?
template <class F> struct takes_grid_sync : std::false_type {};
template <class R, class... P>
struct takes_grid_sync<R (*)(P...)> : std::bool_constant<(std::is_same_v<std::decay_t<P>, cg::grid_sync> || ...)> {};
} // namespace detail
// For a kernel that syncs its grid (its type says so: it takes the grid
// barrier), the figure is also one that holds whatever its registers: on an
// NVIDIA GPU (65,536 registers per SM, at most 255 per thread) the
// work-groups of `block` work-items that fit at 255 registers, at least one,
// so that a cooperative grid sized from it always runs at once (the model
// alone over-estimated kernels with many registers, which the grid barrier's
// watchdog then reported).
template <class F> error_t occupancy_max_active_blocks_per_multiprocessor(int *n, F, int block, std::size_t local_bytes = 0) {
  device_prop p;
  error_t e = get_device_properties(&p, detail::current_device_index());
  if (e != success)
    return e;
  *n = block > 0 ? static_cast<int>(detail::groups_per_compute_unit(static_cast<std::size_t>(p.maxThreadsPerBlock), p.sharedMemPerBlock,
                                                                      static_cast<std::size_t>(block), local_bytes))
                 : 0;
  if constexpr (detail::takes_grid_sync<std::decay_t<F>>::value) {
    if (*n > 0 && detail::legacy_queue().get_device().get_info<sycl::info::device::vendor_id>() == 0x10de) {
      const int warps = (block + 31) / 32, fit = 8 / warps > 1 ? 8 / warps : 1;
      *n = *n < fit ? *n : fit;
    }
  }
  return success;
}
// cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags: the flags (caching
// hints) do not change the model.
template <class F> error_t occupancy_max_active_blocks_per_multiprocessor_with_flags(int *n, F f, int block, std::size_t local_bytes, unsigned) {
  return occupancy_max_active_blocks_per_multiprocessor(n, f, block, local_bytes);
}
namespace detail {
// After the first launch of a configuration that uses a grid barrier: did
// the barrier hold (every work-group resident at once)?
inline void check_grid_launch(sycl::queue &q, grid_state *s) {
  q.wait_and_throw();
  if (s->broken != 0u) {
    *s = grid_state{};
    std::fprintf(stderr, "syclify: a grid barrier waited 5 s for work-groups that never arrived: the launch's work-groups were not all "
                         "resident at once (the occupancy model does not see registers); launch fewer work-groups, or cap the model's "
                         "work-groups per compute unit with SYCLIFY_GROUPS_PER_CU (e.g. 1)\n");
    throw sycl::exception(std::error_code(error_cooperative_launch_too_large, cuda_category()), "cooperative launch too large");
  }
}
} // namespace detail

// ---------------------------------------------------------------------------
// 15. Device global variables (__constant__, __device__, __managed__)
// A symbol owns one allocation of T (an array type for arrays) on the default
// queue's device, made on first use and initialised from the static
// initialiser (zero when there is none, as in CUDA). Kernels receive
// *get_ptr() as a parameter of the variable's name. The allocation lives
// until the program ends (a static's destructor could run after the queue's).
namespace detail {
struct symbol_base {
  virtual void prepare() = 0;
};
struct symbol_registry {
  std::mutex m;
  std::vector<symbol_base *> all;
  // symbols enrolled and not prepared yet (the launch fast path reads it)
  std::atomic<std::size_t> unprepared{0};
};
inline symbol_registry &symbols() {
  static symbol_registry r;
  return r;
}
// Allocates every device global not allocated yet (called before launches;
// one atomic load when there is none).
inline void prepare_symbols() {
  symbol_registry &r = symbols();
  if (r.unprepared.load(std::memory_order_acquire) == 0)
    return;
  std::lock_guard<std::mutex> lock(r.m);
  for (symbol_base *s : r.all)
    s->prepare();
  r.unprepared.store(0, std::memory_order_release);
}
} // namespace detail

template <class T, bool Shared = false> class symbol : detail::symbol_base {
  // a `const` global (`__constant__ const int t[256] = {..}`) is still
  // initialised here, then copied to the device
  std::remove_const_t<T> init_;
  std::once_flag once_;
  T *ptr_ = nullptr;
  void enroll() {
    std::lock_guard<std::mutex> lock(detail::symbols().m);
    detail::symbols().all.push_back(this);
    detail::symbols().unprepared.fetch_add(1, std::memory_order_release);
  }
  void prepare() override { get_ptr(); }

public:
  using value_type = T;
  symbol() : init_{} { enroll(); }
  symbol(const T &init) {
    std::memcpy(static_cast<void *>(&init_), static_cast<const void *>(&init), sizeof(T));
    enroll();
  }
  symbol(const symbol &) = delete;
  symbol &operator=(const symbol &) = delete;
  // The device (or, for managed symbols, shared) allocation.
  T *get_ptr() {
    std::call_once(once_, [&] {
      sycl::queue &q = detail::legacy_queue();
      void *p = Shared ? sycl::malloc_shared(sizeof(T), q) : sycl::malloc_device(sizeof(T), q);
      if (!p)
        throw sycl::exception(sycl::make_error_code(sycl::errc::memory_allocation), "cannot allocate a device global");
      q.memcpy(p, static_cast<const void *>(&init_), sizeof(T)).wait();
      ptr_ = static_cast<T *>(p);
    });
    return ptr_;
  }
  static constexpr std::size_t size() { return sizeof(T); }
};
// __managed__: in shared USM, so the host can also read and write it.
template <class T> using managed_symbol = symbol<T, true>;

// cudaMemcpyToSymbol(sym, src, count, offset = 0, kind)
template <class T, bool S> error_t memcpy_to_symbol(symbol<T, S> &sym, const void *src, std::size_t count, std::size_t offset = 0, memcpy_kind = memcpy_host_to_device) {
  return detail::guarded([&] { default_queue().memcpy(reinterpret_cast<char *>(sym.get_ptr()) + offset, src, count).wait_and_throw(); });
}
// cudaMemcpyFromSymbol(dst, sym, count, offset = 0, kind)
template <class T, bool S> error_t memcpy_from_symbol(void *dst, symbol<T, S> &sym, std::size_t count, std::size_t offset = 0, memcpy_kind = memcpy_device_to_host) {
  return detail::guarded([&] { default_queue().memcpy(dst, reinterpret_cast<const char *>(sym.get_ptr()) + offset, count).wait_and_throw(); });
}
// The asynchronous forms, on a stream.
template <class T, bool S> error_t memcpy_to_symbol_async(symbol<T, S> &sym, const void *src, std::size_t count, std::size_t offset = 0, memcpy_kind = memcpy_host_to_device, stream_t s = nullptr) {
  char *dst = reinterpret_cast<char *>(sym.get_ptr()) + offset;
  return detail::on_stream(s, [=](sycl::queue &q) { q.memcpy(dst, src, count); }, 1);
}
template <class T, bool S> error_t memcpy_from_symbol_async(void *dst, symbol<T, S> &sym, std::size_t count, std::size_t offset = 0, memcpy_kind = memcpy_device_to_host, stream_t s = nullptr) {
  const char *src = reinterpret_cast<const char *>(sym.get_ptr()) + offset;
  return detail::on_stream(s, [=](sycl::queue &q) { q.memcpy(dst, src, count); }, 1);
}
// cudaGetSymbolAddress(&p, sym) and cudaGetSymbolSize(&n, sym)
template <class P, class T, bool S> error_t get_symbol_address(P **p, symbol<T, S> &sym) {
  return detail::guarded([&] { *p = reinterpret_cast<P *>(sym.get_ptr()); });
}
template <class T, bool S> error_t get_symbol_size(std::size_t *n, symbol<T, S> &) {
  *n = sizeof(T);
  return success;
}


} // namespace syclify

// 16. Arrays, textures and surfaces: their own file
#include "texture.hpp"
// 17. Graphs: their own file
#include "graph.hpp"
// 18. The driver API: its own file
#include "driver.hpp"

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
