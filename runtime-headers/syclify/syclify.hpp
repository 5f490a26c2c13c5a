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
#pragma once

#include <sycl/sycl.hpp>

#include <cmath>
#include <cstddef>
#include <cstring>
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

} // namespace syclify
