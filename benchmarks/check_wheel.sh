#!/usr/bin/env bash
# An installed wheel (not an editable install) co-simulates a kernel from a directory
# outside the source tree: package data (the Verilator harness template, the cocotb
# testbench) must travel with the package.
#   bash benchmarks/check_wheel.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
pip wheel "$root" --no-deps -w "$work/wheel" -q
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install -q "$work"/wheel/pyhls-*.whl
mkdir "$work/outside"
cp "$root/examples/kernels/adler32_bytes.c" "$work/outside/"
cd "$work/outside"
"$work/venv/bin/python" -c "import hls, pathlib; assert pathlib.Path('$root') not in pathlib.Path(hls.__file__).parents, hls.__file__"
PYHLS_CACHE="$work/cache" "$work/venv/bin/pyhls" cosim adler32_bytes.c --top adler32_bytes \
    --depth buf=400 --tb adler32_bytes.c
