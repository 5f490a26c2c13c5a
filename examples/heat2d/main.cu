// heat2d: a hot square in a cold plate, diffused with an explicit Jacobi
// scheme until the update is small; checked against a host reference.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include "heat.cuh"

#define CUDA_CHECK(call) do { cudaError_t err_ = (call); if (err_ != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); exit(1); } } while (0)

static void host_step(const float *in, float *out, int nx, int ny, float alpha)
{
    for (int y = 0; y < ny; ++y)
        for (int x = 0; x < nx; ++x) {
            int i = y * nx + x;
            if (x == 0 || y == 0 || x == nx - 1 || y == ny - 1) { out[i] = in[i]; continue; }
            float lap = in[i - 1] + in[i + 1] + in[i - nx] + in[i + nx] - 4.0f * in[i];
            out[i] = in[i] + alpha * lap;
        }
}

int main()
{
    const int nx = 200, ny = 120, n = nx * ny, steps = 200;
    const float alpha = 0.2f;
    float *h = (float *)malloc(n * sizeof(float)), *ref = (float *)malloc(n * sizeof(float));
    float *tmp = (float *)malloc(n * sizeof(float)), *got = (float *)malloc(n * sizeof(float));
    for (int y = 0; y < ny; ++y)
        for (int x = 0; x < nx; ++x)
            h[y * nx + x] = (x > 80 && x < 120 && y > 40 && y < 80) ? 100.0f : 0.0f;

    float *d_a, *d_b, *d_partial;
    CUDA_CHECK(cudaMalloc(&d_a, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_b, n * sizeof(float)));
    const int reduce_blocks = 64, reduce_threads = 256;
    CUDA_CHECK(cudaMalloc(&d_partial, reduce_blocks * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_a, h, n * sizeof(float), cudaMemcpyHostToDevice));

    dim3 block(TILE_X, TILE_Y);
    dim3 grid((nx + block.x - 1) / block.x, (ny + block.y - 1) / block.y);
    for (int s = 0; s < steps; ++s) {
        jacobi_step<<<grid, block>>>(d_a, d_b, nx, ny, alpha);
        float *t = d_a; d_a = d_b; d_b = t;
    }
    CUDA_CHECK(cudaGetLastError());
    // size of the last update
    jacobi_step<<<grid, block>>>(d_a, d_b, nx, ny, alpha);
    abs_diff_partial<<<reduce_blocks, reduce_threads, reduce_threads * sizeof(float)>>>(d_a, d_b, d_partial, n);
    float partial[reduce_blocks];
    CUDA_CHECK(cudaMemcpy(partial, d_partial, sizeof(partial), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(got, d_a, n * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaDeviceSynchronize());
    double update = 0.0;
    for (int b = 0; b < reduce_blocks; ++b) update += partial[b];

    for (int i = 0; i < n; ++i) ref[i] = h[i];
    for (int s = 0; s < steps; ++s) { host_step(ref, tmp, nx, ny, alpha); for (int i = 0; i < n; ++i) ref[i] = tmp[i]; }
    double max_err = 0.0, total = 0.0;
    for (int i = 0; i < n; ++i) {
        max_err = fmax(max_err, fabs((double)got[i] - ref[i]));
        total += got[i];
    }
    printf("grid %dx%d, %d steps, blocks of %ux%u\n", nx, ny, steps, block.x, block.y);
    printf("total heat %.1f\n", total);
    printf("centre %.3f, corner of the square %.3f\n", got[60 * nx + 100], got[41 * nx + 81]);
    printf("last update %.2f\n", update);
    printf("max |gpu - host| < 1e-3: %s\n", max_err < 1e-3 ? "yes" : "no");
    CUDA_CHECK(cudaFree(d_a));
    CUDA_CHECK(cudaFree(d_b));
    CUDA_CHECK(cudaFree(d_partial));
    free(h); free(ref); free(tmp); free(got);
    if (max_err >= 1e-3) { printf("FAIL\n"); return 1; }
    printf("PASS\n");
    return 0;
}
