// syclify/texture.hpp: CUDA arrays, texture objects and surface objects for SYCL 2020 (part of
// syclify's helper header; <syclify/syclify.hpp> includes it).
//
// Portable by construction: SYCL 2020 images are absent from AdaptiveCpp's CUDA backend, and
// the bindless-images extension is DPC++-only, so a CUDA array is device USM holding its
// elements row by row, and a texture or surface object is a small descriptor in shared USM that
// kernels read with ordinary loads. Sampling follows CUDA's documented texture arithmetic
// (CUDA C++ Programming Guide, "Texture Fetching"), checked against an H200 with nvcc 13:
//   - coordinates: normalized ones scaled by the size, then every address mode acts on texel
//     indices; unnormalized coordinates only clamp or border (wrap and mirror read as clamp);
//   - linear filtering: x - 0.5 in fixed point with 8 fractional bits, so each weight is a
//     multiple of 1/256 (rounded half up); in 2-D the upper corner's product is rounded to 1/256
//     and the other corners get the rest of their axis weights (tex_w2); a 1-D texture is
//     filtered as a row between the border row and itself; 8- and 16-bit unsigned textures read as normalized
//     floats are filtered on 16-bit fixed-point values and rounded half up to a multiple of
//     1/65535, bit for bit the hardware's result; float textures are filtered in float with those
//     weights (exact where the products are; otherwise within a few units in the last place,
//     as the hardware's own arithmetic is not IEEE);
//   - mipmaps: level of detail plus bias, clamped to [min, max] clamp and the levels; point
//     picks the nearest level (half up), linear blends the two nearest with a weight in 1/256;
//   - cubemaps: the face of the major axis and the face coordinates of CUDA's table;
//   - tex2Dgather: the four texels of the bilinear footprint in CUDA's order.
// Known difference from the hardware (measured): 3-D linear filtering, whose weights are not the
// products of the axis weights in some samples (up to 1/100 of the value range).
// Texture and surface references (removed in CUDA 12) are host objects whose state a launch
// turns into a texture or surface object (texture_ref, surface_ref, at the end).
// Not emulated: anisotropic filtering, sRGB, tex2DGrad's exact derivative rule (it computes the
// level of detail from the larger gradient).
#pragma once

