#!/usr/bin/env bash
# What pip does where no wheel fits the platform: build the sdist (maturin), then
# a wheel from it alone, and check that wheel's metadata and contents. Proves the
# sdist holds every file the build needs. Exits nonzero on any failure; prints
# each stage's wall time.
#
# Usage: bash packaging/sdist.sh
#   PYTHON and MATURIN_SPEC as for wheel.sh; CARGO_TARGET_DIR: see common.sh.
#   The sdist's crates are built again from its own copy of the sources, since
#   the vectors crate's build script sees a new folder (about 80 s on 2 cores).
set -euo pipefail

script=sdist
repo="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=packaging/common.sh
source "$repo/packaging/common.sh"
python="${PYTHON:-python3}"
maturin_spec="${MATURIN_SPEC:-maturin>=1.9,<2}"

pkgid="$(cargo pkgid --manifest-path "$repo/Cargo.toml" -p zarr-reshape-conformance)"
version="${pkgid##*@}"

begin "venv with maturin (PyPI)"
"$python" -m venv "$scratch/build-venv"
"$scratch/build-venv/bin/python" -m pip install --quiet --disable-pip-version-check "$maturin_spec"
"$scratch/build-venv/bin/maturin" --version
finish "venv with maturin"

begin "maturin sdist"
(cd "$repo" && "$scratch/build-venv/bin/maturin" sdist --out "$scratch/sdist")
sdist="$(only_file sdist "$scratch/sdist/"*.tar.gz)"
echo "  $(basename "$sdist") ($(wc -c <"$sdist") bytes)"
finish "maturin sdist"

begin "pip wheel from the sdist"
# The build venv's maturin, so that nothing more comes from PyPI (its build hook
# runs `maturin` from PATH).
PATH="$scratch/build-venv/bin:$PATH" "$scratch/build-venv/bin/python" -m pip wheel --quiet \
  --disable-pip-version-check --no-deps --no-build-isolation --wheel-dir "$scratch/from-sdist" "$sdist"
wheel="$(only_file "wheel from the sdist" "$scratch/from-sdist/"*.whl)"
echo "  $(basename "$wheel") ($(wc -c <"$wheel") bytes)"
finish "pip wheel from the sdist"

begin "wheel metadata"
"$python" "$repo/packaging/check_wheel.py" "$wheel" "$version"
finish "wheel metadata"

print_timings
