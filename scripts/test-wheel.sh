#!/usr/bin/env bash
# The Python distribution, tested as a user installs it: builds the wheel
# (maturin, pyproject.toml: the syclify binary, nothing else needed at run
# time), installs it into a fresh venv with pip, and migrates the bundled
# example with the installed command. Run by scripts/test.sh after the cargo
# tests (it reuses their build: the dev profile; scripts/build-wheel makes the
# release wheel). Prints one closing line; exit status non-zero on a failure.
set -euo pipefail
cd "$(dirname "$0")/.."
tools=${SYCLIFY_TOOLS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/syclify-tools}/maturin
maturin=$(command -v maturin || true)
if [ -z "$maturin" ]; then
  [ -x "$tools/bin/maturin" ] || python3 -m pip install --quiet --target "$tools" 'maturin>=1.5,<2'
  maturin=$tools/bin/maturin
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
PYTHONPATH="$tools" "$maturin" build --quiet --out "$work/dist" > "$work/build.log" 2>&1 || { cat "$work/build.log"; echo "wheel: the build failed" >&2; exit 1; }
wheel=$(ls "$work"/dist/syclify-*.whl)
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet --no-index "$wheel"
bin=$work/venv/bin/syclify
"$bin" --version | grep -q '^syclify ' || { echo "wheel: syclify --version failed" >&2; exit 1; }
# the installed binary migrates the example as the checkout's does, byte for byte
"$bin" migrate examples/heat2d -o "$work/out" > "$work/migrate.log" 2>&1 || { cat "$work/migrate.log"; echo "wheel: the migration failed" >&2; exit 1; }
cargo run --quiet --locked -- migrate examples/heat2d -o "$work/ref" > /dev/null 2>&1
diff -r -x syclify-report.json -x .syclify-manifest.json "$work/ref" "$work/out" > "$work/diff.txt" || { cat "$work/diff.txt"; echo "wheel: its output differs from the checkout's" >&2; exit 1; }
[ -f "$work/out/include/syclify/syclify.hpp" ] || { echo "wheel: no helper header in the output" >&2; exit 1; }
echo "wheel: $(basename "$wheel") installs with pip and migrates examples/heat2d as the checkout does"
