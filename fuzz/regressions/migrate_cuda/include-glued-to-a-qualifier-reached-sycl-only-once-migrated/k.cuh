__global__ void k(int *o) { o[0] = threadIdx.x; }
