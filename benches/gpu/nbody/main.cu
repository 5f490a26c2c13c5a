// Benchmark: one all-pairs n-body step for 32768 bodies (softened gravity),
// positions staged through a __shared__ tile of 256 float4, rsqrtf for the
// inverse distance. Prints the kernel's time per step (CUDA events) and
// checks sampled accelerations against a double-precision host computation.
#include <cmath>
#include <cstdio>
#include <vector>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
    printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); \
    return 1; } } while (0)

#define BS 256
#define SOFT 1e-3f

__global__ void nbody_step(const float4 *pos, float4 *vel, float4 *newpos, int n, float dt)
{
    __shared__ float4 sp[BS];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 p = pos[i];
    float3 a = make_float3(0.0f, 0.0f, 0.0f);
    for (int tile = 0; tile < n; tile += BS) {
        sp[threadIdx.x] = pos[tile + threadIdx.x];
        __syncthreads();
#pragma unroll 8
        for (int j = 0; j < BS; ++j) {
            float4 q = sp[j];
            float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
            float inv = rsqrtf(dx * dx + dy * dy + dz * dz + SOFT);
            float s = q.w * inv * inv * inv;
            a.x += dx * s;
            a.y += dy * s;
            a.z += dz * s;
        }
        __syncthreads();
    }
    float4 v = vel[i];
    v.x += a.x * dt;
    v.y += a.y * dt;
    v.z += a.z * dt;
    vel[i] = v;
    newpos[i] = make_float4(p.x + v.x * dt, p.y + v.y * dt, p.z + v.z * dt, p.w);
}

int main()
{
    const int n = 32768, reps = 10;
    const float dt = 0.001f;
    std::vector<float4> pos(n), vel(n), out(n);
    unsigned int seed = 7;
    auto rnd = [&]() { seed = seed * 1664525u + 1013904223u; return (float)(seed >> 8) / 16777216.0f; };
    for (int i = 0; i < n; ++i) {
        pos[i] = make_float4(rnd() * 2 - 1, rnd() * 2 - 1, rnd() * 2 - 1, 0.5f + rnd());
        vel[i] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    }
    float4 *d_pos, *d_vel, *d_new;
    CHECK(cudaMalloc(&d_pos, n * sizeof(float4)));
    CHECK(cudaMalloc(&d_vel, n * sizeof(float4)));
    CHECK(cudaMalloc(&d_new, n * sizeof(float4)));
    CHECK(cudaMemcpy(d_pos, pos.data(), n * sizeof(float4), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_vel, vel.data(), n * sizeof(float4), cudaMemcpyHostToDevice));
    nbody_step<<<n / BS, BS>>>(d_pos, d_vel, d_new, n, dt);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out.data(), d_vel, n * sizeof(float4), cudaMemcpyDeviceToHost));
    int errors = 0;
    for (int s = 0; s < 32; ++s) {
        int i = (s * 1031) % n;
        double ax = 0, ay = 0, az = 0;
        for (int j = 0; j < n; ++j) {
            double dx = pos[j].x - pos[i].x, dy = pos[j].y - pos[i].y, dz = pos[j].z - pos[i].z;
            double inv = 1.0 / sqrt(dx * dx + dy * dy + dz * dz + SOFT);
            double f = pos[j].w * inv * inv * inv;
            ax += dx * f;
            ay += dy * f;
            az += dz * f;
        }
        double got[3] = {out[i].x / dt, out[i].y / dt, out[i].z / dt}, ref[3] = {ax, ay, az};
        double norm = sqrt(ax * ax + ay * ay + az * az);
        for (int c = 0; c < 3; ++c)
            if (fabs(got[c] - ref[c]) > 2e-3 * (1.0 + norm)) {
                if (errors < 5)
                    printf("body %d: a[%d] = %f, expected %f\n", i, c, got[c], ref[c]);
                ++errors;
            }
    }
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventRecord(start));
    for (int r = 0; r < reps; ++r) {
        nbody_step<<<n / BS, BS>>>(d_pos, d_vel, d_new, n, dt);
        float4 *t = d_pos;
        d_pos = d_new;
        d_new = t;
    }
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0.0f;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    printf("time: nbody_step %.4f ms\n", ms / reps);
    printf("%.1f billion interactions/s\n", (double)n * n / (ms / reps * 1e6));
    CHECK(cudaFree(d_pos));
    CHECK(cudaFree(d_vel));
    CHECK(cudaFree(d_new));
    if (errors) { printf("FAIL %d errors\n", errors); return 1; }
    printf("PASS\n");
    return 0;
}
