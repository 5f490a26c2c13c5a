// Every SIMD-in-a-word helper (syclify::vadd4 ... vimax3_s16x2_relu) on 16 x 16
// input pairs, folded into one FNV-1a digest. The expected digest
// (tests/helper-header/simd_vs_nvcc.expected) is that of the same calls to
// CUDA's __v* intrinsics, compiled with nvcc 13 and run on an H100: the
// helpers have CUDA's exact per-lane semantics. Generated with the CUDA twin
// of this file (same calls with the `__v` names, in a <<<1, 1>>> kernel).
#include <sycl/sycl.hpp>
#include <syclify/syclify.hpp>
#include <cstdio>
#define P(n, v) out[k++] = (v)
void kern(unsigned *out, unsigned a, unsigned b, unsigned c) { int k = 0;
  P("vabs2", (unsigned)(syclify::vabs2(a)));
  P("vabs4", (unsigned)(syclify::vabs4(a)));
  P("vabsss2", (unsigned)(syclify::vabsss2(a)));
  P("vabsss4", (unsigned)(syclify::vabsss4(a)));
  P("vneg2", (unsigned)(syclify::vneg2(a)));
  P("vneg4", (unsigned)(syclify::vneg4(a)));
  P("vnegss2", (unsigned)(syclify::vnegss2(a)));
  P("vnegss4", (unsigned)(syclify::vnegss4(a)));
  P("vabsdiffs2", (unsigned)(syclify::vabsdiffs2(a, b)));
  P("vabsdiffs4", (unsigned)(syclify::vabsdiffs4(a, b)));
  P("vabsdiffu2", (unsigned)(syclify::vabsdiffu2(a, b)));
  P("vabsdiffu4", (unsigned)(syclify::vabsdiffu4(a, b)));
  P("vadd2", (unsigned)(syclify::vadd2(a, b)));
  P("vadd4", (unsigned)(syclify::vadd4(a, b)));
  P("vaddss2", (unsigned)(syclify::vaddss2(a, b)));
  P("vaddss4", (unsigned)(syclify::vaddss4(a, b)));
  P("vaddus2", (unsigned)(syclify::vaddus2(a, b)));
  P("vaddus4", (unsigned)(syclify::vaddus4(a, b)));
  P("vavgs2", (unsigned)(syclify::vavgs2(a, b)));
  P("vavgs4", (unsigned)(syclify::vavgs4(a, b)));
  P("vavgu2", (unsigned)(syclify::vavgu2(a, b)));
  P("vavgu4", (unsigned)(syclify::vavgu4(a, b)));
  P("vcmpeq2", (unsigned)(syclify::vcmpeq2(a, b)));
  P("vcmpeq4", (unsigned)(syclify::vcmpeq4(a, b)));
  P("vcmpges2", (unsigned)(syclify::vcmpges2(a, b)));
  P("vcmpges4", (unsigned)(syclify::vcmpges4(a, b)));
  P("vcmpgeu2", (unsigned)(syclify::vcmpgeu2(a, b)));
  P("vcmpgeu4", (unsigned)(syclify::vcmpgeu4(a, b)));
  P("vcmpgts2", (unsigned)(syclify::vcmpgts2(a, b)));
  P("vcmpgts4", (unsigned)(syclify::vcmpgts4(a, b)));
  P("vcmpgtu2", (unsigned)(syclify::vcmpgtu2(a, b)));
  P("vcmpgtu4", (unsigned)(syclify::vcmpgtu4(a, b)));
  P("vcmples2", (unsigned)(syclify::vcmples2(a, b)));
  P("vcmples4", (unsigned)(syclify::vcmples4(a, b)));
  P("vcmpleu2", (unsigned)(syclify::vcmpleu2(a, b)));
  P("vcmpleu4", (unsigned)(syclify::vcmpleu4(a, b)));
  P("vcmplts2", (unsigned)(syclify::vcmplts2(a, b)));
  P("vcmplts4", (unsigned)(syclify::vcmplts4(a, b)));
  P("vcmpltu2", (unsigned)(syclify::vcmpltu2(a, b)));
  P("vcmpltu4", (unsigned)(syclify::vcmpltu4(a, b)));
  P("vcmpne2", (unsigned)(syclify::vcmpne2(a, b)));
  P("vcmpne4", (unsigned)(syclify::vcmpne4(a, b)));
  P("vhaddu2", (unsigned)(syclify::vhaddu2(a, b)));
  P("vhaddu4", (unsigned)(syclify::vhaddu4(a, b)));
  P("vimax_s16x2_relu", (unsigned)(syclify::vimax_s16x2_relu(a, b)));
  P("vimax_s32_relu", (unsigned)(syclify::vimax_s32_relu(a, b)));
  P("vimin_s16x2_relu", (unsigned)(syclify::vimin_s16x2_relu(a, b)));
  P("vimin_s32_relu", (unsigned)(syclify::vimin_s32_relu(a, b)));
  P("vmaxs2", (unsigned)(syclify::vmaxs2(a, b)));
  P("vmaxs4", (unsigned)(syclify::vmaxs4(a, b)));
  P("vmaxu2", (unsigned)(syclify::vmaxu2(a, b)));
  P("vmaxu4", (unsigned)(syclify::vmaxu4(a, b)));
  P("vmins2", (unsigned)(syclify::vmins2(a, b)));
  P("vmins4", (unsigned)(syclify::vmins4(a, b)));
  P("vminu2", (unsigned)(syclify::vminu2(a, b)));
  P("vminu4", (unsigned)(syclify::vminu4(a, b)));
  P("vsads2", (unsigned)(syclify::vsads2(a, b)));
  P("vsads4", (unsigned)(syclify::vsads4(a, b)));
  P("vsadu2", (unsigned)(syclify::vsadu2(a, b)));
  P("vsadu4", (unsigned)(syclify::vsadu4(a, b)));
  P("vseteq2", (unsigned)(syclify::vseteq2(a, b)));
  P("vseteq4", (unsigned)(syclify::vseteq4(a, b)));
  P("vsetges2", (unsigned)(syclify::vsetges2(a, b)));
  P("vsetges4", (unsigned)(syclify::vsetges4(a, b)));
  P("vsetgeu2", (unsigned)(syclify::vsetgeu2(a, b)));
  P("vsetgeu4", (unsigned)(syclify::vsetgeu4(a, b)));
  P("vsetgts2", (unsigned)(syclify::vsetgts2(a, b)));
  P("vsetgts4", (unsigned)(syclify::vsetgts4(a, b)));
  P("vsetgtu2", (unsigned)(syclify::vsetgtu2(a, b)));
  P("vsetgtu4", (unsigned)(syclify::vsetgtu4(a, b)));
  P("vsetles2", (unsigned)(syclify::vsetles2(a, b)));
  P("vsetles4", (unsigned)(syclify::vsetles4(a, b)));
  P("vsetleu2", (unsigned)(syclify::vsetleu2(a, b)));
  P("vsetleu4", (unsigned)(syclify::vsetleu4(a, b)));
  P("vsetlts2", (unsigned)(syclify::vsetlts2(a, b)));
  P("vsetlts4", (unsigned)(syclify::vsetlts4(a, b)));
  P("vsetltu2", (unsigned)(syclify::vsetltu2(a, b)));
  P("vsetltu4", (unsigned)(syclify::vsetltu4(a, b)));
  P("vsetne2", (unsigned)(syclify::vsetne2(a, b)));
  P("vsetne4", (unsigned)(syclify::vsetne4(a, b)));
  P("vsub2", (unsigned)(syclify::vsub2(a, b)));
  P("vsub4", (unsigned)(syclify::vsub4(a, b)));
  P("vsubss2", (unsigned)(syclify::vsubss2(a, b)));
  P("vsubss4", (unsigned)(syclify::vsubss4(a, b)));
  P("vsubus2", (unsigned)(syclify::vsubus2(a, b)));
  P("vsubus4", (unsigned)(syclify::vsubus4(a, b)));
  P("viaddmax_s16x2", (unsigned)(syclify::viaddmax_s16x2(a, b, c)));
  P("viaddmax_s16x2_relu", (unsigned)(syclify::viaddmax_s16x2_relu(a, b, c)));
  P("viaddmax_s32", (unsigned)(syclify::viaddmax_s32(a, b, c)));
  P("viaddmax_s32_relu", (unsigned)(syclify::viaddmax_s32_relu(a, b, c)));
  P("viaddmax_u16x2", (unsigned)(syclify::viaddmax_u16x2(a, b, c)));
  P("viaddmax_u32", (unsigned)(syclify::viaddmax_u32(a, b, c)));
  P("viaddmin_s16x2", (unsigned)(syclify::viaddmin_s16x2(a, b, c)));
  P("viaddmin_s16x2_relu", (unsigned)(syclify::viaddmin_s16x2_relu(a, b, c)));
  P("viaddmin_s32", (unsigned)(syclify::viaddmin_s32(a, b, c)));
  P("viaddmin_s32_relu", (unsigned)(syclify::viaddmin_s32_relu(a, b, c)));
  P("viaddmin_u16x2", (unsigned)(syclify::viaddmin_u16x2(a, b, c)));
  P("viaddmin_u32", (unsigned)(syclify::viaddmin_u32(a, b, c)));
  P("vimax3_s16x2", (unsigned)(syclify::vimax3_s16x2(a, b, c)));
  P("vimax3_s16x2_relu", (unsigned)(syclify::vimax3_s16x2_relu(a, b, c)));
  P("vimax3_s32", (unsigned)(syclify::vimax3_s32(a, b, c)));
  P("vimax3_s32_relu", (unsigned)(syclify::vimax3_s32_relu(a, b, c)));
  P("vimax3_u16x2", (unsigned)(syclify::vimax3_u16x2(a, b, c)));
  P("vimax3_u32", (unsigned)(syclify::vimax3_u32(a, b, c)));
  P("vimin3_s16x2", (unsigned)(syclify::vimin3_s16x2(a, b, c)));
  P("vimin3_s16x2_relu", (unsigned)(syclify::vimin3_s16x2_relu(a, b, c)));
  P("vimin3_s32", (unsigned)(syclify::vimin3_s32(a, b, c)));
  P("vimin3_s32_relu", (unsigned)(syclify::vimin3_s32_relu(a, b, c)));
  P("vimin3_u16x2", (unsigned)(syclify::vimin3_u16x2(a, b, c)));
  P("vimin3_u32", (unsigned)(syclify::vimin3_u32(a, b, c)));
}
int main() { unsigned vals[] = {0u,1u,0x7fu,0x80u,0xffu,0x7fffu,0x8000u,0xffffu,0x80807f7fu,0x01ff8002u,0xfffefdfcu,0x12345678u,0x9abcdef0u,0x7f7f8080u,0xffff0001u,0x00018000u}; int nv = sizeof(vals)/sizeof(vals[0]);
 static unsigned d[4096];
 unsigned long long h = 0xcbf29ce484222325ull; // FNV-1a over every result, in order
 for (int i = 0; i < nv; i++) for (int j = 0; j < nv; j++) { kern(d, vals[i], vals[j], vals[(i+j)%nv]);
 for (int k = 0; k < 110; k++) for (int s = 0; s < 32; s += 8) { h ^= (d[k] >> s) & 0xffu; h *= 0x100000001b3ull; } }
 std::printf("%016llx\n", h);
 return 0; }
