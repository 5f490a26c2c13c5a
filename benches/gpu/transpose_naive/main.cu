// Benchmark: transpose of a 4096 x 4096 float matrix straight from global
// memory (reads coalesced, writes strided), 32 x 8 threads per 32 x 32 tile.
// Prints the kernel's time per launch (CUDA events), checks every element.
#include <cstdio>
#include <vector>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); \
    return 1; } } while (0)

#define TILE_DIM 32
#define BLOCK_ROWS 8

__global__ void transpose_naive(float *out, const float *in, int width, int height)
{
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        out[x * height + (y + j)] = in[(y + j) * width + x];
}

int main()
{
    const int w = 4096, h = 4096, reps = 50;
    std::vector<float> a(w * h), b(w * h);
    for (int i = 0; i < w * h; ++i)
        a[i] = (float)(i % 65521);
    float *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, w * h * sizeof(float)));
    CHECK(cudaMalloc(&d_out, w * h * sizeof(float)));
    CHECK(cudaMemcpy(d_in, a.data(), w * h * sizeof(float), cudaMemcpyHostToDevice));
    dim3 grid(w / TILE_DIM, h / TILE_DIM), block(TILE_DIM, BLOCK_ROWS);
    transpose_naive<<<grid, block>>>(d_out, d_in, w, h);
    CHECK(cudaGetLastError());
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventRecord(start));
    for (int r = 0; r < reps; ++r)
        transpose_naive<<<grid, block>>>(d_out, d_in, w, h);
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0.0f;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    CHECK(cudaMemcpy(b.data(), d_out, w * h * sizeof(float), cudaMemcpyDeviceToHost));
    int errors = 0;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            if (b[x * h + y] != a[y * w + x]) {
                if (errors < 5)
                    printf("mismatch at (%d, %d)\n", x, y);
                ++errors;
            }
    printf("time: transpose_naive %.4f ms\n", ms / reps);
    printf("%.1f GB/s\n", 2.0 * w * h * sizeof(float) / (ms / reps * 1e6));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    if (errors) { printf("FAIL %d errors\n", errors); return 1; }
    printf("PASS\n");
    return 0;
}
