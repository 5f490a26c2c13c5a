#include "k.cuh"
#define H (threadIdx.x + blockDim{.y)
__global__ void f(int *o) { o[H] = 1; }
