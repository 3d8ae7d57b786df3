#!/usr/bin/env bash
# The pre-commit hook `zarr-reshape-check-spec`: build the CLI from this
# checkout (a no-op after the first run: cargo keeps the build in the clone
# pre-commit made of this repository), then check the files pre-commit passes.
# ZARR_RESHAPE_BIN names a binary to use instead of building one.
set -euo pipefail
if [[ -n "${ZARR_RESHAPE_BIN:-}" ]]; then
  exec "$ZARR_RESHAPE_BIN" check-spec "$@"
fi
root="$(cd "$(dirname "$0")/../../.." && pwd)"
target="${CARGO_TARGET_DIR:-$root/target}"
cargo build --quiet --release --locked --manifest-path "$root/Cargo.toml" \
  -p zarr-reshape-conformance --bin zarr-reshape >&2
exec "$target/release/zarr-reshape" check-spec "$@"
