#!/usr/bin/env bash
# The pip route, as a Python user would take it: build the `zarr-reshape` wheel
# (maturin, bin bindings; pyproject.toml at the repository root), check its
# metadata, install it into a fresh venv without any index, and run the suite
# from an empty folder with only the venv's bin/ added to PATH. Also builds the
# sdist and a wheel from it, which is what pip does where no wheel fits. Exits
# nonzero on any failure; prints each stage's wall time.
#
# Usage: bash packaging/wheel.sh [EXTRA RUN ARGUMENTS...]
#   Extra arguments go to `zarr-reshape run`.
#   PYTHON: the interpreter for both venvs (default python3, 3.8 or newer).
#   MATURIN_SPEC: what pip installs to build (default "maturin>=1.9,<2", from PyPI).
#   CARGO_TARGET_DIR, when set, is used for the build; otherwise the repository's
#   target/, where `cargo build --release -p zarr-reshape-conformance` leaves
#   everything but the stripped binary, which is all maturin then builds.
set -euo pipefail
export LC_NUMERIC=C # a "." in the timings, whatever the locale

repo="$(cd "$(dirname "$0")/.." && pwd)"
python="${PYTHON:-python3}"
maturin_spec="${MATURIN_SPEC:-maturin>=1.9,<2}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$repo/target}"

scratch="$(mktemp -d "${TMPDIR:-/tmp}/zarr-reshape-wheel.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT

now() { printf '%s' "$EPOCHREALTIME"; }
timings=()
stage_start=""
begin() { echo "== wheel: $1"; stage_start="$(now)"; }
finish() {
  local seconds
  seconds="$(awk -v a="$stage_start" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')"
  timings+=("$(printf '%-34s %7s s' "$1" "$seconds")")
}

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
wheels=("$scratch/wheels/"*.whl)
if [[ ${#wheels[@]} -ne 1 || ! -f "${wheels[0]}" ]]; then
  echo "wheel: expected one wheel, found: ${wheels[*]}" >&2
  exit 1
fi
wheel="${wheels[0]}"
echo "  $(basename "$wheel") ($(wc -c <"$wheel") bytes)"
finish "maturin build --release"

begin "wheel metadata"
"$python" "$repo/packaging/check_wheel.py" "$wheel" "$version"
finish "wheel metadata"

begin "sdist, and a wheel built from it"
(cd "$repo" && "$scratch/build-venv/bin/maturin" sdist --out "$scratch/sdist")
sdists=("$scratch/sdist/"*.tar.gz)
if [[ ${#sdists[@]} -ne 1 || ! -f "${sdists[0]}" ]]; then
  echo "wheel: expected one sdist, found: ${sdists[*]}" >&2
  exit 1
fi
echo "  $(basename "${sdists[0]}") ($(wc -c <"${sdists[0]}") bytes)"
# The build venv's maturin, so that nothing more comes from PyPI (its build hook
# runs `maturin` from PATH).
PATH="$scratch/build-venv/bin:$PATH" "$scratch/build-venv/bin/python" -m pip wheel --quiet --disable-pip-version-check \
  --no-deps --no-build-isolation --wheel-dir "$scratch/from-sdist" "${sdists[0]}"
"$python" "$repo/packaging/check_wheel.py" "$scratch/from-sdist/"*.whl "$version"
finish "sdist + wheel from it"

begin "fresh venv, pip install the wheel"
"$python" -m venv "$scratch/venv"
# --no-index: the wheel has no dependencies, so nothing may come from elsewhere.
"$scratch/venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-index "$wheel"
"$scratch/venv/bin/python" -m pip show --disable-pip-version-check zarr-reshape | tee "$scratch/pip-show.txt"
if ! grep -qx "Name: zarr-reshape" "$scratch/pip-show.txt" \
  || ! grep -qx "Version: $version" "$scratch/pip-show.txt"; then
  echo "wheel: pip show does not report zarr-reshape $version" >&2
  exit 1
fi
finish "fresh venv + pip install"

mkdir "$scratch/empty"
cd "$scratch/empty"
export PATH="$scratch/venv/bin:$PATH"
if [[ "$(command -v zarr-reshape)" != "$scratch/venv/bin/zarr-reshape" ]]; then
  echo "wheel: zarr-reshape on PATH is not the venv's" >&2
  exit 1
fi

begin "zarr-reshape --version"
zarr-reshape --version | tee "$scratch/version.txt"
if ! grep -q "$version" "$scratch/version.txt"; then
  echo "wheel: zarr-reshape --version does not name $version" >&2
  exit 1
fi
finish "zarr-reshape --version"

begin "zarr-reshape run (empty folder)"
zarr-reshape run "$@"
finish "zarr-reshape run"

if [[ -n "$(ls -A .)" ]]; then
  echo "wheel: the run wrote into its working folder:" >&2
  ls -A . >&2
  exit 1
fi

echo "== wheel: PASSED (wall times)"
printf '  %s\n' "${timings[@]}"
