#!/usr/bin/env bash
# The adopter fixture's conformance test: the zarr-reshape library through the
# harness, every `must` case (resolve answered, the other operations skipped and
# shown as ignored). Its own lockfile (--locked); its build goes to the
# repository's target/adopter. Extra arguments go to the harness, e.g.
# `harness/tests/adopter/run.sh input-dims.prefix`.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
cargo test --manifest-path "$here/Cargo.toml" --locked \
  --target-dir "$root/target/adopter" --test reshape_conformance -- "$@"
