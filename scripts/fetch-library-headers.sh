#!/usr/bin/env bash
# Fetches the headers of the oneAPI libraries that migrated CUDA-library code
# targets, from their PyPI wheels (each carries them under data/include), into
# target/library-headers/include, once: oneDPL (onedpl-devel: Thrust and
# CUB's device-wide algorithms), oneMKL's SYCL interfaces (onemkl-sycl-include:
# cuBLAS, cuRAND, cuFFT, cuSPARSE, cuSOLVER) and mkl.h, which oneapi/mkl.hpp
# includes (mkl-include), and oneCCL's (oneccl-devel: NCCL). Headers only: the
# tests host-compile against them.
set -euo pipefail
cd "$(dirname "$0")/.."
exec bash scripts/fetch-wheel-headers.sh target/library-headers \
  "onedpl-devel==${ONEDPL_VERSION:-2022.14.0} onemkl-sycl-include==${ONEMKL_VERSION:-2026.2.0} mkl-include==${ONEMKL_VERSION:-2026.2.0} oneccl-devel==${ONECCL_VERSION:-2022.2.0}" \
  oneapi/dpl/algorithm oneapi/mkl.hpp oneapi/ccl.hpp
