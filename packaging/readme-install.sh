#!/usr/bin/env bash
# Runs every install line README.md shows, as shown, so that the README cannot
# promise a line that fails. The lines are read from README.md itself: each
# fenced block after an `<!-- install: NAME -->` comment.
#   from a clone        at the repository root, in a fresh venv, with cargo
#                       installing into a scratch root (CARGO_INSTALL_ROOT)
#   a wheel CI built    in a second fresh venv; needs the wheel that
#                       packaging/wheel.sh leaves in target/dist/
#   then                in an empty folder, with each installed binary first on
#                       PATH in turn (cargo's, then pip's from a clone, then the
#                       wheel's); my_adapter.py is adapters/python-minimal's
# The registry lines (`pip install zarr-reshape`, `cargo install
# zarr-reshape-conformance`) are not in a block: neither package is published.
#
# Usage: bash packaging/readme-install.sh
#   PYTHON: the interpreter for the venvs (default python3).
#   CARGO_TARGET_DIR: see common.sh (the repository's target/ by default, so a
#   release build made before is reused).
set -euo pipefail

script=readme-install
repo="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=packaging/common.sh
source "$repo/packaging/common.sh"
python="${PYTHON:-python3}"

# The lines of the block after `<!-- install: $1 ...-->`, comments and blank
# lines left in (bash ignores them).
block() {
  awk -v name="$1" '
    index($0, "<!-- install: " name) == 1 { want = 1; next }
    want && /^```/ { if (inside) exit; inside = 1; next }
    inside { print }
  ' "$repo/README.md"
}

run_block() {
  local name="$1" lines
  lines="$(block "$name")"
  if [[ -z "$lines" ]]; then
    echo "$script: README.md has no block after <!-- install: $name -->" >&2
    exit 1
  fi
  while IFS= read -r line; do
    [[ -z "${line// /}" || "$line" =~ ^[[:space:]]*# ]] && continue
    echo "\$ $line"
    bash -euo pipefail -c "$line"
  done <<<"$lines"
}

pkgid="$(cargo pkgid --manifest-path "$repo/Cargo.toml" -p zarr-reshape-conformance)"
version="${pkgid##*@}"

begin "from a clone"
"$python" -m venv "$scratch/clone-venv"
(
  cd "$repo"
  export CARGO_INSTALL_ROOT="$scratch/cargo-root"
  export VIRTUAL_ENV="$scratch/clone-venv"
  export PATH="$VIRTUAL_ENV/bin:$PATH"
  export PIP_DISABLE_PIP_VERSION_CHECK=1
  run_block "from a clone"
)
finish "from a clone"

wheels=("$repo"/target/dist/zarr_reshape-*.whl)
begin "a wheel CI built"
if [[ ! -f "${wheels[0]}" ]]; then
  echo "$script: no wheel in target/dist/: run bash packaging/wheel.sh first" >&2
  exit 1
fi
"$python" -m venv "$scratch/wheel-venv"
(
  cd "$repo"
  export VIRTUAL_ENV="$scratch/wheel-venv"
  export PATH="$VIRTUAL_ENV/bin:$PATH"
  # NumPy, the one dependency, from the index.
  export PIP_DISABLE_PIP_VERSION_CHECK=1
  run_block "a wheel CI built"
)
finish "a wheel CI built"

for bin in "$scratch/cargo-root/bin" "$scratch/clone-venv/bin" "$scratch/wheel-venv/bin"; do
  begin "then, with $(basename "$(dirname "$bin")")"
  folder="$(mktemp -d "$scratch/then.XXXXXX")"
  cp "$repo/conformance/adapters/python-minimal/adapter.py" "$folder/my_adapter.py"
  (
    cd "$folder"
    export PATH="$bin:$PATH"
    if [[ "$(command -v zarr-reshape)" != "$bin/zarr-reshape" ]]; then
      echo "$script: $bin holds no zarr-reshape" >&2
      exit 1
    fi
    if ! zarr-reshape --version | grep -qF "$version"; then
      echo "$script: $bin/zarr-reshape --version does not name $version" >&2
      exit 1
    fi
    run_block "then"
  )
  finish "then, with $(basename "$(dirname "$bin")")"
done

print_timings
