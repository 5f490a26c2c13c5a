#!/usr/bin/env bash
# The whole test suite, from a fresh clone: fetches what the tests need
# (Intel's SYCL headers from PyPI), then runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v g++ >/dev/null || { echo "g++ is required for the host-compile tests (apt-get install g++)" >&2; exit 1; }
bash scripts/fetch-sycl-headers.sh
export SYCLIFY_SYCL_INCLUDE="$PWD/target/sycl-headers/include"
export INSTA_UPDATE=no   # snapshots are reviewed, never written by CI
cargo test --locked "$@"
