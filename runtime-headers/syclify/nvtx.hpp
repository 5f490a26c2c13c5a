// syclify/nvtx.hpp: NVTX (NVIDIA's profiler annotations: nvToolsExt.h, nvtx3/nvToolsExt.h) for
// SYCL 2020. Written to <out-root>/include/syclify/ when a migrated file includes an NVTX header.
// Ranges and marks annotate a profile; SYCL 2020 has no annotation API, so they are kept as calls
// that do nothing but keep NVTX's results: nvtxRangePush returns the nesting level of the new
// range (0 for the outermost) and nvtxRangePop the level of the range it ends, or a negative
// value where none is open, per thread as in NVTX; nvtxRangeStart returns a fresh id. Profile
// with the SYCL implementation's own tools (the note SY0403 at each call says so).
#pragma once
#include <atomic>
#include <cstdint>

namespace syclify {
namespace nvtx {
using range_id_t = std::uint64_t;
struct domain_registration;
using domain_handle_t = domain_registration *;
using string_handle_t = const void *;
constexpr std::uint16_t version = 3;
enum color_type { color_unknown = 0, color_argb = 1 };
enum message_type { message_unknown = 0, message_type_ascii = 1, message_type_unicode = 2, message_type_registered = 3 };
enum payload_type { payload_unknown = 0, payload_type_unsigned_int64 = 1, payload_type_int64 = 2, payload_type_double = 3, payload_type_unsigned_int32 = 4, payload_type_int32 = 5, payload_type_float = 6 };
// nvtxEventAttributes_t, with NVTX's fields
struct event_attributes {
  std::uint16_t version;
  std::uint16_t size;
  std::uint32_t category;
  std::int32_t colorType;
  std::uint32_t color;
  std::int32_t payloadType;
  std::int32_t reserved0;
  union {
    std::uint64_t ullValue;
    std::int64_t llValue;
    double dValue;
    std::uint32_t uiValue;
    std::int32_t iValue;
    float fValue;
  } payload;
  std::int32_t messageType;
  union {
    const char *ascii;
    const wchar_t *unicode;
    string_handle_t registered;
  } message;
};
constexpr std::uint16_t event_attrib_struct_size = sizeof(event_attributes);
namespace detail {
inline int &depth() {
  static thread_local int d = 0;
  return d;
}
inline int push() { return depth()++; }
inline int pop() { return depth() > 0 ? --depth() : -1; }
} // namespace detail
inline int range_push(const char *) { return detail::push(); }
inline int range_push(const wchar_t *) { return detail::push(); }
inline int range_push(const event_attributes *) { return detail::push(); }
inline int range_pop() { return detail::pop(); }
inline range_id_t range_start(const void *) {
  static std::atomic<range_id_t> next{1};
  return next.fetch_add(1);
}
inline void range_end(range_id_t) {}
inline void mark(const void *) {}
inline void name(const void *, const void *) {}
// domains: a handle per call; ranges in a domain nest like the others
inline domain_handle_t domain_create(const void *) { return nullptr; }
inline void domain_destroy(domain_handle_t) {}
inline int domain_range_push(domain_handle_t, const event_attributes *) { return detail::push(); }
inline int domain_range_pop(domain_handle_t) { return detail::pop(); }
inline void domain_mark(domain_handle_t, const event_attributes *) {}
inline string_handle_t domain_register_string(domain_handle_t, const void *s) { return s; }
} // namespace nvtx
} // namespace syclify
