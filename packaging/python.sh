#!/usr/bin/env bash
# The Python package as its users get it: the wheel packaging/wheel.sh left in
# target/dist/, installed into a fresh venv for each of CPython 3.11, 3.12 and
# 3.13, then from that venv:
#   - `zarr-reshape --version` (the console script: the runner inside the wheel);
#   - `import zarr_reshape` resolves to the venv, not to python/ in this clone;
#   - the doctests of the installed package and python/tests/ (pytest), with the
#     test dependencies of python/tests/requirements.txt from the index;
#   - the example implementer test (python/examples/) against nd-image-codecs;
#   - `mypy --strict` over the installed package (it ships py.typed and a stub),
#     where zarr-python installs (3.12+: zarr_reshape.zarr is typed against it);
#   - once, with the first venv that has zarr-python: arrays written through
#     zarr_reshape.zarr.ReshapeCodec read back by zarrs (python/tests/written/check-zarrs.sh).
# Exits nonzero on any failure; an interpreter that is missing is a failure too
# (each of the three is named by the package's classifiers), unless
# ZARR_RESHAPE_PYTHONS names the ones to use.
#
# Usage: bash packaging/python.sh [PYTEST ARGUMENTS...]
#   ZARR_RESHAPE_PYTHONS: interpreters to use, space-separated (default: python3.11
#   python3.12 python3.13 from PATH, else from pyenv's versions).
set -euo pipefail

script=python
repo="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=packaging/common.sh
source "$repo/packaging/common.sh"

wheel="$(only_file "wheel in target/dist/ (run bash packaging/wheel.sh first)" "$repo"/target/dist/zarr_reshape-*.whl)"
pkgid="$(cargo pkgid --manifest-path "$repo/Cargo.toml" -p zarr-reshape-python)"
version="${pkgid##*@}"

# An interpreter for minor version $1 (e.g. 3.12): PATH first, then pyenv.
interpreter() {
  local minor="$1" candidate
  for candidate in "python$minor" "${PYENV_ROOT:-$HOME/.pyenv}"/versions/"$minor".*/bin/python; do
    if command -v "$candidate" >/dev/null 2>&1 \
      && [[ "$("$candidate" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null)" == "$minor" ]]; then
      command -v "$candidate"
      return 0
    fi
  done
  return 1
}

# Hypothesis keeps a cache in the working folder: in the scratch folder instead,
# so that a run writes nothing into the clone.
export HYPOTHESIS_STORAGE_DIRECTORY="$scratch/hypothesis"

pythons=()
if [[ -n "${ZARR_RESHAPE_PYTHONS:-}" ]]; then
  read -r -a pythons <<<"$ZARR_RESHAPE_PYTHONS"
else
  for minor in 3.11 3.12 3.13; do
    if ! found="$(interpreter "$minor")"; then
      echo "$script: no CPython $minor on PATH or in pyenv (set ZARR_RESHAPE_PYTHONS to choose)" >&2
      exit 1
    fi
    pythons+=("$found")
  done
fi

for python in "${pythons[@]}"; do
  minor="$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
  venv="$scratch/venv-$minor"
  begin "CPython $minor: fresh venv, the wheel and the test requirements"
  "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$wheel" \
    -r "$repo/python/tests/requirements.txt"
  finish "CPython $minor: install"

  begin "CPython $minor: zarr-reshape --version from the venv"
  (
    cd "$scratch"
    "$venv/bin/zarr-reshape" --version | tee "$scratch/version.txt"
    grep -qF "zarr-reshape $version" "$scratch/version.txt"
    # The package the tests import is the installed one, even from the clone's root.
    cd "$repo"
    location="$("$venv/bin/python" -c 'import zarr_reshape; print(zarr_reshape.__file__)')"
    if [[ "$location" != "$venv/"* ]]; then
      echo "$script: import zarr_reshape found $location, not the venv's package" >&2
      exit 1
    fi
  )
  finish "CPython $minor: --version, import"

  has_zarr=""
  if "$venv/bin/python" -c "import zarr" 2>/dev/null; then has_zarr=yes; fi
  ignore=()
  # zarr_reshape.zarr needs the `zarr` extra, which needs CPython 3.12+; its tests skip.
  if [[ -z "$has_zarr" ]]; then
    ignore=(--ignore "$("$venv/bin/python" -c 'import zarr_reshape, os; print(os.path.join(os.path.dirname(zarr_reshape.__file__), "zarr.py"))')")
  fi
  begin "CPython $minor: pytest (doctests of the installed package, python/tests, python/examples)"
  (
    cd "$repo"
    # pytest puts each test folder (python/tests, python/examples) on sys.path,
    # never python/ itself: the package imported is the venv's (checked above).
    "$venv/bin/python" -m pytest -q -p no:cacheprovider \
      --doctest-modules --pyargs zarr_reshape ${ignore[@]+"${ignore[@]}"} python/tests "$@"
    # A session of its own: each folder has a conftest.py, and both would be
    # imported as the same module `conftest`.
    if "$venv/bin/python" -c "import zarr, nd_image_codecs" 2>/dev/null; then
      "$venv/bin/python" -m pytest -q -p no:cacheprovider --zarr-reshape-summary python/examples "$@"
    else
      echo "SKIPPED: python/examples needs zarr-python 3.4.2 and nd-image-codecs, which need CPython 3.12+"
    fi
  )
  finish "CPython $minor: pytest"

  # Where zarr-python installs: zarr_reshape.zarr is checked against its types.
  if [[ -n "$has_zarr" ]]; then
    begin "CPython $minor: mypy --strict -p zarr_reshape (the installed package)"
    (cd "$scratch" && "$venv/bin/python" -m mypy --strict --no-incremental -p zarr_reshape)
    finish "CPython $minor: mypy"
  fi

  if [[ -n "$has_zarr" && -z "${zarrs_checked:-}" ]]; then
    begin "CPython $minor: arrays written through the package's zarr-python codec, read by zarrs"
    PYTHON="$venv/bin/python" bash "$repo/python/tests/written/check-zarrs.sh"
    finish "written arrays, zarrs"
    zarrs_checked=yes
  fi
done

print_timings
