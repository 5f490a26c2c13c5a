// Calls every helper of runtime-headers/syclify/driver.hpp (CUDA's driver
// API), so the host compile in tests/programs.rs checks them against Intel's
// SYCL headers. Built against a SYCL runtime, main runs them on the default
// device; CI only compiles it.
#include <syclify/syclify.hpp>
#include <sycl/sycl.hpp>
#include <cstdio>

namespace drv = syclify::driver;

int main() {
  int errors = 0;
  auto check = [&](syclify::error_t e, const char *what) {
    if (e != syclify::success) {
      const char *s = nullptr, *n = nullptr;
      drv::get_error_string(e, &s);
      drv::get_error_name(e, &n);
      std::printf("%s: %s (%s)\n", what, s, n);
      ++errors;
    }
  };
  check(drv::init(0), "init");
  int count = 0;
  check(drv::device_get_count(&count), "device_get_count");
  drv::device_t dev;
  check(drv::device_get(&dev, 0), "device_get");
  char name[256];
  check(drv::device_get_name(name, sizeof name, dev), "device_get_name");
  std::size_t total = 0, free_bytes = 0;
  check(drv::device_total_mem(&total, dev), "device_total_mem");
  int v = 0, major = 0, minor = 0;
  check(drv::device_get_attribute(&v, syclify::dev_attr_warp_size, dev), "device_get_attribute");
  check(drv::device_compute_capability(&major, &minor, dev), "device_compute_capability");
  drv::context_t ctx, cur, primary;
  drv::ctx_create_params params{};
  check(drv::ctx_create(&ctx, 0, dev), "ctx_create");
  check(drv::ctx_destroy(ctx), "ctx_destroy");
  check(drv::ctx_create(&ctx, &params, 0, dev), "ctx_create (CUDA 13)");
  check(drv::ctx_get_current(&cur), "ctx_get_current");
  check(drv::ctx_set_current(cur), "ctx_set_current");
  check(drv::ctx_push_current(cur), "ctx_push_current");
  check(drv::ctx_pop_current(&cur), "ctx_pop_current");
  check(drv::ctx_get_device(&dev), "ctx_get_device");
  unsigned api = 0, flags = 0;
  check(drv::ctx_get_api_version(ctx, &api), "ctx_get_api_version");
  check(drv::ctx_get_flags(&flags), "ctx_get_flags");
  check(drv::ctx_get_limit(&total, syclify::limit_stack_size), "ctx_get_limit");
  check(drv::device_primary_ctx_retain(&primary, dev), "device_primary_ctx_retain");
  int active = 0;
  check(drv::device_primary_ctx_get_state(dev, &flags, &active), "device_primary_ctx_get_state");
  check(drv::device_primary_ctx_set_flags(dev, 0), "device_primary_ctx_set_flags");
  check(drv::device_primary_ctx_release(dev), "device_primary_ctx_release");
  check(drv::device_primary_ctx_reset(dev), "device_primary_ctx_reset");
  check(drv::ctx_synchronize(), "ctx_synchronize");

  drv::deviceptr_t d = 0, d2 = 0, m = 0, pitched = 0;
  std::size_t pitch = 0;
  float *h = nullptr, *h2 = nullptr;
  check(drv::mem_alloc(&d, 256), "mem_alloc");
  check(drv::mem_alloc(&d2, 256), "mem_alloc");
  check(drv::mem_alloc_managed(&m, 256, syclify::mem_attach_global), "mem_alloc_managed");
  check(drv::mem_alloc_pitch(&pitched, &pitch, 40, 4, 4), "mem_alloc_pitch");
  check(drv::mem_alloc_host(&h, 256), "mem_alloc_host");
  check(drv::mem_host_alloc(&h2, 256, syclify::host_alloc_mapped), "mem_host_alloc");
  drv::deviceptr_t mapped = 0;
  check(drv::mem_host_get_device_pointer(&mapped, h2, 0), "mem_host_get_device_pointer");
  check(drv::mem_host_get_flags(&flags, h2), "mem_host_get_flags");
  check(drv::mem_get_info(&free_bytes, &total), "mem_get_info");
  syclify::stream_t s = nullptr;
  check(syclify::stream_create(&s), "stream_create");
  check(drv::memset_d8(d, 1, 256), "memset_d8");
  check(drv::memset_d16(d, 1, 128), "memset_d16");
  check(drv::memset_d32(d, 1, 64), "memset_d32");
  check(drv::memset_d8_async(d, 1, 256, s), "memset_d8_async");
  check(drv::memset_d16_async(d, 1, 128, s), "memset_d16_async");
  check(drv::memset_d32_async(d, 1, 64, s), "memset_d32_async");
  check(drv::memset_d2d8(pitched, pitch, 1, 40, 4), "memset_d2d8");
  check(drv::memset_d2d16(pitched, pitch, 1, 20, 4), "memset_d2d16");
  check(drv::memset_d2d32(pitched, pitch, 1, 10, 4), "memset_d2d32");
  check(drv::memset_d2d8_async(pitched, pitch, 1, 40, 4, s), "memset_d2d8_async");
  check(drv::memset_d2d16_async(pitched, pitch, 1, 20, 4, s), "memset_d2d16_async");
  check(drv::memset_d2d32_async(pitched, pitch, 1, 10, 4, s), "memset_d2d32_async");
  check(drv::memcpy(d2, d, 256), "memcpy");
  check(drv::memcpy_htod(d, h, 256), "memcpy_htod");
  check(drv::memcpy_dtoh(h, d, 256), "memcpy_dtoh");
  check(drv::memcpy_dtod(d2, d, 256), "memcpy_dtod");
  check(drv::memcpy_async(d2, d, 256, s), "memcpy_async");
  check(drv::memcpy_htod_async(d, h, 256, s), "memcpy_htod_async");
  check(drv::memcpy_dtoh_async(h, d, 256, s), "memcpy_dtoh_async");
  check(drv::memcpy_dtod_async(d2, d, 256, s), "memcpy_dtod_async");
  check(syclify::stream_synchronize(s), "stream_synchronize");

  drv::array_descriptor ad{64, 0, drv::array_format_float, 1};
  drv::array3d_descriptor ad3{8, 4, 2, drv::array_format_unsigned_int8, 4, 0};
  syclify::array_t a = nullptr, a3 = nullptr;
  check(drv::array_create(&a, &ad), "array_create");
  check(drv::array_3d_create(&a3, &ad3), "array_3d_create");
  check(drv::array_get_descriptor(&ad, a), "array_get_descriptor");
  check(drv::array_3d_get_descriptor(&ad3, a3), "array_3d_get_descriptor");
  check(drv::memcpy_htoa(a, 0, h, 64), "memcpy_htoa");
  check(drv::memcpy_htoa_async(a, 0, h, 64, s), "memcpy_htoa_async");
  check(drv::memcpy_atoh(h, a, 0, 64), "memcpy_atoh");
  check(drv::memcpy_atoh_async(h, a, 0, 64, s), "memcpy_atoh_async");
  check(drv::memcpy_dtoa(a, 0, d, 64), "memcpy_dtoa");
  check(drv::memcpy_atod(d, a, 0, 64), "memcpy_atod");
  check(drv::memcpy_atoa(a, 64, a, 0, 64), "memcpy_atoa");
  drv::memcpy2d c2{};
  c2.srcMemoryType = drv::memory_type_host;
  c2.srcHost = h;
  c2.srcPitch = 64;
  c2.dstMemoryType = drv::memory_type_array;
  c2.dstArray = a;
  c2.WidthInBytes = 64;
  c2.Height = 1;
  check(drv::memcpy_2d(&c2), "memcpy_2d");
  check(drv::memcpy_2d_async(&c2, s), "memcpy_2d_async");
  drv::memcpy3d c3{};
  c3.srcMemoryType = drv::memory_type_device;
  c3.srcDevice = d;
  c3.srcPitch = 32;
  c3.srcHeight = 4;
  c3.dstMemoryType = drv::memory_type_array;
  c3.dstArray = a3;
  c3.WidthInBytes = 32;
  c3.Height = 4;
  c3.Depth = 2;
  check(drv::memcpy_3d(&c3), "memcpy_3d");
  check(drv::memcpy_3d_async(&c3, s), "memcpy_3d_async");
  check(syclify::stream_synchronize(s), "stream_synchronize");
  // texture objects from the driver's descriptors: a 1-D array and pitched memory
  drv::resource_desc rd{};
  rd.resType = drv::resource_type_array;
  rd.res.array.hArray = a;
  drv::texture_desc td{};
  td.addressMode[0] = syclify::address_mode_clamp;
  td.filterMode = syclify::filter_mode_linear;
  td.flags = drv::trsf_normalized_coordinates;
  syclify::texture_object_t tex = nullptr, tex2 = nullptr;
  check(drv::tex_object_create(&tex, &rd, &td, nullptr), "tex_object_create");
  drv::resource_desc rp{};
  rp.resType = drv::resource_type_pitch2d;
  rp.res.pitch2D.devPtr = pitched;
  rp.res.pitch2D.format = drv::array_format_unsigned_int8;
  rp.res.pitch2D.numChannels = 4;
  rp.res.pitch2D.width = 10;
  rp.res.pitch2D.height = 4;
  rp.res.pitch2D.pitchInBytes = pitch;
  td.flags = drv::trsf_read_as_integer;
  td.filterMode = syclify::filter_mode_point;
  check(drv::tex_object_create(&tex2, &rp, &td), "tex_object_create (pitch 2-D)");
  check(drv::tex_object_destroy(tex), "tex_object_destroy");
  check(drv::tex_object_destroy(tex2), "tex_object_destroy");
  unsigned type = 0;
  check(drv::pointer_get_attribute(&type, drv::pointer_attribute_memory_type, d), "pointer_get_attribute");

  // modules: a missing file, then the driver's name lookups on nothing loaded
  drv::module_t mod = nullptr;
  if (drv::module_load(&mod, "no-such-module.so") != drv::error_file_not_found)
    ++errors;
  const char ptx[] = "//\n.version 8.0\n.target sm_90\n";
  if (drv::module_load_data(&mod, ptx) != drv::error_invalid_image)
    ++errors;
  if (drv::module_load_data_ex(&mod, ptx, 0, nullptr, nullptr) != drv::error_invalid_image)
    ++errors;
  // JIT options: no compile took place, so the outputs say 0 ms and empty logs
  char log[64] = "unset";
  drv::jit_option options[] = {drv::jit_wall_time, drv::jit_info_log_buffer, drv::jit_info_log_buffer_size_bytes, drv::jit_max_registers};
  void *values[] = {reinterpret_cast<void *>(7), log, reinterpret_cast<void *>(sizeof log), reinterpret_cast<void *>(32)};
  if (drv::module_load_data_ex(&mod, ptx, 4, options, values) != drv::error_invalid_image || values[0] || log[0] || values[2] || values[3] != reinterpret_cast<void *>(32))
    ++errors;
  if (drv::module_load_fat_binary(&mod, ptx) != drv::error_invalid_image)
    ++errors;
  drv::function_t f = nullptr;
  drv::deviceptr_t global = 0;
  std::size_t bytes = 0;
  if (mod) {
    check(drv::module_get_function(&f, mod, "k"), "module_get_function");
    check(drv::module_get_global(&global, &bytes, mod, "g"), "module_get_global");
    void *args[] = {&d};
    check(drv::launch_kernel(f, 1, 1, 1, 32, 1, 1, 0, s, args, nullptr), "launch_kernel");
    check(drv::func_get_attribute(&v, drv::func_attribute_max_threads_per_block, f), "func_get_attribute");
    check(drv::func_set_attribute(f, drv::func_attribute_max_dynamic_shared_size_bytes, 1024), "func_set_attribute");
    const char *fname = nullptr;
    check(drv::func_get_name(&fname, f), "func_get_name");
    check(drv::module_unload(mod), "module_unload");
  }

  check(drv::array_destroy(a), "array_destroy");
  check(drv::array_destroy(a3), "array_destroy");
  check(drv::mem_free(d), "mem_free");
  check(drv::mem_free(d2), "mem_free");
  check(drv::mem_free(m), "mem_free");
  check(drv::mem_free(pitched), "mem_free");
  check(drv::mem_free_host(h), "mem_free_host");
  check(drv::mem_free_host(h2), "mem_free_host");
  check(syclify::stream_destroy(s), "stream_destroy");
  std::printf("%s\n", errors ? "FAIL" : "PASS");
  return errors != 0;
}
