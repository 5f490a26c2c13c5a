// Benchmark: the phases of a stream-priority program, each timed with CUDA
// events (after a warm-up of every kernel and copy):
//   default_kernels  200 launches of a 16M-float copy kernel on the default stream
//   default_copies   50 synchronous cudaMemcpy round trips of 4 MB (pageable)
//   priority_streams the same 200 launches split over a low- and a
//                    high-priority non-blocking stream
//   crossings        200 launches alternating between two blocking streams
//                    and the default stream (every launch orders against
//                    the others under CUDA's legacy default stream)
// Checks the data at the end.
#include <cstdio>
#include <vector>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); \
    return 1; } } while (0)

__global__ void copy_kernel(const float *__restrict__ in, float *__restrict__ out, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        out[i] = in[i] + 1.0f;
}

__global__ void bump(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] += 1.0f;
}

int main()
{
    const int n = 1 << 24, launches = 200, copies = 50, small = 1 << 20;
    float *d_a, *d_b, *d_c;
    CHECK(cudaMalloc(&d_a, n * sizeof(float)));
    CHECK(cudaMalloc(&d_b, n * sizeof(float)));
    CHECK(cudaMalloc(&d_c, small * sizeof(float)));
    CHECK(cudaMemset(d_a, 0, n * sizeof(float)));
    CHECK(cudaMemset(d_c, 0, small * sizeof(float)));
    std::vector<float> host(small, 0.0f);
    int least, greatest;
    CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    cudaStream_t lo, hi, s1, s2;
    CHECK(cudaStreamCreateWithPriority(&lo, cudaStreamNonBlocking, least));
    CHECK(cudaStreamCreateWithPriority(&hi, cudaStreamNonBlocking, greatest));
    CHECK(cudaStreamCreate(&s1));
    CHECK(cudaStreamCreate(&s2));
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    const dim3 block(256), grid(1024);
    // warm-up: every kernel and copy once
    copy_kernel<<<grid, block>>>(d_a, d_b, n);
    bump<<<small / 256, 256>>>(d_c, small);
    CHECK(cudaMemcpy(d_c, host.data(), small * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(host.data(), d_c, small * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaDeviceSynchronize());
    float ms;

    CHECK(cudaEventRecord(start, 0));
    for (int r = 0; r < launches; ++r)
        copy_kernel<<<grid, block>>>(r % 2 ? d_b : d_a, r % 2 ? d_a : d_b, n);
    CHECK(cudaEventRecord(stop, 0));
    CHECK(cudaEventSynchronize(stop));
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    printf("time: default_kernels %.3f ms\n", ms);

    CHECK(cudaEventRecord(start, 0));
    for (int r = 0; r < copies; ++r) {
        CHECK(cudaMemcpy(d_c, host.data(), small * sizeof(float), cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(host.data(), d_c, small * sizeof(float), cudaMemcpyDeviceToHost));
    }
    CHECK(cudaEventRecord(stop, 0));
    CHECK(cudaEventSynchronize(stop));
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    printf("time: default_copies %.3f ms\n", ms);

    CHECK(cudaDeviceSynchronize());
    CHECK(cudaEventRecord(start, lo));
    for (int r = 0; r < launches; ++r)
        copy_kernel<<<grid, block, 0, r % 2 ? hi : lo>>>(d_a, d_b, n);
    cudaEvent_t hi_done;
    CHECK(cudaEventCreate(&hi_done));
    CHECK(cudaEventRecord(hi_done, hi));
    CHECK(cudaStreamWaitEvent(lo, hi_done, 0));
    CHECK(cudaEventRecord(stop, lo));
    CHECK(cudaEventSynchronize(stop));
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    printf("time: priority_streams %.3f ms\n", ms);

    CHECK(cudaDeviceSynchronize());
    CHECK(cudaEventRecord(start, 0));
    for (int r = 0; r < launches; ++r) {
        cudaStream_t s = r % 3 == 0 ? s1 : (r % 3 == 1 ? s2 : 0);
        bump<<<small / 256, 256, 0, s>>>(d_c, small);
    }
    CHECK(cudaEventRecord(stop, 0));
    CHECK(cudaEventSynchronize(stop));
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    printf("time: crossings %.3f ms\n", ms);

    CHECK(cudaMemcpy(host.data(), d_c, small * sizeof(float), cudaMemcpyDeviceToHost));
    int errors = 0;
    // d_c: the copies wrote zeros over the warm-up's bump, then 200 bumps
    for (int i = 0; i < small; ++i)
        if (host[i] != 200.0f)
            ++errors;
    CHECK(cudaEventDestroy(hi_done));
    CHECK(cudaStreamDestroy(lo));
    CHECK(cudaStreamDestroy(hi));
    CHECK(cudaStreamDestroy(s1));
    CHECK(cudaStreamDestroy(s2));
    CHECK(cudaFree(d_a));
    CHECK(cudaFree(d_b));
    CHECK(cudaFree(d_c));
    if (errors) { printf("FAIL %d errors\n", errors); return 1; }
    printf("PASS\n");
    return 0;
}
