// Benchmark: sum of 64M integers in two launches: a grid-stride shared-memory
// tree per block finished with warp shuffles, then one block over the
// partial sums. Prints each kernel's time per launch (CUDA events) and
// checks the sum exactly.
#include <cstdio>
#include <vector>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); \
    return 1; } } while (0)

#define THREADS 256

__global__ void reduce_sum(const int *in, int *out, int n)
{
    __shared__ int s[THREADS];
    unsigned int tid = threadIdx.x;
    int v = 0;
    for (unsigned int i = blockIdx.x * blockDim.x * 2 + tid; i < n; i += gridDim.x * blockDim.x * 2) {
        v += in[i];
        if (i + blockDim.x < n)
            v += in[i + blockDim.x];
    }
    s[tid] = v;
    __syncthreads();
    for (unsigned int stride = blockDim.x / 2; stride > 32; stride >>= 1) {
        if (tid < stride)
            s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid < 32) {
        v = s[tid] + s[tid + 32];
        for (int offset = 16; offset > 0; offset >>= 1)
            v += __shfl_down_sync(0xffffffff, v, offset);
        if (tid == 0)
            out[blockIdx.x] = v;
    }
}

int main()
{
    const int n = 1 << 26, blocks = 1024, reps = 50;
    std::vector<int> h(n);
    long long expect = 0;
    for (int i = 0; i < n; ++i) {
        h[i] = (i * 7) % 5;
        expect += h[i];
    }
    int *d_in, *d_partial, *d_sum;
    CHECK(cudaMalloc(&d_in, n * sizeof(int)));
    CHECK(cudaMalloc(&d_partial, blocks * sizeof(int)));
    CHECK(cudaMalloc(&d_sum, sizeof(int)));
    CHECK(cudaMemcpy(d_in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    reduce_sum<<<blocks, THREADS>>>(d_in, d_partial, n);
    reduce_sum<<<1, THREADS>>>(d_partial, d_sum, blocks);
    CHECK(cudaGetLastError());
    cudaEvent_t start, mid, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&mid));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventRecord(start));
    for (int r = 0; r < reps; ++r)
        reduce_sum<<<blocks, THREADS>>>(d_in, d_partial, n);
    CHECK(cudaEventRecord(mid));
    for (int r = 0; r < reps; ++r)
        reduce_sum<<<1, THREADS>>>(d_partial, d_sum, blocks);
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float ms_big = 0.0f, ms_small = 0.0f;
    CHECK(cudaEventElapsedTime(&ms_big, start, mid));
    CHECK(cudaEventElapsedTime(&ms_small, mid, stop));
    int sum = 0;
    CHECK(cudaMemcpy(&sum, d_sum, sizeof(int), cudaMemcpyDeviceToHost));
    printf("time: reduce_sum(grid) %.4f ms\n", ms_big / reps);
    printf("time: reduce_sum(one block) %.4f ms\n", ms_small / reps);
    printf("sum = %d (expected %lld)\n", sum, expect);
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_partial));
    CHECK(cudaFree(d_sum));
    if (sum != expect) { printf("FAIL\n"); return 1; }
    printf("PASS\n");
    return 0;
}
