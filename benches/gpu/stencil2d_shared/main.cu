// Benchmark: 9-point cross stencil (radius 2) on a 4096 x 4096 float grid,
// each 32 x 8 block staging its tile and halo in __shared__ memory (edges
// clamped). Prints the kernel's time per launch (CUDA events) and checks
// sampled points against a host computation.
#include <cmath>
#include <cstdio>
#include <vector>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); \
    return 1; } } while (0)

#define BX 32
#define BY 8
#define R 2

__global__ void stencil2d(const float *in, float *out, int w, int h)
{
    __shared__ float s[BY + 2 * R][BX + 2 * R];
    int x = blockIdx.x * BX + threadIdx.x;
    int y = blockIdx.y * BY + threadIdx.y;
    for (int j = threadIdx.y; j < BY + 2 * R; j += BY)
        for (int i = threadIdx.x; i < BX + 2 * R; i += BX) {
            int gx = min(max((int)(blockIdx.x * BX) + i - R, 0), w - 1);
            int gy = min(max((int)(blockIdx.y * BY) + j - R, 0), h - 1);
            s[j][i] = in[gy * w + gx];
        }
    __syncthreads();
    if (x < w && y < h) {
        int tx = threadIdx.x + R, ty = threadIdx.y + R;
        float v = 0.5f * s[ty][tx]
                + 0.1f * (s[ty][tx - 1] + s[ty][tx + 1] + s[ty - 1][tx] + s[ty + 1][tx])
                + 0.025f * (s[ty][tx - 2] + s[ty][tx + 2] + s[ty - 2][tx] + s[ty + 2][tx]);
        out[y * w + x] = v;
    }
}

static float at(const std::vector<float> &a, int x, int y, int w, int h)
{
    x = x < 0 ? 0 : (x >= w ? w - 1 : x);
    y = y < 0 ? 0 : (y >= h ? h - 1 : y);
    return a[y * w + x];
}

int main()
{
    const int w = 4096, h = 4096, reps = 50;
    std::vector<float> a(w * h), b(w * h);
    for (int i = 0; i < w * h; ++i)
        a[i] = (float)((i * 37) % 101) / 10.0f;
    float *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, w * h * sizeof(float)));
    CHECK(cudaMalloc(&d_out, w * h * sizeof(float)));
    CHECK(cudaMemcpy(d_in, a.data(), w * h * sizeof(float), cudaMemcpyHostToDevice));
    dim3 grid(w / BX, h / BY), block(BX, BY);
    stencil2d<<<grid, block>>>(d_in, d_out, w, h);
    CHECK(cudaGetLastError());
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventRecord(start));
    for (int r = 0; r < reps; ++r)
        stencil2d<<<grid, block>>>(d_in, d_out, w, h);
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0.0f;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    CHECK(cudaMemcpy(b.data(), d_out, w * h * sizeof(float), cudaMemcpyDeviceToHost));
    int errors = 0;
    for (int s = 0; s < 4096; ++s) {
        int x = (s * 733) % w, y = (s * 389 + s / 7) % h;
        if (s < 4) { x = s % 2 ? w - 1 : 0; y = s / 2 ? h - 1 : 0; }
        double ref = 0.5 * at(a, x, y, w, h)
                   + 0.1 * (at(a, x - 1, y, w, h) + at(a, x + 1, y, w, h) + at(a, x, y - 1, w, h) + at(a, x, y + 1, w, h))
                   + 0.025 * (at(a, x - 2, y, w, h) + at(a, x + 2, y, w, h) + at(a, x, y - 2, w, h) + at(a, x, y + 2, w, h));
        if (fabs(b[y * w + x] - ref) > 1e-4 * (1.0 + fabs(ref))) {
            if (errors < 5)
                printf("mismatch at (%d, %d): %f, expected %f\n", x, y, b[y * w + x], ref);
            ++errors;
        }
    }
    printf("time: stencil2d %.4f ms\n", ms / reps);
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    if (errors) { printf("FAIL %d errors\n", errors); return 1; }
    printf("PASS\n");
    return 0;
}
