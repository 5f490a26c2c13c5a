// Benchmark: tiled single-precision GEMM, C = A * B (n x n, row-major), with
// two 32 x 32 __shared__ tiles per block. Prints the kernel's time per launch
// (CUDA events) and checks sampled entries against a double-precision
// reference.
#include <cmath>
#include <cstdio>
#include <vector>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); \
    return 1; } } while (0)

#define TILE 32

__global__ void sgemm_tiled(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.0f;
    for (int t = 0; t < n; t += TILE) {
        As[threadIdx.y][threadIdx.x] = A[row * n + t + threadIdx.x];
        Bs[threadIdx.y][threadIdx.x] = B[(t + threadIdx.y) * n + col];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; ++k)
            acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    C[row * n + col] = acc;
}

int main()
{
    const int n = 2048, reps = 20;
    std::vector<float> a(n * n), b(n * n), c(n * n);
    for (int i = 0; i < n * n; ++i) {
        a[i] = (float)((i * 7) % 13 - 6) / 8.0f;
        b[i] = (float)((i * 5) % 11 - 5) / 4.0f;
    }
    float *dA, *dB, *dC;
    CHECK(cudaMalloc(&dA, n * n * sizeof(float)));
    CHECK(cudaMalloc(&dB, n * n * sizeof(float)));
    CHECK(cudaMalloc(&dC, n * n * sizeof(float)));
    CHECK(cudaMemcpy(dA, a.data(), n * n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dB, b.data(), n * n * sizeof(float), cudaMemcpyHostToDevice));
    dim3 block(TILE, TILE);
    dim3 grid(n / TILE, n / TILE);
    sgemm_tiled<<<grid, block>>>(dA, dB, dC, n); // warm-up
    CHECK(cudaGetLastError());
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventRecord(start));
    for (int r = 0; r < reps; ++r)
        sgemm_tiled<<<grid, block>>>(dA, dB, dC, n);
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0.0f;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    CHECK(cudaMemcpy(c.data(), dC, n * n * sizeof(float), cudaMemcpyDeviceToHost));
    int errors = 0;
    for (int s = 0; s < 64; ++s) {
        int i = (s * 977) % n, j = (s * 613 + 5) % n;
        double ref = 0.0;
        for (int k = 0; k < n; ++k)
            ref += (double)a[i * n + k] * (double)b[k * n + j];
        if (fabs(c[i * n + j] - ref) > 1e-3 * (1.0 + fabs(ref))) {
            if (errors < 5)
                printf("mismatch C[%d][%d]: %f, expected %f\n", i, j, c[i * n + j], ref);
            ++errors;
        }
    }
    printf("time: sgemm_tiled %.4f ms\n", ms / reps);
    printf("sgemm %d x %d: %.1f GFLOP/s\n", n, n, 2.0 * n * n * (double)n / (ms / reps * 1e6));
    CHECK(cudaFree(dA));
    CHECK(cudaFree(dB));
    CHECK(cudaFree(dC));
    if (errors) { printf("FAIL %d errors\n", errors); return 1; }
    printf("PASS\n");
    return 0;
}
