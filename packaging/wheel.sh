#!/usr/bin/env bash
# The pip route, as a Python user would take it: build the `zarr-reshape` wheel
# (maturin, PyO3 abi3; pyproject.toml at the repository root), check its
# metadata, install it into a fresh venv (NumPy from the index), and run the suite
# from an empty folder with only the venv's bin/ added to PATH; then check that
# the suite inside it is the repository's. Exits nonzero on any failure; prints
# each stage's wall time. (The sdist has its own script, sdist.sh.)
#
# Usage: bash packaging/wheel.sh [EXTRA RUN ARGUMENTS...]
#   Extra arguments go to `zarr-reshape run`.
#   PYTHON: the interpreter for both venvs (default python3, 3.11 or newer).
#   MATURIN_SPEC: what pip installs to build (default "maturin>=1.9,<2", from PyPI).
#   CARGO_TARGET_DIR: see common.sh. With the repository's target/, after
#   `cargo build --release -p zarr-reshape-conformance`, maturin compiles only the
#   extension module's crate.
set -euo pipefail

script=wheel
repo="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=packaging/common.sh
source "$repo/packaging/common.sh"
python="${PYTHON:-python3}"
maturin_spec="${MATURIN_SPEC:-maturin>=1.9,<2}"

pkgid="$(cargo pkgid --manifest-path "$repo/Cargo.toml" -p zarr-reshape-conformance)"
version="${pkgid##*@}"
echo "  the CLI crate's version: $version; python: $("$python" --version 2>&1)"

begin "venv with maturin (PyPI)"
"$python" -m venv "$scratch/build-venv"
"$scratch/build-venv/bin/python" -m pip install --quiet --disable-pip-version-check "$maturin_spec"
"$scratch/build-venv/bin/maturin" --version
finish "venv with maturin"

begin "maturin build --release"
(cd "$repo" && "$scratch/build-venv/bin/maturin" build --release --out "$scratch/wheels")
wheel="$(only_file wheel "$scratch/wheels/"*.whl)"
echo "  $(basename "$wheel") ($(wc -c <"$wheel") bytes)"
# Kept as the release artifact README.md's "a wheel CI built" line installs.
# Only this package's wheels are replaced there: the folder is ours (target/).
dist="$repo/target/dist"
mkdir -p "$dist"
rm -f "$dist"/zarr_reshape-*.whl
cp "$wheel" "$dist/"
echo "  kept as target/dist/$(basename "$wheel")"
finish "maturin build --release"

begin "wheel metadata"
"$python" "$repo/packaging/check_wheel.py" "$wheel" "$version"
finish "wheel metadata"

begin "fresh venv, pip install the wheel"
"$python" -m venv "$scratch/venv"
# Its one dependency, NumPy, comes from PyPI (or the index pip is configured with).
"$scratch/venv/bin/python" -m pip install --quiet --disable-pip-version-check "$wheel"
"$scratch/venv/bin/python" -m pip show --disable-pip-version-check zarr-reshape | tee "$scratch/pip-show.txt"
if ! grep -qx "Name: zarr-reshape" "$scratch/pip-show.txt" \
  || ! grep -qx "Version: $version" "$scratch/pip-show.txt"; then
  echo "$script: pip show does not report zarr-reshape $version" >&2
  exit 1
fi
finish "fresh venv + pip install"

mkdir "$scratch/empty"
cd "$scratch/empty"
export PATH="$scratch/venv/bin:$PATH"
if [[ "$(command -v zarr-reshape)" != "$scratch/venv/bin/zarr-reshape" ]]; then
  echo "$script: zarr-reshape on PATH is not the venv's" >&2
  exit 1
fi

check_installed "$version" "$@"

print_timings
