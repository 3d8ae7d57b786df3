#!/usr/bin/env bash
# The zarrs conformance run, as CI runs it (see README.md):
#   builds the adapter (release, its own Cargo project and lockfile, its own target/),
#   then runs the suite against it with conformance/expectations/zarrs-0.23.14.toml.
# Usage: run.sh [REPORT.md [RUN.jsonl]]   also writes the runner's Markdown report to
# REPORT.md, and its JSON-lines record (for `zarr-reshape report`) to RUN.jsonl.
# Exits as the runner does: 0 when every MUST case passes or is a listed known
# failure, no case crashes or errors at any level unless listed with that outcome,
# and no listed case passes or ends otherwise; 1 otherwise, 2 when the run cannot start.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=../run-common.sh
source "$(dirname "$0")/../run-common.sh"
report_args "$@"

cd "$(dirname "$0")/../../.."
adapter=conformance/adapters/zarrs

# The adapter's own target dir, whatever CARGO_TARGET_DIR the caller has: the binary
# path below depends on it, and no build artefact is shared with the workspace.
CARGO_TARGET_DIR="$adapter/target" \
  cargo build --release --locked --manifest-path "$adapter/Cargo.toml"

cargo run --release --locked -p zarr-reshape-conformance -- run \
  --adapter "$adapter/target/release/zarrs-reshape-adapter" \
  --expectations conformance/expectations/zarrs-0.23.14.toml \
  ${report[@]+"${report[@]}"}
