// Benchmark: 256-bin histogram of 64M bytes, each block counting into a
// __shared__ histogram with shared-memory atomics and adding it to the
// global one. Prints the kernel's time per launch (CUDA events) and checks
// every bin.
#include <cstdio>
#include <vector>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); \
    return 1; } } while (0)

#define BINS 256

__global__ void histogram(const unsigned char *data, unsigned int *hist, int n)
{
    __shared__ unsigned int h[BINS];
    for (int i = threadIdx.x; i < BINS; i += blockDim.x)
        h[i] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&h[data[i]], 1u);
    __syncthreads();
    for (int i = threadIdx.x; i < BINS; i += blockDim.x)
        atomicAdd(&hist[i], h[i]);
}

int main()
{
    const int n = 1 << 26, reps = 20;
    std::vector<unsigned char> data(n);
    std::vector<unsigned int> expect(BINS, 0), got(BINS);
    unsigned int seed = 12345;
    for (int i = 0; i < n; ++i) {
        seed = seed * 1664525u + 1013904223u;
        // skewed: low bins are hit more often (contention as real data has)
        unsigned int v = seed >> 24;
        data[i] = (unsigned char)((v * v) >> 8);
        ++expect[data[i]];
    }
    unsigned char *d_data;
    unsigned int *d_hist;
    CHECK(cudaMalloc(&d_data, n));
    CHECK(cudaMalloc(&d_hist, BINS * sizeof(unsigned int)));
    CHECK(cudaMemcpy(d_data, data.data(), n, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_hist, 0, BINS * sizeof(unsigned int)));
    const int blocks = 132 * 4, threads = 512;
    histogram<<<blocks, threads>>>(d_data, d_hist, n);
    CHECK(cudaGetLastError());
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventRecord(start));
    for (int r = 0; r < reps; ++r)
        histogram<<<blocks, threads>>>(d_data, d_hist, n);
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0.0f;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    CHECK(cudaMemcpy(got.data(), d_hist, BINS * sizeof(unsigned int), cudaMemcpyDeviceToHost));
    int errors = 0;
    for (int b = 0; b < BINS; ++b)
        if (got[b] != expect[b] * (reps + 1)) {
            if (errors < 5)
                printf("bin %d: %u, expected %u\n", b, got[b], expect[b] * (reps + 1));
            ++errors;
        }
    printf("time: histogram %.4f ms\n", ms / reps);
    printf("bin 0 = %u, bin 255 = %u\n", expect[0], expect[255]);
    CHECK(cudaFree(d_data));
    CHECK(cudaFree(d_hist));
    if (errors) { printf("FAIL %d errors\n", errors); return 1; }
    printf("PASS\n");
    return 0;
}
