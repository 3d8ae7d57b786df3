#!/usr/bin/env bash
# Arrays that zarr-python 3.4.2 writes through zarr_reshape.zarr.ReshapeCodec, read
# back by zarrs 0.23.14 (conformance/adapters/zarrs) and judged by the runner: every
# case must pass (no expectations file). The reference's side of the same check is
# python/tests/test_zarr_written.py.
#   builds the zarrs adapter (as conformance/adapters/zarrs/run.sh does; a no-op when
#   it ran first), writes the arrays into a temporary folder (write_arrays.py), runs
#   `python -m zarr_reshape run --adapter ZARRS --cases FOLDER`, removes the folder.
# Usage: PYTHON=/path/to/python check-zarrs.sh [REPORT.md]
#   PYTHON: an interpreter with numpy, zarr==3.4.2 and zarr_reshape importable (an
#   installed wheel, or PYTHONPATH=python with the extension module built there);
#   default python3.
# Exits as the runner does: 0 when every case passes, 1 otherwise, 2 when the run
# cannot start; or as the build or the writer fails.
set -euo pipefail

report=()
if [[ $# -ge 1 ]]; then
  case "$1" in
    /*) report=(--report "markdown=$1") ;;
    *) report=(--report "markdown=$PWD/$1") ;;
  esac
fi

cd "$(dirname "$0")/../../.."
python="${PYTHON:-python3}"
adapter=conformance/adapters/zarrs

CARGO_TARGET_DIR="$adapter/target" \
  cargo build --release --locked --manifest-path "$adapter/Cargo.toml"

work="$(mktemp -d "${TMPDIR:-/tmp}/zarr-python-written.XXXXXX")"
trap 'rm -rf -- "$work"' EXIT
"$python" python/tests/written/write_arrays.py "$work/suite"
"$python" -m zarr_reshape run \
  --adapter "$adapter/target/release/zarrs-reshape-adapter" \
  --cases "$work/suite" \
  ${report[@]+"${report[@]}"}
