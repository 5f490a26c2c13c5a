__device__#include "k.cuh"
