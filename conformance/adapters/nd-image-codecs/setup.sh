#!/usr/bin/env bash
# Creates conformance/adapters/nd-image-codecs/.venv with zarr-python 3.4.2, nd-image-codecs
# 0.2.5 and their dependencies at the exact versions and wheel hashes of
# requirements.txt. Reuses the environment when it was made from the same file.
# Prints the Python it uses. Exits 0 when the environment is ready, 3 when no
# CPython 3.12 or 3.13 can be found (the wheels in requirements.txt are hashed for
# those two), and as pip does when the install fails.
# Usage: setup.sh            finds python3.12 / python3.13 on PATH, then under pyenv
#        PYTHON=/path/to/python3.12 setup.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
venv="$here/.venv"

version_ok() { # 3.12 or 3.13: the interpreters requirements.txt has wheel hashes for
  "$1" -c 'import sys; sys.exit(0 if sys.version_info[:2] in ((3, 12), (3, 13)) else 1)' 2>/dev/null
}

find_python() {
  local candidate
  if [[ -n "${PYTHON:-}" ]]; then
    version_ok "$PYTHON" && { echo "$PYTHON"; return 0; }
    echo "setup.sh: PYTHON=$PYTHON is not CPython 3.12 or 3.13" >&2
    return 1
  fi
  for candidate in python3.12 python3.13 python3; do
    if command -v "$candidate" >/dev/null 2>&1 && version_ok "$(command -v "$candidate")"; then
      command -v "$candidate"
      return 0
    fi
  done
  for candidate in "${PYENV_ROOT:-${HOME:-/root}/.pyenv}"/versions/3.12*/bin/python3 \
                   "${PYENV_ROOT:-${HOME:-/root}/.pyenv}"/versions/3.13*/bin/python3; do
    if [[ -x "$candidate" ]] && version_ok "$candidate"; then
      echo "$candidate"
      return 0
    fi
  done
  return 1
}

stamp="$(sha256sum "$here/requirements.txt" | cut -d' ' -f1)"
if [[ -x "$venv/bin/python" ]] && [[ "$(cat "$venv/.requirements.sha256" 2>/dev/null)" == "$stamp" ]] \
   && version_ok "$venv/bin/python"; then
  echo "setup.sh: reusing $venv ($("$venv/bin/python" --version))"
  exit 0
fi

if ! python="$(find_python)"; then
  echo "setup.sh: no CPython 3.12 or 3.13 found (on PATH or under pyenv)" >&2
  exit 3
fi
echo "setup.sh: creating $venv with $python ($("$python" --version))"
rm -rf "$venv"
"$python" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
  --require-hashes --only-binary=:all: --no-deps -r "$here/requirements.txt"
"$venv/bin/python" -m pip check --disable-pip-version-check >/dev/null
echo "$stamp" > "$venv/.requirements.sha256"
echo "setup.sh: ready: $("$venv/bin/python" -c 'from importlib.metadata import version as v; print("zarr", v("zarr"), "+ nd-image-codecs", v("nd-image-codecs"))')"
