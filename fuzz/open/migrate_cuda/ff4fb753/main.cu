__device__#include "k.cuh"
__device__#include "k.cuh"
