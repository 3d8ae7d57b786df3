#!/usr/bin/env bash
# The other way round (see README.md): arrays that zarrs 0.23.14 writes through its
# own Array API with reshape codec chains, read back by the reference (zarr-reshape's
# own chain) and compared with the values zarrs was given.
#   builds the adapter (as run.sh does; a no-op when run.sh ran first), lets it write
#   the arrays into target/written/ below this folder, laid out as a suite root
#   (clauses.json, arrays/<name>/, zarrs-written/read-array.json), then runs the
#   reference over that folder. No expectations file: every case must pass.
# Usage: run-written.sh [REPORT.md]   also writes the runner's Markdown report.
# Exits as the runner does: 0 when every case passes, 1 otherwise, 2 when the run
# cannot start.
set -euo pipefail

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

cargo run --release --locked -p zarr-reshape-conformance -- run \
  --cases "$out" \
  ${report[@]+"${report[@]}"}
