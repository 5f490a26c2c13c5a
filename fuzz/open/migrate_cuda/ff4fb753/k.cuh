// Thread builtins used as whole values (SY0301) are left as written, each
// with a quick fix that writes the value member by member: `dim3(…)` where
// it initialises a dim3, `make_uint3(…)` where a uint3, else the builtin's
// own type (uint3 for threadIdx and blockIdx, dim3 for blockDim and gridDim).
__device__ unsigned sum3(uint3 v) { return v.x + v.y + v.z; }

__global__ void k(unsigned *out) {
  dim3 block = blockDim;
  dim3 here = threadIdx;
  uint3 tid = threadIdx;
  out[0] = sum3(blockIdx) + block.x + tid.y + here.z;
  out[1] = sum3(gridDim);
}
