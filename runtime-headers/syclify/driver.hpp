// syclify driver API helpers (part of syclify.hpp; do not include directly)
//
// CUDA's driver API (cuda.h) over the runtime helpers: devices are ordinals,
// a context is the device it was made for (current per thread), device
// pointers (CUdeviceptr) are integers holding USM addresses, streams and
// events are the runtime's. Modules are the migrated module sources built as
// SYCL shared libraries: cuModuleLoad opens one by path (dlopen), and
// cuModuleGetFunction finds the launcher syclify writes beside each kernel
// declared extern "C" (`syclify_kernel_<name>`). PTX, cubins and fatbins are
// NVIDIA device code: loading one is an error that says so.
#pragma once

#if defined(_WIN32)
#ifndef NOMINMAX
#define NOMINMAX // (windows.h's min/max macros would rewrite the program's std::min)
#endif
#include <windows.h>
#else
#include <dlfcn.h>
#include <unistd.h>
#endif
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <iterator>
#include <mutex>
#include <string>
#if defined(__has_include)
#if __has_include(<cxxabi.h>)
#include <cxxabi.h>
#define SYCLIFY_HAS_CXXABI 1
#endif
#endif

namespace syclify {
namespace driver {

// CUresult: an enumeration of its own (a program overloads on it beside
// cudaError_t: helper_cuda.h's _cudaGetErrorEnum), with CUDA's values, which
// are the runtime's where both have a code.
enum result_t : int {
  success = 0,
  error_invalid_value = 1,
  error_out_of_memory = 2,
  error_not_initialized = 3,
  error_deinitialized = 4,
  error_no_device = 100,
  error_invalid_device = 101,
  error_invalid_image = 200,
  error_invalid_context = 201,
  error_no_binary_for_gpu = 209,
  error_invalid_ptx = 218,
  error_invalid_source = 300,
  error_file_not_found = 301,
  error_shared_object_symbol_not_found = 302,
  error_shared_object_init_failed = 303,
  error_invalid_handle = 400,
  error_not_found = 500,
  error_not_ready = 600,
  error_illegal_address = 700,
  error_launch_out_of_resources = 701,
  error_launch_timeout = 702,
  error_launch_failed = 719,
  error_not_supported = 801,
  error_unknown = 999,
};
namespace detail {
inline result_t fail(error_t e) { return static_cast<result_t>(syclify::detail::record(e)); }
} // namespace detail

using device_t = int;                    // CUdevice: an ordinal
using deviceptr_t = unsigned long long;  // CUdeviceptr: an address
inline void *ptr(deviceptr_t p) { return reinterpret_cast<void *>(static_cast<std::uintptr_t>(p)); }
inline deviceptr_t address(const void *p) { return static_cast<deviceptr_t>(reinterpret_cast<std::uintptr_t>(p)); }

// cuGetErrorString / cuGetErrorName: out-parameters, CUDA_ERROR_* names.
inline const char *error_string(int e) {
  switch (e) {
  case error_not_initialized: return "initialization error";
  case error_deinitialized: return "driver shutting down";
  case error_no_device: return "no CUDA-capable device is detected";
  case error_invalid_image: return "device kernel image is invalid";
  case error_invalid_context: return "invalid device context";
  case error_no_binary_for_gpu: return "no kernel image is available for execution on the device";
  case error_invalid_ptx: return "a PTX JIT compilation failed";
  case error_file_not_found: return "file not found";
  case error_shared_object_symbol_not_found: return "shared object symbol not found";
  case error_shared_object_init_failed: return "shared object initialization failed";
  case error_not_found: return "named symbol not found";
  case error_invalid_handle: return "invalid resource handle";
  default: return syclify::get_error_string(static_cast<error_t>(e));
  }
}
inline result_t get_error_string(error_t e, const char **s) {
  if (!s)
    return detail::fail(error_invalid_value);
  *s = error_string(e);
  return success;
}
inline result_t get_error_name(error_t e, const char **s) {
  if (!s)
    return detail::fail(error_invalid_value);
  switch (e) {
  case success: *s = "CUDA_SUCCESS"; break;
  case error_invalid_value: *s = "CUDA_ERROR_INVALID_VALUE"; break;
  case error_out_of_memory: *s = "CUDA_ERROR_OUT_OF_MEMORY"; break;
  case error_not_initialized: *s = "CUDA_ERROR_NOT_INITIALIZED"; break;
  case error_deinitialized: *s = "CUDA_ERROR_DEINITIALIZED"; break;
  case error_no_device: *s = "CUDA_ERROR_NO_DEVICE"; break;
  case error_invalid_device: *s = "CUDA_ERROR_INVALID_DEVICE"; break;
  case error_invalid_image: *s = "CUDA_ERROR_INVALID_IMAGE"; break;
  case error_invalid_context: *s = "CUDA_ERROR_INVALID_CONTEXT"; break;
  case error_no_binary_for_gpu: *s = "CUDA_ERROR_NO_BINARY_FOR_GPU"; break;
  case error_invalid_ptx: *s = "CUDA_ERROR_INVALID_PTX"; break;
  case error_file_not_found: *s = "CUDA_ERROR_FILE_NOT_FOUND"; break;
  case error_shared_object_symbol_not_found: *s = "CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND"; break;
  case error_shared_object_init_failed: *s = "CUDA_ERROR_SHARED_OBJECT_INIT_FAILED"; break;
  case error_invalid_handle: *s = "CUDA_ERROR_INVALID_HANDLE"; break;
  case error_not_found: *s = "CUDA_ERROR_NOT_FOUND"; break;
  case error_not_ready: *s = "CUDA_ERROR_NOT_READY"; break;
  case error_illegal_address: *s = "CUDA_ERROR_ILLEGAL_ADDRESS"; break;
  case error_launch_out_of_resources: *s = "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"; break;
  case error_launch_failed: *s = "CUDA_ERROR_LAUNCH_FAILED"; break;
  case error_not_supported: *s = "CUDA_ERROR_NOT_SUPPORTED"; break;
  default: *s = "CUDA_ERROR_UNKNOWN"; break;
  }
  return success;
}

// ---------------------------------------------------------------------------
// Initialisation, versions, devices
inline result_t init(unsigned flags) {
  if (flags != 0)
    return detail::fail(error_invalid_value);
  return result_t(syclify::detail::guarded([] { (void)syclify::detail::devices(); }));
}
inline result_t device_get_count(int *n) { return result_t(get_device_count(n)); }
inline result_t device_get(device_t *d, int ordinal) {
  int n = 0;
  if (!d || get_device_count(&n) != success || ordinal < 0 || ordinal >= n)
    return detail::fail(error_invalid_device);
  *d = ordinal;
  return success;
}
inline result_t device_get_name(char *name, int len, device_t d) {
  device_prop p;
  if (!name || len <= 0)
    return detail::fail(error_invalid_value);
  const error_t e = get_device_properties(&p, d);
  if (e != success)
    return result_t(e);
  std::snprintf(name, static_cast<std::size_t>(len), "%s", p.name);
  return success;
}
inline result_t device_total_mem(std::size_t *bytes, device_t d) {
  device_prop p;
  if (!bytes)
    return detail::fail(error_invalid_value);
  const error_t e = get_device_properties(&p, d);
  if (e == success)
    *bytes = p.totalGlobalMem;
  return result_t(e);
}
// cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_X, dev): CUDA gives the
// driver's attributes the runtime's values.
inline result_t device_get_attribute(int *v, device_attr a, device_t d) { return result_t(syclify::device_get_attribute(v, a, d)); }
// cuDeviceComputeCapability (deprecated)
inline result_t device_compute_capability(int *major, int *minor, device_t d) {
  device_prop p;
  if (!major || !minor)
    return detail::fail(error_invalid_value);
  const error_t e = get_device_properties(&p, d);
  if (e == success) {
    *major = p.major;
    *minor = p.minor;
  }
  return result_t(e);
}

// ---------------------------------------------------------------------------
// Contexts: the device they were made for, current per thread (a stack, as
// cuCtxPushCurrent/PopCurrent keep it). Making one current makes its device
// the runtime's current device. The primary context of a device is one per
// device, as CUDA keeps it.
struct context {
  device_t device;
  unsigned flags;
  bool primary;
};
using context_t = context *;
// CUDA 13's cuCtxCreate takes creation parameters (execution affinity, CIG):
// none has a SYCL meaning.
struct ctx_create_params {
  void *execAffinityParams;
  int numExecAffinityParams;
  void *cigParams;
};
namespace detail {
inline std::vector<context_t> &context_stack() {
  static thread_local std::vector<context_t> s;
  return s;
}
inline context_t &primary(device_t d) {
  static std::vector<context> all = [] {
    std::vector<context> v;
    for (std::size_t i = 0; i < syclify::detail::devices().size(); ++i)
      v.push_back(context{static_cast<device_t>(i), 0, true});
    return v;
  }();
  static std::vector<context_t> ptrs = [] {
    std::vector<context_t> v;
    for (context &c : all)
      v.push_back(&c);
    return v;
  }();
  return ptrs[static_cast<std::size_t>(d)];
}
inline bool valid_device(device_t d) { return d >= 0 && static_cast<std::size_t>(d) < syclify::detail::devices().size(); }
inline error_t make_current(context_t c) {
  if (c)
    return set_device(c->device);
  return success;
}
} // namespace detail
inline result_t ctx_create(context_t *c, unsigned flags, device_t d) {
  if (!c)
    return detail::fail(error_invalid_value);
  if (!detail::valid_device(d))
    return detail::fail(error_invalid_device);
  *c = new context{d, flags, false};
  detail::context_stack().push_back(*c);
  return result_t(detail::make_current(*c));
}
inline result_t ctx_create(context_t *c, ctx_create_params *, unsigned flags, device_t d) { return result_t(ctx_create(c, flags, d)); }
inline result_t ctx_destroy(context_t c) {
  if (!c)
    return detail::fail(error_invalid_context);
  // (off this thread's stack wherever it is on it)
  std::vector<context_t> &s = detail::context_stack();
  s.erase(std::remove(s.begin(), s.end(), c), s.end());
  const error_t e = syclify::device_synchronize();
  if (!c->primary)
    delete c;
  return result_t(e);
}
inline result_t ctx_get_current(context_t *c) {
  if (!c)
    return detail::fail(error_invalid_value);
  const std::vector<context_t> &s = detail::context_stack();
  *c = s.empty() ? nullptr : s.back();
  return success;
}
inline result_t ctx_set_current(context_t c) {
  std::vector<context_t> &s = detail::context_stack();
  if (s.empty()) {
    if (c)
      s.push_back(c);
  } else if (c) {
    s.back() = c;
  } else {
    s.pop_back();
  }
  return result_t(detail::make_current(c));
}
inline result_t ctx_push_current(context_t c) {
  if (!c)
    return detail::fail(error_invalid_context);
  detail::context_stack().push_back(c);
  return result_t(detail::make_current(c));
}
inline result_t ctx_pop_current(context_t *c) {
  std::vector<context_t> &s = detail::context_stack();
  if (s.empty())
    return detail::fail(error_invalid_context);
  if (c)
    *c = s.back();
  s.pop_back();
  return result_t(detail::make_current(s.empty() ? nullptr : s.back()));
}
// The device of the current context, or the runtime's current device when no
// context is current (CUDA: CUDA_ERROR_INVALID_CONTEXT; a program mixing the
// two APIs has the runtime's primary context current).
inline result_t ctx_get_device(device_t *d) {
  if (!d)
    return detail::fail(error_invalid_value);
  const std::vector<context_t> &s = detail::context_stack();
  *d = s.empty() ? syclify::detail::current_device_index() : s.back()->device;
  return success;
}
inline result_t ctx_synchronize() { return result_t(syclify::device_synchronize()); }
inline result_t ctx_get_api_version(context_t, unsigned *v) {
  if (!v)
    return detail::fail(error_invalid_value);
  *v = 3020; // what CUDA has reported since 3.2
  return success;
}
inline result_t ctx_get_flags(unsigned *flags) {
  if (!flags)
    return detail::fail(error_invalid_value);
  const std::vector<context_t> &s = detail::context_stack();
  *flags = s.empty() ? 0 : s.back()->flags;
  return success;
}
inline result_t ctx_get_limit(std::size_t *v, limit what) { return result_t(syclify::device_get_limit(v, what)); }
inline result_t device_primary_ctx_retain(context_t *c, device_t d) {
  if (!c)
    return detail::fail(error_invalid_value);
  if (!detail::valid_device(d))
    return detail::fail(error_invalid_device);
  *c = detail::primary(d);
  return success;
}
inline result_t device_primary_ctx_release(device_t d) {
  return result_t(detail::valid_device(d) ? success : detail::fail(error_invalid_device));
}
inline result_t device_primary_ctx_reset(device_t d) {
  return result_t(detail::valid_device(d) ? syclify::device_synchronize() : detail::fail(error_invalid_device));
}
inline result_t device_primary_ctx_get_state(device_t d, unsigned *flags, int *active) {
  if (!flags || !active)
    return detail::fail(error_invalid_value);
  if (!detail::valid_device(d))
    return detail::fail(error_invalid_device);
  *flags = detail::primary(d)->flags;
  *active = 1;
  return success;
}
inline result_t device_primary_ctx_set_flags(device_t d, unsigned flags) {
  if (!detail::valid_device(d))
    return detail::fail(error_invalid_device);
  detail::primary(d)->flags = flags;
  return success;
}

// ---------------------------------------------------------------------------
// Memory: CUdeviceptr holds a USM address.
inline result_t mem_alloc(deviceptr_t *p, std::size_t bytes) {
  if (!p)
    return detail::fail(error_invalid_value);
  void *m = nullptr;
  const error_t e = malloc_device(&m, bytes);
  *p = address(m);
  return result_t(e);
}
inline result_t mem_alloc_managed(deviceptr_t *p, std::size_t bytes, unsigned = mem_attach_global) {
  if (!p)
    return detail::fail(error_invalid_value);
  void *m = nullptr;
  const error_t e = malloc_shared(&m, bytes);
  *p = address(m);
  return result_t(e);
}
// cuMemAllocPitch(&p, &pitch, widthInBytes, height, elementSizeBytes)
inline result_t mem_alloc_pitch(deviceptr_t *p, std::size_t *pitch, std::size_t width, std::size_t height, unsigned element) {
  if (!p || !pitch || (element != 4 && element != 8 && element != 16))
    return detail::fail(error_invalid_value);
  void *m = nullptr;
  const error_t e = malloc_pitch(&m, pitch, width, height);
  *p = address(m);
  return result_t(e);
}
inline result_t mem_free(deviceptr_t p) { return result_t(usm_free(ptr(p))); }
template <class T> result_t mem_alloc_host(T **p, std::size_t bytes) { return result_t(malloc_host(p, bytes)); }
template <class T> result_t mem_host_alloc(T **p, std::size_t bytes, unsigned = 0) { return result_t(malloc_host(p, bytes)); }
inline result_t mem_free_host(void *p) { return result_t(usm_free(p)); }
// cuMemHostGetDevicePointer: host USM is device-accessible at its address.
inline result_t mem_host_get_device_pointer(deviceptr_t *d, void *h, unsigned = 0) {
  if (!d || !h)
    return detail::fail(error_invalid_value);
  *d = address(h);
  return success;
}
// cuMemHostGetFlags: host USM is both portable and mapped.
inline result_t mem_host_get_flags(unsigned *flags, void *h) {
  if (!flags || !h)
    return detail::fail(error_invalid_value);
  *flags = host_alloc_portable | host_alloc_mapped;
  return success;
}
inline result_t mem_get_info(std::size_t *free_bytes, std::size_t *total_bytes) { return result_t(syclify::mem_get_info(free_bytes, total_bytes)); }

// Copies: cuMemcpy(dst, src, n) between any two USM addresses, and the
// directional forms; the Async forms are queued on the stream.
inline result_t memcpy(deviceptr_t dst, deviceptr_t src, std::size_t n) { return result_t(usm_memcpy(ptr(dst), ptr(src), n)); }
inline result_t memcpy_htod(deviceptr_t dst, const void *src, std::size_t n) { return result_t(usm_memcpy(ptr(dst), src, n)); }
inline result_t memcpy_dtoh(void *dst, deviceptr_t src, std::size_t n) { return result_t(usm_memcpy(dst, ptr(src), n)); }
inline result_t memcpy_dtod(deviceptr_t dst, deviceptr_t src, std::size_t n) { return result_t(usm_memcpy(ptr(dst), ptr(src), n)); }
inline result_t memcpy_async(deviceptr_t dst, deviceptr_t src, std::size_t n, stream_t s) {
  return result_t(syclify::memcpy_async(ptr(dst), ptr(src), n, memcpy_default, s));
}
inline result_t memcpy_htod_async(deviceptr_t dst, const void *src, std::size_t n, stream_t s) {
  return result_t(syclify::memcpy_async(ptr(dst), src, n, memcpy_default, s));
}
inline result_t memcpy_dtoh_async(void *dst, deviceptr_t src, std::size_t n, stream_t s) {
  return result_t(syclify::memcpy_async(dst, ptr(src), n, memcpy_default, s));
}
inline result_t memcpy_dtod_async(deviceptr_t dst, deviceptr_t src, std::size_t n, stream_t s) {
  return result_t(syclify::memcpy_async(ptr(dst), ptr(src), n, memcpy_default, s));
}
// To and from CUDA arrays (texture.hpp), offsets in bytes, along the array's
// first row (the whole of a 1-D array): a copy past its end is
// CUDA_ERROR_INVALID_VALUE, as under CUDA.
namespace detail {
inline bool in_row(const array *a, std::size_t offset, std::size_t n) { return a && offset + n <= a->pitch(); }
} // namespace detail
inline result_t memcpy_htoa(array_t dst, std::size_t offset, const void *src, std::size_t n) {
  if (!detail::in_row(dst, offset, n))
    return detail::fail(error_invalid_value);
  return result_t(syclify::detail::run_to_array(dst, offset, 0, src, n, nullptr, true));
}
inline result_t memcpy_htoa_async(array_t dst, std::size_t offset, const void *src, std::size_t n, stream_t s) {
  if (!detail::in_row(dst, offset, n))
    return detail::fail(error_invalid_value);
  return result_t(syclify::detail::run_to_array(dst, offset, 0, src, n, s, false));
}
inline result_t memcpy_atoh(void *dst, array_const_t src, std::size_t offset, std::size_t n) {
  if (!detail::in_row(src, offset, n))
    return detail::fail(error_invalid_value);
  return result_t(syclify::detail::run_from_array(dst, src, offset, 0, n, nullptr, true));
}
inline result_t memcpy_atoh_async(void *dst, array_const_t src, std::size_t offset, std::size_t n, stream_t s) {
  if (!detail::in_row(src, offset, n))
    return detail::fail(error_invalid_value);
  return result_t(syclify::detail::run_from_array(dst, src, offset, 0, n, s, false));
}
inline result_t memcpy_dtoa(array_t dst, std::size_t offset, deviceptr_t src, std::size_t n) {
  if (!detail::in_row(dst, offset, n))
    return detail::fail(error_invalid_value);
  return result_t(syclify::detail::run_to_array(dst, offset, 0, ptr(src), n, nullptr, true));
}
inline result_t memcpy_atod(deviceptr_t dst, array_const_t src, std::size_t offset, std::size_t n) {
  if (!detail::in_row(src, offset, n))
    return detail::fail(error_invalid_value);
  return result_t(syclify::detail::run_from_array(ptr(dst), src, offset, 0, n, nullptr, true));
}
inline result_t memcpy_atoa(array_t dst, std::size_t dst_offset, array_const_t src, std::size_t src_offset, std::size_t n) {
  if (!detail::in_row(dst, dst_offset, n) || !detail::in_row(src, src_offset, n))
    return detail::fail(error_invalid_value);
  return result_t(syclify::memcpy_array_to_array(dst, dst_offset, 0, src, src_offset, 0, n));
}

// CUmemorytype and the CUDA_MEMCPY2D/3D descriptors, with CUDA's fields.
enum memory_type { memory_type_host = 1, memory_type_device = 2, memory_type_array = 3, memory_type_unified = 4 };
struct memcpy2d {
  std::size_t srcXInBytes, srcY;
  memory_type srcMemoryType;
  const void *srcHost;
  deviceptr_t srcDevice;
  array_t srcArray;
  std::size_t srcPitch;
  std::size_t dstXInBytes, dstY;
  memory_type dstMemoryType;
  void *dstHost;
  deviceptr_t dstDevice;
  array_t dstArray;
  std::size_t dstPitch;
  std::size_t WidthInBytes, Height;
};
struct memcpy3d {
  std::size_t srcXInBytes, srcY, srcZ, srcLOD;
  memory_type srcMemoryType;
  const void *srcHost;
  deviceptr_t srcDevice;
  array_t srcArray;
  void *reserved0;
  std::size_t srcPitch, srcHeight;
  std::size_t dstXInBytes, dstY, dstZ, dstLOD;
  memory_type dstMemoryType;
  void *dstHost;
  deviceptr_t dstDevice;
  array_t dstArray;
  void *reserved1;
  std::size_t dstPitch, dstHeight;
  std::size_t WidthInBytes, Height, Depth;
};
namespace detail {
// One side of a driver copy as a pitched pointer and a position in bytes
// (an array's pitch and height are its own).
inline bool side(memory_type t, const void *host, deviceptr_t device, const array *arr, std::size_t pitch, std::size_t height,
                 std::size_t x, std::size_t y, std::size_t z, pitched_ptr &p, pos_3d &at) {
  switch (t) {
  case memory_type_host: p = pitched_ptr{const_cast<void *>(host), pitch, 0, height}; break;
  case memory_type_device:
  case memory_type_unified: p = pitched_ptr{ptr(device), pitch, 0, height}; break;
  case memory_type_array:
    if (!arr)
      return false;
    p = pitched_ptr{arr->ptr, arr->pitch(), 0, arr->rows()};
    break;
  default: return false;
  }
  at = pos_3d{x, y, z};
  return true;
}
inline error_t copy(const memcpy3d *c, stream_t s, bool wait) {
  if (!c)
    return syclify::detail::record(error_invalid_value);
  memcpy3d_parms p{};
  if (!side(c->srcMemoryType, c->srcHost, c->srcDevice, c->srcArray, c->srcPitch, c->srcHeight, c->srcXInBytes, c->srcY, c->srcZ, p.srcPtr, p.srcPos) ||
      !side(c->dstMemoryType, c->dstHost, c->dstDevice, c->dstArray, c->dstPitch, c->dstHeight, c->dstXInBytes, c->dstY, c->dstZ, p.dstPtr, p.dstPos))
    return syclify::detail::record(error_invalid_value);
  p.extent = extent_3d{c->WidthInBytes, c->Height ? c->Height : 1, c->Depth ? c->Depth : 1};
  // (a pitch of 0 is the width: one row after the other)
  if (!p.srcPtr.pitch)
    p.srcPtr.pitch = c->WidthInBytes;
  if (!p.dstPtr.pitch)
    p.dstPtr.pitch = c->WidthInBytes;
  if (!p.srcPtr.ysize)
    p.srcPtr.ysize = p.extent.height;
  if (!p.dstPtr.ysize)
    p.dstPtr.ysize = p.extent.height;
  p.kind = memcpy_default;
  return syclify::memcpy_3d(&p, s, wait);
}
inline memcpy3d as_3d(const memcpy2d &c) {
  memcpy3d m{};
  m.srcXInBytes = c.srcXInBytes;
  m.srcY = c.srcY;
  m.srcMemoryType = c.srcMemoryType;
  m.srcHost = c.srcHost;
  m.srcDevice = c.srcDevice;
  m.srcArray = c.srcArray;
  m.srcPitch = c.srcPitch;
  m.dstXInBytes = c.dstXInBytes;
  m.dstY = c.dstY;
  m.dstMemoryType = c.dstMemoryType;
  m.dstHost = c.dstHost;
  m.dstDevice = c.dstDevice;
  m.dstArray = c.dstArray;
  m.dstPitch = c.dstPitch;
  m.WidthInBytes = c.WidthInBytes;
  m.Height = c.Height;
  m.Depth = 1;
  return m;
}
} // namespace detail
inline result_t memcpy_2d(const memcpy2d *c) {
  if (!c)
    return detail::fail(error_invalid_value);
  const memcpy3d m = detail::as_3d(*c);
  return result_t(detail::copy(&m, nullptr, true));
}
// (cuMemcpy2DUnaligned: any pitch is fine here)
inline result_t memcpy_2d_async(const memcpy2d *c, stream_t s) {
  if (!c)
    return detail::fail(error_invalid_value);
  const memcpy3d m = detail::as_3d(*c);
  return result_t(detail::copy(&m, s, false));
}
inline result_t memcpy_3d(const memcpy3d *c) { return result_t(detail::copy(c, nullptr, true)); }
inline result_t memcpy_3d_async(const memcpy3d *c, stream_t s) { return result_t(detail::copy(c, s, false)); }

// Fills: cuMemsetD8/D16/D32 (n elements) and the 2-D forms (rows of
// `width` elements, `pitch` bytes apart); the Async forms are queued on the
// stream (and recorded while it captures a graph).
namespace detail {
template <class T> error_t fill_2d(deviceptr_t p, std::size_t pitch, T value, std::size_t width, std::size_t height, stream_t s, bool wait) {
  auto op = [=](sycl::queue &q) {
    for (std::size_t y = 0; y < height; ++y)
      q.fill(reinterpret_cast<T *>(static_cast<std::uintptr_t>(p + y * pitch)), value, width);
  };
  if (!wait)
    return syclify::detail::on_stream(s, op, 2);
  return syclify::detail::guarded([&] {
    sycl::queue &q = queue_of(s);
    op(q);
    q.wait_and_throw();
  });
}
} // namespace detail
inline result_t memset_d8(deviceptr_t p, unsigned char v, std::size_t n) { return result_t(detail::fill_2d(p, n, v, n, 1, nullptr, true)); }
inline result_t memset_d16(deviceptr_t p, unsigned short v, std::size_t n) { return result_t(detail::fill_2d(p, 2 * n, v, n, 1, nullptr, true)); }
inline result_t memset_d32(deviceptr_t p, unsigned v, std::size_t n) { return result_t(detail::fill_2d(p, 4 * n, v, n, 1, nullptr, true)); }
inline result_t memset_d8_async(deviceptr_t p, unsigned char v, std::size_t n, stream_t s) { return result_t(detail::fill_2d(p, n, v, n, 1, s, false)); }
inline result_t memset_d16_async(deviceptr_t p, unsigned short v, std::size_t n, stream_t s) { return result_t(detail::fill_2d(p, 2 * n, v, n, 1, s, false)); }
inline result_t memset_d32_async(deviceptr_t p, unsigned v, std::size_t n, stream_t s) { return result_t(detail::fill_2d(p, 4 * n, v, n, 1, s, false)); }
inline result_t memset_d2d8(deviceptr_t p, std::size_t pitch, unsigned char v, std::size_t w, std::size_t h) { return result_t(detail::fill_2d(p, pitch, v, w, h, nullptr, true)); }
inline result_t memset_d2d16(deviceptr_t p, std::size_t pitch, unsigned short v, std::size_t w, std::size_t h) { return result_t(detail::fill_2d(p, pitch, v, w, h, nullptr, true)); }
inline result_t memset_d2d32(deviceptr_t p, std::size_t pitch, unsigned v, std::size_t w, std::size_t h) { return result_t(detail::fill_2d(p, pitch, v, w, h, nullptr, true)); }
inline result_t memset_d2d8_async(deviceptr_t p, std::size_t pitch, unsigned char v, std::size_t w, std::size_t h, stream_t s) { return result_t(detail::fill_2d(p, pitch, v, w, h, s, false)); }
inline result_t memset_d2d16_async(deviceptr_t p, std::size_t pitch, unsigned short v, std::size_t w, std::size_t h, stream_t s) { return result_t(detail::fill_2d(p, pitch, v, w, h, s, false)); }
inline result_t memset_d2d32_async(deviceptr_t p, std::size_t pitch, unsigned v, std::size_t w, std::size_t h, stream_t s) { return result_t(detail::fill_2d(p, pitch, v, w, h, s, false)); }

// CUpointer_attribute (the ones a USM pointer answers) and cuPointerGetAttribute.
enum pointer_attribute {
  pointer_attribute_context = 1,
  pointer_attribute_memory_type = 2,
  pointer_attribute_device_pointer = 3,
  pointer_attribute_host_pointer = 4,
  pointer_attribute_is_managed = 8,
  pointer_attribute_device_ordinal = 9,
};
inline result_t pointer_get_attribute(void *data, pointer_attribute a, deviceptr_t p) {
  if (!data)
    return detail::fail(error_invalid_value);
  pointer_attributes pa{};
  const error_t e = syclify::pointer_get_attributes(&pa, ptr(p));
  if (e != success)
    return result_t(e);
  const bool host = pa.type == syclify::memory_type_host, managed = pa.type == syclify::memory_type_managed;
  switch (a) {
  case pointer_attribute_context: *static_cast<context_t *>(data) = detail::primary(pa.device); break;
  case pointer_attribute_memory_type:
    if (pa.type == syclify::memory_type_unregistered)
      return detail::fail(error_invalid_value);
    *static_cast<unsigned *>(data) = host ? memory_type_host : memory_type_device; // (managed memory: device, as CUDA says)
    break;
  case pointer_attribute_device_pointer: *static_cast<deviceptr_t *>(data) = p; break;
  case pointer_attribute_host_pointer:
    if (!host && !managed)
      return detail::fail(error_invalid_value);
    *static_cast<void **>(data) = ptr(p);
    break;
  case pointer_attribute_is_managed: *static_cast<unsigned *>(data) = managed ? 1u : 0u; break;
  case pointer_attribute_device_ordinal: *static_cast<int *>(data) = pa.device; break;
  default: return detail::fail(error_invalid_value);
  }
  return success;
}

// ---------------------------------------------------------------------------
// Streams and events: the runtime's, returning CUresult. A stream callback
// (CUstreamCallback) is given a CUresult.
using stream_callback_t = void (*)(stream_t, result_t, void *);
inline result_t stream_create(stream_t *s, unsigned flags) { return result_t(stream_create_with_flags(s, flags)); }
inline result_t stream_create_with_priority(stream_t *s, unsigned flags, int priority) { return result_t(syclify::stream_create_with_priority(s, flags, priority)); }
inline result_t stream_destroy(stream_t s) { return result_t(syclify::stream_destroy(s)); }
inline result_t stream_synchronize(stream_t s) { return result_t(syclify::stream_synchronize(s)); }
inline result_t stream_query(stream_t s) { return result_t(syclify::stream_query(s)); }
inline result_t stream_wait_event(stream_t s, event_t e, unsigned flags) { return result_t(syclify::stream_wait_event(s, e, flags)); }
inline result_t launch_host_func(stream_t s, host_fn_t fn, void *data) { return result_t(syclify::launch_host_func(s, fn, data)); }
inline result_t stream_add_callback(stream_t s, stream_callback_t cb, void *data, unsigned flags) {
  return result_t(syclify::detail::add_callback(s, cb, data, flags, success));
}
inline result_t event_create(event_t *e, unsigned flags) { return result_t(event_create_with_flags(e, flags)); }
inline result_t event_record(event_t e, stream_t s) { return result_t(syclify::event_record(e, s)); }
inline result_t event_synchronize(event_t e) { return result_t(syclify::event_synchronize(e)); }
inline result_t event_query(event_t e) { return result_t(syclify::event_query(e)); }
inline result_t event_elapsed_time(float *ms, event_t start, event_t stop) { return result_t(syclify::event_elapsed_time(ms, start, stop)); }
inline result_t event_destroy(event_t e) { return result_t(syclify::event_destroy(e)); }
inline result_t driver_get_version(int *v) { return result_t(syclify::driver_get_version(v)); }
inline result_t device_can_access_peer(int *can, device_t d, device_t peer) { return result_t(syclify::device_can_access_peer(can, d, peer)); }
inline result_t mem_prefetch_async(deviceptr_t p, std::size_t bytes, device_t d, stream_t s) { return result_t(syclify::mem_prefetch_async(ptr(p), bytes, d, s)); }
template <class F> result_t occupancy_max_potential_block_size(int *min_grid, int *block, F f, std::size_t shared, int limit) {
  return result_t(syclify::occupancy_max_potential_block_size(min_grid, block, f, shared, limit));
}
template <class F> result_t occupancy_max_active_blocks_per_multiprocessor(int *n, F f, int block, std::size_t shared) {
  return result_t(syclify::occupancy_max_active_blocks_per_multiprocessor(n, f, block, shared));
}
// ---------------------------------------------------------------------------
// Arrays: CUarray is the runtime's array (texture.hpp); CUarray_format and
// the descriptors keep CUDA's fields and values.
enum array_format {
  array_format_unsigned_int8 = 0x01,
  array_format_unsigned_int16 = 0x02,
  array_format_unsigned_int32 = 0x03,
  array_format_signed_int8 = 0x08,
  array_format_signed_int16 = 0x09,
  array_format_signed_int32 = 0x0a,
  array_format_half = 0x10,
  array_format_float = 0x20,
};
struct array_descriptor {
  std::size_t Width, Height;
  array_format Format;
  unsigned NumChannels;
};
struct array3d_descriptor {
  std::size_t Width, Height, Depth;
  array_format Format;
  unsigned NumChannels;
  unsigned Flags;
};
namespace detail {
inline bool channel_desc(array_format f, unsigned channels, channel_format_desc &d) {
  int bits = 0;
  channel_format_kind k = channel_format_kind_unsigned;
  switch (f) {
  case array_format_unsigned_int8: bits = 8; break;
  case array_format_unsigned_int16: bits = 16; break;
  case array_format_unsigned_int32: bits = 32; break;
  case array_format_signed_int8: bits = 8; k = channel_format_kind_signed; break;
  case array_format_signed_int16: bits = 16; k = channel_format_kind_signed; break;
  case array_format_signed_int32: bits = 32; k = channel_format_kind_signed; break;
  case array_format_half: bits = 16; k = channel_format_kind_float; break;
  case array_format_float: bits = 32; k = channel_format_kind_float; break;
  default: return false;
  }
  if (channels != 1 && channels != 2 && channels != 4)
    return false;
  d = channel_format_desc{bits, channels > 1 ? bits : 0, channels > 2 ? bits : 0, channels > 3 ? bits : 0, k};
  return true;
}
inline bool descriptor_of(const array *a, array_format &f, unsigned &channels) {
  const channel_format_desc &d = a->desc;
  channels = 1u + (d.y > 0) + (d.z > 0) + (d.w > 0);
  switch (d.f) {
  case channel_format_kind_float: f = d.x == 16 ? array_format_half : array_format_float; return true;
  case channel_format_kind_signed: f = d.x == 8 ? array_format_signed_int8 : d.x == 16 ? array_format_signed_int16 : array_format_signed_int32; return true;
  case channel_format_kind_unsigned: f = d.x == 8 ? array_format_unsigned_int8 : d.x == 16 ? array_format_unsigned_int16 : array_format_unsigned_int32; return true;
  default: return false;
  }
}
} // namespace detail
inline result_t array_create(array_t *a, const array_descriptor *d) {
  channel_format_desc c;
  if (!a || !d || !detail::channel_desc(d->Format, d->NumChannels, c))
    return detail::fail(error_invalid_value);
  return result_t(malloc_array(a, &c, d->Width, d->Height));
}
inline result_t array_3d_create(array_t *a, const array3d_descriptor *d) {
  channel_format_desc c;
  if (!a || !d || !detail::channel_desc(d->Format, d->NumChannels, c))
    return detail::fail(error_invalid_value);
  return result_t(malloc_3d_array(a, &c, extent_3d{d->Width, d->Height, d->Depth}, d->Flags));
}
inline result_t array_get_descriptor(array_descriptor *d, array_const_t a) {
  if (!d || !a || !detail::descriptor_of(a, d->Format, d->NumChannels))
    return detail::fail(error_invalid_value);
  d->Width = a->width;
  d->Height = a->height;
  return success;
}
inline result_t array_3d_get_descriptor(array3d_descriptor *d, array_const_t a) {
  if (!d || !a || !detail::descriptor_of(a, d->Format, d->NumChannels))
    return detail::fail(error_invalid_value);
  d->Width = a->width;
  d->Height = a->height;
  d->Depth = a->depth;
  d->Flags = a->flags;
  return success;
}
inline result_t array_destroy(array_t a) { return result_t(free_array(a)); }

// ---------------------------------------------------------------------------
// Texture objects: CUDA_RESOURCE_DESC and CUDA_TEXTURE_DESC keep CUDA's
// fields and become the runtime's descriptors (texture.hpp). Without
// CU_TRSF_READ_AS_INTEGER an integer texture reads as normalized floats, as
// the driver API has it.
enum resource_type_t { resource_type_array = 0, resource_type_mipmapped_array = 1, resource_type_linear = 2, resource_type_pitch2d = 3 };
struct resource_desc {
  resource_type_t resType;
  union {
    struct {
      array_t hArray;
    } array;
    struct {
      mipmapped_array_t hMipmappedArray;
    } mipmap;
    struct {
      deviceptr_t devPtr;
      array_format format;
      unsigned numChannels;
      std::size_t sizeInBytes;
    } linear;
    struct {
      deviceptr_t devPtr;
      array_format format;
      unsigned numChannels;
      std::size_t width, height, pitchInBytes;
    } pitch2D;
    struct {
      int reserved[32];
    } reserved;
  } res;
  unsigned flags;
};
struct texture_desc {
  texture_address_mode addressMode[3];
  texture_filter_mode filterMode;
  unsigned flags;
  unsigned maxAnisotropy;
  texture_filter_mode mipmapFilterMode;
  float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
  float borderColor[4];
  int reserved[12];
};
struct resource_view_desc;
// CU_TRSF_*: texture_desc's flags
constexpr unsigned trsf_read_as_integer = 0x01, trsf_normalized_coordinates = 0x02, trsf_srgb = 0x10,
                   trsf_disable_trilinear_optimization = 0x20, trsf_seamless_cubemap = 0x40;
inline result_t tex_object_create(texture_object_t *tex, const resource_desc *r, const texture_desc *d, const resource_view_desc * = nullptr) {
  if (!tex || !r || !d)
    return detail::fail(error_invalid_value);
  syclify::resource_desc rr{};
  rr.resType = static_cast<resource_type>(r->resType);
  bool integer = false;
  switch (r->resType) {
  case resource_type_array:
    rr.res.array.array = r->res.array.hArray;
    integer = r->res.array.hArray && r->res.array.hArray->desc.f != channel_format_kind_float;
    break;
  case resource_type_mipmapped_array:
    rr.res.mipmap.mipmap = r->res.mipmap.hMipmappedArray;
    integer = r->res.mipmap.hMipmappedArray && r->res.mipmap.hMipmappedArray->level[0].desc.f != channel_format_kind_float;
    break;
  case resource_type_linear:
    if (!detail::channel_desc(r->res.linear.format, r->res.linear.numChannels, rr.res.linear.desc))
      return detail::fail(error_invalid_value);
    rr.res.linear.devPtr = ptr(r->res.linear.devPtr);
    rr.res.linear.sizeInBytes = r->res.linear.sizeInBytes;
    integer = rr.res.linear.desc.f != channel_format_kind_float;
    break;
  case resource_type_pitch2d:
    if (!detail::channel_desc(r->res.pitch2D.format, r->res.pitch2D.numChannels, rr.res.pitch2D.desc))
      return detail::fail(error_invalid_value);
    rr.res.pitch2D.devPtr = ptr(r->res.pitch2D.devPtr);
    rr.res.pitch2D.width = r->res.pitch2D.width;
    rr.res.pitch2D.height = r->res.pitch2D.height;
    rr.res.pitch2D.pitchInBytes = r->res.pitch2D.pitchInBytes;
    integer = rr.res.pitch2D.desc.f != channel_format_kind_float;
    break;
  default: return detail::fail(error_invalid_value);
  }
  rr.flags = r->flags;
  syclify::texture_desc dd{};
  for (int i = 0; i < 3; ++i)
    dd.addressMode[i] = d->addressMode[i];
  dd.filterMode = d->filterMode;
  dd.readMode = integer && !(d->flags & trsf_read_as_integer) ? read_mode_normalized_float : read_mode_element_type;
  dd.sRGB = (d->flags & trsf_srgb) ? 1 : 0;
  for (int i = 0; i < 4; ++i)
    dd.borderColor[i] = d->borderColor[i];
  dd.normalizedCoords = (d->flags & trsf_normalized_coordinates) ? 1 : 0;
  dd.maxAnisotropy = d->maxAnisotropy;
  dd.mipmapFilterMode = d->mipmapFilterMode;
  dd.mipmapLevelBias = d->mipmapLevelBias;
  dd.minMipmapLevelClamp = d->minMipmapLevelClamp;
  dd.maxMipmapLevelClamp = d->maxMipmapLevelClamp;
  dd.disableTrilinearOptimization = (d->flags & trsf_disable_trilinear_optimization) ? 1 : 0;
  dd.seamlessCubemap = (d->flags & trsf_seamless_cubemap) ? 1 : 0;
  return result_t(create_texture_object(tex, &rr, &dd));
}
inline result_t tex_object_destroy(texture_object_t tex) { return result_t(destroy_texture_object(tex)); }

// ---------------------------------------------------------------------------
// Modules and functions
//
// A function is the launcher syclify writes beside a kernel declared
// extern "C" (a kernel_node_fn, graph.hpp: it reads the packed arguments in
// the kernel's parameter types and returns the launch); cuLaunchKernel runs
// it with the launch's grid, block, dynamic local memory and stream.
struct function {
  kernel_node_fn fn;
  std::string name;
  int max_dynamic_shared = 0;
};
using function_t = function *;
struct module {
#if defined(_WIN32)
  HMODULE handle;
#else
  void *handle;
#endif
  std::string path;
  std::vector<std::unique_ptr<function>> functions;
  std::mutex lock;
};
using module_t = module *;
// CUjit_option (cuModuleLoadDataEx's options): JIT options have no meaning
// for a shared library; their inputs are ignored, and the outputs say that no
// compile took place (module_load_data_ex).
using jit_option = int;
enum : jit_option {
  jit_max_registers = 0,
  jit_threads_per_block = 1,
  jit_wall_time = 2,
  jit_info_log_buffer = 3,
  jit_info_log_buffer_size_bytes = 4,
  jit_error_log_buffer = 5,
  jit_error_log_buffer_size_bytes = 6,
  jit_optimization_level = 7,
  jit_target_from_cucontext = 8,
  jit_target = 9,
  jit_fallback_strategy = 10,
  jit_generate_debug_info = 11,
  jit_log_verbose = 12,
  jit_generate_line_info = 13,
  jit_cache_mode = 14,
};

namespace detail {
// What bytes are, when they are not a host shared library: NVIDIA device code.
inline const char *nvidia_image_kind(const unsigned char *b, std::size_t n) {
  if (n >= 4 && b[0] == 0x50 && b[1] == 0xed && b[2] == 0x55 && b[3] == 0xba)
    return "a fatbin (NVIDIA device code)";
  if (n >= 20 && b[0] == 0x7f && b[1] == 'E' && b[2] == 'L' && b[3] == 'F' && (b[18] | (b[19] << 8)) == 190)
    return "a cubin (NVIDIA device code)";
  std::size_t i = 0;
  while (i < n && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r'))
    ++i;
  if (i < n && (b[i] == '.' || (b[i] == '/' && i + 1 < n && b[i + 1] == '/')))
    return "PTX (NVIDIA's virtual assembly)";
  return nullptr;
}
inline error_t refuse(const char *call, const std::string &what, const char *kind) {
  std::fprintf(stderr,
               "syclify: %s(%s): the image is %s, which SYCL cannot load. Build the module's .cu, migrated, as a SYCL shared "
               "library (the migrated build does: syclify turns nvcc -ptx/-cubin/-fatbin into one) and load that file.\n",
               call, what.c_str(), kind);
  return syclify::detail::record(error_invalid_image);
}
// The libraries loaded, by their bytes: a module loaded again (from its
// file, or from the same bytes in memory) is the library already loaded
// (SYCL implementations register a library's kernels once per process).
struct loaded_library {
  std::uint64_t hash;
  std::size_t size;
  decltype(module::handle) handle;
};
inline std::vector<loaded_library> &loaded() {
  static std::vector<loaded_library> v;
  return v;
}
inline std::mutex &loaded_lock() {
  static std::mutex m;
  return m;
}
inline std::uint64_t fnv1a(const unsigned char *b, std::size_t n) {
  std::uint64_t h = 1469598103934665603ull;
  for (std::size_t i = 0; i < n; ++i)
    h = (h ^ b[i]) * 1099511628211ull;
  return h;
}
// (h: fnv1a of the n bytes, read once by the caller for both)
inline bool find_loaded(std::uint64_t h, std::size_t n, module_t *m, const std::string &shown) {
  std::lock_guard<std::mutex> g(loaded_lock());
  for (const loaded_library &l : loaded())
    if (l.hash == h && l.size == n) {
      *m = new module{l.handle, shown, {}, {}};
      return true;
    }
  return false;
}
inline void remember(std::uint64_t h, std::size_t n, module_t m) {
  std::lock_guard<std::mutex> g(loaded_lock());
  loaded().push_back(loaded_library{h, n, m->handle});
}
inline error_t open_library(module_t *m, const std::string &path, const char *call, const std::string &shown) {
#if defined(_WIN32)
  HMODULE h = LoadLibraryA(path.c_str());
  if (!h) {
    std::fprintf(stderr, "syclify: %s(%s): the module could not be loaded (error %lu)\n", call, shown.c_str(), GetLastError());
    return syclify::detail::record(error_shared_object_init_failed);
  }
#else
  // (a name without a slash is a file in the working directory, as for
  // cuModuleLoad, not one on the library path)
  const std::string at = path.find('/') == std::string::npos ? "./" + path : path;
  void *h = dlopen(at.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    std::fprintf(stderr, "syclify: %s(%s): the module could not be loaded: %s\n", call, shown.c_str(), dlerror());
    return syclify::detail::record(error_shared_object_init_failed);
  }
#endif
  *m = new module{h, shown, {}, {}};
  return success;
}
// The size of an ELF image from its header (its section headers come last).
inline std::size_t elf_size(const unsigned char *b) {
  if (!(b[0] == 0x7f && b[1] == 'E' && b[2] == 'L' && b[3] == 'F') || b[4] != 2 || b[5] != 1)
    return 0; // (64-bit little-endian only)
  std::uint64_t shoff;
  std::uint16_t shentsize, shnum;
  std::memcpy(&shoff, b + 0x28, 8);
  std::memcpy(&shentsize, b + 0x3a, 2);
  std::memcpy(&shnum, b + 0x3c, 2);
  return static_cast<std::size_t>(shoff + std::uint64_t(shentsize) * shnum);
}
// The symbol a kernel's launcher has: `syclify_kernel_<name>`; a C++ name
// (mangled) is demangled and its qualified name used, `::` as `__`.
inline std::string launcher_symbol(const char *name) {
  std::string n = name;
#if defined(SYCLIFY_HAS_CXXABI)
  if (n.size() > 2 && n[0] == '_' && n[1] == 'Z') {
    int status = 0;
    char *d = abi::__cxa_demangle(name, nullptr, nullptr, &status);
    if (status == 0 && d) {
      n = d;
      std::free(d);
      n = n.substr(0, n.find('('));
    }
  }
#endif
  std::string out = "syclify_kernel_";
  for (std::size_t i = 0; i < n.size(); ++i) {
    if (n[i] == ':' && i + 1 < n.size() && n[i + 1] == ':') {
      out += "__";
      ++i;
    } else {
      out += n[i];
    }
  }
  return out;
}
} // namespace detail

// cuModuleLoad(&m, path): the file must be a host shared library (the
// migrated module); NVIDIA device code is refused with a message.
inline result_t module_load(module_t *m, const char *path) {
  if (!m || !path)
    return detail::fail(error_invalid_value);
  std::ifstream f(path, std::ios::binary);
  if (!f)
    return detail::fail(error_file_not_found);
  const std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  const std::string shown = std::string("\"") + path + "\"";
  if (const char *kind = detail::nvidia_image_kind(bytes.data(), bytes.size()))
    return result_t(detail::refuse("cuModuleLoad", shown, kind));
  const std::uint64_t h = detail::fnv1a(bytes.data(), bytes.size());
  if (detail::find_loaded(h, bytes.size(), m, shown))
    return success;
  const error_t e = detail::open_library(m, path, "cuModuleLoad", shown);
  if (e == success)
    detail::remember(h, bytes.size(), *m);
  return result_t(e);
}
// cuModuleLoadData(&m, image) and its Ex/FatBinary forms: the image is the
// bytes of the migrated module (an ELF shared library, read from its file),
// written to a temporary file and loaded from there.
inline result_t module_load_data(module_t *m, const void *image) {
  if (!m || !image)
    return detail::fail(error_invalid_value);
  const unsigned char *b = static_cast<const unsigned char *>(image);
  if (const char *kind = detail::nvidia_image_kind(b, 64))
    return result_t(detail::refuse("cuModuleLoadData", "image", kind));
  const std::size_t n = detail::elf_size(b);
  if (!n)
    return result_t(detail::refuse("cuModuleLoadData", "image", "not a shared library"));
  const std::uint64_t h = detail::fnv1a(b, n);
  if (detail::find_loaded(h, n, m, "image"))
    return success;
#if defined(_WIN32)
  return result_t(detail::refuse("cuModuleLoadData", "image", "bytes in memory (load the module's file with cuModuleLoad)"));
#else
  // (in $TMPDIR where it is set)
  const char *tmp = std::getenv("TMPDIR");
  const std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/syclify-module-XXXXXX";
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  const int fd = mkstemp(name.data());
  if (fd < 0)
    return detail::fail(error_shared_object_init_failed);
  std::size_t done = 0;
  while (done < n) {
    const ssize_t w = write(fd, b + done, n - done);
    if (w <= 0)
      break;
    done += static_cast<std::size_t>(w);
  }
  close(fd);
  const error_t e = done == n ? detail::open_library(m, name.data(), "cuModuleLoadData", "image") : detail::fail(error_shared_object_init_failed);
  if (e == success)
    detail::remember(h, n, *m);
  unlink(name.data());
  return result_t(e);
#endif
}
namespace detail {
// The outputs of JIT options when nothing was compiled: a wall time of 0 ms
// (a float in the value's bits: all zero), empty logs (0 bytes written, the
// buffer an empty string where it holds a byte).
inline void jit_outputs(unsigned n, const jit_option *options, void **values) {
  if (!options || !values)
    return;
  auto size_of = [&](jit_option which) -> std::size_t {
    for (unsigned i = 0; i < n; i++)
      if (options[i] == which)
        return reinterpret_cast<std::size_t>(values[i]);
    return 0;
  };
  const std::size_t info = size_of(jit_info_log_buffer_size_bytes), error = size_of(jit_error_log_buffer_size_bytes);
  for (unsigned i = 0; i < n; i++) {
    switch (options[i]) {
    case jit_wall_time:
    case jit_info_log_buffer_size_bytes:
    case jit_error_log_buffer_size_bytes: values[i] = nullptr; break;
    case jit_info_log_buffer:
    case jit_error_log_buffer:
      if (values[i] && (options[i] == jit_info_log_buffer ? info : error) > 0)
        *static_cast<char *>(values[i]) = 0;
      break;
    default: break;
    }
  }
}
} // namespace detail
inline result_t module_load_data_ex(module_t *m, const void *image, unsigned n = 0, jit_option *options = nullptr, void **values = nullptr) {
  const result_t r = result_t(module_load_data(m, image));
  detail::jit_outputs(n, options, values);
  return r;
}
inline result_t module_load_fat_binary(module_t *m, const void *image) { return result_t(module_load_data(m, image)); }
// cuModuleUnload: the module's functions go; the library stays loaded (its
// kernels may still be queued, and SYCL implementations register a
// library's kernels for the life of the process).
inline result_t module_unload(module_t m) {
  if (!m)
    return detail::fail(error_invalid_handle);
  delete m;
  return success;
}
namespace detail {
// the address of an exported symbol of the module's library (nullptr when it has none)
inline const void *module_symbol(module_t m, const std::string &sym) {
#if defined(_WIN32)
  return reinterpret_cast<const void *>(GetProcAddress(m->handle, sym.c_str()));
#else
  return dlsym(m->handle, sym.c_str());
#endif
}
} // namespace detail
inline result_t module_get_function(function_t *f, module_t m, const char *name) {
  if (!f || !m || !name)
    return detail::fail(error_invalid_value);
  const void *p = detail::module_symbol(m, detail::launcher_symbol(name));
  if (!p)
    return detail::fail(error_not_found);
  std::lock_guard<std::mutex> g(m->lock);
  m->functions.push_back(std::unique_ptr<function>(new function{*static_cast<const kernel_node_fn *>(p), name}));
  *f = m->functions.back().get();
  return success;
}
// cuModuleGetGlobal: a module's device variables are not exported.
inline result_t module_get_global(deviceptr_t *, std::size_t *, module_t m, const char *name) {
  if (!m || !name)
    return detail::fail(error_invalid_value);
  std::fprintf(stderr, "syclify: cuModuleGetGlobal(\"%s\"): a migrated module's device variables cannot be found by name; "
                       "pass the variable's address to the kernel or use it where it is defined\n", name);
  return detail::fail(error_not_found);
}

// ---------------------------------------------------------------------------
// Texture and surface references (CUtexref, CUsurfref; removed in CUDA 12): the runtime's
// (texture.hpp), set field by field. A module's references are found by name through the
// accessor syclify writes beside each one in a module's source (syclify_texref_<name>). The
// read mode stays the one the reference's declaration gives (its fetches' type); the flags set
// normalized coordinates and sRGB.
using texref_t = texture_reference *;
using surfref_t = surface_reference *;
constexpr unsigned trsa_override_format = 0x01;
// cuModuleGetTexRef / cuModuleGetSurfRef: the module's reference of that name
inline result_t module_get_tex_ref(texref_t *t, module_t m, const char *name) {
  if (!t || !m || !name)
    return detail::fail(error_invalid_value);
  const void *p = detail::module_symbol(m, std::string("syclify_texref_") + name);
  if (!p)
    return detail::fail(error_not_found);
  *t = reinterpret_cast<texture_reference *(*)()>(const_cast<void *>(p))();
  return success;
}
inline result_t module_get_surf_ref(surfref_t *s, module_t m, const char *name) {
  if (!s || !m || !name)
    return detail::fail(error_invalid_value);
  const void *p = detail::module_symbol(m, std::string("syclify_surfref_") + name);
  if (!p)
    return detail::fail(error_not_found);
  *s = reinterpret_cast<surface_reference *(*)()>(const_cast<void *>(p))();
  return success;
}
// cuTexRefCreate / cuTexRefDestroy: a reference of no module (float elements)
inline result_t tex_ref_create(texref_t *t) {
  if (!t)
    return detail::fail(error_invalid_value);
  *t = new texture_reference(0, filter_mode_point, address_mode_clamp, create_channel_desc<float>());
  return success;
}
inline result_t tex_ref_destroy(texref_t t) {
  delete t;
  return success;
}
// cuTexRefSetArray(t, array, CU_TRSA_OVERRIDE_FORMAT): the array's format
inline result_t tex_ref_set_array(texref_t t, array_t a, unsigned = trsa_override_format) {
  if (!t || !a)
    return detail::fail(error_invalid_value);
  bind_texture_to_array(t, a);
  t->channelDesc = a->desc;
  return success;
}
inline result_t tex_ref_set_mipmapped_array(texref_t t, mipmapped_array_t m, unsigned = trsa_override_format) {
  if (!t || !m || m->levels == 0)
    return detail::fail(error_invalid_value);
  bind_texture_to_mipmapped_array(t, m);
  t->channelDesc = m->level[0].desc;
  return success;
}
// cuTexRefSetFormat(t, format, channels): the elements of memory bound later
inline result_t tex_ref_set_format(texref_t t, array_format f, int channels) {
  channel_format_desc d;
  if (!t || channels < 1 || !detail::channel_desc(f, static_cast<unsigned>(channels), d))
    return detail::fail(error_invalid_value);
  t->channelDesc = d;
  return success;
}
// cuTexRefSetAddress(&offset, t, dptr, bytes): linear memory in the reference's format (offset 0)
inline result_t tex_ref_set_address(std::size_t *offset, texref_t t, deviceptr_t p, std::size_t bytes) {
  if (!t)
    return detail::fail(error_invalid_value);
  if (offset)
    *offset = 0;
  return result_t(bind_texture(nullptr, t, ptr(p), &t->channelDesc, bytes));
}
// cuTexRefSetAddress2D(t, descriptor, dptr, pitch): pitched rows of the descriptor's format
inline result_t tex_ref_set_address_2d(texref_t t, const array_descriptor *d, deviceptr_t p, std::size_t pitch) {
  channel_format_desc c;
  if (!t || !d || !detail::channel_desc(d->Format, d->NumChannels, c))
    return detail::fail(error_invalid_value);
  t->channelDesc = c;
  return result_t(bind_texture_2d(nullptr, t, ptr(p), &c, d->Width, d->Height, pitch));
}
inline result_t tex_ref_set_address_mode(texref_t t, int dim, texture_address_mode m) {
  if (!t || dim < 0 || dim > 2)
    return detail::fail(error_invalid_value);
  t->addressMode[dim] = m;
  return success;
}
inline result_t tex_ref_set_filter_mode(texref_t t, texture_filter_mode m) {
  if (!t)
    return detail::fail(error_invalid_value);
  t->filterMode = m;
  return success;
}
inline result_t tex_ref_set_mipmap_filter_mode(texref_t t, texture_filter_mode m) {
  if (!t)
    return detail::fail(error_invalid_value);
  t->mipmapFilterMode = m;
  return success;
}
inline result_t tex_ref_set_mipmap_level_bias(texref_t t, float bias) {
  if (!t)
    return detail::fail(error_invalid_value);
  t->mipmapLevelBias = bias;
  return success;
}
inline result_t tex_ref_set_mipmap_level_clamp(texref_t t, float lo, float hi) {
  if (!t)
    return detail::fail(error_invalid_value);
  t->minMipmapLevelClamp = lo;
  t->maxMipmapLevelClamp = hi;
  return success;
}
inline result_t tex_ref_set_max_anisotropy(texref_t t, unsigned n) {
  if (!t)
    return detail::fail(error_invalid_value);
  t->maxAnisotropy = n;
  return success;
}
inline result_t tex_ref_set_border_color(texref_t t, const float *c) {
  if (!t || !c)
    return detail::fail(error_invalid_value);
  for (int k = 0; k < 4; ++k)
    t->borderColor[k] = c[k];
  return success;
}
// cuTexRefSetFlags: CU_TRSF_NORMALIZED_COORDINATES, CU_TRSF_SRGB, CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION kept
inline result_t tex_ref_set_flags(texref_t t, unsigned flags) {
  if (!t)
    return detail::fail(error_invalid_value);
  t->driver_flags = flags;
  t->normalized = (flags & trsf_normalized_coordinates) ? 1 : 0;
  t->sRGB = (flags & trsf_srgb) ? 1 : 0;
  t->disableTrilinearOptimization = (flags & trsf_disable_trilinear_optimization) ? 1 : 0;
  return success;
}
// the getters: what was set
inline result_t tex_ref_get_address(deviceptr_t *p, texref_t t) {
  if (!p || !t || !t->bound())
    return detail::fail(error_invalid_value);
  const syclify::resource_desc &r = t->resource();
  if (r.resType == syclify::resource_type_linear)
    *p = address(r.res.linear.devPtr);
  else if (r.resType == syclify::resource_type_pitch2d)
    *p = address(r.res.pitch2D.devPtr);
  else
    return detail::fail(error_invalid_value);
  return success;
}
inline result_t tex_ref_get_array(array_t *a, texref_t t) {
  if (!a || !t || !t->bound() || t->resource().resType != syclify::resource_type_array)
    return detail::fail(error_invalid_value);
  *a = t->resource().res.array.array;
  return success;
}
inline result_t tex_ref_get_mipmapped_array(mipmapped_array_t *m, texref_t t) {
  if (!m || !t || !t->bound() || t->resource().resType != syclify::resource_type_mipmapped_array)
    return detail::fail(error_invalid_value);
  *m = t->resource().res.mipmap.mipmap;
  return success;
}
inline result_t tex_ref_get_address_mode(texture_address_mode *m, texref_t t, int dim) {
  if (!m || !t || dim < 0 || dim > 2)
    return detail::fail(error_invalid_value);
  *m = t->addressMode[dim];
  return success;
}
inline result_t tex_ref_get_filter_mode(texture_filter_mode *m, texref_t t) {
  if (!m || !t)
    return detail::fail(error_invalid_value);
  *m = t->filterMode;
  return success;
}
inline result_t tex_ref_get_mipmap_filter_mode(texture_filter_mode *m, texref_t t) {
  if (!m || !t)
    return detail::fail(error_invalid_value);
  *m = t->mipmapFilterMode;
  return success;
}
inline result_t tex_ref_get_mipmap_level_bias(float *b, texref_t t) {
  if (!b || !t)
    return detail::fail(error_invalid_value);
  *b = t->mipmapLevelBias;
  return success;
}
inline result_t tex_ref_get_mipmap_level_clamp(float *lo, float *hi, texref_t t) {
  if (!lo || !hi || !t)
    return detail::fail(error_invalid_value);
  *lo = t->minMipmapLevelClamp;
  *hi = t->maxMipmapLevelClamp;
  return success;
}
inline result_t tex_ref_get_max_anisotropy(int *n, texref_t t) {
  if (!n || !t)
    return detail::fail(error_invalid_value);
  *n = static_cast<int>(t->maxAnisotropy);
  return success;
}
inline result_t tex_ref_get_border_color(float *c, texref_t t) {
  if (!c || !t)
    return detail::fail(error_invalid_value);
  for (int k = 0; k < 4; ++k)
    c[k] = t->borderColor[k];
  return success;
}
inline result_t tex_ref_get_flags(unsigned *flags, texref_t t) {
  if (!flags || !t)
    return detail::fail(error_invalid_value);
  *flags = (t->driver_flags & ~(trsf_normalized_coordinates | trsf_srgb | trsf_disable_trilinear_optimization)) |
           (t->normalized ? trsf_normalized_coordinates : 0u) | (t->sRGB ? trsf_srgb : 0u) |
           (t->disableTrilinearOptimization ? trsf_disable_trilinear_optimization : 0u);
  return success;
}
inline result_t tex_ref_get_format(array_format *f, int *channels, texref_t t) {
  if (!f || !t)
    return detail::fail(error_invalid_value);
  array d{};
  d.desc = t->channelDesc;
  unsigned n = 0;
  if (!detail::descriptor_of(&d, *f, n))
    return detail::fail(error_invalid_value);
  if (channels)
    *channels = static_cast<int>(n);
  return success;
}
// cuSurfRefSetArray / cuSurfRefGetArray
inline result_t surf_ref_set_array(surfref_t s, array_t a, unsigned = 0) {
  if (!s || !a)
    return detail::fail(error_invalid_value);
  s->bind(a);
  return success;
}
inline result_t surf_ref_get_array(array_t *a, surfref_t s) {
  if (!a || !s || !s->array_bound())
    return detail::fail(error_invalid_value);
  *a = const_cast<array_t>(s->array_bound());
  return success;
}

// CU_LAUNCH_PARAM_*: cuLaunchKernel's `extra`, one buffer of the arguments.
inline void *const launch_param_end = reinterpret_cast<void *>(0x00);
inline void *const launch_param_buffer_pointer = reinterpret_cast<void *>(0x01);
inline void *const launch_param_buffer_size = reinterpret_cast<void *>(0x02);

// cuLaunchKernel(f, grid x, y, z, block x, y, z, shared bytes, stream,
// kernelParams, extra): the arguments packed as CUDA packs them.
inline result_t launch_kernel(function_t f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz, unsigned shared,
                             stream_t s, void **params, void **extra) {
  if (!f || !f->fn || (!params && !extra))
    return detail::fail(error_invalid_value);
  kernel_node_params p{f->fn, sycl::range<3>(gz, gy, gx), sycl::range<3>(bz, by, bx), shared, params, extra};
  return result_t(syclify::detail::guarded([&] {
    graph_op op = f->fn(p);
    if (syclify::detail::on_stream(s, op, 0) != success)
      throw sycl::exception(sycl::make_error_code(sycl::errc::invalid), "launch failed");
  }));
}
// CUoccupancyB2DSize: the dynamic shared memory a block size needs (not asked).
using occupancy_b2d_size = std::size_t (*)(int);
// The kernel's attributes (CUfunction_attribute), as cudaFuncGetAttributes
// reports them.
enum function_attribute {
  func_attribute_max_threads_per_block = 0,
  func_attribute_shared_size_bytes = 1,
  func_attribute_const_size_bytes = 2,
  func_attribute_local_size_bytes = 3,
  func_attribute_num_regs = 4,
  func_attribute_ptx_version = 5,
  func_attribute_binary_version = 6,
  func_attribute_cache_mode_ca = 7,
  func_attribute_max_dynamic_shared_size_bytes = 8,
  func_attribute_preferred_shared_memory_carveout = 9,
};
inline result_t func_get_attribute(int *v, function_attribute a, function_t f) {
  if (!v || !f)
    return detail::fail(error_invalid_value);
  func_attributes fa;
  const error_t e = func_get_attributes(&fa, f);
  if (e != success)
    return result_t(e);
  switch (a) {
  case func_attribute_max_threads_per_block: *v = fa.maxThreadsPerBlock; break;
  case func_attribute_shared_size_bytes: *v = static_cast<int>(fa.sharedSizeBytes); break;
  case func_attribute_const_size_bytes: *v = static_cast<int>(fa.constSizeBytes); break;
  case func_attribute_local_size_bytes: *v = static_cast<int>(fa.localSizeBytes); break;
  case func_attribute_num_regs: *v = fa.numRegs; break;
  case func_attribute_ptx_version: *v = fa.ptxVersion; break;
  case func_attribute_binary_version: *v = fa.binaryVersion; break;
  case func_attribute_cache_mode_ca: *v = fa.cacheModeCA; break;
  case func_attribute_max_dynamic_shared_size_bytes: *v = f->max_dynamic_shared ? f->max_dynamic_shared : fa.maxDynamicSharedSizeBytes; break;
  case func_attribute_preferred_shared_memory_carveout: *v = fa.preferredShmemCarveout; break;
  default: return detail::fail(error_invalid_value);
  }
  return success;
}
inline result_t func_set_attribute(function_t f, function_attribute a, int v) {
  if (!f)
    return detail::fail(error_invalid_value);
  if (a == func_attribute_max_dynamic_shared_size_bytes)
    f->max_dynamic_shared = v;
  return success;
}
inline result_t func_get_name(const char **name, function_t f) {
  if (!name || !f)
    return detail::fail(error_invalid_value);
  *name = f->name.c_str();
  return success;
}

} // namespace driver
} // namespace syclify

// The launcher syclify writes beside a kernel declared extern "C" is
// exported from the module's shared library.
#if defined(_WIN32)
#define SYCLIFY_MODULE_EXPORT __declspec(dllexport)
#else
#define SYCLIFY_MODULE_EXPORT __attribute__((visibility("default")))
#endif
