#!/usr/bin/env bash
# Fetches the headers of the oneAPI libraries that migrated CUDA-library code
# targets, from their PyPI wheels (each carries them under data/include), into
# target/library-headers/include, once: oneDPL (onedpl-devel: Thrust and
# CUB's device-wide algorithms), oneMKL's SYCL interfaces (onemkl-sycl-include:
# cuBLAS, cuRAND, cuFFT, cuSPARSE) and mkl.h, which oneapi/mkl.hpp includes
# (mkl-include). Headers only: the tests host-compile against them.
set -euo pipefail
cd "$(dirname "$0")/.."
PACKAGES="onedpl-devel==${ONEDPL_VERSION:-2022.14.0} onemkl-sycl-include==${ONEMKL_VERSION:-2026.2.0} mkl-include==${ONEMKL_VERSION:-2026.2.0}"
DEST=target/library-headers
if [ -f "$DEST/include/oneapi/dpl/algorithm" ] && [ -f "$DEST/include/oneapi/mkl.hpp" ] && [ "$(cat "$DEST/VERSION" 2>/dev/null)" = "$PACKAGES" ]; then
  exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "fetching $PACKAGES headers from PyPI ..." >&2
# shellcheck disable=SC2086
python3 -m pip download --quiet --no-deps --only-binary=:all: --platform manylinux_2_28_x86_64 \
  --python-version 3.11 -d "$tmp" $PACKAGES
python3 - "$tmp" "$DEST" <<'PY'
import sys, zipfile, glob, os, shutil
tmp, dest = sys.argv[1], sys.argv[2]
out = os.path.join(dest, "include")
shutil.rmtree(out, ignore_errors=True)
for whl in sorted(glob.glob(os.path.join(tmp, "*.whl"))):
    with zipfile.ZipFile(whl) as z:
        for name in z.namelist():
            marker = ".data/data/include/"
            if marker in name and not name.endswith("/"):
                rel = name.split(marker, 1)[1]
                path = os.path.join(out, rel)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with z.open(name) as src, open(path, "wb") as dst:
                    shutil.copyfileobj(src, dst)
PY
echo "$PACKAGES" > "$DEST/VERSION"
test -f "$DEST/include/oneapi/dpl/algorithm"
test -f "$DEST/include/oneapi/mkl.hpp"