namespace syclify {

enum resource_type { resource_type_array = 0, resource_type_mipmapped_array = 1, resource_type_linear = 2, resource_type_pitch2d = 3 };
enum channel_format_kind { channel_format_kind_signed = 0, channel_format_kind_unsigned = 1, channel_format_kind_float = 2, channel_format_kind_none = 3 };
enum texture_address_mode { address_mode_wrap = 0, address_mode_clamp = 1, address_mode_mirror = 2, address_mode_border = 3 };
enum texture_filter_mode { filter_mode_point = 0, filter_mode_linear = 1 };
enum texture_read_mode { read_mode_element_type = 0, read_mode_normalized_float = 1 };
enum surface_boundary_mode { boundary_mode_zero = 0, boundary_mode_clamp = 1, boundary_mode_trap = 2 };
// cudaMallocArray/cudaMalloc3DArray flags
enum : unsigned {
  array_default = 0x00,
  array_layered = 0x01,
  array_surface_load_store = 0x02,
  array_cubemap = 0x04,
  array_texture_gather = 0x08,
};
struct channel_format_desc {
  int x, y, z, w;
  channel_format_kind f;
};
namespace detail {
template <class T> struct channel_of {
  using E = T;
  static constexpr int n = 1;
};
template <class T> constexpr channel_format_kind kind_of() {
  return std::is_floating_point<T>::value ? channel_format_kind_float
         : std::is_signed<T>::value       ? channel_format_kind_signed
                                          : channel_format_kind_unsigned;
}
#define SYCLIFY_CHANNELS(T, N)                                                                                          \
  template <> struct channel_of<N##1> { using E = T; static constexpr int n = 1; };                                     \
  template <> struct channel_of<N##2> { using E = T; static constexpr int n = 2; };                                     \
  template <> struct channel_of<N##4> { using E = T; static constexpr int n = 4; };
SYCLIFY_CHANNELS(float, float)
SYCLIFY_CHANNELS(int, int)
SYCLIFY_CHANNELS(unsigned int, uint)
SYCLIFY_CHANNELS(signed char, char)
SYCLIFY_CHANNELS(unsigned char, uchar)
SYCLIFY_CHANNELS(short, short)
SYCLIFY_CHANNELS(unsigned short, ushort)
#undef SYCLIFY_CHANNELS
} // namespace detail
// cudaCreateChannelDesc<T>() and cudaCreateChannelDesc(x, y, z, w, kind)
template <class T> channel_format_desc create_channel_desc() {
  using C = detail::channel_of<T>;
  const int bits = static_cast<int>(sizeof(typename C::E) * 8);
  return channel_format_desc{bits, C::n > 1 ? bits : 0, C::n > 2 ? bits : 0, C::n > 3 ? bits : 0, detail::kind_of<typename C::E>()};
}
inline channel_format_desc create_channel_desc(int x, int y, int z, int w, channel_format_kind f) { return channel_format_desc{x, y, z, w, f}; }

// ---------------------------------------------------------------------------
// CUDA arrays: elements row by row (no padding), rows of a slice, slices (layers, cubemap faces
// or the third dimension). A 1-D array has height 0, as CUDA reports it.
struct array {
  unsigned char *ptr;
  std::size_t width, height, depth;
  int bytes; // per element
  channel_format_desc desc;
  unsigned flags;
  std::size_t pitch() const { return width * static_cast<std::size_t>(bytes); }
  std::size_t rows() const { return height ? height : 1; }
  std::size_t slice() const { return pitch() * rows(); }
  std::size_t slices() const { return depth ? depth : 1; }
};
using array_t = array *;
using array_const_t = const array *;
struct mipmapped_array {
  array level[16];
  unsigned levels;
};
using mipmapped_array_t = mipmapped_array *;
using mipmapped_array_const_t = const mipmapped_array *;
namespace detail {
inline int element_bytes(const channel_format_desc &d) { return (d.x + d.y + d.z + d.w) / 8; }
inline error_t make_array(array &a, const channel_format_desc *d, std::size_t w, std::size_t h, std::size_t depth, unsigned flags) {
  if (!d || element_bytes(*d) <= 0 || w == 0 || ((flags & array_cubemap) && (w != h || (depth % 6) != 0)))
    return record(error_invalid_value);
  a = array{nullptr, w, h, depth, element_bytes(*d), *d, flags};
  void *p = nullptr;
  const error_t e = malloc_device(&p, a.slice() * a.slices());
  a.ptr = static_cast<unsigned char *>(p);
  return e;
}
// rows of `width` bytes: a 2-D copy between places of the given pitches, on stream s
inline error_t copy_rows(void *dst, std::size_t dpitch, const void *src, std::size_t spitch, std::size_t width, std::size_t height, stream_t s, bool wait) {
  return guarded([&] {
    sycl::queue &q = queue_of(s);
    copy_2d(q, dst, dpitch, src, spitch, width, height);
    if (wait)
      q.wait_and_throw();
  });
}
} // namespace detail
// cudaMalloc3DArray(&a, &desc, extent, flags = 0): 3-D, layered (1-D: height 0) or cubemap
inline error_t malloc_3d_array(array_t *a, const channel_format_desc *d, extent_3d x, unsigned flags = 0) {
  if (!a)
    return detail::record(error_invalid_value);
  array t{};
  const error_t e = detail::make_array(t, d, x.width, x.height, x.depth, flags);
  if (e != success)
    return e;
  *a = new array(t);
  return success;
}
// cudaMallocArray(&a, &desc, width, height = 0, flags = 0)
inline error_t malloc_array(array_t *a, const channel_format_desc *d, std::size_t w, std::size_t h = 0, unsigned flags = 0) {
  return malloc_3d_array(a, d, extent_3d{w, h, 0}, flags);
}
// cudaMallocMipmappedArray(&m, &desc, extent, levels, flags = 0): each level half the size
// of the one before, at least 1
inline error_t malloc_mipmapped_array(mipmapped_array_t *m, const channel_format_desc *d, extent_3d x, unsigned levels, unsigned flags = 0) {
  if (!m || levels == 0 || levels > 16)
    return detail::record(error_invalid_value);
  auto *r = new mipmapped_array{};
  const bool layers = (flags & (array_layered | array_cubemap)) != 0;
  for (unsigned l = 0; l < levels; ++l) {
    auto half = [&](std::size_t n) { return n == 0 ? std::size_t(0) : std::max<std::size_t>(1, n >> l); };
    const error_t e = detail::make_array(r->level[l], d, half(x.width), half(x.height), layers ? x.depth : half(x.depth), flags);
    if (e != success) {
      for (unsigned k = 0; k < l; ++k)
        sycl::free(r->level[k].ptr, detail::legacy_queue());
      delete r;
      return e;
    }
    r->levels = l + 1;
  }
  *m = r;
  return success;
}
// cudaGetMipmappedArrayLevel: the level as an array of its own (owned by the mipmapped array)
inline error_t get_mipmapped_array_level(array_t *a, mipmapped_array_const_t m, unsigned level) {
  if (!a || !m || level >= m->levels)
    return detail::record(error_invalid_value);
  *a = const_cast<array *>(&m->level[level]);
  return success;
}
inline error_t free_array(array_const_t a) {
  if (a) {
    return detail::guarded([&] {
      sycl::free(a->ptr, detail::legacy_queue());
      delete a;
    });
  }
  return success;
}
inline error_t free_mipmapped_array(mipmapped_array_const_t m) {
  if (m) {
    return detail::guarded([&] {
      for (unsigned l = 0; l < m->levels; ++l)
        sycl::free(m->level[l].ptr, detail::legacy_queue());
      delete m;
    });
  }
  return success;
}
// cudaArrayGetInfo
inline error_t array_get_info(channel_format_desc *d, extent_3d *x, unsigned *flags, array_const_t a) {
  if (!a)
    return detail::record(error_invalid_value);
  if (d)
    *d = a->desc;
  if (x)
    *x = extent_3d{a->width, a->height, a->depth};
  if (flags)
    *flags = a->flags;
  return success;
}
namespace detail {
// The bytes of array a at (wo bytes, ho rows) where a rectangle of `width` bytes by `height`
// rows lies, or nullptr where it does not fit
inline unsigned char *array_rect(const array *a, std::size_t wo, std::size_t ho, std::size_t width, std::size_t height) {
  if (!a || wo + width > a->pitch() || ho + height > a->rows() * a->slices())
    return nullptr;
  return a->ptr + ho * a->pitch() + wo;
}
// The same for `count` bytes from (wo, ho) on, through the rows (the deprecated 1-D forms)
inline unsigned char *array_run(const array *a, std::size_t wo, std::size_t ho, std::size_t count) {
  if (!a || ho * a->pitch() + wo + count > a->slice() * a->slices())
    return nullptr;
  return a->ptr + ho * a->pitch() + wo;
}
inline error_t to_array(array_t dst, std::size_t wo, std::size_t ho, const void *src, std::size_t spitch, std::size_t width, std::size_t height, stream_t s, bool wait) {
  unsigned char *p = array_rect(dst, wo, ho, width, height);
  return p ? copy_rows(p, dst->pitch(), src, spitch, width, height, s, wait) : record(error_invalid_value);
}
inline error_t from_array(void *dst, std::size_t dpitch, array_const_t src, std::size_t wo, std::size_t ho, std::size_t width, std::size_t height, stream_t s, bool wait) {
  const unsigned char *p = array_rect(src, wo, ho, width, height);
  return p ? copy_rows(dst, dpitch, p, src->pitch(), width, height, s, wait) : record(error_invalid_value);
}
inline error_t run_to_array(array_t dst, std::size_t wo, std::size_t ho, const void *src, std::size_t count, stream_t s, bool wait) {
  unsigned char *p = array_run(dst, wo, ho, count);
  return p ? copy_rows(p, count, src, count, count, 1, s, wait) : record(error_invalid_value);
}
inline error_t run_from_array(void *dst, array_const_t src, std::size_t wo, std::size_t ho, std::size_t count, stream_t s, bool wait) {
  const unsigned char *p = array_run(src, wo, ho, count);
  return p ? copy_rows(dst, count, p, count, count, 1, s, wait) : record(error_invalid_value);
}
} // namespace detail
// cudaMemcpy2DToArray(dst, wOffset bytes, hOffset rows, src, spitch, width bytes, height, kind)
inline error_t memcpy_2d_to_array(array_t dst, std::size_t wo, std::size_t ho, const void *src, std::size_t spitch, std::size_t width, std::size_t height, memcpy_kind = memcpy_default) {
  return detail::to_array(dst, wo, ho, src, spitch, width, height, nullptr, true);
}
inline error_t memcpy_2d_to_array_async(array_t dst, std::size_t wo, std::size_t ho, const void *src, std::size_t spitch, std::size_t width, std::size_t height, memcpy_kind = memcpy_default, stream_t s = nullptr) {
  return detail::to_array(dst, wo, ho, src, spitch, width, height, s, false);
}
// cudaMemcpy2DFromArray(dst, dpitch, src, wOffset bytes, hOffset rows, width bytes, height, kind)
inline error_t memcpy_2d_from_array(void *dst, std::size_t dpitch, array_const_t src, std::size_t wo, std::size_t ho, std::size_t width, std::size_t height, memcpy_kind = memcpy_default) {
  return detail::from_array(dst, dpitch, src, wo, ho, width, height, nullptr, true);
}
inline error_t memcpy_2d_from_array_async(void *dst, std::size_t dpitch, array_const_t src, std::size_t wo, std::size_t ho, std::size_t width, std::size_t height, memcpy_kind = memcpy_default, stream_t s = nullptr) {
  return detail::from_array(dst, dpitch, src, wo, ho, width, height, s, false);
}
// cudaMemcpy2DArrayToArray(dst, wOffsetDst, hOffsetDst, src, wOffsetSrc, hOffsetSrc, width bytes, height, kind)
inline error_t memcpy_2d_array_to_array(array_t dst, std::size_t wd, std::size_t hd, array_const_t src, std::size_t ws, std::size_t hs, std::size_t width, std::size_t height, memcpy_kind = memcpy_default) {
  if (!dst || !src)
    return detail::record(error_invalid_value);
  return detail::copy_rows(dst->ptr + hd * dst->pitch() + wd, dst->pitch(), src->ptr + hs * src->pitch() + ws, src->pitch(), width, height, nullptr, true);
}
// The deprecated 1-D forms: `count` bytes from (wOffset, hOffset) on, through the rows
inline error_t memcpy_to_array(array_t dst, std::size_t wo, std::size_t ho, const void *src, std::size_t count, memcpy_kind = memcpy_default) {
  return detail::run_to_array(dst, wo, ho, src, count, nullptr, true);
}
inline error_t memcpy_from_array(void *dst, array_const_t src, std::size_t wo, std::size_t ho, std::size_t count, memcpy_kind = memcpy_default) {
  return detail::run_from_array(dst, src, wo, ho, count, nullptr, true);
}
inline error_t memcpy_to_array_async(array_t dst, std::size_t wo, std::size_t ho, const void *src, std::size_t count, memcpy_kind = memcpy_default, stream_t s = nullptr) {
  return detail::run_to_array(dst, wo, ho, src, count, s, false);
}
inline error_t memcpy_from_array_async(void *dst, array_const_t src, std::size_t wo, std::size_t ho, std::size_t count, memcpy_kind = memcpy_default, stream_t s = nullptr) {
  return detail::run_from_array(dst, src, wo, ho, count, s, false);
}
inline error_t memcpy_array_to_array(array_t dst, std::size_t wd, std::size_t hd, array_const_t src, std::size_t ws, std::size_t hs, std::size_t count, memcpy_kind = memcpy_default) {
  if (!dst || !src)
    return detail::record(error_invalid_value);
  return detail::copy_rows(dst->ptr + hd * dst->pitch() + wd, count, src->ptr + hs * src->pitch() + ws, count, count, 1, nullptr, true);
}
namespace detail {
// cudaMemcpy3D's side that is an array: its place and pitches (positions and the extent's
// width in elements, as CUDA counts them where an array takes part)
inline void array_side(const array *a, pos_3d pos, pitched_ptr &p, pos_3d &at, std::size_t &bytes) {
  p = pitched_ptr{a->ptr, a->pitch(), a->width, a->rows()};
  at = pos_3d{pos.x * static_cast<std::size_t>(a->bytes), pos.y, pos.z};
  bytes = static_cast<std::size_t>(a->bytes);
}
// A copy with an array on either side as one between pitched pointers.
inline memcpy3d_parms flatten_3d(const memcpy3d_parms *p) {
  memcpy3d_parms q = *p;
  std::size_t bytes = 1;
  if (p->srcArray)
    array_side(p->srcArray, p->srcPos, q.srcPtr, q.srcPos, bytes);
  if (p->dstArray)
    array_side(p->dstArray, p->dstPos, q.dstPtr, q.dstPos, bytes);
  q.srcArray = q.dstArray = nullptr;
  q.extent.width *= bytes;
  q.extent.height = q.extent.height ? q.extent.height : 1;
  q.extent.depth = q.extent.depth ? q.extent.depth : 1;
  return q;
}
inline error_t memcpy_3d_arrays(const memcpy3d_parms *p, stream_t s, bool wait) {
  const memcpy3d_parms q = flatten_3d(p);
  return memcpy_3d(&q, s, wait);
}
} // namespace detail

// ---------------------------------------------------------------------------
// Texture objects
struct resource_desc {
  resource_type resType;
  union {
    struct {
      array_t array;
    } array;
    struct {
      mipmapped_array_t mipmap;
    } mipmap;
    struct {
      void *devPtr;
      channel_format_desc desc;
      size_t sizeInBytes;
    } linear;
    struct {
      void *devPtr;
      channel_format_desc desc;
      size_t width, height, pitchInBytes;
    } pitch2D;
  } res;
  unsigned int flags;
};
struct texture_desc {
  texture_address_mode addressMode[3];
  texture_filter_mode filterMode;
  texture_read_mode readMode;
  int sRGB;
  float borderColor[4];
  int normalizedCoords;
  unsigned int maxAnisotropy;
  texture_filter_mode mipmapFilterMode;
  float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
  int disableTrilinearOptimization, seamlessCubemap;
};
struct resource_view_desc;
namespace detail {
// one level of a texture: elements, rows, slices (depth, layers or faces), and their pitches
struct tex_level {
  const unsigned char *ptr;
  long w, h, d;
  std::size_t pitch, slice;
};
struct texture_data {
  tex_level level[16];
  int levels;
  int dims; // 1, 2 or 3 (layers and faces are not a dimension)
  bool layered, cubemap;
  int bytes, channels, channel_bytes;
  channel_format_kind kind;
  texture_address_mode address[3];
  texture_filter_mode filter, mip_filter;
  texture_read_mode read;
  bool normalized;
  float border[4];
  float lod_bias, lod_min, lod_max;
  // the descriptors it was made from (cudaGetTextureObjectResourceDesc/TextureDesc)
  resource_desc res;
  texture_desc desc;
};
inline tex_level level_of(const array &a) {
  return tex_level{a.ptr, static_cast<long>(a.width), static_cast<long>(a.rows()), static_cast<long>(a.slices()), a.pitch(), a.slice()};
}
} // namespace detail
using texture_object_t = const detail::texture_data *;
// cudaCreateTextureObject: array, mipmapped array, linear and pitch-2D resources
namespace detail {
// The sampling state of resource r read as d, in t (zeroed first, padding included, so that
// two equal states compare equal byte for byte); error_invalid_value when r cannot be sampled.
inline error_t fill_texture(texture_data &t, const resource_desc *r, const texture_desc *d) {
  std::memset(static_cast<void *>(&t), 0, sizeof t);
  std::memcpy(static_cast<void *>(&t.res), static_cast<const void *>(r), sizeof *r);
  std::memcpy(static_cast<void *>(&t.desc), static_cast<const void *>(d), sizeof *d);
  channel_format_desc c{};
  const array *shape = nullptr;
  switch (r->resType) {
  case resource_type_array:
    if (!r->res.array.array)
      return error_invalid_value;
    shape = r->res.array.array;
    t.level[0] = level_of(*shape);
    t.levels = 1;
    break;
  case resource_type_mipmapped_array:
    if (!r->res.mipmap.mipmap || r->res.mipmap.mipmap->levels == 0)
      return error_invalid_value;
    shape = &r->res.mipmap.mipmap->level[0];
    t.levels = static_cast<int>(r->res.mipmap.mipmap->levels);
    for (int l = 0; l < t.levels; ++l)
      t.level[l] = level_of(r->res.mipmap.mipmap->level[l]);
    break;
  case resource_type_linear:
    c = r->res.linear.desc;
    t.level[0] = tex_level{static_cast<const unsigned char *>(r->res.linear.devPtr), 0, 1, 1, r->res.linear.sizeInBytes, r->res.linear.sizeInBytes};
    t.levels = 1;
    t.dims = 1;
    break;
  case resource_type_pitch2d:
    c = r->res.pitch2D.desc;
    t.level[0] = tex_level{static_cast<const unsigned char *>(r->res.pitch2D.devPtr), static_cast<long>(r->res.pitch2D.width),
                                   static_cast<long>(r->res.pitch2D.height), 1, r->res.pitch2D.pitchInBytes, 0};
    t.levels = 1;
    t.dims = 2;
    break;
  default:
    return error_invalid_value;
  }
  if (shape) {
    c = shape->desc;
    t.cubemap = (shape->flags & array_cubemap) != 0;
    t.layered = (shape->flags & array_layered) != 0;
    t.dims = t.cubemap ? 2 : t.layered ? (shape->height ? 2 : 1) : shape->depth ? 3 : shape->height ? 2 : 1;
  }
  t.channels = (c.x > 0) + (c.y > 0) + (c.z > 0) + (c.w > 0);
  if (t.channels == 0 || c.x % 8 != 0)
    return error_invalid_value;
  t.channel_bytes = c.x / 8;
  t.bytes = t.channels * t.channel_bytes;
  t.kind = c.f;
  if (r->resType == resource_type_linear)
    t.level[0].w = static_cast<long>(r->res.linear.sizeInBytes / static_cast<std::size_t>(t.bytes));
  for (int k = 0; k < 3; ++k)
    t.address[k] = d->addressMode[k];
  t.filter = d->filterMode;
  t.mip_filter = d->mipmapFilterMode;
  t.read = d->readMode;
  t.normalized = d->normalizedCoords != 0;
  for (int k = 0; k < 4; ++k)
    t.border[k] = d->borderColor[k];
  t.lod_bias = d->mipmapLevelBias;
  t.lod_min = d->minMipmapLevelClamp;
  t.lod_max = d->maxMipmapLevelClamp;
  return success;
}
// t copied to shared USM, which kernels read
inline texture_data *new_texture(const texture_data &t) {
  auto *p = sycl::malloc_shared<texture_data>(1, legacy_queue());
  if (!p)
    throw sycl::exception(sycl::make_error_code(sycl::errc::memory_allocation));
  std::memcpy(static_cast<void *>(p), static_cast<const void *>(&t), sizeof t);
  return p;
}
} // namespace detail
inline error_t create_texture_object(texture_object_t *tex, const resource_desc *r, const texture_desc *d, const resource_view_desc * = nullptr) {
  if (!tex || !r || !d)
    return detail::record(error_invalid_value);
  detail::texture_data t;
  if (detail::fill_texture(t, r, d) != success)
    return detail::record(error_invalid_value);
  return detail::guarded([&] { *tex = detail::new_texture(t); });
}
// cudaDestroyTextureObject
inline error_t destroy_texture_object(texture_object_t tex) {
  if (tex)
    sycl::free(const_cast<detail::texture_data *>(tex), detail::legacy_queue());
  return success;
}
// cudaGetTextureObjectResourceDesc / cudaGetTextureObjectTextureDesc: the descriptors it was made from
inline error_t get_texture_object_resource_desc(resource_desc *r, texture_object_t tex) {
  if (!r || !tex)
    return detail::record(error_invalid_value);
  *r = tex->res;
  return success;
}
inline error_t get_texture_object_texture_desc(texture_desc *d, texture_object_t tex) {
  if (!d || !tex)
    return detail::record(error_invalid_value);
  *d = tex->desc;
  return success;
}
// cudaGetChannelDesc: the format of an array's elements
inline error_t get_channel_desc(channel_format_desc *d, array_const_t a) {
  if (!d || !a)
    return detail::record(error_invalid_value);
  *d = a->desc;
  return success;
}

namespace detail {
// floor, min and max of floats in plain C++ (the sampling also runs on the host, where SYCL's
// math functions need the implementation's library)
inline float tex_floor(float x) {
  if (!(x < 8388608.0f && x > -8388608.0f)) // whole already, or NaN
    return x;
  const float t = static_cast<float>(static_cast<long long>(x));
  return t > x ? t - 1.0f : t;
}
inline float tex_min(float a, float b) { return b < a ? b : a; }
inline float tex_max(float a, float b) { return a < b ? b : a; }
inline float tex_abs(float a) { return a < 0 ? -a : a; }
// index i of an axis of n elements under address mode m (-1: the border)
inline long tex_address(long i, long n, texture_address_mode m) {
  switch (m) {
  case address_mode_wrap:
    i %= n;
    return i < 0 ? i + n : i;
  case address_mode_mirror: {
    long p = i % (2 * n);
    if (p < 0)
      p += 2 * n;
    return p < n ? p : 2 * n - 1 - p;
  }
  case address_mode_border:
    return i < 0 || i >= n ? -1 : i;
  default:
    return i < 0 ? 0 : (i >= n ? n - 1 : i);
  }
}
// a coordinate in texels: normalized ones scaled (wrap and mirror act on texel indices)
inline float tex_coord(float x, long n, bool normalized) { return normalized ? x * static_cast<float>(n) : x; }
// the address mode of texel indices: unnormalized coordinates only clamp or border
inline texture_address_mode tex_index_mode(texture_address_mode m, bool normalized) {
  return normalized || m == address_mode_border ? m : address_mode_clamp;
}
// channel k of a texel as the integer or float it holds
template <class E> E tex_raw(const unsigned char *p) {
  E v;
  std::memcpy(&v, p, sizeof(E));
  return v;
}
// channel k of the texel at p, as a float read (normalized integers, or the float itself)
inline float tex_channel_float(const texture_data *t, const unsigned char *p) {
  const bool norm = t->read == read_mode_normalized_float && t->kind != channel_format_kind_float;
  switch (t->channel_bytes | (t->kind == channel_format_kind_signed ? 0x100 : 0) | (t->kind == channel_format_kind_float ? 0x200 : 0)) {
  case 1: return norm ? static_cast<float>(tex_raw<unsigned char>(p)) / 255.0f : static_cast<float>(tex_raw<unsigned char>(p));
  case 2: return norm ? static_cast<float>(tex_raw<unsigned short>(p)) / 65535.0f : static_cast<float>(tex_raw<unsigned short>(p));
  case 4: return static_cast<float>(tex_raw<unsigned int>(p));
  case 0x101: return norm ? tex_max(static_cast<float>(tex_raw<signed char>(p)) / 127.0f, -1.0f) : static_cast<float>(tex_raw<signed char>(p));
  case 0x102: return norm ? tex_max(static_cast<float>(tex_raw<short>(p)) / 32767.0f, -1.0f) : static_cast<float>(tex_raw<short>(p));
  case 0x104: return static_cast<float>(tex_raw<int>(p));
  case 0x202: return static_cast<float>(tex_raw<sycl::half>(p));
  default: return tex_raw<float>(p);
  }
}
// whether linear filtering of this texture runs on 16-bit fixed-point values (8- and 16-bit
// unsigned textures read as normalized floats), and a channel as such a value
inline bool tex_fixed(const texture_data *t) {
  return t->read == read_mode_normalized_float && t->kind == channel_format_kind_unsigned && t->channel_bytes <= 2;
}
inline std::uint32_t tex_channel_fixed(const texture_data *t, const unsigned char *p) {
  return t->channel_bytes == 1 ? 257u * tex_raw<unsigned char>(p) : tex_raw<unsigned short>(p);
}
// the texel (i, j, k) of level l: its bytes, or nullptr outside (the border)
inline const unsigned char *tex_at(const texture_data *t, const tex_level &l, long i, long j, long k) {
  if (i < 0 || j < 0 || k < 0)
    return nullptr;
  return l.ptr + static_cast<std::size_t>(k) * l.slice + static_cast<std::size_t>(j) * l.pitch + static_cast<std::size_t>(i) * t->bytes;
}
// a T from per-channel values
template <class T, class F> T tex_make(F &&channel) {
  using C = channel_of<T>;
  using E = typename C::E;
  T r{};
  E *pr = reinterpret_cast<E *>(&r);
  for (int c = 0; c < C::n; ++c)
    pr[c] = channel(c);
  return r;
}
// channel c of the texel at p (nullptr: the border colour) as an E
template <class E> E tex_channel(const texture_data *t, const unsigned char *p, int c) {
  if (!p)
    return static_cast<E>(t->border[c]);
  if (c >= t->channels)
    return E{};
  const unsigned char *q = p + c * t->channel_bytes;
  if constexpr (std::is_floating_point<E>::value)
    return static_cast<E>(tex_channel_float(t, q));
  else
    return tex_raw<E>(q);
}
// the texel at p (nullptr: the border colour) as a T
template <class T> T tex_texel(const texture_data *t, const unsigned char *p) {
  using E = typename channel_of<T>::E;
  return tex_make<T>([&](int c) { return tex_channel<E>(t, p, c); });
}
// a + (b - a) * q / 256 per channel, as (1 - w) a + w b in float
template <class T> T tex_lerp(const T &a, const T &b, int q) {
  using E = typename channel_of<T>::E;
  const float w = static_cast<float>(q) * (1.0f / 256.0f);
  const E *pa = reinterpret_cast<const E *>(&a), *pb = reinterpret_cast<const E *>(&b);
  return tex_make<T>([&](int ch) { return static_cast<E>((1.0f - w) * pa[ch] + w * pb[ch]); });
}
// The bilinear weight of corner k (bit 0: the upper x texel, bit 1: the upper y one) in 1/256:
// the hardware rounds the upper corner's product (half up) and gives the others the rest of
// their axis weights, so the four always sum to 256 (measured: an impulse texel's weight at
// (qx, qy) = (104, 144) is 45/256 below it and 59/256 beside it, not 45.5 and 58.5).
inline int tex_w2(int qx, int qy, int k) {
  const int w11 = (qx * qy + 128) >> 8;
  switch (k) {
  case 3: return w11;
  case 1: return qx - w11;
  case 2: return qy - w11;
  default: return 256 - qx - qy + w11;
  }
}
// linear filtering along one axis: the lower index and the weight of the upper one in 1/256
inline void tex_weight(float x, long &i0, int &q) {
  const long f = static_cast<long>(tex_floor(x * 256.0f + 0.5f)) - 128;
  i0 = f >> 8;
  q = static_cast<int>(f & 255);
}
// a sample of level l at texel coordinates (x, y, z) in `dims` dimensions, slice `layer`
template <class T> T tex_sample(const texture_data *t, const tex_level &l, float x, float y, float z, long layer, bool normalized) {
  using E = typename channel_of<T>::E;
  const int dims = t->dims;
  const long n[3] = {l.w, l.h, l.d};
  const float c[3] = {x, y, z};
  float X[3];
  texture_address_mode m[3];
  for (int a = 0; a < 3; ++a) {
    X[a] = a < dims ? tex_coord(c[a], n[a], normalized) : 0.0f;
    m[a] = tex_index_mode(t->address[a], normalized);
  }
  auto at = [&](long i, long j, long k) {
    const long ii = tex_address(i, n[0], m[0]);
    const long jj = dims > 1 ? tex_address(j, n[1], m[1]) : 0;
    const long kk = dims > 2 ? tex_address(k, n[2], m[2]) : layer;
    return tex_at(t, l, ii, jj, kk);
  };
  if (t->filter == filter_mode_point || !std::is_floating_point<E>::value) {
    return tex_texel<T>(t, at(static_cast<long>(tex_floor(X[0])), static_cast<long>(tex_floor(X[1])), static_cast<long>(tex_floor(X[2]))));
  }
  long i0[3] = {0, 0, 0};
  int q[3] = {0, 0, 0};
  for (int a = 0; a < dims; ++a)
    tex_weight(X[a], i0[a], q[a]);
  // A 1-D texture is filtered as a row between y = -0.5 and 0.5: the row above it is the
  // border colour in border mode (so border mode reads half the values), else itself.
  const bool row_border = dims == 1 && t->address[1] == address_mode_border;
  if (tex_fixed(t)) {
    // 16-bit fixed-point values, weights in 1/256 (2-D: tex_w2), rounded half up to 1/65535
    return tex_make<T>([&](int ch) -> E {
      auto value = [&](const unsigned char *p) -> std::uint64_t {
        return p ? (ch < t->channels ? tex_channel_fixed(t, p + ch * t->channel_bytes) : 0)
                 : static_cast<std::uint64_t>(tex_floor(tex_min(tex_max(t->border[ch], 0.0f), 1.0f) * 65535.0f + 0.5f));
      };
      std::uint64_t sum = 0;
      int shift = 8;
      if (dims == 1) {
        const std::uint64_t a = value(at(i0[0], 0, 0)), b = value(at(i0[0] + 1, 0, 0));
        if (row_border) {
          const int w11 = tex_w2(q[0], 128, 3), w01 = tex_w2(q[0], 128, 2);
          sum = static_cast<std::uint64_t>(w01) * a + static_cast<std::uint64_t>(w11) * b + static_cast<std::uint64_t>(256 - w01 - w11) * value(nullptr);
        } else {
          sum = static_cast<std::uint64_t>(256 - q[0]) * a + static_cast<std::uint64_t>(q[0]) * b;
        }
      } else if (dims == 2) {
        for (int k = 0; k < 4; ++k)
          sum += static_cast<std::uint64_t>(tex_w2(q[0], q[1], k)) * value(at(i0[0] + (k & 1), i0[1] + (k >> 1 & 1), 0));
      } else {
        for (int k = 0; k < 8; ++k) {
          std::uint64_t w = 1;
          for (int a = 0; a < 3; ++a)
            w *= (k >> a & 1) ? static_cast<std::uint64_t>(q[a]) : static_cast<std::uint64_t>(256 - q[a]);
          sum += w * value(at(i0[0] + (k & 1), i0[1] + (k >> 1 & 1), i0[2] + (k >> 2 & 1)));
        }
        shift = 24;
      }
      return static_cast<E>(static_cast<float>((sum + (std::uint64_t(1) << (shift - 1))) >> shift) / 65535.0f);
    });
  }
  // float values: weighted sums, or lerps per axis, with the weights in 1/256
  auto texel = [&](int k) { return tex_texel<T>(t, at(i0[0] + (k & 1), i0[1] + (k >> 1 & 1), i0[2] + (k >> 2 & 1))); };
  // a weighted sum in float of texels with weights in 1/256
  auto weighted = [&](const T *v, const int *w, int n) {
    return tex_make<T>([&](int ch) -> E {
      float sum = 0;
      for (int k = 0; k < n; ++k)
        sum += static_cast<float>(w[k]) * reinterpret_cast<const E *>(&v[k])[ch];
      return static_cast<E>(sum * (1.0f / 256.0f));
    });
  };
  if (dims == 1) {
    if (!row_border)
      return tex_lerp(texel(0), texel(1), q[0]);
    const T v[3] = {texel(0), texel(1), tex_texel<T>(t, nullptr)};
    const int w01 = tex_w2(q[0], 128, 2), w11 = tex_w2(q[0], 128, 3);
    const int w[3] = {w01, w11, 256 - w01 - w11};
    return weighted(v, w, 3);
  }
  if (dims == 2) {
    const T v[4] = {texel(0), texel(1), texel(2), texel(3)};
    const int w[4] = {tex_w2(q[0], q[1], 0), tex_w2(q[0], q[1], 1), tex_w2(q[0], q[1], 2), tex_w2(q[0], q[1], 3)};
    return weighted(v, w, 4);
  }
  const T s0 = tex_lerp(tex_lerp(texel(0), texel(1), q[0]), tex_lerp(texel(2), texel(3), q[0]), q[1]);
  const T s1 = tex_lerp(tex_lerp(texel(4), texel(5), q[0]), tex_lerp(texel(6), texel(7), q[0]), q[1]);
  return tex_lerp(s0, s1, q[2]);
}
// a sample at level of detail `lod` (mipmaps), else of level 0
template <class T> T tex_lod(const texture_data *t, float x, float y, float z, long layer, float lod, bool normalized) {
  if (t->levels <= 1)
    return tex_sample<T>(t, t->level[0], x, y, z, layer, normalized);
  float v = tex_min(tex_max(lod + t->lod_bias, t->lod_min), t->lod_max);
  v = tex_min(tex_max(v, 0.0f), static_cast<float>(t->levels - 1));
  if (t->mip_filter == filter_mode_point)
    return tex_sample<T>(t, t->level[static_cast<int>(tex_floor(v + 0.5f))], x, y, z, layer, normalized);
  const int l0 = static_cast<int>(tex_floor(v));
  const int q = static_cast<int>(tex_floor((v - static_cast<float>(l0)) * 256.0f + 0.5f));
  const T a = tex_sample<T>(t, t->level[l0], x, y, z, layer, normalized);
  if (q == 0 || l0 + 1 >= t->levels)
    return a;
  return tex_lerp(a, tex_sample<T>(t, t->level[l0 + 1], x, y, z, layer, normalized), q);
}
// the face of a cubemap direction and its normalized face coordinates (CUDA's table)
inline long tex_cube_face(float x, float y, float z, float &s, float &u) {
  const float ax = tex_abs(x), ay = tex_abs(y), az = tex_abs(z);
  long face;
  float sc, tc, ma;
  if (ax >= ay && ax >= az) {
    face = x >= 0 ? 0 : 1;
    ma = ax;
    sc = x >= 0 ? -z : z;
    tc = -y;
  } else if (ay >= az) {
    face = y >= 0 ? 2 : 3;
    ma = ay;
    sc = x;
    tc = y >= 0 ? z : -z;
  } else {
    face = z >= 0 ? 4 : 5;
    ma = az;
    sc = z >= 0 ? x : -x;
    tc = -y;
  }
  s = (sc / ma + 1.0f) * 0.5f;
  u = (tc / ma + 1.0f) * 0.5f;
  return face;
}
template <class T> T tex_cube(texture_object_t t, float x, float y, float z, long layer, float lod) {
  float s, u;
  const long face = tex_cube_face(x, y, z, s, u);
  return tex_lod<T>(t, s, u, 0.0f, layer * 6 + face, lod, true);
}
} // namespace detail
// Fetches (CUDA's texture_fetch_functions / texture_indirect_functions): each in the form
// returning the value and the form writing it through a pointer.
// tex1Dfetch<T>(tex, i): element i of a linear texture, no filtering
template <class T> T tex1Dfetch(texture_object_t t, int i) {
  return detail::tex_texel<T>(t, detail::tex_at(t, t->level[0], detail::tex_address(i, t->level[0].w, address_mode_clamp), 0, 0));
}
template <class T> T tex1D(texture_object_t t, float x) { return detail::tex_lod<T>(t, x, 0, 0, 0, 0.0f, t->normalized); }
template <class T> T tex2D(texture_object_t t, float x, float y) { return detail::tex_lod<T>(t, x, y, 0, 0, 0.0f, t->normalized); }
template <class T> T tex3D(texture_object_t t, float x, float y, float z) { return detail::tex_lod<T>(t, x, y, z, 0, 0.0f, t->normalized); }
template <class T> T tex1DLayered(texture_object_t t, float x, int layer) { return detail::tex_lod<T>(t, x, 0, 0, layer, 0.0f, t->normalized); }
template <class T> T tex2DLayered(texture_object_t t, float x, float y, int layer) { return detail::tex_lod<T>(t, x, y, 0, layer, 0.0f, t->normalized); }
template <class T> T tex1DLod(texture_object_t t, float x, float level) { return detail::tex_lod<T>(t, x, 0, 0, 0, level, t->normalized); }
template <class T> T tex2DLod(texture_object_t t, float x, float y, float level) { return detail::tex_lod<T>(t, x, y, 0, 0, level, t->normalized); }
template <class T> T tex3DLod(texture_object_t t, float x, float y, float z, float level) { return detail::tex_lod<T>(t, x, y, z, 0, level, t->normalized); }
template <class T> T tex1DLayeredLod(texture_object_t t, float x, int layer, float level) { return detail::tex_lod<T>(t, x, 0, 0, layer, level, t->normalized); }
template <class T> T tex2DLayeredLod(texture_object_t t, float x, float y, int layer, float level) { return detail::tex_lod<T>(t, x, y, 0, layer, level, t->normalized); }
template <class T> T texCubemap(texture_object_t t, float x, float y, float z) { return detail::tex_cube<T>(t, x, y, z, 0, 0.0f); }
template <class T> T texCubemapLayered(texture_object_t t, float x, float y, float z, int layer) { return detail::tex_cube<T>(t, x, y, z, layer, 0.0f); }
template <class T> T texCubemapLod(texture_object_t t, float x, float y, float z, float level) { return detail::tex_cube<T>(t, x, y, z, 0, level); }
// tex2DGrad: the level of detail of the larger gradient, in texels of level 0
template <class T> T tex2DGrad(texture_object_t t, float x, float y, float2 dx, float2 dy) {
  const float w = static_cast<float>(t->level[0].w), h = static_cast<float>(t->level[0].h);
  const float gx = sycl::sqrt(dx.x * w * dx.x * w + dx.y * h * dx.y * h), gy = sycl::sqrt(dy.x * w * dy.x * w + dy.y * h * dy.y * h);
  return detail::tex_lod<T>(t, x, y, 0, 0, sycl::log2(detail::tex_max(detail::tex_max(gx, gy), 1e-30f)), t->normalized);
}
// tex2Dgather<T>(tex, x, y, comp): channel `comp` of the four texels of the bilinear footprint,
// as (i0, j1), (i1, j1), (i1, j0), (i0, j0)
template <class T> T tex2Dgather(texture_object_t t, float x, float y, int comp = 0) {
  using E = typename detail::channel_of<T>::E;
  const detail::tex_level &l = t->level[0];
  const float X = detail::tex_coord(x, l.w, t->normalized), Y = detail::tex_coord(y, l.h, t->normalized);
  const texture_address_mode mx = detail::tex_index_mode(t->address[0], t->normalized), my = detail::tex_index_mode(t->address[1], t->normalized);
  long i0, j0;
  int qx, qy;
  detail::tex_weight(X, i0, qx);
  detail::tex_weight(Y, j0, qy);
  const long is[4] = {i0, i0 + 1, i0 + 1, i0}, js[4] = {j0 + 1, j0 + 1, j0, j0};
  return detail::tex_make<T>([&](int k) {
    return detail::tex_channel<E>(t, detail::tex_at(t, l, detail::tex_address(is[k], l.w, mx), detail::tex_address(js[k], l.h, my), 0), comp);
  });
}
template <class T> void tex1Dfetch(T *r, texture_object_t t, int i) { *r = tex1Dfetch<T>(t, i); }
template <class T> void tex1D(T *r, texture_object_t t, float x) { *r = tex1D<T>(t, x); }
template <class T> void tex2D(T *r, texture_object_t t, float x, float y) { *r = tex2D<T>(t, x, y); }
template <class T> void tex3D(T *r, texture_object_t t, float x, float y, float z) { *r = tex3D<T>(t, x, y, z); }
template <class T> void tex1DLayered(T *r, texture_object_t t, float x, int layer) { *r = tex1DLayered<T>(t, x, layer); }
template <class T> void tex2DLayered(T *r, texture_object_t t, float x, float y, int layer) { *r = tex2DLayered<T>(t, x, y, layer); }
template <class T> void tex2DLod(T *r, texture_object_t t, float x, float y, float level) { *r = tex2DLod<T>(t, x, y, level); }
template <class T> void texCubemap(T *r, texture_object_t t, float x, float y, float z) { *r = texCubemap<T>(t, x, y, z); }
template <class T> void tex2Dgather(T *r, texture_object_t t, float x, float y, int comp = 0) { *r = tex2Dgather<T>(t, x, y, comp); }

// ---------------------------------------------------------------------------
// Surface objects: an array read and written in kernels at byte offsets along x. Out of range,
// cudaBoundaryModeZero reads zero and drops the write, cudaBoundaryModeClamp clamps; CUDA's
// default, cudaBoundaryModeTrap, stops the kernel: here it reads zero and drops the write.
namespace detail {
struct surface_data {
  unsigned char *ptr;
  long w, h, d; // elements, rows, slices
  std::size_t pitch, slice;
  int bytes;
};
} // namespace detail
using surface_object_t = const detail::surface_data *;
// cudaCreateSurfaceObject: an array resource
inline error_t create_surface_object(surface_object_t *s, const resource_desc *r) {
  if (!s || !r || r->resType != resource_type_array || !r->res.array.array)
    return detail::record(error_invalid_value);
  const array &a = *r->res.array.array;
  const detail::surface_data d{a.ptr, static_cast<long>(a.width), static_cast<long>(a.rows()), static_cast<long>(a.slices()), a.pitch(), a.slice(), a.bytes};
  return detail::guarded([&] {
    auto *p = sycl::malloc_shared<detail::surface_data>(1, detail::legacy_queue());
    if (!p)
      throw sycl::exception(sycl::make_error_code(sycl::errc::memory_allocation));
    *p = d;
    *s = p;
  });
}
inline error_t destroy_surface_object(surface_object_t s) {
  if (s)
    sycl::free(const_cast<detail::surface_data *>(s), detail::legacy_queue());
  return success;
}
namespace detail {
// the bytes of a T at byte offset x of row y of slice z, or nullptr out of range under mode m
template <class T> unsigned char *surf_at(surface_object_t s, long x, long y, long z, surface_boundary_mode m) {
  const long size = static_cast<long>(sizeof(T));
  const long xmax = s->w * s->bytes - size;
  if (x < 0 || x > xmax || y < 0 || y >= s->h || z < 0 || z >= s->d) {
    if (m != boundary_mode_clamp)
      return nullptr;
    x = x < 0 ? 0 : (x > xmax ? xmax : x);
    y = y < 0 ? 0 : (y >= s->h ? s->h - 1 : y);
    z = z < 0 ? 0 : (z >= s->d ? s->d - 1 : z);
  }
  return s->ptr + static_cast<std::size_t>(z) * s->slice + static_cast<std::size_t>(y) * s->pitch + static_cast<std::size_t>(x);
}
template <class T> T surf_read(surface_object_t s, long x, long y, long z, surface_boundary_mode m) {
  T v{};
  if (const unsigned char *p = surf_at<T>(s, x, y, z, m))
    std::memcpy(&v, p, sizeof(T));
  return v;
}
template <class T> void surf_write(const T &v, surface_object_t s, long x, long y, long z, surface_boundary_mode m) {
  if (unsigned char *p = surf_at<T>(s, x, y, z, m))
    std::memcpy(p, &v, sizeof(T));
}
} // namespace detail
template <class T> T surf1Dread(surface_object_t s, int x, surface_boundary_mode m = boundary_mode_trap) { return detail::surf_read<T>(s, x, 0, 0, m); }
template <class T> T surf2Dread(surface_object_t s, int x, int y, surface_boundary_mode m = boundary_mode_trap) { return detail::surf_read<T>(s, x, y, 0, m); }
template <class T> T surf3Dread(surface_object_t s, int x, int y, int z, surface_boundary_mode m = boundary_mode_trap) { return detail::surf_read<T>(s, x, y, z, m); }
template <class T> T surf1DLayeredread(surface_object_t s, int x, int layer, surface_boundary_mode m = boundary_mode_trap) { return detail::surf_read<T>(s, x, 0, layer, m); }
template <class T> T surf2DLayeredread(surface_object_t s, int x, int y, int layer, surface_boundary_mode m = boundary_mode_trap) { return detail::surf_read<T>(s, x, y, layer, m); }
template <class T> void surf1Dread(T *r, surface_object_t s, int x, surface_boundary_mode m = boundary_mode_trap) { *r = detail::surf_read<T>(s, x, 0, 0, m); }
template <class T> void surf2Dread(T *r, surface_object_t s, int x, int y, surface_boundary_mode m = boundary_mode_trap) { *r = detail::surf_read<T>(s, x, y, 0, m); }
template <class T> void surf3Dread(T *r, surface_object_t s, int x, int y, int z, surface_boundary_mode m = boundary_mode_trap) { *r = detail::surf_read<T>(s, x, y, z, m); }
template <class T> void surf2DLayeredread(T *r, surface_object_t s, int x, int y, int layer, surface_boundary_mode m = boundary_mode_trap) { *r = detail::surf_read<T>(s, x, y, layer, m); }
template <class T> void surf1Dwrite(T v, surface_object_t s, int x, surface_boundary_mode m = boundary_mode_trap) { detail::surf_write(v, s, x, 0, 0, m); }
template <class T> void surf2Dwrite(T v, surface_object_t s, int x, int y, surface_boundary_mode m = boundary_mode_trap) { detail::surf_write(v, s, x, y, 0, m); }
template <class T> void surf3Dwrite(T v, surface_object_t s, int x, int y, int z, surface_boundary_mode m = boundary_mode_trap) { detail::surf_write(v, s, x, y, z, m); }
template <class T> void surf1DLayeredwrite(T v, surface_object_t s, int x, int layer, surface_boundary_mode m = boundary_mode_trap) { detail::surf_write(v, s, x, 0, layer, m); }
template <class T> void surf2DLayeredwrite(T v, surface_object_t s, int x, int y, int layer, surface_boundary_mode m = boundary_mode_trap) { detail::surf_write(v, s, x, y, layer, m); }

// ---------------------------------------------------------------------------
// Texture and surface references (`texture<T, dim, mode> tex;`, removed from CUDA 12, still in
// older programs): a namespace-scope texture_ref holds CUDA's textureReference fields and its
// binding (cudaBindTexture, cudaBindTexture2D, cudaBindTextureToArray, the driver's
// cuTexRefSet*). A launch of a kernel that reads it passes tex.view(), a texture object made
// from the reference's state at that moment (the fields as the host last set them), which the
// fetches below take in place of the reference. The objects a reference made are kept, one per
// distinct state, so rebinding between launches allocates nothing new after the first time; past
// 64 states the device is waited for and they are freed.
// cudaTextureType* and cudaSurfaceType*: a reference's second template argument
enum : int {
  texture_type_1d = 0x01,
  texture_type_2d = 0x02,
  texture_type_3d = 0x03,
  texture_type_cubemap = 0x0C,
  texture_type_1d_layered = 0xF1,
  texture_type_2d_layered = 0xF2,
  texture_type_cubemap_layered = 0xFC,
};
namespace detail {
// The objects a reference made, one per distinct state (found by `same`), in shared USM, valid
// for the rest of the program or until 64 more were made: past 64 the device is waited for and
// they are freed.
template <class D> struct made_objects {
  std::vector<D *> all;
  template <class Same> const D *find_or_add(const D &d, Same same) {
    for (const D *o : all)
      if (same(*o))
        return o;
    if (all.size() >= 64) {
      device_synchronize();
      for (D *o : all)
        sycl::free(o, legacy_queue());
      all.clear();
    }
    auto *p = sycl::malloc_shared<D>(1, legacy_queue());
    if (!p)
      throw sycl::exception(sycl::make_error_code(sycl::errc::memory_allocation));
    std::memcpy(static_cast<void *>(p), static_cast<const void *>(&d), sizeof d);
    all.push_back(p);
    return p;
  }
};
} // namespace detail
struct texture_reference {
  // CUDA's textureReference
  int normalized;
  texture_filter_mode filterMode;
  texture_address_mode addressMode[3];
  channel_format_desc channelDesc;
  int sRGB;
  unsigned int maxAnisotropy;
  texture_filter_mode mipmapFilterMode;
  float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
  int disableTrilinearOptimization;

