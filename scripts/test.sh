#!/usr/bin/env bash
# The whole test suite, from a fresh clone: fetches what the tests need
# (Intel's SYCL, oneAPI's library and CUDA's CUPTI headers from PyPI), then
# runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v g++ >/dev/null || { echo "g++ is required for the host-compile tests (apt-get install g++)" >&2; exit 1; }
bash scripts/fetch-sycl-headers.sh
# oneDPL's and oneMKL's headers (PyPI), for migrated Thrust and library code
bash scripts/fetch-library-headers.sh
# CUPTI's headers (NVIDIA's PyPI wheels), for validate --time's kernel timer
bash scripts/fetch-cuda-headers.sh
# that code host-compiles with Clang (GCC 12 rejects one of oneDPL's headers;
# the SYCL compilers are Clang): Debian's clang-16 where none is installed
if [ -z "${SYCLIFY_LIBRARY_CXX:-}" ]; then
  SYCLIFY_LIBRARY_CXX=$(command -v clang++-16 || command -v clang++-17 || command -v clang++-18 || command -v clang++ || true)
  if [ -z "$SYCLIFY_LIBRARY_CXX" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
      echo "installing clang-16 (Debian's) for the oneDPL host-compile tests ..." >&2
      apt-get update -qq >/dev/null
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends clang-16 >/dev/null
      SYCLIFY_LIBRARY_CXX=$(command -v clang++-16)
    else
      echo "clang++ is required for the library host-compile tests: apt-get install clang-16 (or set SYCLIFY_LIBRARY_CXX)" >&2
      exit 1
    fi
  fi
fi
export SYCLIFY_LIBRARY_CXX SYCLIFY_LIBRARY_INCLUDE="$PWD/target/library-headers/include"
# the CMake build-file tests configure with cmake: PyPI's when none is installed
if ! command -v cmake >/dev/null; then
  python3 -m pip install --quiet --target target/tools/cmake 'cmake>=3.18,<4'
  export PATH="$PWD/target/tools/cmake/bin:$PATH" PYTHONPATH="$PWD/target/tools/cmake${PYTHONPATH:+:$PYTHONPATH}"
fi
export SYCLIFY_SYCL_INCLUDE="$PWD/target/sycl-headers/include" SYCLIFY_CUDA_INCLUDE="$PWD/target/cuda-headers/include"
export INSTA_UPDATE=no   # snapshots are reviewed, never written by CI
# the property tests draw the same cases on every CI run (random where unset locally)
export PROPTEST_RNG_SEED="${PROPTEST_RNG_SEED:-20261124}"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
set +e
cargo test --locked "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
# one closing line for the whole suite
# (a test binary that crashes — a stack overflow, an abort — prints no result
# line for the tests it did not finish: counted apart)
awk '/^test result:/ { p += $4; f += $6 } /process didn.t exit successfully.*signal/ { c += 1 }
  END { printf "all tests: %d passed, %d failed", p, f; if (c) printf ", %d test binaries crashed", c; printf "\n" }' "$log"
# the Python wheel, built, installed into a fresh venv and run (after the
# cargo tests: it reuses their build)
if ! bash scripts/test-wheel.sh; then
  status=1
fi
exit "$status"
