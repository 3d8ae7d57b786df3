#!/usr/bin/env bash
# The part the Python adapters' setup.sh share (zarr-python/, nd-image-codecs/): makes
# DIR/.venv from DIR/requirements.txt, wheels only, every one pinned with its sha256.
#   Reuses DIR/.venv when it was made from the same requirements.txt (the file's sha256
#   is kept in .venv/.requirements.sha256) and its python is CPython 3.12 or 3.13.
#   Otherwise finds the interpreter as $PYTHON, then python3.12, python3.13, python3 on
#   PATH, then under pyenv ($PYENV_ROOT, else ~/.pyenv: versions/3.12*, 3.13*), removes
#   the old .venv, creates it, `pip install --require-hashes --only-binary=:all:
#   --no-deps -r requirements.txt`, `pip check`, and prints "setup.sh: ready: " and
#   what READY_PY (a Python snippet run in the new venv) prints.
#   requirements.txt is hashed for CPython 3.12 and 3.13 only, so no other will do.
# Usage: pinned-venv.sh DIR READY_PY     (each setup.sh calls it; see their READMEs)
# Exits 0 when .venv is ready; 3 when no CPython 3.12 or 3.13 is found (a PYTHON that
# is not one counts as none); 1 when DIR/.venv is there but is no virtual environment
# (left as it is); 2 on wrong usage; otherwise as venv, pip or READY_PY does.
set -euo pipefail

if [[ $# -ne 2 || ! -f "$1/requirements.txt" ]]; then
  echo "usage: pinned-venv.sh DIR READY_PY (DIR holding requirements.txt)" >&2
  exit 2
fi
here="$(cd "$1" && pwd)"
ready_py="$2"
venv="$here/.venv"

version_ok() { # 3.12 or 3.13: the interpreters requirements.txt has wheel hashes for
  "$1" -c 'import sys; sys.exit(0 if sys.version_info[:2] in ((3, 12), (3, 13)) else 1)' 2>/dev/null
}

find_python() {
  local candidate pyenv="${PYENV_ROOT:-${HOME:-/root}/.pyenv}"
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
  for candidate in "$pyenv"/versions/3.12*/bin/python3 "$pyenv"/versions/3.13*/bin/python3; do
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
# Remove only what is ours to remake: a virtual environment (its pyvenv.cfg) or an
# empty folder, never a link or anything else.
if [[ -L "$venv" ]] || { [[ -e "$venv" ]] && [[ ! -f "$venv/pyvenv.cfg" || -L "$venv/pyvenv.cfg" ]] \
   && [[ -n "$(ls -A "$venv" 2>/dev/null || echo unreadable)" ]]; }; then
  echo "setup.sh: $venv is there but is no virtual environment; not removing it (remove it yourself)" >&2
  exit 1
fi
echo "setup.sh: creating $venv with $python ($("$python" --version))"
rm -rf "$venv"
"$python" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
  --require-hashes --only-binary=:all: --no-deps -r "$here/requirements.txt"
"$venv/bin/python" -m pip check --disable-pip-version-check >/dev/null
# Stamped only once READY_PY imports what was installed: a failure here remakes it next time.
ready="$("$venv/bin/python" -c "$ready_py")"
echo "$stamp" > "$venv/.requirements.sha256"
echo "setup.sh: ready: $ready"
