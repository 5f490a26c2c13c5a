#!/usr/bin/env bash
# Shared by fetch-sycl-headers.sh and fetch-library-headers.sh: downloads the
# PyPI wheels PACKAGES (pinned `name==version` words) and extracts the headers
# each carries under `.data/data/include/` (oneAPI's wheels) or
# `nvidia/<component>/include/` (NVIDIA's) into DEST/include, once: nothing is
# fetched when every CHECK file (relative to DEST/include) exists and DEST/VERSION
# records the same PACKAGES.
# Usage: fetch-wheel-headers.sh DEST "PACKAGES" CHECK...
set -euo pipefail
DEST=$1 PACKAGES=$2
shift 2
fresh=1
for f in "$@"; do [ -f "$DEST/include/$f" ] || fresh=0; done
if [ "$fresh" = 1 ] && [ "$(cat "$DEST/VERSION" 2>/dev/null)" = "$PACKAGES" ]; then
  exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "fetching $PACKAGES headers from PyPI ..." >&2
# shellcheck disable=SC2086
python3 -m pip download --quiet --no-deps --only-binary=:all: --platform manylinux_2_28_x86_64 --platform manylinux_2_25_x86_64 --platform manylinux_2_17_x86_64 \
  --python-version 3.11 -d "$tmp" $PACKAGES
python3 - "$tmp" "$DEST" <<'PY'
import sys, zipfile, glob, os, re, shutil
tmp, dest = sys.argv[1], sys.argv[2]
out = os.path.join(dest, "include")
shutil.rmtree(out, ignore_errors=True)
header_dir = re.compile(r"(?:\.data/data|^nvidia/[^/]+)/include/")
for whl in sorted(glob.glob(os.path.join(tmp, "*.whl"))):
    with zipfile.ZipFile(whl) as z:
        for name in z.namelist():
            m = header_dir.search(name)
            if m and not name.endswith("/"):
                rel = name[m.end():]
                path = os.path.join(out, rel)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with z.open(name) as src, open(path, "wb") as dst:
                    shutil.copyfileobj(src, dst)
PY
echo "$PACKAGES" > "$DEST/VERSION"
for f in "$@"; do test -f "$DEST/include/$f"; done