  texture_reference(int norm = 0, texture_filter_mode f = filter_mode_point, texture_address_mode a = address_mode_clamp,
                    channel_format_desc c = channel_format_desc{0, 0, 0, 0, channel_format_kind_none}, int read = read_mode_element_type)
      : normalized(norm), filterMode(f), addressMode{a, a, a}, channelDesc(c), sRGB(0), maxAnisotropy(0), mipmapFilterMode(filter_mode_point),
        mipmapLevelBias(0), minMipmapLevelClamp(0), maxMipmapLevelClamp(0), disableTrilinearOptimization(0), read_(static_cast<texture_read_mode>(read)) {
    std::memset(static_cast<void *>(&bound_), 0, sizeof bound_);
  }
  texture_reference(const texture_reference &) = delete;
  texture_reference &operator=(const texture_reference &) = delete;
  // (the objects stay until the program ends: a static's destructor could run after the queue's)

  // The binding (the resource sampled), set by the bind calls; none: unbound
  bool bound() const { return is_bound_; }
  void bind(const resource_desc &r) const {
    std::lock_guard<std::mutex> g(m_);
    std::memset(static_cast<void *>(&bound_), 0, sizeof bound_);
    bound_.resType = r.resType;
    bound_.res = r.res;
    is_bound_ = true;
  }
  void unbind() const {
    std::lock_guard<std::mutex> g(m_);
    is_bound_ = false;
  }
  const resource_desc &resource() const { return bound_; }
  // The driver API's state beyond textureReference's fields (cuTexRefSetFlags, SetBorderColor)
  unsigned driver_flags = 0;
  float borderColor[4] = {0, 0, 0, 0};
  texture_read_mode read_mode() const { return read_; }

