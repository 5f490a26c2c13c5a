#define GX (blockIdx.x * blockDim{.x)
__global__ void g(int *o) { o[GX] = 1; }
