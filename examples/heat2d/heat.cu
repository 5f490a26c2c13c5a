#include <cuda_runtime.h>
#include "heat.cuh"

__device__ __forceinline__ int clampi(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }

__global__ void jacobi_step(const float *__restrict__ in, float *__restrict__ out, int nx, int ny, float alpha)
{
    __shared__ float tile[TILE_Y + 2][TILE_X + 2];
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int tx = threadIdx.x + 1, ty = threadIdx.y + 1;
    int cx = clampi(x, 0, nx - 1), cy = clampi(y, 0, ny - 1);
    tile[ty][tx] = in[cy * nx + cx];
    if (threadIdx.x == 0) tile[ty][0] = in[cy * nx + clampi(x - 1, 0, nx - 1)];
    if (threadIdx.x == blockDim.x - 1) tile[ty][tx + 1] = in[cy * nx + clampi(x + 1, 0, nx - 1)];
    if (threadIdx.y == 0) tile[0][tx] = in[clampi(y - 1, 0, ny - 1) * nx + cx];
    if (threadIdx.y == blockDim.y - 1) tile[ty + 1][tx] = in[clampi(y + 1, 0, ny - 1) * nx + cx];
    __syncthreads();
    if (x >= nx || y >= ny) return;
    if (x == 0 || y == 0 || x == nx - 1 || y == ny - 1) {
        out[y * nx + x] = tile[ty][tx];
        return;
    }
    float lap = tile[ty][tx - 1] + tile[ty][tx + 1] + tile[ty - 1][tx] + tile[ty + 1][tx] - 4.0f * tile[ty][tx];
    out[y * nx + x] = tile[ty][tx] + alpha * lap;
}

__global__ void abs_diff_partial(const float *a, const float *b, float *partial, int n)
{
    extern __shared__ float sums[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float d = 0.0f;
    for (int k = i; k < n; k += blockDim.x * gridDim.x)
        d += fabsf(a[k] - b[k]);
    sums[threadIdx.x] = d;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) sums[threadIdx.x] += sums[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) partial[blockIdx.x] = sums[0];
}
