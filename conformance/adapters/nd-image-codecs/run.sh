#!/usr/bin/env bash
# The nd-image-codecs conformance run, as CI runs it (see README.md):
#   creates or reuses .venv (setup.sh: zarr-python 3.4.2 + nd-image-codecs 0.2.5,
#   pinned with hashes), then runs the whole suite (the one built into the runner, as
#   zarrs' run.sh does) against adapter.py
#   with conformance/expectations/nd-image-codecs-0.2.5.toml.
# Usage: run.sh [REPORT.md [RUN.jsonl]]   also writes the runner's Markdown report to
#        REPORT.md, and its JSON-lines record (for `zarr-reshape report`) to RUN.jsonl.
#        run.sh check-upstream            runs upstream/nd-image-codecs/cases.json
#        against upstream/nd-image-codecs/expectations.toml instead (every case a
#        listed known failure: exit 0 while every reported bug is still there).
#        ZARR_RESHAPE_BIN=/path/to/zarr-reshape uses that runner instead of
#        `cargo run --release --locked -p zarr-reshape-conformance`.
# Without CPython 3.12 or 3.13, prints one line starting "SKIP nd-image-codecs:" and
# exits 0. Otherwise exits as the runner does: 0 when every MUST case passes or is a
# listed known failure, no case crashes or errors unless listed with that outcome,
# and no listed case passes or ends otherwise; 1 otherwise, 2 when the run cannot
# start; or as setup.sh does when the environment cannot be made.
set -euo pipefail

cases=()
expectations=conformance/expectations/nd-image-codecs-0.2.5.toml
if [[ "${1:-}" == "check-upstream" ]]; then
  cases=(--cases upstream/nd-image-codecs/cases.json)
  expectations=upstream/nd-image-codecs/expectations.toml
  shift
fi
# shellcheck source-path=SCRIPTDIR source=../run-common.sh
source "$(dirname "$0")/../run-common.sh"
report_args "$@"

cd "$(dirname "$0")/../../.."
adapter=conformance/adapters/nd-image-codecs

setup_or_skip nd-image-codecs "$adapter"

if [[ -n "${ZARR_RESHAPE_BIN:-}" ]]; then
  runner=("$ZARR_RESHAPE_BIN")
else
  runner=(cargo run --release --locked -p zarr-reshape-conformance --)
fi
"${runner[@]}" run \
  --adapter "$adapter/.venv/bin/python $adapter/adapter.py" \
  ${cases[@]+"${cases[@]}"} \
  --expectations "$expectations" \
  ${report[@]+"${report[@]}"}
