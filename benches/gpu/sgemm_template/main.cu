// Benchmark: tiled single-precision GEMM, C = A * B (n x n, row-major), as
// templated code writes it: the tile size is a template parameter (16 and
// 32, one instantiation each), the block comes from a `dim3` variable and
// the two __shared__ tiles are 2-D arrays of the template's size. Prints
// each instantiation's time per launch (CUDA events, after a warm-up
// launch) and checks sampled entries against a double-precision reference.
#include <cmath>
#include <cstdio>
#include <vector>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); \
    return -1.0f; } } while (0)

template <int TILE>
__global__ void sgemm_template(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int n)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TILE + ty;
    const int col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int t = 0; t < n / TILE; ++t) {
        As[ty][tx] = A[row * n + t * TILE + tx];
        Bs[ty][tx] = B[(t * TILE + ty) * n + col];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * n + col] = acc;
}

// One instantiation: warm-up, then `reps` launches timed with events; the
// time per launch in ms (negative on a CUDA error).
template <int TILE>
float timed(const float *dA, const float *dB, float *dC, int n, int reps)
{
    dim3 block(TILE, TILE);
    dim3 grid(n / TILE, n / TILE);
    sgemm_template<TILE><<<grid, block>>>(dA, dB, dC, n);
    CHECK(cudaGetLastError());
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventRecord(start));
    for (int r = 0; r < reps; ++r)
        sgemm_template<TILE><<<grid, block>>>(dA, dB, dC, n);
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0.0f;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    return ms / reps;
}

// Sampled entries of C against a double-precision product: the mismatches.
static int check(const std::vector<float> &a, const std::vector<float> &b, const std::vector<float> &c, int n)
{
    int errors = 0;
    for (int s = 0; s < 64; ++s) {
        int i = (s * 389) % n, j = (s * 271 + 11) % n;
        double ref = 0.0;
        for (int k = 0; k < n; ++k)
            ref += (double)a[i * n + k] * (double)b[k * n + j];
        if (fabs(c[i * n + j] - ref) > 1e-3 * (1.0 + fabs(ref))) {
            if (errors < 5)
                printf("mismatch C[%d][%d]: %f, expected %f\n", i, j, c[i * n + j], ref);
            ++errors;
        }
    }
    return errors;
}

int main()
{
    const int n = 2048, reps = 20;
    std::vector<float> a(n * n), b(n * n), c(n * n);
    for (int i = 0; i < n * n; ++i) {
        a[i] = (float)((i * 3) % 17 - 8) / 8.0f;
        b[i] = (float)((i * 11) % 7 - 3) / 4.0f;
    }
    float *dA, *dB, *dC;
    size_t bytes = (size_t)n * n * sizeof(float);
    if (cudaMalloc(&dA, bytes) != cudaSuccess || cudaMalloc(&dB, bytes) != cudaSuccess || cudaMalloc(&dC, bytes) != cudaSuccess) {
        printf("FAIL cudaMalloc\n");
        return 1;
    }
    cudaMemcpy(dA, a.data(), bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(dB, b.data(), bytes, cudaMemcpyHostToDevice);
    int errors = 0;
    float ms16 = timed<16>(dA, dB, dC, n, reps);
    cudaMemcpy(c.data(), dC, bytes, cudaMemcpyDeviceToHost);
    errors += check(a, b, c, n);
    cudaMemset(dC, 0, bytes);
    float ms32 = timed<32>(dA, dB, dC, n, reps);
    cudaMemcpy(c.data(), dC, bytes, cudaMemcpyDeviceToHost);
    errors += check(a, b, c, n);
    if (ms16 < 0 || ms32 < 0) {
        printf("FAIL CUDA error\n");
        return 1;
    }
    printf("time: sgemm_template<16> %.4f ms\n", ms16);
    printf("time: sgemm_template<32> %.4f ms\n", ms32);
    printf("sgemm %d x %d: %.1f GFLOP/s (16), %.1f GFLOP/s (32)\n", n, n, 2.0 * n * n * (double)n / (ms16 * 1e6), 2.0 * n * n * (double)n / (ms32 * 1e6));
    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
    if (errors) { printf("FAIL %d errors\n", errors); return 1; }
    printf("PASS\n");
    return 0;
}