  // The texture object of the current state (nullptr when unbound or not samplable), valid for
  // the rest of the program or until 64 more states were made (detail::made_objects).
  texture_object_t object() const {
    std::lock_guard<std::mutex> g(m_);
    if (!is_bound_)
      return nullptr;
    texture_desc d;
    std::memset(static_cast<void *>(&d), 0, sizeof d);
    for (int k = 0; k < 3; ++k)
      d.addressMode[k] = addressMode[k];
    d.filterMode = filterMode;
    d.readMode = read_;
    d.sRGB = sRGB;
    for (int k = 0; k < 4; ++k)
      d.borderColor[k] = borderColor[k];
    d.normalizedCoords = normalized;
    d.maxAnisotropy = maxAnisotropy;
    d.mipmapFilterMode = mipmapFilterMode;
    d.mipmapLevelBias = mipmapLevelBias;
    d.minMipmapLevelClamp = minMipmapLevelClamp;
    d.maxMipmapLevelClamp = maxMipmapLevelClamp;
    d.disableTrilinearOptimization = disableTrilinearOptimization;
    detail::texture_data t;
    if (detail::fill_texture(t, &bound_, &d) != success)
      return nullptr;
    return made_.find_or_add(t, [&](const detail::texture_data &o) {
      return std::memcmp(&o.res, &t.res, sizeof t.res) == 0 && std::memcmp(&o.desc, &t.desc, sizeof t.desc) == 0;
    });
  }

private:
  texture_read_mode read_;
  mutable resource_desc bound_;
  mutable bool is_bound_ = false;
  mutable std::mutex m_;
  mutable detail::made_objects<detail::texture_data> made_;
};
// What a kernel receives for a texture reference: the object of the launch's state, typed as the
// reference is (the fetches' result type).
template <class T, int Dim = 1, int Mode = read_mode_element_type> struct texture_view {
  texture_object_t obj;
};
// texture<T, dim, readMode>
template <class T, int Dim = 1, int Mode = read_mode_element_type> struct texture_ref : texture_reference {
  texture_ref(int norm = 0, texture_filter_mode f = filter_mode_point, texture_address_mode a = address_mode_clamp)
      : texture_reference(norm, f, a, create_channel_desc<T>(), Mode) {}
  texture_ref(int norm, texture_filter_mode f, texture_address_mode a, channel_format_desc c) : texture_reference(norm, f, a, c, Mode) {}
  texture_view<T, Dim, Mode> view() const { return texture_view<T, Dim, Mode>{object()}; }
};

namespace detail {
// a fetch's result: T, or floats of T's channels in cudaReadModeNormalizedFloat
template <class T, int Mode, int N = channel_of<T>::n, bool Scalar = std::is_arithmetic<T>::value> struct tex_result {
  using type = T;
};
template <class T, int N> struct tex_result<T, read_mode_normalized_float, N, true> {
  using type = float;
};
template <class T> struct tex_result<T, read_mode_normalized_float, 1, false> {
  using type = float1;
};
template <class T> struct tex_result<T, read_mode_normalized_float, 2, false> {
  using type = float2;
};
template <class T> struct tex_result<T, read_mode_normalized_float, 4, false> {
  using type = float4;
};
} // namespace detail
template <class T, int Mode> using tex_result_t = typename detail::tex_result<T, Mode>::type;

// The fetches of a reference: those of its object (zero when it is unbound)
#define SYCLIFY_TEXREF_FETCH(NAME, PARAMS, ARGS)                                                                        \
  template <class T, int D, int M> tex_result_t<T, M> NAME(texture_view<T, D, M> v PARAMS) {                            \
    return v.obj ? NAME<tex_result_t<T, M>>(v.obj ARGS) : tex_result_t<T, M>{};                                          \
  }
#define SYCLIFY_COMMA ,
SYCLIFY_TEXREF_FETCH(tex1Dfetch, SYCLIFY_COMMA int i, SYCLIFY_COMMA i)
SYCLIFY_TEXREF_FETCH(tex1D, SYCLIFY_COMMA float x, SYCLIFY_COMMA x)
SYCLIFY_TEXREF_FETCH(tex2D, SYCLIFY_COMMA float x SYCLIFY_COMMA float y, SYCLIFY_COMMA x SYCLIFY_COMMA y)
SYCLIFY_TEXREF_FETCH(tex3D, SYCLIFY_COMMA float x SYCLIFY_COMMA float y SYCLIFY_COMMA float z, SYCLIFY_COMMA x SYCLIFY_COMMA y SYCLIFY_COMMA z)
SYCLIFY_TEXREF_FETCH(tex1DLayered, SYCLIFY_COMMA float x SYCLIFY_COMMA int layer, SYCLIFY_COMMA x SYCLIFY_COMMA layer)
SYCLIFY_TEXREF_FETCH(tex2DLayered, SYCLIFY_COMMA float x SYCLIFY_COMMA float y SYCLIFY_COMMA int layer, SYCLIFY_COMMA x SYCLIFY_COMMA y SYCLIFY_COMMA layer)
SYCLIFY_TEXREF_FETCH(tex1DLod, SYCLIFY_COMMA float x SYCLIFY_COMMA float level, SYCLIFY_COMMA x SYCLIFY_COMMA level)
SYCLIFY_TEXREF_FETCH(tex2DLod, SYCLIFY_COMMA float x SYCLIFY_COMMA float y SYCLIFY_COMMA float level, SYCLIFY_COMMA x SYCLIFY_COMMA y SYCLIFY_COMMA level)
SYCLIFY_TEXREF_FETCH(tex3DLod, SYCLIFY_COMMA float x SYCLIFY_COMMA float y SYCLIFY_COMMA float z SYCLIFY_COMMA float level,
                     SYCLIFY_COMMA x SYCLIFY_COMMA y SYCLIFY_COMMA z SYCLIFY_COMMA level)
SYCLIFY_TEXREF_FETCH(tex1DLayeredLod, SYCLIFY_COMMA float x SYCLIFY_COMMA int layer SYCLIFY_COMMA float level, SYCLIFY_COMMA x SYCLIFY_COMMA layer SYCLIFY_COMMA level)
SYCLIFY_TEXREF_FETCH(tex2DLayeredLod, SYCLIFY_COMMA float x SYCLIFY_COMMA float y SYCLIFY_COMMA int layer SYCLIFY_COMMA float level,
                     SYCLIFY_COMMA x SYCLIFY_COMMA y SYCLIFY_COMMA layer SYCLIFY_COMMA level)
SYCLIFY_TEXREF_FETCH(texCubemap, SYCLIFY_COMMA float x SYCLIFY_COMMA float y SYCLIFY_COMMA float z, SYCLIFY_COMMA x SYCLIFY_COMMA y SYCLIFY_COMMA z)
SYCLIFY_TEXREF_FETCH(texCubemapLayered, SYCLIFY_COMMA float x SYCLIFY_COMMA float y SYCLIFY_COMMA float z SYCLIFY_COMMA int layer,
                     SYCLIFY_COMMA x SYCLIFY_COMMA y SYCLIFY_COMMA z SYCLIFY_COMMA layer)
SYCLIFY_TEXREF_FETCH(texCubemapLod, SYCLIFY_COMMA float x SYCLIFY_COMMA float y SYCLIFY_COMMA float z SYCLIFY_COMMA float level,
                     SYCLIFY_COMMA x SYCLIFY_COMMA y SYCLIFY_COMMA z SYCLIFY_COMMA level)
SYCLIFY_TEXREF_FETCH(tex2DGrad, SYCLIFY_COMMA float x SYCLIFY_COMMA float y SYCLIFY_COMMA float2 dx SYCLIFY_COMMA float2 dy,
                     SYCLIFY_COMMA x SYCLIFY_COMMA y SYCLIFY_COMMA dx SYCLIFY_COMMA dy)
#undef SYCLIFY_COMMA
#undef SYCLIFY_TEXREF_FETCH
// tex2Dgather(tex, x, y, comp): four values of one channel (a 4-vector of the element's type, or
// of floats when read normalized)
namespace detail {
template <class E> struct vec4_of;
template <> struct vec4_of<float> { using type = float4; };
template <> struct vec4_of<int> { using type = int4; };
template <> struct vec4_of<unsigned int> { using type = uint4; };
template <> struct vec4_of<signed char> { using type = char4; };
template <> struct vec4_of<unsigned char> { using type = uchar4; };
template <> struct vec4_of<short> { using type = short4; };
template <> struct vec4_of<unsigned short> { using type = ushort4; };
} // namespace detail
template <class T, int D, int M>
std::conditional_t<M == read_mode_normalized_float, float4, typename detail::vec4_of<typename detail::channel_of<T>::E>::type>
tex2Dgather(texture_view<T, D, M> v, float x, float y, int comp = 0) {
  using R = std::conditional_t<M == read_mode_normalized_float, float4, typename detail::vec4_of<typename detail::channel_of<T>::E>::type>;
  return v.obj ? tex2Dgather<R>(v.obj, x, y, comp) : R{};
}

namespace detail {
inline error_t bind_linear(const texture_reference *t, const void *p, const channel_format_desc &d, std::size_t size) {
  if (!t || (!p && size))
    return record(error_invalid_value);
  resource_desc r{};
  r.resType = resource_type_linear;
  r.res.linear.devPtr = const_cast<void *>(p);
  r.res.linear.desc = d;
  r.res.linear.sizeInBytes = size;
  t->bind(r);
  return success;
}
inline error_t bind_pitch2d(const texture_reference *t, const void *p, const channel_format_desc &d, std::size_t w, std::size_t h, std::size_t pitch) {
  if (!t || !p)
    return record(error_invalid_value);
  resource_desc r{};
  r.resType = resource_type_pitch2d;
  r.res.pitch2D.devPtr = const_cast<void *>(p);
  r.res.pitch2D.desc = d;
  r.res.pitch2D.width = w;
  r.res.pitch2D.height = h;
  r.res.pitch2D.pitchInBytes = pitch;
  t->bind(r);
  return success;
}
} // namespace detail
// cudaBindTexture(offset, texref, devPtr, desc, size = UINT_MAX): linear memory, any address (the
// offset is 0: USM needs no alignment). The C++ forms take the reference and, optionally, the
// format (else the reference's channelDesc).
inline error_t bind_texture(std::size_t *offset, const texture_reference *t, const void *p, const channel_format_desc *d, std::size_t size = UINT_MAX) {
  if (!d)
    return detail::record(error_invalid_value);
  if (offset)
    *offset = 0;
  return detail::bind_linear(t, p, *d, size);
}
inline error_t bind_texture(std::size_t *offset, const texture_reference &t, const void *p, const channel_format_desc &d, std::size_t size = UINT_MAX) {
  return bind_texture(offset, &t, p, &d, size);
}
inline error_t bind_texture(std::size_t *offset, const texture_reference &t, const void *p, std::size_t size = UINT_MAX) {
  return bind_texture(offset, &t, p, &t.channelDesc, size);
}
// cudaBindTexture2D(offset, texref, devPtr, desc, width, height, pitch): pitched rows
inline error_t bind_texture_2d(std::size_t *offset, const texture_reference *t, const void *p, const channel_format_desc *d, std::size_t w, std::size_t h, std::size_t pitch) {
  if (!d)
    return detail::record(error_invalid_value);
  if (offset)
    *offset = 0;
  return detail::bind_pitch2d(t, p, *d, w, h, pitch);
}
inline error_t bind_texture_2d(std::size_t *offset, const texture_reference &t, const void *p, const channel_format_desc &d, std::size_t w, std::size_t h, std::size_t pitch) {
  return bind_texture_2d(offset, &t, p, &d, w, h, pitch);
}
inline error_t bind_texture_2d(std::size_t *offset, const texture_reference &t, const void *p, std::size_t w, std::size_t h, std::size_t pitch) {
  return bind_texture_2d(offset, &t, p, &t.channelDesc, w, h, pitch);
}
// cudaBindTextureToArray(texref, array, desc) and (tex, array[, desc]): the array's own format
inline error_t bind_texture_to_array(const texture_reference *t, array_const_t a, const channel_format_desc * = nullptr) {
  if (!t || !a)
    return detail::record(error_invalid_value);
  resource_desc r{};
  r.resType = resource_type_array;
  r.res.array.array = const_cast<array_t>(a);
  t->bind(r);
  return success;
}
inline error_t bind_texture_to_array(const texture_reference &t, array_const_t a) { return bind_texture_to_array(&t, a); }
inline error_t bind_texture_to_array(const texture_reference &t, array_const_t a, const channel_format_desc &d) { return bind_texture_to_array(&t, a, &d); }
// cudaBindTextureToMipmappedArray(texref, mipmappedArray, desc) and (tex, mipmappedArray[, desc])
inline error_t bind_texture_to_mipmapped_array(const texture_reference *t, mipmapped_array_const_t m, const channel_format_desc * = nullptr) {
  if (!t || !m)
    return detail::record(error_invalid_value);
  resource_desc r{};
  r.resType = resource_type_mipmapped_array;
  r.res.mipmap.mipmap = const_cast<mipmapped_array_t>(m);
  t->bind(r);
  return success;
}
inline error_t bind_texture_to_mipmapped_array(const texture_reference &t, mipmapped_array_const_t m) { return bind_texture_to_mipmapped_array(&t, m); }
inline error_t bind_texture_to_mipmapped_array(const texture_reference &t, mipmapped_array_const_t m, const channel_format_desc &d) {
  return bind_texture_to_mipmapped_array(&t, m, &d);
}
// cudaUnbindTexture(texref) and (tex): later launches read zeros, as from no resource
inline error_t unbind_texture(const texture_reference *t) {
  if (!t)
    return detail::record(error_invalid_value);
  t->unbind();
  return success;
}
inline error_t unbind_texture(const texture_reference &t) { return unbind_texture(&t); }
// cudaGetTextureAlignmentOffset: 0 (bound at the address given)
inline error_t get_texture_alignment_offset(std::size_t *offset, const texture_reference *t) {
  if (!offset || !t)
    return detail::record(error_invalid_value);
  *offset = 0;
  return success;
}
inline error_t get_texture_alignment_offset(std::size_t *offset, const texture_reference &t) { return get_texture_alignment_offset(offset, &t); }
// cudaGetTextureReference(&ref, &tex) (the symbol: the reference's address) and (&ref, tex)
inline error_t get_texture_reference(const texture_reference **r, const texture_reference *t) {
  if (!r || !t)
    return detail::record(error_invalid_value);
  *r = t;
  return success;
}
inline error_t get_texture_reference(const texture_reference **r, const texture_reference &t) { return get_texture_reference(r, &t); }
// cudaGetChannelDesc of a bound reference's format is the reference's channelDesc field.

// Surface references (`surface<void, dim> surf;`), bound to an array with cudaBindSurfaceToArray;
// a launch passes surf.view(), a surface object of its array at that moment.
enum : int { surface_type_1d = 0x01, surface_type_2d = 0x02, surface_type_3d = 0x03, surface_type_cubemap = 0x0C,
             surface_type_1d_layered = 0xF1, surface_type_2d_layered = 0xF2, surface_type_cubemap_layered = 0xFC };
struct surface_reference {
  channel_format_desc channelDesc{0, 0, 0, 0, channel_format_kind_none};
  surface_reference() = default;
  surface_reference(const surface_reference &) = delete;
  surface_reference &operator=(const surface_reference &) = delete;
  void bind(array_const_t a) const {
    std::lock_guard<std::mutex> g(m_);
    array_ = a;
  }
  array_const_t array_bound() const { return array_; }
  // the surface object of the array bound now (nullptr when none)
  surface_object_t object() const {
    std::lock_guard<std::mutex> g(m_);
    if (!array_)
      return nullptr;
    const array &a = *array_;
    const detail::surface_data d{a.ptr, static_cast<long>(a.width), static_cast<long>(a.rows()), static_cast<long>(a.slices()), a.pitch(), a.slice(), a.bytes};
    return made_.find_or_add(d, [&](const detail::surface_data &o) { return o.ptr == d.ptr && o.w == d.w && o.h == d.h && o.d == d.d && o.bytes == d.bytes; });
  }

private:
  mutable array_const_t array_ = nullptr;
  mutable std::mutex m_;
  mutable detail::made_objects<detail::surface_data> made_;
};
template <class T = void, int Dim = 1> struct surface_view {
  surface_object_t obj;
};
template <class T = void, int Dim = 1> struct surface_ref : surface_reference {
  surface_view<T, Dim> view() const { return surface_view<T, Dim>{object()}; }
};
// cudaBindSurfaceToArray(surfref, array, desc) and (surf, array[, desc])
inline error_t bind_surface_to_array(const surface_reference *s, array_const_t a, const channel_format_desc * = nullptr) {
  if (!s || !a)
    return detail::record(error_invalid_value);
  s->bind(a);
  return success;
}
inline error_t bind_surface_to_array(const surface_reference &s, array_const_t a) { return bind_surface_to_array(&s, a); }
inline error_t bind_surface_to_array(const surface_reference &s, array_const_t a, const channel_format_desc &d) { return bind_surface_to_array(&s, a, &d); }
// cudaGetSurfaceReference(&ref, &surf)
inline error_t get_surface_reference(const surface_reference **r, const surface_reference *s) {
  if (!r || !s)
    return detail::record(error_invalid_value);
  *r = s;
  return success;
}
inline error_t get_surface_reference(const surface_reference **r, const surface_reference &s) { return get_surface_reference(r, &s); }
// The surface functions of a reference: those of its object (an unbound one reads zero and
// drops writes)
namespace detail {
template <class T> T surf_read_view(surface_object_t s, long x, long y, long z, surface_boundary_mode m) { return s ? surf_read<T>(s, x, y, z, m) : T{}; }
template <class T> void surf_write_view(const T &v, surface_object_t s, long x, long y, long z, surface_boundary_mode m) {
  if (s)
    surf_write(v, s, x, y, z, m);
}
} // namespace detail
template <class T, class U, int D> T surf1Dread(surface_view<U, D> s, int x, surface_boundary_mode m = boundary_mode_trap) { return detail::surf_read_view<T>(s.obj, x, 0, 0, m); }
template <class T, class U, int D> T surf2Dread(surface_view<U, D> s, int x, int y, surface_boundary_mode m = boundary_mode_trap) { return detail::surf_read_view<T>(s.obj, x, y, 0, m); }
template <class T, class U, int D> T surf3Dread(surface_view<U, D> s, int x, int y, int z, surface_boundary_mode m = boundary_mode_trap) { return detail::surf_read_view<T>(s.obj, x, y, z, m); }
template <class T, class U, int D> T surf1DLayeredread(surface_view<U, D> s, int x, int layer, surface_boundary_mode m = boundary_mode_trap) { return detail::surf_read_view<T>(s.obj, x, 0, layer, m); }
template <class T, class U, int D> T surf2DLayeredread(surface_view<U, D> s, int x, int y, int layer, surface_boundary_mode m = boundary_mode_trap) { return detail::surf_read_view<T>(s.obj, x, y, layer, m); }
template <class T, class U, int D> void surf1Dread(T *r, surface_view<U, D> s, int x, surface_boundary_mode m = boundary_mode_trap) { *r = detail::surf_read_view<T>(s.obj, x, 0, 0, m); }
template <class T, class U, int D> void surf2Dread(T *r, surface_view<U, D> s, int x, int y, surface_boundary_mode m = boundary_mode_trap) { *r = detail::surf_read_view<T>(s.obj, x, y, 0, m); }
template <class T, class U, int D> void surf3Dread(T *r, surface_view<U, D> s, int x, int y, int z, surface_boundary_mode m = boundary_mode_trap) { *r = detail::surf_read_view<T>(s.obj, x, y, z, m); }
template <class T, class U, int D> void surf2DLayeredread(T *r, surface_view<U, D> s, int x, int y, int layer, surface_boundary_mode m = boundary_mode_trap) {
  *r = detail::surf_read_view<T>(s.obj, x, y, layer, m);
}
template <class T, class U, int D> void surf1Dwrite(T v, surface_view<U, D> s, int x, surface_boundary_mode m = boundary_mode_trap) { detail::surf_write_view(v, s.obj, x, 0, 0, m); }
template <class T, class U, int D> void surf2Dwrite(T v, surface_view<U, D> s, int x, int y, surface_boundary_mode m = boundary_mode_trap) { detail::surf_write_view(v, s.obj, x, y, 0, m); }
template <class T, class U, int D> void surf3Dwrite(T v, surface_view<U, D> s, int x, int y, int z, surface_boundary_mode m = boundary_mode_trap) { detail::surf_write_view(v, s.obj, x, y, z, m); }
template <class T, class U, int D> void surf1DLayeredwrite(T v, surface_view<U, D> s, int x, int layer, surface_boundary_mode m = boundary_mode_trap) {
  detail::surf_write_view(v, s.obj, x, 0, layer, m);
}
template <class T, class U, int D> void surf2DLayeredwrite(T v, surface_view<U, D> s, int x, int y, int layer, surface_boundary_mode m = boundary_mode_trap) {
  detail::surf_write_view(v, s.obj, x, y, layer, m);
}


} // namespace syclify
