// Benchmark: exclusive prefix sum of 16M integers. Each block scans 1024
// elements in __shared__ memory (work-efficient up-sweep/down-sweep) and
// writes its total; the totals are scanned the same way (two more levels)
// and added back. Prints the time per launch of the two large kernels (CUDA
// events) and checks every element.
#include <cstdio>
#include <vector>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); \
    return 1; } } while (0)

#define SB 1024 // elements per block, two per thread

__global__ void scan_block(const int *in, int *out, int *sums, int n)
{
    __shared__ int t[SB];
    int tid = threadIdx.x;
    int base = blockIdx.x * SB;
    t[2 * tid] = base + 2 * tid < n ? in[base + 2 * tid] : 0;
    t[2 * tid + 1] = base + 2 * tid + 1 < n ? in[base + 2 * tid + 1] : 0;
    int offset = 1;
    for (int d = SB >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (tid < d) {
            int ai = offset * (2 * tid + 1) - 1, bi = offset * (2 * tid + 2) - 1;
            t[bi] += t[ai];
        }
        offset <<= 1;
    }
    if (tid == 0) {
        if (sums)
            sums[blockIdx.x] = t[SB - 1];
        t[SB - 1] = 0;
    }
    for (int d = 1; d < SB; d <<= 1) {
        offset >>= 1;
        __syncthreads();
        if (tid < d) {
            int ai = offset * (2 * tid + 1) - 1, bi = offset * (2 * tid + 2) - 1;
            int x = t[ai];
            t[ai] = t[bi];
            t[bi] += x;
        }
    }
    __syncthreads();
    if (base + 2 * tid < n)
        out[base + 2 * tid] = t[2 * tid];
    if (base + 2 * tid + 1 < n)
        out[base + 2 * tid + 1] = t[2 * tid + 1];
}

// block b of `data` (SB elements, one per thread) gets offsets[b]
__global__ void add_offsets(int *data, const int *offsets, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] += offsets[blockIdx.x];
}

int main()
{
    const int n = 1 << 24, reps = 20;
    const int b1 = n / SB, b2 = b1 / SB; // 16384 and 16 blocks
    std::vector<int> h(n), out(n);
    for (int i = 0; i < n; ++i)
        h[i] = (i * 3) % 5;
    int *d_in, *d_out, *d_s1, *d_s1x, *d_s2, *d_s2x;
    CHECK(cudaMalloc(&d_in, n * sizeof(int)));
    CHECK(cudaMalloc(&d_out, n * sizeof(int)));
    CHECK(cudaMalloc(&d_s1, b1 * sizeof(int)));
    CHECK(cudaMalloc(&d_s1x, b1 * sizeof(int)));
    CHECK(cudaMalloc(&d_s2, b2 * sizeof(int)));
    CHECK(cudaMalloc(&d_s2x, b2 * sizeof(int)));
    CHECK(cudaMemcpy(d_in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    cudaEvent_t e0, e1, e2, e3;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    CHECK(cudaEventCreate(&e2));
    CHECK(cudaEventCreate(&e3));
    // the whole scan once, then each large step again on its own
    scan_block<<<b1, SB / 2>>>(d_in, d_out, d_s1, n);
    scan_block<<<b2, SB / 2>>>(d_s1, d_s1x, d_s2, b1);
    scan_block<<<1, SB / 2>>>(d_s2, d_s2x, nullptr, b2);
    add_offsets<<<b2, SB>>>(d_s1x, d_s2x, b1);
    CHECK(cudaEventRecord(e0));
    for (int r = 0; r < reps; ++r)
        scan_block<<<b1, SB / 2>>>(d_in, d_out, d_s1, n);
    CHECK(cudaEventRecord(e1));
    add_offsets<<<b1, SB>>>(d_out, d_s1x, n);
    CHECK(cudaEventRecord(e2));
    CHECK(cudaEventSynchronize(e2));
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
    // add_offsets is not idempotent: time it on a scratch copy
    CHECK(cudaMemcpy(d_in, d_out, n * sizeof(int), cudaMemcpyDeviceToDevice));
    CHECK(cudaEventRecord(e2));
    for (int r = 0; r < reps; ++r)
        add_offsets<<<b1, SB>>>(d_in, d_s1x, n);
    CHECK(cudaEventRecord(e3));
    CHECK(cudaEventSynchronize(e3));
    float ms_scan = 0.0f, ms_add = 0.0f;
    CHECK(cudaEventElapsedTime(&ms_scan, e0, e1));
    CHECK(cudaEventElapsedTime(&ms_add, e2, e3));
    int errors = 0;
    long long run = 0;
    for (int i = 0; i < n; ++i) {
        if (out[i] != run) {
            if (errors < 5)
                printf("mismatch at %d: %d, expected %lld\n", i, out[i], run);
            ++errors;
        }
        run += h[i];
    }
    printf("time: scan_block %.4f ms\n", ms_scan / reps);
    printf("time: add_offsets %.4f ms\n", ms_add / reps);
    printf("total = %d\n", out[n - 1] + h[n - 1]);
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    CHECK(cudaFree(d_s1));
    CHECK(cudaFree(d_s1x));
    CHECK(cudaFree(d_s2));
    CHECK(cudaFree(d_s2x));
    if (errors) { printf("FAIL %d errors\n", errors); return 1; }
    printf("PASS\n");
    return 0;
}
