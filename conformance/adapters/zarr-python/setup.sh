#!/usr/bin/env bash
# Creates conformance/adapters/zarr-python/.venv with zarr-python 3.4.2, zarrs-python
# 0.2.3 and their dependencies at the exact versions and wheel hashes of
# requirements.txt. Reuses the environment when it was made from the same file.
# Prints the Python it uses. Exits 0 when the environment is ready, 3 when no
# CPython 3.12 or 3.13 can be found (the wheels in requirements.txt are hashed for
# those two), and as pip does when the install fails.
# Usage: setup.sh            finds python3.12 / python3.13 on PATH, then under pyenv
#        PYTHON=/path/to/python3.12 setup.sh
# The work (and its rarer exits) is ../pinned-venv.sh's, shared with nd-image-codecs/setup.sh.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
exec bash "$here/../pinned-venv.sh" "$here" \
  'import zarr, zarrs; print("zarr", zarr.__version__, "+ zarrs-python", zarrs.__version__)'
