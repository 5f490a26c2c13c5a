#!/usr/bin/env bash
# The whole test suite, from a fresh clone: fetches what the tests need
# (Intel's SYCL headers from PyPI), then runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v g++ >/dev/null || { echo "g++ is required for the host-compile tests (apt-get install g++)" >&2; exit 1; }
bash scripts/fetch-sycl-headers.sh
# the CMake build-file tests configure with cmake: PyPI's when none is installed
if ! command -v cmake >/dev/null; then
  python3 -m pip install --quiet --target target/tools/cmake 'cmake>=3.18,<4'
  export PATH="$PWD/target/tools/cmake/bin:$PATH" PYTHONPATH="$PWD/target/tools/cmake${PYTHONPATH:+:$PYTHONPATH}"
fi
export SYCLIFY_SYCL_INCLUDE="$PWD/target/sycl-headers/include"
export INSTA_UPDATE=no   # snapshots are reviewed, never written by CI
log=$(mktemp)
trap 'rm -f "$log"' EXIT
set +e
cargo test --locked "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
# one closing line for the whole suite
awk '/^test result:/ { p += $4; f += $6 } END { printf "all tests: %d passed, %d failed\n", p, f }' "$log"
exit "$status"
