#!/usr/bin/env bash
# The zarr-python conformance run, as CI runs it (see README.md):
#   creates or reuses .venv (setup.sh: zarr-python 3.4.2 + zarrs-python 0.2.3, pinned
#   with hashes), then runs the suite's read-array cases against adapter.py with
#   conformance/expectations/zarr-python-3.4.2.toml.
# Usage: run.sh [REPORT.md [RUN.jsonl]]   also writes the runner's Markdown report to
# REPORT.md, and its JSON-lines record (for `zarr-reshape report`) to RUN.jsonl.
# Without CPython 3.12 or 3.13, prints one line starting "SKIP zarr-python:" and
# exits 0. Otherwise exits as the runner does: 0 when every MUST case passes or is a
# listed known failure, no case crashes or errors unless listed with that outcome,
# and no listed case passes or ends otherwise; 1 otherwise, 2 when the run cannot
# start; or as setup.sh does when the environment cannot be made.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=../run-common.sh
source "$(dirname "$0")/../run-common.sh"
report_args "$@"

cd "$(dirname "$0")/../../.."
adapter=conformance/adapters/zarr-python

setup_or_skip zarr-python "$adapter"

cargo run --release --locked -p zarr-reshape-conformance -- run \
  --adapter "$adapter/.venv/bin/python $adapter/adapter.py" \
  --cases spec-cases/generated/read-array.json \
  --expectations conformance/expectations/zarr-python-3.4.2.toml \
  ${report[@]+"${report[@]}"}
