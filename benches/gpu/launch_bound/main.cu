// Benchmark: 100,000 launches of a tiny kernel (one block of 256 threads
// adding 1 to 256 floats) in order on the default stream, so that launch
// cost is all there is. Prints the device time per launch (CUDA events) and
// the host wall time per launch, and checks the result.
#include <chrono>
#include <cstdio>
#include <vector>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); \
    return 1; } } while (0)

__global__ void tiny(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] += 1.0f;
}

int main()
{
    const int n = 256, launches = 100000;
    float *d_x;
    CHECK(cudaMalloc(&d_x, n * sizeof(float)));
    CHECK(cudaMemset(d_x, 0, n * sizeof(float)));
    for (int r = 0; r < 100; ++r) // warm-up
        tiny<<<1, 256>>>(d_x, n);
    CHECK(cudaDeviceSynchronize());
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    auto t0 = std::chrono::steady_clock::now();
    CHECK(cudaEventRecord(start));
    for (int r = 0; r < launches; ++r)
        tiny<<<1, 256>>>(d_x, n);
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    auto t1 = std::chrono::steady_clock::now();
    float ms = 0.0f;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    double wall_ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
    std::vector<float> x(n);
    CHECK(cudaMemcpy(x.data(), d_x, n * sizeof(float), cudaMemcpyDeviceToHost));
    int errors = 0;
    for (int i = 0; i < n; ++i)
        if (x[i] != (float)(launches + 100))
            ++errors;
    printf("time: tiny %.5f ms\n", ms / launches);
    printf("wall: tiny %.5f ms\n", wall_ms / launches);
    CHECK(cudaFree(d_x));
    if (errors) { printf("FAIL %d errors\n", errors); return 1; }
    printf("PASS\n");
    return 0;
}
