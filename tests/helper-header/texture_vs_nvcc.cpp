// The texture helpers' sampling (syclify/texture.hpp) on the host, over the
// arrays and sample points of fixtures/programs/texture_arrays: point and
// linear filtering, texel and normalized coordinates, every address mode, a
// float and an 8-bit (normalized float) array, and a 1-D array in clamp and
// border mode. Each line's FNV-1a digest of the 64 samples' bits is the one
// that program printed when built with nvcc 13 and run on an H200 (its
// expected_output.txt): bit for bit.
#include <sycl/sycl.hpp>
#include <syclify/syclify.hpp>
#include <cstdio>
#include <cstring>

int main() {
  const int W = 6, H = 4, N = 64;
  float vf[H * W];
  unsigned char vu[H * W];
  for (int j = 0; j < H; ++j)
    for (int i = 0; i < W; ++i) {
      vf[j * W + i] = (float)(j * 16 + i * 3 - 7);
      vu[j * W + i] = (unsigned char)((j * 97 + i * 41 + 13) % 256);
    }
  const char *modes[] = {"wrap", "clamp", "mirror", "border"};
  for (int kind = 0; kind < 2; ++kind)
    for (int norm = 0; norm < 2; ++norm)
      for (int mode = 0; mode < 4; ++mode)
        for (int linear = 0; linear < 2; ++linear) {
          syclify::detail::texture_data t{};
          t.level[0] = syclify::detail::tex_level{kind ? (const unsigned char *)vu : (const unsigned char *)vf, W, H, 1,
                                                  (std::size_t)W * (kind ? 1 : 4), 0};
          t.levels = 1;
          t.dims = 2;
          t.channels = 1;
          t.channel_bytes = t.bytes = kind ? 1 : 4;
          t.kind = kind ? syclify::channel_format_kind_unsigned : syclify::channel_format_kind_float;
          t.address[0] = t.address[1] = (syclify::texture_address_mode)mode;
          t.filter = linear ? syclify::filter_mode_linear : syclify::filter_mode_point;
          t.read = kind ? syclify::read_mode_normalized_float : syclify::read_mode_element_type;
          t.normalized = norm;
          unsigned h = 2166136261u;
          float s5 = 0;
          for (int k = 0; k < N; ++k) {
            float x = -1.5f + (k * 37 % 64) * (9.0f / 64.0f), y = -1.0f + (k * 11 % 64) * (6.0f / 64.0f);
            if (norm) {
              x /= W;
              y /= H;
            }
            float v = syclify::tex2D<float>(&t, x, y);
            unsigned b;
            std::memcpy(&b, &v, 4);
            h = (h ^ b) * 16777619u;
            if (k == 5)
              s5 = v;
          }
          printf("%s %-10s %-6s %-6s: %2d wrong, hash %08x, sample 5 = %a\n", kind ? "uchar" : "float", norm ? "normalized" : "texels",
                 modes[mode], linear ? "linear" : "point", 0, h, s5);
        }
  // a 1-D array of 5 floats, linear filtering, normalized coordinates
  const float v1[5] = {1, 2, 3, 4, 5};
  for (int mode = 1; mode <= 3; mode += 2) {
    syclify::detail::texture_data t{};
    t.level[0] = syclify::detail::tex_level{(const unsigned char *)v1, 5, 1, 1, sizeof v1, 0};
    t.levels = 1;
    t.dims = 1;
    t.channels = 1;
    t.channel_bytes = t.bytes = 4;
    t.kind = syclify::channel_format_kind_float;
    t.address[0] = t.address[1] = t.address[2] = (syclify::texture_address_mode)mode;
    t.filter = syclify::filter_mode_linear;
    t.read = syclify::read_mode_element_type;
    t.normalized = true;
    unsigned h = 2166136261u;
    float s5 = 0;
    for (int k = 0; k < N; ++k) {
      float v = syclify::tex1D<float>(&t, -0.25f + k * (1.5f / 64) + (k % 3) / 1024.0f);
      unsigned b;
      std::memcpy(&b, &v, 4);
      h = (h ^ b) * 16777619u;
      if (k == 5)
        s5 = v;
    }
    printf("1-D float  normalized %-6s linear: %2d wrong, hash %08x, sample 5 = %a\n", modes[mode], 0, h, s5);
  }
}
