#!/usr/bin/env bash
# The action's install step: `cargo install` the CLI from the action's own
# checkout (the crates are not on crates.io yet), or from the repository at
# ZARR_RESHAPE_VERSION when set. Skipped when the installed binary was built from
# the same sources (a stamp beside it), so caching ~/.cargo/bin between runs
# saves the build.
#   install.sh           install if needed
#   install.sh --stamp   print the stamp of the action's sources
set -euo pipefail
root="${GITHUB_ACTION_PATH:-$(cd "$(dirname "$0")/../../.." && pwd)}"
bin="${CARGO_INSTALL_ROOT:-${CARGO_HOME:-$HOME/.cargo}}/bin"

stamp() {
  # The sources the CLI is built from, hashed in a fixed order.
  (cd "$root" && find Cargo.toml Cargo.lock src conformance/src conformance/Cargo.toml \
      harness/src harness/Cargo.toml spec-cases -type f -not -path '*/target/*' -print0 \
    | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -d' ' -f1)
}

if [[ "${1:-}" == "--stamp" ]]; then
  stamp
  exit 0
fi

if [[ -n "${ZARR_RESHAPE_VERSION:-}" ]]; then
  want="git:${ZARR_RESHAPE_REPOSITORY:?}@${ZARR_RESHAPE_VERSION}"
else
  want="path:$(stamp)"
fi
if [[ -x "$bin/zarr-reshape" && "$(cat "$bin/.zarr-reshape.stamp" 2>/dev/null)" == "$want" ]]; then
  echo "zarr-reshape is installed from these sources already ($bin/zarr-reshape)"
  exit 0
fi
if [[ -n "${ZARR_RESHAPE_VERSION:-}" ]]; then
  cargo install --locked --force --git "$ZARR_RESHAPE_REPOSITORY" --rev "$ZARR_RESHAPE_VERSION" \
    zarr-reshape-conformance
else
  cargo install --locked --force --path "$root/conformance"
fi
mkdir -p "$bin"
printf '%s' "$want" > "$bin/.zarr-reshape.stamp"
if [[ -n "${GITHUB_PATH:-}" ]]; then
  echo "$bin" >> "$GITHUB_PATH"
fi
