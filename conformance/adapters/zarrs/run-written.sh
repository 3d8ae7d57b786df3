#!/usr/bin/env bash
# The other way round (see README.md): arrays that zarrs 0.23.14 writes through its
# own Array API with reshape codec chains, read back by the reference (zarr-reshape's
# own chain) and compared with the values zarrs was given.
#   builds the adapter (as run.sh does; a no-op when run.sh ran first), lets it write
#   the arrays into target/written/ below this folder, laid out as a suite root
#   (clauses.json, arrays/<name>/, and one read-array.json per set), then runs the
#   reference over that folder. No expectations file: every case must pass.
# Two sets: zarrs-written/ (regular grids, no sharding) and zarrs-written-sharded/
# (sharding_indexed with reshape before it, inside it, nested and in its index;
# rectilinear grids). --regular-only runs the first set alone, for a reference
# whose reader does not read sharded arrays or rectilinear grids.
# Usage: run-written.sh [--regular-only] [REPORT.md]   also writes the runner's
# Markdown report.
# Exits as the runner does: 0 when every case passes, 1 otherwise, 2 when the run
# cannot start.
set -euo pipefail

sets=(zarrs-written zarrs-written-sharded)
if [[ "${1:-}" == "--regular-only" ]]; then
  sets=(zarrs-written)
  shift
fi

# shellcheck source-path=SCRIPTDIR source=../run-common.sh
source "$(dirname "$0")/../run-common.sh"
report_args "${@:1:1}" # REPORT.md only

cd "$(dirname "$0")/../../.."
adapter=conformance/adapters/zarrs
out="$adapter/target/written"

CARGO_TARGET_DIR="$adapter/target" \
  cargo build --release --locked --manifest-path "$adapter/Cargo.toml"

rm -rf "$out"
mkdir -p "$out"
cp spec-cases/clauses.json "$out/clauses.json"
"$adapter/target/release/zarrs-reshape-adapter" write-arrays "$out"

cases=()
for set in "${sets[@]}"; do
  cases+=("$out/$set")
done
cargo run --release --locked -p zarr-reshape-conformance -- run \
  --cases "${cases[@]}" \
  ${report[@]+"${report[@]}"}
