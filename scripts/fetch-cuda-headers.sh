#!/usr/bin/env bash
# Fetches the CUDA headers that `validate --time`'s kernel timer
# (src/validate/kernel_timer.cpp) includes — CUPTI's and the driver API's
# cuda.h and the headers it pulls in — from NVIDIA's PyPI wheels into target/cuda-headers/include, once.
# Headers only: the tests host-compile the timer against them (it is built
# and run with the real toolkit on a GPU machine).
set -euo pipefail
cd "$(dirname "$0")/.."
exec bash scripts/fetch-wheel-headers.sh target/cuda-headers \
  "nvidia-cuda-cupti==13.0.85 nvidia-cuda-runtime==13.0.96 nvidia-cuda-crt==13.0.88" \
  cupti_activity.h cuda.h
