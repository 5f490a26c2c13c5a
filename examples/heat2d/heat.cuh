// heat2d: kernels for an explicit 2-D heat-diffusion (Jacobi) solver.
#ifndef HEAT_CUH
#define HEAT_CUH

#define TILE_X 32
#define TILE_Y 8

// One Jacobi step on an nx x ny grid (x fastest), fixed (Dirichlet) borders.
// Each block stages its tile plus a one-cell halo in shared memory.
__global__ void jacobi_step(const float *__restrict__ in, float *__restrict__ out, int nx, int ny, float alpha);

// Per-block partial sums of |a - b|, for the convergence check.
__global__ void abs_diff_partial(const float *a, const float *b, float *partial, int n);

#endif
