#!/usr/bin/env bash
# Fetches Intel's SYCL 2020 headers (the intel-sycl-rt wheel on PyPI carries
# them under data/include) into target/sycl-headers/include, once.
set -euo pipefail
cd "$(dirname "$0")/.."
VERSION="${INTEL_SYCL_RT_VERSION:-2026.2.0}"
DEST=target/sycl-headers
if [ -f "$DEST/include/sycl/sycl.hpp" ] && [ "$(cat "$DEST/VERSION" 2>/dev/null)" = "$VERSION" ]; then
  exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "fetching intel-sycl-rt==$VERSION headers from PyPI ..." >&2
python3 -m pip download --quiet --no-deps --only-binary=:all: --platform manylinux_2_28_x86_64 \
  --python-version 3.11 -d "$tmp" "intel-sycl-rt==$VERSION"
python3 - "$tmp" "$DEST" <<'PY'
import sys, zipfile, glob, os, shutil
tmp, dest = sys.argv[1], sys.argv[2]
whl = glob.glob(os.path.join(tmp, "*.whl"))[0]
out = os.path.join(dest, "include")
shutil.rmtree(out, ignore_errors=True)
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
echo "$VERSION" > "$DEST/VERSION"
test -f "$DEST/include/sycl/sycl.hpp"
