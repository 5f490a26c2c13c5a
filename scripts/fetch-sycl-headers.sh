#!/usr/bin/env bash
# Fetches Intel's SYCL 2020 headers (the intel-sycl-rt wheel on PyPI carries
# them under data/include) into target/sycl-headers/include, once.
set -euo pipefail
cd "$(dirname "$0")/.."
exec bash scripts/fetch-wheel-headers.sh target/sycl-headers "intel-sycl-rt==${INTEL_SYCL_RT_VERSION:-2026.2.0}" sycl/sycl.hpp
