#!/usr/bin/env bash
# The whole test suite, from a fresh clone: fetches what the tests need
# (Intel's SYCL, oneAPI's library and CUDA's CUPTI headers from PyPI; clang,
# cmake, Python's jsonschema and mdBook where missing), runs every test,
# builds the book and the Python wheel, and ends with where the time went.
set -euo pipefail
cd "$(dirname "$0")/.."
# each step's wall time, for the closing list of the slowest
steps=$(mktemp)
log=$(mktemp)
trap 'rm -f "$log" "$steps" "${book_install_log:-}"' EXIT
started=$(date +%s.%N)
step_start=$started
step_done() {
  local now; now=$(date +%s.%N)
  awk -v n="$1" -v a="$step_start" -v b="$now" 'BEGIN { printf "%8.1f s  %s\n", b - a, n }' >> "$steps"
  step_start=$now
}
# mdBook, for the book built at the end: installed (where missing) while
# the headers are fetched and the tests build
book_install_log=$(mktemp)
bash scripts/build-book install > "$book_install_log" 2>&1 &
book_install=$!
command -v g++ >/dev/null || { echo "g++ is required for the host-compile tests (apt-get install g++)" >&2; exit 1; }
bash scripts/fetch-sycl-headers.sh
# oneDPL's and oneMKL's headers (PyPI), for migrated Thrust and library code
bash scripts/fetch-library-headers.sh
# CUPTI's headers (NVIDIA's PyPI wheels), for validate --time's kernel timer
bash scripts/fetch-cuda-headers.sh
step_done "fetch the SYCL, oneDPL/oneMKL and CUDA headers (PyPI)"
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
# the CMake build-file tests configure with cmake: PyPI's when none is
# installed, into the tools directory every clone shares (once a machine)
if ! command -v cmake >/dev/null; then
  cmake_tools=${SYCLIFY_TOOLS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/syclify-tools}/cmake
  [ -x "$cmake_tools/bin/cmake" ] || python3 -m pip install --quiet --target "$cmake_tools" 'cmake>=3.18,<4'
  export PATH="$cmake_tools/bin:$PATH" PYTHONPATH="$cmake_tools${PYTHONPATH:+:$PYTHONPATH}"
fi
# the SARIF output is checked against its JSON schema with Python's
# jsonschema and its URI format checkers: PyPI's, into the same tools
# directory, where the python3 in PATH does not have them
# (the formats tests/cli.rs's check needs; PYTHONPATH as the caller sets it)
checks_uri_formats() {
  python3 -c 'from jsonschema import Draft7Validator as V; assert {"uri", "uri-reference"} <= set(V.FORMAT_CHECKER.checkers)' 2>/dev/null
}
if ! checks_uri_formats; then
  jsonschema_tools=${SYCLIFY_TOOLS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/syclify-tools}/jsonschema
  if ! PYTHONPATH="$jsonschema_tools" checks_uri_formats; then
    # (its output only on a failure: pip warns about the packages of the
    # python3 it runs, which the directory does not touch)
    python3 -m pip install --quiet --disable-pip-version-check --target "$jsonschema_tools" 'jsonschema[format-nongpl]>=4.18,<5' > "$log" 2>&1 \
      || { cat "$log" >&2; echo "installing Python's jsonschema failed" >&2; exit 1; }
  fi
  export SYCLIFY_JSONSCHEMA_PATH="$jsonschema_tools"
fi
step_done "find or install clang++, cmake and Python's jsonschema"
export SYCLIFY_SYCL_INCLUDE="$PWD/target/sycl-headers/include" SYCLIFY_CUDA_INCLUDE="$PWD/target/cuda-headers/include"
export INSTA_UPDATE=no   # snapshots are reviewed, never written by CI
# the property tests draw the same cases on every CI run (random where unset locally)
export PROPTEST_RNG_SEED="${PROPTEST_RNG_SEED:-20261124}"
# a build from nothing (a fresh clone, CI) without incremental compilation:
# its bookkeeping made building the crate and its tests 63 s where 46 s
# do without it (measured 2026-12-07); a tree built before keeps it, for
# the next edits (CARGO_INCREMENTAL as the caller sets it wins)
if [ -z "${CARGO_INCREMENTAL+set}" ] && [ ! -d "${CARGO_TARGET_DIR:-target}/debug" ]; then
  export CARGO_INCREMENTAL=0
fi
set +e
cargo test --locked "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
step_done "cargo test (building the crate and its tests, then running them)"
# one closing line for the whole suite
# (a test binary that crashes — a stack overflow, an abort — prints no result
# line for the tests it did not finish: counted apart)
awk '/^test result:/ { p += $4; f += $6 } /process didn.t exit successfully.*signal/ { c += 1 }
  END { printf "all tests: %d passed, %d failed", p, f; if (c) printf ", %d test binaries crashed", c; printf "\n" }' "$log"
# the book, built with mdBook (tests/docs.rs checked its links and its
# generated reference)
if ! wait "$book_install"; then
  cat "$book_install_log" >&2
  echo "book: installing mdbook failed" >&2
  status=1
elif ! bash scripts/build-book; then
  status=1
fi
step_done "build the book (mdBook; installed with cargo where missing)"
# the Python wheel, built, installed into a fresh venv and run (after the
# cargo tests: it reuses their build)
if ! bash scripts/test-wheel.sh; then
  status=1
fi
step_done "build, install and run the wheel"
# where the time went: the steps, then the test binaries (from cargo's log)
echo "slowest steps:"
sort -rn "$steps"
echo "slowest test binaries:"
awk '/^     Running / { name = ($2 == "unittests") ? $3 : $2 } /^test result:/ { t = $NF; sub(/s$/, "", t); printf "%8.1f s  %s\n", t, name }' "$log" | sort -rn | head -5
awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "the whole command: %.0f s\n", b - a }'
exit "$status"
