#!/usr/bin/env bash
# The pre-commit hooks `zarr-reshape-check-spec` and
# `zarr-reshape-check-spec-system`: check the files pre-commit passes.
#   pre-commit-hook.sh [--installed] [OPTIONS...] FILE...
# Without --installed, the CLI is built from this checkout (a no-op after the
# first run: cargo keeps the build in the clone pre-commit made of this
# repository); with it, the `zarr-reshape` on the PATH is used.
# ZARR_RESHAPE_BIN names a binary to use instead of either.
# pre-commit appends the file names after the hook's `args`: the leading
# check-spec options (`--fix`, `--format FORMAT`, `--format=FORMAT`) are kept as
# options, and every argument from the first other one on is a file name, passed
# after `--` so that a file named like an option (`-h.md`) is checked, not obeyed.
set -euo pipefail
installed=0
if [[ "${1:-}" == "--installed" ]]; then
  installed=1
  shift
fi
options=()
while (( $# > 0 )); do
  case "$1" in
    --fix|--format=human|--format=json|--format=github) options+=("$1"); shift ;;
    --format)
      case "${2:-}" in
        human|json|github) options+=("$1" "$2"); shift 2 ;;
        *) break ;;
      esac ;;
    --) shift; break ;;
    *) break ;;
  esac
done
if [[ -n "${ZARR_RESHAPE_BIN:-}" ]]; then
  bin="$ZARR_RESHAPE_BIN"
elif (( installed )); then
  bin=zarr-reshape
else
  root="$(cd "$(dirname "$0")/../../.." && pwd)"
  target="${CARGO_TARGET_DIR:-$root/target}"
  cargo build --quiet --release --locked --manifest-path "$root/Cargo.toml" \
    -p zarr-reshape-conformance --bin zarr-reshape >&2
  bin="$target/release/zarr-reshape"
fi
exec "$bin" check-spec "${options[@]}" -- "$@"
